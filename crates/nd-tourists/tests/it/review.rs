//! The review of a finished Conflict: a draw's results are weighed as the draw odds weigh them
//! (`clash odds nd-tourists break`), the luck of a Balance Breaker's last draw is checked by
//! hand, and a Conflict played by bots is reviewed whole.

use std::time::{Duration, Instant};

use clash_analysis::review::chance::outcomes;
use clash_analysis::review::hook;
use clash_analysis::review::play::play;
use clash_core::review::{Record, Step};
use clash_core::{Game, Recorder, Ruleset, Scripted, ScriptedRandomness, Seat, Strength};
use nd_tourists::analysis::draw_odds::break_probability;
use nd_tourists::probability::Knowledge;
use nd_tourists::{Card, CardSet, Command, NdTourists, Setup, beats};
use num_traits::ToPrimitive;
use serde_json::{Value, json};

fn review(record: &Record) -> clash_core::Review {
    let mut r = hook::<NdTourists>(record).expect("the record replays");
    while !r.work(Instant::now() + Duration::from_millis(200)) {}
    r.review()
}

/// Two parties of equal totals, with no Reserves: a Balance Breaker nobody can react in.
fn two_parties() -> Value {
    json!({"parties": [
        {"name": "TMDF", "seat": "p1", "goal": "Save Tokyo",
         "characters": [{"name": "TMDF", "attribute": {"name": "Paper", "value": 5}}]},
        {"name": "US", "seat": "p2", "goal": "Hack the exchange",
         "characters": [{"name": "US Covert Mech Ops", "attribute": {"name": "Blades", "value": 5}}]}
    ]})
}

/// Start, then TMDF draws Rock Soldier upright and US draws `card` upright.
fn balance_breaker(card: &str) -> Record {
    let setup_json = two_parties();
    let setup: Setup = serde_json::from_value(setup_json.clone()).unwrap();
    let mut game = Game::<NdTourists>::new(setup).unwrap();
    let mut steps = Vec::new();
    let moves: [(Seat, Value, Vec<&str>); 3] = [
        (Seat::Gm, json!({"type": "start"}), vec![]),
        (
            Seat::Player(1),
            json!({"type": "bid"}),
            vec!["Rock Soldier", "upright"],
        ),
        (
            Seat::Player(2),
            json!({"type": "bid"}),
            vec![card, "upright"],
        ),
    ];
    for (seat, command, script) in moves {
        let c: Command = serde_json::from_value(command.clone()).unwrap();
        let mut s = ScriptedRandomness::new(script.into_iter().map(|x| Scripted::Pick(x.into())));
        let mut r = Recorder::new(&mut s);
        let events = game.command(seat, &c, &mut r).unwrap().to_vec();
        steps.push(Step {
            seat,
            command,
            draws: r.draws,
            events: events
                .iter()
                .map(|e| serde_json::to_value(e).unwrap())
                .collect(),
        });
    }
    Record {
        setup: setup_json,
        steps,
    }
}

/// ND-3, ND-14: with Rock Soldier on TMDF's line and 66 cards in the deck, US's draw beats it
/// with a Paper or Unknown card (18) or any Triumph (21): 39 of 66; Rock Soldier beats US's card
/// when it is Blades or Serpent: 18 of 66; the rest (the other Rocks, the Excuse) leave the
/// round unwon. US draws XXI: it wins the round, so its luck is 1 − 39/66 = 9/22, and TMDF's is
/// 0 − 18/66 = −3/11.
#[test]
fn the_luck_of_a_balance_breaker_draw_is_checked_by_hand() {
    let review = review(&balance_breaker("XXI"));
    let c = &review.conflicts[0];
    let m = c
        .moments
        .iter()
        .find(|m| m.seat == Seat::Player(2) && m.luck.is_some())
        .expect("US's draw");
    let luck = m.luck.as_ref().unwrap();
    assert!((luck.average[1] - 39.0 / 66.0).abs() < 1e-12, "{luck:?}");
    assert!((luck.average[0] - 18.0 / 66.0).abs() < 1e-12);
    assert!((luck.luck[1] - 9.0 / 22.0).abs() < 1e-12);
    assert!((luck.luck[0] + 3.0 / 11.0).abs() < 1e-12);
    assert!(!luck.sampled);
    assert_eq!(
        c.result.as_deref(),
        Some(&[0.0, 1.0][..]),
        "US won the round"
    );
    // A player's luck sums the luck of every draw for its side (TMDF's draw too), and its
    // luck-adjusted result is its result less that sum.
    let us = review
        .players
        .iter()
        .find(|p| p.seat == Seat::Player(2))
        .unwrap();
    let summed: f64 = c
        .moments
        .iter()
        .filter_map(|m| m.luck.as_ref())
        .map(|l| l.luck[1])
        .sum();
    assert!((us.luck - summed).abs() < 1e-12);
    assert!((us.adjusted.unwrap() - (1.0 - summed)).abs() < 1e-12);
}

