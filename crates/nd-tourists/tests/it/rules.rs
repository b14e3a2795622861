//! One or more tests per rule (ND-n) and decision (D-n) not already pinned by a test vector.

use crate::common;

use common::*;
use nd_tourists::Event;
use nd_tourists::command::{LossKind, Outcome};
use nd_tourists::round_end::loss_for;
use nd_tourists::state::{Gravity, Phase, ReactionStep, RoundKind, Status};
use serde_json::json;

fn kaiju() -> Table {
    let mut t = Table::new(json!({"parties": [levinulon(), tmdf()]}));
    t.ok(gm(), json!({"type": "start"}), &["Rock Lover↑"]);
    t
}

/// Kaiju after TV-4: Levinulon Dominant with Control 2 and a face-up Lasting Loss, round 2 open.
fn kaiju_round_two() -> Table {
    let st = play_example("tv-04-kaiju-round-one.json");
    let mut t = Table::new(json!({"parties": [levinulon(), tmdf()]}));
    t.state = st;
    t.ok(gm(), json!({"type": "next_round"}), &[]);
    t
}

fn outcome(events: &[Event]) -> Option<Outcome> {
    events.iter().find_map(|e| match e {
        Event::BiddingEnded { outcome } => Some(outcome.clone()),
        _ => None,
    })
}

#[test]
fn nd5_setup_needs_two_distinct_parties() {
    let refuse = |setup: serde_json::Value| {
        let s: nd_tourists::Setup = serde_json::from_value(setup).unwrap();
        nd_tourists::setup::build(&s).unwrap_err().rule()
    };
    assert_eq!(refuse(json!({"parties": [tmdf()]})), Some("ND-5"));
    assert_eq!(refuse(json!({"parties": [tmdf(), tmdf()]})), Some("ND-5"));
    let mut other = us();
    other["seat"] = json!("p1");
    assert_eq!(refuse(json!({"parties": [tmdf(), other]})), Some("ND-5")); // one seat per player party
    let mut bad = tmdf();
    bad["characters"][0]["reserve"] = json!(["Excuse"]);
    assert_eq!(refuse(json!({"parties": [bad, us()]})), Some("ND-10"));
    let mut twice = tmdf();
    twice["characters"][0]["reserve"] = json!(["XXI", "XXI"]);
    assert_eq!(refuse(json!({"parties": [twice, us()]})), Some("ND-10"));
}

#[test]
fn nd6_a_party_of_several_uses_the_best_attribute_and_everyones_traits() {
    let crew = json!({"name": "Crew", "seat": "p1", "characters": [
        {"name": "Ann", "attribute": {"name": "Paper", "value": 3}, "aspects": ["Pilot", {"name": "Cook", "relevant": false}]},
        {"name": "Bob", "attribute": {"name": "Rock", "value": 5}, "aspects": ["Strong"], "weaknesses": ["Tired"]}]});
    let t = Table::new(json!({"parties": [crew, plain("Beast", "gm", 9)]}));
    assert_eq!(t.state.table.parties[0].total, 5 + 2 - 1); // ND-6: relevance is an input
}

#[test]
fn nd11_round_kind_follows_control_and_tactics_are_narrative() {
    let t = kaiju();
    assert_eq!(t.state.round.kind, RoundKind::Unbalanced); // ND-11
    let mut b = Table::new(json!({"parties": [plain("A", "p1", 5), plain("B", "p2", 5)]}));
    b.ok(gm(), json!({"type": "start"}), &[]);
    assert_eq!(b.state.round.kind, RoundKind::BalanceBreaker);
    let before = b.state.clone();
    let events = b.ok(
        p(1),
        json!({"type": "declare_tactics", "text": "We hold the bridge"}),
        &[],
    );
    assert!(matches!(events[0], Event::TacticsDeclared { party: 0, .. }));
    assert_eq!(
        b.state.parties[0].tactics.as_deref(),
        Some("We hold the bridge")
    );
    let mut rules_only = b.state.clone();
    rules_only.parties[0].tactics = None;
    assert_eq!(rules_only, before); // ND-11: tactics change nothing in the rules
    // Saying the same tactics again is a repeat, not a new declaration.
    b.refused(
        p(1),
        json!({"type": "declare_tactics", "text": "We hold the bridge"}),
        "ND-11",
    );
}

#[test]
fn nd12_no_window_opens_when_nobody_can_react() {
    let mut b = Table::new(json!({"parties": [plain("A", "p1", 5), plain("B", "p2", 5)]}));
    b.ok(gm(), json!({"type": "start"}), &[]);
    let events = b.bid(p(1), "II↓");
    assert!(matches!(events[0], Event::CardPlaced { window: false, .. })); // ND-12
    assert_eq!(b.state.round.turn, Some(1));
    b.refused(p(2), json!({"type": "let_it_stand"}), "ND-12");
}

