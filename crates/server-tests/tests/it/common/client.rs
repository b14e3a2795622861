//! Helpers for driving the server in process: requests, tables with claimed seats, and a
//! reader of Server-Sent Events.
//!
//! Requests are typed: the path is a route of `clash_server::http::routes` with its parameters
//! filled in (`COMMAND.at([&t.id]).key(&t.p1)`), the method is the route's, and the body is one
//! of the server's own request types (`.json(&CommandBody::of(…))`), or text for the tests that
//! send what no client should. Every answer is checked against the API document
//! ([`crate::conformance`]).

use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use clash_core::RulesetEntry;

pub use clash_server::http::dto::*;
pub use clash_server::http::notify_dto::{HandleBody, KeptLink, MovesBody, NewTarget};
pub use clash_server::http::routes::{self, Href};
use http_body_util::BodyExt;
use serde::Serialize;
use serde_json::{Value, json};
use tower::ServiceExt;

use crate::common::SealedDuel;

pub struct Server {
    pub app: Router,
    pub server: Arc<clash_server::Server>,
    pub path: std::path::PathBuf,
    pub _dir: tempfile::TempDir,
}

pub fn catalogue() -> Vec<RulesetEntry> {
    vec![RulesetEntry::of::<SealedDuel>()]
}

pub fn server() -> Server {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("clash.db");
    let tables = clash_server::open(&path, catalogue()).unwrap();
    Server {
        app: clash_server::app(tables.clone()),
        server: tables,
        path,
        _dir: dir,
    }
}

/// Send one request (a method of the caller's choice: a page, an asset, or a method the route
/// does not have); returns the status and the body as text. The answer is checked against the
/// API document.
pub async fn call(
    app: &Router,
    method: &str,
    uri: &str,
    body: Option<&str>,
) -> (StatusCode, String) {
    let mut req = Request::builder().method(method).uri(uri);
    if body.is_some() {
        req = req.header("content-type", "application/json");
    }
    let req = req
        .body(body.map_or_else(Body::empty, |b| Body::from(b.to_string())))
        .unwrap();
    let resp = app.clone().oneshot(req).await.unwrap();
    let status = resp.status();
    let bytes = resp.into_body().collect().await.unwrap().to_bytes();
    let text = String::from_utf8_lossy(&bytes).into_owned();
    crate::conformance::check(method, uri, status, &text);
    (status, text)
}

/// A request: a route with its parameters filled in, and its JSON body if it has one.
pub struct Req {
    pub href: Href,
    pub body: Option<String>,
}

impl From<Href> for Req {
    fn from(href: Href) -> Req {
        Req { href, body: None }
    }
}

/// A body for a route's request.
pub trait WithBody {
    /// One of the server's request types (or any JSON), as JSON.
    fn json(self, body: &impl Serialize) -> Req;
    /// Text sent as JSON as it is: for bodies no client should send.
    fn body(self, text: &str) -> Req;
}

impl WithBody for Href {
    fn json(self, body: &impl Serialize) -> Req {
        let text = serde_json::to_string(body).unwrap();
        self.body(&text)
    }

    fn body(self, text: &str) -> Req {
        Req {
            href: self,
            body: Some(text.to_string()),
        }
    }
}

/// Send a request with its route's method; the status and the body as text.
pub async fn api_text(app: &Router, req: impl Into<Req>) -> (StatusCode, String) {
    let req = req.into();
    let method = req.href.verb.as_str();
    call(app, method, req.href.uri(), req.body.as_deref()).await
}

/// Send a request with its route's method; the status and the body as JSON (a string when it
/// is not JSON).
pub async fn api(app: &Router, req: impl Into<Req>) -> (StatusCode, Value) {
    let (status, out) = api_text(app, req).await;
    (
        status,
        serde_json::from_str(&out).unwrap_or(Value::String(out)),
    )
}

pub async fn call_json(
    app: &Router,
    method: &str,
    uri: &str,
    body: Option<Value>,
) -> (StatusCode, Value) {
    let text = body.map(|b| b.to_string());
    let (status, out) = call(app, method, uri, text.as_deref()).await;
    (
        status,
        serde_json::from_str(&out).unwrap_or(Value::String(out)),
    )
}

/// A table with invite links for p1 and p2.
pub struct Table {
    pub id: String,
    pub owner: String,
    pub spectator: String,
    pub p1: String,
    pub p2: String,
}

