//! Rests after a conflict (IT-31, D-14, D-15, IT-30, TV-13's rests).

use crate::campaign_support;

use campaign_support::*;
use clash_core::{Ruleset, Seat};
use iron_triangle::{Event, IronTriangle, PerAction, campaign::CampaignEvent};
use serde_json::{Value, json};

/// TV-13's Ada: max 3/2/5, current 0/0/1, after a conflict.
pub fn tired_ada() -> Value {
    let mut s = ada("p1");
    s["established"] = json!(true);
    s["current"] = json!({"defend": 0, "grapple": 0, "attack": 1});
    s
}

fn after_conflict(extra: Value) -> T {
    let mut campaign = json!({"rest_due": true});
    if let (Some(c), Some(e)) = (campaign.as_object_mut(), extra.as_object()) {
        c.extend(e.clone());
    }
    T::new(json!({"characters": [tired_ada(), hero("Bo", "p2")], "campaign": campaign}))
}

fn current(t: &T, name: &str) -> PerAction<u32> {
    t.pc(name).energy.current
}

#[test]
fn tv_13_a_short_rest_refills_the_lowest_max_type() {
    let mut t = after_conflict(json!({}));
    // Bo's maxes 4/3/3 tie between Grapple and Attack: his player picks (IT-31).
    t.refused(P1, json!({"type": "rest", "kind": "short_rest"}), "IT-31");
    t.refused(
        P1,
        json!({"type": "rest", "kind": "short_rest", "picks": {"Bo": "defend"}}),
        "IT-31",
    ); // not lowest
    t.ok(
        P1,
        json!({"type": "rest", "kind": "short_rest", "picks": {"Bo": "attack"}}),
    );
    assert_eq!(
        current(&t, "Ada"),
        PerAction {
            defend: 0,
            grapple: 2,
            attack: 1
        }
    ); // TV-13: G to 2
}

#[test]
fn tv_13_a_full_rest_refills_everything_and_refreshes_specials() {
    let mut s = tired_ada();
    s["level"] = json!(1);
    s["specials"] = json!([{"special": "scouter"}]);
    let mut t = T::new(json!({"characters": [s], "campaign": {"rest_due": true}}));
    // Spend the special the way a conflict would (the conflict module does this in play).
    let mut table = t.state().clone();
    table.characters[0].specials[0].spent = true;
    let events = t.ok(P1, json!({"type": "rest", "kind": "full_rest"}));
    for e in &events {
        IronTriangle::apply(&mut table, e);
    }
    assert_eq!(
        current(&t, "Ada"),
        PerAction {
            defend: 3,
            grapple: 2,
            attack: 5
        }
    ); // TV-13: 3/2/5
    assert!(!table.characters[0].specials[0].spent); // IT-31, IT-53: specials refresh on a full rest
}

#[test]
fn d_14_a_breather_gives_one_energy_in_the_players_chosen_type() {
    let mut t = after_conflict(json!({}));
    t.refused(
        P1,
        json!({"type": "rest", "kind": "breather", "picks": {"Ada": "defend"}}),
        "D-14",
    ); // Bo needs a pick
    t.ok(
        P2,
        json!({"type": "rest", "kind": "breather", "picks": {"Ada": "defend", "Bo": "attack"}}),
    );
    assert_eq!(
        current(&t, "Ada"),
        PerAction {
            defend: 1,
            grapple: 0,
            attack: 1
        }
    ); // D-14
    assert_eq!(
        current(&t, "Bo"),
        PerAction {
            defend: 4,
            grapple: 3,
            attack: 3
        }
    ); // D-14: capped at max
}

#[test]
fn it_31_at_most_one_rest_after_a_conflict() {
    let mut t = T::new(json!({"characters": [tired_ada()]}));
    t.refused(P1, json!({"type": "rest", "kind": "full_rest"}), "IT-31"); // no conflict has ended
    let mut t = after_conflict(json!({}));
    t.refused(GM, json!({"type": "rest", "kind": "full_rest"}), "IT-31"); // the players pick
    t.refused(
        P1,
        json!({"type": "rest", "kind": "full_rest", "picks": {"Boss": "defend"}}),
        "IT-31",
    );
    t.ok(P1, json!({"type": "rest", "kind": "full_rest"}));
    t.refused(
        P1,
        json!({"type": "rest", "kind": "breather", "picks": {"Ada": "defend", "Bo": "defend"}}),
        "IT-31",
    ); // one rest
}

#[test]
fn d_15_no_second_breather_or_short_rest_until_a_full_rest() {
    let mut t = after_conflict(json!({"breather_used": true, "short_rest_used": true}));
    t.refused(
        P1,
        json!({"type": "rest", "kind": "breather", "picks": {"Ada": "defend", "Bo": "defend"}}),
        "D-15",
    ); // D-15
    t.refused(
        P1,
        json!({"type": "rest", "kind": "short_rest", "picks": {"Bo": "attack"}}),
        "D-15",
    ); // D-15
    t.ok(P1, json!({"type": "rest", "kind": "full_rest"}));
    let r = t.state().campaign.rests;
    assert!(!r.breather_used && !r.short_rest_used && !r.due); // D-15: per party, reset by a full rest
}

