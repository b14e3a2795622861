//! Positions (issue 18): the campaign where it stands, written as a setup and checked against
//! the rules.

use crate::common;

use clash_core::{Game, Ruleset, Viewer};
use common::*;
use serde_json::{Value, json};
use wicked_age::{Setup, WickedAge};

fn position_of(g: &Game<WickedAge>) -> Value {
    let setup = WickedAge::position(g.state(), Viewer::Spectator).expect("a position");
    serde_json::to_value(setup).expect("json")
}

/// Round 1 of the three-way brawl, initiative rolled: the Khan, Oren, Ysolde.
fn after_initiative() -> Value {
    position_of(&three_way_after_initiative())
}

/// The Khan's standing challenge knocks Ysolde out; her consequences are still open.
fn after_a_knockout() -> Value {
    let mut g = three_way_after_initiative();
    let first = at(&g, "/conflict/order/0");
    assert_eq!(first, json!("The Khan"));
    challenge(&mut g, "The Khan", "Ysolde", none(), &[]);
    answer(&mut g, "Ysolde", forms("with_love", "covertly"), &[1, 1]);
    assert_eq!(at(&g, "/conflict/knockouts/0/loser"), json!("Ysolde"));
    position_of(&g)
}

fn refusal(setup: Value) -> Option<&'static str> {
    let setup: Setup = serde_json::from_value(setup).expect("a setup");
    WickedAge::setup(&setup).err().and_then(|e| e.rule())
}

fn participant(s: &mut Value, name: &str) -> usize {
    s["conflict"]["participants"]
        .as_array()
        .unwrap()
        .iter()
        .position(|p| p["name"] == json!(name))
        .unwrap()
}

#[test]
fn positions_start_where_the_table_stands() {
    for (g, setup) in [
        (three_way_after_initiative(), after_initiative()),
        (
            game(&[ysolde(), khan()]),
            position_of(&game(&[ysolde(), khan()])),
        ),
    ] {
        let setup: Setup = serde_json::from_value(setup).unwrap();
        let (st, _) = clash_core::start::<WickedAge>(&setup).unwrap();
        assert_eq!(&st, g.state());
    }
    assert_eq!(refusal(after_a_knockout()), None);
}

#[test]
fn wa_2_wa_9_sheets_are_written_as_created_with_their_losses() {
    // Ysolde as created, then Exhausted: Directly d4 → 0, With Violence d10 → d8.
    let mut y = ysolde();
    y["losses"] = json!(["directly", "with_violence"]);
    let g = game(&[y, khan()]);
    let s = position_of(&g);
    assert_eq!(s["characters"][0]["losses"].as_array().unwrap().len(), 2);
    assert_eq!(refusal(s.clone()), None);
    let mut bad = s.clone();
    bad["characters"][0]["forms"]["directly"] = json!(12);
    assert_eq!(refusal(bad), Some("WA-2")); // two d12s were never dealt
    let mut bad = s;
    bad["characters"][0]["strengths"][0]["die"] = json!(10);
    assert_eq!(refusal(bad), Some("WA-9")); // Hidden Blade is a d8: dice only step down
}

#[test]
fn wa_19_wa_21_who_takes_part_and_which_round() {
    let mut s = after_initiative();
    s["conflict"]["round"] = json!(4);
    assert_eq!(refusal(s), Some("WA-21"));
    let mut s = after_initiative();
    let twin = s["conflict"]["participants"][0].clone();
    s["conflict"]["participants"]
        .as_array_mut()
        .unwrap()
        .push(twin);
    assert_eq!(refusal(s), Some("WA-19"));
}

#[test]
fn wa_4_wa_18_a_participant_must_be_able_to_take_part() {
    let mut s = after_initiative();
    let k = s["characters"]
        .as_array()
        .unwrap()
        .iter()
        .position(|c| c["name"] == json!("Ysolde"))
        .unwrap();
    // Two forms at 0: out of the chapter, yet still in the conflict.
    s["characters"][k]["losses"] = json!(["directly", "for_others", "for_others"]);
    assert_eq!(refusal(s), Some("WA-4"));
    let mut s = after_initiative();
    let khan = participant(&mut s, "The Khan");
    s["conflict"]["participants"][khan]["owe_die"] = json!(true);
    assert_eq!(refusal(s), Some("WA-18"));
}

#[test]
fn wa_20_wa_24_the_advantage_die_and_challenges_belong_to_participants_still_in() {
    let mut s = after_a_knockout();
    s["conflict"]["advantage"] = json!("Ysolde");
    assert_eq!(refusal(s), Some("WA-20"));
    let mut s = after_a_knockout();
    let roll = s["conflict"]["participants"][0]["initiative"]["roll"].clone();
    s["conflict"]["pending"] = json!({"challenger": "The Khan", "target": "Ysolde", "roll": roll});
    assert_eq!(refusal(s), Some("WA-24"));
    let mut s = after_a_knockout();
    let y = participant(&mut s, "Ysolde");
    s["conflict"]["participants"][y]["in_conflict"] = json!(true);
    assert_eq!(refusal(s), Some("WA-24")); // knocked out means out
}

#[test]
fn wa_1_wa_11_rolls_are_what_their_dice_make() {
    let mut s = after_initiative();
    s["conflict"]["standing"]["value"]["p"] = json!(20);
    assert_eq!(refusal(s), Some("WA-11"));
    let mut s = after_initiative();
    s["conflict"]["standing"]["dice"][0]["face"] = json!(13);
    assert_eq!(refusal(s), Some("WA-1"));
}

#[test]
fn wa_26_a_settled_conflict_is_closed() {
    let mut s = after_a_knockout();
    s["conflict"]["ended"] = json!({"kind": "knockouts"});
    s["conflict"]["stage"] = json!("over");
    s["conflict"]["advantage"] = Value::Null;
    s["conflict"]["knockouts"][0]["settlement"] = json!({"state": "settled"});
    assert_eq!(refusal(s), Some("WA-26"));
}

#[test]
fn unknown_fields_in_a_position_are_refused() {
    let mut s = after_initiative();
    s["conflict"]["participants"][0]["luck"] = json!(3);
    assert!(serde_json::from_value::<Setup>(s).is_err());
    let mut s = after_initiative();
    s["conflict"]["standing"]["dice"][0]["colour"] = json!("red");
    assert!(serde_json::from_value::<Setup>(s).is_err());
}
