//! Winning: TF-28 to TF-30 and test vector TV-13.

use crate::common;

use common::*;
use triforce::{Command, EndRule, Event, Size};

fn singles(seat: &str, positions: &[u8]) -> Vec<(u8, String)> {
    let sizes = ["S", "M", "L"];
    positions
        .iter()
        .enumerate()
        .map(|(i, n)| (*n, format!("{seat}-{}", sizes[i % 3])))
        .collect()
}

fn setup_owned(players: u8, board: &[(u8, String)]) -> triforce::Setup {
    let refs: Vec<(u8, &str)> = board.iter().map(|(n, s)| (*n, s.as_str())).collect();
    setup(players, &refs)
}

#[test]
fn tv_13_territory_threshold() {
    // TF-28: 8 stacks with 3 players wins at the start of R's turn …
    let state = start(&setup_owned(3, &singles("p1", &[2, 3, 4, 5, 6, 7, 8, 9])));
    let outcome = state.outcome().expect("R wins");
    assert_eq!(
        (outcome.winners.as_slice(), outcome.by),
        (&[R][..], EndRule::Territory)
    );
    // … 7 does not.
    let state = start(&setup_owned(3, &singles("p1", &[2, 3, 4, 5, 6, 7, 8])));
    assert!(state.outcome().is_none());
    // With 6 players the threshold is 5.
    let state = start(&setup_owned(6, &singles("p1", &[2, 3, 5, 7, 8])));
    assert_eq!(state.outcome().map(|o| o.by), Some(EndRule::Territory));
    let state = start(&setup_owned(6, &singles("p1", &[2, 3, 5, 7])));
    assert!(state.outcome().is_none());
}

#[test]
fn tf_28_wins_only_at_the_start_of_ones_own_turn() {
    let mut state = start(&setup_owned(3, &singles("p2", &[2, 3, 4, 5, 6, 7, 8, 9])));
    assert!(
        state.outcome().is_none(),
        "R's turn: G's territory does not count yet"
    );
    send(&mut state, R, Command::Place { size: Size::S }, &[]).unwrap();
    let events = send(&mut state, R, Command::EndTurn, &[]).unwrap();
    let Some(Event::GameOver { outcome }) = events.last() else {
        panic!("game over expected")
    };
    assert_eq!(
        (outcome.winners.as_slice(), outcome.by),
        (&[G][..], EndRule::Territory)
    ); // TF-28
    // The game refuses any further command.
    let err = send(&mut state, G, Command::Place { size: Size::M }, &[]).unwrap_err();
    assert_eq!(err.rule(), Some("TF-28"));
}

/// Every top is small and every stash is empty: nobody can act.
const DEADLOCK: &[(u8, &str)] = &[
    (1, "p1-M p1-L p1-S"),
    (2, "p1-M p1-L p1-S"),
    (3, "p1-M p1-L p1-S"),
    (4, "p1-M p1-L p1-S"),
    (5, "p1-M p2-L p1-S"),
    (6, "p1-L p3-M p2-S"),
    (7, "p2-M p2-L p2-S"),
    (8, "p2-M p2-L p2-S"),
    (9, "p2-M p2-L p2-S"),
    (10, "p2-M p2-L p2-S"),
    (11, "p2-M p3-L p3-S"),
    (12, "p3-M p3-L p3-S"),
    (13, "p3-M p3-L p3-S"),
    (14, "p3-M p3-L p3-S"),
    (15, "p3-M p3-L p3-S"),
];

#[test]
fn tf_30_deadlock_most_stacks_wins() {
    let state = start(&setup(3, DEADLOCK));
    let outcome = state.outcome().expect("deadlock");
    // Bottom counts 6, 5, 4.
    assert_eq!(
        (outcome.winners.as_slice(), outcome.by),
        (&[R][..], EndRule::Deadlock)
    ); // TF-30
}

#[test]
fn tf_30_deadlock_tie_is_a_shared_draw() {
    let board: Vec<(u8, String)> = (1..=15u8)
        .map(|n| (n, format!("p{0}-M p{0}-L p{0}-S", (n - 1) / 5 + 1)))
        .collect();
    let state = start(&setup_owned(3, &board));
    let outcome = state.outcome().expect("deadlock");
    assert_eq!(outcome.winners.as_slice(), &[R, G, B]); // TF-30: shared draw
}

#[test]
fn tf_30_turn_limit_ends_the_game() {
    let mut s = setup(3, &[]);
    s.turn_limit = Some(2);
    let mut state = start(&s);
    send(&mut state, R, Command::Place { size: Size::S }, &[]).unwrap();
    send(&mut state, R, Command::EndTurn, &[]).unwrap();
    send(&mut state, G, Command::Place { size: Size::M }, &[]).unwrap();
    let events = send(&mut state, G, Command::EndTurn, &[]).unwrap();
    let Some(Event::GameOver { outcome }) = events.last() else {
        panic!("game over expected")
    };
    assert_eq!(outcome.by, EndRule::TurnLimit);
    assert_eq!(
        outcome.winners.as_slice(),
        &[R, G],
        "1 stack each: shared draw"
    );
}

#[test]
fn tf_29_last_free_player_needs_an_action() {
    // Covered in TV-5 (the actions module); here: a pinned seat never wins by TF-29.
    let state = start(&setup(3, DEADLOCK));
    assert_ne!(state.outcome().map(|o| o.by), Some(EndRule::LastFree)); // TF-29
}
