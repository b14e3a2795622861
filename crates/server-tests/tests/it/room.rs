//! The table around the game: table talk and whispers, presence, whose move, confirmations,
//! the GM's undo (a table event, replayed and verified), rename, archive and delete — over
//! HTTP, and across a restart of the server.

use crate::client::*;
use axum::Router;
use axum::http::StatusCode;
use clash_server::export::verify;
use clash_server::http::routes::Route;
use serde_json::{Value, json};

async fn post(
    app: &Router,
    t: &Table,
    route: Route,
    key: &str,
    body: impl serde::Serialize,
) -> (StatusCode, Value) {
    api(app, route.at([&t.id]).key(key).json(&body)).await
}

async fn say(app: &Router, t: &Table, key: &str, text: &str, to_gm: bool) -> StatusCode {
    post(
        app,
        t,
        routes::CHAT,
        key,
        Line {
            text: String::from(text),
            to_gm,
            ..Line::default()
        },
    )
    .await
    .0
}

/// Everything `key` may read of the table now.
async fn look(app: &Router, t: &Table, key: &str) -> Value {
    let (status, update) = api(app, routes::VIEW.at([&t.id]).key(key).query("after", "0")).await;
    assert_eq!(status, StatusCode::OK, "{update}");
    update
}

fn texts(update: &Value) -> Vec<String> {
    update["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["text"].as_str().unwrap().to_string())
        .collect()
}

async fn record(app: &Router, t: &Table, key: &str) -> (String, Value) {
    let (status, text) = api_text(app, routes::EXPORT.at([&t.id]).key(key)).await;
    assert_eq!(status, StatusCode::OK);
    let doc = serde_json::from_str(&text).unwrap();
    (text, doc)
}

async fn close(app: &Router, t: &Table) {
    let (status, _) = post(app, t, routes::CLOSE, &t.owner, json!({})).await;
    assert_eq!(status, StatusCode::NO_CONTENT);
}

/// The same database opened by a fresh server, as after a restart.
fn restart(s: &Server) -> Router {
    clash_server::app(clash_server::open(&s.path, catalogue()).unwrap())
}

#[tokio::test]
async fn table_talk_is_read_by_everyone_and_survives_a_restart() {
    let s = server();
    let t = table(&s.app).await;
    assert_eq!(
        say(&s.app, &t, &t.p1, "Ready when you are", false).await,
        StatusCode::NO_CONTENT
    );
    assert_eq!(
        say(&s.app, &t, &t.owner, "Let us begin", false).await,
        StatusCode::NO_CONTENT
    );
    for key in [&t.owner, &t.p1, &t.p2, &t.spectator] {
        let lines = texts(&look(&s.app, &t, key).await);
        assert!(
            lines.contains(&"Player 1: Ready when you are".to_string()),
            "{lines:?}"
        );
        assert!(
            lines.contains(&"The GM: Let us begin".to_string()),
            "{lines:?}"
        );
    }
    // Spectators read; they do not speak. Empty and overlong lines are refused.
    assert_eq!(
        say(&s.app, &t, &t.spectator, "hi", false).await,
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        say(&s.app, &t, &t.p1, "   ", false).await,
        StatusCode::BAD_REQUEST
    );
    assert_eq!(
        say(&s.app, &t, &t.p1, &"x".repeat(501), false).await,
        StatusCode::BAD_REQUEST
    );
    // After a restart the talk is still there, in order, with the moves.
    let app = restart(&s);
    let lines = texts(&look(&app, &t, &t.p2).await);
    let ready = lines.iter().position(|l| l.ends_with("Ready when you are"));
    let begin = lines.iter().position(|l| l.ends_with("Let us begin"));
    assert!(ready.is_some() && ready < begin, "{lines:?}");
}

#[tokio::test]
async fn a_whisper_reaches_only_the_gm_and_its_sender_even_in_the_record() {
    let s = server();
    let t = table(&s.app).await;
    assert_eq!(
        say(&s.app, &t, &t.p1, "psst-secret-plan", true).await,
        StatusCode::NO_CONTENT
    );
    // The GM whispers to nobody.
    assert_eq!(
        say(&s.app, &t, &t.owner, "hm", true).await,
        StatusCode::BAD_REQUEST
    );
    for key in [&t.owner, &t.p1] {
        let lines = texts(&look(&s.app, &t, key).await);
        assert!(
            lines.contains(&"Player 1 (to the GM only): psst-secret-plan".to_string()),
            "{lines:?}"
        );
    }
    for key in [&t.p2, &t.spectator] {
        let update = look(&s.app, &t, key).await;
        assert!(!update.to_string().contains("psst"), "{update}");
        assert!(!record(&s.app, &t, key).await.0.contains("psst"));
    }
    // Once the table ends and its secret is revealed, the whisper is still withheld from the
    // others, and every record (with or without it) verifies.
    close(&s.app, &t).await;
    for key in [&t.owner, &t.p1, &t.p2, &t.spectator] {
        let (text, doc) = record(&s.app, &t, key).await;
        let party = key == &t.owner || key == &t.p1;
        assert_eq!(text.contains("psst-secret-plan"), party);
        let report = verify(&doc, &catalogue(), &[]);
        assert!(report.ok() && report.unchecked.is_empty(), "{report:?}");
    }
}

/// Issue 26, hole 4: a whisper is for the GM and the person who held the seat when it was
/// said. After the GM revokes a seat and invites a new player, the new player reads none of
/// the previous player's whispers (view, log, record, page), and records of other seats do not
/// name the whisper's author. The GM can whisper back to one seat.
#[tokio::test]
async fn whispers_follow_the_person_and_the_gm_whispers_to_one_seat() {
    let s = server();
    let t = table(&s.app).await;
    assert_eq!(
        say(&s.app, &t, &t.p1, "old-player-plan", true).await,
        StatusCode::NO_CONTENT
    );
    let (status, body) = post(
        &s.app,
        &t,
        routes::CHAT,
        &t.owner,
        Line {
            text: String::from("gm-to-old"),
            to: Some(String::from("p1")),
            ..Line::default()
        },
    )
    .await;
    assert_eq!(status, StatusCode::NO_CONTENT, "{body}");
    let lines = texts(&look(&s.app, &t, &t.p1).await);
    assert!(
        lines.contains(&"The GM (to Player 1 only): gm-to-old".to_string()),
        "{lines:?}"
    );
    assert!(
        !look(&s.app, &t, &t.p2)
            .await
            .to_string()
            .contains("gm-to-old")
    );
    // A player whispers to the GM only.
    let (status, _) = post(
        &s.app,
        &t,
        routes::CHAT,
        &t.p1,
        Line {
            text: String::from("x"),
            to: Some(String::from("p2")),
            ..Line::default()
        },
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    // A new player in the same seat.
    let (status, _) = api_text(&s.app, routes::REVOKE_LINK.at([&t.id, "p1"]).key(&t.owner)).await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    let newcomer = seat_key(&s.app, &t.id, &t.owner, "p1").await;
    let (_, page) = api_text(&s.app, routes::TABLE_PAGE.at([&t.id, &newcomer])).await;
    let (record_text, _) = record(&s.app, &t, &newcomer).await;
    for seen in [
        look(&s.app, &t, &newcomer).await.to_string(),
        page,
        record_text,
    ] {
        assert!(
            !seen.contains("old-player-plan") && !seen.contains("gm-to-old"),
            "{seen}"
        );
    }
    // The newcomer's own whisper is theirs; the GM reads all three.
    assert_eq!(
        say(&s.app, &t, &newcomer, "new-player-plan", true).await,
        StatusCode::NO_CONTENT
    );
    assert!(
        texts(&look(&s.app, &t, &newcomer).await)
            .iter()
            .any(|l| l.contains("new-player-plan"))
    );
    let gm = look(&s.app, &t, &t.owner).await.to_string();
    for line in ["old-player-plan", "gm-to-old", "new-player-plan"] {
        assert!(gm.contains(line), "the GM reads {line}");
    }
    // Other seats' records give the whispers as hidden entries: no author, no text.
    close(&s.app, &t).await;
    let (_, doc) = record(&s.app, &t, &t.p2).await;
    let hidden: Vec<&Value> = doc["entries"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["hidden"] == true)
        .collect();
    assert_eq!(hidden.len(), 3, "{doc}");
    for e in hidden {
        assert!(e.get("seen").is_none() && e.get("entry").is_none(), "{e}");
    }
    let report = verify(&doc, &catalogue(), &[]);
    assert!(report.ok() && report.unchecked.is_empty(), "{report:?}");
}

#[tokio::test]
async fn the_gm_takes_back_a_secret_commitment_and_the_record_still_verifies() {
    let s = server();
    let t = table(&s.app).await;
    let (status, _) = send(
        &s.app,
        &t,
        &t.p1,
        json!({"type": "commit", "word": "apple"}),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    // The GM page offers it; a player cannot undo.
    let offer = &look(&s.app, &t, &t.owner).await["room"]["undo"];
    assert_eq!(
        offer["text"], "Take back Player 1's last command",
        "{offer}"
    );
    let n = offer["n"].as_u64().unwrap();
    let (status, _) = post(
        &s.app,
        &t,
        routes::UNDO,
        &t.p1,
        UndoBody {
            ..UndoBody::default()
        },
    )
    .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, body) = post(&s.app, &t, routes::UNDO, &t.owner, UndoBody { n: Some(n) }).await;
    assert_eq!(status, StatusCode::NO_CONTENT, "{body}");
    // Player 1 has no word committed now and may choose another; everyone's log says so.
    let mine = look(&s.app, &t, &t.p1).await;
    assert_eq!(mine["view"]["mine"], Value::Null);
    assert!(texts(&mine).contains(
        &"The GM takes back Player 1's last command: the game goes on as if it had not been sent."
            .to_string()
    ));
    // A stale undo (the same number again) and an undo with nothing standing are refused.
    let (status, body) = post(&s.app, &t, routes::UNDO, &t.owner, UndoBody { n: Some(n) }).await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    let (status, _) = send(&s.app, &t, &t.p1, json!({"type": "commit", "word": "pear"})).await;
    assert_eq!(status, StatusCode::OK);
    let (status, _) = send(&s.app, &t, &t.p2, json!({"type": "commit", "word": "plum"})).await;
    assert_eq!(status, StatusCode::OK);
    // Two undos in a row walk back command by command.
    for _ in 0..2 {
        let (status, body) = post(
            &s.app,
            &t,
            routes::UNDO,
            &t.owner,
            UndoBody {
                ..UndoBody::default()
            },
        )
        .await;
        assert_eq!(status, StatusCode::NO_CONTENT, "{body}");
    }
    assert_eq!(look(&s.app, &t, &t.owner).await["view"]["ready"], json!([]));
    let (status, _) = send(&s.app, &t, &t.p1, json!({"type": "commit", "word": "fig"})).await;
    assert_eq!(status, StatusCode::OK);
    // The rebuilt game survives a restart exactly.
    let app = restart(&s);
    assert_eq!(
        look(&app, &t, &t.p1).await["view"],
        look(&s.app, &t, &t.p1).await["view"]
    );
    // Nothing is deleted: the record holds every command, and verification replays the undos.
    close(&app, &t).await;
    let (text, doc) = record(&app, &t, &t.spectator).await;
    for word in ["apple", "pear", "plum", "fig"] {
        assert!(text.contains(word), "{word} stays in the log");
    }
    let report = verify(&doc, &catalogue(), &[]);
    assert!(report.ok() && report.unchecked.is_empty(), "{report:?}");
    assert!(
        report
            .verified
            .iter()
            .any(|v| v.starts_with("3 commands taken back")),
        "{:?}",
        report.verified
    );
}

#[tokio::test]
async fn undo_is_refused_after_a_roll_and_after_a_reveal() {
    let s = server();
    let t = table(&s.app).await;
    send(
        &s.app,
        &t,
        &t.p1,
        json!({"type": "commit", "word": "apple"}),
    )
    .await;
    send(&s.app, &t, &t.p2, json!({"type": "commit", "word": "pear"})).await;
    // A reveal without chance: the words are out, so nothing before it can be taken back.
    let (status, _) = send(&s.app, &t, &t.owner, json!({"type": "announce"})).await;
    assert_eq!(status, StatusCode::OK);
    let (status, body) = post(
        &s.app,
        &t,
        routes::UNDO,
        &t.owner,
        UndoBody {
            ..UndoBody::default()
        },
    )
    .await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert!(
        body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("hidden into the open"),
        "{body}"
    );
    let offer = &look(&s.app, &t, &t.owner).await["room"]["undo"];
    assert_eq!(offer["n"], Value::Null, "{offer}");
    // A roll: the reveal rolls a die.
    let (status, _) = send(&s.app, &t, &t.owner, json!({"type": "reveal"})).await;
    assert_eq!(status, StatusCode::OK);
    let (status, body) = post(
        &s.app,
        &t,
        routes::UNDO,
        &t.owner,
        UndoBody {
            ..UndoBody::default()
        },
    )
    .await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert!(
        body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("rolled dice"),
        "{body}"
    );
    // The shuffle draws: refused too.
    send(&s.app, &t, &t.owner, json!({"type": "shuffle"})).await;
    let (status, _) = post(
        &s.app,
        &t,
        routes::UNDO,
        &t.owner,
        UndoBody {
            ..UndoBody::default()
        },
    )
    .await;
    assert_eq!(status, StatusCode::CONFLICT);
    close(&s.app, &t).await;
    let report = verify(&record(&s.app, &t, &t.owner).await.1, &catalogue(), &[]);
    assert!(report.ok(), "{report:?}");
}

#[tokio::test]
async fn a_weighty_command_is_asked_about_first_when_the_page_asks() {
    let s = server();
    let t = table(&s.app).await;
    send(
        &s.app,
        &t,
        &t.p1,
        json!({"type": "commit", "word": "apple"}),
    )
    .await;
    send(&s.app, &t, &t.p2, json!({"type": "commit", "word": "pear"})).await;
    let before = log_len(&s.app, &t.id, &t.owner).await;
    let (status, body) = post(
        &s.app,
        &t,
        routes::COMMAND,
        &t.owner,
        CommandBody {
            command: Some(json!({"type": "reveal"})),
            ask: true,
            ..CommandBody::default()
        },
    )
    .await;
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (StatusCode::CONFLICT, Some("confirm"))
    );
    assert_eq!(body["error"]["message"], "Reveal every word and roll?");
    assert_eq!(
        log_len(&s.app, &t.id, &t.owner).await,
        before,
        "nothing happened"
    );
    // A command that needs no second thought goes at once, even when asked.
    let (status, _) = post(
        &s.app,
        &t,
        routes::COMMAND,
        &t.owner,
        CommandBody {
            command: Some(json!({"type": "announce"})),
            ask: true,
            ..CommandBody::default()
        },
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let (status, _) = post(
        &s.app,
        &t,
        routes::COMMAND,
        &t.owner,
        CommandBody::of(json!({"type": "reveal"})),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
}

#[tokio::test]
async fn whose_move_is_told_by_name_to_each_viewer() {
    let s = server();
    let t = table(&s.app).await;
    let p1 = look(&s.app, &t, &t.p1).await;
    assert_eq!(
        p1["room"]["turn"]["text"],
        "Your move (also waiting for Player 2)"
    );
    assert_eq!(p1["room"]["turn"]["yours"], true);
    assert_eq!(p1["room"]["me"], "Player 1");
    let gm = look(&s.app, &t, &t.owner).await;
    assert_eq!(
        gm["room"]["turn"]["text"],
        "Waiting for Player 1 and Player 2"
    );
    send(
        &s.app,
        &t,
        &t.p1,
        json!({"type": "commit", "word": "apple"}),
    )
    .await;
    send(&s.app, &t, &t.p2, json!({"type": "commit", "word": "pear"})).await;
    assert_eq!(
        look(&s.app, &t, &t.owner).await["room"]["turn"]["text"],
        "Your move"
    );
    assert_eq!(
        look(&s.app, &t, &t.spectator).await["room"]["turn"]["text"],
        "Waiting for the GM"
    );
}

/// The `here` flag of `seat` in an update's list of people.
fn here(update: &Value, seat: &str) -> bool {
    update["room"]["people"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["seat"] == seat)
        .map(|p| p["here"] == true)
        .unwrap()
}

#[tokio::test]
async fn presence_follows_the_open_pages() {
    let s = server();
    let t = table(&s.app).await;
    let stream = |key: &str| routes::STREAM.at([&t.id]).key(key);
    let mut gm = Sse::open(&s.app, &stream(&t.owner), None).await;
    let first = gm.update().await;
    assert!(!here(&first, "p1"));
    assert_eq!(first["room"]["gm_here"], true);
    let mut p1 = Sse::open(&s.app, &stream(&t.p1), None).await;
    let _ = p1.update().await;
    let seen = gm.update().await;
    assert!(here(&seen, "p1"), "{}", seen["room"]);
    let mut watcher = Sse::open(&s.app, &stream(&t.spectator), None).await;
    let _ = watcher.update().await;
    assert_eq!(gm.update().await["room"]["spectators"], 1);
    // Player 1 closes the page: everyone sees them go.
    drop(p1);
    let gone = gm.update().await;
    assert!(!here(&gone, "p1"), "{}", gone["room"]);
    assert!(!here(&watcher.update().await, "p1"));
}

#[tokio::test]
async fn the_gm_renames_archives_and_deletes_a_table() {
    let s = server();
    let t = table(&s.app).await;
    let (status, _) = post(
        &s.app,
        &t,
        routes::RENAME,
        &t.p1,
        RenameBody {
            title: String::from("Mine now"),
        },
    )
    .await;
    assert_eq!(status, StatusCode::FORBIDDEN, "only the GM renames");
    let (status, _) = post(
        &s.app,
        &t,
        routes::RENAME,
        &t.owner,
        RenameBody {
            title: String::from("Friday duel"),
        },
    )
    .await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    let update = look(&s.app, &t, &t.p2).await;
    assert_eq!(update["title"], "Friday duel");
    assert!(texts(&update).contains(&"The GM renames the table “Friday duel”.".to_string()));
    let (status, _) = post(
        &s.app,
        &t,
        routes::RENAME,
        &t.owner,
        RenameBody {
            title: String::from(" "),
        },
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);

    // Archived: no moves, no talk, until it is brought back.
    let (status, _) = post(
        &s.app,
        &t,
        routes::ARCHIVE,
        &t.owner,
        ArchiveBody { archived: true },
    )
    .await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    assert_eq!(look(&s.app, &t, &t.p1).await["room"]["archived"], true);
    let (status, body) = send(
        &s.app,
        &t,
        &t.p1,
        json!({"type": "commit", "word": "apple"}),
    )
    .await;
    assert_eq!(
        (status, &body["error"]["code"]),
        (StatusCode::CONFLICT, &json!("archived"))
    );
    assert_eq!(
        say(&s.app, &t, &t.p1, "hello?", false).await,
        StatusCode::CONFLICT
    );
    // Renames and archiving survive a restart.
    let app = restart(&s);
    let update = look(&app, &t, &t.owner).await;
    assert_eq!(
        (&update["title"], &update["room"]["archived"]),
        (&json!("Friday duel"), &json!(true))
    );
    let (status, _) = post(
        &app,
        &t,
        routes::ARCHIVE,
        &t.owner,
        ArchiveBody { archived: false },
    )
    .await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    let (status, _) = send(&app, &t, &t.p1, json!({"type": "commit", "word": "apple"})).await;
    assert_eq!(status, StatusCode::OK);

    // Deleted: gone for good, from memory and the database, and open streams are told.
    let mut p2 = Sse::open(&app, &routes::STREAM.at([&t.id]).key(&t.p2), None).await;
    let _ = p2.update().await;
    let (status, _) = api_text(&app, routes::DELETE_TABLE.at([&t.id]).key(&t.p1)).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "only the GM deletes");
    let (status, _) = api_text(&app, routes::DELETE_TABLE.at([&t.id]).key(&t.owner)).await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    assert_eq!(
        p2.next().await.map(|e| e.event),
        Some("deleted".to_string())
    );
    let (status, _) = api_text(&app, routes::TABLE_INFO.at([&t.id]).key(&t.owner)).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let app = restart(&s);
    let (status, _) = api_text(&app, routes::TABLE_INFO.at([&t.id]).key(&t.owner)).await;
    assert_eq!(
        status,
        StatusCode::NOT_FOUND,
        "not restored after a restart"
    );
    let conn = rusqlite::Connection::open(&s.path).unwrap();
    for table in ["log", "links", "commands"] {
        let rows: i64 = conn
            .query_row(
                &format!("SELECT COUNT(*) FROM {table} WHERE table_id = ?1"),
                [&t.id],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(rows, 0, "{table}");
    }
}

#[tokio::test]
async fn every_game_has_its_rules_and_charts_one_tap_away() {
    let tables = clash_server::open(
        &tempfile::tempdir().unwrap().keep().join("rules.db"),
        clash_catalogue::rulesets(),
    )
    .unwrap();
    let app = clash_server::app(tables);
    for entry in clash_catalogue::rulesets() {
        let (status, html) = api_text(&app, routes::RULES_PART.at([entry.id])).await;
        assert_eq!(status, StatusCode::OK, "{}", entry.id);
        assert!(
            html.contains("id=\"rules-charts\"") && html.contains("<table>"),
            "{}",
            entry.id
        );
        let (status, page) = api_text(&app, routes::RULES.at([entry.id])).await;
        assert_eq!(status, StatusCode::OK);
        assert!(page.contains(entry.name));
    }
    let (status, _) = api_text(&app, routes::RULES.at(["chess"])).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

/// A table of a real game from the catalogue, every seat claimed: its id and each seat's key.
async fn real_table(
    app: &Router,
    ruleset: &str,
) -> (Table, std::collections::BTreeMap<String, String>) {
    let (status, created) = api(
        app,
        routes::CREATE_TABLE.at([]).json(&CreateTable {
            ruleset: Some(String::from(ruleset)),
            title: Some(String::from("Real")),
            ..CreateTable::default()
        }),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    let id = created["table"].as_str().unwrap().to_string();
    let owner = created["owner_key"].as_str().unwrap().to_string();
    let mut keys = std::collections::BTreeMap::new();
    keys.insert("gm".to_string(), owner.clone());
    for seat in created["seats"].as_array().unwrap() {
        let seat = seat["seat"].as_str().unwrap();
        if seat != "gm" {
            keys.insert(
                seat.into(),
                claim(app, &id, &invite(app, &id, &owner, seat).await).await,
            );
        }
    }
    let t = Table {
        id,
        p1: keys.get("p1").cloned().unwrap_or_default(),
        p2: keys.get("p2").cloned().unwrap_or_default(),
        owner,
        spectator: created["spectator_key"].as_str().unwrap().into(),
    };
    (t, keys)
}

/// Send the first command of `kind` the rules offer the seat holding `key`.
async fn play_first(app: &Router, t: &Table, key: &str, kind: &str) -> Value {
    let update = look(app, t, key).await;
    let command = update["legal"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["command"].clone())
        .find(|c| c["type"] == kind)
        .unwrap_or_else(|| panic!("no {kind} among {}", update["legal"]));
    let (status, body) = send(app, t, key, command.clone()).await;
    assert_eq!(status, StatusCode::OK, "{command} → {body}");
    command
}

async fn undo_status(app: &Router, t: &Table) -> (StatusCode, Value) {
    post(
        app,
        t,
        routes::UNDO,
        &t.owner,
        UndoBody {
            ..UndoBody::default()
        },
    )
    .await
}

#[tokio::test]
async fn real_games_take_back_quiet_commands_and_keep_rolls_and_reveals() {
    let dir = tempfile::tempdir().unwrap();
    let app = clash_server::app(
        clash_server::open(&dir.path().join("real.db"), clash_catalogue::rulesets()).unwrap(),
    );

    // In A Wicked Age: starting a conflict rolls nothing, so it can be taken back (WA-19);
    // initiative is rolled (WA-22), so it stands.
    let (wa, keys) = real_table(&app, "wicked-age").await;
    let (status, _) = send(
        &app,
        &wa,
        &wa.owner,
        json!({"type": "start_conflict", "participants": ["Ysolde", "Oren"], "action": "a slip"}),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(undo_status(&app, &wa).await.0, StatusCode::NO_CONTENT);
    assert_eq!(
        look(&app, &wa, &wa.owner).await["view"]["conflict"],
        Value::Null
    );
    let (status, _) = send(
        &app,
        &wa,
        &wa.owner,
        json!({"type": "start_conflict", "participants": ["Ysolde", "Oren"], "action": "the ring"}),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    play_first(&app, &wa, &keys["p1"], "roll_initiative").await;
    let (status, body) = undo_status(&app, &wa).await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert!(
        body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("rolled dice")
    );
    close(&app, &wa).await;
    let report = verify(
        &record(&app, &wa, &wa.spectator).await.1,
        &clash_catalogue::rulesets(),
        &[],
    );
    assert!(report.ok() && report.unchecked.is_empty(), "{report:?}");
    assert!(
        report
            .verified
            .iter()
            .any(|v| v.starts_with("1 commands taken back")),
        "{report:?}"
    );

    // Iron Triangle: a stance taken face down can be taken back; once both are in they are
    // revealed (IT-2), and that stands.
    let (it, keys) = real_table(&app, "iron-triangle").await;
    play_first(&app, &it, &it.owner, "start_conflict").await;
    for _ in 0..12 {
        let gm = look(&app, &it, &it.owner).await;
        let waiting = gm["room"]["turn"]["waiting"][0]["seat"]
            .as_str()
            .unwrap()
            .to_string();
        let mine = look(&app, &it, &keys[&waiting]).await;
        let kinds: Vec<String> = mine["legal"]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| l["command"]["type"].as_str().unwrap().to_string())
            .collect();
        if kinds.iter().any(|k| k == "take_stance") {
            break;
        }
        let next = ["join_conflict", "pick_active", "pick_opponent"]
            .into_iter()
            .find(|k| kinds.iter().any(|x| x == k))
            .unwrap_or_else(|| panic!("stuck before the stances: {kinds:?}"));
        play_first(&app, &it, &keys[&waiting], next).await;
    }
    let gm = look(&app, &it, &it.owner).await;
    let first = gm["room"]["turn"]["waiting"][0]["seat"]
        .as_str()
        .unwrap()
        .to_string();
    play_first(&app, &it, &keys[&first], "take_stance").await;
    assert_eq!(
        undo_status(&app, &it).await.0,
        StatusCode::NO_CONTENT,
        "a hidden stance goes back"
    );
    play_first(&app, &it, &keys[&first], "take_stance").await;
    let gm = look(&app, &it, &it.owner).await;
    let second = gm["room"]["turn"]["waiting"][0]["seat"]
        .as_str()
        .unwrap()
        .to_string();
    play_first(&app, &it, &keys[&second], "take_stance").await;
    let (status, body) = undo_status(&app, &it).await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert!(
        body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("into the open")
    );
    close(&app, &it).await;
    let report = verify(
        &record(&app, &it, &it.owner).await.1,
        &clash_catalogue::rulesets(),
        &[],
    );
    assert!(report.ok() && report.unchecked.is_empty(), "{report:?}");
}
