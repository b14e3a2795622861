//! Combat: TF-19 to TF-27 and test vectors TV-6 to TV-12.

use crate::common;

use clash_core::{RuleError, Ruleset};
use common::*;
use triforce::combat::{contested, shield_levels, sword_levels};
use triforce::{Command, Event, Gear, Phase, Pos, Triforce};

const TV6: &[(u8, &str)] = &[(8, "p3-M p1-L p3-S p1-M")];

fn at(n: u8) -> Pos {
    Pos::number(n).unwrap()
}

fn battles(events: &[Event]) -> Vec<triforce::Battle> {
    events
        .iter()
        .filter_map(|e| {
            if let Event::Battle(b) = e {
                Some(*b)
            } else {
                None
            }
        })
        .collect()
}

#[test]
fn tv_6_plain_tie_both_lose() {
    let mut state = start(&combat_setup(TV6));
    assert_eq!(state.phase(), Phase::ChooseStack); // TF-20
    send(&mut state, R, Command::Resolve { at: 8 }, &[]).unwrap();
    assert_eq!(state.phase(), Phase::Sword { at: at(8) }); // TF-22.1: T = p1
    send(&mut state, R, Command::Decline, &[]).unwrap();
    assert_eq!(state.phase(), Phase::Shield { at: at(8) }); // TF-22.2: B = p3
    let events = send(&mut state, B, Command::Decline, &[7, 7]).unwrap();
    let battle = battles(&events)[0];
    // TF-25: tied plain players all lose; TF-26: each loses their bottom-most piece.
    assert_eq!(battle.losses.len(), 2);
    assert!(stack_is(&state, 8, "p3-S p1-M"));
    assert_eq!(state.stash(0).get(triforce::Size::L), 5); // TF-26: back to the stash
    assert_eq!(state.active(), G, "done: the next seat plays");
}

#[test]
fn tv_7_sword_wins_a_tie() {
    let mut state = start(&combat_setup(TV6));
    send(&mut state, R, Command::Resolve { at: 8 }, &[]).unwrap();
    send(&mut state, R, Command::TakeSword { level: 2 }, &[]).unwrap(); // TF-22.1
    assert!(stack_is(&state, 8, "p3-M K-L p3-S p1-M"));
    let events = send(&mut state, B, Command::Decline, &[3, 4, 7]).unwrap();
    let battle = battles(&events)[0];
    let r = battle.rolls.as_slice()[0];
    assert_eq!(
        (r.gear, r.own, r.sword, r.total),
        (Gear::Sword, Some(3), Some(4), 7)
    ); // TF-24
    assert!(stack_is(&state, 8, "K-L p3-S p1-M")); // TF-25, TF-27: the sword stays
    assert_eq!(
        state.stack(at(8)).bottom_player(),
        Some(2),
        "B is now bottom player (TF-28)"
    );
    assert_eq!(state.swords().get(triforce::Size::L), 4); // TF-3
}

#[test]
fn tv_8_sword_against_shield() {
    let board = &[(5, "p2-L p1-S p2-M p1-S")];
    let mut state = start(&combat_setup(board));
    send(&mut state, R, Command::Resolve { at: 5 }, &[]).unwrap();
    send(&mut state, R, Command::TakeSword { level: 2 }, &[]).unwrap();
    // TF-22.2: G may not give up its lowest piece.
    let before = state;
    let err = send(&mut state, G, Command::TakeShield { level: 1 }, &[]).unwrap_err();
    assert_eq!(err.rule(), Some("TF-22"));
    assert_eq!(state, before);
    let mut alt = state;
    send(&mut state, G, Command::TakeShield { level: 3 }, &[5, 6, 11]).unwrap();
    // TF-25: the shield loses the tie and goes back to supply (TF-26).
    assert!(stack_is(&state, 5, "p2-L K-S p1-S"));
    assert_eq!(state.shields().get(triforce::Size::M), 5);
    let events = send(&mut alt, G, Command::TakeShield { level: 3 }, &[1, 1, 3]).unwrap();
    let battle = battles(&events)[0];
    assert_eq!(battle.rolls.as_slice()[1].gear, Gear::Shield); // TF-24: d20 only
    // TF-26: the sword returns; R loses no piece.
    assert!(stack_is(&alt, 5, "p2-L C-M p1-S"));
    assert_eq!(alt.swords().get(triforce::Size::S), 5);
}

