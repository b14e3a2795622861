//! Every endpoint, in process, through `tower::ServiceExt::oneshot`, against a test ruleset.

use axum::body::Body;
use axum::http::{Request, StatusCode};
use clash_core::{AnyGame, ChanceInputs, DerivedRandomness, RulesetEntry, Seat};
use http_body_util::BodyExt;
use serde_json::{Value, json};
use tower::ServiceExt;

use crate::client::*;
use crate::common::SealedDuel;

#[tokio::test]
async fn health_answers_when_the_database_is_reachable() {
    let s = server();
    let (status, body) = api_text(&s.app, routes::HEALTHZ.at([])).await;
    assert_eq!((status, body.as_str()), (StatusCode::OK, "ok\n"));
}

/// The OpenAPI document is generated from the same annotations that route the handlers: every
/// documented path and method is answered by its route (never by the fallback), and every
/// endpoint the API had is documented.
#[tokio::test]
async fn openapi_document_describes_every_endpoint() {
    let s = server();
    let (status, doc) = api(&s.app, routes::OPENAPI.at([])).await;
    assert_eq!(status, StatusCode::OK);
    assert!(
        doc["openapi"].as_str().unwrap().starts_with("3.1"),
        "{}",
        doc["openapi"]
    );
    for route in [
        routes::HEALTHZ,
        routes::RULESETS,
        routes::CREATE_TABLE,
        routes::TABLE_INFO,
        routes::VIEW,
        routes::EVENTS,
        routes::COMMAND,
        routes::STREAM,
        routes::EXPORT,
        routes::CLAIM,
        routes::MOVE_LINK,
        routes::SEED,
        routes::CLOSE,
        routes::HAND_BACK,
        routes::ISSUE_LINK,
        routes::SEAT_BOT,
        routes::REPLACE_LINK,
        routes::FROM_FORM,
        routes::CHECK_FORM,
        routes::SETUP_FILE,
        routes::METRICS,
    ] {
        let path = route.path;
        assert!(doc["paths"][path].is_object(), "{path} is not documented");
    }
    assert!(doc["paths"]["/api/tables/{id}"]["delete"].is_object());
    // Walk the document: each documented method of each path reaches its own route.
    let t = table(&s.app).await;
    for (path, methods) in doc["paths"].as_object().unwrap() {
        for method in methods.as_object().unwrap().keys() {
            let route = routes::ALL
                .iter()
                .find(|r| r.path == path && r.verb.lower() == method)
                .unwrap_or_else(|| panic!("{method} {path} is not in http/routes.rs"));
            if *route == routes::STREAM {
                continue; // a live stream never ends by itself; tests/http.rs streams elsewhere
            }
            let values: Vec<&str> = route
                .params()
                .map(|p| match p {
                    "id" => t.id.as_str(),
                    "seat" => "p1",
                    "link" => "spectator",
                    _ => "x",
                })
                .collect();
            let uri = route.with(&values).key("nokey");
            let method = route.verb.as_str();
            let (status, body) = call(&s.app, method, &uri, None).await;
            assert_ne!(
                status,
                StatusCode::METHOD_NOT_ALLOWED,
                "{method} {path}: {body}"
            );
            assert!(
                !body.contains("\"not_found\""),
                "{method} {path} is documented but not routed: {body}"
            );
        }
    }
}

#[tokio::test]
async fn rulesets_come_with_setups_the_ruleset_accepts() {
    let s = server();
    let (status, body) = api(&s.app, routes::RULESETS.at([])).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body["rulesets"][0]["id"], "sealed-duel");
    assert_eq!(body["rulesets"][0]["presets"][0]["setup"], json!({}));
}