#[test]
fn nd12_d4_rejection_comes_before_turning() {
    let mut t = kaiju_round_two();
    t.pass(p(1));
    t.bid(gm(), "XXI↑");
    // TMDF could reject (Levinulon shows a face-up Loss): the Dominant waits for its choice.
    t.refused(gm(), json!({"type": "turn"}), "D-4");
    t.ok(p(1), json!({"type": "let_it_stand"}), &[]);
    t.ok(gm(), json!({"type": "turn"}), &[]); // ND-18: the Dominant turns its own card (D-18)
    t.refused(p(1), json!({"type": "reject"}), "D-4"); // D-4: reject → turn → cover
}

#[test]
fn nd13_reversed_count_uses_final_orientation() {
    let mut t = kaiju();
    t.bid(p(1), "II↑");
    t.bid(gm(), "IV↓");
    assert_eq!(t.state.parties[0].reversed_count(), 1);
    t.ok(gm(), json!({"type": "turn"}), &[]);
    assert_eq!(t.state.parties[0].reversed_count(), 0); // ND-13: turned cards count as turned
}

#[test]
fn nd14_d8_excuse_in_a_balance_breaker_still_lets_everyone_draw() {
    let mut b = Table::new(
        json!({"parties": [plain("A", "p1", 5), plain("B", "p2", 5), plain("C", "p3", 5)]}),
    );
    b.ok(gm(), json!({"type": "start"}), &[]);
    let events = b.ok(p(1), json!({"type": "bid"}), &["Excuse↑", "Rock Ruler↓"]);
    assert!(matches!(events[0], Event::ExcuseDrawn { .. })); // D-8: swapped at once
    assert_eq!(b.state.round.turn, Some(1));
    b.bid(p(2), "XXI↑");
    let events = b.bid(p(3), "I↑");
    assert_eq!(outcome(&events), Some(Outcome::Excuse { party: 0 })); // ND-14.2
    assert_eq!((b.state.control, b.state.dominant), (0, None));
    assert_eq!(b.state.parties[0].temporary[0].card, card("Rock Ruler")); // narrative card counts
}

#[test]
fn nd14_balance_held_when_nobody_beats_everyone() {
    let mut b = Table::new(json!({"parties": [plain("A", "p1", 5), plain("B", "p2", 5)]}));
    b.ok(gm(), json!({"type": "start"}), &[]);
    b.bid(p(1), "Rock Ruler↑");
    let events = b.bid(p(2), "Rock Home↑"); // same suit: stalemate
    assert_eq!(outcome(&events), Some(Outcome::BalanceHeld)); // ND-14.4
    assert_eq!(b.state.control, 0);
    b.refused(p(1), json!({"type": "pass"}), "ND-15"); // bidding is over
    b.ok(gm(), json!({"type": "next_round"}), &[]);
    b.refused(p(1), json!({"type": "pass"}), "ND-14"); // every party draws in a Balance Breaker
}

#[test]
fn nd15_bidding_out_of_turn_is_refused() {
    let mut t = kaiju();
    t.refused(gm(), json!({"type": "bid"}), "ND-15"); // Contenders speak first
    t.refused(gm(), json!({"type": "bid", "party": "Levinulon"}), "ND-15");
    t.refused(p(2), json!({"type": "bid"}), "ND-15");
    t.bid(p(1), "II↑");
    // D-4: Levinulon may still turn or cover TMDF's card, so nobody bids yet…
    t.refused(p(1), json!({"type": "bid"}), "D-4");
    t.settle();
    t.refused(p(1), json!({"type": "bid"}), "ND-15"); // …and then it is Levinulon's turn
}

#[test]
fn nd16a_excuse_lowers_control_and_ends_the_round_unevaluated() {
    let mut t = kaiju();
    let events = t.ok(p(1), json!({"type": "bid"}), &["Excuse↓", "VII↓"]);
    assert_eq!(outcome(&events), Some(Outcome::Excuse { party: 1 })); // ND-16a
    assert_eq!((t.state.control, t.state.dominant), (0, None));
    assert_eq!(t.state.phase, Phase::Aftermath);
    assert_eq!(t.state.parties[1].temporary[0].card, card("VII")); // counts if reversed
    assert!(t.state.round.result.as_ref().unwrap().winners.is_empty()); // D-10
}

