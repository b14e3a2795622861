//! Every body a page sends (described for TypeScript in the server's `pages::requests`), with
//! every field it may carry, is sent to its route and taken: the routes refuse unknown fields,
//! so a field renamed on either side fails here (or, on the page's side, `tsc`).

use axum::Router;
use axum::http::StatusCode;

use crate::client::{CreateTable, Href, WithBody, api, routes};

use clash_core::{Seat, Strength};
use clash_server::pages::requests::*;
use serde::Serialize;
use serde_json::{Value, json};

/// Sends `body` and requires it taken.
async fn taken(app: &Router, href: Href, body: &impl Serialize) -> Value {
    let what = format!("{} {href}", href.verb.as_str());
    let (status, answer) = api(app, href.json(body)).await;
    assert!(status.is_success(), "{what}: {status} {answer}");
    answer
}

/// A Triforce table whose GM plays p1, at the start.
async fn table(app: &Router) -> (String, String) {
    let body = json!(CreateTable {
        ruleset: Some(String::from("triforce")),
        title: Some(String::from("Types")),
        ..CreateTable::default()
    });
    let (status, created) = api(app, routes::CREATE_TABLE.at([]).json(&body)).await;
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
    let at = |route: routes::Route| route.at([&id]).key(&key);
    let seat = |route: routes::Route, seat: &str| route.at([&id, seat]).key(&key);
    taken(
        &app,
        seat(routes::ISSUE_LINK, "p1"),
        &LinkRequest { npc: true },
    )
    .await;
    let seed = SeedRequest {
        seed: "5eed".into(),
    };
    taken(&app, at(routes::SEED), &seed).await;
    let (status, view) = api(&app, at(routes::VIEW).query("as", "p1")).await;
    assert!(status.is_success(), "{status} {view}");
    let command = CommandRequest {
        command: view["legal"][0]["command"].clone(),
        as_seat: Some(Seat::Player(1)),
        id: "types-1".into(),
        revision: view["event_count"].as_u64().unwrap(),
        ask: false,
    };
    let answer = taken(&app, at(routes::COMMAND), &command).await;
    let n = answer["room"]["undo"]["n"]
        .as_u64()
        .expect("the move can be taken back");
    taken(&app, at(routes::UNDO), &UndoRequest { n }).await;
    let line = ChatLine {
        text: "hello".into(),
        to_gm: false,
        to: None,
    };
    taken(&app, at(routes::CHAT), &line).await;
    taken(
        &app,
        at(routes::SWITCH_ODDS),
        &OddsRequest { enabled: true },
    )
    .await;
    let bot = BotRequest {
        strength: Strength::Casual,
    };
    taken(&app, seat(routes::SEAT_BOT, "p2"), &bot).await;
    let title = RenameRequest {
        title: "Typed".into(),
    };
    taken(&app, at(routes::RENAME), &title).await;
    taken(
        &app,
        at(routes::ARCHIVE),
        &ArchiveRequest { archived: false },
    )
    .await;
}
