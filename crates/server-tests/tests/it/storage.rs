//! The storage backends behind one interface: every test runs against the SQLite file and, when
//! `CLASH_TEST_POSTGRES` names a PostgreSQL database (the test script starts a throw-away one),
//! against PostgreSQL too. Two `Tables` on one database stand for two server nodes.

use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::http::StatusCode;
use clash_server::Server;
use clash_server::log::Entry;
use clash_server::store::{Db, SCHEMA_VERSIONS, Store, StoredCommand, Write};
use serde_json::{Value, json};

use crate::client::*;

/// A fresh SQLite file, and the PostgreSQL database of `CLASH_TEST_POSTGRES` when it is set.
fn backends(dir: &tempfile::TempDir) -> Vec<Db> {
    let mut dbs = vec![Db::Sqlite(dir.path().join("clash.db"))];
    match std::env::var("CLASH_TEST_POSTGRES") {
        Ok(url) if !url.is_empty() => dbs.push(Db::Postgres(url)),
        _ => eprintln!(
            "notice: CLASH_TEST_POSTGRES is not set, so PostgreSQL is not tested here (scripts/test.sh sets it)"
        ),
    }
    dbs
}

/// A server node on `db`, following the other nodes' changes.
async fn node(db: &Db) -> (Router, Arc<Server>) {
    let tables = clash_server::open_db(db, catalogue(), clash_server::Limits::default())
        .await
        .unwrap();
    tokio::spawn(tables.tables().clone().follow());
    (clash_server::app(tables.clone()), tables)
}

async fn command(app: &Router, id: &str, key: &str, body: Value) -> (StatusCode, Value) {
    api(app, routes::COMMAND.at([id]).key(key).json(&body)).await
}

/// The whole log as the GM reads it.
async fn log(app: &Router, id: &str, owner: &str) -> Value {
    let (status, events) = api(app, routes::EVENTS.at([id]).key(owner).query("after", "0")).await;
    assert_eq!(status, StatusCode::OK, "{events}");
    events["events"].clone()
}