#[test]
fn nd16b_wipe_out_waits_for_the_window_and_a_cover_can_prevent_it() {
    let mut two = tmdf();
    two["characters"][0]["reserve"] = json!(["Rock Lover"]);
    let mut t = Table::new(json!({"parties": [plain("Beast", "gm", 9), two]}));
    t.ok(gm(), json!({"type": "start"}), &["Rock Home↑"]);
    t.bid_settled(p(1), "I↓");
    t.bid_settled(gm(), "XXI↑");
    for c in ["II↓", "III↓", "IV↓"] {
        t.bid_settled(p(1), c);
        t.pass(gm());
    }
    t.bid(p(1), "V↓");
    assert_eq!(t.state.parties[1].reversed_count(), 5);
    assert!(t.state.parties[1].in_play()); // window open: not yet
    // D-4: the Beast neither turns nor covers; TMDF's own cover comes last.
    t.ok(gm(), json!({"type": "let_it_stand"}), &[]);
    t.ok(gm(), json!({"type": "let_it_stand"}), &[]);
    t.ok(p(1), json!({"type": "cover", "card": "Rock Lover", "cite": {"aspect": "Well-trained team"}, "accepted": true}), &[]);
    assert_eq!(t.state.parties[1].reversed_count(), 4); // ND-18: covered, no Wipe Out
    assert!(t.state.parties[1].in_play());
}

#[test]
fn nd16c_d6_d7_two_passes_end_bidding_and_an_empty_dominant_is_broken() {
    let mut t = kaiju();
    t.pass(p(1));
    let events = t.pass(gm());
    assert_eq!(
        outcome(&events),
        Some(Outcome::DominantBroken { breakers: vec![1] })
    ); // D-7
    assert_eq!(t.state.control, 0); // ND-17
    assert_eq!(t.state.round.result.as_ref().unwrap().losers, vec![0]); // D-10
}

#[test]
fn nd17_cards_of_different_contenders_are_never_pooled() {
    let mut t = Table::new(
        json!({"parties": [plain("A", "p1", 5), plain("B", "p2", 5), plain("G", "gm", 9)]}),
    );
    t.ok(gm(), json!({"type": "start"}), &[]);
    assert_eq!(t.state.control, 4);
    t.bid_settled(p(1), "Paper Ruler↑"); // beats Rock only
    t.bid_settled(p(2), "Blades Ruler↑"); // beats Paper only
    t.bid_settled(gm(), "Rock Ruler↑");
    t.pass(p(1));
    t.pass(p(2));
    t.bid_settled(gm(), "Paper Home↑");
    t.pass(p(1));
    t.pass(p(2));
    let events = t.pass(gm());
    assert_eq!(outcome(&events), Some(Outcome::DominantHeld)); // ND-17: no pooling, ties favour D
    assert_eq!(t.state.control, 5);
    let r = t.state.round.result.clone().unwrap();
    assert_eq!((r.winners, r.losers), (vec![2], vec![0, 1])); // D-10
}

/// Ash and Birch (one sheet each, Reserve 0 of 1) against Elm, Dominant with Control 4.
fn ash_birch_and_elm() -> Table {
    let party = |name: &str, seat: &str, v: i32| {
        json!({"name": name, "seat": seat, "characters": [{"name": name,
            "attribute": {"name": "Might", "value": v}, "reserve_size": 1}]})
    };
    let mut elm = party("Elm", "gm", 9);
    elm["reserve_draws"] = json!(0);
    let mut t =
        Table::new(json!({"parties": [party("Ash", "p1", 5), party("Birch", "p2", 5), elm]}));
    t.ok(gm(), json!({"type": "start"}), &[]);
    t
}

#[test]
fn d10_nd17_nd26_breakers_are_compared_as_bid_whatever_their_orientation() {
    // The example: Ash bids XVII upright, Birch bids XIX, and both break Elm's Rock
    // Home. XIX beats XVII, so Birch's line breaks Ash's and not the reverse: Birch wins,
    // whether XIX lies upright or reversed (ND-2: orientation only matters for Losses).
    for birch in ["XIX↑", "XIX↓"] {
        let mut t = ash_birch_and_elm();
        t.bid_settled(p(1), "XVII↑");
        t.bid_settled(p(2), birch);
        t.bid_settled(gm(), "Rock Home↑");
        t.pass(p(1));
        t.pass(p(2));
        let events = t.pass(gm());
        assert_eq!(
            outcome(&events),
            Some(Outcome::DominantBroken {
                breakers: vec![0, 1]
            })
        ); // ND-17: both break Elm
        let r = t.state.round.result.clone().unwrap();
        assert_eq!(r.winners, vec![1], "{birch}"); // D-10: Birch, not Ash
        assert_eq!(r.losers, vec![2], "{birch}"); // D-10: Elm loses, Ash is neither
        assert_eq!(r.narration, vec![1, 2, 0], "{birch}"); // ND-22 step 2: winners first
        let reversed = birch.ends_with('↓');
        assert_eq!(t.state.parties[1].temporary.len(), usize::from(reversed)); // ND-21
        t.ok(gm(), json!({"type": "next_round"}), &["II↑"]);
        let reserve = |k: usize| t.state.parties[k].characters[0].reserve.len();
        assert_eq!((reserve(0), reserve(1)), (0, 1), "{birch}"); // ND-26: the winner refills
    }
}

