//! Reminders and clocks (issue 31): the GM's settings are table events everyone reads; each
//! seat's times are in what the API gives every viewer; a reminder comes after the wait; a
//! clock that runs out does what the GM chose (a casual bot move for the seat, or an alert to
//! the GM); and timers survive a restart.

use std::sync::Arc;
use std::time::Duration;

use crate::common::SealedDuel;
use axum::Router;
use axum::http::StatusCode;
use clash_core::{
    AnyGame, BotError, Budget, Randomness, RulesetEntry, Seat, SeatBot, SeatTable, Strength,
    play_seat,
};
use clash_server::{Limits, Server};
use serde_json::{Value, json};

use crate::client::*;
use crate::sinks::{Receiver, eventually, settings};

/// Casual play commits "pear".
struct Pear;

impl SeatBot<SealedDuel> for Pear {
    fn choose(
        &self,
        table: &SeatTable<SealedDuel>,
        _budget: Budget,
        _rng: &mut dyn Randomness,
    ) -> Option<crate::common::Command> {
        (table.to_act() && table.seat != Seat::Gm).then(|| crate::common::Command::Commit {
            word: "pear".into(),
        })
    }
}

fn pear(
    game: &dyn AnyGame,
    seat: Seat,
    strength: Strength,
    budget: Budget,
    rng: &mut dyn Randomness,
) -> Result<Option<Value>, BotError> {
    assert_eq!(strength, Strength::Casual, "a clock's bot plays casually");
    play_seat::<SealedDuel>(game, seat, &Pear, budget, rng)
}

fn open(path: &std::path::Path) -> (Arc<Server>, Router) {
    let limits = Limits {
        notify: settings(None),
        ..Limits::default()
    };
    let catalogue = vec![RulesetEntry::of::<SealedDuel>().with_bots(pear)];
    let tables = clash_server::open_with(path, catalogue, limits).unwrap();
    (tables.clone(), clash_server::app(tables))
}

async fn set_clock(app: &Router, t: &Table, key: &str, rule: Value) -> StatusCode {
    let uri = routes::CLOCK.at([&t.id]).key(key);
    call_json(app, "POST", &uri, Some(rule)).await.0
}

async fn clock(app: &Router, t: &Table, key: &str) -> Value {
    let uri = routes::CLOCK.at([&t.id]).key(key);
    let (status, body) = call_json(app, "GET", &uri, None).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    body
}

async fn webhook(app: &Router, t: &Table, key: &str, url: &str) {
    let uri = routes::ADD_TARGET.at([&t.id]).key(key);
    let body = json!(NewTarget {
        kind: String::from("webhook"),
        format: Some(String::from("json")),
        address: String::from(url)
    });
    let (status, made) = call_json(app, "POST", &uri, Some(body)).await;
    assert_eq!(status, StatusCode::CREATED, "{made}");
}

fn seat<'a>(clock: &'a Value, seat: &str) -> &'a Value {
    clock["seats"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["seat"] == seat)
        .unwrap()
}

#[tokio::test]
async fn the_gms_clock_is_a_table_event_and_every_viewer_reads_the_times() {
    let dir = tempfile::tempdir().unwrap();
    let (tables, app) = open(&dir.path().join("c.db"));
    tables.start_notify();
    let t = table(&app).await;
    let rule = json!({"remind_after": 3600, "clock": {"mode": "deadline", "seconds": 86400}, "on_expiry": "alert_gm"});
    assert_eq!(
        set_clock(&app, &t, &t.p1, rule.clone()).await,
        StatusCode::FORBIDDEN
    );
    let bad = json!({"clock": {"mode": "deadline", "seconds": 0}});
    assert_eq!(
        set_clock(&app, &t, &t.owner, bad).await,
        StatusCode::BAD_REQUEST
    );
    assert_eq!(
        set_clock(&app, &t, &t.owner, rule.clone()).await,
        StatusCode::NO_CONTENT
    );
    let uri = routes::EVENTS
        .at([&t.id])
        .key(&t.spectator)
        .query("after", "0");
    let (_, events) = call_json(&app, "GET", &uri, None).await;
    assert!(
        events
            .to_string()
            .contains("The GM sets a clock: 1 day for each move"),
        "{events}"
    );
    // The times are stored by the notifier just after the change is committed.
    let mut seen = clock(&app, &t, &t.spectator).await;
    for _ in 0..100 {
        if seat(&seen, "p1").get("runs_out_at").is_some() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
        seen = clock(&app, &t, &t.spectator).await;
    }
    assert_eq!(seen["rule"], rule);
    let p1 = seat(&seen, "p1");
    assert_eq!(p1["waiting"], true);
    let (since, out) = (
        p1["waiting_since"].as_i64().unwrap(),
        p1["runs_out_at"].as_i64().unwrap(),
    );
    assert_eq!(out - since, 86_400_000);
    assert_eq!(seat(&seen, "gm")["waiting"], false);
    send(&app, &t, &t.p1, json!({"type": "commit", "word": "zebra"})).await;
    let seen = clock(&app, &t, &t.p2).await;
    assert_eq!(seat(&seen, "p1")["waiting"], false);
    assert_eq!(seat(&seen, "p2")["waiting"], true);
    assert!(seat(&seen, "p1").get("runs_out_at").is_none());
}

