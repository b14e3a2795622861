//! Piles and chains in detail: empty at the start (IT-37), the prior turn is the last one taken
//! part in (D-2), double disadvantage ties (D-1), combos from a teammate's card (IT-44), the
//! lone winner's chain ending after three wins (D-7), the loss formula (IT-49), and (X)
//! variations in play (IT-58).

use crate::conflict_support;

use conflict_support::*;
use iron_triangle::conflict::TurnOutcome;
use iron_triangle::{ConflictEvent, Event};
use serde_json::json;

fn resolved(events: &[Event]) -> (TurnOutcome, Vec<iron_triangle::conflict::LossBreakdown>) {
    events
        .iter()
        .find_map(|e| match e {
            Event::Conflict(ConflictEvent::TurnResolved {
                outcome, breakdown, ..
            }) => Some((outcome.clone(), breakdown.clone())),
            _ => None,
        })
        .expect("resolved")
}

#[test]
fn it_37_piles_start_empty_and_are_face_up() {
    let mut t = T::new(vec![
        sheet("You", "p1", [5, 5, 5], &BASIC),
        sheet("Opp", "gm", [9, 9, 9], &BASIC),
    ]);
    t.start(&["Opp"], false, false);
    assert!(t.pile("You").is_empty() && t.pile("Opp").is_empty()); // IT-37
    t.face("You", "Opp");
    t.exchange(("You", None, "A-L"), ("Opp", None, "D-M"));
    t.settle();
    assert_eq!(
        t.view("spectator")["conflict"]["fighters"][0]["pile"],
        json!(["A-L"])
    ); // IT-37: face up, public
}

#[test]
fn d_1_both_disadvantaged_is_a_tie_d_2_prior_turn_persists() {
    // You lose with A-H against X; then You sit idle while Y fights X; the pile persists (D-2, IT-40).
    let mut t = T::new(vec![
        sheet("You", "p1", [9, 9, 9], &BASIC),
        sheet("Mo", "p2", [9, 9, 9], &BASIC),
        sheet("X", "gm", [20, 20, 20], &BASIC),
    ]);
    t.start(&["X"], false, false);
    t.face("You", "X");
    t.exchange(("You", None, "A-H"), ("X", None, "A-L"));
    t.settle();
    assert_eq!(t.pile("You"), ["A-H"]);
    assert_eq!(t.pile("X"), Vec::<String>::new());
    t.face("X", "Mo");
    t.exchange(("X", None, "D-H"), ("Mo", None, "G-M")); // X loses with D-H: X's pile [D-H]
    t.settle();
    assert_eq!(t.pile("You"), ["A-H"]); // D-2: persists through turns You sat out
    assert_eq!(t.pile("X"), ["D-H"]);
    assert_eq!(
        t.refused("p2", json!({"type": "pick_active", "character": "You"})),
        "IT-26"
    ); // You have 1 turn, Mo 0
    t.cmd("p2", json!({"type": "pick_active", "character": "Mo"}));
}

#[test]
fn d_1_double_disadvantage_ties() {
    let (a, b): (iron_triangle::Move, iron_triangle::Move) =
        ("D-L".parse().unwrap(), "D-L".parse().unwrap());
    let da = iron_triangle::conflict::disadvantage::disadvantaged_by(&["D-M".parse().unwrap()], a);
    let db = iron_triangle::conflict::disadvantage::disadvantaged_by(&["G-L".parse().unwrap()], b);
    assert!(da && db);
    assert_eq!(iron_triangle::conflict::winner::judge(a, da, b, db), None); // D-1: both disadvantaged → tie
    // In play: You lose with D-M, X loses with G-L, then D-L meets D-L.
    let mut t = T::new(vec![
        sheet("You", "p1", [9, 9, 9], &BASIC),
        sheet("X", "gm", [20, 20, 20], &BASIC),
    ]);
    t.start(&["X"], false, false);
    t.face("You", "X");
    t.exchange(("You", None, "D-M"), ("X", None, "G-H")); // Grapple beats Defend: You [D-M]
    t.settle();
    t.face("X", "You");
    t.exchange(("X", None, "G-L"), ("You", None, "A-H")); // Attack beats Grapple: X [G-L], You clear
    t.settle();
    t.face("You", "X");
    t.exchange(("You", None, "D-H"), ("X", None, "G-M")); // You lose again: You [D-H]; X clears
    t.settle();
    t.face("X", "You");
    t.cmd("gm", json!({"type": "end_chain"}));
    t.exchange(("X", None, "G-L"), ("You", None, "A-L")); // Attack beats Grapple: X [G-L]; You clear
    t.settle();
    t.face("You", "X");
    t.cmd("p1", json!({"type": "end_chain"}));
    t.exchange(("You", None, "D-M"), ("X", None, "G-M")); // You [D-M]; X clear
    t.settle();
    assert_eq!(
        (t.pile("You"), t.pile("X")),
        (vec!["D-M".to_string()], vec![])
    );
}