#[test]
fn tv_9_three_players() {
    let mut state = start(&combat_setup(&[(9, "p2-S p1-M p3-S p2-L")]));
    send(&mut state, R, Command::Resolve { at: 9 }, &[]).unwrap();
    // TF-21: G is both top and bottom player.
    assert_eq!(state.awaiting(), Some(G));
    send(&mut state, G, Command::Decline, &[]).unwrap();
    send(&mut state, G, Command::Decline, &[2, 6, 2]).unwrap();
    assert!(stack_is(&state, 9, "p2-S p2-L"));
}

#[test]
fn tv_10_chain_of_combats() {
    let mut state = start(&combat_setup(&[(8, "p3-M p1-S p3-L p1-M p1-S")]));
    send(&mut state, R, Command::Resolve { at: 8 }, &[]).unwrap();
    send(&mut state, R, Command::TakeSword { level: 4 }, &[]).unwrap();
    let events = send(
        &mut state,
        B,
        Command::TakeShield { level: 3 },
        &[2, 3, 5, 1, 1, 9],
    )
    .unwrap();
    let fights = battles(&events);
    assert_eq!(
        fights.len(),
        2,
        "TF-20: the stack fights again while contested"
    );
    assert_eq!(fights[0].losses.as_slice()[0].returned.to_string(), "C-L");
    assert_eq!(fights[1].losses.as_slice()[0].returned.to_string(), "K-M");
    assert!(stack_is(&state, 8, "p3-M p1-S p1-S"));
}

#[test]
fn tv_11_idle_sword() {
    let mut state = start(&combat_setup(&[(5, "p1-S C-M p2-S K-L p1-M")]));
    // TF-22: no window opens (sword and shield present), so the dice roll at once.
    let events = send(&mut state, R, Command::Resolve { at: 5 }, &[4, 4, 2, 2, 4]).unwrap();
    let fights = battles(&events);
    // TF-23: R is top and bottom and uses only the shield.
    assert_eq!(fights[0].rolls.as_slice()[0].gear, Gear::Shield);
    assert_eq!(fights[0].losses.as_slice()[0].returned.to_string(), "C-M");
    // Next combat: R is now the sword user (TF-27).
    assert_eq!(fights[1].rolls.as_slice()[0].gear, Gear::Sword);
    assert_eq!(fights[1].losses.as_slice()[0].returned.to_string(), "p2-S");
    assert!(stack_is(&state, 5, "p1-S K-L p1-M"));
}

#[test]
fn tv_12_empty_sword_supply() {
    let mut board = TV6.to_vec();
    board.extend([(1, "K-L"), (2, "K-L"), (3, "K-L"), (4, "K-L"), (5, "K-L")]);
    let mut state = start(&combat_setup(&board));
    assert_eq!(sword_levels(&state, at(8)), 0); // TF-3, TF-22.1
    send(&mut state, R, Command::Resolve { at: 8 }, &[]).unwrap();
    assert_eq!(
        state.phase(),
        Phase::Shield { at: at(8) },
        "no sword window"
    );
}

#[test]
fn tf_19_swords_and_shields_count_toward_four_but_are_no_colour() {
    let state = start(&combat_setup(&[
        (1, "p1-S K-M p2-S C-L"),
        (2, "p1-S K-M p1-L C-S"),
        (3, "p1-S p2-M p1-S"),
    ]));
    assert!(contested(state.stack(at(1))));
    assert!(!contested(state.stack(at(2))));
    assert!(!contested(state.stack(at(3))));
}

