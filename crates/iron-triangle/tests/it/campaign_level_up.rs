//! Session end and level-up (IT-60 … IT-65, D-5, D-16, D-19, D-32, TV-13).

use crate::campaign_support;

use campaign_support::*;
use iron_triangle::PerAction;
use serde_json::{Value, json};

/// TV-13's Ada: max 3/2/5, current 0/0/1; belief + Q1, goal and zero(G) marked; veto used.
fn ready_ada() -> Value {
    let mut s = ada("p1");
    s["established"] = json!(true);
    s["current"] = json!({"defend": 0, "grapple": 0, "attack": 1});
    s["marks"] = json!({"belief": true, "q1": true, "goal": true, "zero": {"defend": false, "grapple": true, "attack": false}, "veto_used": true});
    s
}

fn ended(sheet: Value) -> T {
    let mut t = T::new(json!({"characters": [sheet, hero("Bo", "p2")]}));
    t.ok(GM, json!({"type": "end_session"}));
    t
}

fn level_up(improvement: Value, refill: &str) -> Value {
    json!({"type": "level_up", "character": "Ada", "improvement": improvement, "refill": refill})
}

#[test]
fn tv_13_level_up_with_plus_one_grapple_and_the_veto_refill() {
    let mut t = ended(ready_ada());
    t.refused(
        P1,
        level_up(json!({"kind": "energy", "action": "attack"}), "veto"),
        "D-16",
    ); // TV-13: +1 A illegal
    t.ok(
        P1,
        level_up(json!({"kind": "energy", "action": "grapple"}), "veto"),
    );
    let ada = t.pc("Ada");
    assert_eq!(ada.level, 1); // TV-13: 0 → 1
    assert_eq!(
        ada.energy.max,
        PerAction {
            defend: 3,
            grapple: 3,
            attack: 5
        }
    ); // TV-13: +1 max G
    assert_eq!(
        ada.energy.current,
        PerAction {
            defend: 0,
            grapple: 0,
            attack: 1
        }
    ); // D-16: current unchanged
    assert!(ada.veto); // IT-62: the veto is refilled
    assert!(!ada.goal.achieved && ada.goal.text.is_empty()); // IT-64: the goal and its mark are erased
    assert_eq!(ada.marks.zero, PerAction::default()); // IT-64: zero marks erased
    assert!(!ada.marks.q1); // IT-64, D-19: Q1 cleared
    assert!(ada.belief.marked); // IT-64: the belief mark stays (the flaw is unmarked)
}

#[test]
fn it_60_three_yeses_are_needed_and_only_at_session_end() {
    let mut t = T::new(json!({"characters": [ready_ada(), hero("Bo", "p2")]}));
    t.refused(
        P1,
        level_up(json!({"kind": "energy", "action": "grapple"}), "veto"),
        "IT-60",
    ); // not session end
    t.refused(P1, json!({"type": "end_session"}), "IT-60"); // the GM ends it
    t.ok(GM, json!({"type": "end_session"}));
    t.refused(GM, json!({"type": "end_session"}), "IT-60");
    let mut no_q1 = ready_ada();
    no_q1["marks"]["q1"] = json!(false);
    let mut t2 = ended(no_q1);
    // IT-60, D-19: a marked belief alone is not Q1.
    t2.refused(
        P1,
        level_up(json!({"kind": "energy", "action": "grapple"}), "veto"),
        "IT-60",
    );
    let mut no_goal = ready_ada();
    no_goal["marks"]["goal"] = json!(false);
    let mut t3 = ended(no_goal);
    t3.refused(
        P1,
        level_up(json!({"kind": "energy", "action": "grapple"}), "veto"),
        "IT-60",
    ); // Q2
    let mut no_zero = ready_ada();
    no_zero["marks"]["zero"] = json!({"defend": false, "grapple": false, "attack": false});
    let mut t4 = ended(no_zero);
    t4.refused(
        P1,
        level_up(
            json!({"kind": "learn_special", "special": {"special": "scouter"}}),
            "veto",
        ),
        "IT-60",
    ); // Q3
}

#[test]
fn it_60_one_level_per_session() {
    let mut t = ended(ready_ada());
    t.ok(
        P1,
        level_up(json!({"kind": "energy", "action": "grapple"}), "veto"),
    );
    // Even with fresh yes marks, no second level this session.
    t.ok(
        P1,
        json!({"type": "rewrite_traits", "character": "Ada", "goal": "Clear her name"}),
    );
    t.ok(
        P1,
        json!({"type": "mark_goal", "character": "Ada", "achieved": true}),
    );
    t.refused(
        P1,
        level_up(
            json!({"kind": "learn_special", "special": {"special": "scouter"}}),
            "veto",
        ),
        "IT-60",
    ); // IT-60
    t.ok(GM, json!({"type": "start_session"}));
    assert_eq!(t.state().campaign.session, 2);
}

