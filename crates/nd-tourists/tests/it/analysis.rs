//! N-Dimensional Tourists' analysis (feature `analysis`): its odds in play, read from a seat's
//! view exactly as the table server computes them, agree with what the engine says the bidding
//! party knows; and its table bots play fair, deal only what the seat cannot see and score
//! rounds for their own parties.

use clash_analysis::bot_strength::Table;
use clash_analysis::table_bots::bot;
use clash_analysis::testing::{answers_are_fair_plays, answers_without_budget};
use clash_core::{
    Budget, Game, Listed, Ruleset, Seat, SeatTable, SeededRandomness, Strength, Viewer, seat_odds,
};
use nd_tourists::NdTourists;
use nd_tourists::analysis::contests::{TouristsConflict, default_tourists_setup};
use nd_tourists::analysis::seat_bots;
use nd_tourists::probability::Knowledge;
use proptest::prelude::*;
use serde_json::{Value, json};

fn quick() -> Budget {
    Budget::work(9)
}

fn seat(s: &str) -> Seat {
    s.parse().unwrap()
}

/// A game from `setup`, with `commands` played in order.
fn play(setup: Value, commands: &[(&str, Value)]) -> Game<NdTourists> {
    let mut game = Game::<NdTourists>::new(serde_json::from_value(setup).unwrap()).unwrap();
    let mut rng = SeededRandomness::new(7);
    for (who, c) in commands {
        let command: <NdTourists as Ruleset>::Command = serde_json::from_value(c.clone()).unwrap();
        game.command(seat(who), &command, &mut rng)
            .unwrap_or_else(|e| panic!("{c} refused: {e}"));
    }
    game
}

fn view(game: &Game<NdTourists>, who: &str) -> Value {
    serde_json::to_value(NdTourists::view(game.state(), Viewer::Seat(seat(who)))).unwrap()
}

/// The odds the table server shows `who` (the catalogue's hook on the running game).
fn odds_of(game: &Game<NdTourists>, who: &str) -> Option<Value> {
    seat_odds::<NdTourists>(game, seat(who))
}

/// The catalogue's first preset.
fn preset() -> Value {
    serde_json::from_str(NdTourists::PRESETS[0].setup).unwrap()
}

// ND-3, ND-20: the view holds just what the party knows, no more and no less.
#[test]
fn tourists_odds_match_what_the_engine_says_the_bidding_party_knows() {
    let preset = preset();
    let mut game = play(preset, &[("gm", json!({ "type": "start" }))]);
    let mut rng = SeededRandomness::new(11);
    let mut checked = 0;
    for _ in 0..12 {
        let v = view(&game, "gm");
        let round = &v["round"];
        if v["phase"] != "bidding" {
            break;
        }
        if round["window"].is_null() {
            let turn = round["turn"].as_u64().unwrap() as usize;
            let party = &v["parties"][turn];
            let who = party["seat"].as_str().unwrap().to_string();
            let odds = odds_of(&game, &who).expect("the bidder's odds");
            let known = Knowledge::of_party(game.state(), turn as u8);
            for b in odds["beats"].as_array().unwrap() {
                let card = b["card"].as_str().unwrap().parse().unwrap();
                let exact = known.next_draw_beats(card).unwrap().to_string();
                assert_eq!(b["chance"]["fraction"], exact, "{card}");
                checked += 1;
            }
            // Nobody else is about to bid.
            for other in ["gm", "p1", "p2", "p3"].iter().filter(|s| **s != who) {
                assert_eq!(odds_of(&game, other), None);
            }
            let c = json!({ "type": "bid", "party": party["name"] });
            game.command(seat(&who), &serde_json::from_value(c).unwrap(), &mut rng)
                .unwrap();
        } else {
            // Whoever is asked to react lets the card stand.
            let (who, stand) = ["gm", "p1", "p2", "p3"]
                .iter()
                .find_map(|s| {
                    let legal = NdTourists::legal_commands(game.state(), seat(s));
                    let stand = legal.into_iter().find(|c| {
                        serde_json::to_value(c).is_ok_and(|v| v["type"] == "let_it_stand")
                    })?;
                    Some((*s, stand))
                })
                .expect("someone is asked to react");
            game.command(seat(who), &stand, &mut rng).unwrap();
        }
    }
    assert!(
        checked > 0,
        "some bid was weighed against a card on the table"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]

    #[test]
    fn tourists_bots_play_fair(seed in any::<u64>()) {
        let table = TouristsConflict::kaiju(4).unwrap();
        let n = answers_are_fair_plays(&table, seed, 80, quick()).map_err(TestCaseError::fail)?;
        prop_assert!(n > 0);
    }
}

