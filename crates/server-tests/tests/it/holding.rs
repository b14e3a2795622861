//! Who holds a seat, and what follows them (issue 37): a claim sent again with its request id
//! gets the same key, so a lost answer costs nothing; notification targets and handles follow a
//! player who moves their seat to another device, and the GM to a new GM link, in the same
//! transaction; and a table whose game the server does not offer now says so (404) and can
//! still be deleted by its GM. On SQLite and, when `CLASH_TEST_POSTGRES` is set, PostgreSQL.

use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use clash_server::store::Db;
use clash_server::{Limits, Server};
use http_body_util::BodyExt;
use serde_json::{Value, json};
use tower::ServiceExt;

use crate::client::{
    CreateTable, HandleBody, Line, Table, WithBody, api, api_text, catalogue, invite, routes, table,
};
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

async fn node(db: &Db, catalogue: Vec<clash_core::RulesetEntry>) -> (Router, Arc<Server>) {
    let limits = Limits {
        notify: settings(None),
        ..Limits::default()
    };
    let tables = clash_server::open_db(db, catalogue, limits).await.unwrap();
    tables.start_notify();
    (clash_server::app(tables.clone()), tables)
}

/// Claim `link` with the request id `id` (if any): the status and the body.
async fn claim_as(app: &Router, table: &str, link: &str, id: Option<&str>) -> (StatusCode, Value) {
    let mut request = Request::builder()
        .method("POST")
        .uri(routes::CLAIM.at([table]).key(link).into_uri());
    if let Some(id) = id {
        request = request.header("x-request-id", id);
    }
    let response = app
        .clone()
        .oneshot(request.body(Body::empty()).unwrap())
        .await
        .unwrap();
    let status = response.status();
    let body = response.into_body().collect().await.unwrap().to_bytes();
    (status, serde_json::from_slice(&body).unwrap_or(Value::Null))
}

fn key(answer: &Value) -> String {
    answer["key"].as_str().unwrap().to_string()
}

#[tokio::test]
async fn a_claim_sent_again_with_its_request_id_gets_the_same_key() {
    let dir = tempfile::tempdir().unwrap();
    for db in backends(&dir) {
        let (app, _tables) = node(&db, catalogue()).await;
        let t = table(&app).await;
        let link = invite(&app, &t.id, &t.owner, "p1").await;
        let id = "c0ffee00-1234-4abc-8def-0123456789ab";
        // The first answer is lost: the client gave up before it came (the change still
        // finishes, as its own task). On a busy machine the claim may be done at the first
        // look; its answer is thrown away all the same, so the retry below is one after a lost
        // answer either way.
        let lost = tokio::time::timeout(Duration::ZERO, claim_as(&app, &t.id, &link, Some(id)));
        let _thrown_away = lost.await;
        let (status, first) = claim_as(&app, &t.id, &link, Some(id)).await;
        assert_eq!(status, StatusCode::CREATED, "{db:?}: {first}");
        let (status, again) = claim_as(&app, &t.id, &link, Some(id)).await;
        assert_eq!((status, key(&again)), (StatusCode::CREATED, key(&first)));
        // Another request, or none, finds the invite used.
        for other in [Some("another-request-0123456789"), None] {
            let (status, answer) = claim_as(&app, &t.id, &link, other).await;
            assert_eq!(status, StatusCode::FORBIDDEN, "{answer}");
            assert_eq!(answer["error"]["code"], "invite_used");
        }
        // The seat has one player, and a server started again answers the same.
        let (_, info) = api(&app, routes::TABLE_INFO.at([&t.id]).key(&t.owner)).await;
        assert_eq!(info["seats"][1]["holder"], "player", "{info}");
        let (restarted, _) = node(&db, catalogue()).await;
        let (status, later) = claim_as(&restarted, &t.id, &link, Some(id)).await;
        assert_eq!((status, key(&later)), (StatusCode::CREATED, key(&first)));
        // Once that key no longer plays the seat (moved to another device), the retry is
        // only a used invite.
        let uri = routes::MOVE_LINK.at([&t.id]).key(&key(&first));
        let (_, moving) = api(&restarted, uri).await;
        claim_as(&restarted, &t.id, moving["key"].as_str().unwrap(), None).await;
        let (status, _) = claim_as(&restarted, &t.id, &link, Some(id)).await;
        assert_eq!(status, StatusCode::FORBIDDEN);
    }
}

#[tokio::test]
async fn short_request_ids_are_not_remembered_and_the_invite_page_sends_its_own() {
    let dir = tempfile::tempdir().unwrap();
    let (app, _tables) = node(&Db::Sqlite(dir.path().join("c.db")), catalogue()).await;
    let t = table(&app).await;
    let link = invite(&app, &t.id, &t.owner, "p1").await;
    // An id as short as the server's own (which another could guess) gets nothing again.
    let (status, _) = claim_as(&app, &t.id, &link, Some("00000000002a")).await;
    assert_eq!(status, StatusCode::CREATED);
    let (status, _) = claim_as(&app, &t.id, &link, Some("00000000002a")).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    // The invite page's form carries a claim id: sending it twice lands on the same seat page.
    let link = invite(&app, &t.id, &t.owner, "p2").await;
    let (_, page) = api_text(&app, routes::TABLE_PAGE.at([&t.id, &link])).await;
    let value = page.split("name=\"claim\" value=\"").nth(1).unwrap();
    let claim_id = &value[..value.find('"').unwrap()];
    assert_eq!(claim_id.len(), 32);
    let mut landed = Vec::new();
    for _ in 0..2 {
        let request = Request::builder()
            .method("POST")
            .uri(routes::CLAIM_FROM_PAGE.at([&t.id, &link]).into_uri())
            .header("content-type", "application/x-www-form-urlencoded")
            .body(Body::from(format!("claim={claim_id}")))
            .unwrap();
        let response = app.clone().oneshot(request).await.unwrap();
        assert_eq!(response.status(), StatusCode::SEE_OTHER);
        landed.push(response.headers()["location"].to_str().unwrap().to_string());
    }
    assert_eq!(landed[0], landed[1]);
}

