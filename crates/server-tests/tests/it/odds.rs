//! Odds in play: off until the GM switches them on, the switch is a table event in the log (so it
//! survives a restart, is in the table's record and verifies with it), and the odds a seat is
//! shown come from its own view only — two tables that differ only in another seat's secret show
//! it exactly the same odds.

use axum::http::StatusCode;
use serde_json::{Value, json};

use crate::client::*;

fn open(dir: &tempfile::TempDir) -> axum::Router {
    let tables =
        clash_server::open(&dir.path().join("clash.db"), clash_catalogue::rulesets()).unwrap();
    clash_server::app(tables)
}

/// An Iron Triangle table from the two-player preset, with a link for each player.
struct Table {
    id: String,
    owner: String,
    p1: String,
    p2: String,
}

async fn table(app: &axum::Router) -> Table {
    let entry = clash_catalogue::find("iron-triangle").unwrap();
    let setup: Value = serde_json::from_str(entry.presets[0].setup).unwrap();
    let (status, created) = api(
        app,
        routes::CREATE_TABLE.at([]).json(&CreateTable {
            ruleset: Some(String::from("iron-triangle")),
            setup: Some(json!(setup)),
            ..CreateTable::default()
        }),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    let id = created["table"].as_str().unwrap().to_string();
    let owner = created["owner_key"].as_str().unwrap().to_string();
    let mut keys = Vec::new();
    for seat in ["p1", "p2"] {
        // The GM invites, the player claims the invite for a key of their own.
        let (status, link) = api(
            app,
            routes::ISSUE_LINK
                .at([&id, seat])
                .key(&owner)
                .json(&LinkBody { npc: false }),
        )
        .await;
        assert_eq!(status, StatusCode::CREATED, "{link}");
        let invite = link["invite"].as_str().unwrap();
        let (status, claimed) = api(app, routes::CLAIM.at([&id]).key(invite)).await;
        assert_eq!(status, StatusCode::CREATED, "{claimed}");
        keys.push(claimed["key"].as_str().unwrap().to_string());
    }
    Table {
        id,
        owner,
        p2: keys.pop().unwrap(),
        p1: keys.pop().unwrap(),
    }
}

async fn send(app: &axum::Router, t: &Table, key: &str, command: Value) {
    let (status, body) = api(
        app,
        routes::COMMAND
            .at([&t.id])
            .key(key)
            .json(&CommandBody::of(json!(command))),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{command} → {body}");
}

async fn odds(app: &axum::Router, t: &Table, key: &str) -> Value {
    let (status, body) = api(app, routes::ODDS.at([&t.id]).key(key)).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    body
}

async fn switch(app: &axum::Router, t: &Table, key: &str, on: bool) -> StatusCode {
    call_json(
        app,
        "PUT",
        &routes::ODDS.at([&t.id]).key(key),
        Some(json!({ "enabled": on })),
    )
    .await
    .0
}

/// Up to the secret stances of the first turn: Ada against the GM's Brute (IT-32).
async fn to_stances(app: &axum::Router, t: &Table) {
    send(
        app,
        t,
        &t.owner,
        json!({ "type": "start_conflict", "stakes": "The ledger", "npcs": ["Brute"] }),
    )
    .await;
    send(
        app,
        t,
        &t.p1,
        json!({ "type": "join_conflict", "character": "Ada" }),
    )
    .await;
    send(
        app,
        t,
        &t.p2,
        json!({ "type": "join_conflict", "character": "Bo" }),
    )
    .await;
    send(
        app,
        t,
        &t.p1,
        json!({ "type": "pick_active", "character": "Ada" }),
    )
    .await;
    send(
        app,
        t,
        &t.p1,
        json!({ "type": "pick_opponent", "opponent": "Brute" }),
    )
    .await;
}

#[tokio::test]
async fn odds_are_off_until_the_gm_switches_them_on_and_stay_on_after_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let app = open(&dir);
    let t = table(&app).await;
    to_stances(&app, &t).await;
    assert_eq!(
        odds(&app, &t, &t.p1).await,
        json!({ "enabled": false, "odds": null })
    );
    assert_eq!(
        switch(&app, &t, &t.p1, true).await,
        StatusCode::FORBIDDEN,
        "a player cannot switch"
    );
    assert_eq!(odds(&app, &t, &t.p1).await["enabled"], false);
    assert_eq!(switch(&app, &t, &t.owner, true).await, StatusCode::OK);
    let shown = odds(&app, &t, &t.p1).await;
    assert_eq!(shown["enabled"], true);
    assert_eq!(shown["odds"]["fighter"], "Ada");
    assert_eq!(shown["odds"]["step"], "stances");
    // The stance mix is a probability distribution.
    let total: f64 = shown["odds"]["stances"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["probability"]["decimal"].as_f64().unwrap())
        .sum();
    assert!((total - 1.0).abs() < 1e-9, "the mix adds up to {total}");
    // IT-32: the turn is a duel Ada wins, loses or ties. The odds give the chances to win and to
    // lose (not a score), and what the turn is worth is exactly the one less the other.
    let chance = |k: &str| shown["odds"][k]["decimal"].as_f64().unwrap();
    let (win, lose, value) = (chance("win"), chance("lose"), chance("value"));
    assert!((0.0..=1.0).contains(&win) && (0.0..=1.0).contains(&lose) && win + lose <= 1.0 + 1e-9);
    assert!(
        (win - lose - value).abs() < 1e-9,
        "win {win} lose {lose} value {value}"
    );
    // Bo sits this turn out: nothing bears on his player's choice.
    assert_eq!(odds(&app, &t, &t.p2).await["odds"], Value::Null);
    drop(app);

    let app = open(&dir);
    assert_eq!(
        odds(&app, &t, &t.p1).await,
        shown,
        "the switch and the odds survive a restart"
    );
    assert_eq!(switch(&app, &t, &t.owner, false).await, StatusCode::OK);
    assert_eq!(odds(&app, &t, &t.p1).await["enabled"], false);
}

/// The switches of a table, in order, as its record tells them.
fn switches_in(record: &Value) -> Vec<Value> {
    record["entries"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["entry"]["event"]["type"] == "odds_switched")
        .map(|e| e["entry"]["event"]["enabled"].clone())
        .collect()
}

async fn record(app: &axum::Router, t: &Table, key: &str) -> Value {
    let (status, doc) = api(app, routes::EXPORT.at([&t.id]).key(key)).await;
    assert_eq!(status, StatusCode::OK, "{doc}");
    doc
}

#[tokio::test]
async fn the_switch_is_a_table_event_in_the_log_that_replays_and_verifies() {
    let dir = tempfile::tempdir().unwrap();
    let app = open(&dir);
    let t = table(&app).await;
    assert_eq!(switch(&app, &t, &t.owner, true).await, StatusCode::OK);
    assert_eq!(
        switch(&app, &t, &t.owner, true).await,
        StatusCode::OK,
        "switching on what is on changes nothing"
    );
    to_stances(&app, &t).await;
    assert_eq!(switch(&app, &t, &t.owner, false).await, StatusCode::OK);
    assert_eq!(switch(&app, &t, &t.owner, true).await, StatusCode::OK);
    // Every seat reads the switch in the table's log, in words.
    let (status, view) = api(
        &app,
        routes::VIEW.at([&t.id]).key(&t.p2).query("after", "0"),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let told: Vec<&str> = view["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|e| e["text"].as_str())
        .filter(|text| text.contains("odds in play"))
        .collect();
    assert_eq!(
        told,
        [
            "The GM turns odds in play on: each player is shown the chances of their next choice.",
            "The GM turns odds in play off.",
            "The GM turns odds in play on: each player is shown the chances of their next choice.",
        ]
    );
    assert_eq!(
        switches_in(&record(&app, &t, &t.p1).await),
        [json!(true), json!(false), json!(true)]
    );
    drop(app);

    // Nothing but the log holds it: the table read back from the log has odds on.
    let conn = rusqlite::Connection::open(dir.path().join("clash.db")).unwrap();
    let elsewhere: i64 = conn
        .query_row(
            "SELECT COUNT(*) FROM sqlite_master WHERE name = 'odds_switches' OR sql LIKE '%odds INTEGER%'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(elsewhere, 0, "no side table and no column");
    drop(conn);
    let app = open(&dir);
    assert_eq!(odds(&app, &t, &t.p1).await["enabled"], true);

    // Once the table has ended, its record, switches included, verifies.
    let (status, _) = api(&app, routes::CLOSE.at([&t.id]).key(&t.owner)).await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    let doc = record(&app, &t, &t.p2).await;
    assert_eq!(switches_in(&doc).len(), 3);
    let head = doc["head"].as_str().unwrap().to_string();
    let report = clash_server::export::verify(&doc, &clash_catalogue::rulesets(), &[head]);
    assert!(report.ok() && report.unchecked.is_empty(), "{report:?}");
}

#[tokio::test]
async fn a_seat_sees_the_same_odds_whatever_another_seat_chose_in_secret() {
    let dir = tempfile::tempdir().unwrap();
    let app = open(&dir);
    let mut shown = Vec::new();
    // Two tables alike in everything but the stance the GM chose in secret for Brute (IT-2).
    for secret in [
        json!({ "action": "defend", "amount": 1 }),
        json!({ "action": "attack", "amount": 2 }),
    ] {
        let t = table(&app).await;
        assert_eq!(switch(&app, &t, &t.owner, true).await, StatusCode::OK);
        to_stances(&app, &t).await;
        let mut stance = json!({ "type": "take_stance", "character": "Brute" });
        stance["action"] = secret["action"].clone();
        stance["amount"] = secret["amount"].clone();
        send(&app, &t, &t.owner, stance).await;
        let seen = odds(&app, &t, &t.p1).await;
        assert!(
            seen["odds"]["stances"]
                .as_array()
                .is_some_and(|s| !s.is_empty()),
            "{seen}"
        );
        shown.push(seen);
    }
    assert_eq!(
        shown[0], shown[1],
        "Ada's player learns nothing of Brute's secret stance"
    );
}