#[test]
fn tf_20_active_player_orders_the_stacks() {
    let board = &[(8, "p3-M p1-L p3-S p1-M"), (2, "p2-S p1-M p2-S p1-L")];
    let mut state = start(&combat_setup(board));
    let before = state;
    assert_eq!(
        send(&mut state, R, Command::Resolve { at: 3 }, &[])
            .unwrap_err()
            .rule(),
        Some("TF-20")
    );
    let err = send(&mut state, G, Command::Resolve { at: 2 }, &[]).unwrap_err();
    assert!(matches!(err, RuleError::NotYourCall { rule: "TF-20", .. }));
    assert_eq!(state, before);
    assert_eq!(
        Triforce::legal_commands(&state, R),
        vec![Command::Resolve { at: 2 }, Command::Resolve { at: 8 }]
    );
    send(&mut state, R, Command::Resolve { at: 8 }, &[]).unwrap();
    send(&mut state, R, Command::Decline, &[]).unwrap();
    send(&mut state, B, Command::Decline, &[1, 5]).unwrap();
    // Stack 8 is done (p1-L p3-S p1-M); R chooses again.
    assert_eq!(state.phase(), Phase::ChooseStack);
    send(&mut state, R, Command::Resolve { at: 2 }, &[]).unwrap();
    assert_eq!(state.awaiting(), Some(R));
}

#[test]
fn tf_21_participants_are_every_player_in_the_stack() {
    let mut state = start(&combat_setup(&[(9, "p2-S p1-M p3-S p2-L")]));
    send(&mut state, R, Command::Resolve { at: 9 }, &[]).unwrap();
    send(&mut state, G, Command::Decline, &[]).unwrap();
    let events = send(&mut state, G, Command::Decline, &[12, 11, 10]).unwrap();
    let seats: Vec<_> = battles(&events)[0]
        .rolls
        .as_slice()
        .iter()
        .map(|r| r.seat)
        .collect();
    assert_eq!(seats, vec![R, G, B]); // TF-21
}

#[test]
fn tf_22_exchange_restrictions() {
    // T has one piece only: no sword.
    let s = start(&combat_setup(&[(8, "p3-M p3-L p3-S p1-M")]));
    assert_eq!(sword_levels(&s, at(8)), 0);
    // The uppermost piece of T may not be given up; the bottom piece of B may not.
    let s = start(&combat_setup(&[(8, "p3-M p1-L p3-S p1-M")]));
    assert_eq!(sword_levels(&s, at(8)), 1 << 1);
    assert_eq!(shield_levels(&s, at(8)), 1 << 2);
    // A sword already present: no second sword.
    let s = start(&combat_setup(&[(8, "p3-M K-L p1-L p3-S p1-M")]));
    assert_eq!(sword_levels(&s, at(8)), 0);
    // T is B with a shield present: no sword.
    let s = start(&combat_setup(&[(8, "p1-S C-M p2-S p1-L p1-M")]));
    assert_eq!(sword_levels(&s, at(8)), 0);
    // B is T and took a sword here this turn: no shield (not both on the same turn).
    let mut s = start(&combat_setup(&[(9, "p2-S p1-M p3-S p2-L p2-M")]));
    send(&mut s, R, Command::Resolve { at: 9 }, &[]).unwrap();
    // No shield window follows: the dice roll at once (R 1, G 12+12, B 1).
    let events = send(&mut s, G, Command::TakeSword { level: 4 }, &[1, 12, 12, 1]).unwrap();
    assert!(matches!(events[1], Event::Battle(_)));
    assert!(stack_is(&s, 9, "p2-S K-L p2-M"));
}

