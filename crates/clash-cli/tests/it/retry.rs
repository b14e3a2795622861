//! A command committed but never answered (the server killed with SIGKILL in between) and then
//! retried with its id is applied once.

use crate::common;

use std::time::{Duration, Instant};

use common::{Server, gm_table};
use serde_json::json;

#[test]
fn a_retry_after_a_kill_between_commit_and_answer_applies_once() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("clash.db");
    let server = Server::start(&db);
    let (id, owner, _) = gm_table(&server, "triforce");
    let count = |s: &Server| {
        s.ok("GET", &format!("/api/tables/{id}?key={owner}"), None)["event_count"]
            .as_u64()
            .unwrap()
    };
    let before = count(&server);
    let view = server.ok(
        "GET",
        &format!("/api/tables/{id}/view?key={owner}&as=p1"),
        None,
    );
    let command = view["legal"][0]["command"].clone();
    let body = json!({ "command": command, "as": "p1", "id": "retry-me-1" });
    // Send, never read the answer, and kill the server as soon as the command is committed.
    let lost = server.send_only(
        "POST",
        &format!("/api/tables/{id}/commands?key={owner}"),
        Some(&body),
    );
    let deadline = Instant::now() + Duration::from_secs(20);
    while count(&server) == before {
        assert!(Instant::now() < deadline, "the command was never committed");
        std::thread::sleep(Duration::from_millis(5));
    }
    server.kill();
    drop(lost);
    let committed = {
        let server = Server::start(&db);
        let after_restart = count(&server);
        assert!(after_restart > before, "committed before the kill");
        let (status, answer) = server.call(
            "POST",
            &format!("/api/tables/{id}/commands?key={owner}"),
            Some(body.clone()),
        );
        assert_eq!(status, 200, "{answer}");
        assert_eq!(answer["command"]["duplicate"], true, "{answer}");
        assert_eq!(count(&server), after_restart, "the retry applied nothing");
        after_restart
    };
    // And once more after another restart, for good measure: still once.
    let server = Server::start(&db);
    let (_, answer) = server.call(
        "POST",
        &format!("/api/tables/{id}/commands?key={owner}"),
        Some(body),
    );
    assert_eq!(answer["command"]["n"], 0);
    assert_eq!(count(&server), committed);
}
