//! Vetoes (IT-21, D-22, TV-9's veto).

use crate::campaign_support;

use campaign_support::*;
use iron_triangle::campaign::Stage;
use serde_json::json;

/// P2 decides problem #1 with option 4 and marks the flaw; the outcome is narrated.
fn p2_fails_interestingly(t: &mut T) {
    t.ok(
        GM,
        json!({"type": "open_problem", "description": "The heist"}),
    );
    t.ok(P1, json!({"type": "choose_option", "option": 1}));
    t.ok(
        P2,
        json!({"type": "choose_option", "option": 4, "trait": "flaw"}),
    );
    t.ok(
        P2,
        json!({"type": "narrate_outcome", "text": "Bo's greed trips the alarm."}),
    );
    assert!(t.pc("Bo").flaw.marked);
    assert!(t.pc("Bo").marks.q1);
}

fn two() -> T {
    T::new(json!({"characters": [ada("p1"), hero("Bo", "p2")]}))
}

#[test]
fn tv_9_a_veto_voids_the_outcome_and_cannot_be_vetoed_back() {
    let mut t = two();
    p2_fails_interestingly(&mut t);
    t.ok(P1, json!({"type": "veto", "substitute": 1}));
    assert!(!t.pc("Bo").flaw.marked); // TV-9, IT-21: the trait mark is undone
    assert!(!t.pc("Bo").marks.q1); // D-19: so is its Q1
    assert!(!t.pc("Ada").veto); // TV-9, D-22: the veto is spent
    t.refused(P2, json!({"type": "veto", "substitute": 1}), "IT-21"); // TV-9: no veto of a veto
    t.ok(
        P1,
        json!({"type": "narrate_outcome", "text": "Ada cuts the alarm wire first."}),
    );
    assert_eq!(t.state().campaign.last_decided.get(&P1), Some(&1)); // D-22: the vetoer is the recorded decider
    assert_eq!(t.state().campaign.last_decided.get(&P2), None); // the void decision is not recorded
    t.refused(P2, json!({"type": "veto", "substitute": 1}), "IT-21"); // TV-9: still no veto back
    t.ok(GM, json!({"type": "close_problem"}));
}

#[test]
fn it_21_a_veto_comes_after_the_outcome_and_before_play_moves_on() {
    let mut t = two();
    t.ok(
        GM,
        json!({"type": "open_problem", "description": "The vault"}),
    );
    t.refused(P1, json!({"type": "veto", "substitute": 1}), "IT-21"); // nothing narrated yet
    t.ok(P1, json!({"type": "pass_problem"}));
    t.ok(P2, json!({"type": "choose_option", "option": 2}));
    t.refused(P1, json!({"type": "veto", "substitute": 1}), "IT-21"); // still not narrated
    t.ok(P2, json!({"type": "narrate_outcome", "text": "Bo knows a sailor who cracks safes.", "background": "Sailor"}));
    t.refused(P2, json!({"type": "veto", "substitute": 1}), "IT-21"); // IT-21: another player's outcome
    t.refused(P1, json!({"type": "veto", "substitute": 3}), "IT-21"); // IT-21: the substitute is a success
    t.refused(GM, json!({"type": "veto", "substitute": 1}), "IT-21"); // players veto
    t.ok(GM, json!({"type": "close_problem"}));
    t.refused(P1, json!({"type": "veto", "substitute": 1}), "IT-21"); // IT-21: play has moved on
    assert!(t.pc("Ada").veto);
}

#[test]
fn it_21_the_vetoer_may_pay_option_2_with_their_own_point() {
    let mut t = two();
    t.ok(
        GM,
        json!({"type": "open_problem", "description": "The bribe"}),
    );
    t.ok(P1, json!({"type": "pass_problem"}));
    t.ok(P2, json!({"type": "choose_option", "option": 2}));
    t.ok(
        P2,
        json!({"type": "narrate_outcome", "text": "Bo pays in fish.", "background": "Cook"}),
    );
    assert_eq!(t.pc("Bo").background_points(), 2);
    t.ok(P1, json!({"type": "veto", "substitute": 2}));
    assert_eq!(t.pc("Bo").background_points(), 3); // IT-21: the vetoed point is undone
    t.refused(P1, json!({"type": "narrate_outcome", "text": "x"}), "IT-18"); // name the background
    t.ok(P1, json!({"type": "narrate_outcome", "text": "Ada flashes her old badge.", "background": "Detective"}));
    assert_eq!(t.pc("Ada").background_points(), 2); // IT-21: the vetoer pays their own point
}

#[test]
fn it_21_the_first_declared_veto_stands_and_the_gm_picks_among_simultaneous_ones() {
    let mut t = T::three();
    t.ok(
        GM,
        json!({"type": "open_problem", "description": "The duel at dawn"}),
    );
    t.ok(P1, json!({"type": "pass_problem"}));
    t.ok(P3, json!({"type": "pass_problem"}));
    t.ok(
        P2,
        json!({"type": "choose_option", "option": 3, "trait": "belief"}),
    );
    t.ok(
        P2,
        json!({"type": "narrate_outcome", "text": "Bo wins but loses faith."}),
    );
    t.ok(P1, json!({"type": "veto", "substitute": 1}));
    t.ok(P3, json!({"type": "veto", "substitute": 1})); // declared before Ada narrates: simultaneous
    assert!(!t.pc("Cy").veto); // D-22: every declared veto is spent
    let decider = |t: &T| match &t.state().campaign.problem.as_ref().unwrap().stage {
        Stage::Narrating { decider } => decider.seat,
        other => panic!("{other:?}"),
    };
    assert_eq!(decider(&t), P1); // IT-21: the first declared stands
    t.refused(P1, json!({"type": "pick_veto", "seat": "p3"}), "IT-21"); // the GM picks
    t.ok(GM, json!({"type": "pick_veto", "seat": "p3"}));
    assert_eq!(decider(&t), P3); // IT-21: simultaneous ones: GM picks
    t.ok(
        P3,
        json!({"type": "narrate_outcome", "text": "Cy calls the duel off."}),
    );
    assert_eq!(t.state().campaign.last_decided.get(&P3), Some(&1)); // D-22
}

#[test]
fn it_21_a_used_veto_cannot_be_used_again() {
    let mut sheet = ada("p1");
    sheet["established"] = json!(true);
    sheet["marks"] = json!({"veto_used": true});
    let mut t = T::new(json!({"characters": [sheet, hero("Bo", "p2")]}));
    p2_fails_interestingly(&mut t);
    t.refused(P1, json!({"type": "veto", "substitute": 1}), "IT-21"); // IT-11: one veto, used
}

#[test]
fn it_21_a_vetoer_narration_judged_outside_the_rules_is_narrated_again() {
    let mut t = two();
    p2_fails_interestingly(&mut t);
    t.ok(P1, json!({"type": "veto", "substitute": 1}));
    t.ok(
        P1,
        json!({"type": "narrate_outcome", "text": "Ada teleports."}),
    );
    t.ok(
        GM,
        json!({"type": "reject_narration", "reason": "No magic here."}),
    ); // IT-19
    t.ok(
        P1,
        json!({"type": "narrate_outcome", "text": "Ada cuts the wire."}),
    );
    assert!(!t.pc("Bo").flaw.marked); // IT-21: the vetoed outcome stays void
}