#[test]
fn tf_22_exchange_by_the_wrong_seat_changes_nothing() {
    let mut state = start(&combat_setup(TV6));
    send(&mut state, R, Command::Resolve { at: 8 }, &[]).unwrap();
    let before = state;
    let err = send(&mut state, B, Command::TakeShield { level: 3 }, &[]).unwrap_err();
    assert!(matches!(err, RuleError::NotYourCall { rule: "TF-22", .. }));
    let err = send(&mut state, R, Command::TakeShield { level: 3 }, &[]).unwrap_err();
    assert_eq!(err.rule(), Some("TF-22"));
    let err = send(&mut state, R, Command::TakeSword { level: 4 }, &[]).unwrap_err();
    assert_eq!(err.rule(), Some("TF-22"));
    assert_eq!(state, before);
}

#[test]
fn tf_23_sword_user_is_the_current_top_player() {
    // TF-27: whoever is on top now inherits the sword.
    let mut state = start(&combat_setup(&[(8, "p1-S K-L p1-M p2-S")]));
    send(&mut state, R, Command::Resolve { at: 8 }, &[]).unwrap();
    assert_eq!(
        state.phase(),
        Phase::Shield { at: at(8) },
        "p1 is bottom player with two pieces"
    );
    let events = send(&mut state, R, Command::Decline, &[9, 1, 1]).unwrap();
    let rolls = battles(&events)[0].rolls;
    assert_eq!(
        (rolls.as_slice()[0].gear, rolls.as_slice()[1].gear),
        (Gear::None, Gear::Sword)
    ); // TF-23
    assert_eq!(rolls.as_slice()[1].total, 2);
    // TF-25: p2's sword (2) is the lowest: the sword returns, p2 keeps its piece.
    assert!(stack_is(&state, 8, "p1-S p1-M p2-S"));
}

#[test]
fn tf_24_dice_use_the_right_dice() {
    // A d20 face above 12 is fine for the shield user, refused for a d12.
    let mut state = start(&combat_setup(&[(5, "p1-S C-M p2-S K-L p1-M")]));
    let mut other = state;
    let events = send(&mut state, R, Command::Resolve { at: 5 }, &[13, 5]).unwrap();
    assert_eq!(battles(&events)[0].rolls.as_slice()[0].shield, Some(13)); // TF-24: the d20
    assert!(stack_is(&state, 5, "p1-S C-M K-L p1-M"));
    let events = send(
        &mut other,
        R,
        Command::Resolve { at: 5 },
        &[4, 4, 12, 12, 11],
    )
    .unwrap();
    assert_eq!(battles(&events)[1].rolls.as_slice()[0].total, 24); // TF-24: 2–24 for the sword
    let mut state = start(&combat_setup(TV6));
    send(&mut state, R, Command::Resolve { at: 8 }, &[]).unwrap();
    send(&mut state, R, Command::Decline, &[]).unwrap();
    let before = state;
    let err = send(&mut state, B, Command::Decline, &[13, 1]).unwrap_err();
    assert!(matches!(err, RuleError::Randomness(_)));
    assert_eq!(state, before);
}

#[test]
fn tf_25_tf_26_single_lowest_plain_player_loses_bottom_piece() {
    let mut state = start(&combat_setup(&[(8, "p1-L p3-M p1-S p3-S")]));
    send(&mut state, R, Command::Resolve { at: 8 }, &[]).unwrap();
    // Both windows: p3 (top) could take a sword with p3-M; p1 (bottom) a shield with p1-S.
    send(&mut state, B, Command::Decline, &[]).unwrap();
    send(&mut state, R, Command::Decline, &[2, 9]).unwrap();
    // TF-26: p1 loses its bottom-most piece, the rest keeps its order, no TF-13 re-check.
    assert!(stack_is(&state, 8, "p3-M p1-S p3-S"));
}

#[test]
fn tf_27_pieces_below_a_sword_are_frozen_but_it_accepts_pieces() {
    let state = start(&setup(3, &[(2, "p1-M K-S")]));
    assert!(move_map(&state, 0).is_empty()); // TF-27
    assert!(triforce::actions::accepts(&state, at(2), triforce::Size::M));
}
