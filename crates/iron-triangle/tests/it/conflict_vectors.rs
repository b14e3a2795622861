//! The conflict test vectors of the spec (TV-1 … TV-8, TV-10, TV-11, TV-14), played through the
//! engine with JSON commands.

use crate::conflict_support;

use conflict_support::*;
use iron_triangle::conflict::{Phase, TurnOutcome, WinReason};
use iron_triangle::{ConflictEvent, Event};
use serde_json::json;

fn duel(you: &[&str], opp: &[&str]) -> T {
    let mut t = T::new(vec![
        sheet("You", "p1", [6, 6, 6], you),
        sheet("Opp", "gm", [10, 10, 10], opp),
    ]);
    t.start(&["Opp"], false, false);
    t.face("You", "Opp");
    t
}

fn outcome(events: &[Event]) -> TurnOutcome {
    events
        .iter()
        .find_map(|e| match e {
            Event::Conflict(ConflictEvent::TurnResolved { outcome, .. }) => Some(outcome.clone()),
            _ => None,
        })
        .expect("the turn resolved")
}

fn loss_total(events: &[Event], who: &str) -> u32 {
    events
        .iter()
        .find_map(|e| match e {
            Event::Conflict(ConflictEvent::TurnResolved { breakdown, .. }) => breakdown
                .iter()
                .find(|b| b.character == who)
                .map(|b| b.total),
            _ => None,
        })
        .expect("a loss for this character")
}

#[test]
fn tv_1_attack_beats_grapple_and_low_beats_high() {
    let mut t = duel(&BASIC, &BASIC);
    let ev = t.exchange(("You", None, "A-H"), ("Opp", None, "G-L"));
    assert!(
        matches!(outcome(&ev), TurnOutcome::Win { ref winner, by: WinReason::Action, .. } if winner == "You")
    ); // TV-1, IT-48 check 1
    let mut t = duel(&BASIC, &BASIC);
    let ev = t.exchange(("You", None, "A-H"), ("Opp", None, "A-L"));
    assert!(
        matches!(outcome(&ev), TurnOutcome::Win { ref winner, by: WinReason::Element, .. } if winner == "Opp")
    ); // TV-1, IT-48 check 2
}

#[test]
fn tv_1_disadvantaged_move_loses_the_would_be_tie_it_39() {
    let mut t = duel(&BASIC, &BASIC);
    t.exchange(("You", None, "D-H"), ("Opp", None, "G-M"));
    t.settle();
    assert_eq!(t.pile("You"), ["D-H"]); // IT-40
    t.face("Opp", "You");
    let before = t.total("You");
    let ev = t.exchange(("Opp", None, "A-H"), ("You", None, "A-H"));
    assert!(
        matches!(outcome(&ev), TurnOutcome::Win { ref winner, by: WinReason::Disadvantage, .. } if winner == "Opp")
    ); // TV-1, IT-48 check 3, IT-39
    assert_eq!(loss_total(&ev, "You"), 4); // TV-1: 3 + 1
    t.settle();
    assert_eq!(before - t.total("You"), 4); // TV-1
}

#[test]
fn tv_2_tie_costs_each_the_other_base_only_it_50() {
    let mut t = duel(&BASIC, &BASIC);
    let ev = t.exchange(
        ("You", Some(("attack", 2)), "A-H"),
        ("Opp", Some(("attack", 1)), "A-H"),
    );
    assert!(matches!(outcome(&ev), TurnOutcome::Tie { .. })); // TV-2, IT-48 check 4
    assert_eq!(loss_total(&ev, "You"), 3); // TV-2, IT-50
    assert_eq!(loss_total(&ev, "Opp"), 3); // TV-2, IT-50
    t.settle();
    assert_eq!(t.total("You"), 18 - 3);
    assert_eq!(t.total("Opp"), 30 - 3);
    assert!(t.pile("You").is_empty() && t.pile("Opp").is_empty()); // TV-2: no piles
    assert!(t.chain().is_empty()); // TV-2: no chain
    assert!(matches!(
        t.phase(),
        Phase::PickActive {
            picker: iron_triangle::conflict::Picker::Seat {
                seat: clash_core::Seat::Gm
            },
            ..
        }
    )); // IT-26: after a tie the GM picks
}

