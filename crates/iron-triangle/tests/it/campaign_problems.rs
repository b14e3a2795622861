//! Problems: hidden simultaneous picks, eligibility, the decider and what they pay
//! (IT-2, IT-15 … IT-20, D-19 … D-21, TV-9).

use crate::campaign_support;

use campaign_support::*;
use clash_core::{Ruleset, Seat, Viewer};
use iron_triangle::IronTriangle;
use iron_triangle::campaign::{DeciderReason, Stage};
use iron_triangle::{Event, campaign::CampaignEvent};
use serde_json::json;

fn open(t: &mut T, what: &str) {
    t.ok(GM, json!({"type": "open_problem", "description": what}));
}

fn stage(t: &T) -> Stage {
    t.state()
        .campaign
        .problem
        .as_ref()
        .expect("a problem is open")
        .stage
        .clone()
}

fn decider(t: &T) -> Seat {
    match stage(t) {
        Stage::Narrating { decider } | Stage::Narrated { decider, .. } => decider.seat,
        other => panic!("no decider yet: {other:?}"),
    }
}

#[test]
fn tv_9_seed_options_3_and_4_the_four_decides() {
    let mut t = T::new(json!({"characters": [ada("p1"), hero("Bo", "p2")]}));
    open(&mut t, "The bridge is out");
    t.ok(
        P1,
        json!({"type": "choose_option", "option": 3, "trait": "belief"}),
    );
    t.ok(
        P2,
        json!({"type": "choose_option", "option": 4, "trait": "flaw"}),
    );
    assert_eq!(decider(&t), P2); // TV-9, IT-17: the highest option decides
}

#[test]
fn it_2_picks_are_hidden_until_all_are_ready_then_revealed_together() {
    let mut t = T::three();
    open(&mut t, "A locked vault");
    let events = t.ok(P1, json!({"type": "choose_option", "option": 2}));
    assert_eq!(events.len(), 1); // IT-2: no reveal yet, others still to choose
    let p2_view = t.view(Viewer::Seat(P2));
    let chooser = &p2_view["campaign"]["problem"]["choosers"][0];
    assert_eq!(chooser["status"], "ready"); // IT-2: others see "ready"
    assert!(chooser.get("pick").is_none()); // IT-2: hidden from p2
    assert!(
        t.view(Viewer::Spectator)["campaign"]["problem"]["choosers"][0]
            .get("pick")
            .is_none()
    );
    assert!(
        t.view(Viewer::Seat(GM))["campaign"]["problem"]["choosers"][0]
            .get("pick")
            .is_none()
    );
    assert_eq!(
        t.view(Viewer::Seat(P1))["campaign"]["problem"]["choosers"][0]["pick"]["option"],
        2
    ); // its owner sees it
    // The event is redacted the same way.
    let seen = IronTriangle::event_view(&events[0], Viewer::Seat(P2)).expect("visible");
    assert!(matches!(
        seen,
        Event::Campaign(CampaignEvent::OptionCommitted { pick: None, .. })
    )); // IT-2
    t.ok(P2, json!({"type": "pass_problem"}));
    let events = t.ok(P3, json!({"type": "choose_option", "option": 1}));
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::Campaign(CampaignEvent::ProblemRevealed { .. })))
    ); // IT-2
    assert_eq!(
        t.view(Viewer::Seat(P2))["campaign"]["problem"]["choosers"][0]["pick"]["option"],
        2
    ); // revealed to all
    assert_eq!(decider(&t), P1); // IT-17
}

#[test]
fn it_2_commitments_are_final() {
    let mut t = T::three();
    open(&mut t, "A storm");
    t.ok(P1, json!({"type": "choose_option", "option": 1}));
    t.refused(
        P1,
        json!({"type": "choose_option", "option": 4, "trait": "flaw"}),
        "IT-2",
    ); // IT-2
    t.refused(P1, json!({"type": "pass_problem"}), "IT-2");
}

#[test]
fn it_15_only_players_choose_and_only_the_gm_opens() {
    let mut t = T::three();
    t.refused(
        P1,
        json!({"type": "open_problem", "description": "x"}),
        "IT-15",
    ); // IT-15
    t.refused(P1, json!({"type": "choose_option", "option": 1}), "IT-15"); // no problem open
    open(&mut t, "A riddle");
    t.refused(GM, json!({"type": "choose_option", "option": 1}), "IT-15"); // IT-15: players choose
    t.refused(
        GM,
        json!({"type": "open_problem", "description": "another"}),
        "IT-15",
    ); // one at a time
    t.refused(
        Seat::Player(4),
        json!({"type": "choose_option", "option": 1}),
        "IT-1",
    ); // not at the table
}