#[test]
fn it_44_a_combo_may_start_from_a_teammates_card_d_5() {
    let pat = sheet("Pat", "p1", [9, 9, 9], &["A-H", "D-M"]);
    let mo = with(
        sheet("Mo", "p2", [9, 9, 9], &["G-M", "D-L"]),
        "combos",
        json!([{"from": "A-H", "followups": ["G-M"]}]),
    );
    let mut t = T::new(vec![pat, mo, sheet("X", "gm", [20, 20, 20], &BASIC)]);
    t.start(&["X"], false, false);
    t.face("Pat", "X");
    t.exchange(("Pat", None, "A-H"), ("X", None, "G-L"));
    t.settle();
    t.cmd("p1", json!({"type": "pick_active", "character": "Mo"})); // Mo has the fewest turns
    t.cmd("p2", json!({"type": "pick_opponent", "opponent": "X"}));
    assert!(
        t.view("p2")["conflict"]["your_moves"]
            .as_array()
            .unwrap()
            .iter()
            .any(|m| m["move"] == "G-M" && m["combos"] == true)
    ); // IT-44
    let ev = t.exchange(("Mo", None, "G-M"), ("X", None, "D-H"));
    let (_, b) = resolved(&ev);
    assert_eq!(b[0].combo, 1); // IT-44, D-4
}

#[test]
fn d_7_a_lone_winner_ends_the_chain_after_three_wins() {
    let you = with(
        sheet("You", "p1", [9, 9, 9], &BASIC),
        "combos",
        json!([{"from": "A-H", "followups": ["A-M"]}, {"from": "A-M", "followups": ["A-L"]}]),
    );
    let mut t = T::new(vec![you, sheet("X", "gm", [30, 30, 30], &BASIC)]);
    t.start(&["X"], false, false);
    for (mine, theirs) in [("A-H", "G-L"), ("A-M", "G-H"), ("A-L", "G-M")] {
        t.face("You", "X");
        t.exchange(("You", None, mine), ("X", None, theirs));
        t.settle();
        if mine != "A-L" {
            assert!(!t.chain().is_empty());
        }
    }
    assert!(t.chain().is_empty()); // D-7: no teammate, so the chain ends after three wins
    t.face("You", "X"); // and You may go on, with every card back in hand
}

#[test]
fn it_49_the_winner_loses_nothing_and_the_loser_pays_the_sum() {
    let mut t = T::new(vec![
        sheet("You", "p1", [9, 9, 9], &BASIC),
        sheet("X", "gm", [30, 30, 30], &BASIC),
    ]);
    t.start(&["X"], false, false);
    t.face("You", "X");
    let ev = t.exchange(
        ("You", Some(("grapple", 3)), "G-H"),
        ("X", Some(("defend", 2)), "D-L"),
    );
    let (_, b) = resolved(&ev);
    assert_eq!(
        (b[0].from_stance, b[0].own_stance, b[0].base, b[0].total),
        (6, 2, 4, 12)
    ); // IT-49
    t.settle();
    assert_eq!(t.total("You"), 27); // IT-49: the winner loses nothing
    assert_eq!(t.total("X"), 78);
}