#[test]
fn nd18_only_the_dominant_turns_once_per_card_with_tokens() {
    let mut t = kaiju();
    t.bid(p(1), "II↑");
    t.refused(p(1), json!({"type": "turn"}), "ND-18"); // a Contender holds no tokens
    t.ok(gm(), json!({"type": "turn"}), &[]);
    assert!(t.state.parties[1].bid_line[0].reversed); // turning reversed inflicts a Loss
    assert_eq!(t.state.tokens, 0);
    t.refused(gm(), json!({"type": "turn"}), "ND-9"); // no token left
    t.bid(gm(), "III↓");
    t.refused(gm(), json!({"type": "turn"}), "ND-9");
    let mut b = Table::new(json!({"parties": [plain("A", "p1", 5), plain("B", "p2", 5)]}));
    b.ok(gm(), json!({"type": "start"}), &[]);
    b.state.parties[0].characters[0]
        .reserve
        .push(nd_tourists::state::ReserveCard {
            card: card("XX"),
            reversed: false,
        });
    b.state.deck.remove(card("XX"));
    b.bid(p(1), "II↓");
    b.refused(gm(), json!({"type": "turn"}), "ND-14"); // no tokens in a Balance Breaker
}

#[test]
fn nd18_a_turned_card_cannot_be_turned_again() {
    let mut t = kaiju_round_two();
    assert_eq!(t.state.tokens, 2); // ND-9: a fresh round's tokens = Control; last round's expired
    t.bid(p(1), "II↑");
    t.ok(gm(), json!({"type": "turn"}), &[]);
    t.refused(gm(), json!({"type": "turn"}), "ND-18");
    assert_eq!(t.state.tokens, 1);
}

#[test]
fn nd19_rejections_need_another_party_and_a_face_up_loss() {
    let mut t = kaiju_round_two();
    t.bid(p(1), "II↑");
    t.refused(gm(), json!({"type": "reject"}), "ND-19"); // TMDF shows no Loss
    t.pass(gm());
    t.bid(p(1), "III↓");
    t.refused(p(1), json!({"type": "reject"}), "ND-19"); // not against one's own card
}

#[test]
fn nd19_a_spent_temporary_loss_is_gone() {
    let mut st = play_example("tv-05-challenger-round-two.json");
    assert_eq!(st.parties[3].temporary.len(), 1);
    let mut t = Table::new(json!({"parties": [tmdf(), us(), levinulon(), ann()]}));
    std::mem::swap(&mut t.state, &mut st);
    t.ok(gm(), json!({"type": "next_round"}), &["Rock Dragon↑"]); // TMDF's refill
    t.bid_settled(p(1), "Serpent Lover↑");
    t.bid_settled(p(2), "Paper Seeker↑");
    t.bid_settled(gm(), "Unknown Lover↑");
    t.bid(p(3), "XIX↑");
    t.ok(p(1), json!({"type": "reject"}), &["Blades Lover↑"]);
    assert!(t.state.parties[3].temporary.is_empty()); // ND-19: Temporary Loss spent
    assert!(
        t.state.discard.contains(card("Serpent Home")) && t.state.discard.contains(card("XIX"))
    );
}

#[test]
fn nd19_d14_the_victim_chooses_which_face_up_loss_a_rejection_spends() {
    let mut t = kaiju_round_two();
    t.refused(gm(), json!({"type": "spend_loss", "card": "VIII"}), "ND-19"); // nothing rejected
    t.pass(p(1));
    t.bid(gm(), "XXI↑");
    let shown = |t: &Table, name: &str| {
        t.state.parties[0]
            .lasting
            .iter()
            .flat_map(|l| &l.cards)
            .any(|c| c.card == card(name) && c.face_up)
    };
    assert!(shown(&t, "Unknown Seeker") && shown(&t, "VIII"));
    // Several face-up Loss cards: the rejection waits for Levinulon's choice (D-14).
    t.ok(p(1), json!({"type": "reject"}), &[]);
    assert_eq!(t.state.round.rejection, Some(1));
    t.refused(gm(), json!({"type": "turn"}), "D-14");
    t.refused(p(1), json!({"type": "let_it_stand"}), "D-14");
    t.refused(p(1), json!({"type": "spend_loss", "card": "VIII"}), "D-14"); // not TMDF's call
    t.refused(gm(), json!({"type": "spend_loss", "card": "XXI"}), "ND-19"); // not a face-up Loss
    t.ok(
        gm(),
        json!({"type": "spend_loss", "card": "VIII"}),
        &["XX↑"],
    );
    assert!(!shown(&t, "VIII") && shown(&t, "Unknown Seeker")); // ND-19: the chosen card
    assert_eq!(t.state.round.rejection, None);
    assert!(t.state.discard.contains(card("XXI")));
    assert_eq!(
        t.state.parties[0].bid_line.last().map(|b| b.card),
        Some(card("XX"))
    );
}