#[test]
fn tv_9_a_player_with_zero_points_cannot_choose_2() {
    let mut broke = ada("p1");
    broke["established"] = json!(true);
    broke["backgrounds"] = json!([{"name": "Detective", "points": 2, "current": 0}, {"name": "Disgraced hockey player", "points": 1, "current": 0}]);
    let mut t = T::new(json!({"characters": [broke, hero("Bo", "p2")]}));
    assert_eq!(t.pc("Ada").background_points(), 0);
    open(&mut t, "A bribe");
    t.refused(P1, json!({"type": "choose_option", "option": 2}), "IT-16"); // TV-9, IT-16
    t.ok(P1, json!({"type": "choose_option", "option": 1}));
}

#[test]
fn it_16_options_3_and_4_need_an_unmarked_declared_trait() {
    let mut sheet = ada("p1");
    sheet["established"] = json!(true);
    sheet["marks"] = json!({"belief": true});
    let mut t = T::new(json!({"characters": [sheet, hero("Bo", "p2")]}));
    open(&mut t, "A chase");
    t.refused(P1, json!({"type": "choose_option", "option": 3}), "IT-16"); // IT-16: no trait declared
    t.refused(
        P1,
        json!({"type": "choose_option", "option": 3, "trait": "belief"}),
        "D-20",
    ); // D-20: already marked
    t.refused(
        P1,
        json!({"type": "choose_option", "option": 1, "trait": "flaw"}),
        "IT-16",
    ); // only 3/4 declare
    t.ok(
        P1,
        json!({"type": "choose_option", "option": 3, "trait": "flaw"}),
    ); // D-20: option 3 may use the flaw
}

#[test]
fn tv_9_equal_options_go_to_the_least_recent_decider() {
    // P1 last decided problem #3; P2 never has (D-21).
    let mut t = T::new(json!({
        "characters": [ada("p1"), hero("Bo", "p2")],
        "campaign": {"problems_opened": 3, "last_decided": {"p1": 3}}
    }));
    open(&mut t, "The guard");
    assert_eq!(t.state().campaign.problem.as_ref().unwrap().number, 4);
    t.ok(P1, json!({"type": "choose_option", "option": 2}));
    let events = t.ok(P2, json!({"type": "choose_option", "option": 2}));
    assert_eq!(decider(&t), P2); // TV-9, IT-17, D-21: never decided = least recent
    assert!(events.iter().any(|e| matches!(
        e,
        Event::Campaign(CampaignEvent::DeciderChosen {
            reason: DeciderReason::LeastRecent,
            ..
        })
    )));
    t.ok(
        P2,
        json!({"type": "narrate_outcome", "text": "Bo bribes the guard.", "background": "Sailor"}),
    );
    assert_eq!(t.state().campaign.last_decided.get(&P2), Some(&4)); // IT-18: who decided and when
    assert_eq!(t.pc("Bo").background_points(), 2); // IT-18: option 2 costs one point
    assert_eq!(t.pc("Ada").background_points(), 3); // D-20: non-deciders pay nothing
}

#[test]
fn tv_9_if_neither_has_ever_decided_the_gm_picks() {
    let mut t = T::new(json!({"characters": [ada("p1"), hero("Bo", "p2")]}));
    open(&mut t, "The toll");
    t.ok(P1, json!({"type": "choose_option", "option": 2}));
    t.ok(P2, json!({"type": "choose_option", "option": 2}));
    assert_eq!(
        stage(&t),
        Stage::DeciderTied {
            candidates: vec![P1, P2]
        }
    ); // TV-9, D-21
    t.refused(P1, json!({"type": "pick_decider", "seat": "p1"}), "D-21"); // only the GM picks
    t.refused(GM, json!({"type": "narrate_outcome", "text": "x"}), "IT-18");
    t.ok(GM, json!({"type": "pick_decider", "seat": "p1"}));
    assert_eq!(decider(&t), P1); // IT-17: then the GM picks
}

