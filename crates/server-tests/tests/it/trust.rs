//! Secrets against every seat (the GM's included), seat changes in the public log, idempotent
//! commands, the table's record and its verification, and databases from before the log.

use axum::http::StatusCode;
use serde_json::{Value, json};

use crate::client::*;

fn commands_uri(t: &Table, key: &str) -> String {
    routes::COMMAND.at([&t.id]).key(key).into_uri()
}

async fn gm_as(s: &Server, t: &Table, seat: &str, command: Value) -> (StatusCode, Value) {
    call_json(
        &s.app,
        "POST",
        &commands_uri(t, &t.owner),
        Some(json!(CommandBody {
            command: Some(json!(command)),
            as_seat: Some(String::from(seat)),
            ..CommandBody::default()
        })),
    )
    .await
}

async fn take_over(s: &Server, t: &Table, seat: &str) -> (StatusCode, Value) {
    api(
        &s.app,
        routes::ISSUE_LINK
            .at([&t.id, seat])
            .key(&t.owner)
            .json(&LinkBody { npc: true }),
    )
    .await
}

/// Everything a stream sends until it ends or falls quiet.
async fn drain(sse: &mut Sse) -> Vec<SseEvent> {
    let mut out = vec![];
    while let Some(ev) = sse.next().await {
        out.push(ev);
    }
    out
}

