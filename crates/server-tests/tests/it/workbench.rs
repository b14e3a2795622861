//! The workbench on the server (issue 40): the games' rule numbers, a study of two variants
//! played off the play path to its report and plots, the same request finding the same study,
//! refusals that name the rule, and tables opened with a variant (by the API and from the
//! lobby's form) whose records carry it and verify.

use std::time::Duration;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use clash_server::workbench::dto::{StudyRequest, VariantRequest};
use http_body_util::BodyExt;
use serde_json::{Value, json};
use tower::ServiceExt;

use crate::client::*;

fn open(dir: &tempfile::TempDir) -> axum::Router {
    let tables =
        clash_server::open(&dir.path().join("clash.db"), clash_catalogue::rulesets()).unwrap();
    clash_server::app(tables)
}

/// A study of `variants` (name, changes) of `game`, `games` casual games each.
fn ask(game: &str, variants: &[(&str, &str)], games: u64) -> StudyRequest {
    StudyRequest {
        game: game.into(),
        table: None,
        variants: variants
            .iter()
            .map(|(name, changes)| VariantRequest {
                name: (*name).into(),
                changes: (*changes).into(),
            })
            .collect(),
        games: Some(games),
        strong: None,
        mixed: None,
        seed: None,
        exact: None,
    }
}

