//! Positions (issue 18): a Conflict under way written as a setup, checked against the rules.

use crate::common;

use clash_core::{Ruleset, Viewer};
use common::*;
use nd_tourists::{NdTourists, Setup};
use serde_json::{Value, json};

/// Kaiju, round 2: Levinulon (Control 2, a face-up Lasting Loss) has just placed XXI, and
/// TMDF may reject it (ND-19, D-4).
fn kaiju_window() -> Value {
    let mut t = Table::new(json!({"parties": [levinulon(), tmdf()]}));
    t.state = play_example("tv-04-kaiju-round-one.json");
    t.ok(gm(), json!({"type": "next_round"}), &[]);
    t.pass(p(1));
    t.bid(gm(), "XXI↑");
    let setup = nd_tourists::position::export_all(&t.state).expect("a position");
    serde_json::to_value(setup).expect("json")
}

fn refusal(setup: Value) -> Option<&'static str> {
    let setup: Setup = match serde_json::from_value(setup) {
        Ok(s) => s,
        Err(e) => panic!("not even a setup: {e}"),
    };
    NdTourists::setup(&setup).err().and_then(|e| e.rule())
}

#[test]
fn the_base_position_is_valid_and_resumes_the_window() {
    let setup: Setup = serde_json::from_value(kaiju_window()).unwrap();
    let (st, _) = clash_core::start::<NdTourists>(&setup).unwrap();
    assert_eq!(st.round.number, 2);
    assert_eq!(st.round.window, Some(0));
    assert_eq!(
        NdTourists::status(&st).waiting_for,
        vec![p(1)],
        "TMDF is to reject or let it stand"
    );
    // The deck holds every card the position does not name (ND-1, ND-4).
    assert_eq!(st.card_count(), 67);
}

#[test]
fn nd1_a_card_cannot_be_in_two_places() {
    let mut s = kaiju_window();
    s["position"]["discard"] = json!(["XXI"]);
    assert_eq!(refusal(s), Some("ND-1"));
}

#[test]
fn d1_d8_blanks_stay_out_and_the_excuse_never_stays_in_a_line() {
    let mut s = kaiju_window();
    s["position"]["parties"][1]["bid_line"] = json!([{"card": "Blank Rock 1"}]);
    assert_eq!(refusal(s), Some("D-1"));
    let mut s = kaiju_window();
    s["position"]["parties"][1]["bid_line"] = json!([{"card": "Excuse"}]);
    assert_eq!(refusal(s), Some("D-8"));
}

#[test]
fn nd7_nd9_control_and_tokens_agree() {
    let mut s = kaiju_window();
    s["position"]["tokens"] = json!(3);
    assert_eq!(refusal(s), Some("ND-9")); // Control 2 gives at most 2 tokens
    let mut s = kaiju_window();
    s["position"]["control"] = json!(0);
    assert_eq!(refusal(s), Some("ND-7")); // a Dominant with Control 0
}

#[test]
fn nd11_nd14_a_balance_breaker_has_no_control_and_one_card_each() {
    let mut s = kaiju_window();
    s["position"]["kind"] = json!("balance_breaker");
    assert_eq!(refusal(s.clone()), Some("ND-14")); // no tokens in a Balance Breaker
    s["position"]["tokens"] = json!(0);
    assert_eq!(refusal(s), Some("ND-11")); // Control 2 means an Unbalanced round
    let mut s = kaiju_window();
    let p = &mut s["position"];
    p["kind"] = json!("balance_breaker");
    p["dominant"] = Value::Null;
    p["control"] = json!(0);
    p["tokens"] = json!(0);
    p["window"] = Value::Null;
    p["reacting"] = Value::Null;
    p["turn"] = json!("TMDF");
    p["parties"][1]["bid_line"] = json!([{"card": "II"}, {"card": "III"}]);
    p["parties"][0]["bid_line"] = json!([{"card": "IV"}]);
    assert_eq!(refusal(s), Some("ND-14"));
}

#[test]
fn nd15_nd16_the_turn_belongs_to_a_party_in_play_and_five_reversed_wipe_out() {
    let mut s = kaiju_window();
    let p = &mut s["position"];
    p["window"] = Value::Null;
    p["reacting"] = Value::Null;
    p["turn"] = json!("TMDF");
    p["parties"][1]["status"] = json!({"wiped_out": {"round": 2}});
    assert_eq!(refusal(s), Some("ND-15"));
    let mut s = kaiju_window();
    let p = &mut s["position"];
    p["window"] = Value::Null;
    p["reacting"] = Value::Null;
    p["turn"] = json!("TMDF");
    p["parties"][1]["bid_line"] = json!(
        ["I", "II", "III", "IV", "V"]
            .iter()
            .map(|c| json!({"card": c, "reversed": true}))
            .collect::<Vec<_>>()
    );
    assert_eq!(refusal(s), Some("ND-16"));
}

#[test]
fn nd21_a_lasting_loss_has_three_cards() {
    let mut s = kaiju_window();
    s["position"]["parties"][0]["lasting"][0]["cards"] =
        json!([{"card": "Unknown Seeker"}, {"card": "VIII"}]);
    assert_eq!(refusal(s), Some("ND-21"));
}

#[test]
fn d4_only_a_party_that_can_react_is_asked_to() {
    let mut s = kaiju_window();
    // Levinulon cannot reject its own card.
    s["position"]["reacting"] = json!({"step": "reject", "party": "Levinulon"});
    assert_eq!(refusal(s), Some("D-4"));
    let mut s = kaiju_window();
    s["position"]["reacting"] = json!({"step": "turn", "party": "TMDF"});
    assert_eq!(refusal(s), Some("D-4")); // only the Dominant turns
    let mut s = kaiju_window();
    s["position"]["reacting"] = Value::Null;
    assert_eq!(refusal(s), Some("D-4")); // a window says who is to react
}

#[test]
fn nd5_the_position_names_the_parties_at_the_table() {
    let mut s = kaiju_window();
    s["position"]["turn"] = json!("Godzilla");
    assert_eq!(refusal(s), Some("ND-5"));
    let mut s = kaiju_window();
    s["position"]["parties"].as_array_mut().unwrap().reverse();
    assert_eq!(refusal(s), Some("ND-5")); // seating order
}

#[test]
fn unknown_fields_in_a_position_are_refused() {
    let mut s = kaiju_window();
    s["position"]["deck_order"] = json!(["XXI"]);
    assert!(serde_json::from_value::<Setup>(s).is_err());
}

#[test]
fn a_players_position_leaves_out_the_gms_reserve() {
    let setup: Setup = serde_json::from_value(kaiju_window()).unwrap();
    let (st, _) = clash_core::start::<NdTourists>(&setup).unwrap();
    let mine = NdTourists::position(&st, Viewer::Seat(p(1))).unwrap();
    let text = serde_json::to_string(&mine).unwrap();
    let held = st.parties[0].characters[0].reserve[0].card;
    assert!(!text.contains(&format!("\"{held}\"")), "{text}");
    assert_eq!(mine.parties[0].characters[0].reserve_unseen, 1);
    // Started anew, the table waits for the GM to deal the unseen card, then resumes.
    let (fresh, _) = clash_core::start::<NdTourists>(&mine).unwrap();
    assert_eq!(NdTourists::status(&fresh).waiting_for, vec![gm()]);
    assert_eq!(NdTourists::legal_commands(&fresh, gm()).len(), 1);
}