fn stance_duel() -> T {
    let mut t = T::new(vec![
        sheet("You", "p1", [3, 3, 3], &BASIC),
        sheet("Opp", "gm", [10, 10, 10], &BASIC),
    ]);
    t.start(&["Opp"], false, false);
    t.face("You", "Opp");
    t
}

#[test]
fn tv_3_matched_stance_wins_times_multiplier_it_34() {
    let mut t = stance_duel();
    let ev = t.exchange(("You", Some(("attack", 2)), "A-H"), ("Opp", None, "G-L"));
    assert_eq!(loss_total(&ev, "Opp"), 7); // TV-3: 2×2+3
    t.settle();
    assert_eq!(t.energy("You"), [3, 3, 3]); // IT-34: the winner keeps its stance energy, IT-49
}

#[test]
fn tv_3_matched_stance_lost_comes_from_its_type_it_51() {
    let mut t = stance_duel();
    let ev = t.exchange(("You", Some(("attack", 2)), "A-H"), ("Opp", None, "D-M"));
    assert_eq!(loss_total(&ev, "You"), 4); // TV-3: 2 from Attack + 2
    t.split("You", "p1", [2, 0, 0]);
    assert_eq!(t.energy("You"), [1, 3, 1]); // IT-51: 2 fixed on Attack, the free 2 where p1 put it
}

#[test]
fn tv_3_feints() {
    let mut t = stance_duel();
    let ev = t.exchange(("You", Some(("attack", 2)), "D-M"), ("Opp", None, "A-H"));
    assert_eq!(loss_total(&ev, "Opp"), 2); // TV-3: a feint has no effect, IT-34
    let mut t = stance_duel();
    let ev = t.exchange(("You", Some(("attack", 2)), "D-M"), ("Opp", None, "G-L"));
    assert_eq!(loss_total(&ev, "You"), 4); // TV-3: split freely
    assert_eq!(t.refused("p1", json!({"type": "split_loss", "character": "You", "split": {"defend": 0, "grapple": 0, "attack": 3}})), "D-35");
    t.split("You", "p1", [0, 3, 1]);
    assert_eq!(t.energy("You"), [3, 0, 2]);
}

/// TV-4 up to the end of T2: You lost twice.
fn tv_4_two_losses() -> T {
    let mut t = T::new(vec![
        sheet("You", "p1", [10, 10, 10], &BASIC),
        sheet("Opp", "gm", [10, 10, 10], &BASIC),
    ]);
    t.start(&["Opp"], false, false);
    t.face("You", "Opp");
    t.exchange(("You", None, "A-L"), ("Opp", None, "D-M"));
    t.settle();
    assert_eq!(t.pile("You"), ["A-L"]); // TV-4 T1
    t.face("Opp", "You");
    let ev = t.exchange(("Opp", None, "G-M"), ("You", None, "D-L"));
    assert_eq!(loss_total(&ev, "You"), 5); // TV-4 T2: 4+1, IT-39
    t.settle();
    assert_eq!(t.pile("You"), ["A-L", "D-L"]); // TV-4 T2, IT-40 append
    t
}

#[test]
fn tv_4_disadvantage_piles_it_38_it_40() {
    let mut t = tv_4_two_losses();
    t.face("Opp", "You");
    let ev = t.exchange(("Opp", None, "D-M"), ("You", None, "A-H"));
    assert_eq!(loss_total(&ev, "You"), 2); // TV-4 T3: A-H is not disadvantaged, IT-38
    t.settle();
    assert_eq!(t.pile("You"), ["A-H"]); // TV-4 T3: the others return, IT-40
}