/// With no time at all and a single unit of work, the strong bot still answers at once.
#[test]
fn an_exhausted_budget_still_gets_an_answer() {
    let none = Budget {
        time: std::time::Duration::ZERO,
        work: 0,
    };
    assert!(answers_without_budget(
        &TouristsConflict::kaiju(3).unwrap(),
        none
    ));
}

// ----- N-Dimensional Tourists -----

/// ND-20, ND-4: a sampled deal shows the seat exactly its own view (the same table, its own
/// Reserves, the same counts of the others' and of the deck), while the cards it cannot see
/// are dealt at random.
#[test]
fn a_deal_shows_the_seat_exactly_its_view() {
    let table = TouristsConflict::kaiju(6).unwrap();
    let casual = bot::<NdTourists>(Strength::Casual);
    let mut deals_differ = false;
    for seed in 0..6u64 {
        let mut rng = SeededRandomness::new(seed);
        let mut game = table.start(&mut rng).unwrap();
        for _ in 0..120 {
            for seat in table.seats() {
                let seen = SeatTable::of(&game, seat);
                let Some(a) = seat_bots::deal(&seen, &mut SeededRandomness::new(1)) else {
                    continue;
                };
                let b = seat_bots::deal(&seen, &mut SeededRandomness::new(2)).unwrap();
                let json = |s: &nd_tourists::State| {
                    serde_json::to_value(NdTourists::view(s, Viewer::Seat(seat))).unwrap()
                };
                let mine = serde_json::to_value(&seen.view).unwrap();
                assert_eq!(json(&a), mine, "a deal {seat} could tell from the table");
                assert_eq!(json(&b), mine);
                deals_differ |=
                    serde_json::to_value(&a).unwrap() != serde_json::to_value(&b).unwrap();
            }
            let waiting = NdTourists::status(game.state()).waiting_for;
            let next = waiting
                .into_iter()
                .find_map(|s| {
                    casual
                        .choose(&SeatTable::of(&game, s), quick(), &mut rng)
                        .map(|c| (s, c))
                })
                .or_else(|| table.business(&game));
            let Some((seat, c)) = next else { break };
            if table.finished(&game) || game.command(seat, &c, &mut rng).is_err() {
                break;
            }
        }
    }
    assert!(deals_differ, "the unseen cards are dealt at random");
}

/// The strong bot's rounds are scored for its own parties: a victor outright, Control held,
/// Losses against.
#[test]
fn a_round_is_scored_for_the_seat_against_the_others() {
    let setup: nd_tourists::Setup = serde_json::from_value(default_tourists_setup()).unwrap();
    let mut state = NdTourists::setup(&setup).unwrap();
    clash_core::execute::<NdTourists>(
        &mut state,
        Seat::Gm,
        &nd_tourists::Command::Start {},
        &mut SeededRandomness::new(1),
    )
    .unwrap();
    // TV-1: Levinulon (party 0) is Dominant with Control 1.
    assert_eq!(state.dominant, Some(0));
    assert_eq!(seat_bots::score(&state, &[0]), 1.0);
    assert_eq!(seat_bots::score(&state, &[1]), -1.0);
    state.victor = Some(1);
    assert!(seat_bots::score(&state, &[1]) > 10.0);
}
