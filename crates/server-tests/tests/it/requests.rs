//! Every body a page sends (described for TypeScript in the server's `pages::requests`), with
//! every field it may carry, is sent to its route and taken: the routes refuse unknown fields,
//! so a field renamed on either side fails here (or, on the page's side, `tsc`).

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use tower::ServiceExt;

use clash_core::{Seat, Strength};
use clash_server::pages::requests::*;
use serde::Serialize;
use serde_json::{Value, json};

async fn call(app: &Router, method: &str, uri: &str, body: Value) -> (StatusCode, Value) {
    let req = Request::builder()
        .method(method)
        .uri(uri)
        .header("content-type", "application/json")
        .body(Body::from(body.to_string()))
        .unwrap();
    let resp = app.clone().oneshot(req).await.unwrap();
    let status = resp.status();
    let bytes = resp.into_body().collect().await.unwrap().to_bytes();
    (
        status,
        serde_json::from_slice(&bytes).unwrap_or(Value::Null),
    )
}

/// Sends `body` and requires it taken.
async fn taken(app: &Router, method: &str, uri: &str, body: &impl Serialize) -> Value {
    let (status, answer) = call(app, method, uri, json!(body)).await;
    assert!(status.is_success(), "{method} {uri}: {status} {answer}");
    answer
}

/// A Triforce table whose GM plays p1, at the start.
async fn table(app: &Router) -> (String, String) {
    let body = json!({ "ruleset": "triforce", "title": "Types" });
    let (status, created) = call(app, "POST", "/api/tables", body).await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    let id = created["table"].as_str().unwrap().to_string();
    let key = created["owner_key"].as_str().unwrap().to_string();
    (id, key)
}

#[tokio::test]
async fn every_body_a_page_sends_is_taken_by_its_route() {
    let dir = tempfile::tempdir().unwrap();
    let tables = clash_server::open(&dir.path().join("c.db"), clash_catalogue::rulesets()).unwrap();
    let app = clash_server::app(tables);
    let (id, key) = table(&app).await;
    let at = |path: &str| format!("/api/tables/{id}{path}?key={key}");
    taken(
        &app,
        "POST",
        &at("/seats/p1/link"),
        &LinkRequest { npc: true },
    )
    .await;
    let seed = SeedRequest {
        seed: "5eed".into(),
    };
    taken(&app, "POST", &at("/seed"), &seed).await;
    let view = taken(&app, "GET", &(at("/view") + "&as=p1"), &()).await;
    let command = CommandRequest {
        command: view["legal"][0]["command"].clone(),
        as_seat: Some(Seat::Player(1)),
        id: "types-1".into(),
        revision: view["event_count"].as_u64().unwrap(),
        ask: false,
    };
    let answer = taken(&app, "POST", &at("/commands"), &command).await;
    let n = answer["room"]["undo"]["n"]
        .as_u64()
        .expect("the move can be taken back");
    taken(&app, "POST", &at("/undo"), &UndoRequest { n }).await;
    let line = ChatLine {
        text: "hello".into(),
        to_gm: false,
        to: None,
    };
    taken(&app, "POST", &at("/chat"), &line).await;
    taken(&app, "PUT", &at("/odds"), &OddsSwitch { enabled: true }).await;
    let bot = BotRequest {
        strength: Strength::Casual,
    };
    taken(&app, "POST", &at("/seats/p2/bot"), &bot).await;
    let title = RenameRequest {
        title: "Typed".into(),
    };
    taken(&app, "POST", &at("/rename"), &title).await;
    taken(
        &app,
        "POST",
        &at("/archive"),
        &ArchiveRequest { archived: false },
    )
    .await;
}
