//! # Morra
//!
//! The old finger-guessing duel as a Clash ruleset, and the example of how a game joins Clash:
//! this crate and one line of the catalogue give it a table page with its board, seated bots,
//! odds in play, `clash odds morra` and `clash simulate morra`. The catalogue marks it an
//! example ([`clash_core::RulesetEntry::example`]), so a server offers it only with
//! `clash serve --examples`.
//!
//! ## Rules
//!
//! The players' rules are `rules.md` beside this crate's manifest (MO-1 … MO-13), shown at the
//! table. In short:
//!
//! * Two players (MO-1) play to a target score (1–99, default 11) within a round limit (1–200,
//!   default 30) (MO-2).
//! * Every round both choose a **hand** at once, in secret: the fingers they show (1–3, MO-3)
//!   and a call of the total (2–6, MO-4) that their own fingers allow (fingers + 1 to
//!   fingers + 3, MO-5). A hand is final (MO-6); only the players choose, one hand a round each
//!   (MO-7); until both are in, the other side sees only that a hand was chosen (MO-8).
//! * With the second hand both are shown and the fingers added (MO-9). A call equal to the total
//!   is right (MO-10); a player who alone is right scores the total, otherwise nobody scores
//!   (MO-11).
//! * Reaching the target wins at once (MO-12); after the round limit the higher score wins and
//!   equal scores draw (MO-13).
//!
//! ## State machine
//!
//! [`State`] holds the names, target, limit, the round's number, both scores and each player's
//! hand for this round (`None` until chosen). The game waits on every player whose hand is
//! still missing, both at once. A `show` command records the hand ([`Event::Chosen`]); the
//! second one also reveals the round ([`Event::Revealed`], which scores it and starts the next
//! round) and, when that ends the game, [`Event::GameOver`]. Nothing is left to chance: the
//! engine never draws from its `Randomness`.
//!
//! ## Hidden information
//!
//! The only secret is a chosen hand before the reveal. [`Ruleset::view`] shows a player their
//! own hand and of the other player only whether they have chosen; [`Ruleset::event_view`]
//! strips the hand from another player's `chosen` event. A position ([`Ruleset::position`]) is
//! the scores and round without the hands of the round in progress, the same for every viewer.

#[cfg(feature = "analysis")]
pub mod analysis;

use clash_core::text::plain_name;
use clash_core::{
    Listed, Panel, Preset, Randomness, RuleError, Rules, Ruleset, Seat, Status, Viewer,
};
use serde::{Deserialize, Serialize};

/// The Morra ruleset.
pub struct Morra;

/// Fingers a hand may show (MO-3).
pub const FINGERS: std::ops::RangeInclusive<u8> = 1..=3;
/// Calls a hand may make (MO-4).
pub const CALLS: std::ops::RangeInclusive<u8> = 2..=6;
/// Targets a table may play to (MO-2).
pub const TARGETS: std::ops::RangeInclusive<u32> = 1..=99;
/// Round limits a table may set (MO-2).
pub const ROUND_LIMITS: std::ops::RangeInclusive<u32> = 1..=200;
/// The longest name a player may be given, in characters.
pub const NAME_LIMIT: usize = 24;

/// One player's hand for a round: the fingers shown and the total called.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "morra/"))]
pub struct Hand {
    pub fingers: u8,
    pub call: u8,
}

impl Hand {
    /// Every hand the rules allow (MO-3 to MO-5), by fingers then call.
    pub fn all() -> Vec<Hand> {
        FINGERS
            .flat_map(|fingers| (1..=3).map(move |more| Hand::new(fingers, fingers + more)))
            .collect()
    }

    pub const fn new(fingers: u8, call: u8) -> Hand {
        Hand { fingers, call }
    }