pub async fn table(app: &Router) -> Table {
    let (status, created) = api(
        app,
        routes::CREATE_TABLE.at([]).json(&CreateTable {
            ruleset: Some(String::from("sealed-duel")),
            title: Some(String::from("Test")),
            ..CreateTable::default()
        }),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    let id = created["table"].as_str().unwrap().to_string();
    let owner = created["owner_key"].as_str().unwrap().to_string();
    let spectator = created["spectator_key"].as_str().unwrap().to_string();
    let p1 = seat_key(app, &id, &owner, "p1").await;
    let p2 = seat_key(app, &id, &owner, "p2").await;
    Table {
        id,
        owner,
        spectator,
        p1,
        p2,
    }
}

/// The GM issues an invite for `seat`; returns the invite key.
pub async fn invite(app: &Router, id: &str, owner: &str, seat: &str) -> String {
    let (status, link) = api(app, routes::ISSUE_LINK.at([id, seat]).key(owner)).await;
    assert_eq!(status, StatusCode::CREATED, "{link}");
    link["invite"].as_str().unwrap().to_string()
}

/// A player uses an invite; returns the player's own key.
pub async fn claim(app: &Router, id: &str, invite: &str) -> String {
    let (status, claimed) = api(app, routes::CLAIM.at([id]).key(invite)).await;
    assert_eq!(status, StatusCode::CREATED, "{claimed}");
    claimed["key"].as_str().unwrap().to_string()
}

/// Invite and claim: the key a player of `seat` holds.
pub async fn seat_key(app: &Router, id: &str, owner: &str, seat: &str) -> String {
    let invite = invite(app, id, owner, seat).await;
    claim(app, id, &invite).await
}

pub async fn send(app: &Router, t: &Table, key: &str, command: Value) -> (StatusCode, Value) {
    api(
        app,
        routes::COMMAND
            .at([&t.id])
            .key(key)
            .json(&CommandBody::of(json!(command))),
    )
    .await
}

/// The game events of the table's log so far (table events not counted).
pub async fn event_count(app: &Router, t: &Table) -> u64 {
    game_lines(app, &t.id, &t.owner, 0).await.len() as u64
}

/// The log lines a key reads from `after` on that are game events.
pub async fn game_lines(app: &Router, id: &str, key: &str, after: usize) -> Vec<Value> {
    let (status, events) = api(app, routes::EVENTS.at([id]).key(key).query("after", after)).await;
    assert_eq!(status, StatusCode::OK, "{events}");
    events["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e.get("event").is_some())
        .cloned()
        .collect()
}

/// The length of the table's log (its revision).
pub async fn log_len(app: &Router, id: &str, key: &str) -> usize {
    let (_, info) = api(app, routes::TABLE_INFO.at([id]).key(key)).await;
    info["event_count"].as_u64().unwrap() as usize
}

/// Reads Server-Sent Events from a response body.
pub struct Sse {
    body: Body,
    buf: String,
}

#[derive(Debug)]
pub struct SseEvent {
    pub event: String,
    pub id: Option<String>,
    pub data: String,
}

impl Sse {
    pub async fn open(app: &Router, uri: &str, last_event_id: Option<&str>) -> Sse {
        let mut req = Request::builder().uri(uri);
        if let Some(id) = last_event_id {
            req = req.header("last-event-id", id);
        }
        let resp = app
            .clone()
            .oneshot(req.body(Body::empty()).unwrap())
            .await
            .unwrap();
        assert_eq!(resp.status(), StatusCode::OK);
        assert_eq!(resp.headers()["content-type"], "text/event-stream");
        Sse {
            body: resp.into_body(),
            buf: String::new(),
        }
    }

    /// The next event, or `None` if the stream ends or nothing arrives within a second.
    pub async fn next(&mut self) -> Option<SseEvent> {
        loop {
            if let Some(end) = self.buf.find("\n\n") {
                let block: String = self.buf.drain(..end + 2).collect();
                let mut ev = SseEvent {
                    event: "message".into(),
                    id: None,
                    data: String::new(),
                };
                let mut any = false;
                for line in block.lines() {
                    if let Some(v) = line.strip_prefix("event:") {
                        ev.event = v.trim().into();
                        any = true;
                    } else if let Some(v) = line.strip_prefix("data:") {
                        ev.data.push_str(v.strip_prefix(' ').unwrap_or(v));
                        any = true;
                    } else if let Some(v) = line.strip_prefix("id:") {
                        ev.id = Some(v.trim().into());
                    }
                }
                if any {
                    return Some(ev);
                }
                continue; // a keep-alive comment
            }
            let frame = tokio::time::timeout(Duration::from_secs(1), self.body.frame())
                .await
                .ok()??
                .ok()?;
            if let Ok(data) = frame.into_data() {
                self.buf.push_str(&String::from_utf8_lossy(&data));
            }
        }
    }

    pub async fn update(&mut self) -> Value {
        let ev = self.next().await.expect("an update");
        assert_eq!(ev.event, "update");
        serde_json::from_str(&ev.data).unwrap()
    }
}