#[tokio::test]
async fn a_reminder_comes_after_the_wait() {
    let dir = tempfile::tempdir().unwrap();
    let (tables, app) = open(&dir.path().join("c.db"));
    tables.start_notify();
    let hooks = Receiver::start().await;
    let t = table(&app).await;
    webhook(&app, &t, &t.p2, &hooks.url("p2")).await;
    assert_eq!(
        set_clock(&app, &t, &t.owner, json!({"remind_after": 1})).await,
        StatusCode::NO_CONTENT
    );
    assert!(eventually(Duration::from_secs(5), || !hooks.got("p2").is_empty()).await);
    let got = &hooks.got("p2")[0];
    assert_eq!(got.body["events"][0]["kind"], "reminder", "{}", got.body);
    assert!(
        got.body["events"][0]["text"]
            .as_str()
            .unwrap()
            .contains("Your move")
    );
    tokio::time::sleep(Duration::from_millis(1500)).await;
    assert_eq!(hooks.got("p2").len(), 1, "one reminder per wait");
    // New settings time the wait under way again: its reminder, already due, comes again.
    let rule = json!({"remind_after": 1, "clock": {"mode": "deadline", "seconds": 3600}});
    assert_eq!(
        set_clock(&app, &t, &t.owner, rule).await,
        StatusCode::NO_CONTENT
    );
    assert!(eventually(Duration::from_secs(5), || hooks.got("p2").len() == 2).await);
}

#[tokio::test]
async fn a_clock_that_runs_out_lets_a_bot_make_a_casual_move() {
    let dir = tempfile::tempdir().unwrap();
    let (tables, app) = open(&dir.path().join("c.db"));
    tables.start_notify();
    let t = table(&app).await;
    send(&app, &t, &t.p1, json!({"type": "commit", "word": "zebra"})).await;
    let rule = json!({"clock": {"mode": "deadline", "seconds": 1}, "on_expiry": "bot"});
    assert_eq!(
        set_clock(&app, &t, &t.owner, rule).await,
        StatusCode::NO_CONTENT
    );
    let mut moved = false;
    for _ in 0..100 {
        let lines = game_lines(&app, &t.id, &t.p2, 0).await;
        if lines.iter().any(|l| l["event"]["word"] == "pear") {
            moved = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(moved, "p2's clock ran out and a bot committed for it");
    let uri = routes::EVENTS
        .at([&t.id])
        .key(&t.spectator)
        .query("after", "0");
    let (_, events) = call_json(&app, "GET", &uri, None).await;
    assert!(
        events
            .to_string()
            .contains("The clock of Player 2's seat has run out"),
        "{events}"
    );
    let uri = routes::EXPORT.at([&t.id]).key(&t.owner);
    let (_, record) = call_json(&app, "GET", &uri, None).await;
    let report = clash_server::export::verify(&record, &crate::client::catalogue(), &[]);
    assert!(report.ok(), "{report:?}");
}

#[tokio::test]
async fn timers_survive_a_restart_and_alert_the_gm() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("c.db");
    let hooks = Receiver::start().await;
    let t = {
        let (tables, app) = open(&path);
        let t = table(&app).await;
        webhook(&app, &t, &t.owner, &hooks.url("gm")).await;
        let rule = json!({"clock": {"mode": "budget", "seconds": 1}, "on_expiry": "alert_gm"});
        assert_eq!(
            set_clock(&app, &t, &t.owner, rule).await,
            StatusCode::NO_CONTENT
        );
        drop((tables, app));
        t
    };
    // The server is down while the clock runs out.
    tokio::time::sleep(Duration::from_millis(1200)).await;
    assert!(hooks.got("gm").is_empty());
    let (tables, app) = open(&path);
    tables.start_notify();
    assert!(eventually(Duration::from_secs(5), || !hooks.got("gm").is_empty()).await);
    let got = &hooks.got("gm")[0];
    assert_eq!(got.body["events"][0]["kind"], "alert", "{}", got.body);
    let seen = clock(&app, &t, &t.p1).await;
    assert_eq!(seat(&seen, "p1")["budget_left_ms"], 0);
}

/// Issue 38: a player whose clock is running out is warned when a quarter of it is left, and
/// told when it has run out and what the table did (here a bot's casual move for them).
#[tokio::test]
async fn a_running_out_clock_is_warned_and_its_end_told() {
    let dir = tempfile::tempdir().unwrap();
    let (tables, app) = open(&dir.path().join("c.db"));
    tables.start_notify();
    let hooks = Receiver::start().await;
    let t = table(&app).await;
    webhook(&app, &t, &t.p2, &hooks.url("p2")).await;
    send(&app, &t, &t.p1, json!({"type": "commit", "word": "zebra"})).await;
    let rule = json!({"clock": {"mode": "deadline", "seconds": 4}, "on_expiry": "bot"});
    assert_eq!(
        set_clock(&app, &t, &t.owner, rule).await,
        StatusCode::NO_CONTENT
    );
    let events = |kind: &str| -> Vec<String> {
        hooks
            .got("p2")
            .iter()
            .flat_map(|g| g.body["events"].as_array().cloned().unwrap_or_default())
            .filter(|e| e["kind"] == kind)
            .map(|e| e["text"].as_str().unwrap_or_default().to_string())
            .collect()
    };
    assert!(
        eventually(Duration::from_secs(8), || !events("clock_warning")
            .is_empty())
        .await
    );
    let warned = &events("clock_warning")[0];
    assert!(
        warned.contains("clock is running out") && warned.contains("second"),
        "{warned}"
    );
    assert!(events("clock_out").is_empty(), "warned before it runs out");
    assert!(eventually(Duration::from_secs(8), || !events("clock_out").is_empty()).await);
    let out = &events("clock_out")[0];
    assert!(out.contains("a bot made a casual move"), "{out}");
}
