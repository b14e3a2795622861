//! Bounded and well-formed input (issue 19) and refused repeats (issue 15): oversized setups
//! and texts, unknown fields and empty setups are refused naming a rule; a command that would
//! change nothing is refused, leaving the table as it was.

use crate::campaign_support;

use campaign_support::*;
use clash_core::{Ruleset, Seat};
use iron_triangle::{Command, IronTriangle, Setup, limits};
use serde_json::{Value, json};

const GM: Seat = Seat::Gm;
const P1: Seat = Seat::Player(1);

fn setup_rule(v: Value) -> Option<&'static str> {
    let setup: Setup = serde_json::from_value(v).expect("parses");
    IronTriangle::setup(&setup).err().and_then(|e| e.rule())
}

#[test]
fn it_1_empty_setups_mean_nothing() {
    // IT-1: a table is a GM and one to five players; `{}` and `[]` name none.
    assert_eq!(setup_rule(json!({})), Some("IT-1"));
    assert_eq!(setup_rule(json!([])), Some("IT-1"));
    assert_eq!(setup_rule(json!({"players": ["p1"]})), None);
}

#[test]
fn setups_are_bounded() {
    // IT-1: at most 64 characters.
    let many: Vec<Value> = (0..=limits::MAX_CHARACTERS)
        .map(|i| hero(&format!("N{i}"), "gm"))
        .collect();
    assert_eq!(
        setup_rule(json!({"players": ["p1"], "characters": many})),
        Some("IT-1")
    );
    // IT-13: at most 32 countdowns.
    let cds: Vec<Value> = (0..=limits::MAX_COUNTDOWNS)
        .map(|i| json!({"name": format!("C{i}"), "boxes": 4}))
        .collect();
    assert_eq!(
        setup_rule(json!({"players": ["p1"], "countdowns": cds})),
        Some("IT-13")
    );
    // IT-7: names; IT-11: beliefs, flaws and goals; IT-9: energy.
    let mut long_name = ada("p1");
    long_name["name"] = json!("A".repeat(limits::MAX_NAME + 1));
    assert_eq!(setup_rule(json!({"characters": [long_name]})), Some("IT-7"));
    let mut long_move = ada("p1");
    long_move["moves"][0]["name"] = json!("x".repeat(60_000));
    assert_eq!(setup_rule(json!({"characters": [long_move]})), Some("IT-7"));
    let mut long_goal = ada("p1");
    long_goal["goal"] = json!("x".repeat(limits::MAX_TEXT + 1));
    assert_eq!(
        setup_rule(json!({"characters": [long_goal]})),
        Some("IT-11")
    );
    let mut strong = ada("p1");
    strong["established"] = json!(true);
    strong["energy"] = json!({"defend": 1000, "grapple": 1, "attack": 1});
    assert_eq!(setup_rule(json!({"characters": [strong]})), Some("IT-9"));
    let mut countdown =
        json!({"players": ["p1"], "countdowns": [{"name": "x".repeat(61), "boxes": 4}]});
    assert_eq!(setup_rule(countdown.take()), Some("IT-13"));
}

#[test]
fn unknown_fields_are_refused_everywhere() {
    for command in [
        json!({"type": "end_chain", "junk": 1}),
        json!({"type": "refuse_lethal", "junk": 1}),
        json!({"type": "kill_surrendered", "junk": 1}),
        json!({"type": "take_stance", "character": "Ada", "amount": 1, "junk": 1}),
        json!({"type": "split_loss", "character": "Ada", "split": {"defend": 1, "grapple": 0, "attack": 0, "junk": 1}}),
        json!({"type": "play_special", "character": "Ada", "special": "liquid_metal", "copy": {"special": "scouter", "junk": 1}}),
        json!({"type": "level_up", "character": "Ada", "improvement": {"kind": "learn_special", "special": {"special": "scouter", "junk": 1}}}),
        json!({"type": "pass_problem", "junk": 1}),
    ] {
        assert!(
            serde_json::from_value::<Command>(command.clone()).is_err(),
            "{command} should be refused"
        );
    }
    let mut sheet = ada("p1");
    sheet["moves"][0]["junk"] = json!(1);
    assert!(serde_json::from_value::<Setup>(json!({"characters": [sheet]})).is_err());
    let mut sheet = ada("p1");
    sheet["energy"]["junk"] = json!(1);
    assert!(serde_json::from_value::<Setup>(json!({"characters": [sheet]})).is_err());
    assert!(
        serde_json::from_value::<Setup>(json!({"players": ["p1"], "conflict": {"junk": 1}}))
            .is_err()
    );
}

#[test]
fn command_texts_are_bounded() {
    let mut t = T::three();
    let huge = "x".repeat(limits::MAX_TEXT + 1);
    t.refused(
        GM,
        json!({"type": "open_problem", "description": huge}),
        "IT-15",
    );
    t.refused(
        GM,
        json!({"type": "create_countdown", "name": "x".repeat(61), "boxes": 4}),
        "IT-13",
    );
    t.refused(
        GM,
        json!({"type": "start_conflict", "stakes": huge, "npcs": ["Bo"]}),
        "IT-22",
    );
    t.refused(
        P1,
        json!({"type": "rename_move", "character": "Ada", "move": "A-H", "name": "x".repeat(61)}),
        "IT-7",
    );
    // A refusal quotes a long name clipped, never whole.
    let command: Command =
        serde_json::from_value(json!({"type": "mark_countdown", "name": "y".repeat(10_000)}))
            .unwrap();
    let err = IronTriangle::decide(
        t.state(),
        GM,
        &command,
        &mut clash_core::SeededRandomness::new(0),
    )
    .unwrap_err();
    assert!(err.to_string().len() < 200, "{err}");
}

#[test]
fn it_7_renaming_a_move_to_its_own_name_is_refused() {
    let mut t = T::three();
    t.ok(
        P1,
        json!({"type": "rename_move", "character": "Ada", "move": "A-H", "name": "Haymaker"}),
    );
    t.refused(
        P1,
        json!({"type": "rename_move", "character": "Ada", "move": "A-H", "name": "Haymaker"}),
        "IT-7",
    ); // IT-7: nothing would change, so no second line is written
}

#[test]
fn it_65_rewriting_traits_to_what_they_say_is_refused() {
    let mut t = T::three();
    t.ok(GM, json!({"type": "end_session"}));
    let rewrite = json!({"type": "rewrite_traits", "character": "Ada", "goal": "Clear her name"});
    t.ok(P1, rewrite.clone());
    t.refused(P1, rewrite, "IT-65"); // IT-65: the sheet already says so
}

#[test]
fn d_15_an_npc_recovery_that_changes_nothing_is_refused() {
    let mut boss = hero("Boss", "gm");
    boss["established"] = json!(true);
    let mut t = T::new(json!({"characters": [ada("p1"), boss]}));
    let full = t.pc("Boss").energy.max;
    t.refused(
        GM,
        json!({"type": "recover_npc", "character": "Boss", "current": full, "refresh_specials": true}),
        "D-15",
    ); // D-15: at full energy with nothing spent there is nothing to recover
}
