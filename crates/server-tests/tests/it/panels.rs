//! Each game's board comes from its ruleset crate through the catalogue: the server serves it at
//! a generic route, as JavaScript and CSS, and a table page loads only its own game's board, after
//! the shared page kit.

use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use http_body_util::BodyExt;
use serde_json::{Value, json};
use tower::ServiceExt;

use crate::client::CreateTable;
use crate::client::routes::{ASSET, CREATE_TABLE, PANEL_ASSET};

/// A request, answered with its status, its content type and its body (checked against the API
/// document where it is part of it).
async fn call(
    app: &axum::Router,
    method: &str,
    uri: &str,
    body: Option<Value>,
) -> (StatusCode, String, String) {
    let mut req = Request::builder().method(method).uri(uri);
    if body.is_some() {
        req = req.header("content-type", "application/json");
    }
    let req = req
        .body(body.map_or_else(Body::empty, |b| Body::from(b.to_string())))
        .unwrap();
    let resp = app.clone().oneshot(req).await.unwrap();
    let status = resp.status();
    let kind = resp
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_string();
    let bytes = resp.into_body().collect().await.unwrap().to_bytes();
    let text = String::from_utf8_lossy(&bytes).into_owned();
    crate::conformance::check(method, uri, status, &text);
    (status, kind, text)
}

fn app() -> (axum::Router, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let tables =
        clash_server::open(&dir.path().join("clash.db"), clash_catalogue::rulesets()).unwrap();
    (clash_server::app(tables), dir)
}

#[tokio::test]
async fn every_game_board_is_served_from_its_catalogue_entry() {
    let (app, _dir) = app();
    for entry in clash_catalogue::rulesets() {
        let id = entry.id;
        assert!(entry.panel.is_some(), "{id} has a board");
        let (status, kind, body) =
            call(&app, "GET", &PANEL_ASSET.at([&format!("{id}.js")]), None).await;
        assert_eq!(status, StatusCode::OK, "{id}.js");
        assert!(
            kind.starts_with("text/javascript"),
            "{id}.js served as {kind}"
        );
        assert_eq!(body, entry.panel.script);
        assert!(
            body.contains(&format!("register('{id}'")),
            "{id}.js registers {id}"
        );
        // Data goes in as text: no innerHTML anywhere in a board.
        assert!(!body.contains("innerHTML"), "{id}.js uses innerHTML");
        let (status, kind, body) =
            call(&app, "GET", &PANEL_ASSET.at([&format!("{id}.css")]), None).await;
        assert_eq!(status, StatusCode::OK, "{id}.css");
        assert!(kind.starts_with("text/css"), "{id}.css served as {kind}");
        assert_eq!(body, entry.panel.style);
    }
    for missing in ["chess.js", "triforce.html", "triforce", "../app.js"] {
        let (status, _, _) = call(&app, "GET", &PANEL_ASSET.at([missing]), None).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{missing}");
    }
    // The page kit every board builds with (an ES module like every page script): served, and
    // text-only as well.
    let (status, kind, body) = call(&app, "GET", &ASSET.at(["kit.js"]), None).await;
    assert_eq!(status, StatusCode::OK);
    assert!(
        kind.starts_with("text/javascript"),
        "kit.js served as {kind}"
    );
    assert!(body.contains("registerPanel(id, panel)") && !body.contains("innerHTML"));
    assert!(body.contains("export function registerPanel"));
    let (status, kind, _) = call(&app, "GET", &ASSET.at(["kit.css"]), None).await;
    assert_eq!(status, StatusCode::OK);
    assert!(kind.starts_with("text/css"), "kit.css served as {kind}");
}

#[tokio::test]
async fn a_table_page_loads_only_its_own_game_board() {
    let (app, _dir) = app();
    let ids: Vec<&str> = clash_catalogue::rulesets().iter().map(|e| e.id).collect();
    for entry in clash_catalogue::rulesets() {
        let setup: Value = serde_json::from_str(entry.presets[0].setup).unwrap();
        let (status, _, created) = call(
            &app,
            "POST",
            &CREATE_TABLE.at([]),
            Some(json!(CreateTable {
                ruleset: Some(String::from(entry.id)),
                setup: Some(json!(setup)),
                ..CreateTable::default()
            })),
        )
        .await;
        assert_eq!(status, StatusCode::CREATED, "{created}");
        let created: Value = serde_json::from_str(&created).unwrap();
        let owner = created["links"]["owner"].as_str().unwrap();
        let (status, _, page) = call(&app, "GET", owner, None).await;
        assert_eq!(status, StatusCode::OK);
        // Each under its hashed name (`kit.0123456789ab.js`, tests/it/delivery.rs).
        let kit = page
            .find(&ASSET.at(["kit.js"]).uri().replace(".js", "."))
            .expect("the kit is loaded");
        let own = page
            .find(&format!("{}.", PANEL_ASSET.at([entry.id]).uri()))
            .expect("the game's own board is loaded");
        assert!(kit < own, "the kit loads before the board");
        let style = format!("{}.", PANEL_ASSET.at([entry.id]).uri());
        assert!(page.matches(&style).count() >= 2, "its style and script");
        for other in ids.iter().filter(|i| **i != entry.id) {
            assert!(
                !page.contains(PANEL_ASSET.at([&format!("{other}.")]).uri()),
                "{} loads {other}",
                entry.id
            );
        }
    }
}
