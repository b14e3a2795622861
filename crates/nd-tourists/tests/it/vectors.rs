//! The spec's test vectors TV-1 … TV-9, each played from its example file (the same file
//! `clash run` executes) and checked here on the typed state.

use crate::common;

use common::*;
use nd_tourists::setup::{build, initial_control};
use nd_tourists::state::{Gravity, Phase, RoundKind, Status};
use serde_json::json;

#[test]
fn tv1_initial_control() {
    // ND-6 / ND-7: Kaiju.
    let st = play_example("tv-01-initial-control.json");
    assert_eq!(st.table.parties[1].total, 7); // ND-6: 5 + 3 − 1
    assert_eq!((st.dominant, st.control, st.tokens), (Some(0), 1, 1)); // ND-7, ND-9
    // ND-7: three and four sides are Balanced.
    let three = Table::new(json!({"parties": [levinulon(), tmdf(), us()]}));
    assert_eq!((three.state.dominant, three.state.control), (None, 0));
    let st = play_example("tv-01b-four-sides-balanced.json");
    assert_eq!((st.dominant, st.control), (None, 0));
    // ND-7: synthetic totals, lower totals ignored.
    assert_eq!(initial_control(&[8, 6, 2]), (Some(0), 2));
    // ND-8: large gap flagged, Control uncapped.
    let st = play_example("tv-01c-large-gap.json");
    assert_eq!((st.control, st.table.large_gap), (5, true));
}

#[test]
fn tv2_npc_reserve_follows_the_usual_rule() {
    // ND-10: one card per opposing player sheet with a Reserve.
    let kaiju = Table::new(json!({"parties": [levinulon(), tmdf()]}));
    assert_eq!(kaiju.state.table.parties[0].reserve_draws, 1);
    let mut five = tmdf();
    let sheet = five["characters"][0].clone();
    five["characters"] = json!(
        (0..5)
            .map(|i| {
                let mut s = sheet.clone();
                s["name"] = json!(format!("Pilot {i}"));
                s
            })
            .collect::<Vec<_>>()
    );
    let st =
        build(&serde_json::from_value(json!({"parties": [levinulon(), five]})).unwrap()).unwrap();
    assert_eq!(st.table.parties[0].reserve_draws, 5);
    let st = play_example("tv-02-npc-reserve.json");
    assert_eq!(st.parties[2].characters[0].reserve.len(), 3);
    assert_eq!(st.deck.len(), 64);
}

#[test]
fn tv3_balance_breaker_gives_ann_control() {
    let st = play_example("tv-03-balance-breaker.json");
    assert_eq!((st.dominant, st.control), (Some(3), 1)); // ND-14.3
    assert_eq!(st.phase, Phase::Aftermath);
    let temp: Vec<_> = (0..3)
        .map(|i| st.parties[i].temporary[0].card.name())
        .collect();
    assert_eq!(temp, ["IV", "Serpent Soldier", "XIV"]); // ND-21 Temporary
    let result = st.round.result.clone().unwrap();
    assert_eq!((result.winners, result.losers), (vec![3], vec![0, 1, 2])); // D-10
}

#[test]
fn tv4_kaiju_round_one() {
    let st = play_example("tv-04-kaiju-round-one.json");
    assert_eq!((st.dominant, st.control), (Some(0), 2)); // ND-17: no break → +1
    let lasting = &st.parties[0].lasting[0];
    let names: Vec<_> = lasting.cards.iter().map(|c| c.card.name()).collect();
    assert_eq!(names, ["Unknown Seeker", "VIII", "XVI"]); // ND-21 Lasting, ND-13: IV was turned
    assert_eq!(lasting.gravity, Gravity::Trivial);
    assert!(st.parties[1].temporary.is_empty() && st.parties[1].lasting.is_empty());
    assert_eq!(st.round.result.as_ref().unwrap().winners, vec![0]);
}

#[test]
fn tv5_challenger_round_two() {
    let st = play_example("tv-05-challenger-round-two.json");
    assert_eq!((st.dominant, st.control), (None, 0)); // ND-17: broken → −1
    let result = st.round.result.clone().unwrap();
    assert_eq!(result.winners, vec![0]); // D-10: XV breaks IX
    assert_eq!(result.losers, vec![3]);
    assert_eq!(st.parties[1].temporary[1].card.name(), "Paper Home");
    assert_eq!(st.parties[3].temporary[0].card.name(), "Serpent Home"); // turned card does not count
}

#[test]
fn tv6_rejection_then_excuse_or_lower_triumph() {
    let st = play_example("tv-06a-reject-then-excuse.json");
    assert_eq!(st.control, 1); // ND-16a
    assert!(!st.parties[0].lasting[0].cards[0].face_up); // ND-19
    assert_eq!(st.parties[0].lasting.len(), 1); // the Loss remains
    let st = play_example("tv-06b-reject-twice.json");
    let faces: Vec<bool> = st.parties[0].lasting[0]
        .cards
        .iter()
        .map(|c| c.face_up)
        .collect();
    assert_eq!(faces, [false, false, true]);
    assert_eq!(st.round.kind, RoundKind::Unbalanced);
}

#[test]
fn tv7_reserve_cover() {
    let st = play_example("tv-07-reserve-cover.json");
    let line = &st.parties[1].bid_line;
    assert_eq!(line.len(), 1);
    assert!(line[0].cover && line[0].reversed); // ND-20
    assert_eq!(st.parties[1].reversed_count(), 1); // ND-13
    assert_eq!(st.parties[1].characters[0].tally, 1); // D-12
}

#[test]
fn tv8_wipe_out_ends_the_conflict() {
    let st = play_example("tv-08-wipe-out.json");
    assert_eq!(st.parties[1].status, Status::WipedOut { round: 1 }); // ND-16b
    assert_eq!(st.victor, Some(0)); // ND-23
    assert_eq!(st.phase, Phase::Ended);
    assert_eq!(st.deck.len(), 67); // ND-27
}

#[test]
fn tv9_concession() {
    let st = play_example("tv-09-concession.json");
    assert_eq!(st.parties[0].status, Status::Conceded); // ND-24
    assert_eq!(st.parties[0].characters[0].reserve.len(), 2); // D-13: 1 + tally 1
    assert_eq!(st.parties[0].characters[0].new_weaknesses.len(), 3); // ND-25
    assert_eq!(st.in_play_count(), 3);
}

#[test]
fn tv4_probability_claim_from_each_partys_knowledge() {
    use nd_tourists::probability::{Knowledge, at_least_reversed};
    // §10.2 after TV-4's bidding: the 13 cards drawn are on the table (bid and Loss lines).
    let st = play_example("tv-04-kaiju-round-one.json");
    let xvi = card("XVI");
    // TMDF cannot see Levinulon's Reserve card: 5/54.
    let tmdf = Knowledge::of_party(&st, 1);
    assert_eq!(tmdf.unseen_out, 1);
    assert_eq!(tmdf.next_draw_beats(xvi).unwrap().to_string(), "5/54");
    // Levinulon knows its own Reserve card (Rock Lover): 5/53, the table's 9.4%.
    let levinulon = Knowledge::of_party(&st, 0);
    assert_eq!(levinulon.next_draw_beats(xvi).unwrap().to_string(), "5/53");
    // ND-2 / ND-21: one more draw makes ANN's 2 reversed cards a Lasting Loss half the time.
    assert_eq!(at_least_reversed(1, 3 - 2).to_string(), "1/2");
}