/// Wait (a few seconds at most) until two nodes show the same log.
async fn same_log_soon(a: &Router, b: &Router, t: &Table) {
    for _ in 0..100 {
        if log(a, &t.id, &t.owner).await == log(b, &t.id, &t.owner).await {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("node B never caught up with node A");
}

/// The next event of a stream that says `text` (waiting as long as it takes).
async fn said(stream: &mut Sse, text: &str) -> SseEvent {
    loop {
        if let Some(ev) = stream.next().await
            && ev.data.contains(text)
        {
            return ev;
        }
    }
}

#[tokio::test]
async fn both_backends_migrate_to_the_same_version() {
    let dir = tempfile::tempdir().unwrap();
    for db in backends(&dir) {
        assert_eq!(db.migrate().await.unwrap(), SCHEMA_VERSIONS, "{db:?}");
        // Again: nothing left to do, same version.
        assert_eq!(db.migrate().await.unwrap(), SCHEMA_VERSIONS, "{db:?}");
    }
}

#[tokio::test]
async fn a_table_reads_back_the_same_on_a_fresh_node() {
    let dir = tempfile::tempdir().unwrap();
    for db in backends(&dir) {
        let (first, _) = node(&db).await;
        let t = table(&first).await;
        for (key, word) in [(&t.p1, "oak"), (&t.p2, "elm")] {
            let body = json!(CommandBody::of(json!({"type": "commit", "word": word})));
            let (status, answer) = command(&first, &t.id, key, body).await;
            assert_eq!(status, StatusCode::OK, "{answer}");
        }
        let body = json!(CommandBody {
            command: Some(json!({"type": "reveal"})),
            as_seat: Some(String::from("gm")),
            ..CommandBody::default()
        });
        let (status, answer) = command(&first, &t.id, &t.owner, body).await;
        assert_eq!(status, StatusCode::OK, "{answer}");
        let written = log(&first, &t.id, &t.owner).await;
        // A node that never saw the table reads it back from the database alone.
        let (second, _) = node(&db).await;
        assert_eq!(log(&second, &t.id, &t.owner).await, written, "{db:?}");
        let view = |app: Router, key: String| {
            let uri = routes::VIEW.at([&t.id]).key(&key);
            async move { call_json(&app, "GET", &uri, None).await.1["view"].clone() }
        };
        assert_eq!(
            view(first.clone(), t.p1.clone()).await,
            view(second.clone(), t.p1.clone()).await
        );
        let text = written.to_string();
        assert!(text.contains("oak") && text.contains("elm"), "{text}");
    }
}

#[tokio::test]
async fn two_nodes_on_one_database_keep_one_gap_free_order() {
    let dir = tempfile::tempdir().unwrap();
    for db in backends(&dir) {
        let (a, _) = node(&db).await;
        let (b, _) = node(&db).await;
        let t = table(&a).await;
        // Node B holds the table in memory before node A changes it.
        assert_eq!(
            log(&b, &t.id, &t.owner).await,
            log(&a, &t.id, &t.owner).await
        );
        let commit = |word: &str, id: &str| {
            json!(CommandBody {
                command: Some(json!({"type": "commit", "word": word})),
                id: Some(String::from(id)),
                ..CommandBody::default()
            })
        };
        let (status, first) = command(&a, &t.id, &t.p1, commit("ash", "p1-1")).await;
        assert_eq!(status, StatusCode::OK, "{first}");
        assert_eq!(first["command"]["n"], 0);
        // B may not have heard of A's command yet; either way it stores after it, never over it.
        let (status, second) = command(&b, &t.id, &t.p2, commit("yew", "p2-1")).await;
        assert_eq!(status, StatusCode::OK, "{second}");
        assert_eq!(second["command"]["n"], 1, "{second}");
        // The same command id sent to the other node is answered, not applied again.
        let (status, again) = command(&a, &t.id, &t.p2, commit("yew", "p2-1")).await;
        assert_eq!(status, StatusCode::OK, "{again}");
        assert_eq!(again["command"]["duplicate"], true, "{again}");
        assert_eq!(again["command"]["n"], 1, "{again}");
        let reveal = json!(CommandBody {
            command: Some(json!({"type": "reveal"})),
            as_seat: Some(String::from("gm")),
            id: Some(String::from("gm-1")),
            ..CommandBody::default()
        });
        let (status, third) = command(&a, &t.id, &t.owner, reveal).await;
        assert_eq!(status, StatusCode::OK, "{third}");
        assert_eq!(third["command"]["n"], 2, "{third}");
        // Both nodes read one log: every command once, in order.
        let on_a = log(&a, &t.id, &t.owner).await;
        let (b_fresh, _) = node(&db).await;
        assert_eq!(on_a, log(&b_fresh, &t.id, &t.owner).await, "{db:?}");
        if let Db::Postgres(_) = db {
            // Node B hears of node A's last command (a SQLite file tells no other process).
            same_log_soon(&a, &b, &t).await;
        }
        let games: Vec<&str> = on_a
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|e| e["event"]["type"].as_str())
            .collect();
        assert_eq!(games, ["committed", "committed", "revealed"], "{on_a}");
    }
}

#[tokio::test]
async fn a_seat_change_on_one_node_holds_on_the_other() {
    let dir = tempfile::tempdir().unwrap();
    for db in backends(&dir) {
        let (a, _) = node(&db).await;
        let (b, _) = node(&db).await;
        let t = table(&a).await;
        let body = json!(CommandBody::of(json!({"type": "commit", "word": "fir"})));
        // B has the table in memory; A's GM then revokes p1's link.
        let (status, _) = api(&b, routes::VIEW.at([&t.id]).key(&t.p1)).await;
        assert_eq!(status, StatusCode::OK);
        let (status, out) = api(&a, routes::REVOKE_LINK.at([&t.id, "p1"]).key(&t.owner)).await;
        assert!(status.is_success(), "{status} {out}");
        // The revoked key works on neither node, whether or not B heard of it yet.
        let (status, out) = command(&b, &t.id, &t.p1, body).await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{out}");
        assert_eq!(out["error"]["code"], "bad_key", "{out}");
        same_log_soon(&a, &b, &t).await;
    }
}

#[tokio::test]
async fn a_command_on_one_node_reaches_the_streams_of_another() {
    let Ok(url) = std::env::var("CLASH_TEST_POSTGRES") else {
        eprintln!(
            "notice: CLASH_TEST_POSTGRES is not set, so live updates across nodes are not tested here (scripts/test.sh sets it)"
        );
        return;
    };
    let db = Db::Postgres(url);
    let (a, _) = node(&db).await;
    let (b, _) = node(&db).await;
    let t = table(&a).await;
    let mut stream = Sse::open(&b, &routes::STREAM.at([&t.id]).key(&t.p2), None).await;
    let first = stream.update().await;
    assert_eq!(
        first["event_count"],
        log(&a, &t.id, &t.owner).await.as_array().unwrap().len()
    );
    let body = json!(CommandBody::of(json!({"type": "commit", "word": "pine"})));
    let (status, out) = command(&a, &t.id, &t.p1, body).await;
    assert_eq!(status, StatusCode::OK, "{out}");
    // Node B heard of it and pushed it to its stream, with no request to B.
    let next = tokio::time::timeout(Duration::from_secs(10), said(&mut stream, "p1 is ready"))
        .await
        .expect("the stream on node B is told of node A's command");
    assert_eq!(next.event, "update");
}

#[tokio::test]
async fn copy_moves_every_table_row_for_row() {
    let dir = tempfile::tempdir().unwrap();
    let source_db = Db::Sqlite(dir.path().join("old.db"));
    let (old, _) = node(&source_db).await;
    let mut ids = Vec::new();
    for word in ["cedar", "larch"] {
        let t = table(&old).await;
        let body = json!(CommandBody {
            command: Some(json!({"type": "commit", "word": word})),
            id: Some(String::from(word)),
            ..CommandBody::default()
        });
        assert_eq!(command(&old, &t.id, &t.p1, body).await.0, StatusCode::OK);
        ids.push(t);
    }
    let source: Store = source_db.open().await.unwrap();
    for db in backends(&dir) {
        let target: Store = db.open().await.unwrap();
        let (copied, skipped) = clash_server::store::copy(&source, &target).await.unwrap();
        assert_eq!((copied, skipped), (2, 0), "{db:?}");
        for t in &ids {
            assert_eq!(
                source.dump_table(&t.id).await.unwrap(),
                target.dump_table(&t.id).await.unwrap(),
                "{db:?}"
            );
        }
        // Run again: everything is there already.
        assert_eq!(
            clash_server::store::copy(&source, &target).await.unwrap(),
            (0, 2)
        );
        // The copied table plays on: its ids and numbers carry over.
        let (new, _) = node(&db).await;
        let t = &ids[0];
        let body = json!(CommandBody {
            command: Some(json!({"type": "commit", "word": "cedar"})),
            id: Some(String::from("cedar")),
            ..CommandBody::default()
        });
        let (status, again) = command(&new, &t.id, &t.p1, body).await;
        assert_eq!(status, StatusCode::OK, "{again}");
        assert_eq!(again["command"]["duplicate"], true, "{again}");
    }
}

#[tokio::test]
async fn a_node_that_lost_the_news_resynchronises_its_streams() {
    let Ok(url) = std::env::var("CLASH_TEST_POSTGRES") else {
        eprintln!(
            "notice: CLASH_TEST_POSTGRES is not set, so resynchronising is not tested here (scripts/test.sh sets it)"
        );
        return;
    };
    let db = Db::Postgres(url.clone());
    let (a, _) = node(&db).await;
    let (b, _) = node(&db).await;
    let t = table(&a).await;
    let mut stream = Sse::open(&b, &routes::STREAM.at([&t.id]).key(&t.p2), None).await;
    stream.update().await;
    // Cut every node's listening connection (as a network fault or a database restart would),
    // then change the table while nobody listens: that news is lost.
    let (admin, connection) = tokio_postgres::connect(&url, tokio_postgres::NoTls)
        .await
        .unwrap();
    tokio::spawn(connection);
    let cut = admin
        .query(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query = 'LISTEN clash_tables'",
            &[],
        )
        .await
        .unwrap();
    assert!(
        !cut.is_empty(),
        "the nodes listen on connections of their own"
    );
    let body = json!(CommandBody::of(json!({"type": "commit", "word": "spruce"})));
    let (status, out) = command(&a, &t.id, &t.p1, body).await;
    assert_eq!(status, StatusCode::OK, "{out}");
    // Node B listens again, catches up from the log and tells its stream.
    let next = tokio::time::timeout(Duration::from_secs(15), said(&mut stream, "p1 is ready"))
        .await
        .expect("node B's stream is brought up to date after its news connection came back");
    assert_eq!(next.event, "update");
}

#[tokio::test]
async fn changes_sent_to_two_nodes_at_once_all_land_once() {
    let dir = tempfile::tempdir().unwrap();
    for db in backends(&dir) {
        let (a, _) = node(&db).await;
        let (b, _) = node(&db).await;
        let t = table(&a).await;
        // B holds the table too; then both nodes take talk from both players at the same time.
        assert_eq!(
            log(&b, &t.id, &t.owner).await,
            log(&a, &t.id, &t.owner).await
        );
        let lines = 12;
        let mut sent = tokio::task::JoinSet::new();
        for i in 0..lines {
            let (app, key) = match i % 2 {
                0 => (a.clone(), t.p1.clone()),
                _ => (b.clone(), t.p2.clone()),
            };
            let uri = routes::CHAT.at([&t.id]).key(&key);
            sent.spawn(async move {
                call_json(
                    &app,
                    "POST",
                    &uri,
                    Some(json!(Line {
                        text: format!("line {i}"),
                        ..Line::default()
                    })),
                )
                .await
            });
        }
        while let Some(done) = sent.join_next().await {
            let (status, out) = done.unwrap();
            assert_eq!(status, StatusCode::NO_CONTENT, "{db:?}: {out}");
        }
        // What is stored, as a node that never held the table reads it.
        let (fresh, _) = node(&db).await;
        let written = log(&fresh, &t.id, &t.owner).await.to_string();
        for i in 0..lines {
            let line = format!("\"line {i}\"");
            assert_eq!(
                written.matches(&line).count(),
                1,
                "{db:?}: {line} in {written}"
            );
        }
        // And two commands at once, one through each node: both land, numbered 0 and 1.
        let commit = |word: &str| json!(CommandBody::of(json!({"type": "commit", "word": word})));
        let (one, two) = tokio::join!(
            command(&a, &t.id, &t.p1, commit("birch")),
            command(&b, &t.id, &t.p2, commit("alder"))
        );
        assert_eq!(
            (one.0, two.0),
            (StatusCode::OK, StatusCode::OK),
            "{one:?} {two:?}"
        );
        let mut numbers = [
            one.1["command"]["n"].as_u64(),
            two.1["command"]["n"].as_u64(),
        ];
        numbers.sort();
        assert_eq!(numbers, [Some(0), Some(1)]);
    }
}

/// Whether an update shows `name` as having the table open.
fn shows_here(update: &str, name: &str) -> Option<bool> {
    let update: Value = serde_json::from_str(update).ok()?;
    let people = update["room"]["people"].as_array()?;
    let person = people.iter().find(|p| p["name"] == name)?;
    person["here"].as_bool()
}

/// The next update of `stream` that shows `name` as here (or not).
async fn sees_here(stream: &mut Sse, name: &str, here: bool) {
    loop {
        if let Some(ev) = stream.next().await
            && shows_here(&ev.data, name) == Some(here)
        {
            return;
        }
    }
}

#[tokio::test]
async fn who_is_here_counts_pages_open_on_every_node() {
    let Ok(url) = std::env::var("CLASH_TEST_POSTGRES") else {
        eprintln!(
            "notice: CLASH_TEST_POSTGRES is not set, so presence across nodes is not tested here (scripts/test.sh sets it)"
        );
        return;
    };
    let db = Db::Postgres(url);
    let (a, _) = node(&db).await;
    let (b, _) = node(&db).await;
    let t = table(&a).await;
    let stream_of = |key: &str| routes::STREAM.at([&t.id]).key(key);
    let mut on_b = Sse::open(&b, &stream_of(&t.p2), None).await;
    let first = on_b.next().await.unwrap();
    assert_eq!(shows_here(&first.data, "Player 1"), Some(false));
    // Player 1 opens the table through node A: player 2's page on node B shows them here.
    let on_a = Sse::open(&a, &stream_of(&t.p1), None).await;
    tokio::time::timeout(
        Duration::from_secs(10),
        sees_here(&mut on_b, "Player 1", true),
    )
    .await
    .expect("node B counts player 1's page on node A");
    // And gone again when that page closes.
    drop(on_a);
    tokio::time::timeout(
        Duration::from_secs(10),
        sees_here(&mut on_b, "Player 1", false),
    )
    .await
    .expect("node B sees player 1 leave node A");
}

/// `count` log rows from position `from` on, each a game event naming its position.
fn entries(from: u64, count: u64) -> Vec<(u64, Value, [u8; 32])> {
    (from..from + count)
        .map(|pos| {
            let entry = Entry::Event {
                event: json!({"pos": pos}),
            };
            (pos, serde_json::to_value(entry).unwrap(), [pos as u8; 32])
        })
        .collect()
}

/// A table written straight to the store, with `count` log entries and no links.
fn new_table(id: &str, count: u64) -> Write {
    Write::CreateTable {
        id: id.into(),
        ruleset: "sealed-duel".into(),
        title: id.into(),
        setup: json!({}),
        secret: vec![7; 32],
        links: Vec::new(),
        log: entries(0, count),
    }
}

fn append(id: &str, pos: u64, n: u64) -> Write {
    Write::Append {
        table_id: id.into(),
        log: entries(pos, 1),
        command: Some(StoredCommand {
            n,
            seat: "p1".into(),
            command: json!({"type": "commit"}),
            id: Some(format!("{id}-{n}")),
        }),
        links: Vec::new(),
    }
}

/// The positions stored in a table's log.
async fn positions(store: &Store, id: &str) -> Vec<u64> {
    let tail = store.load_tail(id, 0).await.unwrap().unwrap();
    tail.log
        .iter()
        .map(|(e, _)| match e {
            Entry::Event { event } => event["pos"].as_u64().unwrap(),
            other => panic!("{other:?}"),
        })
        .collect()
}

/// Writes sent together are committed together; the one that lost a race to another node
/// fails alone, as raced, and the others are stored.
#[tokio::test]
async fn a_write_that_loses_a_race_fails_alone_among_those_sent_with_it() {
    let dir = tempfile::tempdir().unwrap();
    for db in backends(&dir) {
        let (a, b) = (db.open().await.unwrap(), db.open().await.unwrap());
        let run = clash_server::table::links::new_key();
        let ids: Vec<String> = (0..3).map(|i| format!("race-{run}-{i}")).collect();
        for id in &ids {
            a.write(new_table(id, 1)).await.unwrap();
        }
        // Node A stores position 1 of the middle table; node B, behind, sends the same position
        // at the same moment as appends to the other two.
        a.write(append(&ids[1], 1, 0)).await.unwrap();
        let (first, lost, third) = tokio::join!(
            b.write(append(&ids[0], 1, 0)),
            b.write(append(&ids[1], 1, 0)),
            b.write(append(&ids[2], 1, 0)),
        );
        let lost = lost.expect_err("the position was taken");
        assert!(lost.raced, "{db:?}: {lost}");
        first.unwrap();
        third.unwrap();
        for id in &ids {
            assert_eq!(positions(&b, id).await, [0, 1], "{db:?}");
        }
    }
}

/// Catch-up reads of several tables at once answer in the order asked, `None` for a table
/// that is not there, and carry long logs whole.
#[tokio::test]
async fn the_tails_of_several_tables_are_read_together() {
    let dir = tempfile::tempdir().unwrap();
    for db in backends(&dir) {
        let store = db.open().await.unwrap();
        let run = clash_server::table::links::new_key();
        let (long, short) = (format!("long-{run}"), format!("short-{run}"));
        // More rows than one statement inserts.
        store.write(new_table(&long, 150)).await.unwrap();
        store.write(new_table(&short, 2)).await.unwrap();
        let asks = [
            (short.clone(), 1),
            (format!("gone-{run}"), 0),
            (long.clone(), 0),
            (long.clone(), 140),
        ];
        let tails = store.load_tails(&asks).await.unwrap();
        let counts: Vec<Option<usize>> =
            tails.iter().map(|t| Some(t.as_ref()?.log.len())).collect();
        assert_eq!(counts, [Some(1), None, Some(150), Some(10)], "{db:?}");
        assert_eq!(positions(&store, &long).await, (0..150).collect::<Vec<_>>());
        assert_eq!(store.head(&long).await.unwrap(), Some(150), "{db:?}");
        assert_eq!(store.head(&format!("gone-{run}")).await.unwrap(), None);
    }
}

/// A database a newer build has migrated (SQLite's `user_version`, PostgreSQL's
/// `clash_schema`) is refused, untouched.
#[tokio::test]
async fn a_database_newer_than_this_build_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("newer.db");
    let conn = rusqlite::Connection::open(&path).unwrap();
    conn.execute_batch("PRAGMA user_version = 99;").unwrap();
    drop(conn);
    let refused = Db::Sqlite(path).open().await.err().unwrap();
    assert!(
        refused.message.contains("newer than this build"),
        "{refused}"
    );
    let Ok(url) = std::env::var("CLASH_TEST_POSTGRES") else {
        return;
    };
    // A database of its own, so the other tests' database keeps its version.
    let (admin, connection) = tokio_postgres::connect(&url, tokio_postgres::NoTls)
        .await
        .unwrap();
    tokio::spawn(connection);
    let name = format!("newer_{}", clash_server::table::links::new_key());
    admin
        .batch_execute(&format!("CREATE DATABASE {name}"))
        .await
        .unwrap();
    let newer = format!("{}/{name}", url.rsplit_once('/').unwrap().0);
    let (client, connection) = tokio_postgres::connect(&newer, tokio_postgres::NoTls)
        .await
        .unwrap();
    tokio::spawn(connection);
    client
        .batch_execute("CREATE TABLE clash_schema (version INTEGER NOT NULL); INSERT INTO clash_schema VALUES (99);")
        .await
        .unwrap();
    drop(client);
    let refused = Db::Postgres(newer).open().await.err().unwrap();
    assert!(
        refused.message.contains("newer than this build"),
        "{refused}"
    );
    admin
        .batch_execute(&format!("DROP DATABASE {name} WITH (FORCE)"))
        .await
        .unwrap();
}
