//! `clash review` on records of tables played on a real `clash serve`: the README's example
//! record is reviewed whole, as text and as JSON, and replayed as a seat saw it; a record taken
//! before the end, or one that does not verify, is refused with the reason (exit 1).

use crate::common;

use std::path::Path;
use std::process::Command;

use common::{Server, gm_table, play};
use serde_json::{Value, json};

fn clash(args: &[&str]) -> (Option<i32>, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_clash"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn example(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples/records")
        .join(name)
        .to_string_lossy()
        .into_owned()
}

#[test]
fn the_readmes_wicked_age_record_is_reviewed() {
    let record = example("wicked-age.json");
    let (code, out, err) = clash(&["review", &record]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("commands looked at"), "{out}");
    assert!(out.contains("accuracy"), "{out}");
    assert!(out.contains("luck over"), "every roll's luck: {out}");
    let (code, out, err) = clash(&["review", &record, "--json"]);
    assert_eq!(code, Some(0), "{err}");
    let review: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(review["ruleset"], "wicked-age");
    assert_eq!(review["progress"]["done"], true);
    assert!(
        !review["conflicts"][0]["points"]
            .as_array()
            .unwrap()
            .is_empty()
    );
}

/// Every example record is an ended table's whole record: it verifies, secret and all.
#[test]
fn every_example_record_verifies() {
    for game in ["iron-triangle", "wicked-age", "triforce", "nd-tourists"] {
        let (code, out, err) = clash(&["verify", &example(&format!("{game}.json"))]);
        assert_eq!(code, Some(0), "{game}: {out}{err}");
    }
}

#[test]
fn a_replay_marks_what_was_revealed_later() {
    let (code, out, err) = clash(&[
        "review",
        &example("iron-triangle.json"),
        "--replay",
        "--as",
        "p1",
    ]);
    assert_eq!(code, Some(0), "{err}");
    // The Brute's stances and moves were hidden from Ada's player until the reveal.
    assert!(out.contains("(revealed later)"), "{out}");
    assert!(out.contains("— step 1 of"), "{out}");
}

/// A finished table, with the record taken before and after its end.
fn finished(dir: &Path, ruleset: &str, commands: usize) -> (Value, Value) {
    let server = Server::start(&dir.join("clash.db"));
    let (id, owner, seats) = gm_table(&server, ruleset);
    play(&server, &id, &owner, &seats, commands);
    let before = server.ok("GET", &format!("/api/tables/{id}/export?key={owner}"), None);
    let (status, body) = server.call("GET", &format!("/api/tables/{id}/review?key={owner}"), None);
    assert_eq!(status, 409, "the server refuses too before the end: {body}");
    assert_eq!(body["error"]["code"], "not_ended");
    server.call("POST", &format!("/api/tables/{id}/close?key={owner}"), None);
    let after = server.ok("GET", &format!("/api/tables/{id}/export?key={owner}"), None);
    (before, after)
}

#[test]
fn a_record_before_the_end_or_that_does_not_verify_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let (before, after) = finished(dir.path(), "triforce", 4);
    let write = |name: &str, v: &Value| {
        let p = dir.path().join(name);
        std::fs::write(&p, v.to_string()).unwrap();
        p.to_string_lossy().into_owned()
    };
    let (code, _, err) = clash(&["review", &write("before.json", &before)]);
    assert_eq!(code, Some(1));
    assert!(err.contains("before the table ended"), "{err}");
    let (code, out, err) = clash(&["review", &write("after.json", &after), "--json"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(serde_json::from_str::<Value>(&out).unwrap()["progress"]["done"] == json!(true));
    // One command changed: the record no longer verifies, and is not reviewed.
    let mut forged = after.clone();
    let at = forged["entries"]
        .as_array()
        .unwrap()
        .iter()
        .position(|e| e["entry"]["kind"] == "command")
        .unwrap();
    forged["entries"][at]["entry"]["seat"] = json!("p2");
    let (code, _, err) = clash(&["review", &write("forged.json", &forged)]);
    assert_eq!(code, Some(1));
    assert!(err.contains("does not verify"), "{err}");
}
