//! Countdowns (IT-13, IT-14).

use crate::campaign_support;

use campaign_support::*;
use clash_core::Viewer;
use serde_json::json;

#[test]
fn it_13_a_countdown_has_a_unique_name_and_4_to_8_boxes() {
    let mut t = T::three();
    t.refused(
        GM,
        json!({"type": "create_countdown", "name": "Flood", "boxes": 3}),
        "IT-13",
    ); // IT-13
    t.refused(
        GM,
        json!({"type": "create_countdown", "name": "Flood", "boxes": 9}),
        "IT-13",
    ); // IT-13
    t.refused(
        GM,
        json!({"type": "create_countdown", "name": " ", "boxes": 4}),
        "IT-13",
    );
    t.refused(
        P1,
        json!({"type": "create_countdown", "name": "Flood", "boxes": 4}),
        "IT-13",
    ); // the GM's tool
    t.ok(
        GM,
        json!({"type": "create_countdown", "name": "Flood", "boxes": 4}),
    );
    t.ok(
        GM,
        json!({"type": "create_countdown", "name": "Cult", "boxes": 8}),
    );
    t.refused(
        GM,
        json!({"type": "create_countdown", "name": "Flood", "boxes": 5}),
        "IT-13",
    ); // unique
}

#[test]
fn it_13_the_gm_marks_one_box_at_a_time_visible_to_players() {
    let mut t =
        T::new(json!({"characters": [ada("p1")], "countdowns": [{"name": "Flood", "boxes": 4}]}));
    t.refused(
        P1,
        json!({"type": "mark_countdown", "name": "Flood"}),
        "IT-13",
    ); // only the GM
    t.refused(
        GM,
        json!({"type": "mark_countdown", "name": "Fire"}),
        "IT-13",
    );
    t.ok(GM, json!({"type": "mark_countdown", "name": "Flood"}));
    assert_eq!(t.state().campaign.countdowns[0].marked, 1); // IT-13: one box
    assert_eq!(
        t.view(Viewer::Seat(P1))["campaign"]["countdowns"][0]["marked"],
        1
    ); // IT-13: visible to players
    assert_eq!(
        t.view(Viewer::Spectator)["campaign"]["countdowns"][0]["boxes"],
        4
    );
}

#[test]
fn it_14_full_countdowns_bring_consequences_the_gm_narrates() {
    let mut t = T::new(
        json!({"characters": [ada("p1")], "countdowns": [{"name": "Flood", "boxes": 4, "marked": 3}]}),
    );
    t.refused(
        GM,
        json!({"type": "narrate_countdown", "name": "Flood", "consequences": "x"}),
        "IT-14",
    ); // not full
    t.ok(GM, json!({"type": "mark_countdown", "name": "Flood"}));
    t.refused(
        GM,
        json!({"type": "mark_countdown", "name": "Flood"}),
        "IT-14",
    ); // every box is marked
    t.refused(
        P1,
        json!({"type": "narrate_countdown", "name": "Flood", "consequences": "x"}),
        "IT-14",
    ); // the GM narrates
    t.ok(GM, json!({"type": "narrate_countdown", "name": "Flood", "consequences": "The lower city drowns."}));
    assert_eq!(
        t.view(Viewer::Seat(P1))["campaign"]["countdowns"][0]["consequences"],
        "The lower city drowns."
    ); // IT-14
    assert!(!t.pc("Ada").dead); // IT-14: never PC death
    t.refused(
        GM,
        json!({"type": "narrate_countdown", "name": "Flood", "consequences": "again"}),
        "IT-14",
    );
}

#[test]
fn it_14_a_stopped_threat_is_erased() {
    let mut t = T::new(
        json!({"characters": [ada("p1")], "countdowns": [{"name": "Cult", "boxes": 6, "marked": 2}]}),
    );
    t.refused(
        P1,
        json!({"type": "erase_countdown", "name": "Cult"}),
        "IT-14",
    );
    t.ok(GM, json!({"type": "erase_countdown", "name": "Cult"}));
    assert!(t.state().campaign.countdowns.is_empty()); // IT-14
    t.refused(
        GM,
        json!({"type": "mark_countdown", "name": "Cult"}),
        "IT-13",
    );
}

#[test]
fn it_13_setup_countdowns_are_checked() {
    use clash_core::Ruleset;
    use iron_triangle::{IronTriangle, Setup};
    let bad: Setup =
        serde_json::from_value(json!({"countdowns": [{"name": "A", "boxes": 2}]})).unwrap();
    assert_eq!(IronTriangle::setup(&bad).unwrap_err().rule(), Some("IT-13")); // IT-13
    let twice: Setup = serde_json::from_value(
        json!({"countdowns": [{"name": "A", "boxes": 4}, {"name": "A", "boxes": 5}]}),
    )
    .unwrap();
    assert_eq!(
        IronTriangle::setup(&twice).unwrap_err().rule(),
        Some("IT-13")
    ); // IT-13: unique names
    let over: Setup =
        serde_json::from_value(json!({"countdowns": [{"name": "A", "boxes": 4, "marked": 5}]}))
            .unwrap();
    assert_eq!(
        IronTriangle::setup(&over).unwrap_err().rule(),
        Some("IT-13")
    );
}
