//! The workbench on the server (issue 40): the games' rule numbers, a study of two variants
//! played off the play path to its report and plots, the same request finding the same study,
//! refusals that name the rule, and tables opened with a variant (by the API and from the
//! lobby's form) whose records carry it and verify.

use std::time::Duration;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use serde_json::{Value, json};
use tower::ServiceExt;

use crate::client::call_json;

fn open(dir: &tempfile::TempDir) -> axum::Router {
    let tables =
        clash_server::open(&dir.path().join("clash.db"), clash_catalogue::rulesets()).unwrap();
    clash_server::app(tables)
}

/// Follow a study until it is done (or failed); its last status.
async fn finished(app: &axum::Router, id: &str) -> Value {
    for _ in 0..600 {
        let (status, s) =
            call_json(app, "GET", &format!("/api/workbench/studies/{id}"), None).await;
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
    let (status, games) = call_json(&app, "GET", "/api/workbench", None).await;
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

    let ask = json!({"game": "wicked-age", "variants": [{"name": "short conflicts", "changes": "rounds=2"}],
        "games": 24, "strong": 2, "mixed": 2, "seed": 5});
    let (status, started) =
        call_json(&app, "POST", "/api/workbench/studies", Some(ask.clone())).await;
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
        done["link"]
            .as_str()
            .unwrap()
            .starts_with("/workbench?game=wicked-age")
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
    let (status, again) = call_json(&app, "POST", "/api/workbench/studies", Some(ask)).await;
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
    let ask = |game: &str, changes: &str| json!({"game": game, "variants": [{"name": "v", "changes": changes}], "games": 10});
    let refused =
        async |body: Value| call_json(&app, "POST", "/api/workbench/studies", Some(body)).await;
    let (status, e) = refused(ask("wicked-age", "rounds=7")).await;
    assert_eq!(
        (status, e["error"]["rule"].as_str()),
        (StatusCode::UNPROCESSABLE_ENTITY, Some("WA-21"))
    );
    let (status, e) = refused(ask("triforce", "player_die=d7")).await;
    assert_eq!(
        (status, e["error"]["rule"].as_str()),
        (StatusCode::UNPROCESSABLE_ENTITY, Some("TF-24"))
    );
    let (status, e) = refused(ask("iron-triangle", "stances=2")).await;
    assert_eq!(
        (status, e["error"]["rule"].as_str()),
        (StatusCode::UNPROCESSABLE_ENTITY, Some("IT-variant"))
    );
    let (status, _) = refused(ask("nd-tourists", "reserve")).await;
    assert_eq!(status, StatusCode::BAD_REQUEST); // not key=value
    let (status, _) = refused(ask("chess", "x=1")).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let mut many = ask("wicked-age", "rounds=2");
    many["games"] = json!(100_000);
    assert_eq!(refused(many).await.0, StatusCode::BAD_REQUEST); // bounded work
    let four = json!({"game": "wicked-age", "variants": [
        {"name": "a", "changes": ""}, {"name": "b", "changes": ""}, {"name": "c", "changes": ""}, {"name": "d", "changes": ""}]});
    assert_eq!(refused(four).await.0, StatusCode::BAD_REQUEST);
    let (status, _) = call_json(&app, "GET", "/api/workbench/studies/nothing-here", None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

/// A Triforce table with `variant`, every seat played by the GM for `commands` legal commands,
/// then ended: its record.
async fn played_with(app: &axum::Router, setup: Value, commands: usize) -> Value {
    let (status, created) = call_json(
        app,
        "POST",
        "/api/tables",
        Some(json!({"ruleset": "triforce", "setup": setup})),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    let (id, owner) = (
        created["table"].as_str().unwrap().to_string(),
        created["owner_key"].as_str().unwrap().to_string(),
    );
    for seat in ["p1", "p2", "p3"] {
        let uri = format!("/api/tables/{id}/seats/{seat}/link?key={owner}");
        let (status, _) = call_json(app, "POST", &uri, Some(json!({"npc": true}))).await;
        assert!(status.is_success());
    }
    let mut played = 0;
    'play: while played < commands {
        for seat in ["p1", "p2", "p3"] {
            let uri = format!("/api/tables/{id}/view?key={owner}&as={seat}");
            let (_, view) = call_json(app, "GET", &uri, None).await;
            let Some(first) = view["legal"].as_array().and_then(|l| l.first()) else {
                continue;
            };
            let body = json!({"command": first["command"], "as": seat});
            let uri = format!("/api/tables/{id}/commands?key={owner}");
            let (status, answer) = call_json(app, "POST", &uri, Some(body)).await;
            assert!(status.is_success(), "{answer}");
            played += 1;
            continue 'play;
        }
        break;
    }
    let _ = call_json(
        app,
        "POST",
        &format!("/api/tables/{id}/close?key={owner}"),
        None,
    )
    .await;
    let (status, record) = call_json(
        app,
        "GET",
        &format!("/api/tables/{id}/export?key={owner}"),
        None,
    )
    .await;
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
    let (status, e) = call_json(
        &app,
        "POST",
        "/api/tables",
        Some(json!({"ruleset": "triforce", "setup": {"players": 3, "variant": {"name": "x", "changes": {"pieces": 9}}}})),
    )
    .await;
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
        let req = Request::post("/tables")
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
    let parts: Vec<&str> = path.trim_start_matches("/t/").split('/').collect();
    let uri = format!("/api/tables/{}/view?key={}", parts[0], parts[1]);
    let (_, view) = call_json(&app, "GET", &uri, None).await;
    assert_eq!(
        view["view"]["position"]["variant"],
        json!({"name": "short fuse", "changes": {"wipe_out": 4}})
    );
    let (status, _, page) = form("wipe_out=2").await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(page.contains("ND-16"), "the refusal names the rule");
}
