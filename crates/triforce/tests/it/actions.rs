//! Actions: TF-13 to TF-18 and test vectors TV-1 to TV-5.

use crate::common;

use clash_core::{RuleError, Ruleset};
use common::*;
use triforce::actions::{self, accepts};
use triforce::{Command, EndRule, Event, Phase, Pos, Size, Triforce};

#[test]
fn tv_1_opening_has_one_action() {
    let state = start(&setup(3, &[]));
    assert_eq!(actions::count(&state, 0), 1); // TF-16
    assert_eq!(
        Triforce::legal_commands(&state, R),
        vec![Command::Place { size: Size::S }]
    ); // TF-14
}

#[test]
fn tv_2_after_small_on_home() {
    let mut state = start(&setup(3, &[]));
    send(&mut state, R, Command::Place { size: Size::S }, &[]).unwrap();
    let legal = Triforce::legal_commands(&state, R);
    let expected = vec![
        Command::Place { size: Size::M },
        Command::Place { size: Size::L },
        mv(1, 2),
        mv(1, 4),
        Command::EndTurn,
    ];
    // TF-16: 4 actions (TF-14 forbids a second S this turn; end_turn is not an action).
    assert_eq!(legal, expected);
    let fresh = start(&setup(3, &[(1, "p1-S")]));
    assert_eq!(actions::count(&fresh, 0), 4); // TF-16
}

#[test]
fn tv_3_mixed_position_counts() {
    let state = start(&setup(3, TV3));
    assert_eq!(actions::count(&state, 0), 16); // TF-16
    assert_eq!(actions::count(&state, 1), 10);
    assert_eq!(actions::count(&state, 2), 10);
    assert_eq!(
        move_map(&state, 0),
        vec![
            (1, vec![2]),
            (2, vec![1, 4, 8]),
            (8, vec![6, 7, 9, 10, 11, 13]),
            (13, vec![4, 8, 14, 15])
        ]
    ); // TF-15
    assert_eq!(
        move_map(&state, 1),
        vec![(9, vec![4, 8, 14, 15]), (15, vec![6, 9, 10, 13])]
    );
    assert_eq!(
        move_map(&state, 2),
        vec![(11, vec![1, 2, 3, 5, 8, 9, 12, 13])]
    );
    assert_eq!(
        actions::placements(&state, 0, 0),
        Size::S.bit() | Size::L.bit()
    ); // TF-14
    assert_eq!(
        actions::placements(&state, 1, 0),
        Size::S.bit() | Size::L.bit()
    );
    assert_eq!(
        actions::placements(&state, 2, 0),
        Size::S.bit() | Size::M.bit()
    );
}

#[test]
fn tv_4_third_action_may_not_recreate_the_start() {
    let mut state = start(&setup(3, TV3));
    send(&mut state, R, mv(2, 4), &[]).unwrap();
    send(&mut state, R, mv(4, 8), &[]).unwrap();
    let before = state;
    let err = send(&mut state, R, mv(8, 2), &[]).unwrap_err();
    assert_eq!(err.rule(), Some("TF-17")); // TF-17
    assert_eq!(state, before);
    assert!(!Triforce::legal_commands(&state, R).contains(&mv(8, 2)));
    // R may end the turn or take a different third action.
    assert!(Triforce::legal_commands(&state, R).contains(&Command::EndTurn));
    let mut other = state;
    send(&mut other, R, Command::Place { size: Size::L }, &[]).unwrap();
    assert_eq!(other.phase(), Phase::Actions);
    assert_eq!(
        other.active(),
        G,
        "TF-11: play passes clockwise after the third action"
    );
    send(&mut state, R, Command::EndTurn, &[]).unwrap();
    assert_eq!(state.active(), G);
}

