//! Tables made by form and session zero through the HTTP API, with the real catalogue: a table
//! is made from the lobby's choices; its players hand in sheets from their own links, checked
//! by the game's rules (a bad one refused naming its rule, and nothing changed); the GM sends
//! one back with a comment, readies an NPC and starts play, and the game goes on from the sheets
//! — surviving a restart, and verified from its record by `clash verify`. NPCs stay the GM's
//! alone throughout.

use axum::Router;
use axum::http::StatusCode;
use clash_server::export::verify;
use serde_json::{Value, json};

use crate::client::*;

struct Server {
    app: Router,
    server: std::sync::Arc<clash_server::Server>,
    path: std::path::PathBuf,
    _dir: tempfile::TempDir,
}

fn server() -> Server {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("clash.db");
    let tables = clash_server::open(&path, clash_catalogue::rulesets()).unwrap();
    Server {
        app: clash_server::app(tables.clone()),
        server: tables,
        path,
        _dir: dir,
    }
}

struct Made {
    id: String,
    owner: String,
    spectator: String,
}

async fn from_form(app: &Router, body: Value) -> (StatusCode, Value) {
    api(app, routes::FROM_FORM.at([]).json(&body)).await
}

async fn made(app: &Router, body: Value) -> Made {
    let (status, created) = from_form(app, body).await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    Made {
        id: created["table"].as_str().unwrap().into(),
        owner: created["owner_key"].as_str().unwrap().into(),
        spectator: created["spectator_key"].as_str().unwrap().into(),
    }
}

async fn player(app: &Router, t: &Made, seat: &str) -> String {
    let invite = invite(app, &t.id, &t.owner, seat).await;
    claim(app, &t.id, &invite).await
}

async fn send(app: &Router, t: &Made, key: &str, command: Value) -> (StatusCode, Value) {
    api(
        app,
        routes::COMMAND
            .at([&t.id])
            .key(key)
            .json(&CommandBody::of(json!(command))),
    )
    .await
}

async fn ok(app: &Router, t: &Made, key: &str, command: Value) -> Value {
    let (status, body) = send(app, t, key, command.clone()).await;
    assert_eq!(status, StatusCode::OK, "{command} → {body}");
    body
}

async fn look(app: &Router, t: &Made, key: &str) -> Value {
    let (status, v) = api(app, routes::VIEW.at([&t.id]).key(key).query("after", "0")).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    v
}

fn ada() -> Value {
    json!({
        "name": "Ada",
        "energy": {"defend": 3, "grapple": 2, "attack": 5},
        "backgrounds": [{"name": "Detective", "points": 2}, {"name": "Disgraced hockey player", "points": 1}],
        "belief": "Everyone lies", "flaw": "Temper", "goal": "Find the thief",
        "moves": [
            {"move": "D-M", "name": "Philly Shell"},
            {"move": "G-L", "name": "Trip"},
            {"move": "A-H", "name": "Overhand Right"}
        ]
    })
}

fn bo() -> Value {
    let mut s = ada();
    s["name"] = json!("Bo");
    s["energy"] = json!({"defend": 4, "grapple": 4, "attack": 2});
    s
}

fn brute() -> Value {
    json!({
        "name": "Brute", "established": true, "level": 2,
        "energy": {"defend": 2, "grapple": 4, "attack": 3},
        "moves": [
            {"move": "D-L", "name": "Low Block"}, {"move": "G-M", "name": "Bear Hug"},
            {"move": "A-M", "name": "Haymaker"}, {"move": "A-L", "name": "Shin Kick"}
        ]
    })
}

fn it_table() -> Value {
    json!({
        "ruleset": "iron-triangle",
        "title": "Tuesday campaign",
        "table": {"players": 2, "options": {"session": 1, "countdowns": [{"name": "The flood", "boxes": 6}]}},
    })
}

