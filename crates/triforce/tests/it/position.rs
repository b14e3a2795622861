//! Openings that are logged (issue 18) and positions: a running game exported as a setup that
//! starts a new game at the same point, and impossible positions refused with their rule.

use crate::common;

use clash_core::{RuleError, Ruleset, Seat, SeededRandomness, Viewer, execute};
use common::*;
use proptest::prelude::*;
use triforce::random::RandomPlayer;
use triforce::{EndRule, Event, OpenWindow, Phase, Setup, StartIn, State, Triforce};

/// TV-5's board: at the start of R's turn G and B have no legal action and R has 69.
const TV5: &[(u8, &str)] = &[
    (1, "p1-S p3-L p1-M"),
    (3, "p3-L p1-S"),
    (5, "p3-L p1-S"),
    (6, "p2-M p1-L"),
    (7, "p2-M p1-S"),
    (8, "p2-M p1-L"),
    (10, "p2-M p1-L"),
    (12, "p3-L p1-M"),
    (13, "p3-L p1-M"),
    (14, "p1-S p2-M p1-L"),
];

fn opening(setup: &Setup) -> Vec<Event> {
    clash_core::start::<Triforce>(setup).expect("valid setup").1
}

fn refused(setup: &Setup) -> &'static str {
    match Triforce::setup(setup) {
        Err(RuleError::InvalidSetup { rule, .. }) => rule,
        other => panic!("expected a refused setup, got {other:?}"),
    }
}

#[test]
fn tf_12_an_ordinary_opening_logs_the_first_turn() {
    assert_eq!(
        opening(&Setup::new(3)),
        [Event::TurnStarted { seat: R, turn: 1 }]
    );
}

#[test]
fn tf_29_a_game_decided_at_the_start_is_a_logged_win() {
    // TV-5: R wins by TF-29 at the very start; the win is an event, not a silent state.
    let events = opening(&setup(3, TV5));
    let [Event::GameOver { outcome }] = events.as_slice() else {
        panic!("one game-over event expected, got {events:?}")
    };
    assert_eq!(
        (outcome.winners.as_slice(), outcome.by),
        (&[R][..], EndRule::LastFree)
    );
}

#[test]
fn tf_18_pinned_first_seats_pass_in_the_log() {
    // TV-5's board with G to start: G and B are pinned and pass, then R wins (TF-29).
    let mut s = setup(3, TV5);
    s.starting_seat = G;
    let events = opening(&s);
    assert_eq!(events[0], Event::Pinned { seat: G, turn: 1 }); // TF-18
    assert_eq!(events[1], Event::Pinned { seat: B, turn: 2 }); // TF-18
    assert!(matches!(events[2], Event::GameOver { .. })); // TF-29 at R's turn 3
    assert_eq!(events.len(), 3);
    // Each is narrated like any other event.
    let state = triforce::start(&s).unwrap();
    assert_eq!(
        Triforce::narrate(&state, &events[0]),
        "Turn 1: Green has no legal action and passes (TF-18)."
    );
}

#[test]
fn the_opening_is_the_start_of_every_log() {
    let mut s = setup(3, TV5);
    s.starting_seat = G;
    let game = clash_core::Game::<Triforce>::new(s.clone()).unwrap();
    assert_eq!(game.log().len(), 3);
    // Replaying the setup and the log gives the started state.
    assert_eq!(
        clash_core::replay::<Triforce>(&s, game.log()).unwrap(),
        *game.state()
    );
}

/// Two states are the same position: equal but for the last combat's dice, outside the actions
/// the bookkeeping of the actions, and once the game is over who took swords in its last turn
/// (no rule reads either then).
fn same_position(a: &State, b: &State) -> bool {
    let json = |s: &State| {
        let mut v = serde_json::to_value(s).unwrap();
        v["last_battle"] = serde_json::Value::Null;
        if s.phase() != Phase::Actions {
            for key in ["start", "actions_taken", "placed"] {
                v[key] = serde_json::Value::Null;
            }
        }
        if s.phase() == Phase::Over {
            v["sword_takers"] = serde_json::Value::Null;
        }
        v
    };
    json(a) == json(b)
}

