//! Iron Triangle's analysis (feature `analysis`): its table bots play fair, answer with no
//! budget left, draw their stances from the turn's equilibrium and wait for the reveal. (Its
//! odds in play are checked through the table server, in clash-server's tests.)

use clash_analysis::bot_strength::Table;
use clash_analysis::table_bots::bot;
use clash_analysis::testing::{answers_are_fair_plays, answers_without_budget};
use clash_core::{Budget, Game, Ruleset, Seat, SeatTable, SeededRandomness, Strength};
use iron_triangle::analysis::contests::IronDuel;
use proptest::prelude::*;

fn quick() -> Budget {
    Budget::work(9)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]

    #[test]
    fn iron_triangle_bots_play_fair(seed in any::<u64>()) {
        let table = IronDuel::new().unwrap();
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
    assert!(answers_without_budget(&IronDuel::new().unwrap(), none));
}

// ----- Iron Triangle -----

mod iron {
    use super::*;
    use iron_triangle::analysis::turn_game::{Payoff, TurnSpec, solve_turn};
    use iron_triangle::conflict::{ConflictCommand, Step};
    use iron_triangle::{Command, IronTriangle};

    /// The duel at its first stance step, with the conflict's first turn under way.
    fn at_stances() -> Game<IronTriangle> {
        let table = IronDuel::new().unwrap();
        let mut rng = SeededRandomness::new(1);
        let mut game = table.start(&mut rng).unwrap();
        let casual = bot::<IronTriangle>(Strength::Casual);
        for _ in 0..10 {
            let stances = game
                .state()
                .conflict
                .as_ref()
                .and_then(|c| c.turn.as_ref())
                .is_some_and(|t| t.step == Step::Stances);
            if stances {
                return game;
            }
            let waiting = IronTriangle::status(game.state()).waiting_for;
            let next = waiting.into_iter().find_map(|s| {
                casual
                    .choose(&SeatTable::of(&game, s), quick(), &mut rng)
                    .map(|c| (s, c))
            });
            let (seat, c) = next.expect("someone acts");
            game.command(seat, &c, &mut rng).expect("legal");
        }
        panic!("no stance step reached");
    }

    /// IT-32, IT-33: the GM's strong bot (which sees both sheets) only ever takes a stance the
    /// turn's equilibrium plays with positive probability.
    #[test]
    fn the_strong_stance_is_drawn_from_the_turn_equilibrium() {
        let game = at_stances();
        let c = game.state().conflict.as_ref().unwrap();
        let t = c.turn.as_ref().unwrap();
        let fighter = |id: u8| {
            let f = c.f(id);
            let ch = &game.state().characters[f.character];
            serde_json::json!({
                "name": f.name.to_string(),
                "energy": ch.energy.current,
                "max": ch.energy.max,
                "moves": ch.moves.iter().map(|k| k.mv).collect::<Vec<_>>(),
            })
        };
        let spec: TurnSpec = serde_json::from_value(serde_json::json!({
            "active": fighter(t.active),
            "opponent": fighter(t.opponent.unwrap()),
        }))
        .unwrap();
        let solution = solve_turn(&spec, Payoff::Energy).unwrap();
        let bruiser_active = c.f(t.active).name.as_ref() == "Bruiser";
        let mix = if bruiser_active {
            &solution.stances_active
        } else {
            &solution.stances_opponent
        };
        let support: Vec<_> = mix
            .iter()
            .filter(|m| {
                m.probability
                    .exact()
                    .is_some_and(|p| num_traits::Signed::is_positive(&p))
            })
            .map(|m| m.option)
            .collect();
        assert!(!support.is_empty());
        let strong = bot::<IronTriangle>(Strength::Strong);
        let seen = SeatTable::of(&game, Seat::Gm);
        for seed in 0..30 {
            let answer = strong.choose(&seen, Budget::work(400), &mut SeededRandomness::new(seed));
            let Some(Command::Conflict(ConflictCommand::TakeStance { action, amount, .. })) =
                answer
            else {
                panic!("expected a stance, got {answer:?}");
            };
            let stance = iron_triangle::conflict::Stance { action, amount };
            assert!(
                support.contains(&stance),
                "{stance:?} is not in {support:?}"
            );
        }
    }

    /// IT-2: once its stance is committed, neither strength has anything more to send until
    /// the reveal, and the other seat sees it only as ready.
    #[test]
    fn a_committed_seat_waits_for_the_reveal() {
        let mut game = at_stances();
        let strong = bot::<IronTriangle>(Strength::Strong);
        let mut rng = SeededRandomness::new(5);
        let seen = SeatTable::of(&game, Seat::Gm);
        let stance = strong.choose(&seen, quick(), &mut rng).expect("a stance");
        game.command(Seat::Gm, &stance, &mut rng).expect("legal");
        let seen = SeatTable::of(&game, Seat::Gm);
        assert_eq!(strong.choose(&seen, quick(), &mut rng), None);
        let casual = bot::<IronTriangle>(Strength::Casual);
        assert_eq!(casual.choose(&seen, quick(), &mut rng), None);
        // The player's table shows the GM only as ready, and its bot still has to choose.
        let theirs = SeatTable::of(&game, Seat::Player(1));
        assert!(theirs.to_act());
        let text = serde_json::to_string(&theirs.to_json()).unwrap();
        assert!(text.contains("\"ready\""), "{text}");
    }
}
