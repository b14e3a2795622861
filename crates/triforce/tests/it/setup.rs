//! Setup: TF-1 to TF-11 parameters and their validation.

use crate::common;

use clash_core::{RuleError, Ruleset, Seat};
use common::*;
use triforce::{Pos, Pyramid, Setup, Size, Triforce};

fn refused(setup: &Setup) -> &'static str {
    match triforce::start(setup) {
        Err(RuleError::InvalidSetup { rule, .. }) => rule,
        other => panic!("expected a refused setup, got {other:?}"),
    }
}

#[test]
fn tf_1_pyramids_read_and_write_the_specs_notation() {
    for text in ["p1-S", "p6-L", "K-M", "C-S"] {
        let p: Pyramid = text.parse().unwrap();
        assert_eq!(p.to_string(), text);
    }
    // TF-1: three sizes only; TF-5: seats p1..p6 only.
    for bad in ["p1-X", "p7-S", "p0-M", "W-S", "p1S"] {
        assert!(bad.parse::<Pyramid>().is_err(), "{bad}");
    }
    assert_eq!("K-L".parse::<Pyramid>().unwrap().size(), Size::L);
}

#[test]
fn tf_2_tf_3_stashes_and_supplies_start_full_and_are_finite() {
    let state = start(&Setup::new(3));
    for s in 0..3 {
        assert_eq!(state.stash(s).0, [5, 5, 5]); // TF-2
    }
    assert_eq!(
        (state.swords().0, state.shields().0),
        ([5, 5, 5], [5, 5, 5])
    ); // TF-3
    // TF-2: a sixth small piece of p1 does not exist.
    let too_many = setup(
        3,
        &[
            (1, "p1-S p1-M p1-S"),
            (2, "p1-S"),
            (3, "p1-S"),
            (4, "p1-S"),
            (5, "p1-S"),
        ],
    );
    assert_eq!(refused(&too_many), "TF-2");
    // TF-3: stacks on the board come out of the supplies.
    let state = start(&setup(3, &[(3, "K-L"), (4, "C-S")]));
    assert_eq!(
        (state.swords().0, state.shields().0),
        ([5, 5, 4], [4, 5, 5])
    );
}

#[test]
fn tf_4_dice_have_twelve_and_twenty_faces() {
    assert_eq!(
        (
            triforce::combat::PLAYER_DIE,
            triforce::combat::SWORD_DIE,
            triforce::combat::SHIELD_DIE
        ),
        (12, 12, 20)
    ); // TF-4
}

#[test]
fn tf_5_three_to_six_players() {
    for players in [0, 2, 7] {
        assert_eq!(refused(&Setup::new(players)), "TF-5");
    }
    for players in 3..=6 {
        assert_eq!(
            Triforce::seats(&start(&Setup::new(players))).len(),
            usize::from(players)
        ); // TF-5
    }
    assert_eq!(refused(&setup(3, &[(2, "p4-S")])), "TF-5");
}

#[test]
fn tf_8_any_layout_is_accepted_as_a_parameter() {
    let mut s = Setup::new(3);
    s.layout = Some(vec![Size::L; 15]);
    assert_eq!(refused(&s), "TF-8", "5 whites per size by default");
    s.free_layout = true;
    let state = start(&s);
    assert_eq!(state.white(Pos::number(1).unwrap()), Size::L);
    assert_eq!(
        triforce::actions::count(&state, 0),
        1,
        "place L on the white L"
    );
    let mut short = Setup::new(3);
    short.layout = Some(vec![Size::S; 3]);
    assert_eq!(refused(&short), "TF-8");
}

#[test]
fn tf_9_set_up_stacks_are_bounded() {
    assert_eq!(refused(&setup(3, &[(16, "p1-S")])), "TF-6");
    assert_eq!(refused(&setup(3, &[(2, "K-S K-M")])), "TF-22");
    // TF-9: every position always holds exactly one stack, bare or not.
    let state = start(&Setup::new(3));
    assert!(Pos::all().all(|p| state.stack(p).is_empty()));
}

#[test]
fn tf_10_homes_are_configurable() {
    let state = start(&Setup::new(6));
    let homes: Vec<u8> = (0..6).map(|s| state.home(s).n()).collect();
    assert_eq!(homes, vec![1, 6, 15, 13, 11, 4]); // TF-10
    let state = start(&Setup::new(4));
    assert_eq!(
        (0..4).map(|s| state.home(s).n()).collect::<Vec<_>>(),
        vec![1, 15, 13, 11]
    );
    let mut s = Setup::new(3);
    s.homes = Some(vec![5, 9, 8]);
    let state = start(&s);
    assert_eq!(state.home(1).n(), 9);
    assert_eq!(
        Triforce::legal_commands(&state, R),
        vec![triforce::Command::Place { size: Size::L }]
    );
    s.homes = Some(vec![5, 5, 8]);
    assert_eq!(refused(&s), "TF-10");
    s.homes = Some(vec![5, 9]);
    assert_eq!(refused(&s), "TF-10");
}

#[test]
fn tf_11_starting_seat_must_play() {
    let mut s = Setup::new(3);
    s.starting_seat = Seat::Player(4);
    assert_eq!(refused(&s), "TF-11");
}

#[test]
fn tf_20_a_set_up_position_may_not_start_contested() {
    assert_eq!(refused(&setup(3, &[(8, "p3-M p1-L p3-S p1-M")])), "TF-20");
    assert!(triforce::start(&combat_setup(&[(8, "p3-M p1-L p3-S p1-M")])).is_ok());
}

#[test]
fn setups_read_from_json() {
    let json = serde_json::json!({"players": 3, "board": {"8": ["p3-M", "p1-L"]}, "starting_seat": "p2", "turn_limit": 40});
    let s: Setup = serde_json::from_value(json).unwrap();
    let state = start(&s);
    assert!(stack_is(&state, 8, "p3-M p1-L"));
    assert_eq!(state.active(), G);
}