#[tokio::test]
async fn it_9_a_table_made_by_form_gathers_its_players_sheets_and_plays_from_them() {
    let s = server();
    let app = &s.app;
    let t = made(app, it_table()).await;
    let p1 = player(app, &t, "p1").await;
    let p2 = player(app, &t, "p2").await;
    let gm_view = look(app, &t, &t.owner).await;
    assert_eq!(
        gm_view["view"]["session_zero"]["players"][0]["status"],
        "missing"
    );
    assert_eq!(
        gm_view["room"]["turn"]["text"],
        "Waiting for the first player and the second player"
    );

    // A sheet breaking a creation rule is refused naming it, and nothing changes (IT-9).
    let before = log_len(app, &t.id, &t.owner).await;
    let mut wrong = ada();
    wrong["energy"]["attack"] = json!(4);
    let (status, refused) = send(
        app,
        &t,
        &p1,
        json!({"type": "hand_in_sheet", "sheet": wrong}),
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(refused["error"]["rule"], "IT-9", "{refused}");
    assert_eq!(log_len(app, &t.id, &t.owner).await, before);
    // Nobody hands in a sheet for someone else's seat, and the GM's seat hands in none.
    let (status, _) = send(
        app,
        &t,
        &t.owner,
        json!({"type": "hand_in_sheet", "sheet": ada()}),
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);

    ok(
        app,
        &t,
        &p1,
        json!({"type": "hand_in_sheet", "sheet": ada()}),
    )
    .await;
    ok(
        app,
        &t,
        &p2,
        json!({"type": "hand_in_sheet", "sheet": bo()}),
    )
    .await;
    // The GM sends Bo's sheet back: only the GM and Bo's player read the comment.
    ok(
        app,
        &t,
        &t.owner,
        json!({"type": "send_back", "seat": "p2", "comment": "Bo needs a sharper goal"}),
    )
    .await;
    for (key, reads) in [
        (&p2, true),
        (&t.owner, true),
        (&p1, false),
        (&t.spectator, false),
    ] {
        let v = look(app, &t, key).await;
        assert_eq!(v.to_string().contains("sharper goal"), reads, "{v}");
    }
    let mut bo_again = bo();
    bo_again["goal"] = json!("Win back the family boat");
    ok(
        app,
        &t,
        &p2,
        json!({"type": "hand_in_sheet", "sheet": bo_again}),
    )
    .await;
    ok(
        app,
        &t,
        &t.owner,
        json!({"type": "ready_npc", "sheet": brute()}),
    )
    .await;
    // The NPC is the GM's alone, in every view, log line and record a player may read.
    for key in [&p1, &p2, &t.spectator] {
        assert!(!look(app, &t, key).await.to_string().contains("Brute"));
        let (_, record) = api_text(app, routes::EXPORT.at([&t.id]).key(key)).await;
        assert!(!record.contains("Bear Hug"), "a record leaks the NPC");
    }
    assert!(
        look(app, &t, &t.owner)
            .await
            .to_string()
            .contains("Bear Hug")
    );

    // Players cannot start play; the GM does, and the game is the one the sheets make.
    let (status, _) = send(app, &t, &p1, json!({"type": "start_play"})).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    ok(app, &t, &t.owner, json!({"type": "start_play"})).await;
    let v = look(app, &t, &p1).await;
    let names: Vec<&str> = v["view"]["characters"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["Ada", "Bo", "Brute"]);
    assert_eq!(v["view"]["campaign"]["countdowns"][0]["name"], "The flood"); // IT-13
    assert_eq!(v["room"]["me"], "Ada");

    // The GM runs a conflict with the players' own characters.
    ok(
        app,
        &t,
        &t.owner,
        json!({"type": "start_conflict", "stakes": "The ledger", "npcs": ["Brute"], "minor": true}),
    )
    .await;
    ok(
        app,
        &t,
        &p1,
        json!({"type": "join_conflict", "character": "Ada"}),
    )
    .await;
    ok(
        app,
        &t,
        &p2,
        json!({"type": "join_conflict", "character": "Bo"}),
    )
    .await;
    let v = look(app, &t, &t.owner).await;
    assert!(v["view"]["conflict"].is_object(), "{}", v["view"]);

    // A restart rebuilds the table from its log, session zero and all.
    let seen = look(app, &t, &p1).await["view"].clone();
    drop(s.app);
    drop(s.server);
    let tables = clash_server::open(&s.path, clash_catalogue::rulesets()).unwrap();
    let app = clash_server::app(tables);
    assert_eq!(look(&app, &t, &p1).await["view"], seen);

    // Its record verifies, the session zero replayed with the game.
    ok(
        &app,
        &t,
        &t.owner,
        json!({"type": "settle_conflict", "outcome": "Nobody moves"}),
    )
    .await;
    let (status, _) = api(&app, routes::CLOSE.at([&t.id]).key(&t.owner)).await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    let (_, text) = api_text(&app, routes::EXPORT.at([&t.id]).key(&t.owner)).await;
    let report = verify(
        &serde_json::from_str(&text).unwrap(),
        &clash_catalogue::rulesets(),
        &[],
    );
    assert!(report.ok(), "{report:?}");
}

#[tokio::test]
async fn the_checks_answer_every_problem_at_its_field_naming_its_rule() {
    let s = server();
    let check = |ruleset: &str, body: Value| {
        let app = s.app.clone();
        let uri = routes::CHECK_FORM.at([ruleset]);
        async move { call_json(&app, "POST", &uri, Some(body)).await }
    };
    let mut sheet = ada();
    sheet["energy"] = json!({"defend": 0, "grapple": 5, "attack": 4});
    sheet["backgrounds"] = json!([{"name": "Detective", "points": 3}]);
    let (status, body) = check("iron-triangle", json!({"sheet": sheet, "maker": "player"})).await;
    assert_eq!(status, StatusCode::OK);
    let at: Vec<(&str, &str)> = body["problems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p["field"].as_str().unwrap(), p["rule"].as_str().unwrap()))
        .collect();
    assert_eq!(at, [("energy", "IT-9"), ("backgrounds", "IT-10")]); // IT-9, IT-10
    let (_, body) = check("wicked-age", json!({"sheet": {"name": "Ysolde", "kind": "pc",
        "forms": {"covertly": 12, "directly": 12, "for_myself": 8, "for_others": 6, "with_love": 6, "with_violence": 4},
        "best_interests": ["One"]}})).await;
    assert_eq!(body["problems"][0]["rule"], "WA-2"); // WA-2
    assert_eq!(body["problems"][1]["rule"], "WA-5"); // WA-5
    let (_, body) = check(
        "nd-tourists",
        json!({"sheet": {"name": "TMDF", "characters": []}, "maker": "gm"}),
    )
    .await;
    assert_eq!(body["problems"][0]["field"], "characters");
    assert_eq!(body["problems"][0]["rule"], "ND-5"); // ND-5
    let (_, body) = check("triforce", json!({"table": {"players": 7}})).await;
    assert_eq!(body["problems"][0]["rule"], "TF-5"); // TF-5
    let (_, body) = check("iron-triangle", json!({"table": {"players": 2, "options": {"countdowns": [{"name": "Flood", "boxes": 2}]}}})).await;
    assert_eq!(body["problems"][0]["field"], "options.countdowns.0");
    assert_eq!(body["problems"][0]["rule"], "IT-13"); // IT-13
    let (status, _) = check("iron-triangle", json!({"nothing": 1})).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let (status, _) = check("chess", json!({"table": {"players": 2}})).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn bad_choices_make_no_table_and_seats_the_gm_plays_are_taken_over() {
    let s = server();
    let app = &s.app;
    let (status, body) = from_form(app, json!({"ruleset": "triforce", "table": {"players": 3, "options": {"names": {"p1": "Ada", "p2": "ADA"}}}})).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(body["problems"][0]["field"], "options.names"); // TF-5
    assert_eq!(body["error"]["rule"], "TF-5");
    let stored = s.server.store().count_tables().await.unwrap();
    assert_eq!(stored, 0, "nothing is made from refused choices");
    // Triforce has no sheets: its table starts at once, the first seat played by its maker.
    let t = made(app, json!({"ruleset": "triforce", "table": {"players": 3, "options": {"names": {"p1": "Ada"}, "starting_seat": "p2"}}, "gm_plays": ["p1"]})).await;
    let (_, info) = api(app, routes::TABLE_INFO.at([&t.id]).key(&t.owner)).await;
    assert_eq!(info["seats"][0]["holder"], "npc");
    assert_eq!(info["title"], "Triforce table");
    let v = look(app, &t, &t.owner).await;
    assert!(v["view"].get("session_zero").is_none());
    assert_eq!(v["room"]["turn"]["text"], "Waiting for Green");
    let (status, _) = from_form(
        app,
        json!({"ruleset": "triforce", "table": {"players": 3}, "gm_plays": ["gm"]}),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn wa_2_a_wicked_age_cast_is_made_from_its_sheets_and_rolls_its_own_forms() {
    let s = server();
    let app = &s.app;
    let t = made(
        app,
        json!({"ruleset": "wicked-age", "table": {"players": 1, "options": {"chapter": 2}}}),
    )
    .await;
    let p1 = player(app, &t, "p1").await;
    let ysolde = json!({"name": "Ysolde", "kind": "pc",
        "forms": {"covertly": 6, "directly": 4, "for_myself": 8, "for_others": 6, "with_love": 12, "with_violence": 10},
        "strengths": [{"name": "Hidden Blade", "pc_form": "covertly", "npc_form": "maneuvering", "significance": [{"type": "potent"}]}],
        "best_interests": ["Find the child of the river", "Make the Khan pay"]});
    ok(
        app,
        &t,
        &p1,
        json!({"type": "hand_in_sheet", "sheet": ysolde}),
    )
    .await;
    ok(
        app,
        &t,
        &t.owner,
        json!({"type": "ready_npc", "sheet": {"name": "The Khan", "kind": "npc",
        "forms": {"action": [12, 8], "maneuvering": [10, 6], "self_protection": [6, 4]}}}),
    )
    .await;
    ok(app, &t, &t.owner, json!({"type": "start_play"})).await;
    ok(app, &t, &t.owner, json!({"type": "start_conflict", "participants": ["Ysolde", "The Khan"], "action": "a duel"})).await;
    let rolled = ok(app, &t, &p1, json!({"type": "roll_initiative", "character": "Ysolde", "forms": ["with_love", "with_violence"]})).await;
    let text: Vec<&str> = rolled["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|e| e["text"].as_str())
        .collect();
    assert!(text.iter().any(|l| l.contains("Ysolde")), "{text:?}");
    assert_eq!(look(app, &t, &p1).await["view"]["chapter"], 2);
}

#[tokio::test]
async fn the_gm_downloads_the_table_as_a_setup_that_starts_another() {
    let s = server();
    let app = &s.app;
    let t = made(app, it_table()).await;
    let p1 = player(app, &t, "p1").await;
    let p2 = player(app, &t, "p2").await;
    let uri = routes::SETUP_FILE.at([&t.id]).key(&t.owner);
    let (status, _) = call(app, "GET", &uri, None).await;
    assert_eq!(
        status,
        StatusCode::CONFLICT,
        "no setup while the sheets are being made"
    );
    ok(
        app,
        &t,
        &p1,
        json!({"type": "hand_in_sheet", "sheet": ada()}),
    )
    .await;
    ok(
        app,
        &t,
        &p2,
        json!({"type": "hand_in_sheet", "sheet": bo()}),
    )
    .await;
    ok(
        app,
        &t,
        &t.owner,
        json!({"type": "ready_npc", "sheet": brute()}),
    )
    .await;
    // In session zero the GM's view holds the setup play would start from.
    let setup = look(app, &t, &t.owner).await["view"]["session_zero"]["setup"].clone();
    assert_eq!(setup["characters"][2]["name"], "Brute");
    ok(app, &t, &t.owner, json!({"type": "start_play"})).await;
    let (status, _) = api_text(app, routes::SETUP_FILE.at([&t.id]).key(&p1)).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, file) = call_json(app, "GET", &uri, None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(file["clash"], "setup");
    let (status, again) = api(
        app,
        routes::CREATE_TABLE.at([]).json(&CreateTable {
            ruleset: file["ruleset"].as_str().map(String::from),
            setup: Some(json!(file["setup"])),
            ..CreateTable::default()
        }),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{again}");
}

#[tokio::test]
async fn the_gm_takes_back_a_send_back_and_the_start() {
    let s = server();
    let app = &s.app;
    let t = made(
        app,
        json!({"ruleset": "iron-triangle", "table": {"players": 1}}),
    )
    .await;
    let p1 = player(app, &t, "p1").await;
    ok(
        app,
        &t,
        &p1,
        json!({"type": "hand_in_sheet", "sheet": ada()}),
    )
    .await;
    ok(
        app,
        &t,
        &t.owner,
        json!({"type": "send_back", "seat": "p1", "comment": "Sharper"}),
    )
    .await;
    let undo = routes::UNDO.at([&t.id]).key(&t.owner);
    let (status, _) = call_json(app, "POST", &undo, None).await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    assert_eq!(
        look(app, &t, &p1).await["view"]["session_zero"]["players"][0]["status"],
        "handed_in"
    );
    ok(
        app,
        &t,
        &t.owner,
        json!({"type": "ready_npc", "sheet": brute()}),
    )
    .await;
    ok(app, &t, &t.owner, json!({"type": "start_play"})).await;
    let (status, _) = call_json(app, "POST", &undo, None).await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    assert!(look(app, &t, &t.owner).await["view"]["session_zero"].is_object());
}

/// Issue 38: the GM removes a seat in session zero: its player's key and its invite stop
/// working in the same commit, the others keep theirs, and play starts without it. A seat
/// added gets an invite like any other.
#[tokio::test]
async fn a_seat_removed_in_session_zero_takes_its_links_with_it() {
    let s = server();
    let app = &s.app;
    let t = made(app, it_table()).await;
    let p1 = player(app, &t, "p1").await;
    let p2 = player(app, &t, "p2").await;
    ok(
        app,
        &t,
        &p1,
        json!({"type": "hand_in_sheet", "sheet": ada()}),
    )
    .await;
    ok(app, &t, &t.owner, json!({"type": "add_seat"})).await;
    let p3_invite = invite(app, &t.id, &t.owner, "p3").await;
    ok(
        app,
        &t,
        &t.owner,
        json!({"type": "remove_seat", "seat": "p2"}),
    )
    .await;
    ok(
        app,
        &t,
        &t.owner,
        json!({"type": "remove_seat", "seat": "p3"}),
    )
    .await;
    for gone in [&p2, &p3_invite] {
        let (status, _) = api(app, routes::VIEW.at([&t.id]).key(gone)).await;
        assert_eq!(
            status,
            StatusCode::FORBIDDEN,
            "a removed seat's link stops working"
        );
    }
    let seats = look(app, &t, &t.owner).await["room"]["people"].clone();
    let seats: Vec<&str> = seats
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["seat"].as_str().unwrap())
        .collect();
    assert_eq!(seats, ["gm", "p1"]);
    ok(
        app,
        &t,
        &t.owner,
        json!({"type": "ready_npc", "sheet": brute()}),
    )
    .await;
    ok(app, &t, &t.owner, json!({"type": "start_play"})).await;
    let view = look(app, &t, &p1).await;
    assert!(view["view"]["session_zero"].is_null(), "play has started");
    let lines: Vec<String> = view["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["text"].as_str().unwrap().to_string())
        .collect();
    assert!(
        lines
            .iter()
            .any(|l| l == "The GM removes the seat of the second player."),
        "{lines:?}"
    );
}