/// `key`'s notification settings.
async fn notify(app: &Router, t: &Table, key: &str) -> Value {
    api(app, routes::NOTIFY_SETTINGS.at([&t.id]).key(key))
        .await
        .1
}

#[tokio::test]
async fn targets_and_handles_follow_a_seat_move_and_a_new_gm_link() {
    let dir = tempfile::tempdir().unwrap();
    let hooks = Receiver::start().await;
    for db in backends(&dir) {
        let (app, _tables) = node(&db, catalogue()).await;
        let t = table(&app).await;
        let add = |key: String, body: Value| {
            let (app, uri) = (app.clone(), routes::ADD_TARGET.at([&t.id]).key(&key));
            async move { api(&app, uri.json(&body)).await.0 }
        };
        let hook = json!({"kind": "webhook", "format": "json", "address": hooks.url("p1")});
        assert_eq!(add(t.p1.clone(), hook).await, StatusCode::CREATED);
        let uri = routes::SET_HANDLE.at([&t.id]).key(&t.p1);
        let handle = HandleBody {
            handle: Some("@ada".into()),
        };
        let (status, _) = api(&app, uri.json(&handle)).await;
        assert_eq!(status, StatusCode::NO_CONTENT);
        let channel =
            json!({"kind": "channel", "format": "discord", "address": hooks.url("channel")});
        assert_eq!(add(t.owner.clone(), channel).await, StatusCode::CREATED);
        // p1 moves to another device; the GM replaces the GM link.
        let (_, moving) = api(&app, routes::MOVE_LINK.at([&t.id]).key(&t.p1)).await;
        let (_, moved) = claim_as(&app, &t.id, moving["key"].as_str().unwrap(), None).await;
        let p1 = key(&moved);
        let uri = routes::REPLACE_LINK.at([&t.id, "owner"]).key(&t.owner);
        let (_, owner) = api(&app, uri).await;
        let owner = key(&owner);
        let mine = notify(&app, &t, &p1).await;
        assert_eq!(
            mine["targets"][0]["address"],
            hooks.url("p1"),
            "{db:?}: {mine}"
        );
        assert_eq!(mine["handle"], "@ada");
        let gm = notify(&app, &t, &owner).await;
        assert_eq!(gm["channel"]["address"], hooks.url("channel"), "{gm}");
        // And they work: the GM's whisper reaches p1's webhook.
        let uri = routes::CHAT.at([&t.id]).key(&owner);
        let body = Line {
            text: "still there?".into(),
            to: Some("p1".into()),
            ..Line::default()
        };
        assert_eq!(api(&app, uri.json(&body)).await.0, StatusCode::NO_CONTENT);
        let got = || {
            hooks
                .got("p1")
                .iter()
                .any(|g| g.body.to_string().contains("still there?"))
        };
        assert!(eventually(Duration::from_secs(5), got).await, "{db:?}");
    }
}

#[tokio::test]
async fn a_table_whose_game_is_not_offered_says_so_and_its_gm_can_delete_it() {
    let dir = tempfile::tempdir().unwrap();
    let db = Db::Sqlite(dir.path().join("c.db"));
    let (id, owner, spectator) = {
        let (app, _) = node(&db, clash_catalogue::served(true)).await;
        let body = CreateTable {
            ruleset: Some("morra".into()),
            title: Some("An example".into()),
            ..CreateTable::default()
        };
        let (status, created) = api(&app, routes::CREATE_TABLE.at([]).json(&body)).await;
        assert_eq!(status, StatusCode::CREATED, "{created}");
        let text = |k: &str| created[k].as_str().unwrap().to_string();
        (text("table"), text("owner_key"), text("spectator_key"))
    };
    // The same database, served without the examples.
    let (app, _) = node(&db, clash_catalogue::served(false)).await;
    for key in [&owner, &spectator] {
        let (status, answer) = api(&app, routes::TABLE_INFO.at([&id]).key(key)).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{answer}");
        assert_eq!(answer["error"]["code"], "ruleset_unavailable");
        assert!(
            answer["error"]["message"]
                .as_str()
                .unwrap()
                .contains("\"morra\"")
        );
    }
    let (status, page) = api_text(&app, routes::TABLE_PAGE.at([&id, &owner])).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(page.contains("morra"), "the page names the game");
    let delete = |key: &str| routes::DELETE_TABLE.at([&id]).key(key);
    let (status, _) = api(&app, delete(&spectator)).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "only the GM deletes");
    let (status, _) = api(&app, delete(&owner)).await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    let (status, answer) = api(&app, routes::TABLE_INFO.at([&id]).key(&owner)).await;
    assert_eq!(
        (status, &answer["error"]["code"]),
        (StatusCode::NOT_FOUND, &json!("unknown_table"))
    );
}