async fn log_text(s: &Server, t: &Table, key: &str) -> String {
    let (_, events) = api(
        &s.app,
        routes::EVENTS.at([&t.id]).key(key).query("after", "0"),
    )
    .await;
    events["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["text"].as_str().unwrap().to_string())
        .collect::<Vec<_>>()
        .join("\n")
}

/// Repro 1: a GM stream opened `as` an NPC seat must not go on receiving the seat's view once
/// the seat belongs to a player again; neither may a GM page left open with `?as=`.
#[tokio::test]
async fn a_gm_stream_as_a_seat_ends_when_the_seat_goes_back_to_a_player() {
    let s = server();
    let t = table(&s.app).await;
    assert_eq!(take_over(&s, &t, "p1").await.0, StatusCode::CREATED);
    let mut gm = Sse::open(
        &s.app,
        &routes::STREAM.at([&t.id]).key(&t.owner).query("as", "p1"),
        None,
    )
    .await;
    assert_eq!(gm.update().await["viewer"], "p1");
    // The seat goes back to its player, who then commits a secret.
    let (status, _) = api_text(&s.app, routes::HAND_BACK.at([&t.id, "p1"]).key(&t.owner)).await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    // A second hand-back changes nothing, and says so by the seat's name, not its id.
    let (status, again) = api_text(&s.app, routes::HAND_BACK.at([&t.id, "p1"]).key(&t.owner)).await;
    assert_eq!(status, StatusCode::CONFLICT);
    let again: Value = serde_json::from_str(&again).unwrap();
    let message = again["error"]["message"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    assert!(message.contains("no player is waiting"), "{again}");
    assert!(!message.contains("p1"), "{message}");
    let (status, _) = send(
        &s.app,
        &t,
        &t.p1,
        json!({"type": "commit", "word": "zebra-41"}),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let rest = drain(&mut gm).await;
    assert_eq!(rest.len(), 1, "one message, then the stream ends: {rest:?}");
    assert_eq!(rest[0].event, "access");
    assert!(!rest.iter().any(|e| e.data.contains("zebra-41")));
    // Reconnecting as p1, viewing as p1 or opening the page as p1 is refused.
    for path in [
        routes::VIEW.at([&t.id]).key(&t.owner).query("as", "p1"),
        routes::TABLE_PAGE.at([&t.id, &t.owner]).query("as", "p1"),
    ] {
        let (status, body) = call(&s.app, "GET", &path, None).await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{path}");
        assert!(!body.contains("zebra-41"));
    }
}

/// A player moves their seat to another device with the one-time link their own page makes,
/// their secret choice going with them (the same person); the old device's key, and the link
/// used a second time, each say what became of them; nobody else can make such a link.
#[tokio::test]
async fn a_player_moves_their_seat_to_another_device_with_their_own_secret() {
    let s = server();
    let t = table(&s.app).await;
    send(
        &s.app,
        &t,
        &t.p1,
        json!({"type": "commit", "word": "zebra-41"}),
    )
    .await;
    let move_link = |key: &str| routes::MOVE_LINK.at([&t.id]).key(key);
    for other in [&t.owner, &t.spectator] {
        let (status, body) = call_json(&s.app, "POST", &move_link(other), None).await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
    }
    let (status, made) = call_json(&s.app, "POST", &move_link(&t.p1), None).await;
    assert_eq!(status, StatusCode::CREATED, "{made}");
    let claim = routes::CLAIM.at([&t.id]).key(made["key"].as_str().unwrap());
    let (status, claimed) = call_json(&s.app, "POST", &claim, None).await;
    assert_eq!(status, StatusCode::CREATED, "{claimed}");
    let new_key = claimed["key"].as_str().unwrap();
    let (_, view) = api_text(&s.app, routes::VIEW.at([&t.id]).key(new_key)).await;
    assert!(
        view.contains("zebra-41"),
        "the secret went with its player: {view}"
    );
    let (status, old) = api(&s.app, routes::VIEW.at([&t.id]).key(&t.p1)).await;
    assert_eq!(
        (status, &old["error"]["code"]),
        (StatusCode::FORBIDDEN, &json!("moved"))
    );
    let (status, again) = call_json(&s.app, "POST", &claim, None).await;
    assert_eq!(
        (status, &again["error"]["code"]),
        (StatusCode::FORBIDDEN, &json!("invite_used"))
    );
    assert!(
        log_text(&s, &t, &t.p2)
            .await
            .contains("Player 1's player moves the seat to another device.")
    );
    // The guard still stands for everyone else: the GM cannot take the seat while it waits.
    assert_eq!(take_over(&s, &t, "p1").await.0, StatusCode::CONFLICT);
}

/// Repro 2: "Play as NPC" while the player has a secret choice waiting is refused (so is a new
/// link, which the GM could claim), until the rules reveal it; the takeover is in every log.
#[tokio::test]
async fn a_seat_with_a_pending_secret_cannot_change_hands_and_takeovers_are_public() {
    let s = server();
    let t = table(&s.app).await;
    send(
        &s.app,
        &t,
        &t.p1,
        json!({"type": "commit", "word": "zebra-41"}),
    )
    .await;
    let (status, body) = take_over(&s, &t, "p1").await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert_eq!(body["error"]["code"], "secret_pending");
    let (status, body) = api(&s.app, routes::ISSUE_LINK.at([&t.id, "p1"]).key(&t.owner)).await;
    assert_eq!(
        (status, &body["error"]["code"]),
        (StatusCode::CONFLICT, &json!("secret_pending"))
    );
    let (status, view) = api_text(
        &s.app,
        routes::VIEW.at([&t.id]).key(&t.owner).query("as", "p1"),
    )
    .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    assert!(!view.contains("zebra-41"));
    // The player still plays; after the reveal the GM may take the seat, publicly.
    send(&s.app, &t, &t.p2, json!({"type": "commit", "word": "yak"})).await;
    gm_as(&s, &t, "gm", json!({"type": "reveal"})).await;
    assert_eq!(take_over(&s, &t, "p1").await.0, StatusCode::CREATED);
    for key in [&t.p1, &t.p2, &t.spectator, &t.owner] {
        assert!(
            log_text(&s, &t, key)
                .await
                .contains("The GM takes over Player 1's seat."),
            "{key}"
        );
    }
    // The player's key now only watches; the GM acts for the seat.
    let (status, _) = send(&s.app, &t, &t.p1, json!({"type": "commit", "word": "x"})).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, body) = gm_as(&s, &t, "p1", json!({"type": "commit", "word": "mine"})).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    // Given back: the player's own key plays again, and every log says so.
    api_text(&s.app, routes::HAND_BACK.at([&t.id, "p1"]).key(&t.owner)).await;
    assert!(
        log_text(&s, &t, &t.p2)
            .await
            .contains("Player 1's seat goes back to its player.")
    );
    let (_, view) = api(&s.app, routes::VIEW.at([&t.id]).key(&t.p1)).await;
    assert_eq!(
        view["view"]["mine"], "mine",
        "the seat's own choice is the seat's"
    );
}

#[tokio::test]
async fn a_player_whose_seat_is_taken_over_watches_and_gets_it_back() {
    let s = server();
    let t = table(&s.app).await;
    let mut p1 = Sse::open(&s.app, &routes::STREAM.at([&t.id]).key(&t.p1), None).await;
    assert_eq!(p1.update().await["viewer"], "p1");
    take_over(&s, &t, "p1").await;
    let ev = p1.next().await.unwrap();
    assert_eq!(ev.event, "access");
    assert!(ev.data.contains("taken over"));
    assert!(p1.next().await.is_none());
    let (_, view) = api(&s.app, routes::VIEW.at([&t.id]).key(&t.p1)).await;
    assert_eq!(
        (view["viewer"].as_str(), view["seat"].as_str()),
        (Some("spectator"), None)
    );
    assert!(
        view["notice"]
            .as_str()
            .unwrap()
            .contains("GM plays your seat")
    );
    // The GM's secret choice for the seat stays hidden from the watching player.
    gm_as(
        &s,
        &t,
        "p1",
        json!({"type": "commit", "word": "gm-choice-7"}),
    )
    .await;
    let (_, view) = api_text(
        &s.app,
        routes::VIEW.at([&t.id]).key(&t.p1).query("after", "0"),
    )
    .await;
    assert!(!view.contains("gm-choice-7"));
    let mut watching = Sse::open(&s.app, &routes::STREAM.at([&t.id]).key(&t.p1), None).await;
    assert_eq!(watching.update().await["viewer"], "spectator");
    api_text(&s.app, routes::HAND_BACK.at([&t.id, "p1"]).key(&t.owner)).await;
    assert_eq!(
        watching.next().await.unwrap().event,
        "access",
        "the watching page reloads as the player"
    );
}

#[tokio::test]
async fn an_invite_is_exchanged_once_for_a_key_the_gm_never_sees() {
    let s = server();
    let (_, created) = api(
        &s.app,
        routes::CREATE_TABLE.at([]).json(&CreateTable {
            ruleset: Some(String::from("sealed-duel")),
            ..CreateTable::default()
        }),
    )
    .await;
    let (id, owner) = (
        created["table"].as_str().unwrap().to_string(),
        created["owner_key"].as_str().unwrap().to_string(),
    );
    let invite_key = invite(&s.app, &id, &owner, "p1").await;
    // The invite itself does not play, and a GET does not use it up (link previews).
    let (status, body) = api(&s.app, routes::VIEW.at([&id]).key(&invite_key)).await;
    assert_eq!(
        (status, &body["error"]["code"]),
        (StatusCode::FORBIDDEN, &json!("invite"))
    );
    let (status, page) = api_text(&s.app, routes::TABLE_PAGE.at([&id, &invite_key])).await;
    assert_eq!(status, StatusCode::OK);
    assert!(page.contains("Take the seat"));
    let key = claim(&s.app, &id, &invite_key).await;
    let (status, _) = api(&s.app, routes::CLAIM.at([&id]).key(&invite_key)).await;
    assert!(status.is_client_error(), "an invite is used once");
    let (_, info) = api(&s.app, routes::TABLE_INFO.at([&id]).key(&owner)).await;
    assert!(!info.to_string().contains(&key));
    assert_eq!(info["seats"][1]["holder"], "player");
}

#[tokio::test]
async fn a_retried_command_id_is_applied_once_and_answered_again() {
    let s = server();
    let t = table(&s.app).await;
    let body = json!(CommandBody {
        command: Some(json!({"type": "shuffle"})),
        id: Some(String::from("click-1")),
        ..CommandBody::default()
    });
    let (status, first) = call_json(
        &s.app,
        "POST",
        &commands_uri(&t, &t.owner),
        Some(body.clone()),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{first}");
    assert_eq!(
        first["command"],
        json!({"n": 0, "id": "click-1", "duplicate": false})
    );
    let (status, again) = call_json(&s.app, "POST", &commands_uri(&t, &t.owner), Some(body)).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(again["command"]["duplicate"], true);
    assert_eq!(
        again["events"], first["events"],
        "the original answer's events"
    );
    assert_eq!(event_count(&s.app, &t).await, 1, "applied once");
    // The same id for another command is a mistake, not a retry.
    let other = json!(CommandBody {
        command: Some(json!({"type": "reveal"})),
        id: Some(String::from("click-1")),
        ..CommandBody::default()
    });
    let (status, body) = call_json(&s.app, "POST", &commands_uri(&t, &t.owner), Some(other)).await;
    assert_eq!(
        (status, &body["error"]["code"]),
        (StatusCode::CONFLICT, &json!("id_reused"))
    );
}

#[tokio::test]
async fn a_command_sent_from_a_stale_view_of_its_own_seat_is_refused() {
    let s = server();
    let t = table(&s.app).await;
    let seen = log_len(&s.app, &t.id, &t.owner).await;
    let click = |id: &str| {
        json!(CommandBody {
            command: Some(json!({"type": "shuffle"})),
            id: Some(String::from(id)),
            revision: Some(seen),
            ..CommandBody::default()
        })
    };
    assert_eq!(
        call_json(
            &s.app,
            "POST",
            &commands_uri(&t, &t.owner),
            Some(click("a"))
        )
        .await
        .0,
        StatusCode::OK
    );
    // A second click made before the page saw the first one's answer.
    let (status, body) = call_json(
        &s.app,
        "POST",
        &commands_uri(&t, &t.owner),
        Some(click("b")),
    )
    .await;
    assert_eq!(
        (status, &body["error"]["code"]),
        (StatusCode::CONFLICT, &json!("stale"))
    );
    // Other seats acting in between do not make a view stale.
    let seen = log_len(&s.app, &t.id, &t.p1).await;
    send(&s.app, &t, &t.p2, json!({"type": "commit", "word": "b"})).await;
    let body = json!(CommandBody {
        command: Some(json!({"type": "commit", "word": "a"})),
        revision: Some(seen),
        ..CommandBody::default()
    });
    assert_eq!(
        call_json(&s.app, "POST", &commands_uri(&t, &t.p1), Some(body))
            .await
            .0,
        StatusCode::OK
    );
}

#[tokio::test]
async fn every_update_carries_the_commitment_the_head_and_the_seeds() {
    let s = server();
    let t = table(&s.app).await;
    let (status, _) = api(
        &s.app,
        routes::SEED.at([&t.id]).key(&t.p1).json(&SeedBody {
            seed: String::from("abc123"),
        }),
    )
    .await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    let (status, _) = api(
        &s.app,
        routes::SEED.at([&t.id]).key(&t.spectator).json(&SeedBody {
            seed: String::from("x"),
        }),
    )
    .await;
    assert_eq!(status, StatusCode::FORBIDDEN, "spectators add no seed");
    let (status, _) = api(
        &s.app,
        routes::SEED.at([&t.id]).key(&t.p1).json(&SeedBody {
            seed: String::from("a\u{0}b"),
        }),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let (_, view) = api(&s.app, routes::VIEW.at([&t.id]).key(&t.p2)).await;
    assert_eq!(view["fairness"]["commitment"].as_str().unwrap().len(), 64);
    assert_eq!(view["fairness"]["seeds"], json!({"p1": "abc123"}));
    assert_eq!(view["fairness"]["contributor"], "p2");
    assert!(view["fairness"].get("secret").is_none());
    assert_eq!(view["head"].as_str().unwrap().len(), 64);
    // The log says who added a seed; the seed itself is in Fair dice (issue 29: no hex in the
    // main log).
    let log = log_text(&s, &t, &t.p2).await;
    assert!(log.contains("Player 1 adds a seed to the dice."), "{log}");
    assert!(!log.contains("abc123"), "{log}");
}

#[tokio::test]
async fn a_record_before_the_end_has_no_secret_and_hides_what_its_key_may_not_see() {
    let s = server();
    let t = table(&s.app).await;
    gm_as(&s, &t, "gm", json!({"type": "shuffle"})).await;
    send(
        &s.app,
        &t,
        &t.p1,
        json!({"type": "commit", "word": "zebra-41"}),
    )
    .await;
    let secret = {
        let conn = rusqlite::Connection::open(&s.path).unwrap();
        conn.query_row("SELECT secret FROM tables WHERE id = ?1", [&t.id], |r| {
            r.get::<_, String>(0)
        })
        .unwrap()
    };
    for key in [&t.owner, &t.p2, &t.spectator] {
        let (status, record) = api_text(&s.app, routes::EXPORT.at([&t.id]).key(key)).await;
        assert_eq!(status, StatusCode::OK);
        assert!(!record.contains(&secret), "no secret before the end");
        assert!(!record.contains("zebra-41"), "no other seat's secret");
        assert!(!record.contains("card-"), "no deck order");
        let doc: Value = serde_json::from_str(&record).unwrap();
        let report = clash_server::export::verify(&doc, &catalogue(), &[]);
        assert!(report.ok(), "{:?}", report.failures);
        assert!(
            !report.unchecked.is_empty(),
            "the rolls wait for the secret"
        );
    }
    // p1's record holds p1's own choice.
    let (_, record) = api_text(&s.app, routes::EXPORT.at([&t.id]).key(&t.p1)).await;
    assert!(record.contains("zebra-41"));
    // After the end, everyone's record is complete and verifies.
    let (status, _) = api_text(&s.app, routes::CLOSE.at([&t.id]).key(&t.owner)).await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    let (status, body) = send(&s.app, &t, &t.p2, json!({"type": "commit", "word": "late"})).await;
    assert_eq!(
        (status, &body["error"]["code"]),
        (StatusCode::CONFLICT, &json!("closed"))
    );
    let (_, record) = api_text(&s.app, routes::EXPORT.at([&t.id]).key(&t.spectator)).await;
    let doc: Value = serde_json::from_str(&record).unwrap();
    assert_eq!(doc["secret"], secret.as_str());
    let report = clash_server::export::verify(
        &doc,
        &catalogue(),
        &[doc["head"].as_str().unwrap().to_string()],
    );
    assert!(report.ok() && report.unchecked.is_empty(), "{report:?}");
}

/// A database written before the table log (schema version 1, one table with a seat link and
/// two commands) opens: the table plays on, the player's old link becomes an invite, and the
/// record says its chance cannot be checked.
#[tokio::test]
async fn a_database_from_before_the_log_is_migrated() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("old.db");
    {
        let conn = rusqlite::Connection::open(&path).unwrap();
        conn.execute_batch(
            "CREATE TABLE tables (id TEXT PRIMARY KEY, ruleset TEXT NOT NULL, title TEXT NOT NULL, setup TEXT NOT NULL, seed INTEGER NOT NULL, created_at INTEGER NOT NULL);
             CREATE TABLE links (key TEXT PRIMARY KEY, table_id TEXT NOT NULL REFERENCES tables(id), role TEXT NOT NULL, npc INTEGER NOT NULL DEFAULT 0);
             CREATE INDEX links_by_table ON links(table_id);
             CREATE TABLE commands (table_id TEXT NOT NULL REFERENCES tables(id), n INTEGER NOT NULL, seat TEXT NOT NULL, command TEXT NOT NULL, PRIMARY KEY (table_id, n));
             CREATE TABLE events (table_id TEXT NOT NULL REFERENCES tables(id), idx INTEGER NOT NULL, event TEXT NOT NULL, PRIMARY KEY (table_id, idx));
             INSERT INTO tables VALUES ('old1', 'sealed-duel', 'Old table', '{}', 42, 1);
             INSERT INTO links VALUES ('00000000000000000000000000000001', 'old1', 'owner', 0);
             INSERT INTO links VALUES ('00000000000000000000000000000002', 'old1', 'p1', 0);
             INSERT INTO links VALUES ('00000000000000000000000000000003', 'old1', 'p2', 1);
             INSERT INTO commands VALUES ('old1', 0, 'p1', '{\"type\":\"commit\",\"word\":\"apple\"}');
             INSERT INTO events VALUES ('old1', 0, '{\"type\":\"committed\",\"seat\":\"p1\",\"word\":\"apple\"}');",
        )
        .unwrap();
    }
    let tables = clash_server::open(&path, catalogue()).unwrap();
    assert_eq!(tables.store().count_tables().await.unwrap(), 1);
    let app = clash_server::app(tables);
    let owner = "00000000000000000000000000000001";
    let (_, info) = api(&app, routes::TABLE_INFO.at(["old1"]).key(owner)).await;
    assert_eq!(
        info["seats"][1]["holder"], "invited",
        "the GM knew the old key: it is an invite now"
    );
    assert_eq!(info["seats"][2]["holder"], "npc");
    let p1 = claim(&app, "old1", "00000000000000000000000000000002").await;
    let (_, view) = api(&app, routes::VIEW.at(["old1"]).key(&p1)).await;
    assert_eq!(view["view"]["mine"], "apple");
    assert_eq!(view["fairness"]["chance"], "legacy");
    let t = Table {
        id: "old1".into(),
        owner: owner.into(),
        spectator: String::new(),
        p1: p1.clone(),
        p2: String::new(),
    };
    let (status, body) = gm_as_app(&app, &t, "p2", json!({"type": "commit", "word": "pear"})).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(
        body["command"]["n"], 1,
        "numbering goes on after the old commands"
    );
    api_text(&app, routes::CLOSE.at(["old1"]).key(owner)).await;
    let (_, record) = api_text(&app, routes::EXPORT.at(["old1"]).key(owner)).await;
    let report =
        clash_server::export::verify(&serde_json::from_str(&record).unwrap(), &catalogue(), &[]);
    assert!(report.ok(), "{:?}", report.failures);
    assert!(
        report
            .unchecked
            .iter()
            .any(|u| u.contains("before verifiable chance")),
        "{report:?}"
    );
}

async fn gm_as_app(
    app: &axum::Router,
    t: &Table,
    seat: &str,
    command: Value,
) -> (StatusCode, Value) {
    call_json(
        app,
        "POST",
        &commands_uri(t, &t.owner),
        Some(json!(CommandBody {
            command: Some(json!(command)),
            as_seat: Some(String::from(seat)),
            ..CommandBody::default()
        })),
    )
    .await
}
