//! In A Wicked Age's analysis (feature `analysis`): its odds in play, read from a seat's view
//! exactly as the table server computes them, cover every answer; and its table bots play fair,
//! pick the costliest consequence and weigh offers.

use clash_analysis::bot_strength::Table;
use clash_analysis::table_bots::bot;
use clash_analysis::testing::{answers_are_fair_plays, answers_without_budget};
use clash_core::{
    Budget, Game, Listed, Ruleset, Seat, SeatBot, SeatTable, SeededRandomness, Strength, seat_odds,
};
use proptest::prelude::*;
use serde_json::{Value, json};
use wicked_age::WickedAge;
use wicked_age::analysis::contests::WickedConflict;
use wicked_age::analysis::seat_bots;

fn quick() -> Budget {
    Budget::work(9)
}

fn seat(s: &str) -> Seat {
    s.parse().unwrap()
}

/// A game from `setup`, with `commands` played in order.
fn play(setup: Value, commands: &[(&str, Value)]) -> Game<WickedAge> {
    let mut game = Game::<WickedAge>::new(serde_json::from_value(setup).unwrap()).unwrap();
    let mut rng = SeededRandomness::new(7);
    for (who, c) in commands {
        let command: <WickedAge as Ruleset>::Command = serde_json::from_value(c.clone()).unwrap();
        game.command(seat(who), &command, &mut rng)
            .unwrap_or_else(|e| panic!("{c} refused: {e}"));
    }
    game
}

fn view(game: &Game<WickedAge>, who: &str) -> Value {
    serde_json::to_value(WickedAge::view(
        game.state(),
        clash_core::Viewer::Seat(seat(who)),
    ))
    .unwrap()
}

/// The odds the table server shows `who` (the catalogue's hook on the running game).
fn odds_of(game: &Game<WickedAge>, who: &str) -> Option<Value> {
    seat_odds::<WickedAge>(game, seat(who))
}

fn decimal(p: &Value) -> f64 {
    p["decimal"].as_f64().unwrap()
}

/// The catalogue's first preset: the three-way brawl.
fn preset() -> Value {
    serde_json::from_str(WickedAge::PRESETS[0].setup).unwrap()
}

// WA-11, WA-23: every choice of forms the answerer has, each with bands adding up to 1.
#[test]
fn wicked_age_odds_cover_every_answer_the_character_may_roll() {
    let setup = preset();
    let game = play(
        setup,
        &[
            (
                "p1",
                json!({ "type": "start_conflict", "participants": ["Ysolde", "Oren"], "action": "a duel" }),
            ),
            (
                "p1",
                json!({ "type": "roll_initiative", "character": "Ysolde", "forms": ["covertly", "with_love"] }),
            ),
            (
                "p2",
                json!({ "type": "roll_initiative", "character": "Oren", "forms": ["for_myself", "for_others"] }),
            ),
        ],
    );
    let v = view(&game, "p1");
    let first = v["conflict"]["order"][0].as_str().unwrap().to_string();
    let (challenger, target, answerer) = if first == "Ysolde" {
        ("p1", "Oren", "p2")
    } else {
        ("p2", "Ysolde", "p1")
    };
    let mut rng = SeededRandomness::new(3);
    let mut game = game;
    let c = json!({ "type": "challenge", "character": first, "target": target });
    game.command(
        seat(challenger),
        &serde_json::from_value(c).unwrap(),
        &mut rng,
    )
    .unwrap();
    let odds = odds_of(&game, answerer).expect("the answerer's odds");
    assert_eq!(odds["answerer"], target);
    let options = odds["options"].as_array().unwrap();
    let pairs = options.iter().filter(|o| o["strength"].is_null()).count();
    assert_eq!(pairs, 15, "every two of six forms");
    for o in options {
        let bands = o["bands"].as_array().unwrap();
        assert_eq!(bands.len(), 4, "four bands in round 1");
        let total: f64 = bands.iter().map(|b| decimal(&b["probability"])).sum();
        assert!((total - 1.0).abs() < 1e-9, "{o}");
    }
    // The challenger has nothing to weigh now, and neither has the GM.
    assert_eq!(odds_of(&game, challenger), None);
    assert_eq!(odds_of(&game, "gm"), None);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]

    #[test]
    fn wicked_age_bots_play_fair(seed in any::<u64>()) {
        let table = WickedConflict::brawl().unwrap();
        let n = answers_are_fair_plays(&table, seed, 60, quick()).map_err(TestCaseError::fail)?;
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
        &WickedConflict::brawl().unwrap(),
        none
    ));
}

