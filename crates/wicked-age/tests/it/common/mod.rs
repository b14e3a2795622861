//! Shared helpers for the wicked-age integration tests.
#![allow(dead_code)]

use clash_core::{Game, RuleError, Scripted, ScriptedRandomness, Seat};
use serde_json::{Value, json};
use wicked_age::{Command, Event, Setup, State, WickedAge};

pub fn ysolde() -> Value {
    json!({"name": "Ysolde", "kind": "pc", "seat": "p1",
        "forms": {"covertly": 6, "directly": 4, "for_myself": 8, "for_others": 6, "with_love": 12, "with_violence": 10},
        "strengths": [{"name": "Hidden Blade", "pc_form": "covertly", "npc_form": "maneuvering",
            "significance": [{"type": "consequential", "pc_form": "with_violence", "npc_form": "action"}]}],
        "best_interests": ["Find the child of the river", "Make the Khan pay"]})
}

pub fn oren() -> Value {
    json!({"name": "Oren", "kind": "pc", "seat": "p2",
        "forms": {"covertly": 12, "directly": 10, "for_myself": 6, "for_others": 4, "with_love": 6, "with_violence": 8},
        "strengths": [{"name": "Exorcism", "pc_form": "directly", "npc_form": "action", "significance": [{"type": "potent"}]}],
        "best_interests": ["Keep the temple's secret", "Win Ysolde's trust"]})
}

pub fn khan() -> Value {
    json!({"name": "The Khan", "kind": "npc",
        "forms": {"action": [12, 8], "maneuvering": [10, 6], "self_protection": [6, 4]},
        "strengths": [{"name": "Horde", "pc_form": "directly", "npc_form": "action",
            "significance": [{"type": "consequential", "pc_form": "with_love", "npc_form": "self_protection"}]}]})
}

pub fn setup(characters: &[Value]) -> Setup {
    serde_json::from_value(json!({"characters": characters})).expect("setup json")
}

pub fn game(characters: &[Value]) -> Game<WickedAge> {
    Game::new(setup(characters)).expect("valid setup")
}

pub fn cmd(v: Value) -> Command {
    serde_json::from_value(v).expect("command json")
}

pub fn seat(s: &str) -> Seat {
    s.parse().expect("seat")
}

/// Run one command with these dice; the state is untouched on error.
pub fn run(
    g: &mut Game<WickedAge>,
    who: &str,
    command: Value,
    dice: &[u32],
) -> Result<Vec<Event>, RuleError> {
    let mut rng = ScriptedRandomness::new(dice.iter().map(|d| Scripted::Die(*d)));
    g.command(seat(who), &cmd(command), &mut rng)
        .map(|e| e.to_vec())
}

/// Run a command that must succeed.
pub fn ok(g: &mut Game<WickedAge>, who: &str, command: Value, dice: &[u32]) -> Vec<Event> {
    match run(g, who, command.clone(), dice) {
        Ok(e) => e,
        Err(e) => panic!("{command} refused: {e}"),
    }
}

/// Run a command that must be refused under `rule`, and check nothing changed.
pub fn refused(g: &mut Game<WickedAge>, who: &str, command: Value, dice: &[u32], rule: &str) {
    let before: State = g.state().clone();
    let log = g.log().len();
    match run(g, who, command.clone(), dice) {
        Ok(_) => panic!("{command} was accepted; expected a refusal under {rule}"),
        Err(e) => assert_eq!(e.rule(), Some(rule), "{command}: {e}"),
    }
    assert_eq!(g.state(), &before, "a refused command changed the state");
    assert_eq!(g.log().len(), log);
}

pub fn seat_of(name: &str) -> &'static str {
    match name {
        "Ysolde" => "p1",
        "Oren" => "p2",
        _ => "gm",
    }
}

/// `{"forms": [a, b]}` or `{"form": f}` merged into a command.
pub fn with(mut command: Value, choice: Value) -> Value {
    if let (Some(c), Some(ch)) = (command.as_object_mut(), choice.as_object()) {
        for (k, v) in ch {
            c.insert(k.clone(), v.clone());
        }
    }
    command
}

pub fn init(g: &mut Game<WickedAge>, who: &str, choice: Value, dice: &[u32]) -> Vec<Event> {
    ok(
        g,
        seat_of(who),
        with(json!({"type": "roll_initiative", "character": who}), choice),
        dice,
    )
}

pub fn challenge(
    g: &mut Game<WickedAge>,
    who: &str,
    target: &str,
    choice: Value,
    dice: &[u32],
) -> Vec<Event> {
    ok(
        g,
        seat_of(who),
        with(
            json!({"type": "challenge", "character": who, "target": target}),
            choice,
        ),
        dice,
    )
}

pub fn answer(g: &mut Game<WickedAge>, who: &str, choice: Value, dice: &[u32]) -> Vec<Event> {
    ok(
        g,
        seat_of(who),
        with(json!({"type": "answer", "character": who}), choice),
        dice,
    )
}

pub fn start(g: &mut Game<WickedAge>, names: &[&str]) -> Vec<Event> {
    ok(
        g,
        "gm",
        json!({"type": "start_conflict", "participants": names, "action": "interferes"}),
        &[],
    )
}

pub fn forms(a: &str, b: &str) -> Value {
    json!({"forms": [a, b]})
}

pub fn form(f: &str) -> Value {
    json!({"form": f})
}

pub fn none() -> Value {
    json!({})
}

pub fn state_json(g: &Game<WickedAge>) -> Value {
    serde_json::to_value(g.state()).expect("state json")
}

/// A JSON pointer into the state.
pub fn at(g: &Game<WickedAge>, pointer: &str) -> Value {
    state_json(g)
        .pointer(pointer)
        .cloned()
        .unwrap_or(Value::Null)
}

/// The three-way opening the TV-9 and TV-10 scenes share: the Khan (d12+d8), Oren and Ysolde
/// roll initiative 12, 14 and 3.
pub fn three_way_after_initiative() -> Game<WickedAge> {
    let mut g = game(&[ysolde(), oren(), khan()]);
    start(&mut g, &["The Khan", "Oren", "Ysolde"]);
    init(&mut g, "The Khan", form("action"), &[11, 1]);
    init(&mut g, "Oren", forms("covertly", "for_myself"), &[9, 5]);
    init(&mut g, "Ysolde", forms("for_myself", "directly"), &[2, 1]);
    g
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

/// The reason of a refusal, without the kernel's "illegal under WA-4:" prefix.
pub fn reason(e: &RuleError) -> String {
    match e {
        RuleError::IllegalMove { reason, .. }
        | RuleError::NotYourCall { reason, .. }
        | RuleError::InvalidSetup { reason, .. } => reason.clone(),
        RuleError::Randomness(r) => r.to_string(),
    }
}