#[test]
fn tv_4_derived_alternative_t3() {
    let mut t = tv_4_two_losses();
    t.cmd("gm", json!({"type": "pick_active", "character": "Opp"}));
    t.cmd("gm", json!({"type": "end_chain"})); // IT-43: G-M returns to Opp's hand
    t.cmd("gm", json!({"type": "pick_opponent", "opponent": "You"}));
    let ev = t.exchange(("Opp", None, "G-M"), ("You", None, "D-H"));
    assert_eq!(loss_total(&ev, "You"), 6); // TV-4 derived T3: 4+2
    t.settle();
    assert_eq!(t.pile("You"), ["A-L", "D-L", "D-H"]);
}

fn tv_5_table() -> T {
    let pc = with(
        sheet("Pat", "p1", [5, 5, 5], &["A-L", "G-H", "A-H", "D-H"]),
        "combos",
        json!([
            {"from": "A-L", "followups": ["G-H"]}, {"from": "G-H", "followups": ["D-H", "A-H"]}
        ]),
    );
    let mate = with(
        sheet("Mo", "p2", [5, 5, 5], &["G-M", "D-M"]),
        "combos",
        json!([{"from": "A-H", "followups": ["G-M"]}]),
    );
    let mut t = T::new(vec![pc, mate, sheet("X", "gm", [10, 10, 10], &BASIC)]);
    t.start(&["X"], false, false);
    t
}

#[test]
fn tv_5_combo_chain_three_win_cap_and_teammate_it_41_to_it_47() {
    let mut t = tv_5_table();
    t.face("Pat", "X");
    let ev = t.exchange(("Pat", None, "A-L"), ("X", None, "G-M"));
    assert_eq!(loss_total(&ev, "X"), 3);
    t.settle();
    assert_eq!(t.chain(), ["A-L"]); // IT-42, D-6
    t.face("Pat", "X");
    let ev = t.exchange(("Pat", None, "G-H"), ("X", None, "D-L"));
    assert_eq!(loss_total(&ev, "X"), 5); // TV-5: 4 + 1 combo, IT-45
    t.settle();
    t.face("Pat", "X");
    assert_eq!(
        t.refused(
            "p1",
            json!({"type": "play_move", "character": "Pat", "move": "A-L"})
        ),
        "IT-32"
    ); // stances first
    t.stance("Pat", None);
    t.stance("X", None);
    assert_eq!(
        t.refused(
            "p1",
            json!({"type": "play_move", "character": "Pat", "move": "A-L"})
        ),
        "IT-35"
    ); // IT-42: chain cards unavailable
    t.play("Pat", "A-H");
    let ev = t.play("X", "G-M");
    assert_eq!(loss_total(&ev, "X"), 5); // TV-5: 3 + 2
    t.settle();
    assert_eq!(t.chain(), ["A-L", "G-H", "A-H"]); // TV-5
    assert_eq!(t.fighter("Pat").turns, 1); // TV-5, IT-47: the run counts as one turn (D-8)
    assert_eq!(
        t.refused("p1", json!({"type": "pick_active", "character": "Pat"})),
        "IT-46"
    ); // TV-5: must pass
    t.cmd("p1", json!({"type": "pick_active", "character": "Mo"}));
    t.cmd("p2", json!({"type": "pick_opponent", "opponent": "X"}));
    let ev = t.exchange(("Mo", None, "G-M"), ("X", None, "D-H"));
    assert_eq!(loss_total(&ev, "X"), 7); // TV-5, D-4: 4 + 3
    t.settle();
    assert_eq!(t.chain(), ["A-L", "G-H", "A-H", "G-M"]);
}