#[test]
fn it_60_the_gm_settles_goal_disputes_and_the_session_waits_for_level_ups() {
    let mut t = ended(ready_ada());
    t.refused(GM, json!({"type": "start_session"}), "IT-60"); // Ada's level-up comes first
    t.refused(
        P2,
        json!({"type": "mark_goal", "character": "Ada", "achieved": false}),
        "IT-60",
    );
    t.refused(
        P1,
        json!({"type": "mark_goal", "character": "Ada", "achieved": false}),
        "IT-60",
    ); // only the GM unmarks
    t.ok(
        GM,
        json!({"type": "mark_goal", "character": "Ada", "achieved": false}),
    ); // IT-60: the GM settles it
    t.ok(GM, json!({"type": "start_session"}));
    assert!(t.pc("Ada").marks.q1); // IT-64: without a level-up, yes marks carry over
}

#[test]
fn it_62_choose_exactly_one_refill() {
    let mut t = ended(ready_ada());
    t.refused(P1, json!({"type": "level_up", "character": "Ada", "improvement": {"kind": "energy", "action": "grapple"}}), "IT-62");
    let mut spent = ready_ada();
    spent["backgrounds"] = json!([{"name": "Detective", "points": 2, "current": 0}, {"name": "Disgraced hockey player", "points": 1, "current": 1}]);
    let mut t = ended(spent);
    t.ok(
        P1,
        level_up(
            json!({"kind": "energy", "action": "grapple"}),
            "background_points",
        ),
    );
    let ada = t.pc("Ada");
    assert_eq!(ada.background_points(), 3); // IT-62: refilled to 3
    assert!(ada.backgrounds.iter().all(|b| b.current == b.max)); // each up to its max
    assert!(!ada.veto); // IT-62: only one refill
}

#[test]
fn it_61_learn_a_move_subject_to_it_8() {
    let mut t = ended(ready_ada());
    t.refused(
        P1,
        level_up(
            json!({"kind": "learn_move", "move": "G-J", "name": "Leap"}),
            "veto",
        ),
        "IT-8",
    ); // IT-8
    t.refused(
        P1,
        level_up(
            json!({"kind": "learn_move", "move": "A-H", "name": "Again"}),
            "veto",
        ),
        "IT-7",
    ); // known
    t.refused(
        P1,
        level_up(
            json!({"kind": "learn_move", "move": "A-L", "name": ""}),
            "veto",
        ),
        "IT-7",
    ); // named
    t.ok(
        P1,
        level_up(
            json!({"kind": "learn_move", "move": "A-L", "name": "Low Blow"}),
            "veto",
        ),
    );
    assert_eq!(
        t.pc("Ada").move_name("A-L".parse().unwrap()),
        Some("Low Blow")
    ); // IT-61 (a)
}

#[test]
fn it_63_combo_edits_add_or_replace_followups_at_most_two() {
    let mut s = ready_ada();
    s["combos"] = json!([{"from": "A-H", "followups": ["G-L", "D-M"]}]);
    let mut t = ended(s);
    let edits = |e: Value| level_up(json!({"kind": "combo_edits", "edits": e}), "veto");
    t.refused(P1, edits(json!([])), "IT-61"); // at least one edit
    t.refused(P1, edits(json!([{"from": "D-M", "followup": "G-L"}, {"from": "D-M", "followup": "A-H"}, {"from": "G-L", "followup": "A-H"}])), "IT-61"); // two
    t.refused(
        P1,
        edits(json!([{"from": "D-M", "followup": "A-S"}])),
        "D-5",
    ); // D-5: followups known
    t.refused(
        P1,
        edits(json!([{"from": "A-H", "followup": "A-H"}])),
        "IT-63",
    ); // IT-63: a third followup
    t.refused(
        P1,
        edits(json!([{"from": "A-H", "followup": "A-H", "replaces": "G-M"}])),
        "IT-63",
    ); // no such followup
    // D-5: a combo may start from a move Ada does not know (an ally's).
    t.ok(P1, edits(json!([{"from": "A-H", "followup": "A-H", "replaces": "G-L"}, {"from": "G-M", "followup": "D-M"}])));
    let ada = t.pc("Ada");
    assert_eq!(
        ada.followups("A-H".parse().unwrap()),
        ["A-H".parse().unwrap(), "D-M".parse().unwrap()]
    ); // IT-63
    assert_eq!(
        ada.followups("G-M".parse().unwrap()),
        ["D-M".parse().unwrap()]
    ); // D-5
}