#[test]
fn nd20_covers_come_from_ones_own_reserve_with_a_fitting_citation() {
    let mut t = kaiju();
    t.bid(p(1), "XVI↑");
    // TMDF holds no Reserve card: it cannot cover with Levinulon's.
    t.refused(p(1), json!({"type": "cover", "card": "Rock Lover", "cite": {"aspect": "Well-trained team"}, "accepted": true}), "ND-20");
    // Covering an opponent's card must cite that opponent's trait.
    t.refused(gm(), json!({"type": "cover", "card": "Rock Lover", "cite": {"aspect": "Giant"}, "accepted": true}), "ND-20");
    t.refused(
        gm(),
        json!({"type": "cover", "card": "Rock Lover", "accepted": true}),
        "ND-20",
    );
    t.ok(gm(), json!({"type": "cover", "card": "Rock Lover", "cite": {"aspect": "Well-trained team"}, "accepted": true}), &[]);
    assert_eq!(t.state.parties[1].characters[0].tally, 1); // D-12
}

#[test]
fn nd21_loss_table_and_gravity_ladder() {
    assert_eq!(loss_for(0), None);
    assert_eq!(loss_for(1), Some((LossKind::Temporary, 1)));
    assert_eq!(loss_for(2), Some((LossKind::Temporary, 1)));
    assert_eq!(loss_for(3), Some((LossKind::Lasting, 3)));
    assert_eq!(loss_for(4), Some((LossKind::Lasting, 3)));
    assert_eq!(loss_for(5), None); // D-5
    let ladder: Vec<Gravity> = (1..=6).map(Gravity::of_kth).collect();
    use Gravity::*;
    assert_eq!(
        ladder,
        [Trivial, FairlyEasy, Hard, VeryHard, Permanent, Permanent]
    ); // D-15
}

#[test]
fn nd22_end_of_round_steps_happen_in_order() {
    let mut t = kaiju();
    t.refused(gm(), json!({"type": "next_round"}), "ND-22"); // not before bidding ends
    t.refused(p(1), json!({"type": "concede"}), "ND-24");
    t.refused(gm(), json!({"type": "reframe", "confirmed": true}), "D-17");
    t.pass(p(1));
    t.pass(gm());
    assert_eq!(t.state.phase, Phase::Aftermath);
    t.refused(p(1), json!({"type": "next_round"}), "ND-22");
    let events = t.ok(gm(), json!({"type": "next_round"}), &["XX↑"]); // TMDF won: refill
    assert!(matches!(events[0], Event::CardsReturned)); // step 5 before step 6 (D-13)
    assert!(matches!(events[1], Event::ReserveDrawn { party: 1, .. })); // ND-26
    assert_eq!(t.state.round.kind, RoundKind::BalanceBreaker); // step 7
    assert_eq!(t.state.deck.len(), 65); // ND-4: bid lines back into the deck
    assert!(t.state.parties.iter().all(|p| p.bid_line.is_empty()));
}

#[test]
fn nd24_a_dominant_conceding_resets_control() {
    let mut t = Table::new(
        json!({"parties": [plain("A", "p1", 5), plain("B", "p2", 4), plain("G", "p3", 9)]}),
    );
    t.ok(gm(), json!({"type": "start"}), &[]);
    t.pass(p(1));
    t.pass(p(2));
    t.bid_settled(p(3), "XXI↑");
    t.pass(p(1));
    t.pass(p(2));
    t.pass(p(3));
    assert_eq!(t.state.control, 5);
    t.ok(p(3), json!({"type": "concede"}), &[]);
    assert_eq!((t.state.dominant, t.state.control), (None, 0)); // ND-24, D-9
    assert_eq!(t.state.parties[2].status, Status::Conceded);
}

#[test]
fn nd25_reframe_needs_the_gms_confirmation() {
    let mut t = kaiju();
    t.pass(p(1));
    t.pass(gm());
    t.refused(gm(), json!({"type": "reframe"}), "ND-25");
    t.refused(p(1), json!({"type": "reframe", "confirmed": true}), "ND-25");
    t.ok(gm(), json!({"type": "reframe", "confirmed": true}), &[]);
    assert_eq!(t.state.phase, Phase::Ended);
    assert_eq!(t.state.victor, None);
    t.refused(gm(), json!({"type": "next_round"}), "ND-23");
}

#[test]
fn nd26_winners_refill_up_to_their_sheet_size() {
    // TV-5: ANN (Reserve 0 of 3) refills one card.
    let st = play_example("tv-05-challenger-round-two.json");
    assert_eq!(st.parties[3].characters[0].reserve.len(), 1);
    // Kaiju: Levinulon's Reserve is full (1 of 1): no refill.
    let st = play_example("tv-06b-reject-twice.json");
    assert_eq!(st.parties[0].characters[0].reserve.len(), 1);
}

