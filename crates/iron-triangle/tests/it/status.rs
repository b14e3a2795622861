//! Whose move it is (the kernel's status): exactly the seats the table waits on, at every kind
//! of moment a page shows "your move" from.

use crate::campaign_support;
use crate::conflict_support;

use clash_core::{Ruleset, Seat, Status};
use conflict_support::*;
use iron_triangle::IronTriangle;
use serde_json::json;

const GM: Seat = Seat::Gm;
const P1: Seat = Seat::Player(1);
const P2: Seat = Seat::Player(2);

fn waiting(t: &T) -> Vec<Seat> {
    let status: Status = IronTriangle::status(&t.table);
    assert_eq!(status.over, None, "a campaign never ends by itself");
    status.waiting_for
}

fn two_against_brute() -> T {
    T::new(vec![
        sheet("Ada", "p1", [5, 5, 5], &BASIC),
        sheet("Bo", "p2", [5, 5, 5], &BASIC),
        sheet("Brute", "gm", [9, 9, 9], &BASIC),
    ])
}

#[test]
fn outside_a_conflict_the_gm_moves_the_story_on() {
    assert_eq!(waiting(&two_against_brute()), [GM]);
}

#[test]
fn it_23_forming_waits_on_the_players_still_to_answer() {
    let mut t = two_against_brute();
    t.cmd(
        "gm",
        json!({"type": "start_conflict", "stakes": "s", "npcs": ["Brute"]}),
    );
    assert_eq!(waiting(&t), [P1, P2]);
    t.cmd("p1", json!({"type": "join_conflict", "character": "Ada"}));
    assert_eq!(waiting(&t), [P2]);
    // IT-25, D-13: the players together pick the first active character.
    t.cmd("p2", json!({"type": "join_conflict", "character": "Bo"}));
    assert_eq!(waiting(&t), [P1, P2]);
}

#[test]
fn it_23_when_every_pc_sits_out_the_gm_settles() {
    let mut t = two_against_brute();
    t.cmd(
        "gm",
        json!({"type": "start_conflict", "stakes": "s", "npcs": ["Brute"]}),
    );
    t.cmd("p1", json!({"type": "sit_out", "character": "Ada"}));
    t.cmd("p2", json!({"type": "sit_out", "character": "Bo"}));
    assert_eq!(waiting(&t), [GM]);
}

#[test]
fn it_32_a_turn_waits_on_whoever_has_not_chosen() {
    let mut t = two_against_brute();
    t.start(&["Brute"], false, false);
    t.cmd("p1", json!({"type": "pick_active", "character": "Ada"}));
    assert_eq!(waiting(&t), [P1]); // W1: the active character picks an opponent
    t.cmd("p1", json!({"type": "pick_opponent", "opponent": "Brute"}));
    assert_eq!(waiting(&t), [GM, P1]); // IT-2: both choose stances
    t.stance("Ada", None);
    assert_eq!(waiting(&t), [GM]); // Ada is ready; only the Brute's stance is awaited
    t.stance("Brute", None);
    assert_eq!(waiting(&t), [GM, P1]); // both choose moves
    t.play("Brute", "A-L");
    assert_eq!(waiting(&t), [P1]);
    // W5: Bo is idle and could play nothing there, so the turn resolves; Ada's A-H loses to
    // the Brute's A-L and her player splits the loss (IT-51).
    t.play("Ada", "A-H");
    assert_eq!(waiting(&t), [P1]);
    t.settle();
    // IT-26: the winner's controller, the GM, picks next.
    assert_eq!(waiting(&t), [GM]);
}

#[test]
fn d_34_an_open_w5_window_waits_on_the_idle_npcs() {
    let mut t = T::new(vec![
        sheet("Ada", "p1", [5, 5, 5], &BASIC),
        sheet("Brute", "gm", [9, 9, 9], &BASIC),
        sheet("Thug", "gm", [9, 9, 9], &BASIC),
    ]);
    t.start(&["Brute", "Thug"], false, false);
    t.face("Ada", "Brute");
    t.exchange(("Ada", None, "A-H"), ("Brute", None, "G-L"));
    assert_eq!(waiting(&t), [GM]); // the Thug is asked at W5
}

#[test]
fn it_36_mercy_waits_on_the_opponent() {
    let mut t = T::new(vec![
        sheet("Ada", "p1", [5, 5, 5], &BASIC),
        sheet("Bo", "p2", [5, 5, 5], &BASIC),
        sheet("Brute", "gm", [9, 9, 9], &BASIC),
    ]);
    t.start(&["Brute"], true, false);
    t.face("Ada", "Brute");
    t.stance("Ada", None);
    t.stance("Brute", None);
    t.play("Ada", "surrender");
    t.play("Brute", "A-L");
    assert_eq!(waiting(&t), [GM]); // the Brute's controller decides Ada's fate
}

#[test]
fn it_15_a_problem_waits_on_the_picks_then_the_decider_then_the_gm() {
    let mut t = campaign_support::T::three();
    let p3 = Seat::Player(3);
    let status = |t: &campaign_support::T| IronTriangle::status(t.state()).waiting_for;
    t.ok(
        GM,
        json!({"type": "open_problem", "description": "The bridge is out"}),
    );
    assert_eq!(status(&t), [P1, P2, p3]); // IT-2: every player with a living PC picks
    t.ok(P1, json!({"type": "choose_option", "option": 1}));
    assert_eq!(status(&t), [P2, p3]);
    t.ok(P2, json!({"type": "pass_problem"}));
    t.ok(p3, json!({"type": "pass_problem"}));
    assert_eq!(status(&t), [P1]); // IT-18: the decider narrates
    t.ok(
        P1,
        json!({"type": "narrate_outcome", "text": "Ada finds a rope bridge."}),
    );
    assert_eq!(status(&t), [GM]); // IT-21: vetoes may come; the GM moves play on
}

#[test]
fn it_60_a_session_end_waits_on_the_level_ups() {
    let mut ready = campaign_support::ada("p1");
    ready["established"] = json!(true);
    ready["marks"] = json!({"q1": true, "goal": true, "zero": {"defend": true, "grapple": false, "attack": false}});
    let mut t = campaign_support::T::new(
        json!({"characters": [ready, campaign_support::hero("Bo", "p2")]}),
    );
    t.ok(GM, json!({"type": "end_session"}));
    assert_eq!(IronTriangle::status(t.state()).waiting_for, [P1]); // Ada levels up first
    t.ok(P1, json!({"type": "level_up", "character": "Ada", "improvement": {"kind": "energy", "action": "defend"}, "refill": "veto"}));
    assert_eq!(IronTriangle::status(t.state()).waiting_for, [GM]);
}

#[test]
fn a_player_with_two_pcs_is_named_by_each_of_them() {
    let t = T::new(vec![
        sheet("Ada", "p1", [5, 5, 5], &BASIC),
        sheet("Bo", "p2", [5, 5, 5], &BASIC),
        sheet("Cy", "p2", [5, 5, 5], &BASIC),
        sheet("Brute", "gm", [9, 9, 9], &BASIC),
    ]);
    assert_eq!(IronTriangle::seat_name(&t.table, P2), "Bo and Cy");
    // Listed name by name, so that a page's list of waiting seats reads "Ada, Bo and Cy".
    assert_eq!(IronTriangle::seat_names(&t.table, P2), ["Bo", "Cy"]);
    assert_eq!(IronTriangle::seat_names(&t.table, P1), ["Ada"]);
    assert_eq!(IronTriangle::seat_names(&t.table, GM), ["the GM"]);
}