#[test]
fn it_19_nobody_chooses_so_the_gm_decides() {
    let mut t = T::new(json!({"characters": [ada("p1"), hero("Bo", "p2")]}));
    open(&mut t, "A quiet night");
    t.ok(P1, json!({"type": "pass_problem"}));
    let events = t.ok(P2, json!({"type": "pass_problem"}));
    assert!(events.iter().any(|e| matches!(
        e,
        Event::Campaign(CampaignEvent::DeciderChosen {
            reason: DeciderReason::NobodyChose,
            ..
        })
    )));
    assert_eq!(decider(&t), GM); // IT-19
    t.refused(P1, json!({"type": "narrate_outcome", "text": "x"}), "IT-18");
    t.ok(
        GM,
        json!({"type": "narrate_outcome", "text": "Nothing stirs."}),
    );
    t.ok(GM, json!({"type": "close_problem"}));
    assert!(t.state().campaign.last_decided.is_empty());
}

#[test]
fn it_18_the_decider_narrates_and_alone_pays_a_trait_mark_and_q1() {
    let mut t = T::three();
    open(&mut t, "The fire");
    t.ok(
        P1,
        json!({"type": "choose_option", "option": 3, "trait": "belief"}),
    );
    t.ok(
        P2,
        json!({"type": "choose_option", "option": 4, "trait": "flaw"}),
    );
    t.ok(
        P3,
        json!({"type": "choose_option", "option": 4, "trait": "belief"}),
    );
    // Both 4s never decided: the GM picks.
    t.ok(GM, json!({"type": "pick_decider", "seat": "p3"}));
    t.refused(
        P2,
        json!({"type": "narrate_outcome", "text": "mine"}),
        "IT-18",
    ); // IT-18: the decider narrates
    t.refused(
        P3,
        json!({"type": "narrate_outcome", "text": "  "}),
        "IT-18",
    );
    t.refused(
        P3,
        json!({"type": "narrate_outcome", "text": "x", "background": "Sailor"}),
        "IT-18",
    ); // only option 2 spends
    t.ok(
        P3,
        json!({"type": "narrate_outcome", "text": "Cy's faith fails him; the fire spreads."}),
    );
    assert!(t.pc("Cy").belief.marked); // IT-18: the declared trait is marked
    assert!(t.pc("Cy").marks.q1); // D-19: Q1 is set
    assert!(!t.pc("Bo").flaw.marked && !t.pc("Bo").marks.q1); // D-20: non-deciders pay nothing
    assert!(!t.pc("Ada").belief.marked);
    t.ok(GM, json!({"type": "close_problem"}));
    assert!(t.state().campaign.problem.is_none());
}

#[test]
fn d_18_an_unassigned_point_joins_a_background_when_spent() {
    let mut sheet = ada("p1");
    sheet["established"] = json!(true);
    sheet["backgrounds"] = json!([{"name": "Detective", "points": 2, "current": 0}]);
    let mut t = T::new(json!({"characters": [sheet, hero("Bo", "p2")]}));
    assert_eq!(t.pc("Ada").unassigned_points, 1);
    open(&mut t, "A file room");
    t.ok(P1, json!({"type": "choose_option", "option": 2}));
    t.ok(P2, json!({"type": "pass_problem"}));
    t.refused(
        P1,
        json!({"type": "narrate_outcome", "text": "x", "background": "Detective"}),
        "D-18",
    ); // already at 2
    t.refused(P1, json!({"type": "narrate_outcome", "text": "x"}), "IT-18"); // name the background
    t.ok(P1, json!({"type": "narrate_outcome", "text": "An old colleague helps.", "background": "Police academy"}));
    let ada = t.pc("Ada");
    assert_eq!(ada.unassigned_points, 0); // D-18
    let b = ada
        .backgrounds
        .iter()
        .find(|b| b.name == "Police academy")
        .expect("joined");
    assert_eq!((b.current, b.max), (0, 1)); // D-18: the point joined as it was spent
}

