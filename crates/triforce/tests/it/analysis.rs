//! Triforce's analysis (feature `analysis`): its odds in play, read from a seat's view exactly
//! as the table server computes them, agree with the exact combat odds; and its table bots play
//! fair and find the winning move.

use clash_analysis::table_bots::bot;
use clash_analysis::testing::{answers_are_fair_plays, answers_without_budget};
use clash_core::{Budget, Game, Seat, SeatTable, SeededRandomness, Strength, seat_odds};
use proptest::prelude::*;
use serde_json::{Value, json};
use triforce::analysis::combat_odds;
use triforce::analysis::contests::TriforceGame;
use triforce::{Command, Gear, State, Triforce};

fn seat(s: &str) -> Seat {
    s.parse().unwrap()
}

/// A game from `setup`, with `commands` played in order.
fn play(setup: Value, commands: &[(&str, Value)]) -> Game<Triforce> {
    let mut game = Game::<Triforce>::new(serde_json::from_value(setup).unwrap()).unwrap();
    let mut rng = SeededRandomness::new(7);
    for (who, c) in commands {
        let command: Command = serde_json::from_value(c.clone()).unwrap();
        game.command(seat(who), &command, &mut rng)
            .unwrap_or_else(|e| panic!("{c} refused: {e}"));
    }
    game
}

/// The odds the table server shows `who` (the catalogue's hook on the running game).
fn odds(game: &Game<Triforce>, who: &str) -> Option<Value> {
    seat_odds::<Triforce>(game, seat(who))
}

fn decimal(p: &Value) -> f64 {
    p["decimal"].as_f64().unwrap()
}

// TF-19, TF-22 to TF-25.
#[test]
fn triforce_odds_are_the_combat_odds_of_each_crowded_stack_with_and_without_the_swap() {
    let setup = json!({ "players": 3, "board": { "2": ["p1-S"], "5": ["p2-L", "p1-M", "p2-M"] } });
    let mut commands = vec![
        ("p1", json!({ "type": "move", "from": 2, "to": 5 })),
        ("p1", json!({ "type": "end_turn" })),
    ];
    let game = play(setup.clone(), &commands);
    let odds_p1 = odds(&game, "p1").expect("a crowded stack");
    let plain = combat_odds::combat(&[Gear::None, Gear::None]).unwrap();
    let fight = &odds_p1["fights"][0];
    assert_eq!(fight["at"], 5);
    for (i, f) in fight["fighters"].as_array().unwrap().iter().enumerate() {
        assert_eq!(f["seat"], ["p1", "p2"][i]);
        assert_eq!(f["gear"], "none");
        assert_eq!(f["loses"]["fraction"], plain.loses[i].fraction);
    }
    // Player 3 sees the same board and so the same fight, but has no swap to weigh.
    let theirs = odds(&game, "p3").unwrap();
    assert_eq!(theirs["fights"], odds_p1["fights"]);
    assert!(theirs.get("swap").is_none());

    // In the sword window Player 1 weighs the sword: it lowers its chance of losing.
    commands.push(("p1", json!({ "type": "resolve", "at": 5 })));
    let game = play(setup, &commands);
    let odds_p1 = odds(&game, "p1").unwrap();
    let swap = &odds_p1["swap"];
    assert_eq!(swap["kind"], "sword");
    let sword = combat_odds::combat(&[Gear::Sword, Gear::None]).unwrap();
    assert_eq!(swap["take"][0]["gear"], "sword");
    assert_eq!(
        swap["take"][0]["loses"]["fraction"],
        sword.loses[0].fraction
    );
    assert!(decimal(&swap["take"][0]["loses"]) < decimal(&swap["decline"][0]["loses"]));
    assert!(odds(&game, "p2").unwrap().get("swap").is_none());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]

    #[test]
    fn triforce_bots_play_fair(seed in any::<u64>()) {
        let table = TriforceGame { players: 3, turn_limit: 8 };
        let n = answers_are_fair_plays(&table, seed, 60, Budget::work(9))
            .map_err(TestCaseError::fail)?;
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
    let table = TriforceGame {
        players: 3,
        turn_limit: 5,
    };
    assert!(answers_without_budget(&table, none));
}

/// TF-29: from the table in its view, the strong bot finds the one move that pins both other
/// players (the position of the MCTS bot's own test).
#[test]
fn the_strong_triforce_bot_finds_the_winning_move() {
    let board = json!({
        "1": ["p1-S", "p3-L", "p1-M"], "2": ["p2-S"], "3": ["p3-L", "p1-S"],
        "4": ["p1-M", "p1-L"], "5": ["p3-L", "p1-S"], "6": ["p2-M", "p1-L"],
        "7": ["p2-M", "p1-S"], "8": ["p2-M", "p1-L"], "10": ["p2-M", "p1-L"],
        "12": ["p3-L", "p1-M"], "13": ["p3-L", "p1-M"], "14": ["p1-S", "p2-M", "p1-L"]
    });
    let setup: triforce::Setup =
        serde_json::from_value(json!({"players": 3, "board": board})).unwrap();
    let state = triforce::start(&setup).unwrap();
    let mut json: Value = serde_json::to_value(state).unwrap();
    json["actions_taken"] = 2.into();
    let state: State = serde_json::from_value(json).unwrap();
    let seen = SeatTable::<Triforce>::from_state(&state, &[], Seat::Player(1));
    assert_eq!(seen.view.table, state, "the view carries the whole table");
    let c = bot::<Triforce>(Strength::Strong).choose(
        &seen,
        Budget::work(400),
        &mut SeededRandomness::new(11),
    );
    assert_eq!(c, Some(Command::Move { from: 4, to: 2 }));
}
