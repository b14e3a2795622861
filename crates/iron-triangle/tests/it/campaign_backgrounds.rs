//! Backgrounds are known by their names (IT-10): a name is listed once on a sheet, wherever the
//! sheet comes from, and option 2's point (IT-16, IT-18), the refill (IT-62) and a rename
//! (IT-65) find a background by its name, letter case and surrounding spaces aside.

use crate::campaign_support;

use campaign_support::*;
use clash_core::Ruleset;
use iron_triangle::{Event, IronTriangle, Setup, campaign::CampaignEvent, campaign::Payment};
use serde_json::{Value, json};

/// Bo from the shared helpers (Sailor 2, Cook 1) with his backgrounds replaced.
fn bo_with(backgrounds: Value) -> Value {
    let mut s = hero("Bo", "p1");
    s["backgrounds"] = backgrounds;
    s
}

/// The current and max points of `name` on Bo's sheet, looked up exactly.
fn points(t: &T, name: &str) -> (u32, u32) {
    let b = t
        .pc("Bo")
        .backgrounds
        .iter()
        .find(|b| b.name == name)
        .unwrap_or_else(|| panic!("Bo has no background {name}"));
    (b.current, b.max)
}

/// Open a problem that Bo, the only player, settles with option 2 paid from `background`.
fn pay_with_option_2(t: &mut T, problem: &str, background: &str) -> Vec<Event> {
    t.ok(GM, json!({"type": "open_problem", "description": problem}));
    t.ok(P1, json!({"type": "choose_option", "option": 2}));
    let events = t.ok(
        P1,
        json!({"type": "narrate_outcome", "text": "Bo calls in a favour.", "background": background}),
    );
    t.ok(GM, json!({"type": "close_problem"}));
    events
}

fn paid_from(events: &[Event]) -> Option<String> {
    events.iter().find_map(|e| match e {
        Event::Campaign(CampaignEvent::OutcomeNarrated {
            payment: Payment::Point { background, .. },
            ..
        }) => Some(background.clone()),
        _ => None,
    })
}

#[test]
fn it_10_it_16_it_62_a_repeated_background_is_refused_and_points_go_by_name() {
    let mut t = T::new(json!({"players": ["p1"]}));
    // IT-10: "Sailor 2" and "Sailor 1" would be 3 points in one background.
    let twice = bo_with(json!([{"name": "Sailor", "points": 2}, {"name": "Sailor", "points": 1}]));
    t.refused(
        P1,
        json!({"type": "create_character", "sheet": twice}),
        "IT-10",
    );
    let alike =
        bo_with(json!([{"name": "Sailor", "points": 2}, {"name": " sailor ", "points": 1}]));
    let refusal = t
        .try_cmd(P1, json!({"type": "create_character", "sheet": alike}))
        .unwrap_err();
    assert_eq!(refusal.rule(), Some("IT-10")); // IT-10: case and spaces aside, one name
    assert_eq!(
        refusal.reason(),
        "“Sailor” and “sailor” are the same background: write each background once, with all its points (at most 2)"
    ); // IT-10, in a player's words
    t.made(
        P1,
        json!({"type": "create_character", "sheet": hero("Bo", "p1")}),
    );

    // IT-18: the point comes from the background named, however it is written.
    let first = pay_with_option_2(&mut t, "The harbour master", " sailor ");
    assert_eq!(paid_from(&first).as_deref(), Some("Sailor")); // the sheet's spelling
    pay_with_option_2(&mut t, "The customs boat", "SAILOR");
    assert_eq!(points(&t, "Sailor"), (0, 2)); // IT-18: two points spent from Sailor
    assert_eq!(t.pc("Bo").background_points(), 1);

    // IT-16: Cook's point keeps option 2 open, but Sailor has nothing left to pay with.
    t.ok(
        GM,
        json!({"type": "open_problem", "description": "The cook's guild"}),
    );
    t.ok(P1, json!({"type": "choose_option", "option": 2}));
    t.refused(
        P1,
        json!({"type": "narrate_outcome", "text": "x", "background": "Sailor"}),
        "IT-16",
    ); // IT-16
    t.ok(
        P1,
        json!({"type": "narrate_outcome", "text": "Bo cooks for them.", "background": "cook"}),
    );
    t.ok(GM, json!({"type": "close_problem"}));
    assert_eq!(
        (points(&t, "Cook"), t.pc("Bo").background_points()),
        ((0, 1), 0)
    );

    // Three yes marks, then the background refill (IT-60, IT-62).
    t.ok(
        GM,
        json!({"type": "open_problem", "description": "The storm"}),
    );
    t.ok(
        P1,
        json!({"type": "choose_option", "option": 3, "trait": "belief"}),
    );
    t.ok(
        P1,
        json!({"type": "narrate_outcome", "text": "The sea provides, and takes the mast."}),
    );
    t.ok(GM, json!({"type": "close_problem"}));
    t.ok(
        P1,
        json!({"type": "mark_goal", "character": "Bo", "achieved": true}),
    );
    // IT-52: as a conflict taking Bo's Grapple to 0 would.
    t.edit(|table| table.character_mut("Bo").unwrap().marks.zero.grapple = true);
    t.ok(GM, json!({"type": "end_session"}));
    t.ok(
        P1,
        json!({"type": "level_up", "character": "Bo", "improvement": {"kind": "energy", "action": "grapple"}, "refill": "background_points"}),
    );
    assert_eq!((points(&t, "Sailor"), points(&t, "Cook")), ((2, 2), (1, 1))); // IT-62
    assert_eq!(t.pc("Bo").backgrounds.len(), 2); // IT-10: still one entry per name
    t.ok(GM, json!({"type": "start_session"}));
    pay_with_option_2(&mut t, "The harbour master's cousin", "sailor");
    assert_eq!(points(&t, "Sailor"), (1, 2)); // IT-18, by name after the refill
}