    /// The hand as the rules allow it, or the rule it breaks.
    pub fn check(self) -> Result<Hand, RuleError> {
        if !FINGERS.contains(&self.fingers) {
            return Err(RuleError::illegal(
                "MO-3",
                format!(
                    "a hand shows one, two or three fingers, not {}",
                    self.fingers
                ),
            ));
        }
        if !CALLS.contains(&self.call) {
            return Err(RuleError::illegal(
                "MO-4",
                format!("a call is a total from 2 to 6, not {}", self.call),
            ));
        }
        let (low, high) = (self.fingers + 1, self.fingers + 3);
        if !(low..=high).contains(&self.call) {
            return Err(RuleError::illegal(
                "MO-5",
                format!(
                    "showing {}, the total can only be {low} to {high}: a call of {} cannot be right",
                    fingers(self.fingers),
                    self.call
                ),
            ));
        }
        Ok(self)
    }
}

/// How a table of Morra starts: the players' names, the target and the round limit, and for a
/// position part-way through, the round and the scores.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Setup {
    #[serde(default = "default_names")]
    pub names: [String; 2],
    #[serde(default = "default_target")]
    pub target: u32,
    #[serde(default = "default_round_limit")]
    pub round_limit: u32,
    /// The round about to be played, from 1.
    #[serde(default = "first_round")]
    pub round: u32,
    #[serde(default)]
    pub scores: [u32; 2],
}

fn default_names() -> [String; 2] {
    ["Ada".into(), "Bo".into()]
}
fn default_target() -> u32 {
    11
}
fn default_round_limit() -> u32 {
    30
}
fn first_round() -> u32 {
    1
}

impl Default for Setup {
    fn default() -> Self {
        Setup {
            names: default_names(),
            target: default_target(),
            round_limit: default_round_limit(),
            round: first_round(),
            scores: [0, 0],
        }
    }
}

/// What the round just revealed showed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reveal {
    pub round: u32,
    pub hands: [Hand; 2],
    pub total: u8,
    /// The player who alone was right and scored, by seat order (0 or 1).
    pub scorer: Option<usize>,
}

/// How a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "result", rename_all = "snake_case")]
pub enum Outcome {
    /// The player (by seat order) won.
    Win {
        player: usize,
    },
    Draw,
}

/// A game of Morra in progress.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct State {
    pub names: [String; 2],
    pub target: u32,
    pub round_limit: u32,
    pub round: u32,
    pub scores: [u32; 2],
    /// Each player's hand for this round, once chosen (secret until both are in).
    pub hands: [Option<Hand>; 2],
    pub last: Option<Reveal>,
    pub over: Option<Outcome>,
}

/// What a player sends: the hand for this round.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "morra/"))]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Command {
    /// Show `fingers` and call `call` (MO-3 to MO-5).
    Show { fingers: u8, call: u8 },
}

/// What happens at a Morra table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// `seat` chose its hand; `hand` is `None` as anyone else sees it (MO-8).
    Chosen { seat: Seat, hand: Option<Hand> },
    /// Both hands shown and the round scored (MO-9 to MO-11); the next round begins.
    Revealed { reveal: Reveal },
    /// The game ended (MO-12, MO-13).
    GameOver { outcome: Outcome },
}

/// What one viewer sees of the table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "morra/"))]
pub struct View {
    pub round: u32,
    pub target: u32,
    pub round_limit: u32,
    /// Both players, in seat order.
    pub players: Vec<PlayerView>,
    /// The round revealed last, if any.
    pub last: Option<RevealView>,
    /// How the game ended, in words, once it has.
    pub outcome: Option<String>,
}

/// A player as one viewer sees them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "morra/"))]
pub struct PlayerView {
    pub name: String,
    pub score: u32,
    /// This is the viewer's own seat.
    pub you: bool,
    /// The player has chosen a hand this round.
    pub chosen: bool,
    /// The chosen hand, shown to its own player only (MO-8).
    pub hand: Option<Hand>,
}

/// The last round as everyone saw it revealed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "morra/"))]
pub struct RevealView {
    pub round: u32,
    /// Each player's hand, in seat order.
    pub hands: Vec<Hand>,
    pub total: u8,
    /// Who alone was right and scored the total.
    pub scorer: Option<String>,
    /// The round in one sentence.
    pub text: String,
}

/// The seat of player `i` (0 or 1).
pub fn seat(i: usize) -> Seat {
    Seat::Player(i as u8 + 1)
}

