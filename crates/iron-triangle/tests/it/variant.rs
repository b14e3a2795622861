//! Rule variants: each changed number changes exactly what its rule says, and nothing changes
//! without one.

use crate::{campaign_support, conflict_support};

use clash_core::{Ruleset, ScriptedRandomness};
use iron_triangle::{ConflictEvent, Event, IronTriangle, Setup};
use serde_json::{Value, json};

fn variant(changes: Value) -> Value {
    json!({"name": "test", "changes": changes})
}

/// A conflict table of `characters` under `changes`.
fn conflict_table(characters: Vec<Value>, changes: Value) -> conflict_support::T {
    let setup: Setup =
        serde_json::from_value(json!({"characters": characters, "variant": variant(changes)}))
            .unwrap();
    let table = IronTriangle::setup(&setup).expect("valid setup");
    conflict_support::T {
        setup,
        table,
        log: Vec::new(),
        rng: ScriptedRandomness::new([]).then_seeded(7),
    }
}

fn loss_total(events: &[Event], who: &str) -> u32 {
    events
        .iter()
        .find_map(|e| match e {
            Event::Conflict(ConflictEvent::TurnResolved { breakdown, .. }) => breakdown
                .iter()
                .find(|b| b.character == who)
                .map(|b| b.total),
            _ => None,
        })
        .expect("a loss for this character")
}

#[test]
fn a_setup_without_a_variant_is_written_exactly_as_before() {
    let t = campaign_support::T::new(json!({"players": ["p1"]}));
    assert!(
        serde_json::to_value(&t.setup)
            .unwrap()
            .get("variant")
            .is_none()
    );
    let table = IronTriangle::setup(&t.setup).unwrap();
    assert!(serde_json::to_value(&table).unwrap().get("rules").is_none());
    let view = IronTriangle::view(&table, clash_core::Viewer::Spectator);
    assert!(serde_json::to_value(&view).unwrap().get("rules").is_none());
}

#[test]
fn it9_a_new_character_spreads_a_different_energy_total() {
    use campaign_support::{P1, T, ada};
    let mut written = T::new(json!({"players": ["p1"]}));
    let mut twelve = ada("p1");
    twelve["energy"] = json!({"defend": 4, "grapple": 4, "attack": 4});
    written.refused(
        P1,
        json!({"type": "create_character", "sheet": twelve}),
        "IT-9",
    );
    let mut t = T::new(json!({"players": ["p1"], "variant": variant(json!({"energy": 12}))}));
    t.refused(
        P1,
        json!({"type": "create_character", "sheet": ada("p1")}),
        "IT-9",
    ); // 10 is short now
    t.made(P1, json!({"type": "create_character", "sheet": twelve}));
    assert_eq!(t.pc("Ada").energy.max.total(), 12);
}

#[test]
fn it41_three_followups_to_a_combo() {
    use conflict_support::{ALL, sheet, with};
    let three = || {
        with(
            sheet("Pat", "p1", [5, 5, 5], &ALL),
            "combos",
            json!([{"from": "A-L", "followups": ["G-H", "A-H", "D-H"]}]),
        )
    };
    let gm = || sheet("X", "gm", [10, 10, 10], &ALL);
    let s: Setup = serde_json::from_value(json!({"characters": [three(), gm()]})).unwrap();
    assert_eq!(IronTriangle::setup(&s).unwrap_err().rule(), Some("IT-41")); // 1 or 2
    let t = conflict_table(vec![three(), gm()], json!({"followups": 3}));
    assert_eq!(
        t.table.character("Pat").unwrap().combos[0].followups.len(),
        3
    );
}

/// TV-4 to the end of T2 under `changes`: You loses with a disadvantaged D-L to G-M; the loss.
fn tv4_second_loss(changes: Value) -> u32 {
    use conflict_support::{BASIC, sheet};
    let mut t = conflict_table(
        vec![
            sheet("You", "p1", [10, 10, 10], &BASIC),
            sheet("Opp", "gm", [10, 10, 10], &BASIC),
        ],
        changes,
    );
    t.start(&["Opp"], false, false);
    t.face("You", "Opp");
    t.exchange(("You", None, "A-L"), ("Opp", None, "D-M"));
    t.settle();
    t.face("Opp", "You");
    let ev = t.exchange(("Opp", None, "G-M"), ("You", None, "D-L"));
    loss_total(&ev, "You")
}