#[test]
fn it_10_a_setup_or_position_may_not_list_a_background_twice() {
    let mut sheet = bo_with(
        json!([{"name": "Sailor", "points": 1, "current": 0}, {"name": "SAILOR", "points": 1}]),
    );
    sheet["established"] = json!(true);
    let setup: Setup = serde_json::from_value(json!({"characters": [sheet]})).unwrap();
    let refusal = IronTriangle::setup(&setup).unwrap_err();
    assert_eq!(refusal.rule(), Some("IT-10")); // IT-10: a position is checked like a new sheet
    assert!(refusal.reason().contains("same background"), "{refusal}");
}

#[test]
fn it_16_it_21_a_background_held_twice_before_names_were_compared_still_pays() {
    // A table stored before this check may hold "Sailor" twice, the first entry spent: the
    // name's point is found in the other entry, and a veto gives it back to the name.
    let mut t = T::new(json!({"characters": [hero("Bo", "p1"), ada("p2")]}));
    t.edit(|table| {
        let bo = table.character_mut("Bo").unwrap();
        bo.backgrounds[0].current = 0;
        bo.backgrounds[1].name = "Sailor".into();
    });
    t.ok(
        GM,
        json!({"type": "open_problem", "description": "The harbour master"}),
    );
    t.ok(P1, json!({"type": "choose_option", "option": 2}));
    t.ok(P2, json!({"type": "pass_problem"}));
    t.ok(
        P1,
        json!({"type": "narrate_outcome", "text": "x", "background": "Sailor"}),
    ); // IT-16
    let held: Vec<u32> = t.pc("Bo").backgrounds.iter().map(|b| b.current).collect();
    assert_eq!(held, [0, 0]); // IT-18: paid from the entry that held the point
    t.ok(P2, json!({"type": "veto", "substitute": 1}));
    let bo = t.pc("Bo");
    assert_eq!(bo.background_points(), 1); // IT-21: the vetoed point is undone
    assert!(bo.backgrounds.iter().all(|b| b.current <= b.max)); // D-18
}

#[test]
fn d_18_an_unassigned_point_joins_the_background_of_that_name() {
    let mut sheet = hero("Bo", "p1");
    sheet["established"] = json!(true);
    sheet["backgrounds"] = json!([{"name": "Sailor", "points": 1, "current": 0}]);
    let mut t = T::new(json!({"characters": [sheet]}));
    pay_with_option_2(&mut t, "The harbour master", "sAILOR");
    assert_eq!(t.pc("Bo").backgrounds.len(), 1); // IT-10: no second "sAILOR"
    assert_eq!(points(&t, "Sailor"), (0, 2)); // D-18: the point joined Sailor as it was spent
    assert_eq!(t.pc("Bo").unassigned_points, 1);
}

#[test]
fn it_65_a_rename_may_not_take_another_backgrounds_name() {
    let mut t = T::new(json!({"characters": [hero("Bo", "p1")]}));
    t.ok(GM, json!({"type": "end_session"}));
    let rename = |from: &str, to: &str| json!({"type": "change_background", "character": "Bo", "background": from, "new_name": to});
    t.refused(GM, rename("Sailor", " COOK"), "IT-10"); // IT-65 approves, IT-10 still holds
    t.refused(GM, rename("sailor", "Sailor"), "IT-65"); // nothing changes
    t.ok(GM, rename("sailor", "SAILOR")); // IT-65: found by name, its capitals fixed
    assert_eq!(points(&t, "SAILOR"), (2, 2));
    t.ok(GM, rename("cook", "Ship's cook"));
    assert_eq!(points(&t, "Ship's cook"), (1, 1)); // IT-65
}
