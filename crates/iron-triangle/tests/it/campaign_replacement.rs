//! Replacement characters (IT-66, D-33).

use crate::campaign_support;

use campaign_support::*;
use serde_json::{Value, json};

/// A dead level-7 PC of p1 who knew nine basic moves, a combo and a special.
fn dead_master() -> Value {
    let moves: Vec<Value> = [
        "D-L", "D-M", "D-H", "G-L", "G-M", "G-H", "A-L", "A-M", "A-H", "G-J",
    ]
    .iter()
    .map(|m| json!({"move": m, "name": format!("Old {m}")}))
    .collect();
    let mut s = ada("p1");
    s["name"] = json!("Master");
    s["established"] = json!(true);
    s["level"] = json!(7);
    s["moves"] = json!(moves);
    s["combos"] = json!([{"from": "A-H", "followups": ["G-M", "D-L"]}]);
    s["specials"] = json!([{"special": "scouter"}]);
    s
}

fn table_with_dead_master() -> T {
    let mut t = T::new(json!({"characters": [dead_master(), hero("Bo", "p2")]}));
    // The master died in a lethal conflict (the conflict module sets this; here we start after it).
    t.edit(|table| table.characters[0].dead = true);
    t
}

fn pupil() -> Value {
    let mut s = hero("Pupil", "p1");
    s["name"] = json!("Pupil");
    s
}

fn up(improvement: Value) -> Value {
    json!({"type": "level_up", "character": "Pupil", "improvement": improvement})
}

#[test]
fn it_66_level_at_most_min_5_and_the_dead_pcs_level() {
    let mut t = table_with_dead_master();
    let create = |level: u32| json!({"type": "create_replacement", "sheet": pupil(), "replaces": "Master", "level": level});
    t.refused(P1, create(6), "IT-66"); // IT-66: min(5, 7) = 5
    t.refused(P2, json!({"type": "create_replacement", "sheet": hero("Pupil", "p2"), "replaces": "Master", "level": 1}), "IT-66"); // not p2's PC
    t.refused(
        P1,
        json!({"type": "create_replacement", "sheet": pupil(), "replaces": "Bo", "level": 1}),
        "IT-66",
    ); // Bo lives
    t.made(P1, create(5));
    let pupil = t.pc("Pupil");
    assert_eq!(pupil.level, 0); // IT-66: built at level 0 …
    assert_eq!(t.state().campaign.replacements[0].levels_left, 5); // … then each level-up resolved
}

#[test]
fn d_33_level_ups_learn_only_the_dead_pcs_moves_and_combos_not_specials() {
    let mut t = table_with_dead_master();
    t.made(
        P1,
        json!({"type": "create_replacement", "sheet": pupil(), "replaces": "Master", "level": 3}),
    );
    t.ok(
        GM,
        json!({"type": "open_problem", "description": "A test of skill"}),
    );
    t.refused(P1, json!({"type": "choose_option", "option": 1}), "IT-66"); // level-ups first
    t.refused(
        P1,
        up(json!({"kind": "learn_move", "move": "A-S", "name": "Spin"})),
        "IT-8",
    ); // IT-8 still applies
    t.refused(
        P1,
        up(json!({"kind": "learn_special", "special": {"special": "scouter"}})),
        "D-33",
    ); // no specials
    t.refused(
        P1,
        up(json!({"kind": "energy", "action": "attack"})),
        "D-33",
    ); // no zero marks
    t.ok(
        P1,
        up(json!({"kind": "learn_move", "move": "G-M", "name": "Clinch"})),
    );
    t.refused(
        P1,
        up(json!({"kind": "combo_edits", "edits": [{"from": "A-H", "followup": "G-L"}]})),
        "D-33",
    ); // not the master's
    t.ok(
        P1,
        up(json!({"kind": "combo_edits", "edits": [{"from": "A-H", "followup": "G-M"}]})),
    );
    t.ok(
        P1,
        up(json!({"kind": "learn_move", "move": "D-L", "name": "Low Guard"})),
    );
    let p = t.pc("Pupil");
    assert_eq!(p.level, 3); // IT-66
    assert_eq!(
        p.followups("A-H".parse().unwrap()),
        ["G-M".parse().unwrap()]
    ); // D-33
    assert!(t.state().campaign.replacements.is_empty());
    t.refused(
        P1,
        up(json!({"kind": "learn_move", "move": "A-L", "name": "x"})),
        "IT-60",
    ); // done: normal rules again
}

#[test]
fn d_33_the_starting_level_is_limited_to_what_the_tradition_offers() {
    let mut t = T::new(json!({"characters": [ada("p1"), hero("Bo", "p2")]}));
    t.edit(|table| {
        table.characters[0].level = 4; // Ada reached level 4 by improving energy only, then died
        table.characters[0].dead = true;
    });
    let create = |level: u32| json!({"type": "create_replacement", "sheet": pupil(), "replaces": "Ada", "level": level});
    t.refused(P1, create(1), "D-33"); // D-33: Ada knew only the starting moves and no combos
    t.made(P1, create(0));
}

#[test]
fn it_66_a_replacement_at_level_0_plays_at_once() {
    let mut t = table_with_dead_master();
    t.made(
        P1,
        json!({"type": "create_replacement", "sheet": pupil(), "replaces": "Master", "level": 0}),
    );
    assert!(t.state().campaign.replacements.is_empty());
    t.refused(
        P1,
        json!({"type": "create_character", "sheet": hero("Another", "p1")}),
        "IT-1",
    ); // one PC each
}