#[test]
fn it_61_learn_a_special_whose_requirements_are_met_at_the_new_level() {
    let special = |s: Value| level_up(json!({"kind": "learn_special", "special": s}), "veto");
    let mut s = ready_ada();
    s["level"] = json!(4);
    s["specials"] = json!([{"special": "wax_on", "action": "attack"}]);
    let mut t = ended(s);
    t.refused(
        P1,
        special(json!({"special": "wax_on", "action": "attack"})),
        "IT-56",
    ); // IT-56: not twice
    t.refused(P1, special(json!({"special": "drunken_monkey"})), "D-32"); // level 10
    t.refused(
        P1,
        special(json!({"special": "dig_two_graves", "action": "grapple"})),
        "IT-59",
    ); // needs Wax On (G)
    t.ok(
        P1,
        special(json!({"special": "dig_two_graves", "action": "attack"})),
    ); // D-32: level 5 counts
    assert_eq!(t.pc("Ada").level, 5);
}

#[test]
fn it_64_belief_and_flaw_marks_erase_only_when_both_are_marked() {
    let mut s = ready_ada();
    s["marks"]["flaw"] = json!(true);
    let mut t = ended(s);
    t.ok(
        P1,
        level_up(json!({"kind": "energy", "action": "grapple"}), "veto"),
    );
    assert!(!t.pc("Ada").belief.marked && !t.pc("Ada").flaw.marked); // IT-64
}

#[test]
fn it_65_rewrites_at_session_end_and_backgrounds_only_with_the_gm() {
    let mut t = T::new(json!({"characters": [ready_ada()]}));
    let rewrite = json!({"type": "rewrite_traits", "character": "Ada", "belief": "Some people tell the truth"});
    t.refused(P1, rewrite.clone(), "IT-65"); // only at session end
    t.ok(GM, json!({"type": "end_session"}));
    t.refused(
        P1,
        json!({"type": "rewrite_traits", "character": "Ada"}),
        "IT-65",
    );
    t.ok(P1, rewrite);
    assert_eq!(t.pc("Ada").belief.text, "Some people tell the truth"); // IT-65
    let change = json!({"type": "change_background", "character": "Ada", "background": "Detective", "new_name": "Private eye"});
    t.refused(P1, change.clone(), "IT-65"); // IT-65: GM approval
    t.ok(GM, change);
    let b = &t.pc("Ada").backgrounds[0];
    assert_eq!((b.name.as_str(), b.max), ("Private eye", 2)); // IT-65
}

#[test]
fn d_19_q1_is_set_by_deciding_a_problem_with_a_trait() {
    let mut s = ready_ada();
    s["marks"]["q1"] = json!(false);
    s["marks"]["belief"] = json!(false);
    let mut t = T::new(json!({"characters": [s]}));
    t.ok(
        GM,
        json!({"type": "open_problem", "description": "The lineup"}),
    );
    t.ok(
        P1,
        json!({"type": "choose_option", "option": 3, "trait": "belief"}),
    );
    t.ok(
        P1,
        json!({"type": "narrate_outcome", "text": "Ada accuses the wrong man."}),
    );
    t.ok(GM, json!({"type": "close_problem"}));
    t.ok(GM, json!({"type": "end_session"}));
    t.ok(
        P1,
        level_up(json!({"kind": "energy", "action": "grapple"}), "veto"),
    ); // D-19: Q1 came from the problem
}

/// The level-ups a seat's list of legal commands offers.
fn offered_level_ups(t: &T, seat: clash_core::Seat) -> usize {
    use clash_core::Ruleset;
    iron_triangle::IronTriangle::legal_commands(t.state(), seat)
        .iter()
        .filter(|c| serde_json::to_value(c).unwrap()["type"] == "level_up")
        .count()
}

#[test]
fn it_60_level_ups_are_offered_only_when_they_may_be_made() {
    // IT-60: before the session ends, none; at its end, with three yeses, some (IT-62: each
    // with a refill); once levelled, none again (one level per session).
    let mut t = T::new(json!({"characters": [ready_ada(), hero("Bo", "p2")]}));
    assert_eq!(offered_level_ups(&t, P1), 0);
    t.ok(GM, json!({"type": "end_session"}));
    assert!(offered_level_ups(&t, P1) > 0);
    assert_eq!(offered_level_ups(&t, P2), 0, "Bo has no yes marks");
    t.ok(
        P1,
        level_up(json!({"kind": "energy", "action": "grapple"}), "veto"),
    );
    assert_eq!(offered_level_ups(&t, P1), 0);
}
