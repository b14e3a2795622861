//! What an operator and a GM rely on: headers on every answer, metrics, replacing the shared
//! links, deleting a table, live pushes that carry only what changed, and schema upgrades.

use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use serde_json::{Value, json};
use tower::ServiceExt;

use crate::client::*;

/// The headers of a GET.
async fn headers_of(app: &axum::Router, uri: &str) -> axum::http::HeaderMap {
    let req = Request::builder().uri(uri).body(Body::empty()).unwrap();
    let resp = app.clone().oneshot(req).await.unwrap();
    let headers = resp.headers().clone();
    let _ = resp.into_body().collect().await;
    headers
}

#[tokio::test]
async fn every_answer_carries_the_security_headers_and_keyed_ones_are_not_stored() {
    let s = server();
    let t = table(&s.app).await;
    let pages = [
        routes::LOBBY.at([]).into_uri(),
        routes::TABLE_PAGE.at([&t.id, &t.owner]).into_uri(),
        routes::TABLE_PAGE.at([&t.id, &t.p1]).into_uri(),
    ];
    for uri in [
        routes::LOBBY.at([]).into_uri(),
        routes::TABLE_PAGE.at([&t.id, &t.owner]).into_uri(),
        routes::TABLE_PAGE.at([&t.id, &t.p1]).into_uri(),
        routes::VIEW.at([&t.id]).key(&t.p1).into_uri(),
        routes::VIEW.at(["nope"]).key("x").into_uri(),
        // hand-built: a path no route has.
        "/nothing-here".to_string(),
        routes::HEALTHZ.at([]).into_uri(),
    ] {
        let h = headers_of(&s.app, &uri).await;
        let csp = h["content-security-policy"].to_str().unwrap();
        assert!(csp.contains("frame-ancestors 'none'"), "{uri}: {csp}");
        assert!(csp.contains("script-src 'self'"), "{uri}");
        assert_eq!(h["x-content-type-options"], "nosniff", "{uri}");
        assert_eq!(h["x-frame-options"], "DENY", "{uri}");
        assert_eq!(h["referrer-policy"], "no-referrer", "{uri}");
        // A page may be kept by this browser alone (its back/forward cache), never by a shared
        // cache; every other answer is kept by nobody.
        let page = pages.contains(&uri);
        let kept = if page {
            "private, no-cache"
        } else {
            "no-store"
        };
        assert_eq!(h["cache-control"], kept, "{uri}");
        assert_eq!(h["x-request-id"].len(), 12, "{uri}");
    }
    // Scripts and styles may be cached, but are checked again each time.
    let h = headers_of(&s.app, &routes::ASSET.at(["app.js"])).await;
    assert_eq!(h["cache-control"], "no-cache");
}

#[tokio::test]
async fn metrics_count_commands_tables_refusals_and_requests_by_route() {
    let s = server();
    let t = table(&s.app).await;
    send(
        &s.app,
        &t,
        &t.p1,
        json!({"type": "commit", "word": "apple"}),
    )
    .await;
    send(
        &s.app,
        &t,
        &t.p1,
        json!({"type": "commit", "word": "again"}),
    )
    .await;
    let (status, text) = api_text(&s.app, routes::METRICS.at([])).await;
    assert_eq!(status, StatusCode::OK);
    for line in [
        "clash_commands_total 1",
        "clash_tables_created_total 1",
        "clash_tables_loaded 1",
        "clash_streams_open 0",
        "clash_http_requests_total{method=\"POST\",route=\"/api/tables/{id}/commands\",status=\"422\"} 1",
        "clash_command_seconds_count 1",
    ] {
        assert!(text.contains(line), "{line} missing from\n{text}");
    }
    // Routes are counted by their pattern: no table id or key ever appears.
    assert!(!text.contains(&t.id) && !text.contains(&t.p1));
}