fn round_trip(state: &State) -> Result<State, TestCaseError> {
    let position = Triforce::position(state, Viewer::Spectator).expect("a resting state");
    // A position is a setup: it goes through JSON like one.
    let text = serde_json::to_string(&position).unwrap();
    let read: Setup = serde_json::from_str(&text).unwrap();
    let again = triforce::start(&read).map_err(|e| TestCaseError::fail(format!("{e}: {text}")))?;
    prop_assert!(
        same_position(state, &again),
        "{text}\nbefore: {state:?}\nafter: {again:?}"
    );
    // Exporting again gives the same position.
    prop_assert_eq!(Triforce::position(&again, Viewer::Spectator), Some(read));
    Ok(again)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    /// position(state) → setup → start gives back the same position, at every step of random
    /// games (actions part-way, combat windows, games over), for every viewer alike.
    #[test]
    fn positions_round_trip_over_random_play(seed: u64, players in 3u8..=6, steps in 0usize..500) {
        let mut s = Setup::new(players);
        if seed % 3 == 0 {
            s.names.insert(Seat::Player(1), "Ada".into());
            s.turn_limit = Some(40);
        }
        let mut state = triforce::start(&s).unwrap();
        let mut player = RandomPlayer::new(seed);
        let mut dice = SeededRandomness::new(seed ^ 7);
        for _ in 0..steps {
            round_trip(&state)?;
            prop_assert_eq!(
                Triforce::position(&state, Viewer::Seat(Seat::Player(1))),
                Triforce::position(&state, Viewer::Spectator)
            );
            let Some((seat, command)) = player.pick(&state) else { break };
            execute::<Triforce>(&mut state, seat, &command, &mut dice).unwrap();
        }
        round_trip(&state)?;
    }
}

#[test]
fn a_position_part_way_through_the_actions_keeps_the_turns_rules() {
    // TV-4 from a position: R moves 2 → 4 and 4 → 8; exported and restarted there, a third
    // action 8 → 2 still may not recreate the board the turn began with (TF-17).
    let mut state = start(&setup(3, TV3));
    send(&mut state, R, mv(2, 4), &[]).unwrap();
    send(&mut state, R, mv(4, 8), &[]).unwrap();
    let position = Triforce::position(&state, Viewer::Spectator).unwrap();
    assert_eq!(position.turn.actions_taken, 2);
    assert!(position.turn.began_with.is_some());
    let mut again = triforce::start(&position).unwrap();
    let err = send(&mut again, R, mv(8, 2), &[]).unwrap_err();
    assert_eq!(err.rule(), Some("TF-17")); // TV-4, from a position
}

#[test]
fn a_position_in_a_shield_window_starts_there() {
    // TV-8's stack after R's sword: G's shield window is open.
    let mut state = start(&combat_setup(&[(5, "p2-L p1-S p2-M p1-S")]));
    send(&mut state, R, triforce::Command::Resolve { at: 5 }, &[]).unwrap();
    send(
        &mut state,
        R,
        triforce::Command::TakeSword { level: 2 },
        &[],
    )
    .unwrap();
    assert!(matches!(state.phase(), Phase::Shield { .. }));
    let position = Triforce::position(&state, Viewer::Spectator).unwrap();
    assert_eq!(position.turn.window, Some(OpenWindow::Shield(5)));
    assert_eq!(position.turn.swords_taken.get(&5), Some(&vec![R]));
    let mut again = triforce::start(&position).unwrap();
    assert_eq!(again.awaiting(), Some(G));
    send(
        &mut again,
        G,
        triforce::Command::TakeShield { level: 3 },
        &[5, 6, 11],
    )
    .unwrap();
    assert!(stack_is(&again, 5, "p2-L K-S p1-S")); // TV-8: the shield loses the tie
}

#[test]
fn tf_2_stash_and_board_must_account_for_every_pyramid() {
    let mut s = setup(3, &[(1, "p1-S")]);
    let mut stashes = std::collections::BTreeMap::new();
    for seat in [R, G, B] {
        stashes.insert(seat, triforce::SizeCounts::FULL);
    }
    s.stashes = Some(stashes.clone());
    assert_eq!(refused(&s), "TF-2"); // R's small piece is on the board and in the stash
    stashes.insert(R, triforce::SizeCounts([4, 5, 5]));
    s.stashes = Some(stashes);
    assert!(Triforce::setup(&s).is_ok());
}