/// The player (0 or 1) sitting in `seat`.
pub fn player(seat: Seat) -> Option<usize> {
    match seat {
        Seat::Player(n @ 1..=2) => Some(usize::from(n) - 1),
        _ => None,
    }
}

fn fingers(n: u8) -> String {
    match n {
        1 => "one finger".into(),
        2 => "two fingers".into(),
        3 => "three fingers".into(),
        n => format!("{n} fingers"),
    }
}

fn points(n: u32) -> String {
    if n == 1 {
        "1 point".into()
    } else {
        format!("{n} points")
    }
}

/// Build the starting state, checking the setup against MO-1, MO-2 and MO-13.
pub fn build(setup: &Setup) -> Result<State, RuleError> {
    for name in &setup.names {
        let name = name.trim();
        if name.is_empty() || name.chars().count() > NAME_LIMIT {
            return Err(RuleError::setup(
                "MO-1",
                format!("each player needs a name of 1 to {NAME_LIMIT} characters"),
            ));
        }
        plain_name("a player's name", name).map_err(|e| RuleError::setup("MO-1", e))?;
    }
    if setup.names[0].trim() == setup.names[1].trim() {
        return Err(RuleError::setup(
            "MO-1",
            "the two players need different names",
        ));
    }
    if !TARGETS.contains(&setup.target) {
        return Err(RuleError::setup(
            "MO-2",
            format!("the target is 1 to 99 points, not {}", setup.target),
        ));
    }
    if !ROUND_LIMITS.contains(&setup.round_limit) {
        return Err(RuleError::setup(
            "MO-2",
            format!(
                "the round limit is 1 to 200 rounds, not {}",
                setup.round_limit
            ),
        ));
    }
    if setup.round == 0 || setup.round > setup.round_limit + 1 {
        return Err(RuleError::setup(
            "MO-13",
            format!(
                "with a limit of {} rounds, the next round is 1 to {}, not {}",
                setup.round_limit,
                setup.round_limit + 1,
                setup.round
            ),
        ));
    }
    // Each round scores at most 6 (MO-11).
    let most = 6 * (setup.round - 1);
    if setup.scores.iter().sum::<u32>() > most {
        return Err(RuleError::setup(
            "MO-11",
            format!(
                "after {} rounds the scores add up to at most {most}",
                setup.round - 1
            ),
        ));
    }
    Ok(State {
        names: setup.names.clone().map(|n| n.trim().to_string()),
        target: setup.target,
        round_limit: setup.round_limit,
        round: setup.round,
        scores: setup.scores,
        hands: [None, None],
        last: None,
        over: None,
    })
}

/// How the game stands to end, if it does now: a player at the target (MO-12), or the round
/// limit played out (MO-13).
fn ending(round: u32, round_limit: u32, target: u32, scores: [u32; 2]) -> Option<Outcome> {
    if scores.iter().all(|s| *s < target) && round <= round_limit {
        return None;
    }
    Some(match scores[0].cmp(&scores[1]) {
        std::cmp::Ordering::Greater => Outcome::Win { player: 0 },
        std::cmp::Ordering::Less => Outcome::Win { player: 1 },
        std::cmp::Ordering::Equal => Outcome::Draw,
    })
}

/// Both hands scored (MO-9 to MO-11).
pub fn reveal(round: u32, hands: [Hand; 2]) -> Reveal {
    let total = hands[0].fingers + hands[1].fingers;
    let right = hands.map(|h| h.call == total);
    let scorer = match right {
        [true, false] => Some(0),
        [false, true] => Some(1),
        _ => None,
    };
    Reveal {
        round,
        hands,
        total,
        scorer,
    }
}

fn reveal_text(state: &State, r: &Reveal) -> String {
    let [a, b] = &state.names;
    let shows =
        |name: &str, h: &Hand| format!("{name} shows {} and calls {}", fingers(h.fingers), h.call);
    let result = match r.scorer {
        Some(i) => format!(
            "{} alone is right and scores {}",
            state.names[i],
            points(u32::from(r.total))
        ),
        None if r.hands.iter().all(|h| h.call == r.total) => {
            "both are right, so nobody scores".into()
        }
        None => "nobody is right".into(),
    };
    format!(
        "Round {}: {}; {}. The total is {}: {result}.",
        r.round,
        shows(a, &r.hands[0]),
        shows(b, &r.hands[1]),
        r.total
    )
}

