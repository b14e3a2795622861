//! Notification rows on both backends (issue 31): targets are stored beside the table, read by
//! every node, removed with their key and with the table; a due timer fires once however many
//! nodes share the database. Runs against SQLite and, when `CLASH_TEST_POSTGRES` is set,
//! PostgreSQL.

use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::http::StatusCode;
use clash_server::store::Db;
use clash_server::store::notify as side_rows;
use clash_server::{Limits, Server};
use serde_json::json;

use crate::client::*;
use crate::sinks::{Receiver, eventually, settings};

fn backends(dir: &tempfile::TempDir) -> Vec<Db> {
    let mut dbs = vec![Db::Sqlite(dir.path().join("clash.db"))];
    if let Ok(url) = std::env::var("CLASH_TEST_POSTGRES")
        && !url.is_empty()
    {
        dbs.push(Db::Postgres(url));
    }
    dbs
}

async fn node(db: &Db) -> (Router, Arc<Server>) {
    let limits = Limits {
        notify: settings(None),
        ..Limits::default()
    };
    let tables = clash_server::open_db(db, catalogue(), limits)
        .await
        .unwrap();
    tokio::spawn(tables.tables().clone().follow());
    tables.start_notify();
    (clash_server::app(tables.clone()), tables)
}

/// How many rows of `side` (a notification table) the table `id` has.
async fn rows(tables: &Server, side: &'static str, id: &str) -> usize {
    let store = tables.store();
    match side {
        "targets" => side_rows::targets(store, id).await.unwrap().len(),
        "log" => side_rows::deliveries(store, id).await.unwrap().len(),
        _ => side_rows::waits(store, id).await.unwrap().len(),
    }
}

#[tokio::test]
async fn targets_are_shared_by_nodes_and_go_with_their_key_and_their_table() {
    let dir = tempfile::tempdir().unwrap();
    let hooks = Receiver::start().await;
    for db in backends(&dir) {
        let (app, tables) = node(&db).await;
        let t = table(&app).await;
        let uri = routes::ADD_TARGET.at([&t.id]).key(&t.p1);
        let hook = json!(NewTarget {
            kind: String::from("webhook"),
            format: Some(String::from("slack")),
            address: hooks.url(&t.id)
        });
        let (status, made) = call_json(&app, "POST", &uri, Some(hook)).await;
        assert_eq!(status, StatusCode::CREATED, "{db:?}: {made}");
        // Another node (or the same server after a restart) reads it from the database.
        let (other, _other_tables) = node(&db).await;
        let mine = routes::NOTIFY_SETTINGS.at([&t.id]).key(&t.p1);
        let (_, seen) = call_json(&other, "GET", &mine, None).await;
        assert_eq!(seen["targets"][0]["id"], made["id"], "{db:?}: {seen}");
        let chat = routes::CHAT.at([&t.id]).key(&t.owner);
        let (status, _) = call_json(
            &other,
            "POST",
            &chat,
            Some(json!(Line {
                text: String::from("hi"),
                to: Some(String::from("p1")),
                ..Line::default()
            })),
        )
        .await;
        assert_eq!(status, StatusCode::NO_CONTENT);
        assert!(
            eventually(Duration::from_secs(5), || hooks.got(&t.id).len() == 1).await,
            "{db:?}"
        );
        // A new player for the seat: the old key's targets go in the same transaction.
        let new_p1 = seat_key(&app, &t.id, &t.owner, "p1").await;
        assert_eq!(rows(&tables, "targets", &t.id).await, 0, "{db:?}");
        let (status, _) = api(&app, routes::NOTIFY_SETTINGS.at([&t.id]).key(&new_p1)).await;
        assert_eq!(status, StatusCode::OK);
        tokio::time::sleep(Duration::from_millis(300)).await;
        assert!(
            rows(&tables, "log", &t.id).await >= 1,
            "{db:?}: the delivery was logged"
        );
        let (status, _) = api(&app, routes::DELETE_TABLE.at([&t.id]).key(&t.owner)).await;
        assert_eq!(status, StatusCode::NO_CONTENT, "{db:?}");
        assert_eq!(
            rows(&tables, "log", &t.id).await,
            0,
            "{db:?}: gone with the table"
        );
        assert_eq!(rows(&tables, "waits", &t.id).await, 0, "{db:?}");
    }
}

#[tokio::test]
async fn a_due_timer_fires_once_however_many_nodes_look() {
    let dir = tempfile::tempdir().unwrap();
    let hooks = Receiver::start().await;
    for db in backends(&dir) {
        let (app, _a) = node(&db).await;
        let (_other, _b) = node(&db).await;
        let t = table(&app).await;
        let uri = routes::ADD_TARGET.at([&t.id]).key(&t.owner);
        let hook = json!(NewTarget {
            kind: String::from("webhook"),
            format: Some(String::from("json")),
            address: hooks.url(&t.id)
        });
        call_json(&app, "POST", &uri, Some(hook)).await;
        let rule = json!({"clock": {"mode": "deadline", "seconds": 1}, "on_expiry": "alert_gm"});
        let uri = routes::CLOCK.at([&t.id]).key(&t.owner);
        let (status, _) = call_json(&app, "POST", &uri, Some(rule)).await;
        assert_eq!(status, StatusCode::NO_CONTENT);
        let alerts = || {
            hooks
                .got(&t.id)
                .iter()
                .flat_map(|g| g.body["events"].as_array().cloned().unwrap_or_default())
                .count()
        };
        assert!(
            eventually(Duration::from_secs(5), || alerts() == 2).await,
            "{db:?}"
        );
        tokio::time::sleep(Duration::from_millis(800)).await;
        assert_eq!(
            alerts(),
            2,
            "{db:?}: one alert for each of p1 and p2, from one node"
        );
    }
}

#[tokio::test]
async fn a_copied_table_keeps_its_targets_and_clocks() {
    let dir = tempfile::tempdir().unwrap();
    let source_db = Db::Sqlite(dir.path().join("old.db"));
    let (old, old_tables) = node(&source_db).await;
    let t = table(&old).await;
    let uri = routes::ADD_TARGET.at([&t.id]).key(&t.p1);
    let hook = json!(NewTarget {
        kind: String::from("webhook"),
        format: Some(String::from("json")),
        address: String::from("http://127.0.0.1:9/hook")
    });
    let (status, made) = call_json(&old, "POST", &uri, Some(hook)).await;
    assert_eq!(status, StatusCode::CREATED, "{made}");
    let rule = json!({"clock": {"mode": "budget", "seconds": 3600}});
    let clock = routes::CLOCK.at([&t.id]).key(&t.owner);
    assert_eq!(
        call_json(&old, "POST", &clock, Some(rule)).await.0,
        StatusCode::NO_CONTENT
    );
    for _ in 0..100 {
        if rows(&old_tables, "waits", &t.id).await > 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let source = source_db.open().await.unwrap();
    for db in backends(&dir) {
        let target = db.open().await.unwrap();
        clash_server::store::copy(&source, &target).await.unwrap();
        let (new, new_tables) = node(&db).await;
        assert_eq!(
            rows(&new_tables, "waits", &t.id).await,
            2,
            "{db:?}: p1 and p2 wait"
        );
        let mine = routes::NOTIFY_SETTINGS.at([&t.id]).key(&t.p1);
        let (_, seen) = call_json(&new, "GET", &mine, None).await;
        assert_eq!(seen["targets"][0]["id"], made["id"], "{db:?}: {seen}");
        assert_eq!(seen["targets"][0]["secret"], made["secret"], "{db:?}");
    }
}