/// The results of a draw, as the review enumerates them through the rules, weigh each card as
/// `clash odds nd-tourists break --draws 1` does: the chance that US's next card beats TMDF's is
/// the break probability of that one target from everything out of the deck. (Drawing the
/// Excuse, 1 in 66, brings a story card in its place: that is a second draw.)
#[test]
fn a_draws_results_agree_with_the_draw_odds() {
    let record = balance_breaker("XXI");
    let setup: Setup = serde_json::from_value(record.setup.clone()).unwrap();
    let mut game = Game::<NdTourists>::new(setup).unwrap();
    for s in &record.steps[..2] {
        for e in &s.events {
            clash_core::AnyGame::restore(&mut game, e).unwrap();
        }
    }
    let state = game.state().clone();
    let found = outcomes::<NdTourists>(
        &state,
        Seat::Player(2),
        &Command::Bid {
            party: None,
            character: None,
        },
        |s| serde_json::to_string(s).unwrap(),
        1,
    )
    .unwrap();
    assert!(!found.sampled);
    let target: Card = "Rock Soldier".parse().unwrap();
    let beaten: f64 = found
        .groups
        .iter()
        // The card US drew: on its bid line, or (reversed) marking its Temporary Loss (ND-21);
        // not the story card that stands in for a drawn Excuse (ND-16a), a second draw.
        .filter(|(_, s)| s.round.excuse.is_none())
        .filter(|(_, s)| {
            let us = &s.parties[1];
            us.bid_line
                .iter()
                .map(|b| b.card)
                .chain(us.temporary.iter().map(|t| t.card))
                .any(|c| beats(c, target))
        })
        .map(|(p, _)| p)
        .sum();
    let mut seen = CardSet::EMPTY;
    seen.insert(target);
    let knowledge = Knowledge {
        seen_out: seen,
        unseen_out: 0,
        blanks: false,
        left_out: CardSet::EMPTY,
    };
    let odds = break_probability(&knowledge, &[target], 1)
        .unwrap()
        .to_f64()
        .unwrap();
    assert!((beaten - odds).abs() < 1e-12, "{beaten} vs {odds}");
    assert!((odds - 39.0 / 66.0).abs() < 1e-12);
    assert_eq!(NdTourists::ID, "nd-tourists");
}

/// A Conflict of bots: every decision judged from its seat's view, every draw's luck weighed,
/// each round scored to its winners.
#[test]
fn a_bot_conflict_is_reviewed() {
    let setup: Setup = serde_json::from_value(two_parties()).unwrap();
    let prelude = [(Seat::Gm, json!({"type": "start"}))];
    let record = play::<NdTourists>(&setup, &prelude, Strength::Strong, 20, 2, 30).unwrap();
    let review = review(&record);
    assert!(review.progress.done);
    let c = &review.conflicts[0];
    assert!(c.moments.iter().any(|m| m.luck.is_some()));
    assert!(
        c.points
            .iter()
            .all(|p| p.chances.iter().all(|x| (0.0..=1.0).contains(x)))
    );
    assert!(review.unevaluated.is_empty(), "{:?}", review.unevaluated);
}