fn outcome_text(state: &State, outcome: Outcome) -> String {
    let [a, b] = state.scores;
    match outcome {
        Outcome::Win { player } => format!(
            "{} wins, {} to {}.",
            state.names[player],
            a.max(b),
            a.min(b)
        ),
        Outcome::Draw => format!("A draw, {a} points each."),
    }
}

impl Ruleset for Morra {
    const ID: &'static str = "morra";

    type Setup = Setup;
    type State = State;
    type Command = Command;
    type Event = Event;
    type View = View;

    fn setup(setup: &Setup) -> Result<State, RuleError> {
        build(setup)
    }

    fn opening(state: &State) -> Vec<Event> {
        ending(state.round, state.round_limit, state.target, state.scores)
            .map(|outcome| Event::GameOver { outcome })
            .into_iter()
            .collect()
    }

    fn seats(_state: &State) -> Vec<Seat> {
        vec![seat(0), seat(1)]
    }

    fn seat_name(state: &State, seat: Seat) -> String {
        match player(seat) {
            Some(i) => state.names[i].clone(),
            None => "the GM".into(),
        }
    }

    fn status(state: &State) -> Status {
        match state.over {
            Some(outcome) => Status::over(outcome_text(state, outcome)),
            None => Status::waiting((0..2).filter(|i| state.hands[*i].is_none()).map(seat)),
        }
    }

    fn decide(
        state: &State,
        by: Seat,
        command: &Command,
        _rng: &mut dyn Randomness,
    ) -> Result<Vec<Event>, RuleError> {
        if state.over.is_some() {
            return Err(RuleError::illegal(
                "MO-12",
                "the game is over: no more hands are played",
            ));
        }
        let Some(i) = player(by) else {
            return Err(RuleError::not_your_call(
                "MO-7",
                by,
                "only the two players choose hands",
            ));
        };
        if state.hands[i].is_some() {
            return Err(RuleError::illegal(
                "MO-6",
                "you have chosen your hand for this round: it is final until both are shown",
            ));
        }
        let Command::Show { fingers, call } = *command;
        let hand = Hand::new(fingers, call).check()?;
        let mut events = vec![Event::Chosen {
            seat: by,
            hand: Some(hand),
        }];
        if let Some(other) = state.hands[1 - i] {
            let mut hands = [hand, hand];
            hands[1 - i] = other;
            let r = reveal(state.round, hands);
            let mut scores = state.scores;
            if let Some(s) = r.scorer {
                scores[s] += u32::from(r.total);
            }
            events.push(Event::Revealed { reveal: r });
            if let Some(outcome) = ending(state.round + 1, state.round_limit, state.target, scores)
            {
                events.push(Event::GameOver { outcome });
            }
        }
        Ok(events)
    }

    fn apply(state: &mut State, event: &Event) {
        match event {
            Event::Chosen { seat, hand } => {
                if let Some(i) = player(*seat) {
                    state.hands[i] = *hand;
                }
            }
            Event::Revealed { reveal } => {
                if let Some(s) = reveal.scorer {
                    state.scores[s] += u32::from(reveal.total);
                }
                state.hands = [None, None];
                state.round = reveal.round + 1;
                state.last = Some(reveal.clone());
            }
            Event::GameOver { outcome } => state.over = Some(*outcome),
        }
    }

    fn view(state: &State, viewer: Viewer) -> View {
        View {
            round: state.round,
            target: state.target,
            round_limit: state.round_limit,
            players: (0..2)
                .map(|i| {
                    let you = viewer.is(seat(i));
                    PlayerView {
                        name: state.names[i].clone(),
                        score: state.scores[i],
                        you,
                        chosen: state.hands[i].is_some(),
                        hand: if you { state.hands[i] } else { None },
                    }
                })
                .collect(),
            last: state.last.as_ref().map(|r| RevealView {
                round: r.round,
                hands: r.hands.to_vec(),
                total: r.total,
                scorer: r.scorer.map(|s| state.names[s].clone()),
                text: reveal_text(state, r),
            }),
            outcome: state.over.map(|o| outcome_text(state, o)),
        }
    }

