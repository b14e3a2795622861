//! A log no one can flood (issue 37): once the secret is revealed nothing more is chained onto
//! the log, so the record everyone downloads is final; what still happens at a finished table is
//! housekeeping beside it. Every kind of entry a request appends has a cap per link, per table
//! and per minute, with a refusal naming it, and the record has a size limit, which also bounds
//! a page's start-up data.

use axum::Router;
use axum::http::StatusCode;
use clash_server::Limits;
use clash_server::table::caps::{Cap, Caps};
use serde_json::{Value, json};

use crate::client::*;

/// `POST` to the table's operation `what` (`chat`, `links/owner`, …) with `key`.
async fn post(app: &Router, t: &Table, what: &str, key: &str, body: Value) -> (StatusCode, Value) {
    let href = match what {
        "chat" => routes::CHAT.at([&t.id]),
        "seed" => routes::SEED.at([&t.id]),
        "close" => routes::CLOSE.at([&t.id]),
        "rename" => routes::RENAME.at([&t.id]),
        "archive" => routes::ARCHIVE.at([&t.id]),
        "move-link" => routes::MOVE_LINK.at([&t.id]),
        "links/owner" => routes::REPLACE_LINK.at([&t.id, "owner"]),
        _ => panic!("no operation {what} in these tests"),
    };
    api(app, href.key(key).json(&body)).await
}

async fn record(app: &Router, t: &Table, key: &str) -> Value {
    api(app, routes::EXPORT.at([&t.id]).key(key)).await.1
}

fn verified(doc: &Value) -> bool {
    let report = clash_server::export::verify(doc, &catalogue(), &[]);
    report.ok() && report.unchecked.is_empty()
}

#[tokio::test]
async fn nothing_is_added_to_a_final_record_and_housekeeping_goes_on_beside_it() {
    let s = server();
    let t = table(&s.app).await;
    let owner = finished_and_kept(&s.app, &t).await;
    let reopened = clash_server::open(&s.path, catalogue()).unwrap();
    kept(&clash_server::app(reopened), &t.id, &owner).await;
}

/// The same on PostgreSQL (when `CLASH_TEST_POSTGRES` is set), read back by another node.
#[tokio::test]
async fn housekeeping_beside_a_final_record_is_kept_on_postgres_too() {
    let Ok(url) = std::env::var("CLASH_TEST_POSTGRES") else {
        return;
    };
    let db = clash_server::store::Db::Postgres(url);
    let node = || async {
        clash_server::open_db(&db, catalogue(), Limits::default())
            .await
            .unwrap()
    };
    let app = clash_server::app(node().await);
    let t = table(&app).await;
    let owner = finished_and_kept(&app, &t).await;
    kept(&clash_server::app(node().await), &t.id, &owner).await;
}

/// End `t`, refuse what would add to its record, and do its housekeeping: the GM's new key.
async fn finished_and_kept(app: &Router, t: &Table) -> String {
    let (status, _) = post(app, t, "close", &t.owner, json!({})).await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    let before = record(app, t, &t.owner).await;
    assert!(verified(&before));
    // Talk, seeds and settings would add to the log: refused, saying why.
    for (what, key, body) in [
        ("chat", &t.p1, json!({"text": "gg"})),
        ("chat", &t.p1, json!({"text": "psst", "to_gm": true})),
        ("seed", &t.p1, json!({"seed": "late-seed"})),
    ] {
        let (status, answer) = post(app, t, what, key, body).await;
        assert_eq!(status, StatusCode::CONFLICT, "{what}: {answer}");
        assert!(
            answer["error"]["message"]
                .as_str()
                .unwrap()
                .contains("has ended")
        );
    }
    let odds = routes::SWITCH_ODDS.at([&t.id]).key(&t.owner);
    let (status, answer) = api(app, odds.json(&json!({"enabled": true}))).await;
    assert_eq!(status, StatusCode::CONFLICT, "{answer}");
    assert!(
        answer["error"]["message"]
            .as_str()
            .unwrap()
            .contains("record is final")
    );
    // Housekeeping works: a new name, archiving, a seat moved to another device, a new GM link.
    let (status, _) = post(
        app,
        t,
        "rename",
        &t.owner,
        json!({"title": "Finished duel"}),
    )
    .await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    let (status, _) = post(app, t, "archive", &t.owner, json!({"archived": true})).await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    let (status, moving) = post(app, t, "move-link", &t.p1, json!({})).await;
    assert_eq!(status, StatusCode::CREATED, "{moving}");
    let p1 = claim(app, &t.id, moving["key"].as_str().unwrap()).await;
    let (status, owner) = post(app, t, "links/owner", &t.owner, json!({})).await;
    assert_eq!(status, StatusCode::CREATED, "{owner}");
    let owner = owner["key"].as_str().unwrap().to_string();
    // …and none of it is in the log: every record is what it was, and still the whole game.
    let after = record(app, t, &owner).await;
    assert_eq!(after["entries"], before["entries"]);
    assert_eq!(after["head"], before["head"]);
    assert!(verified(&after) && verified(&record(app, t, &p1).await));
    kept(app, &t.id, &owner).await;
    owner
}

/// The finished table shows its new name and stays archived.
async fn kept(app: &Router, id: &str, owner: &str) {
    let (_, info) = api(app, routes::VIEW.at([id]).key(owner)).await;
    assert_eq!(info["title"], "Finished duel", "{info}");
    assert_eq!(info["room"]["archived"], true);
}