#[test]
fn it_19_the_gm_rejects_a_narration_and_the_next_highest_decides() {
    let mut t = T::three();
    open(&mut t, "The ransom");
    t.ok(P1, json!({"type": "choose_option", "option": 1}));
    t.ok(
        P2,
        json!({"type": "choose_option", "option": 4, "trait": "flaw"}),
    );
    t.ok(P3, json!({"type": "choose_option", "option": 2}));
    assert_eq!(decider(&t), P2);
    t.ok(
        P2,
        json!({"type": "narrate_outcome", "text": "Bo kills the kidnapper with a thought."}),
    );
    assert!(t.pc("Bo").flaw.marked);
    t.refused(
        P1,
        json!({"type": "reject_narration", "reason": "no"}),
        "IT-19",
    ); // the GM judges
    t.ok(
        GM,
        json!({"type": "reject_narration", "reason": "That is outside the rules."}),
    );
    assert!(!t.pc("Bo").flaw.marked && !t.pc("Bo").marks.q1); // IT-19: void, undone
    assert_eq!(decider(&t), P3); // IT-19: the next-highest choice decides
    t.ok(
        GM,
        json!({"type": "reject_narration", "reason": "Cy cannot narrate it either."}),
    );
    assert_eq!(decider(&t), P1);
    t.ok(
        GM,
        json!({"type": "reject_narration", "reason": "Nor Ada."}),
    );
    assert_eq!(decider(&t), GM); // IT-19: nobody left, the GM decides
    t.refused(
        GM,
        json!({"type": "reject_narration", "reason": "x"}),
        "IT-19",
    );
}

#[test]
fn it_20_a_retry_is_the_gms_to_judge_so_a_like_description_is_noted_not_refused() {
    let mut t = T::new(json!({"characters": [ada("p1")]}));
    open(&mut t, "The locked door");
    t.ok(
        P1,
        json!({"type": "choose_option", "option": 4, "trait": "flaw"}),
    );
    t.ok(
        P1,
        json!({"type": "narrate_outcome", "text": "Ada kicks it and breaks a toe; guards come."}),
    );
    t.ok(GM, json!({"type": "close_problem"}));
    // IT-20 is narrative: another locked door is a problem of its own, and only the GM can
    // tell a retry, so the description is not refused. The GM's view notes the likeness.
    open(&mut t, "the locked door ");
    let note = |t: &T, v: Viewer| t.view(v)["campaign"]["problem"].get("like_closed").cloned();
    assert_eq!(note(&t, Viewer::Seat(GM)), Some(json!(true))); // IT-20: a hint for the GM
    assert_eq!(note(&t, Viewer::Seat(P1)), None); // the note is the GM's alone
    assert_eq!(note(&t, Viewer::Spectator), None);
    let said = "a closed problem had the same description";
    assert!(IronTriangle::render(t.state(), Viewer::Seat(GM)).contains(said)); // IT-20
    assert!(!IronTriangle::render(t.state(), Viewer::Seat(P1)).contains(said));
    t.ok(P1, json!({"type": "choose_option", "option": 1}));
    t.ok(
        P1,
        json!({"type": "narrate_outcome", "text": "Ada finds the key under the mat."}),
    );
    t.ok(GM, json!({"type": "close_problem"}));
    open(&mut t, "The guards");
    assert_eq!(note(&t, Viewer::Seat(GM)), None); // IT-20: nothing alike, no note
}

#[test]
fn it_20_a_position_may_open_a_problem_described_like_a_closed_one() {
    // IT-20 is the GM's judgement in a position too: nothing refuses the description.
    let t = T::new(json!({"characters": [ada("p1")], "campaign": {
        "problems_opened": 2, "closed_problems": ["The locked door"], "open_problem": "The locked door"}}));
    assert_eq!(
        t.view(Viewer::Seat(GM))["campaign"]["problem"]["like_closed"],
        json!(true)
    ); // IT-20
}

#[test]
fn it_20_failure_brings_a_countdown_mark_never_death() {
    // A failed problem's consequence is the GM's ordinary countdown mark; nobody dies of it.
    let mut t =
        T::new(json!({"characters": [ada("p1")], "countdowns": [{"name": "Alarm", "boxes": 4}]}));
    open(&mut t, "Sneak past");
    t.ok(
        P1,
        json!({"type": "choose_option", "option": 4, "trait": "flaw"}),
    );
    t.ok(
        P1,
        json!({"type": "narrate_outcome", "text": "A vase falls."}),
    );
    t.ok(GM, json!({"type": "mark_countdown", "name": "Alarm"}));
    assert_eq!(t.state().campaign.countdowns[0].marked, 1); // IT-20
    assert!(!t.pc("Ada").dead); // IT-20: never PC death
}