fn crew() -> serde_json::Value {
    json!({"name": "Crew", "seat": "p1", "characters": [
        {"name": "Ann", "attribute": {"name": "Paper", "value": 3}, "aspects": ["Pilot"], "reserve": ["II"]},
        {"name": "Bob", "attribute": {"name": "Rock", "value": 5}, "aspects": ["Strong"], "weaknesses": ["Tired"]}]})
}

#[test]
fn nd28_nd29_the_last_drawer_takes_the_losses() {
    let mut t = Table::new(json!({"parties": [crew(), plain("Beast", "gm", 9)]}));
    t.ok(
        gm(),
        json!({"type": "start"}),
        &["Rock Lover↑", "Rock Home↑"],
    ); // ND-10: 2 sheets with a Reserve
    t.ok(p(1), json!({"type": "bid", "character": "Ann"}), &["III↓"]);
    t.settle();
    t.pass(gm());
    t.ok(p(1), json!({"type": "bid", "character": "Bob"}), &["IV↑"]); // ND-28
    t.settle();
    t.pass(gm());
    t.pass(p(1));
    assert_eq!(t.state.parties[0].temporary[0].character, 1); // ND-29: Bob drew last
    assert_eq!(t.state.parties[0].temporary[0].card, card("III"));
}

#[test]
fn nd30_nd31_reserves_tallies_and_concessions_are_per_character() {
    let mut t = Table::new(json!({"parties": [crew(), plain("Beast", "gm", 9)]}));
    t.ok(
        gm(),
        json!({"type": "start"}),
        &["Rock Lover↑", "Rock Home↑"],
    );
    t.ok(p(1), json!({"type": "bid", "character": "Bob"}), &["III↓"]);
    // ND-30: Ann covering her party's card cites her own traits, not Bob's.
    t.refused(p(1), json!({"type": "cover", "card": "II", "character": "Ann", "cite": {"aspect": "Strong"}, "accepted": true}), "ND-20");
    t.ok(gm(), json!({"type": "cover", "card": "Rock Lover", "cite": {"weakness": "Tired"}, "accepted": true}), &[]);
    assert_eq!(t.state.parties[0].characters[1].tally, 1); // charged to Bob, who drew
    assert_eq!(t.state.parties[0].characters[0].tally, 0);
    t.pass(gm());
    t.pass(p(1));
    t.ok(p(1), json!({"type": "concede", "character": "Bob"}), &[]); // ND-31: alone
    assert!(t.state.parties[0].in_play());
    t.refused(
        p(1),
        json!({"type": "concede", "character": "Bob"}),
        "ND-31",
    );
    t.ok(
        gm(),
        json!({"type": "reframe", "confirmed": true}),
        &["XX↑", "XIX↓"],
    );
    assert_eq!(t.state.parties[0].characters[1].reserve.len(), 2); // 1 + Bob's tally
    assert_eq!(t.state.parties[0].characters[0].reserve.len(), 1); // Ann did not concede
}

#[test]
fn d3_an_empty_deck_reshuffles_this_rounds_discards() {
    let mut t = kaiju();
    // Leave two cards in the deck, the rest set aside as this round's discards.
    let keep: nd_tourists::CardSet = [card("II"), card("III")].into_iter().collect();
    t.state.discard = t.state.deck.minus(keep);
    t.state.deck = keep;
    t.bid_settled(p(1), "II↑");
    t.bid_settled(gm(), "III↑");
    let events = t.bid_settled(p(1), "XX↑");
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::DeckReshuffled { .. }))
    ); // D-3
    assert!(t.state.discard.is_empty());
}

#[test]
fn d9_a_dominant_wiped_out_sets_control_to_zero_without_evaluation() {
    let mut t = kaiju();
    for c in ["I↓", "II↓", "III↓", "IV↓"] {
        t.pass(p(1));
        t.bid_settled(gm(), c);
    }
    t.pass(p(1));
    t.bid(gm(), "V↓");
    t.ok(gm(), json!({"type": "let_it_stand"}), &[]); // Levinulon does not turn its card
    let events = t.ok(gm(), json!({"type": "let_it_stand"}), &[]); // nor cover it: it stands
    assert_eq!(outcome(&events), Some(Outcome::DominantWipedOut)); // D-9
    assert_eq!((t.state.dominant, t.state.control), (None, 0));
    assert_eq!(t.state.parties[0].status, Status::WipedOut { round: 1 }); // ND-16b
    assert_eq!(t.state.victor, Some(1)); // ND-23: the last party left
    assert_eq!(t.state.phase, Phase::Ended);
}