#[test]
fn it_58_each_action_variation_is_its_own_special() {
    // Wax On (Defend) does nothing against an Attack win; only the matching variation works.
    let you = with(
        sheet("You", "p1", [6, 6, 6], &BASIC),
        "specials",
        json!([{"special": "wax_on", "action": "defend"}]),
    );
    let mut t = T::new(vec![you, sheet("X", "gm", [20, 20, 20], &BASIC)]);
    t.start(&["X"], false, false);
    t.face("You", "X");
    t.stance("You", None);
    t.stance("X", Some(("attack", 2)));
    t.cmd("p1", json!({"type": "play_special", "character": "You", "special": "wax_on", "action": "defend"}));
    assert_eq!(t.refused("p1", json!({"type": "play_special", "character": "You", "special": "wax_on", "action": "attack"})), "IT-59"); // IT-58: not known
    t.play("You", "G-M");
    let ev = t.play("X", "A-H");
    assert_eq!(resolved(&ev).1[0].total, 7); // IT-58: the Defend variation does not stop an Attack
}

/// You (p1) and Mo (p2) against X and Y; You knows A-H → A-M → A-L, so three wins in a row
/// against X make a three-card chain. X has exactly the 12 energy those wins cost (3, 3+1, 3+2).
fn three_wins_knock_out_x() -> T {
    let you = with(
        sheet("You", "p1", [9, 9, 9], &BASIC),
        "combos",
        json!([{"from": "A-H", "followups": ["A-M"]}, {"from": "A-M", "followups": ["A-L"]}]),
    );
    let mut t = T::new(vec![
        you,
        sheet("Mo", "p2", [9, 9, 9], &BASIC),
        sheet("X", "gm", [4, 4, 4], &BASIC),
        sheet("Y", "gm", [9, 9, 9], &BASIC),
    ]);
    t.start(&["X", "Y"], false, false);
    for (mine, theirs) in [("A-H", "G-L"), ("A-M", "G-H"), ("A-L", "G-M")] {
        t.face("You", "X");
        t.exchange(("You", None, mine), ("X", None, theirs));
        t.cmd("gm", json!({"type": "pass_window", "character": "Y"})); // W5: the idle NPC
        t.settle();
    }
    assert_eq!(t.total("X"), 0);
    t
}

#[test]
fn it_43_a_chain_whose_loser_goes_out_stays_live_until_the_next_opponent_is_picked() {
    let mut t = three_wins_knock_out_x();
    // IT-43: X is out, but the chain ends only once the next opponent is picked.
    assert_eq!(t.chain(), ["A-H", "A-M", "A-L"]);
    t.cmd("p1", json!({"type": "pick_active", "character": "Mo"}));
    assert_eq!(t.chain(), ["A-H", "A-M", "A-L"]); // same side: still live (IT-43)
    let events = t.cmd("p2", json!({"type": "pick_opponent", "opponent": "Y"}));
    assert!(events.iter().any(|e| matches!(
        e,
        Event::Conflict(ConflictEvent::ChainEnded {
            reason: iron_triangle::conflict::ChainEnd::OtherOpponent,
            ..
        })
    ))); // IT-43: picking someone else ends it; its cards return (D-3)
    assert!(t.chain().is_empty());
}

#[test]
fn it_46_three_wins_pass_to_a_teammate_even_when_the_loser_went_out() {
    let mut t = three_wins_knock_out_x();
    // IT-46: You won three times in this chain and must pass; continuing as the previous
    // active character (D-8) does not lift the cap.
    assert_eq!(
        t.refused("p1", json!({"type": "pick_active", "character": "You"})),
        "IT-46"
    );
    t.cmd("p1", json!({"type": "pick_active", "character": "Mo"}));
}

#[test]
fn it_46_the_cap_holds_while_the_chain_is_live_and_it_45_ends_with_the_conflict() {
    // A lone NPC knocked out on the third win ends the conflict: the chain ends with it.
    let you = with(
        sheet("You", "p1", [9, 9, 9], &BASIC),
        "combos",
        json!([{"from": "A-H", "followups": ["A-M"]}, {"from": "A-M", "followups": ["A-L"]}]),
    );
    let mut t = T::new(vec![
        you,
        sheet("Mo", "p2", [9, 9, 9], &BASIC),
        sheet("X", "gm", [4, 4, 4], &BASIC),
    ]);
    t.start(&["X"], false, false);
    for (mine, theirs) in [("A-H", "G-L"), ("A-M", "G-H"), ("A-L", "G-M")] {
        t.face("You", "X");
        t.exchange(("You", None, mine), ("X", None, theirs));
        t.settle();
    }
    assert_eq!(t.phase(), iron_triangle::conflict::Phase::Ended);
    assert!(t.chain().is_empty()); // IT-45: chains end with the conflict
}