// ----- In A Wicked Age -----

mod wicked_age_bots {
    use super::*;
    use wicked_age::consequence::DefaultConsequence;
    use wicked_age::{Command, WickedAge};

    /// A duel played by casual bots until someone is knocked out and its winner must choose.
    fn knockout(loser_seat: Seat) -> Option<Game<WickedAge>> {
        let table = WickedConflict::duel()?;
        let casual = bot::<WickedAge>(Strength::Casual);
        for seed in 0..200u64 {
            let mut rng = SeededRandomness::new(seed);
            let mut game = table.start(&mut rng)?;
            for _ in 0..60 {
                let state = game.state();
                let lost = state
                    .conflict
                    .as_ref()?
                    .open_knockouts()
                    .next()
                    .and_then(|k| state.character(&k.loser))
                    .map(|ch| ch.controller);
                match lost {
                    Some(seat) if seat == loser_seat => return Some(game),
                    Some(_) => break,
                    None => {}
                }
                let waiting = WickedAge::status(game.state()).waiting_for;
                let next = waiting.into_iter().find_map(|s| {
                    casual
                        .choose(&SeatTable::of(&game, s), quick(), &mut rng)
                        .map(|c| (s, c))
                })?;
                game.command(next.0, &next.1, &mut rng).ok()?;
            }
        }
        None
    }

    fn winner_seat(loser: Seat) -> Seat {
        if loser == Seat::Gm {
            Seat::Player(1)
        } else {
            Seat::Gm
        }
    }

    /// WA-27, WA-28: the strong winner picks the default that costs the loser most. Ash
    /// (d12 d10 d8 d6 d6 d4) loses most as Exhausted (Directly d10→d8, With Violence d4→0); the
    /// Ogre as Shamed (Self-protection d6→d4, d4→0).
    #[test]
    fn the_winner_picks_the_costliest_default() {
        for (loser, expected) in [
            (Seat::Player(1), DefaultConsequence::Exhausted),
            (Seat::Gm, DefaultConsequence::Shamed),
        ] {
            let game = knockout(loser).expect("a knockout");
            let seat = winner_seat(loser);
            let seen = SeatTable::of(&game, seat);
            let c = bot::<WickedAge>(Strength::Strong).choose(
                &seen,
                quick(),
                &mut SeededRandomness::new(1),
            );
            let Some(Command::ChooseConsequence { consequence, .. }) = c else {
                panic!("expected a consequence, got {c:?}");
            };
            assert_eq!(consequence, expected);
        }
    }

    /// WA-27: offered an alternative, the strong loser accepts one that costs less than the
    /// worst default and refuses death.
    #[test]
    fn the_loser_weighs_an_offer_against_the_defaults() {
        use wicked_age::consequence::{Alternative, Cost};
        let game = knockout(Seat::Player(1)).expect("a knockout");
        let loser = "Ash".to_string();
        for (costs, accepted) in [
            (
                vec![Cost::StepDown {
                    form: wicked_age::character::FormRef::Pc(
                        wicked_age::character::PcForm::WithLove,
                    ),
                }],
                true,
            ),
            (vec![Cost::Death {}], false),
        ] {
            let mut g = game.clone();
            let offer = Command::ProposeAlternative {
                loser: loser.clone(),
                alternative: Alternative {
                    terms: "as agreed".into(),
                    costs,
                    waive_consequential: false,
                },
            };
            g.command(Seat::Gm, &offer, &mut SeededRandomness::new(1))
                .expect("an offer");
            let seen = SeatTable::of(&g, Seat::Player(1));
            let c = bot::<WickedAge>(Strength::Strong).choose(
                &seen,
                quick(),
                &mut SeededRandomness::new(1),
            );
            let took = matches!(c, Some(Command::AcceptAlternative { .. }));
            let refused = matches!(c, Some(Command::RefuseAlternative { .. }));
            assert!(took || refused, "{c:?}");
            assert_eq!(took, accepted, "{c:?}");
        }
    }

    /// The yardstick bot is the odds roller itself, read from the view.
    #[test]
    fn the_previous_policy_still_plays() {
        let table = WickedConflict::brawl().unwrap();
        let mut rng = SeededRandomness::new(2);
        let game = table.start(&mut rng).unwrap();
        let seen = SeatTable::of(&game, Seat::Player(1));
        let c = seat_bots::Odds.choose(&seen, quick(), &mut rng);
        assert!(matches!(c, Some(Command::RollInitiative { .. })), "{c:?}");
    }
}
