//! Helpers shared by the integration tests.
#![allow(dead_code)]

use clash_core::scenario::run_str;
use clash_core::{
    Randomness, RuleError, RulesetEntry, Scripted, ScriptedRandomness, Seat, SeededRandomness,
    execute,
};
use nd_tourists::{Card, Command, Event, NdTourists, Setup, State};
use serde_json::{Value, json};

/// Play an example file and return its final state.
pub fn play_example(name: &str) -> State {
    let path = format!(
        "{}/../../examples/nd-tourists/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).expect("example file");
    let report = run_str(&[RulesetEntry::of::<NdTourists>()], &text).expect("example runs");
    serde_json::from_value(report.final_state).expect("state deserializes")
}

pub fn card(name: &str) -> Card {
    name.parse().expect("card name")
}

pub fn gm() -> Seat {
    Seat::Gm
}

pub fn p(n: u8) -> Seat {
    Seat::Player(n)
}

/// Picks for draws written like the spec: "XIV↓", "Paper Servant↑".
pub fn picks(draws: &[&str]) -> ScriptedRandomness {
    let mut v = Vec::new();
    for d in draws {
        let (name, rev) = match (d.strip_suffix('↓'), d.strip_suffix('↑')) {
            (Some(n), _) => (n, "reversed"),
            (_, Some(n)) => (n, "upright"),
            _ => (*d, "upright"),
        };
        v.push(Scripted::Pick(name.to_string()));
        v.push(Scripted::Pick(rev.to_string()));
    }
    ScriptedRandomness::new(v)
}

/// A table under test: setup, state and log.
pub struct Table {
    pub setup: Setup,
    pub state: State,
    pub log: Vec<Event>,
}

impl Table {
    pub fn new(setup: Value) -> Table {
        let setup: Setup = serde_json::from_value(setup).expect("setup json");
        let state = nd_tourists::setup::build(&setup).expect("valid setup");
        Table {
            setup,
            state,
            log: Vec::new(),
        }
    }

    /// Run a command with the given draws; panics (test failure) if refused.
    pub fn ok(&mut self, seat: Seat, command: Value, draws: &[&str]) -> Vec<Event> {
        match self.try_cmd(seat, command.clone(), draws) {
            Ok(e) => e,
            Err(e) => panic!("{seat} {command}: {e}"),
        }
    }

    pub fn try_cmd(
        &mut self,
        seat: Seat,
        command: Value,
        draws: &[&str],
    ) -> Result<Vec<Event>, RuleError> {
        let command: Command = serde_json::from_value(command).expect("command json");
        let mut rng = picks(draws);
        self.run(seat, &command, &mut rng)
    }

    pub fn run(
        &mut self,
        seat: Seat,
        command: &Command,
        rng: &mut dyn Randomness,
    ) -> Result<Vec<Event>, RuleError> {
        let events = execute::<NdTourists>(&mut self.state, seat, command, rng)?;
        self.log.extend(events.iter().cloned());
        Ok(events)
    }

    /// A command that must be refused under `rule` and leave the state as it was.
    pub fn refused(&mut self, seat: Seat, command: Value, rule: &str) {
        let before = self.state.clone();
        let err = self
            .try_cmd(seat, command.clone(), &[])
            .expect_err(&format!("{command} should be refused"));
        assert_eq!(err.rule(), Some(rule), "{command}: {err}");
        assert_eq!(self.state, before, "a refused command changed the state");
    }

    pub fn bid(&mut self, seat: Seat, draw: &str) -> Vec<Event> {
        self.ok(seat, json!({"type": "bid"}), &[draw])
    }

    pub fn pass(&mut self, seat: Seat) -> Vec<Event> {
        self.ok(seat, json!({"type": "pass"}), &[])
    }

    /// D-4: every party still to react to the card in the window lets it stand, in turn.
    pub fn settle(&mut self) {
        while self.state.round.rejection.is_none()
            && let Some(now) = self.state.round.reacting
        {
            let seat = self.state.table.parties[now.party as usize].seat;
            self.ok(seat, json!({"type": "let_it_stand"}), &[]);
        }
    }

    /// A bid whose card nobody reacts to (D-4: everyone able to react lets it stand).
    pub fn bid_settled(&mut self, seat: Seat, draw: &str) -> Vec<Event> {
        let from = self.log.len();
        self.bid(seat, draw);
        self.settle();
        self.log[from..].to_vec()
    }

    pub fn seeded(
        &mut self,
        seat: Seat,
        command: Value,
        seed: u64,
    ) -> Result<Vec<Event>, RuleError> {
        let command: Command = serde_json::from_value(command).expect("command json");
        self.run(seat, &command, &mut SeededRandomness::new(seed))
    }
}

pub fn tmdf() -> Value {
    json!({"name": "TMDF", "seat": "p1", "goal": "Save Tokyo",
        "characters": [{"name": "TMDF", "attribute": {"name": "Paper", "value": 5},
            "aspects": ["Well-trained team", "The most agile mechs in the world", "Excellent knowledge of Tokyo"],
            "weaknesses": ["The second-in-command is severely wounded"]}]})
}

pub fn levinulon() -> Value {
    json!({"name": "Levinulon", "seat": "gm", "goal": "Destroy Tokyo",
        "characters": [{"name": "Levinulon", "attribute": {"name": "Destroy Everything", "value": 8}}]})
}

pub fn us() -> Value {
    json!({"name": "US", "seat": "p2", "characters": [{"name": "US Covert Mech Ops", "attribute": {"name": "Blades", "value": 5},
        "aspects": ["Highly-trained Operatives", "Deadly tactical weapons", "Space-to-Ground support", "Regenerative Alloy"],
        "weaknesses": ["Limited Knowledge of Tokyo"]}]})
}

pub fn ann() -> Value {
    json!({"name": "ANN", "seat": "p3", "characters": [{"name": "ANN news crew", "attribute": {"name": "Serpent", "value": 4}, "aspects": ["No Fear"]}]})
}

/// A simple party: one character with attribute `v` and no Reserve.
pub fn plain(name: &str, seat: &str, v: i32) -> Value {
    json!({"name": name, "seat": seat, "characters": [{"name": name, "attribute": {"name": "Might", "value": v}, "reserve_size": 0,
        "aspects": ["Stubborn"], "weaknesses": ["Slow"]}]})
}

/// Raw tokens a player must never read (issue 15): Rust debug text, seat ids and indices
/// where a name belongs. Returns each offending piece of `text`.
pub fn raw_tokens(text: &str) -> Vec<String> {
    use std::sync::LazyLock;
    static PATTERNS: LazyLock<Vec<regex::Regex>> = LazyLock::new(|| {
        [
            r"Some\(",
            r"\bNone\b",
            r"\b(true|false)\b",
            r"\btype:",
            r"\bp\d+\b",
            r"\bgm\b",
            r"\b(party|character|seat|participant) \d+\b",
            r"\[\d+(, \d+)*\]",
            r"\b[A-Z][a-z]+(?:[A-Z][a-z]+)+\b",
            r"\w+ \{ \w+:",
            r#"\{""#,
        ]
        .iter()
        .map(|p| regex::Regex::new(p).expect("pattern"))
        .collect()
    });
    PATTERNS
        .iter()
        .flat_map(|re| re.find_iter(text).map(|m| m.as_str().to_string()))
        .collect()
}

/// The reason of a refusal, without the kernel's "illegal under ND-4:" prefix.
pub fn reason(e: &RuleError) -> String {
    match e {
        RuleError::IllegalMove { reason, .. }
        | RuleError::NotYourCall { reason, .. }
        | RuleError::InvalidSetup { reason, .. } => reason.clone(),
        RuleError::Randomness(r) => r.to_string(),
    }
}