fn tv_6_table() -> T {
    let mut moves: Vec<&str> = BASIC.to_vec();
    moves.extend(["G-J", "G-S"]);
    let you = with(
        sheet("You", "p1", [5, 5, 5], &moves),
        "combos",
        json!([{"from": "D-M", "followups": ["G-J", "G-S"]}]),
    );
    let mut t = T::new(vec![you, sheet("O", "gm", [10, 10, 10], &BASIC)]);
    t.start(&["O"], false, false);
    t.face("You", "O");
    t.exchange(("You", None, "D-M"), ("O", None, "A-L"));
    t.split("O", "gm", [0, 0, 2]);
    assert_eq!(t.pile("O"), ["A-L"]);
    assert_eq!(t.chain(), ["D-M"]);
    t
}

#[test]
fn tv_6_a_win_of_13() {
    let mut t = tv_6_table();
    t.face("You", "O");
    let ev = t.exchange(
        ("You", Some(("grapple", 2)), "G-J"),
        ("O", Some(("defend", 1)), "D-L"),
    );
    assert_eq!(loss_total(&ev, "O"), 13); // TV-6: 2×3+1+4+1+1
    assert_eq!(t.refused("gm", json!({"type": "split_loss", "character": "O", "split": {"defend": 0, "grapple": 11, "attack": 1}})), "D-35");
    t.split("O", "gm", [0, 10, 2]);
    assert_eq!(t.energy("O"), [9, 0, 6]); // at least 1 from Defend (IT-51)
    assert_eq!(t.chain(), ["D-M", "G-J"]); // TV-6
    assert_eq!(t.pile("O"), ["A-L", "D-L"]); // TV-6
}

#[test]
fn tv_7_tie_clears_chain_and_piles() {
    let mut t = tv_6_table();
    t.face("You", "O");
    t.exchange(
        ("You", Some(("grapple", 2)), "G-J"),
        ("O", Some(("defend", 1)), "D-L"),
    );
    t.settle();
    t.face("You", "O");
    let ev = t.exchange(("You", None, "G-H"), ("O", None, "G-H"));
    assert!(matches!(outcome(&ev), TurnOutcome::Tie { .. }));
    t.settle();
    assert!(t.chain().is_empty()); // TV-7, IT-50
    assert!(t.pile("O").is_empty() && t.pile("You").is_empty()); // TV-7
}

#[test]
fn tv_8_element_wins_in_play() {
    for (a, b) in [
        ("G-J", "G-S"),
        ("A-L", "A-S"),
        ("A-M", "A-J"),
        ("G-J", "D-M"),
    ] {
        let mut t = duel(&ALL, &ALL);
        let ev = t.exchange(("You", None, a), ("Opp", None, b));
        assert!(
            matches!(outcome(&ev), TurnOutcome::Win { ref winner, .. } if winner == "You"),
            "{a} beats {b}"
        ); // TV-8, IT-5
    }
}

#[test]
fn tv_14_starting_moves_are_never_disadvantaged() {
    let start = ["D-M", "G-L", "A-H"];
    for lost_with in start {
        for other in start.iter().filter(|m| **m != lost_with) {
            let pile = [lost_with.parse().unwrap()];
            assert!(!iron_triangle::conflict::disadvantage::disadvantaged_by(
                &pile,
                other.parse().unwrap()
            )); // TV-14, IT-38
        }
    }
    let mut t = T::new(vec![
        sheet("You", "p1", [20, 20, 20], &start),
        sheet("Opp", "gm", [20, 20, 20], &start),
    ]);
    t.start(&["Opp"], false, false);
    let mut rng = seeded(3);
    let log = iron_triangle::conflict::driver::play_out(&mut t.table, &mut rng, 2000, false)
        .expect("legal play");
    let revealed = log
        .iter()
        .filter(|e| matches!(e, Event::Conflict(ConflictEvent::MovesRevealed { .. })))
        .count();
    assert!(revealed > 3);
    for e in &log {
        if let Event::Conflict(ConflictEvent::MovesRevealed { disadvantaged, .. }) = e {
            assert!(disadvantaged.is_empty()); // TV-14
        }
    }
}
