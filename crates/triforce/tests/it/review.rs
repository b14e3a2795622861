//! The review of a finished game: every decision judged by the strong bot's search, the luck
//! of every combat weighed against every result of its dice (checked by hand on a last combat
//! and against the combat odds of `clash odds triforce combat`), and a bot game reviewed whole.

use clash_analysis::review::chance::outcomes;
use clash_analysis::review::play::play;
use clash_analysis::review::{Reviewed, hook};
use clash_core::review::{Record, Step};
use clash_core::{Game, Recorder, Scripted, ScriptedRandomness, Seat, Strength};
use serde_json::{Value, json};
use std::time::{Duration, Instant};
use triforce::analysis::combat_odds;
use triforce::board::Pos;
use triforce::{Command, Gear, Setup, Triforce};

fn review(record: &Record) -> clash_core::Review {
    let mut r = hook::<Triforce>(record).expect("the record replays");
    while !r.work(Instant::now() + Duration::from_millis(200)) {}
    r.review()
}

/// The last combat of a one-turn game (TF-30's turn limit), in Ada's combat phase: stack 8 is
/// Cy-M, Ada-L, Cy-S, Ada-M (bottom first), and Ada is also bottom player of stack 1.
fn last_combat() -> Value {
    json!({"players": 3, "names": {"p1": "Ada", "p2": "Bo", "p3": "Cy"}, "turn_limit": 1,
           "board": {"1": ["p1-S"], "8": ["p3-M", "p1-L", "p3-S", "p1-M"]}, "start_in": "combat"})
}

/// Ada resolves stack 8, neither takes the sword or the shield, and the dice roll `ada`, `cy`.
fn record_of(ada: u32, cy: u32) -> Record {
    let setup_json = last_combat();
    let setup: Setup = serde_json::from_value(setup_json.clone()).unwrap();
    let mut game = Game::<Triforce>::new(setup).unwrap();
    let moves = [
        (Seat::Player(1), json!({"type": "resolve", "at": 8}), vec![]),
        (Seat::Player(1), json!({"type": "decline"}), vec![]),
        (Seat::Player(3), json!({"type": "decline"}), vec![ada, cy]),
    ];
    let mut steps = Vec::new();
    for (seat, command, dice) in moves {
        let c: Command = serde_json::from_value(command.clone()).unwrap();
        let mut s = ScriptedRandomness::new(dice.into_iter().map(Scripted::Die));
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
    assert!(
        game.state().outcome().is_some(),
        "the turn limit ends the game"
    );
    Record {
        setup: setup_json,
        steps,
    }
}

/// TF-24 … TF-26, TF-30: Ada and Cy fight plain, a d12 each; the lower total loses its
/// bottom-most piece, a tie loses both. Of the 144 throws, Ada is higher in 66: Cy-M goes, Ada
/// is bottom of both stacks and wins (1). In the other 78 (Cy higher in 66, a tie in 12) Ada-L
/// goes, or both bottom pieces, and Cy is bottom of stack 8: one stack each, a shared draw (½
/// each). Ada's average is (66·1 + 78·½)/144 = 105/144 = 35/48; Cy's (78·½)/144 = 13/48; Bo's 0.
/// Ada rolls 9 to Cy's 4 and wins: Ada's luck is 1 − 35/48 = 13/48, Cy's 0 − 13/48 = −13/48.
#[test]
fn the_luck_of_a_last_combat_is_checked_by_hand() {
    let review = review(&record_of(9, 4));
    let c = &review.conflicts[0];
    assert_eq!(c.result.as_deref(), Some(&[1.0, 0.0, 0.0][..]), "Ada won");
    let rolled: Vec<_> = c.moments.iter().filter_map(|m| m.luck.as_ref()).collect();
    assert_eq!(rolled.len(), 1, "one roll of dice");
    let luck = rolled[0];
    assert!(!luck.sampled);
    assert_eq!(luck.results, 3, "Cy loses, Ada loses, both lose");
    assert!((luck.average[0] - 35.0 / 48.0).abs() < 1e-12, "{luck:?}");
    assert!((luck.average[2] - 13.0 / 48.0).abs() < 1e-12);
    assert!(luck.average[1].abs() < 1e-12);
    assert!((luck.luck[0] - 13.0 / 48.0).abs() < 1e-12);
    assert!((luck.luck[2] + 13.0 / 48.0).abs() < 1e-12);
    // A player's luck sums its rolls, and the luck-adjusted result is the result less it.
    let ada = review
        .players
        .iter()
        .find(|p| p.seat == Seat::Player(1))
        .unwrap();
    assert!((ada.luck - 13.0 / 48.0).abs() < 1e-12);
    assert!((ada.adjusted.unwrap() - (1.0 - 13.0 / 48.0)).abs() < 1e-12);
}

/// The results of the dice, as the review enumerates them through the rules, weigh each set of
/// losers exactly as the combat odds do (`clash odds triforce combat plain plain`).
#[test]
fn a_combats_results_agree_with_the_combat_odds() {
    let record = record_of(9, 4);
    let setup: Setup = serde_json::from_value(record.setup.clone()).unwrap();
    let mut game = Game::<Triforce>::new(setup).unwrap();
    for s in &record.steps[..2] {
        for e in &s.events {
            clash_core::AnyGame::restore(&mut game, e).unwrap();
        }
    }
    let state = *game.state();
    let found = outcomes::<Triforce>(
        &state,
        Seat::Player(3),
        &Command::Decline,
        <Triforce as Reviewed>::luck_key,
        1,
    )
    .expect("the dice are enumerated");
    assert!(!found.sampled);
    // Who lost, read from stack 8 after the dice (Ada is seat index 0, Cy 2).
    let eight = Pos::number(8).unwrap();
    let mut weighed = [0.0; 3];
    for (p, s) in &found.groups {
        let stack = s.stack(eight);
        let set = match (stack.len(), stack.bottom_player()) {
            (3, Some(0)) => 1, // Cy's bottom piece went: {Cy}
            (3, Some(2)) => 0, // Ada's: {Ada}
            (2, _) => 2,       // both
            other => panic!("an unexpected stack after the combat: {other:?}"),
        };
        weighed[set] += p;
    }
    let odds = combat_odds::combat(&[Gear::None, Gear::None]).unwrap();
    for set in &odds.loser_sets {
        let i = match set.losers.as_slice() {
            [0] => 0,
            [1] => 1,
            _ => 2,
        };
        assert!(
            (weighed[i] - set.probability.decimal).abs() < 1e-12,
            "{weighed:?} against {}",
            set.probability.fraction
        );
    }
    assert!((weighed[0] - 66.0 / 144.0).abs() < 1e-12 && (weighed[2] - 12.0 / 144.0).abs() < 1e-12);
}

#[test]
fn a_short_game_is_reviewed_whole() {
    let mut setup = Setup::new(3);
    setup.turn_limit = Some(9);
    let record = play::<Triforce>(&setup, &[], Strength::Strong, 60, 4, 400).unwrap();
    let review = review(&record);
    assert!(review.progress.done);
    assert_eq!(review.conflicts.len(), 1, "the whole game is one contest");
    let c = &review.conflicts[0];
    assert!(!c.points.is_empty());
    // Every chance is a share of the wins: the sides' chances sum to 1 at every point.
    for p in &c.points {
        let sum: f64 = p.chances.iter().sum();
        assert!((sum - 1.0).abs() < 1e-9, "{p:?}");
    }
    assert!(
        review.players.iter().any(|p| p.decisions > 0),
        "decisions were judged"
    );
}
