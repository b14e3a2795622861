//! Issue 19: bounded inputs. Unknown fields are refused, sizes and texts have limits, and a
//! refusal changes nothing.

use crate::common;

use clash_core::Ruleset;
use common::*;
use serde_json::{Value, json};
use wicked_age::limits::LIMIT;
use wicked_age::{Command, Setup, WickedAge};

fn setup_refusal(setup: Value) -> Result<Option<&'static str>, String> {
    let setup: Setup = serde_json::from_value(setup).map_err(|e| e.to_string())?;
    Ok(WickedAge::setup(&setup).err().and_then(|e| e.rule()))
}

#[test]
fn unknown_command_fields_are_refused() {
    for bad in [
        json!({"type": "end_chapter", "now": true}),
        json!({"type": "roll_initiative", "character": "Ysolde", "forms": ["covertly", "directly"], "luck": 1}),
        json!({"type": "challenge", "character": "Oren", "target": "Ysolde", "junk": "x"}),
        json!({"type": "propose_alternative", "loser": "Ysolde", "terms": "x", "costs": [{"type": "death", "slowly": true}]}),
        json!({"type": "propose_alternative", "loser": "Ysolde", "terms": "x", "price": 3}),
        json!({"type": "bring_back", "character": "Oren", "by": "p2"}),
    ] {
        assert!(
            serde_json::from_value::<Command>(bad.clone()).is_err(),
            "{bad} was read"
        );
    }
}

#[test]
fn unknown_setup_fields_and_empty_setups_are_refused() {
    let mut y = ysolde();
    y["charisma"] = json!(3);
    assert!(setup_refusal(json!({"characters": [y]})).is_err());
    let mut y = ysolde();
    y["forms"]["luck"] = json!(6);
    assert!(setup_refusal(json!({"characters": [y]})).is_err());
    let mut y = ysolde();
    y["strengths"][0]["significance"] = json!([{"type": "unique", "very": true}]);
    assert!(setup_refusal(json!({"characters": [y]})).is_err());
    assert!(setup_refusal(json!({"characters": [ysolde()], "weather": "rain"})).is_err());
    assert!(setup_refusal(json!({"characters": [ysolde()], "owe_list": [{"character": "Ysolde", "player": "p1", "x": 1}]})).is_err());
    assert!(setup_refusal(json!({})).is_err());
    assert!(setup_refusal(json!([])).is_err());
    assert_eq!(setup_refusal(json!({"characters": []})), Ok(Some("WA-19")));
    // A number where a seat belongs, or an NPC's forms on a PC, is an error, not a default.
    let mut y = ysolde();
    y["seat"] = json!(1);
    assert!(setup_refusal(json!({"characters": [y]})).is_err());
    let mut y = ysolde();
    y["forms"] = khan()["forms"].clone();
    assert_eq!(setup_refusal(json!({"characters": [y]})), Ok(Some("WA-2")));
}

#[test]
fn setup_sizes_and_texts_are_limited() {
    let limit = Ok(Some(LIMIT));
    let long = "x".repeat(60_000);
    let mut y = ysolde();
    y["name"] = json!(long);
    assert_eq!(setup_refusal(json!({"characters": [y]})), limit);
    let mut y = ysolde();
    y["description"] = json!(long);
    assert_eq!(setup_refusal(json!({"characters": [y]})), limit);
    let mut y = ysolde();
    y["best_interests"] = json!(["a", long]);
    assert_eq!(setup_refusal(json!({"characters": [y]})), limit);
    // The review's 590 NPCs: refused, the limit is 100 characters.
    let crowd: Vec<Value> = (0..590)
        .map(|i| {
            let mut k = khan();
            k["name"] = json!(format!("Bandit {i}"));
            k["strengths"] = json!([]);
            k
        })
        .collect();
    assert_eq!(setup_refusal(json!({"characters": crowd})), limit);
    assert_eq!(
        setup_refusal(json!({"characters": [ysolde()], "chapter": 4_000_000_000u32})),
        limit
    );
}

#[test]
fn long_texts_in_commands_are_refused_and_change_nothing() {
    let mut g = game(&[ysolde(), oren(), khan()]);
    let long = "x".repeat(60_000);
    refused(
        &mut g,
        "gm",
        json!({"type": "start_conflict", "participants": ["Ysolde", "Oren"], "action": long}),
        &[],
        LIMIT,
    );
    refused(
        &mut g,
        "gm",
        json!({"type": "start_conflict", "participants": [long, "Oren"]}),
        &[],
        LIMIT,
    );
    let many: Vec<String> = (0..17).map(|i| format!("Nobody {i}")).collect();
    refused(
        &mut g,
        "gm",
        json!({"type": "start_conflict", "participants": many}),
        &[],
        LIMIT,
    );
    start(&mut g, &["The Khan", "Ysolde"]);
    refused(
        &mut g,
        "p1",
        json!({"type": "roll_initiative", "character": "Ysolde", "forms": ["covertly", "directly"], "strength": long}),
        &[],
        LIMIT,
    );
}