#[test]
fn d9_after_a_contenders_wipe_out_bidding_goes_on_and_its_cards_still_count() {
    let mut t = Table::new(
        json!({"parties": [plain("A", "p1", 5), plain("B", "p2", 5), plain("G", "gm", 9)]}),
    );
    t.ok(gm(), json!({"type": "start"}), &[]);
    t.bid_settled(p(1), "XXI↑");
    t.pass(p(2));
    t.pass(gm());
    for c in ["I↓", "II↓", "III↓", "IV↓", "V↓"] {
        t.bid_settled(p(1), c);
        t.pass(p(2)); // closes A's window; after the fifth, A is Wiped Out
        if c != "V↓" {
            t.pass(gm());
        }
    }
    assert_eq!(t.state.parties[0].status, Status::WipedOut { round: 1 }); // ND-16b
    assert_eq!(t.state.phase, Phase::Bidding); // D-9: 2 parties remain
    t.bid_settled(gm(), "Rock Ruler↑");
    t.pass(p(2));
    let events = t.pass(gm()); // D-6: 2 consecutive passes = 2 parties in play
    assert_eq!(
        outcome(&events),
        Some(Outcome::DominantBroken { breakers: vec![0] })
    ); // ND-17
    assert_eq!(t.state.control, 3);
    let r = t.state.round.result.clone().unwrap();
    assert!(r.winners.is_empty()); // D-10 (our reading): a Wiped Out breaker does not win
    assert_eq!(r.losers, vec![0, 2]);
    assert!(t.state.parties[0].temporary.is_empty() && t.state.parties[0].lasting.is_empty()); // D-5
}

#[test]
fn nd21_a_party_chooses_which_reversed_cards_mark_its_loss() {
    let st = play_example("tv-05-challenger-round-two.json");
    let mut t = Table::new(json!({"parties": [tmdf(), us(), levinulon(), ann()]}));
    t.state = st;
    assert_eq!(t.state.parties[3].temporary[0].card, card("Serpent Home")); // D-14 default
    t.refused(
        p(3),
        json!({"type": "keep_loss_cards", "cards": ["Rock Home", "Serpent Home"]}),
        "ND-21",
    );
    t.refused(
        p(3),
        json!({"type": "keep_loss_cards", "cards": ["Rock Seeker"]}),
        "ND-21",
    ); // upright
    t.refused(
        p(1),
        json!({"type": "keep_loss_cards", "cards": ["XV"]}),
        "ND-21",
    ); // TMDF took none
    t.ok(
        p(3),
        json!({"type": "keep_loss_cards", "cards": ["Rock Home"]}),
        &[],
    );
    let ann = &t.state.parties[3];
    assert_eq!(ann.temporary.len(), 1);
    assert_eq!(ann.temporary[0].card, card("Rock Home")); // ND-21: party's choice
    assert!(ann.bid_line.iter().any(|b| b.card == card("Serpent Home")));
    // Marking the Loss again with the cards that already mark it is a repeat (issue 15).
    t.refused(
        p(3),
        json!({"type": "keep_loss_cards", "cards": ["Rock Home"]}),
        "ND-21",
    );
    // A Lasting Loss keeps 3 reversed cards: Levinulon had exactly 3, so there is no other
    // choice, and naming the same three (in any order) changes nothing.
    let mut k = Table::new(json!({"parties": [levinulon(), tmdf()]}));
    k.state = play_example("tv-04-kaiju-round-one.json");
    k.refused(
        gm(),
        json!({"type": "keep_loss_cards", "cards": ["XVI", "VIII", "Unknown Seeker"]}),
        "ND-21",
    );
    assert_eq!(k.state.parties[0].lasting_taken, 1);
    k.ok(gm(), json!({"type": "next_round"}), &[]);
    k.refused(
        gm(),
        json!({"type": "keep_loss_cards", "cards": ["XVI", "VIII", "Unknown Seeker"]}),
        "ND-21",
    );
}

/// Four parties: A (p1) bids first; B (p2), the Dominant C (gm) and D (p3) each hold a
/// Reserve card, so after A's card C may turn it and B, C and D may cover it.
fn four_way() -> Table {
    let with = |mut party: serde_json::Value, card: &str| {
        party["characters"][0]["reserve"] = json!([card]);
        party
    };
    let mut t = Table::new(json!({"parties": [
        plain("A", "p1", 5),
        with(plain("B", "p2", 5), "XX"),
        with(plain("C", "gm", 9), "XIX"),
        with(plain("D", "p3", 5), "XVIII"),
    ]}));
    t.ok(gm(), json!({"type": "start"}), &[]);
    assert_eq!((t.state.dominant, t.state.control), (Some(2), 4));
    t
}

fn waiting(t: &Table) -> Vec<clash_core::Seat> {
    use clash_core::Ruleset;
    nd_tourists::NdTourists::status(&t.state).waiting_for
}

fn reacting(t: &Table) -> Option<(ReactionStep, u8)> {
    t.state.round.reacting.map(|r| (r.step, r.party))
}

fn cover(card: &str, weakness: &str) -> serde_json::Value {
    json!({"type": "cover", "card": card, "cite": {"weakness": weakness}, "accepted": true})
}