/// Tiny caps, so a test reaches each one quickly.
fn tight() -> Limits {
    Limits {
        caps: Caps {
            moves: Cap {
                per_link: 4,
                per_table: 6,
                per_minute: 3,
            },
            talk: Cap {
                per_link: 5,
                per_table: 8,
                per_minute: 100,
            },
            seed: Cap {
                per_link: 100,
                per_table: 100,
                per_minute: 2,
            },
            ..Caps::default()
        },
        ..Limits::default()
    }
}

fn open_tight() -> (Router, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let tables = clash_server::open_with(&dir.path().join("c.db"), catalogue(), tight()).unwrap();
    (clash_server::app(tables), dir)
}

fn refusal(answer: &Value) -> (&str, &str) {
    (
        answer["error"]["code"].as_str().unwrap_or_default(),
        answer["error"]["message"].as_str().unwrap_or_default(),
    )
}

#[tokio::test]
async fn move_links_are_capped_per_minute_per_link_and_per_table() {
    let (app, _dir) = open_tight();
    let t = table(&app).await;
    for _ in 0..3 {
        let (status, answer) = post(&app, &t, "move-link", &t.p1, json!({})).await;
        assert_eq!(status, StatusCode::CREATED, "{answer}");
    }
    let (status, answer) = post(&app, &t, "move-link", &t.p1, json!({})).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{answer}");
    let (code, message) = refusal(&answer);
    assert_eq!(code, "too_fast");
    assert!(
        message.contains("at most 3 links to move a seat to another device a minute"),
        "{message}"
    );
    // Another link has its own minute; the table's cap counts everyone's.
    for _ in 0..3 {
        let (status, answer) = post(&app, &t, "move-link", &t.p2, json!({})).await;
        assert_eq!(status, StatusCode::CREATED, "{answer}");
    }
    let (status, answer) = post(&app, &t, "move-link", &t.p2, json!({})).await;
    assert_eq!(status, StatusCode::CONFLICT, "{answer}");
    let (code, message) = refusal(&answer);
    assert_eq!(code, "cap_reached");
    assert!(
        message.contains("holds 6 links to move a seat"),
        "{message}"
    );
}

#[tokio::test]
async fn talk_and_seeds_are_capped_and_the_refusal_names_the_limit() {
    let (app, _dir) = open_tight();
    let t = table(&app).await;
    for n in 0..5 {
        let (status, _) = post(
            &app,
            &t,
            "chat",
            &t.p1,
            json!({"text": format!("line {n}")}),
        )
        .await;
        assert_eq!(status, StatusCode::NO_CONTENT);
    }
    let (status, answer) = post(&app, &t, "chat", &t.p1, json!({"text": "one more"})).await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert!(
        refusal(&answer)
            .1
            .contains("this link has made 5 lines of talk"),
        "{answer}"
    );
    for n in 0..3 {
        let (status, _) = post(
            &app,
            &t,
            "chat",
            &t.p2,
            json!({"text": format!("line {n}")}),
        )
        .await;
        assert_eq!(status, StatusCode::NO_CONTENT);
    }
    let (status, answer) = post(&app, &t, "chat", &t.owner, json!({"text": "GM here"})).await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert!(
        refusal(&answer).1.contains("holds 8 lines of talk"),
        "{answer}"
    );
    for seed in ["s1", "s2"] {
        let (status, _) = post(&app, &t, "seed", &t.p1, json!({"seed": seed})).await;
        assert_eq!(status, StatusCode::NO_CONTENT);
    }
    let (status, answer) = post(&app, &t, "seed", &t.p1, json!({"seed": "s3"})).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS);
    assert!(
        refusal(&answer).1.contains("at most 2 seeds a minute"),
        "{answer}"
    );
    // The end is never refused, and its record is whole.
    let (status, _) = post(&app, &t, "close", &t.owner, json!({})).await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    assert!(verified(&record(&app, &t, &t.owner).await));
}

#[tokio::test]
async fn the_record_has_a_size_limit_which_bounds_a_pages_start_up_data() {
    let limit = 48 * 1024;
    let limits = Limits {
        caps: Caps {
            record_bytes: limit,
            ..Caps::default()
        },
        ..Limits::default()
    };
    let dir = tempfile::tempdir().unwrap();
    let tables = clash_server::open_with(&dir.path().join("c.db"), catalogue(), limits).unwrap();
    let app = clash_server::app(tables);
    let t = table(&app).await;
    let line = "&<\"".repeat(160);
    let mut refused = None;
    for n in 0..400 {
        let key = [&t.p1, &t.p2, &t.owner][n % 3];
        let (status, answer) = post(&app, &t, "chat", key, json!({"text": line})).await;
        if status != StatusCode::NO_CONTENT {
            refused = Some((status, answer));
            break;
        }
    }
    let (status, answer) = refused.expect("the record filled up");
    assert_eq!(status, StatusCode::CONFLICT);
    assert!(
        refusal(&answer).1.contains("size limit of 48 KiB"),
        "{answer}"
    );
    let (status, _) = post(&app, &t, "close", &t.owner, json!({})).await;
    assert_eq!(status, StatusCode::NO_CONTENT, "the end is never refused");
    let doc = record(&app, &t, &t.owner).await;
    let stored: usize = doc["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["entry"].to_string().len())
        .sum();
    assert!(stored <= limit + 1024, "{stored}");
    // Every page's start-up data stays within twice the limit, plus its picture.
    for key in [&t.owner, &t.p1, &t.spectator] {
        let (_, page) = api_text(&app, routes::TABLE_PAGE.at([&t.id, key])).await;
        let start = page
            .find("<script type=\"application/json\" id=\"boot\">")
            .unwrap();
        let boot = &page[start..page[start..].find("</script>").unwrap() + start];
        assert!(boot.len() <= 2 * limit + 16 * 1024, "{} bytes", boot.len());
    }
}