#[test]
fn it_31_the_gm_may_mark_a_countdown_on_a_full_rest() {
    let mut t = T::new(
        json!({"characters": [tired_ada()], "countdowns": [{"name": "Cult", "boxes": 4}], "campaign": {"rest_due": true}}),
    );
    t.ok(P1, json!({"type": "rest", "kind": "full_rest"}));
    t.ok(GM, json!({"type": "mark_countdown", "name": "Cult"}));
    assert_eq!(t.state().campaign.countdowns[0].marked, 1); // IT-31
}

#[test]
fn d_15_npc_recovery_is_up_to_the_gm() {
    let mut npc = hero("Boss", "gm");
    npc["established"] = json!(true);
    npc["current"] = json!({"defend": 0, "grapple": 0, "attack": 0});
    let mut t = T::new(json!({"characters": [tired_ada(), npc], "campaign": {"rest_due": true}}));
    t.ok(P1, json!({"type": "rest", "kind": "full_rest"}));
    assert_eq!(
        current(&t, "Boss"),
        PerAction {
            defend: 0,
            grapple: 0,
            attack: 0
        }
    ); // D-15: PCs only
    let cmd = json!({"type": "recover_npc", "character": "Boss", "current": {"defend": 2, "grapple": 3, "attack": 3}});
    t.refused(P1, cmd.clone(), "D-15");
    t.refused(GM, json!({"type": "recover_npc", "character": "Boss", "current": {"defend": 9, "grapple": 0, "attack": 0}}), "IT-9");
    t.ok(GM, cmd);
    assert_eq!(
        current(&t, "Boss"),
        PerAction {
            defend: 2,
            grapple: 3,
            attack: 3
        }
    ); // D-15
    assert_eq!(Seat::Gm, t.pc("Boss").controller);
}

#[test]
fn it_30_resting_is_not_a_meaningful_change() {
    let mut t = after_conflict(json!({}));
    let events = t.ok(P1, json!({"type": "rest", "kind": "full_rest"}));
    let Event::Campaign(e @ CampaignEvent::Rested { .. }) = &events[0] else {
        panic!("a rest")
    };
    // IT-30 is narrative: the engine says so when the party rests.
    assert!(
        iron_triangle::campaign::narrate(t.state(), e)
            .contains("Resting does not make a lost conflict worth repeating")
    ); // IT-30
}

#[test]
fn it_30_a_rest_after_a_won_conflict_does_not_speak_of_a_lost_one() {
    let mut npc = hero("Boss", "gm");
    npc["established"] = json!(true);
    let rest_after = |winner: Option<iron_triangle::conflict::Side>| {
        let mut t = T::new(json!({"characters": [tired_ada(), hero("Bo", "p2"), npc.clone()]}));
        t.ok(
            GM,
            json!({"type": "start_conflict", "stakes": "The docks", "npcs": ["Boss"]}),
        );
        t.ok(
            GM,
            json!({"type": "settle_conflict", "outcome": "It ends."}),
        );
        t.edit(|table| {
            if let Some(o) = table.conflict.as_mut().and_then(|c| c.outcome.as_mut()) {
                o.winner = winner;
            }
        });
        let events = t.ok(P1, json!({"type": "rest", "kind": "full_rest"}));
        let Event::Campaign(e @ CampaignEvent::Rested { .. }) = &events[0] else {
            panic!("a rest")
        };
        iron_triangle::campaign::narrate(t.state(), e)
    };
    let note = "Resting does not make a lost conflict worth repeating";
    // IT-30 is about a lost conflict: after the players' win it is not said.
    assert!(!rest_after(Some(iron_triangle::conflict::Side::Players)).contains(note)); // IT-30
    assert!(rest_after(Some(iron_triangle::conflict::Side::Gm)).contains(note)); // IT-30
    assert!(rest_after(None).contains(note)); // IT-30
}

#[test]
fn it_31_the_end_of_a_conflict_lets_the_party_rest() {
    let mut npc = hero("Boss", "gm");
    npc["established"] = json!(true);
    let mut t = T::new(json!({"characters": [tired_ada(), hero("Bo", "p2"), npc]}));
    t.refused(P1, json!({"type": "rest", "kind": "full_rest"}), "IT-31"); // no conflict yet
    t.ok(
        GM,
        json!({"type": "start_conflict", "stakes": "The docks", "npcs": ["Boss"]}),
    );
    t.refused(P1, json!({"type": "rest", "kind": "full_rest"}), "IT-31"); // not during a conflict
    t.refused(GM, json!({"type": "end_session"}), "IT-60"); // nor does the session end mid-conflict
    t.ok(GM, json!({"type": "settle_conflict", "outcome": "The players refuse; the Boss takes the docks."}));
    assert!(t.state().campaign.rests.due); // IT-31: the conflict is over
    t.ok(P1, json!({"type": "rest", "kind": "full_rest"}));
    assert_eq!(t.replayed(), *t.state()); // replay reaches the same table
}