#[test]
fn d4_nd12_every_party_that_could_react_gets_its_turn_in_order() {
    let mut t = four_way();
    t.bid(p(1), "Rock Ruler↓");
    // D-4: turn before cover; covers in seating order after the drawer: B, C, D.
    assert_eq!(reacting(&t), Some((ReactionStep::Turn, 2)));
    assert_eq!(waiting(&t), vec![gm()]);
    t.refused(p(2), cover("XX", "Slow"), "D-4"); // B waits for C's turn
    t.refused(p(3), json!({"type": "let_it_stand"}), "D-4"); // nor may D speak for C
    t.ok(gm(), json!({"type": "let_it_stand"}), &[]);
    assert_eq!(reacting(&t), Some((ReactionStep::Cover, 1)));
    assert_eq!(waiting(&t), vec![p(2)]);
    // One party's pass ends only its own chance: the next in line is asked in turn.
    t.ok(p(2), json!({"type": "let_it_stand"}), &[]);
    assert_eq!(reacting(&t), Some((ReactionStep::Cover, 2)));
    t.ok(gm(), json!({"type": "let_it_stand"}), &[]);
    assert_eq!(reacting(&t), Some((ReactionStep::Cover, 3)));
    assert_eq!(waiting(&t), vec![p(3)]);
    // A lower-priority party covers once those before it have passed (ND-20).
    t.ok(p(3), cover("XVIII", "Slow"), &[]);
    assert_eq!(t.state.parties[0].bid_line[0].card, card("XVIII"));
    assert_eq!(t.state.round.window, None);
    assert_eq!(t.state.round.turn, Some(1)); // B's bid
    assert_eq!(waiting(&t), vec![p(2)]);
}

#[test]
fn d4_nd12_a_higher_priority_reaction_pre_empts_a_lower_one() {
    let mut t = four_way();
    t.bid(p(1), "Rock Ruler↑");
    t.ok(gm(), json!({"type": "turn"}), &[]); // the Dominant turns it reversed (ND-18)
    assert!(t.state.parties[0].bid_line[0].reversed);
    assert_eq!(reacting(&t), Some((ReactionStep::Cover, 1)));
    t.ok(p(2), cover("XX", "Slow"), &[]); // B covers first…
    t.refused(p(3), cover("XVIII", "Slow"), "ND-12"); // …so D never gets to
    assert_eq!(t.state.parties[3].characters[0].reserve.len(), 1);
    assert_eq!(t.state.parties[0].characters[0].tally, 1); // D-12
}

#[test]
fn d4_nd19_rejections_come_first_in_seating_order_after_the_drawer() {
    // A shows a Temporary Loss, so B, C and D may each reject A's card, in that order.
    let mut t = four_way();
    t.state.parties[0]
        .temporary
        .push(nd_tourists::state::TemporaryLoss {
            card: card("Paper Home"),
            character: 0,
        });
    t.state.deck.remove(card("Paper Home"));
    t.bid(p(1), "XXI↑");
    assert_eq!(reacting(&t), Some((ReactionStep::Reject, 1)));
    t.refused(gm(), json!({"type": "reject"}), "D-4"); // C is after B
    t.refused(gm(), json!({"type": "turn"}), "D-4"); // and turning comes after rejecting
    t.ok(p(2), json!({"type": "let_it_stand"}), &[]);
    assert_eq!(reacting(&t), Some((ReactionStep::Reject, 2)));
    t.ok(gm(), json!({"type": "reject"}), &["Blades Home↑"]); // C pre-empts D's rejection
    assert!(t.state.parties[0].temporary.is_empty()); // ND-19: the Temporary Loss is spent
    // The replacement opens a new window: no Loss left to use, so the turn comes first.
    assert_eq!(t.state.parties[0].bid_line[0].card, card("Blades Home"));
    assert_eq!(reacting(&t), Some((ReactionStep::Turn, 2)));
}

#[test]
fn d4_nobody_bids_past_another_partys_chance_to_react() {
    let mut t = four_way();
    t.bid(p(1), "Rock Ruler↑");
    t.ok(gm(), json!({"type": "let_it_stand"}), &[]);
    // B's bid would skip B's own cover (allowed: it declines it) and C's and D's (refused).
    t.refused(p(2), json!({"type": "bid"}), "D-4");
    t.ok(p(2), json!({"type": "let_it_stand"}), &[]);
    t.ok(gm(), json!({"type": "let_it_stand"}), &[]);
    t.ok(p(3), json!({"type": "let_it_stand"}), &[]);
    assert_eq!(t.state.round.window, None); // everyone passed: the card stands
    // C's own card: only C can react, so C's next bid declines its chances (D-4).
    t.bid_settled(p(2), "Rock Home↑");
    t.bid_settled(p(3), "Rock Lover↑");
    t.bid(gm(), "Paper Ruler↑");
    assert!(t.state.round.window.is_some());
    assert_eq!(waiting(&t), vec![gm()]);
    t.refused(p(1), json!({"type": "pass"}), "D-4"); // B and D may still cover C's card
}