/// Follow a study until it is done (or failed); its last status.
async fn finished(app: &axum::Router, id: &str) -> Value {
    for _ in 0..600 {
        let (status, s) = api(app, routes::STUDY.at([id])).await;
        assert_eq!(status, StatusCode::OK, "{s}");
        if s["state"] == "done" || s["state"] == "failed" {
            return s;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    panic!("the study did not finish");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_study_of_two_variants_gives_its_report_and_plots_and_the_same_request_the_same_study() {
    let dir = tempfile::tempdir().unwrap();
    let app = open(&dir);
    let (status, games) = api(&app, routes::WORKBENCH_GAMES.at([])).await;
    assert_eq!(status, StatusCode::OK);
    let ids: Vec<&str> = games["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_str().unwrap())
        .collect();
    for game in ["iron-triangle", "nd-tourists", "triforce", "wicked-age"] {
        assert!(ids.contains(&game), "{game} has a workbench");
    }
    let wicked = games["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["id"] == "wicked-age")
        .unwrap();
    let rounds = wicked["params"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["key"] == "rounds")
        .unwrap();
    assert_eq!(
        (rounds["rule"].as_str(), rounds["default"].as_str()),
        (Some("WA-21"), Some("3"))
    );

    let ask = StudyRequest {
        strong: Some(2),
        mixed: Some(2),
        seed: Some(5),
        ..ask("wicked-age", &[("short conflicts", "rounds=2")], 24)
    };
    let (status, started) = api(&app, routes::START_STUDY.at([]).json(&ask)).await;
    assert_eq!(status, StatusCode::ACCEPTED, "{started}");
    assert_eq!(started["total"], 2 * (24 + 2 + 2));
    let id = started["id"].as_str().unwrap().to_string();
    let done = finished(&app, &id).await;
    assert_eq!(done["state"], "done", "{done}");
    assert_eq!(done["done"], done["total"]);
    let report = &done["report"];
    assert_eq!(report["variants"].as_array().unwrap().len(), 2);
    assert_eq!(report["variants"][1]["typed"], "rounds=2");
    assert!(!report["findings"].as_array().unwrap().is_empty());
    let casual = &report["runs"][0];
    assert_eq!(casual["bots"], "casual bots");
    let limit = casual["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["label"] == "games ended by a limit")
        .unwrap();
    assert!(
        limit["cells"][0]["text"]
            .as_str()
            .unwrap()
            .ends_with("n = 24")
    );
    assert!(
        done["link"].as_str().unwrap().starts_with(
            routes::WORKBENCH_PAGE
                .at([])
                .query("game", "wicked-age")
                .uri()
        )
    );

    let plots = report["plots"].as_array().unwrap();
    assert!(plots.len() >= 5);
    let req = Request::get(plots[0]["url"].as_str().unwrap())
        .body(Body::empty())
        .unwrap();
    let resp = app.clone().oneshot(req).await.unwrap();
    assert_eq!(resp.status(), StatusCode::OK);
    assert_eq!(resp.headers()["content-type"], "image/svg+xml");
    let svg = resp.into_body().collect().await.unwrap().to_bytes();
    assert!(svg.starts_with(b"<svg"));

    // The same request is the same study: found at once, done.
    let (status, again) = api(&app, routes::START_STUDY.at([]).json(&ask)).await;
    assert_eq!(status, StatusCode::ACCEPTED);
    assert_eq!(
        (again["id"].as_str(), again["state"].as_str()),
        (Some(id.as_str()), Some("done"))
    );
}

#[tokio::test]
async fn what_a_study_may_not_ask_is_refused_and_out_of_bounds_numbers_name_their_rule() {
    let dir = tempfile::tempdir().unwrap();
    let app = open(&dir);
    let one = |game: &str, changes: &str| ask(game, &[("v", changes)], 10);
    let refused =
        async |body: StudyRequest| api(&app, routes::START_STUDY.at([]).json(&body)).await;
    let (status, e) = refused(one("wicked-age", "rounds=7")).await;
    assert_eq!(
        (status, e["error"]["rule"].as_str()),
        (StatusCode::UNPROCESSABLE_ENTITY, Some("WA-21"))
    );
    let (status, e) = refused(one("triforce", "player_die=d7")).await;
    assert_eq!(
        (status, e["error"]["rule"].as_str()),
        (StatusCode::UNPROCESSABLE_ENTITY, Some("TF-24"))
    );
    let (status, e) = refused(one("iron-triangle", "stances=2")).await;
    assert_eq!(
        (status, e["error"]["rule"].as_str()),
        (StatusCode::UNPROCESSABLE_ENTITY, Some("IT-variant"))
    );
    let (status, _) = refused(one("nd-tourists", "reserve")).await;
    assert_eq!(status, StatusCode::BAD_REQUEST); // not key=value
    let (status, _) = refused(one("chess", "x=1")).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let many = ask("wicked-age", &[("v", "rounds=2")], 100_000);
    assert_eq!(refused(many).await.0, StatusCode::BAD_REQUEST); // bounded work
    let four = ask(
        "wicked-age",
        &[("a", ""), ("b", ""), ("c", ""), ("d", "")],
        10,
    );
    assert_eq!(refused(four).await.0, StatusCode::BAD_REQUEST);
    let (status, e) = api(&app, routes::STUDY.at(["nothing-here"])).await;
    assert_eq!(
        (status, e["error"]["code"].as_str()),
        (StatusCode::NOT_FOUND, Some("unknown_study"))
    );
}

/// A Triforce table with `variant`, every seat played by the GM for `commands` legal commands,
/// then ended: its record.
async fn played_with(app: &axum::Router, setup: Value, commands: usize) -> Value {
    let create = CreateTable {
        ruleset: Some("triforce".into()),
        setup: Some(setup),
        ..CreateTable::default()
    };
    let (status, created) = api(app, routes::CREATE_TABLE.at([]).json(&create)).await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    let (id, owner) = (
        created["table"].as_str().unwrap().to_string(),
        created["owner_key"].as_str().unwrap().to_string(),
    );
    for seat in ["p1", "p2", "p3"] {
        let npc = routes::ISSUE_LINK.at([&id, seat]).key(&owner);
        let (status, _) = api(app, npc.json(&LinkBody { npc: true })).await;
        assert!(status.is_success());
    }
    let mut played = 0;
    'play: while played < commands {
        for seat in ["p1", "p2", "p3"] {
            let view = routes::VIEW.at([&id]).key(&owner).query("as", seat);
            let (_, view) = api(app, view).await;
            let Some(first) = view["legal"].as_array().and_then(|l| l.first()) else {
                continue;
            };
            let body = CommandBody {
                command: Some(first["command"].clone()),
                as_seat: Some(seat.into()),
                ..CommandBody::default()
            };
            let command = routes::COMMAND.at([&id]).key(&owner).json(&body);
            let (status, answer) = api(app, command).await;
            assert!(status.is_success(), "{answer}");
            played += 1;
            continue 'play;
        }
        break;
    }
    let _ = api(app, routes::CLOSE.at([&id]).key(&owner)).await;
    let (status, record) = api(app, routes::EXPORT.at([&id]).key(&owner)).await;
    assert_eq!(status, StatusCode::OK);
    record
}

#[tokio::test]
async fn a_table_opened_with_a_variant_carries_it_in_its_record_and_verifies() {
    let dir = tempfile::tempdir().unwrap();
    let app = open(&dir);
    let variant = json!({"name": "even dice", "changes": {"shield_die": 12, "territory": 10}});
    let record = played_with(&app, json!({"players": 3, "variant": variant}), 10).await;
    let created = record["entries"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["entry"]["event"]["type"] == "created")
        .unwrap();
    assert_eq!(created["entry"]["event"]["setup"]["variant"], variant);
    let report = clash_server::export::verify(&record, &clash_catalogue::rulesets(), &[]);
    assert!(report.ok() && report.unchecked.is_empty(), "{report:?}");
    // A variant out of bounds opens no table.
    let out_of_bounds = CreateTable {
        ruleset: Some("triforce".into()),
        setup: Some(json!({"players": 3, "variant": {"name": "x", "changes": {"pieces": 9}}})),
        ..CreateTable::default()
    };
    let (status, e) = api(&app, routes::CREATE_TABLE.at([]).json(&out_of_bounds)).await;
    assert_eq!(
        (status, e["error"]["rule"].as_str()),
        (StatusCode::UNPROCESSABLE_ENTITY, Some("TF-2"))
    );
}

#[tokio::test]
async fn the_lobby_opens_a_table_with_a_variant_or_names_the_rule_it_breaks() {
    let dir = tempfile::tempdir().unwrap();
    let app = open(&dir);
    let form = async |changes: &str| {
        let body = format!(
            "preset=nd-tourists%230&title=Variant&variant_name=short+fuse&variant={}",
            changes.replace('=', "%3D").replace(',', "%2C")
        );
        let req = Request::post(routes::LOBBY_CREATE.path)
            .header("content-type", "application/x-www-form-urlencoded")
            .body(Body::from(body))
            .unwrap();
        let resp = app.clone().oneshot(req).await.unwrap();
        let status = resp.status();
        let location = resp
            .headers()
            .get("location")
            .map(|l| l.to_str().unwrap().to_string());
        let text = resp.into_body().collect().await.unwrap().to_bytes();
        (
            status,
            location,
            String::from_utf8_lossy(&text).into_owned(),
        )
    };
    let (status, location, _) = form("wipe_out=4").await;
    assert!(status.is_redirection(), "{status}");
    let path = location.unwrap();
    // The table's page: its id and the GM's key are the path's last two segments.
    let parts: Vec<&str> = path.rsplit('/').take(2).collect();
    let parts = [parts[1], parts[0]];
    let (_, view) = api(&app, routes::VIEW.at([parts[0]]).key(parts[1])).await;
    assert_eq!(
        view["view"]["position"]["variant"],
        json!({"name": "short fuse", "changes": {"wipe_out": 4}})
    );
    let (status, _, page) = form("wipe_out=2").await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(page.contains("ND-16"), "the refusal names the rule");
}
