//! The replay and review of an ended table: refused before the end (409 `not_ended`, page and
//! API alike); after it, each step as a seat saw it, with what was hidden from that seat then
//! marked as revealed later; a game with no review says so; only the GM cancels.

use axum::http::StatusCode;
use serde_json::{Value, json};

use crate::client::*;

#[tokio::test]
async fn the_replay_opens_at_the_end_and_marks_what_was_hidden() {
    let s = server();
    let t = table(&s.app).await;
    let (status, _) = send(
        &s.app,
        &t,
        &t.p1,
        json!({"type": "commit", "word": "amber"}),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let replay = |key: &str, step: usize, seat: &str| {
        routes::REPLAY
            .at([&t.id])
            .key(key)
            .query("step", step)
            .query("as", seat)
    };
    // Before the end: refused, with the reason, by the API and the page.
    let (status, body) = api(&s.app, replay(&t.p2, 1, "p2")).await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert_eq!(body["error"]["code"], "not_ended");
    let (status, body) = api(&s.app, routes::REVIEW.at([&t.id]).key(&t.p2)).await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert!(
        body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("once the table has ended")
    );
    let (status, page) = api_text(&s.app, routes::REVIEW_PAGE.at([&t.id, &t.p2])).await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert!(page.contains("once the table has ended"));
    send(
        &s.app,
        &t,
        &t.p2,
        json!({"type": "commit", "word": "basalt"}),
    )
    .await;
    let (status, _) = api(&s.app, routes::CLOSE.at([&t.id]).key(&t.owner)).await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    // After it: p2 saw p1's word as "ready"; the word is shown as revealed later.
    let (status, f) = api(&s.app, replay(&t.p2, 1, "p2")).await;
    assert_eq!(status, StatusCode::OK, "{f}");
    assert_eq!(f["step"], 1);
    let lines = f["lines"].as_array().unwrap();
    assert!(
        lines
            .iter()
            .any(|l| l["text"] == "p1 is ready" && l["later"] == false),
        "{f}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l["text"] == "p1 commits amber" && l["later"] == true),
        "{f}"
    );
    // p1 saw its own word: nothing of that step was hidden from it.
    let (_, own) = api(&s.app, replay(&t.p1, 1, "p1")).await;
    assert!(
        own["lines"]
            .as_array()
            .unwrap()
            .iter()
            .all(|l| l["later"] == false),
        "{own}"
    );
    // Step 0 is the table as it began; a seat that does not play is refused.
    let (_, start) = api(&s.app, replay(&t.spectator, 0, "spectator")).await;
    assert_eq!(start["step"], 0);
    assert!(start.get("actor").is_none());
    let (status, _) = api(&s.app, replay(&t.spectator, 1, "p7")).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "a seat that does not play");
    // The page opens once the table has ended.
    let (status, _) = api_text(&s.app, routes::REVIEW_PAGE.at([&t.id, &t.p2])).await;
    assert_eq!(status, StatusCode::OK);
    // This ruleset has no review: the answer says so, and the replay still works.
    let (status, review) = api(&s.app, routes::REVIEW.at([&t.id]).key(&t.spectator)).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(review, Value::Null);
    // Only the GM cancels a review.
    let (status, _) = api(&s.app, routes::CANCEL_REVIEW.at([&t.id]).key(&t.p1)).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, _) = api(&s.app, routes::CANCEL_REVIEW.at([&t.id]).key(&t.owner)).await;
    assert_eq!(status, StatusCode::NO_CONTENT);
}