#[test]
fn tv_5_pin_win() {
    let board = &[
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
    let s = setup(3, board);
    // Counted before the turn start: build the same board without its win check.
    let mut probe = s.clone();
    probe.start_in = triforce::StartIn::Combat;
    let probe = start(&probe);
    assert_eq!(probe.stash(0).0, [0, 2, 1]);
    assert_eq!(probe.stash(1).0, [5, 0, 5]);
    assert_eq!(probe.stash(2).0, [5, 5, 0]);
    assert_eq!(&triforce::winning::bottom_counts(&probe)[..3], &[2, 4, 4]);
    assert_eq!(
        [
            actions::count(&probe, 0),
            actions::count(&probe, 1),
            actions::count(&probe, 2)
        ],
        [69, 0, 0]
    );
    assert_eq!(actions::placements(&probe, 0, 0), Size::L.bit());
    // TF-29: at the start of R's turn, R is the only player with a legal action.
    let state = start(&s);
    let outcome = state.outcome().expect("game over");
    assert_eq!(outcome.winners.as_slice(), &[R]);
    assert_eq!(outcome.by, EndRule::LastFree); // TF-29
}

#[test]
fn tf_13_size_rule_on_white_and_non_white_tops() {
    let state = start(&setup(3, &[(1, "p1-S"), (2, "K-M")]));
    let at = |n| Pos::number(n).unwrap();
    // TF-13: on a white, the same size only.
    assert!(accepts(&state, at(3), Size::L) && !accepts(&state, at(3), Size::S));
    // TF-13: on a piece, any other size.
    assert!(
        !accepts(&state, at(1), Size::S)
            && accepts(&state, at(1), Size::M)
            && accepts(&state, at(1), Size::L)
    );
    // TF-27: on a sword too, under the non-white branch.
    assert!(accepts(&state, at(2), Size::S) && !accepts(&state, at(2), Size::M));
}

#[test]
fn tf_14_placement_needs_the_size_in_stash_and_once_per_size() {
    let mut state = start(&setup(3, &[]));
    let err = send(&mut state, R, Command::Place { size: Size::M }, &[]).unwrap_err();
    assert_eq!(err.rule(), Some("TF-13")); // home top is white S
    send(&mut state, R, Command::Place { size: Size::S }, &[]).unwrap();
    send(&mut state, R, Command::Place { size: Size::M }, &[]).unwrap();
    let before = state;
    let err = send(&mut state, R, Command::Place { size: Size::S }, &[]).unwrap_err();
    assert_eq!(err.rule(), Some("TF-14")); // TF-14: one placement per size per turn
    assert_eq!(state, before);
    assert_eq!(state.stash(0).0, [4, 4, 5]); // TF-2
    // TF-14: an empty stash of a size forbids it.
    let mut empty = start(&setup(
        3,
        &[
            (2, "p1-S"),
            (4, "p1-S"),
            (6, "p1-S"),
            (8, "p1-S"),
            (10, "p1-S"),
        ],
    ));
    let err = send(&mut empty, R, Command::Place { size: Size::S }, &[]).unwrap_err();
    assert_eq!(err.rule(), Some("TF-14"));
}

#[test]
fn tf_15_moves_follow_paths_of_legal_destinations() {
    let state = start(&setup(3, TV3));
    // 8→11: R-M passes through 7 (white M) and lands on B-L.
    assert!(
        actions::check_move(&state, 0, Pos::number(8).unwrap(), Pos::number(11).unwrap()).is_ok()
    );
    // TF-15: the origin is never a destination; other players' pieces never move.
    let same = actions::check_move(&state, 0, Pos::number(8).unwrap(), Pos::number(8).unwrap());
    assert_eq!(same.unwrap_err().rule(), Some("TF-15"));
    let theirs = actions::check_move(&state, 0, Pos::number(9).unwrap(), Pos::number(4).unwrap());
    assert_eq!(theirs.unwrap_err().rule(), Some("TF-15"));
    // TF-27: nothing below a sword moves.
    let frozen = start(&setup(3, &[(2, "p1-S K-M")]));
    assert_eq!(actions::count(&frozen, 0), 1);
    assert!(move_map(&frozen, 0).is_empty());
}

#[test]
fn tf_6_positions_outside_the_board_are_refused() {
    let mut state = start(&setup(3, TV3));
    let err = send(&mut state, R, mv(16, 2), &[]).unwrap_err();
    assert_eq!(err.rule(), Some("TF-6"));
}

#[test]
fn tf_17_end_turn_needs_an_action_and_a_changed_board() {
    let mut state = start(&setup(3, TV3));
    let err = send(&mut state, R, Command::EndTurn, &[]).unwrap_err();
    assert_eq!(err.rule(), Some("TF-17"));
    send(&mut state, R, mv(1, 2), &[]).unwrap();
    // Back again: the second action may recreate the board, but the turn may not end so.
    send(&mut state, R, mv(2, 1), &[]).unwrap();
    let err = send(&mut state, R, Command::EndTurn, &[]).unwrap_err();
    assert_eq!(err.rule(), Some("TF-17"));
    assert!(!Triforce::legal_commands(&state, R).contains(&Command::EndTurn));
    send(&mut state, R, Command::Place { size: Size::L }, &[]).unwrap();
    assert_eq!(state.active(), G);
}

#[test]
fn tf_18_a_full_stash_is_never_pinned_and_pins_pass() {
    // TF-18: every stack blocked around G's home, yet G holds the home's white size.
    let state = start(&setup(3, &[(10, "p1-M"), (14, "p1-S")]));
    assert!(actions::count(&state, 1) >= 1);
    // A pinned seat passes: G has no piece to move and every placement is refused.
    let covered = "p2-M p2-L p1-S";
    let board = &[
        (2, covered),
        (3, covered),
        (4, covered),
        (5, "p2-M p2-L p3-S"),
        (6, "p2-M p2-L p3-S"),
        (15, "p3-S"),
    ];
    let mut state = start(&setup(3, board));
    assert_eq!(actions::count(&state, 1), 0);
    send(&mut state, R, Command::Place { size: Size::S }, &[]).unwrap();
    let events = send(&mut state, R, Command::EndTurn, &[]).unwrap();
    assert!(events.contains(&Event::Pinned { seat: G, turn: 2 })); // TF-18
    assert_eq!(state.active(), B);
    assert_eq!(state.turn(), 3);
}

#[test]
fn tf_12_commands_out_of_turn_are_refused() {
    let mut state = start(&setup(3, &[]));
    let before = state;
    let err = send(&mut state, G, Command::Place { size: Size::M }, &[]).unwrap_err();
    assert!(matches!(err, RuleError::NotYourCall { rule: "TF-12", .. }));
    let err = send(&mut state, R, Command::Decline, &[]).unwrap_err();
    assert_eq!(err.rule(), Some("TF-12"));
    assert_eq!(state, before);
}

#[test]
fn tf_11_starting_seat_is_a_parameter() {
    let mut s = setup(3, &[]);
    s.starting_seat = B;
    let mut state = start(&s);
    assert_eq!(state.active(), B);
    send(&mut state, B, Command::Place { size: Size::L }, &[]).unwrap();
    send(&mut state, B, Command::EndTurn, &[]).unwrap();
    assert_eq!(state.active(), R, "TF-11: clockwise, wrapping");
}
