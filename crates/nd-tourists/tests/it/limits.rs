//! Issue 19: bounded inputs. Unknown fields are refused, sizes and texts have limits, and a
//! refusal changes nothing.

use crate::common;

use clash_core::Ruleset;
use common::*;
use nd_tourists::{Command, NdTourists, Setup};
use serde_json::{Value, json};

fn setup_refusal(setup: Value) -> Result<Option<&'static str>, String> {
    let setup: Setup = serde_json::from_value(setup).map_err(|e| e.to_string())?;
    Ok(NdTourists::setup(&setup).err().and_then(|e| e.rule()))
}

#[test]
fn unknown_command_fields_are_refused() {
    for bad in [
        json!({"type": "start", "junk": 1}),
        json!({"type": "turn", "party": "TMDF"}),
        json!({"type": "next_round", "x": "y"}),
        json!({"type": "bid", "party": "TMDF", "cards": 3}),
        json!({"type": "let_it_stand", "why": "no"}),
        json!({"type": "cover", "card": "XX", "cite": {"aspect": "Bold", "junk": 1}}),
    ] {
        assert!(
            serde_json::from_value::<Command>(bad.clone()).is_err(),
            "{bad} was read"
        );
    }
}

#[test]
fn unknown_setup_fields_and_empty_setups_are_refused() {
    let mut p = tmdf();
    p["characters"][0]["power"] = json!(9);
    assert!(setup_refusal(json!({"parties": [p, levinulon()]})).is_err());
    let mut p = tmdf();
    p["characters"][0]["aspects"] = json!([{"name": "Bold", "colour": "red"}]);
    assert!(setup_refusal(json!({"parties": [p, levinulon()]})).is_err());
    let mut p = tmdf();
    p["characters"][0]["reserve"] = json!([{"card": "XX", "face": "up"}]);
    assert!(setup_refusal(json!({"parties": [p, levinulon()]})).is_err());
    assert!(setup_refusal(json!({"parties": [tmdf(), levinulon()], "deck": []})).is_err());
    assert!(setup_refusal(json!({})).is_err());
    assert!(setup_refusal(json!([])).is_err());
    assert_eq!(setup_refusal(json!({"parties": []})), Ok(Some("ND-5")));
    let mut empty = tmdf();
    empty["characters"] = json!([]);
    assert_eq!(
        setup_refusal(json!({"parties": [empty, levinulon()]})),
        Ok(Some("ND-5"))
    );
}

#[test]
fn setup_sizes_and_texts_are_limited() {
    let limit = Ok(Some(nd_tourists::limits::LIMIT));
    let long = "x".repeat(60_000);
    let mut p = tmdf();
    p["name"] = json!(long);
    assert_eq!(setup_refusal(json!({"parties": [p, levinulon()]})), limit);
    let mut p = tmdf();
    p["goal"] = json!(long);
    assert_eq!(setup_refusal(json!({"parties": [p, levinulon()]})), limit);
    let mut p = tmdf();
    p["characters"][0]["aspects"] = json!([long]);
    assert_eq!(setup_refusal(json!({"parties": [p, levinulon()]})), limit);
    let many: Vec<Value> = (0..17)
        .map(|i| plain(&format!("Side {i}"), "gm", 5))
        .collect();
    assert_eq!(setup_refusal(json!({"parties": many})), limit);
    let mut crowd = tmdf();
    crowd["characters"] = json!((0..17)
        .map(|i| json!({"name": format!("Pilot {i}"), "attribute": {"name": "Paper", "value": 3}}))
        .collect::<Vec<_>>());
    assert_eq!(
        setup_refusal(json!({"parties": [crowd, levinulon()]})),
        limit
    );
    let mut lev = levinulon();
    lev["reserve_draws"] = json!(200);
    assert_eq!(setup_refusal(json!({"parties": [tmdf(), lev]})), limit);
    let mut twins = tmdf();
    twins["characters"] = json!([
        {"name": "Ann", "attribute": {"name": "Paper", "value": 3}},
        {"name": "ann", "attribute": {"name": "Rock", "value": 3}}
    ]);
    assert_eq!(
        setup_refusal(json!({"parties": [twins, levinulon()]})),
        Ok(Some("ND-28"))
    );
}

#[test]
fn long_texts_in_commands_are_refused_and_change_nothing() {
    let mut t = Table::new(json!({"parties": [levinulon(), tmdf()]}));
    t.ok(gm(), json!({"type": "start"}), &["Rock Lover↑"]);
    let long = "x".repeat(60_000);
    let limit = nd_tourists::limits::LIMIT;
    t.refused(
        p(1),
        json!({"type": "declare_tactics", "text": long}),
        limit,
    );
    t.refused(p(1), json!({"type": "bid", "party": long}), limit);
    t.refused(p(1), json!({"type": "bid", "character": long}), limit);
    t.bid(p(1), "XVI↑");
    t.ok(gm(), json!({"type": "let_it_stand"}), &[]);
    t.refused(
        gm(),
        json!({"type": "cover", "card": "Rock Lover", "cite": {"aspect": long}, "accepted": true}),
        limit,
    );
}
