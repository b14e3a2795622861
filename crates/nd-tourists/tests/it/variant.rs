//! Rule variants: each changed number changes exactly what its rule says, and nothing changes
//! without one.

use crate::common::*;
use nd_tourists::state::{EndReason, Phase, Status};
use serde_json::{Value, json};

/// The Kaiju Conflict under `changes` (none: the rules as written), started with Levinulon's
/// Reserve card drawn.
fn kaiju(changes: Value) -> Table {
    let mut setup = json!({"parties": [levinulon(), tmdf()]});
    if changes != json!(null) {
        setup["variant"] = json!({"name": "test", "changes": changes});
    }
    let mut t = Table::new(setup);
    t.ok(gm(), json!({"type": "start"}), &["Rock Lover↑"]);
    t
}

fn refused(changes: Value) -> Option<&'static str> {
    let setup =
        json!({"parties": [levinulon(), tmdf()], "variant": {"name": "bad", "changes": changes}});
    let s: nd_tourists::Setup = serde_json::from_value(setup).unwrap();
    nd_tourists::setup::build(&s).err().and_then(|e| e.rule())
}

#[test]
fn a_setup_without_a_variant_is_written_exactly_as_before() {
    let t = kaiju(json!(null));
    let written = serde_json::to_value(&t.setup).unwrap();
    assert!(written.get("variant").is_none());
    let table = serde_json::to_value(&*t.state.table).unwrap();
    assert!(table.get("rules").is_none() && table.get("variant").is_none());
    assert!(t.state.table.rules.is_default());
}

#[test]
fn nd10_a_smaller_reserve() {
    let sizes = |t: &Table| {
        (
            t.state.table.parties[1].characters[0].reserve_size,
            t.state.table.parties[0].reserve_draws,
        )
    };
    assert_eq!(sizes(&kaiju(json!(null))), (3, 1)); // ND-10: the sheet's 3; one per PC sheet
    assert_eq!(sizes(&kaiju(json!({"reserve": 2}))), (2, 1));
    // With no Reserve on the sheets the GM's usual draw is none (ND-10).
    let mut t = Table::new(
        json!({"parties": [levinulon(), tmdf()], "variant": {"name": "none", "changes": {"reserve": 0}}}),
    );
    assert_eq!(sizes(&t), (0, 0));
    t.ok(gm(), json!({"type": "start"}), &[]);
    assert_eq!(t.state.parties[0].reserve_cards(), 0);
}

#[test]
fn nd9_more_tokens_per_point_of_control() {
    assert_eq!(kaiju(json!(null)).state.tokens, 1); // ND-9: Control 1, 1 token
    assert_eq!(kaiju(json!({"tokens": 2})).state.tokens, 2);
    assert_eq!(kaiju(json!({"tokens": 0})).state.tokens, 0);
}

#[test]
fn nd1_a_smaller_deck() {
    let plain = Table::new(json!({"parties": [levinulon(), tmdf()]}));
    assert_eq!(plain.state.deck.len(), 67); // ND-1
    let t = Table::new(
        json!({"parties": [levinulon(), tmdf()], "variant": {"name": "small", "changes": {"triumphs": 10, "excuse": false}}}),
    );
    assert_eq!(t.state.deck.len(), 67 - 11 - 1);
    assert!(!t.state.deck.contains(card("XXI")) && !t.state.deck.contains(card("Excuse")));
    assert!(t.state.deck.contains(card("X")));
    // A Reserve card the variant leaves out of the deck is refused (ND-10).
    let mut holder = tmdf();
    holder["characters"][0]["reserve"] = json!(["XXI"]);
    let s: nd_tourists::Setup = serde_json::from_value(
        json!({"parties": [levinulon(), holder], "variant": {"name": "small", "changes": {"triumphs": 20}}}),
    )
    .unwrap();
    assert_eq!(
        nd_tourists::setup::build(&s).unwrap_err().rule(),
        Some("ND-10")
    );
}

/// Levinulon bids reversed cards while TMDF passes; Levinulon never turns or covers.
fn levinulon_bids(t: &mut Table, cards: &[&str]) {
    for c in cards {
        t.pass(p(1));
        t.bid_settled(gm(), c);
    }
}

#[test]
fn nd16_a_wipe_out_at_four_reversed_cards() {
    let mut written = kaiju(json!(null));
    levinulon_bids(&mut written, &["I↓", "II↓", "III↓", "IV↓"]);
    assert_eq!(written.state.parties[0].status, Status::InPlay); // ND-16b: 5 needed
    let mut t = kaiju(json!({"wipe_out": 4}));
    levinulon_bids(&mut t, &["I↓", "II↓", "III↓", "IV↓"]);
    assert_eq!(t.state.parties[0].status, Status::WipedOut { round: 1 });
    assert_eq!(t.state.victor, Some(1)); // ND-23: TMDF is the last party left
}

#[test]
fn nd21_a_lasting_loss_from_two_reversed_cards() {
    let end_round = |t: &mut Table| {
        t.pass(p(1));
        t.pass(gm());
    };
    let mut written = kaiju(json!(null));
    levinulon_bids(&mut written, &["I↓", "II↓"]);
    end_round(&mut written);
    assert_eq!(written.state.parties[0].temporary.len(), 1); // ND-21: 2 reversed, Temporary
    let mut t = kaiju(json!({"lasting": 2}));
    levinulon_bids(&mut t, &["I↓", "II↓"]);
    end_round(&mut t);
    assert!(t.state.parties[0].temporary.is_empty());
    assert_eq!(t.state.parties[0].lasting.len(), 1);
}

#[test]
fn d16_control_that_wins() {
    let round = |t: &mut Table| {
        levinulon_bids(t, &["Rock Ruler↑"]);
        t.pass(p(1));
        t.pass(gm()); // TMDF has no card, so it does not break Levinulon: Control 2 (ND-17)
    };
    let mut written = kaiju(json!(null));
    round(&mut written);
    assert_eq!(
        (written.state.control, written.state.phase),
        (2, Phase::Aftermath)
    ); // D-16
    let mut t = kaiju(json!({"control_victory": 2}));
    round(&mut t);
    assert_eq!(t.state.phase, Phase::Ended);
    assert_eq!(t.state.victor, Some(0));
    assert_eq!(t.state.ended, Some(EndReason::ControlVictory));
}

#[test]
fn a_number_out_of_bounds_is_refused_naming_its_rule() {
    assert_eq!(refused(json!({"wipe_out": 2})), Some("ND-16"));
    assert_eq!(refused(json!({"reserve": 11})), Some("ND-10"));
    assert_eq!(refused(json!({"lasting": 6, "wipe_out": 6})), Some("ND-21"));
    assert_eq!(refused(json!({"energy": 12})), Some("ND-variant"));
    assert_eq!(refused(json!({"excuse": 3})), Some("ND-1"));
}

#[test]
fn a_position_keeps_its_variant() {
    let t = kaiju(json!({"wipe_out": 4}));
    let pos = nd_tourists::position::export(&t.state, clash_core::Viewer::Seat(gm())).unwrap();
    assert_eq!(pos.variant, t.setup.variant);
    let again = nd_tourists::setup::build(&pos).unwrap();
    assert_eq!(again.table.rules.wipe_out, 4);
}