#[test]
fn it39_a_heavier_disadvantage() {
    assert_eq!(tv4_second_loss(json!({})), 5); // TV-4 T2: 4 + 1 per pile card
    assert_eq!(tv4_second_loss(json!({"disadvantage": 2})), 6); // 4 + 2 × 1
    assert_eq!(tv4_second_loss(json!({"disadvantage": 0})), 4);
}

/// TV-5's combo table under `changes`.
fn tv5(changes: Value) -> conflict_support::T {
    use conflict_support::{BASIC, sheet, with};
    let pc = with(
        sheet("Pat", "p1", [5, 5, 5], &["A-L", "G-H", "A-H", "D-H"]),
        "combos",
        json!([
            {"from": "A-L", "followups": ["G-H"]}, {"from": "G-H", "followups": ["D-H", "A-H"]}
        ]),
    );
    let mate = sheet("Mo", "p2", [5, 5, 5], &["G-M", "D-M"]);
    let mut t = conflict_table(
        vec![pc, mate, sheet("X", "gm", [10, 10, 10], &BASIC)],
        changes,
    );
    t.start(&["X"], false, false);
    t.face("Pat", "X");
    t.exchange(("Pat", None, "A-L"), ("X", None, "G-M"));
    t.settle();
    t
}

#[test]
fn it45_a_bigger_combo_bonus() {
    let second = |changes: Value| {
        let mut t = tv5(changes);
        t.face("Pat", "X");
        let ev = t.exchange(("Pat", None, "G-H"), ("X", None, "D-L"));
        loss_total(&ev, "X")
    };
    assert_eq!(second(json!({})), 5); // TV-5: 4 + 1 per chain card
    assert_eq!(second(json!({"combo_bonus": 2})), 6); // 4 + 2 × 1
}

#[test]
fn it46_two_wins_in_a_chain_then_pass() {
    let mut written = tv5(json!({}));
    written.face("Pat", "X");
    written.exchange(("Pat", None, "G-H"), ("X", None, "D-L"));
    written.settle();
    written.cmd("p1", json!({"type": "pick_active", "character": "Pat"})); // 2 wins: Pat goes on
    let mut t = tv5(json!({"chain_wins": 2}));
    t.face("Pat", "X");
    t.exchange(("Pat", None, "G-H"), ("X", None, "D-L"));
    t.settle();
    assert_eq!(
        t.refused("p1", json!({"type": "pick_active", "character": "Pat"})),
        "IT-46"
    ); // two wins: Pat must pass
    t.cmd("p1", json!({"type": "pick_active", "character": "Mo"}));
}

#[test]
fn a_number_out_of_bounds_is_refused_naming_its_rule() {
    let refused = |changes: Value| {
        let s: Setup =
            serde_json::from_value(json!({"players": ["p1"], "variant": variant(changes)}))
                .unwrap();
        IronTriangle::setup(&s).err().and_then(|e| e.rule())
    };
    assert_eq!(refused(json!({"energy": 31})), Some("IT-9"));
    assert_eq!(refused(json!({"chain_wins": 0})), Some("IT-46"));
    assert_eq!(refused(json!({"stances": 2})), Some("IT-variant"));
}

#[test]
fn a_position_keeps_the_variants_numbers() {
    let t = tv5(json!({"combo_bonus": 2, "chain_wins": 2}));
    let pos =
        IronTriangle::position(&t.table, clash_core::Viewer::Seat(clash_core::Seat::Gm)).unwrap();
    let again = IronTriangle::setup(&pos).unwrap();
    assert_eq!(again.rules, t.table.rules);
    assert_eq!(again.rules.chain_wins, 2);
}