#[tokio::test]
async fn the_gm_replaces_the_watch_link_and_their_own() {
    let s = server();
    let t = table(&s.app).await;
    let mut watching = Sse::open(&s.app, &routes::STREAM.at([&t.id]).key(&t.spectator), None).await;
    watching.update().await;
    let (status, _) = api(
        &s.app,
        routes::REPLACE_LINK.at([&t.id, "spectator"]).key(&t.p1),
    )
    .await;
    assert_eq!(status, StatusCode::FORBIDDEN, "only the GM");
    let (status, fresh) = api(
        &s.app,
        routes::REPLACE_LINK.at([&t.id, "spectator"]).key(&t.owner),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{fresh}");
    let spectator = fresh["key"].as_str().unwrap();
    assert_eq!(watching.next().await.unwrap().event, "revoked");
    let view = |key: String| {
        let app = s.app.clone();
        let id = t.id.clone();
        async move { api(&app, routes::VIEW.at([&id]).key(&key)).await }
    };
    assert_eq!(view(t.spectator.clone()).await.0, StatusCode::FORBIDDEN);
    assert_eq!(view(spectator.to_string()).await.0, StatusCode::OK);
    // A new GM link: the old one stops working, the new one manages the table.
    let (_, gm) = api(
        &s.app,
        routes::REPLACE_LINK.at([&t.id, "owner"]).key(&t.owner),
    )
    .await;
    let owner = gm["key"].as_str().unwrap();
    assert_eq!(gm["path"], routes::TABLE_PAGE.at([&t.id, owner]).uri());
    assert_eq!(view(t.owner.clone()).await.0, StatusCode::FORBIDDEN);
    let (status, info) = api(&s.app, routes::TABLE_INFO.at([&t.id]).key(owner)).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(info["role"], "owner");
    // Everyone's log says so.
    let (_, seen) = view(t.p1.clone()).await;
    let (_, lines) = api(
        &s.app,
        routes::EVENTS.at([&t.id]).key(&t.p1).query("after", "0"),
    )
    .await;
    let text: Vec<&str> = lines["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|l| l["text"].as_str())
        .collect();
    assert!(text.contains(&"The watch link is replaced; the old one no longer works."));
    assert!(text.contains(&"The GM's link is replaced; the old one no longer works."));
    assert_eq!(seen["viewer"], "p1");
}

#[tokio::test]
async fn the_gm_deletes_a_table_and_its_pages_are_told() {
    let s = server();
    let t = table(&s.app).await;
    send(
        &s.app,
        &t,
        &t.p1,
        json!({"type": "commit", "word": "apple"}),
    )
    .await;
    let mut p2 = Sse::open(&s.app, &routes::STREAM.at([&t.id]).key(&t.p2), None).await;
    p2.update().await;
    let delete = |key: String| {
        let app = s.app.clone();
        let id = t.id.clone();
        async move { api_text(&app, routes::DELETE_TABLE.at([&id]).key(&key)).await }
    };
    assert_eq!(delete(t.p1.clone()).await.0, StatusCode::FORBIDDEN);
    assert_eq!(delete(t.owner.clone()).await.0, StatusCode::NO_CONTENT);
    assert_eq!(p2.next().await.unwrap().event, "deleted");
    let (status, answer) = api(&s.app, routes::VIEW.at([&t.id]).key(&t.owner)).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{answer}");
    assert_eq!(s.server.store().count_tables().await.unwrap(), 0);
    let conn = rusqlite::Connection::open(&s.path).unwrap();
    for table in ["log", "commands", "links"] {
        let left: i64 = conn
            .query_row(
                &format!("SELECT COUNT(*) FROM {table} WHERE table_id = ?1"),
                [&t.id],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(left, 0, "{table}");
    }
}

/// Apply one `patch` message to the update it follows.
fn patched(before: &Value, message: &Value) -> Value {
    assert_eq!(message["base"], before["event_count"], "in step");
    let patch: json_patch::Patch = serde_json::from_value(message["patch"].clone()).unwrap();
    let mut next = before.clone();
    json_patch::patch(&mut next, &patch).unwrap();
    next["events"] = message["events"].clone();
    next
}

#[tokio::test]
async fn a_patch_stream_rebuilds_exactly_the_updates_a_whole_stream_sends() {
    let s = server();
    let t = table(&s.app).await;
    let uri = |key: &str| routes::STREAM.at([&t.id]).key(key);
    for key in [&t.owner, &t.p1, &t.spectator] {
        let mut whole = Sse::open(&s.app, &uri(key), None).await;
        let patch = uri(key).query("changes", "patch");
        let mut patches = Sse::open(&s.app, &patch, None).await;
        let mut rebuilt = patches.update().await;
        assert_eq!(rebuilt, whole.update().await);
        let steps = [
            (&t.p1, json!({"type": "commit", "word": "apple"})),
            (&t.p2, json!({"type": "commit", "word": "pear"})),
            (&t.owner, json!({"type": "reveal"})),
            (&t.owner, json!({"type": "shuffle"})),
        ];
        for (who, command) in steps {
            let (status, answer) = send(&s.app, &t, who, command).await;
            assert_eq!(status, StatusCode::OK, "{answer}");
            let expected = whole.update().await;
            let message = patches.next().await.unwrap();
            assert_eq!(message.event, "patch");
            let message: Value = serde_json::from_str(&message.data).unwrap();
            assert!(
                message["patch"].to_string().len() < expected.to_string().len(),
                "a patch carries less than the whole update"
            );
            rebuilt = patched(&rebuilt, &message);
            assert_eq!(rebuilt, expected);
        }
    }
    // Anything but "update" or "patch" is refused.
    let (status, _) = api_text(&s.app, uri(&t.p1).query("changes", "gzip")).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
}

/// A database whose odds switches lived outside the log — in a side table (schema version 2) or
/// in a column of the table (version 3) — opens at the latest version with each switch that was
/// on carried into the table's log as a table event, chained so the record still verifies, and
/// nothing left of the old places.
#[tokio::test]
async fn odds_switches_from_before_the_log_are_carried_into_it() {
    let side_table = "PRAGMA user_version = 2;
         CREATE TABLE odds_switches (table_id TEXT PRIMARY KEY);
         INSERT INTO odds_switches VALUES ('{id}');";
    let column = "PRAGMA user_version = 3;
         ALTER TABLE tables ADD COLUMN odds INTEGER NOT NULL DEFAULT 0;
         UPDATE tables SET odds = 1 WHERE id = '{id}';";
    for old in [side_table, column] {
        let s = server();
        let t = table(&s.app).await;
        let Server {
            app,
            server: tables,
            path,
            _dir: dir,
        } = s;
        drop((app, tables));
        {
            let conn = rusqlite::Connection::open(&path).unwrap();
            conn.execute_batch(&old.replace("{id}", &t.id)).unwrap();
        }
        let tables = clash_server::open(&path, catalogue()).unwrap();
        let app = clash_server::app(tables);
        let (status, odds) = api(&app, routes::ODDS.at([&t.id]).key(&t.owner)).await;
        assert_eq!(status, StatusCode::OK, "{odds}");
        assert_eq!(odds["enabled"], true, "{old}");
        let conn = rusqlite::Connection::open(&path).unwrap();
        let version: i64 = conn
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .unwrap();
        assert_eq!(version, clash_server::store::SCHEMA_VERSIONS as i64);
        let elsewhere: i64 = conn
            .query_row(
                "SELECT COUNT(*) FROM sqlite_master WHERE name = 'odds_switches' OR sql LIKE '%odds INTEGER%'",
                [],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(
            elsewhere, 0,
            "neither the side table nor the column is left"
        );
        // The switch is the last entry of the log, and the record verifies once the table ends.
        let (status, _) = api_text(&app, routes::CLOSE.at([&t.id]).key(&t.owner)).await;
        assert_eq!(status, StatusCode::NO_CONTENT);
        let (_, doc) = api(&app, routes::EXPORT.at([&t.id]).key(&t.spectator)).await;
        let entries = doc["entries"].as_array().unwrap();
        let switched: Vec<&Value> = entries
            .iter()
            .filter(|e| e["entry"]["event"]["type"] == "odds_switched")
            .collect();
        assert_eq!(switched.len(), 1, "{old}");
        assert_eq!(switched[0]["entry"]["event"]["enabled"], true);
        let head = doc["head"].as_str().unwrap().to_string();
        let report = clash_server::export::verify(&doc, &catalogue(), &[head]);
        assert!(report.ok() && report.unchecked.is_empty(), "{report:?}");
        drop(dir);
    }
}