    fn event_view(event: &Event, viewer: Viewer) -> Option<Event> {
        Some(match event {
            Event::Chosen { seat, .. } if !viewer.is(*seat) => Event::Chosen {
                seat: *seat,
                hand: None,
            },
            other => other.clone(),
        })
    }

    fn narrate(state: &State, event: &Event) -> String {
        match event {
            Event::Chosen { seat, hand } => {
                let name = Self::seat_name(state, *seat);
                match hand {
                    Some(h) => format!(
                        "{name} shows {} and calls {}, face down.",
                        fingers(h.fingers),
                        h.call
                    ),
                    None => format!("{name} chooses a hand, face down."),
                }
            }
            Event::Revealed { reveal } => reveal_text(state, reveal),
            Event::GameOver { outcome } => outcome_text(state, *outcome),
        }
    }

    fn render(state: &State, viewer: Viewer) -> String {
        let mut out = format!(
            "Morra, first to {} (round {} of at most {})\n",
            points(state.target),
            state.round.min(state.round_limit),
            state.round_limit
        );
        for i in 0..2 {
            let hand = match (state.hands[i], viewer.is(seat(i))) {
                (Some(h), true) => format!("shows {} and calls {}", fingers(h.fingers), h.call),
                (Some(_), false) => "has chosen a hand".into(),
                (None, _) if state.over.is_none() => "is choosing a hand".into(),
                (None, _) => String::new(),
            };
            out.push_str(&format!(
                "  {}: {} {hand}\n",
                state.names[i],
                points(state.scores[i])
            ));
        }
        if let Some(r) = &state.last {
            out.push_str(&reveal_text(state, r));
            out.push('\n');
        }
        if let Some(o) = state.over {
            out.push_str(&outcome_text(state, o));
            out.push('\n');
        }
        out
    }

    fn legal_commands(state: &State, by: Seat) -> Vec<Command> {
        match player(by) {
            Some(i) if state.over.is_none() && state.hands[i].is_none() => Hand::all()
                .into_iter()
                .map(|h| Command::Show {
                    fingers: h.fingers,
                    call: h.call,
                })
                .collect(),
            _ => Vec::new(),
        }
    }

    fn position(state: &State, _viewer: Viewer) -> Option<Setup> {
        Some(Setup {
            names: state.names.clone(),
            target: state.target,
            round_limit: state.round_limit,
            round: state.round,
            scores: state.scores,
        })
    }

    fn secret_pending(state: &State, seat: Seat) -> bool {
        player(seat).is_some_and(|i| state.over.is_none() && state.hands[i].is_some())
    }

    fn reveals(event: &Event) -> bool {
        matches!(event, Event::Revealed { .. })
    }

    fn asked(state: &State, seat: Seat) -> Option<String> {
        Self::status(state)
            .waiting_for
            .contains(&seat)
            .then(|| "show your fingers and call the total".into())
    }
}

impl Listed for Morra {
    const NAME: &'static str = "Morra";
    const BLURB: &'static str = "An example duel: both players show fingers and call the total at once, and a right call alone scores it.";
    const PRESETS: &'static [Preset] = &[
        Preset {
            name: "First to 11 points",
            setup: include_str!("../presets/first-to-eleven.json"),
        },
        Preset {
            name: "Sudden death: the first right call wins",
            setup: include_str!("../presets/sudden-death.json"),
        },
    ];
    const PANEL: Panel = Panel {
        script: include_str!("../panel/panel.js"),
        style: include_str!("../panel/panel.css"),
    };
    const RULES: Rules = Rules {
        markdown: include_str!("../rules.md"),
        charts: &["Scoring"],
    };
}

/// Morra as the catalogue offers it, marked as an example: its rules and board, and with the
/// `analysis` feature its table bots, odds in play and `clash` subcommands.
pub fn entry() -> clash_core::RulesetEntry {
    let entry = clash_core::RulesetEntry::of::<Morra>().as_example();
    #[cfg(feature = "analysis")]
    let entry = analysis::offer(entry);
    entry
}