#[tokio::test]
async fn creating_a_table_hands_out_unguessable_owner_and_spectator_links() {
    let s = server();
    let (status, created) = api(
        &s.app,
        routes::CREATE_TABLE.at([]).json(&CreateTable {
            ruleset: Some(String::from("sealed-duel")),
            setup: Some(json!({"players": 3})),
            ..CreateTable::default()
        }),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED);
    let owner = created["owner_key"].as_str().unwrap();
    assert_eq!(owner.len(), 32, "128 bits as hex");
    assert_ne!(owner, created["spectator_key"].as_str().unwrap());
    assert_eq!(
        created["links"]["owner"],
        routes::TABLE_PAGE
            .at([created["table"].as_str().unwrap(), owner])
            .uri()
    );
    let seats: Vec<&str> = created["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["seat"].as_str().unwrap())
        .collect();
    assert_eq!(seats, ["gm", "p1", "p2", "p3"]);
    assert_eq!(created["seats"][0]["holder"], "owner");
    assert_eq!(created["seats"][1]["holder"], "open");
}

#[tokio::test]
async fn bad_table_creations_are_refused_in_words() {
    let s = server();
    let cases = [
        (
            json!({"ruleset": "chess"}),
            StatusCode::BAD_REQUEST,
            "unknown ruleset",
        ),
        (
            json!({"setup": {}}),
            StatusCode::BAD_REQUEST,
            "name the ruleset",
        ),
        (
            json!({"ruleset": "sealed-duel", "setup": {"players": "many"}}),
            StatusCode::BAD_REQUEST,
            "does not fit",
        ),
        (
            json!({"ruleset": "sealed-duel", "setup": {"players": 9}}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "SD-0",
        ),
    ];
    for (body, status, words) in cases {
        let (got, answer) = api(&s.app, routes::CREATE_TABLE.at([]).json(&body.clone())).await;
        assert_eq!(got, status, "{body}: {answer}");
        assert!(
            answer["error"]["message"].as_str().unwrap().contains(words),
            "{answer}"
        );
    }
    assert_eq!(s.server.store().count_tables().await.unwrap(), 0);
}

#[tokio::test]
async fn the_owner_manages_seat_links_and_only_the_owner() {
    let s = server();
    let t = table(&s.app).await;
    let (_, info) = api(&s.app, routes::TABLE_INFO.at([&t.id]).key(&t.owner)).await;
    assert_eq!(info["role"], "owner");
    assert_eq!(info["seat"], "gm");
    assert_eq!(info["seats"][1]["holder"], "player");
    assert!(
        !info.to_string().contains(&t.p1),
        "the GM never holds a player's own key"
    );
    // A player sees its role, and no one's keys.
    let (_, mine) = api(&s.app, routes::TABLE_INFO.at([&t.id]).key(&t.p1)).await;
    assert_eq!(mine["role"], "p1");
    assert!(!mine.to_string().contains(&t.p2) && !mine.to_string().contains(&t.owner));
    // Players cannot hand out links.
    let (status, _) = api(&s.app, routes::ISSUE_LINK.at([&t.id, "p2"]).key(&t.p1)).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    // No links for the GM's own seat; seats the game lacks are not there at all.
    for (seat, expected) in [
        ("gm", StatusCode::BAD_REQUEST),
        ("p9", StatusCode::NOT_FOUND),
        ("x", StatusCode::NOT_FOUND),
    ] {
        for method in ["POST", "DELETE"] {
            let (status, answer) = call_json(
                &s.app,
                method,
                &routes::ISSUE_LINK.at([&t.id, seat]).key(&t.owner),
                None,
            )
            .await;
            assert_eq!(status, expected, "{method} {seat}: {answer}");
        }
    }
    // Reissuing revokes the old link.
    let fresh = invite(&s.app, &t.id, &t.owner, "p1").await;
    let (status, _) = api(&s.app, routes::TABLE_INFO.at([&t.id]).key(&t.p1)).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, _) = api(
        &s.app,
        routes::TABLE_INFO
            .at([&t.id])
            .key(&claim(&s.app, &t.id, &fresh).await),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    // Revoking removes it.
    let (status, _) = api_text(&s.app, routes::REVOKE_LINK.at([&t.id, "p2"]).key(&t.owner)).await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    let (status, _) = send(&s.app, &t, &t.p2, json!({"type": "commit", "word": "x"})).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn a_key_acts_only_for_its_seat() {
    let s = server();
    let t = table(&s.app).await;
    let (status, body) = send(
        &s.app,
        &t,
        &t.p1,
        json!({"type": "commit", "word": "apple"}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["seat"], "p1");
    assert_eq!(body["events"][0]["text"], "p1 commits apple");
    // p1's key cannot pose as p2.
    let uri = routes::COMMAND.at([&t.id]).key(&t.p1);
    let (status, _) = call_json(
        &s.app,
        "POST",
        &uri,
        Some(json!(CommandBody {
            command: Some(json!({"type": "commit", "word": "x"})),
            as_seat: Some(String::from("p2")),
            ..CommandBody::default()
        })),
    )
    .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    // Spectators only watch.
    let (status, body) = send(&s.app, &t, &t.spectator, json!({"type": "reveal"})).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
    assert_eq!(event_count(&s.app, &t).await, 1);
}

#[tokio::test]
async fn the_gm_plays_npc_seats_only_once_marked_so() {
    let s = server();
    let t = table(&s.app).await;
    let uri = routes::COMMAND.at([&t.id]).key(&t.owner);
    let commit = json!(CommandBody {
        command: Some(json!({"type": "commit", "word": "pear"})),
        as_seat: Some(String::from("p2")),
        ..CommandBody::default()
    });
    let (status, _) = call_json(&s.app, "POST", &uri, Some(commit.clone())).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "p2 is a player's seat");
    let (status, link) = api(
        &s.app,
        routes::ISSUE_LINK
            .at([&t.id, "p2"])
            .key(&t.owner)
            .json(&LinkBody { npc: true }),
    )
    .await;
    assert_eq!((status, &link["npc"]), (StatusCode::CREATED, &json!(true)));
    let (status, body) = call_json(&s.app, "POST", &uri, Some(commit)).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["seat"], "p2");
    let (_, view) = api(
        &s.app,
        routes::VIEW.at([&t.id]).key(&t.owner).query("as", "p2"),
    )
    .await;
    assert_eq!(view["view"]["mine"], "pear");
}

#[tokio::test]
async fn bad_input_is_refused_clearly_and_changes_nothing() {
    let s = server();
    let t = table(&s.app).await;
    send(
        &s.app,
        &t,
        &t.p1,
        json!({"type": "commit", "word": "apple"}),
    )
    .await;
    let before = event_count(&s.app, &t).await;
    let commands = routes::COMMAND.at([&t.id]).key(&t.p1);
    let big = format!(
        "{{\"command\": {{\"type\": \"commit\", \"word\": \"{}\"}}}}",
        "x".repeat(100_000)
    );
    let cases: Vec<(String, Option<String>, StatusCode, &str)> = vec![
        (
            routes::COMMAND.at(["nope"]).key(&t.p1).into_uri(),
            Some(r#"{"command": {"type": "reveal"}}"#.into()),
            StatusCode::NOT_FOUND,
            "no table",
        ),
        (
            routes::COMMAND.at([&t.id]).key("0123").into_uri(),
            Some(r#"{"command": {"type": "reveal"}}"#.into()),
            StatusCode::FORBIDDEN,
            "not valid",
        ),
        (
            routes::COMMAND.at([&t.id]).into_uri(),
            Some(r#"{"command": {"type": "reveal"}}"#.into()),
            StatusCode::UNAUTHORIZED,
            "link key",
        ),
        (
            commands.to_string(),
            Some(r#"{"command": {"type": "commit", "word": "again"}}"#.into()),
            StatusCode::UNPROCESSABLE_ENTITY,
            "SD-2",
        ),
        (
            commands.to_string(),
            Some(r#"{"command": {"type": "reveal"}}"#.into()),
            StatusCode::UNPROCESSABLE_ENTITY,
            "SD-3",
        ),
        (
            commands.to_string(),
            Some(r#"{"command": {"type": "fly"}}"#.into()),
            StatusCode::BAD_REQUEST,
            "malformed command",
        ),
        (
            commands.to_string(),
            Some(r#"{"command": "#.into()),
            StatusCode::BAD_REQUEST,
            "not valid JSON",
        ),
        (
            commands.to_string(),
            Some("[1, 2]".into()),
            StatusCode::BAD_REQUEST,
            "JSON object",
        ),
        (
            commands.to_string(),
            Some(r#"{"type": "reveal"}"#.into()),
            StatusCode::BAD_REQUEST,
            "unknown field `type`, expected one of `command`",
        ),
        (
            commands.to_string(),
            Some(r#"{"id": "a1"}"#.into()),
            StatusCode::BAD_REQUEST,
            "under \"command\"",
        ),
        (
            commands.to_string(),
            Some(r#"{"command": {"type": "reveal"}, "as": "zz"}"#.into()),
            StatusCode::NOT_FOUND,
            "unknown seat",
        ),
        (
            commands.to_string(),
            Some(big),
            StatusCode::PAYLOAD_TOO_LARGE,
            "larger than",
        ),
        (
            routes::EVENTS
                .at([&t.id])
                .key(&t.p1)
                .query("after", "-1")
                .into_uri(),
            None,
            StatusCode::BAD_REQUEST,
            "log position",
        ),
        (
            // hand-built: a path no route has.
            "/api/nothing".into(),
            None,
            StatusCode::NOT_FOUND,
            "openapi",
        ),
    ];
    for (uri, body, status, words) in cases {
        let method = if body.is_some() { "POST" } else { "GET" };
        let (got, answer) = call(&s.app, method, &uri, body.as_deref()).await;
        assert_eq!(got, status, "{uri}: {answer}");
        let answer: Value =
            serde_json::from_str(&answer).unwrap_or_else(|_| panic!("not JSON: {answer}"));
        let message = answer["error"]["message"].as_str().unwrap();
        assert!(
            message.contains(words),
            "{uri}: {message:?} lacks {words:?}"
        );
    }
    // The rule ID is also given on its own, for programs.
    let (_, answer) = send(&s.app, &t, &t.p1, json!({"type": "reveal"})).await;
    assert_eq!(answer["error"]["rule"], "SD-3");
    assert_eq!(answer["error"]["code"], "rule");
    assert_eq!(event_count(&s.app, &t).await, before);
}

#[tokio::test]
async fn views_and_events_are_the_callers_own() {
    let s = server();
    let t = table(&s.app).await;
    send(
        &s.app,
        &t,
        &t.p1,
        json!({"type": "commit", "word": "apple"}),
    )
    .await;
    let (status, view) = api(&s.app, routes::VIEW.at([&t.id]).key(&t.p1)).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(view["view"]["mine"], "apple");
    assert_eq!(view["events"], json!([]), "no events unless asked");
    assert_eq!(view["legal"], json!([]), "p1 has committed");
    let (_, view) = api(&s.app, routes::VIEW.at([&t.id]).key(&t.p2)).await;
    assert_eq!(view["view"]["mine"], Value::Null);
    assert_eq!(view["legal"][0]["label"], "Commit · word: apple");
    let lines = game_lines(&s.app, &t.id, &t.p2, 0).await;
    assert_eq!(lines[0]["text"], "p1 is ready");
    let end = log_len(&s.app, &t.id, &t.p2).await;
    let (_, events) = api(
        &s.app,
        routes::EVENTS.at([&t.id]).key(&t.p2).query("after", end),
    )
    .await;
    assert_eq!(events["events"], json!([]));
    assert_eq!(events["event_count"], end);
}

#[tokio::test]
async fn streams_push_each_change_and_resume_after_the_last_event() {
    let s = server();
    let t = table(&s.app).await;
    let mut p2 = Sse::open(&s.app, &routes::STREAM.at([&t.id]).key(&t.p2), None).await;
    let first = p2.update().await;
    let start = first["event_count"].as_u64().unwrap();
    assert_eq!(first["viewer"], "p2");
    send(
        &s.app,
        &t,
        &t.p1,
        json!({"type": "commit", "word": "apple"}),
    )
    .await;
    let next = p2.update().await;
    assert_eq!(next["events"][0]["text"], "p1 is ready");
    assert_eq!(next["view"]["ready"], json!(["p1"]));
    send(&s.app, &t, &t.p2, json!({"type": "commit", "word": "pear"})).await;
    let next = p2.update().await;
    assert_eq!(next["events"][0]["text"], "p2 commits pear");
    // Each command is one command entry and its events.
    let end = start + 4;
    assert_eq!(next["event_count"], end);
    // Reconnecting with Last-Event-ID (or ?after=) sends only what came later.
    let mut again = Sse::open(
        &s.app,
        &routes::STREAM.at([&t.id]).key(&t.p2),
        Some(&(start + 2).to_string()),
    )
    .await;
    let resumed = again.update().await;
    assert_eq!(resumed["events"].as_array().unwrap().len(), 1);
    assert_eq!(resumed["events"][0]["index"], start + 3);
    let mut later = Sse::open(
        &s.app,
        &routes::STREAM.at([&t.id]).key(&t.p2).query("after", end),
        None,
    )
    .await;
    assert_eq!(later.update().await["events"], json!([]));
}

#[tokio::test]
async fn a_revoked_link_loses_its_stream() {
    let s = server();
    let t = table(&s.app).await;
    let mut p1 = Sse::open(&s.app, &routes::STREAM.at([&t.id]).key(&t.p1), None).await;
    p1.update().await;
    api_text(&s.app, routes::REVOKE_LINK.at([&t.id, "p1"]).key(&t.owner)).await;
    let ev = p1.next().await.unwrap();
    assert_eq!(ev.event, "revoked");
    assert!(p1.next().await.is_none(), "the stream ends");
}

/// The table's server secret, as hex, straight from the database.
fn table_secret(path: &std::path::Path, id: &str) -> String {
    let conn = rusqlite::Connection::open(path).unwrap();
    conn.query_row("SELECT secret FROM tables WHERE id = ?1", [id], |r| {
        r.get::<_, String>(0)
    })
    .unwrap()
}

#[tokio::test]
async fn no_seat_ever_receives_another_seats_secret_the_server_secret_or_the_deck_order() {
    let s = server();
    let t = table(&s.app).await;
    let secret = table_secret(&s.path, &t.id);
    let stream = |key: &str| routes::STREAM.at([&t.id]).key(key);
    let mut p2 = Sse::open(&s.app, &stream(&t.p2), None).await;
    let mut spectator = Sse::open(&s.app, &stream(&t.spectator), None).await;
    let mut gm = Sse::open(&s.app, &stream(&t.owner), None).await;
    let mut seen_by_p2 = String::new();
    let mut seen_by_spectator = String::new();
    let mut seen_by_gm = String::new();
    let (_, shuffled) = api(
        &s.app,
        routes::COMMAND
            .at([&t.id])
            .key(&t.owner)
            .json(&CommandBody::of(json!({"type": "shuffle"}))),
    )
    .await;
    let (_, committed) = send(
        &s.app,
        &t,
        &t.p1,
        json!({"type": "commit", "word": "zebra-41"}),
    )
    .await;
    seen_by_gm.push_str(&shuffled.to_string());
    for _ in 0..3 {
        for (sse, seen) in [
            (&mut p2, &mut seen_by_p2),
            (&mut spectator, &mut seen_by_spectator),
            (&mut gm, &mut seen_by_gm),
        ] {
            if let Some(ev) = sse.next().await {
                seen.push_str(&ev.data);
            }
        }
    }
    for key in [&t.p2, &t.spectator, &t.owner] {
        for route in [routes::VIEW, routes::EVENTS, routes::TABLE_INFO] {
            let href = route.at([&t.id]).key(key).query("after", 0);
            let (_, body) = api_text(&s.app, href).await;
            seen_by_p2.push_str(if key == &t.p2 { &body } else { "" });
            seen_by_spectator.push_str(if key == &t.spectator { &body } else { "" });
            seen_by_gm.push_str(if key == &t.owner { &body } else { "" });
        }
    }
    let (_, page) = api_text(&s.app, routes::TABLE_PAGE.at([&t.id, &t.p2])).await;
    seen_by_p2.push_str(&page);
    assert!(
        committed.to_string().contains("zebra-41"),
        "p1 sees its own secret"
    );
    for (who, seen) in [
        ("p2", &seen_by_p2),
        ("spectator", &seen_by_spectator),
        ("gm", &seen_by_gm),
    ] {
        assert!(seen.contains("p1 is ready"), "{who} saw the commit happen");
        assert!(!seen.contains("zebra-41"), "{who} saw p1's secret word");
        assert!(!seen.contains(&secret), "{who} saw the server secret");
        assert!(!seen.contains("card-"), "{who} saw the deck order");
    }
    // Once revealed, everyone sees it.
    send(&s.app, &t, &t.p2, json!({"type": "commit", "word": "yak"})).await;
    let (status, _) = api(
        &s.app,
        routes::COMMAND
            .at([&t.id])
            .key(&t.owner)
            .json(&CommandBody::of(json!({"type": "reveal"}))),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let (_, events) = api_text(
        &s.app,
        routes::EVENTS
            .at([&t.id])
            .key(&t.spectator)
            .query("after", "0"),
    )
    .await;
    assert!(events.contains("zebra-41"), "{events}");
}

#[tokio::test]
async fn commands_to_one_table_are_serialized_and_numbered_without_gaps() {
    let s = server();
    let mut tables = vec![];
    for _ in 0..3 {
        let (_, created) = api(
            &s.app,
            routes::CREATE_TABLE.at([]).json(&CreateTable {
                ruleset: Some(String::from("sealed-duel")),
                setup: Some(json!({"players": 6})),
                ..CreateTable::default()
            }),
        )
        .await;
        tables.push((
            created["table"].as_str().unwrap().to_string(),
            created["owner_key"].as_str().unwrap().to_string(),
        ));
    }
    let mut tasks = vec![];
    for (id, owner) in &tables {
        for _ in 0..8 {
            let app = s.app.clone();
            let uri = routes::COMMAND.at([id]).key(owner);
            tasks.push(tokio::spawn(async move {
                call_json(
                    &app,
                    "POST",
                    &uri,
                    Some(json!(CommandBody::of(json!({"type": "shuffle"})))),
                )
                .await
                .0
            }));
        }
    }
    for task in tasks {
        assert_eq!(task.await.unwrap(), StatusCode::OK);
    }
    let conn = rusqlite::Connection::open(&s.path).unwrap();
    for (id, _) in &tables {
        let numbers: Vec<i64> = conn
            .prepare("SELECT n FROM commands WHERE table_id = ?1 ORDER BY n")
            .unwrap()
            .query_map([id], |r| r.get(0))
            .unwrap()
            .map(Result::unwrap)
            .collect();
        assert_eq!(numbers, (0..8).collect::<Vec<_>>());
    }
}

/// What the table's events should be, computed without the server from its secret (no client
/// seeds were added: chance depends on the secret, the table and the command number alone).
fn replayed_locally(
    secret: &str,
    table: &str,
    setup: Value,
    commands: &[(Seat, Value)],
) -> Box<dyn AnyGame> {
    let secret = clash_server::log::unhex(secret).unwrap();
    let mut game = (RulesetEntry::of::<SealedDuel>().new_game)(&setup).unwrap();
    for (n, (seat, command)) in commands.iter().enumerate() {
        let inputs = ChanceInputs {
            secret: &secret,
            table,
            command: n as u64,
            seeds: &[],
        };
        game.command(*seat, command, &mut DerivedRandomness::new(&inputs))
            .unwrap();
    }
    game
}

#[tokio::test]
async fn after_a_restart_every_table_continues_where_it_was() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("clash.db");
    let commands = [
        (Seat::Gm, json!({"type": "shuffle"})),
        (Seat::Player(1), json!({"type": "commit", "word": "apple"})),
        (Seat::Player(2), json!({"type": "commit", "word": "pear"})),
        (Seat::Gm, json!({"type": "reveal"})),
        (Seat::Player(1), json!({"type": "commit", "word": "fig"})),
        (Seat::Player(2), json!({"type": "commit", "word": "kiwi"})),
        (Seat::Gm, json!({"type": "reveal"})),
    ];
    let key_for = |t: &Table, seat: Seat| match seat {
        Seat::Gm => t.owner.clone(),
        Seat::Player(1) => t.p1.clone(),
        _ => t.p2.clone(),
    };
    let (first, second, before) = {
        let tables = clash_server::open(&path, catalogue()).unwrap();
        let app = clash_server::app(tables);
        let (first, second) = (table(&app).await, table(&app).await);
        for (seat, command) in &commands[..5] {
            let (status, body) = send(&app, &first, &key_for(&first, *seat), command.clone()).await;
            assert_eq!(status, StatusCode::OK, "{body}");
        }
        send(
            &app,
            &second,
            &second.p1,
            json!({"type": "commit", "word": "plum"}),
        )
        .await;
        let (_, before) = api(
            &app,
            routes::VIEW
                .at([&first.id])
                .key(&first.owner)
                .query("after", "0"),
        )
        .await;
        (first, second, before)
        // The server is dropped here: its writer stops and the file is closed.
    };
    let tables = clash_server::open(&path, catalogue()).unwrap();
    assert_eq!(tables.store().count_tables().await.unwrap(), 2);
    let app = clash_server::app(tables);
    let (_, after) = api(
        &app,
        routes::VIEW
            .at([&first.id])
            .key(&first.owner)
            .query("after", "0"),
    )
    .await;
    assert_eq!(before, after, "the same view and log after the restart");
    // The links still work, and play goes on with the same randomness as without a restart.
    for (seat, command) in &commands[5..] {
        let (status, body) = send(&app, &first, &key_for(&first, *seat), command.clone()).await;
        assert_eq!(status, StatusCode::OK, "{body}");
    }
    let secret = table_secret(&path, &first.id);
    let local = replayed_locally(&secret, &first.id, json!({}), &commands);
    let lines = game_lines(&app, &first.id, &first.p1, 0).await;
    let expected: Vec<(Value, String)> = local
        .events_for(Seat::Player(1).into(), 0)
        .into_iter()
        .map(|e| (e.event, e.text))
        .collect();
    let got: Vec<(Value, String)> = lines
        .iter()
        .map(|l| (l["event"].clone(), l["text"].as_str().unwrap().to_string()))
        .collect();
    assert_eq!(got, expected);
    let (status, _) = send(
        &app,
        &second,
        &second.p1,
        json!({"type": "commit", "word": "again"}),
    )
    .await;
    assert_eq!(
        status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "second table remembers p1 committed"
    );
}

#[tokio::test]
async fn pages_render_for_every_role_and_refuse_bad_links() {
    let s = server();
    let (status, lobby) = api_text(&s.app, routes::LOBBY.at([])).await;
    assert_eq!(status, StatusCode::OK);
    assert!(lobby.contains("Create table") && lobby.contains("sealed-duel#0"));
    let t = table(&s.app).await;
    for key in [&t.owner, &t.p1, &t.spectator] {
        let (status, page) = api_text(&s.app, routes::TABLE_PAGE.at([&t.id, key])).await;
        assert_eq!(status, StatusCode::OK);
        assert!(page.contains("id=\"log\""));
    }
    let (_, owner_page) = api_text(&s.app, routes::TABLE_PAGE.at([&t.id, &t.owner])).await;
    assert!(owner_page.contains("Seats and invite links"));
    let (_, player_page) = api_text(&s.app, routes::TABLE_PAGE.at([&t.id, &t.p1])).await;
    assert!(!player_page.contains("Seats and invite links") && !player_page.contains(&t.owner));
    let (status, page) = api_text(&s.app, routes::TABLE_PAGE.at([&t.id, "wrong"])).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    assert!(page.contains("not valid for this table"));
    let (status, _) = api_text(&s.app, routes::TABLE_PAGE.at(["nope", &t.owner])).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    for asset in [
        "app.css",
        "app.js",
        "state.js",
        "send.js",
        "turn.js",
        "talk.js",
        "gm.js",
        "lock.js",
        "rule-links.js",
        "kit.js",
        "lobby.js",
        "kit.css",
    ] {
        let (status, _) = api_text(&s.app, routes::ASSET.at([asset])).await;
        assert_eq!(status, StatusCode::OK, "{asset}");
    }
}

#[tokio::test]
async fn the_lobby_form_creates_a_table_or_explains_why_not() {
    let s = server();
    let form = |body: &str| {
        Request::builder()
            .method("POST")
            .uri(routes::LOBBY_CREATE.at([]).uri())
            .header("content-type", "application/x-www-form-urlencoded")
            .body(Body::from(body.to_string()))
            .unwrap()
    };
    let resp = s
        .app
        .clone()
        .oneshot(form("preset=sealed-duel%230&title=Duel&setup="))
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::SEE_OTHER);
    let location = resp.headers()["location"].to_str().unwrap().to_string();
    let page = routes::TABLE_PAGE.path;
    assert!(location.starts_with(&page[..page.find('{').unwrap()]));
    let (status, page) = call(&s.app, "GET", &location, None).await;
    assert_eq!(status, StatusCode::OK);
    assert!(page.contains("Duel"));
    let resp = s
        .app
        .clone()
        .oneshot(form(
            "preset=sealed-duel%230&setup=%7B%22players%22%3A+9%7D",
        ))
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let page =
        String::from_utf8_lossy(&resp.into_body().collect().await.unwrap().to_bytes()).into_owned();
    assert!(
        page.contains("SD-0") && page.contains("Create table"),
        "the error is shown beside the form"
    );
    let resp = s
        .app
        .clone()
        .oneshot(form("preset=sealed-duel%230&setup=%7Bnope"))
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::BAD_REQUEST);
    assert_eq!(s.server.store().count_tables().await.unwrap(), 1);
}

#[tokio::test]
async fn junk_requests_never_break_the_server() {
    let s = server();
    let t = table(&s.app).await;
    let junk = [
        "",
        "null",
        "{}",
        "{\"command\": null}",
        "{\"command\": []}",
        "{\"command\": {\"type\": 5}}",
        "\u{0}\u{1}",
        "{\"command\": {\"type\": \"commit\"}}",
        "{\"as\": 7, \"command\": {}}",
    ];
    for body in junk {
        for key in [&t.p1, &t.owner, &t.spectator] {
            let (status, answer) =
                api_text(&s.app, routes::COMMAND.at([&t.id]).key(key).body(body)).await;
            assert!(status.is_client_error(), "{body:?}: {status} {answer}");
        }
        let (status, _) = api_text(&s.app, routes::CREATE_TABLE.at([]).body(body)).await;
        assert!(status.is_client_error(), "{body:?}");
    }
    assert_eq!(event_count(&s.app, &t).await, 0);
    let (status, _) = api_text(&s.app, routes::HEALTHZ.at([])).await;
    assert_eq!(status, StatusCode::OK);
}

#[test]
fn every_catalogue_ruleset_offers_a_preset_it_accepts() {
    // A new user must be able to start any game without writing JSON.
    for entry in clash_catalogue::rulesets() {
        let presets = clash_server::setups::presets(&entry);
        assert!(!presets.is_empty(), "{} has no working preset", entry.id);
        for p in presets {
            assert!(
                (entry.new_game)(&p.setup).is_ok(),
                "{}: {}",
                entry.id,
                p.name
            );
        }
    }
}

/// docs/server.md's table of the JSON API lists every operation of the API document, one a
/// row (`METHOD path`, optional parts in brackets), and nothing else.
#[test]
fn the_api_table_in_the_docs_lists_every_operation_of_the_document() {
    let docs = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/server.md");
    let text = std::fs::read_to_string(docs).unwrap();
    let section = text.split("\n## JSON API\n").nth(1).unwrap();
    let section = section.split("\n## ").next().unwrap();
    let mut listed: Vec<String> = section
        .lines()
        .filter_map(|l| l.strip_prefix("| `"))
        .map(|l| {
            let cell = &l[..l.find('`').unwrap()];
            let cell = cell.split('[').next().unwrap().split('?').next().unwrap();
            cell.trim().to_string()
        })
        .collect();
    let doc = clash_server::http::document();
    let mut documented: Vec<String> = doc["paths"]
        .as_object()
        .unwrap()
        .iter()
        .flat_map(|(path, item)| {
            let methods = item.as_object().unwrap().keys();
            methods.map(move |m| format!("{} {path}", m.to_uppercase()))
        })
        .collect();
    listed.sort();
    documented.sort();
    let missing: Vec<&String> = documented.iter().filter(|d| !listed.contains(d)).collect();
    let extra: Vec<&String> = listed.iter().filter(|l| !documented.contains(l)).collect();
    assert!(
        missing.is_empty() && extra.is_empty(),
        "docs/server.md's JSON API table does not match /api/openapi.json: add a row for {missing:?}, and take out or correct {extra:?}"
    );
    let mut once = listed.clone();
    once.dedup();
    assert_eq!(once, listed, "one row for each operation");
}