#[test]
fn tf_3_supplies_must_account_for_every_sword_and_shield() {
    let mut s = setup(3, &[(3, "K-L")]);
    s.swords = Some(triforce::SizeCounts::FULL);
    assert_eq!(refused(&s), "TF-3");
    s.swords = Some(triforce::SizeCounts([5, 5, 4]));
    assert!(Triforce::setup(&s).is_ok());
    let too_many: Vec<(u8, String)> = (1..=6).map(|n| (n, "K-L".to_string())).collect();
    let refs: Vec<(u8, &str)> = too_many.iter().map(|(n, p)| (*n, p.as_str())).collect();
    assert_eq!(refused(&setup(3, &refs)), "TF-3");
}

#[test]
fn impossible_positions_are_refused_with_their_rule() {
    // TF-12: turns count from 1; a third action would already have ended the actions.
    let mut s = setup(3, TV3);
    s.turn.number = 0;
    assert_eq!(refused(&s), "TF-12");
    let mut s = setup(3, TV3);
    s.turn.actions_taken = 3;
    s.turn.began_with = Some(s.board.clone());
    assert_eq!(refused(&s), "TF-12");
    // TF-17: part-way through the actions, the board the turn began with must be given.
    let mut s = setup(3, TV3);
    s.turn.actions_taken = 1;
    assert_eq!(refused(&s), "TF-17");
    // TF-14: one placement per size, and no more placements than actions.
    let mut s = setup(3, TV3);
    s.turn.actions_taken = 2;
    s.turn.placed = vec![triforce::Size::S, triforce::Size::S];
    s.turn.began_with = Some(s.board.clone());
    assert_eq!(refused(&s), "TF-14");
    // TF-15: moves never add or remove pyramids: the starting board must hold the same ones
    // less this turn's placements.
    let mut s = setup(3, TV3);
    s.turn.actions_taken = 1;
    let mut began = s.board.clone();
    began.remove(&15);
    s.turn.began_with = Some(began);
    assert_eq!(refused(&s), "TF-15");
    // TF-15: one action changes at most two stacks.
    let mut s = setup(3, TV3);
    s.turn.actions_taken = 1;
    let mut began = s.board.clone();
    let moved: Vec<(u8, Vec<triforce::Pyramid>)> = [(1u8, 4u8), (2, 5), (8, 6)]
        .iter()
        .map(|(from, to)| (*to, began.remove(from).unwrap()))
        .collect();
    began.extend(moved);
    s.turn.began_with = Some(began);
    assert_eq!(refused(&s), "TF-15");
    // TF-20: a turn may not begin with a contested stack.
    let mut s = setup(3, &[(8, "p3-M p1-L p3-S p1-M")]);
    assert_eq!(refused(&s), "TF-20");
    s.start_in = StartIn::Combat;
    assert!(Triforce::setup(&s).is_ok());
    // TF-19: a window opens only on a contested stack; TF-22: only with an exchange to make.
    s.turn.window = Some(OpenWindow::Sword(9));
    assert_eq!(refused(&s), "TF-19");
    // The bottom player (Green) has one piece here, so no shield can be taken.
    let mut s = combat_setup(&[(9, "p2-S p1-M p3-S p1-L")]);
    s.turn.window = Some(OpenWindow::Shield(9));
    assert_eq!(refused(&s), "TF-22");
    // TF-22: swords are taken only in combat.
    let mut s = setup(3, TV3);
    s.turn.swords_taken.insert(8, vec![R]);
    assert_eq!(refused(&s), "TF-22");
    // TF-30: a turn part-way through cannot be past the turn limit.
    let mut s = combat_setup(&[(8, "p3-M p1-L p3-S p1-M")]);
    s.turn_limit = Some(5);
    s.turn.number = 6;
    assert_eq!(refused(&s), "TF-30");
    // TF-5: names belong to seats that play.
    let mut s = Setup::new(3);
    s.names.insert(Seat::Player(4), "Dee".into());
    assert_eq!(refused(&s), "TF-5");
}

#[test]
fn a_finished_game_exports_a_position_that_ends_it_again() {
    let state = start(&setup(3, TV5));
    assert!(state.outcome().is_some());
    let position = Triforce::position(&state, Viewer::Spectator).unwrap();
    let events = opening(&position);
    assert!(matches!(events.as_slice(), [Event::GameOver { .. }]));
}
