//! Rule variants: each changed number changes exactly what its rule says, and nothing changes
//! without one.

use crate::common::*;

use clash_core::variant::{Variant, parse_changes};
use triforce::combat::sword_levels;
use triforce::{Command, EndRule, Event, Gear, Phase, Pos, Size};

fn with(mut setup: triforce::Setup, changes: &str) -> triforce::Setup {
    setup.variant = Some(Variant::new("test", parse_changes(changes).unwrap()));
    setup
}

const TV6: &[(u8, &str)] = &[(8, "p3-M p1-L p3-S p1-M")];

#[test]
fn a_setup_without_a_variant_is_written_exactly_as_before() {
    let setup = triforce::Setup::new(3);
    let json = serde_json::to_value(&setup).unwrap();
    assert!(json.get("variant").is_none());
    let state = serde_json::to_value(start(&setup)).unwrap();
    assert!(state.get("rules").is_none());
}

#[test]
fn tf2_fewer_pyramids_per_player() {
    assert_eq!(start(&triforce::Setup::new(3)).stash(0).get(Size::M), 5); // TF-2
    let state = start(&with(triforce::Setup::new(3), "pieces=3"));
    for s in 0..3 {
        assert_eq!(
            [Size::S, Size::M, Size::L].map(|z| state.stash(s).get(z)),
            [3, 3, 3]
        );
    }
    // A board holding more of a size than a player owns is refused.
    let crowded = setup(3, &[(2, "p1-S"), (3, "p1-S"), (4, "p1-S"), (5, "p1-S")]);
    assert_eq!(
        triforce::start(&with(crowded, "pieces=3"))
            .unwrap_err()
            .rule(),
        Some("TF-2")
    );
}

#[test]
fn tf3_no_swords() {
    let state = start(&combat_setup(TV6));
    assert!(sword_levels(&state, Pos::number(8).unwrap()) > 0); // TF-22.1: R may take one
    let mut state = start(&with(combat_setup(TV6), "swords=0"));
    assert_eq!(state.swords().get(Size::L), 0);
    assert_eq!(sword_levels(&state, Pos::number(8).unwrap()), 0); // TF-3: none to take
    send(&mut state, R, Command::Resolve { at: 8 }, &[]).unwrap();
    assert_eq!(
        state.phase(),
        Phase::Shield {
            at: Pos::number(8).unwrap()
        }
    );
}

#[test]
fn tf24_a_smaller_shield_die() {
    let fight = |changes: &str, faces: &[u32]| {
        let board = &[(5, "p2-L p1-S p2-M p1-S")];
        let mut state = start(&with(combat_setup(board), changes));
        send(&mut state, R, Command::Resolve { at: 5 }, &[]).unwrap();
        send(&mut state, R, Command::TakeSword { level: 2 }, &[]).unwrap();
        send(&mut state, G, Command::TakeShield { level: 3 }, faces)
    };
    // TF-24: the shield's d20 may show 15; a d6 may not.
    assert!(fight("shield_die=20", &[1, 1, 15]).is_ok());
    assert!(fight("shield_die=d6", &[1, 1, 15]).is_err());
    let events = fight("shield_die=d6", &[1, 1, 6]).unwrap();
    let battle = events
        .iter()
        .find_map(|e| match e {
            Event::Battle(b) => Some(*b),
            _ => None,
        })
        .unwrap();
    let shield = battle.rolls.as_slice()[1];
    assert_eq!((shield.gear, shield.total), (Gear::Shield, 6));
}

#[test]
fn tf28_a_smaller_territory() {
    let eight_less_one = setup(
        3,
        &[
            (2, "p1-S"),
            (3, "p1-M"),
            (4, "p1-L"),
            (5, "p1-S"),
            (6, "p1-M"),
            (7, "p1-L"),
            (8, "p1-S"),
        ],
    );
    assert!(start(&eight_less_one).outcome().is_none()); // TF-28: 8 needed with 3 players
    let state = start(&with(eight_less_one, "territory=10"));
    assert_eq!(state.outcome().map(|o| o.by), Some(EndRule::Territory)); // 10 − 3 = 7
}

#[test]
fn tf30_a_turn_limit_from_the_variant() {
    let mut state = start(&with(triforce::Setup::new(3), "turn_limit=1"));
    send(&mut state, R, Command::Place { size: Size::S }, &[]).unwrap();
    let events = send(&mut state, R, Command::EndTurn, &[]).unwrap();
    let Some(Event::GameOver { outcome }) = events.last() else {
        panic!("game over expected, got {events:?}")
    };
    assert_eq!(outcome.by, EndRule::TurnLimit); // TF-30
}

#[test]
fn a_number_out_of_bounds_is_refused_naming_its_rule() {
    let refused = |changes: &str| {
        triforce::start(&with(triforce::Setup::new(3), changes))
            .unwrap_err()
            .rule()
    };
    assert_eq!(refused("sword_die=d3"), Some("TF-24"));
    assert_eq!(refused("swords=9"), Some("TF-3"));
    assert_eq!(refused("dice=3"), Some("TF-variant"));
}

#[test]
fn a_position_keeps_the_variants_numbers() {
    let state = start(&with(triforce::Setup::new(3), "pieces=4,shield_die=d12"));
    let pos = triforce::setup::position(&state).unwrap();
    let again = start(&pos);
    assert_eq!(again.stash(1).get(Size::S), 4);
    assert_eq!(
        serde_json::to_value(again).unwrap()["rules"]["shield_die"],
        12
    );
}
