//! `clash run` on every shipped example, and its exit codes.

use std::path::{Path, PathBuf};

use assert_cmd::Command;

fn examples() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples");
    let mut files = Vec::new();
    for dir in std::fs::read_dir(&root).into_iter().flatten().flatten() {
        // `examples/records/` holds ended tables' records, for `clash verify` and `clash
        // review`, not scenarios (tests/it/review.rs).
        if dir.file_name() == "records" {
            continue;
        }
        for file in std::fs::read_dir(dir.path())
            .into_iter()
            .flatten()
            .flatten()
        {
            if file.path().extension().is_some_and(|e| e == "json") {
                files.push(file.path());
            }
        }
    }
    files.sort();
    files
}

#[test]
fn every_example_runs_with_exit_0() {
    let files = examples();
    for file in &files {
        let out = Command::cargo_bin("clash")
            .unwrap()
            .arg("run")
            .arg(file)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{} failed:\n{}{}",
            file.display(),
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

#[test]
fn json_output_is_one_object_with_views() {
    let Some(file) = examples().into_iter().next() else {
        return;
    };
    let out = Command::cargo_bin("clash")
        .unwrap()
        .args(["run", "--json"])
        .arg(&file)
        .output()
        .unwrap();
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["ok"], true);
    assert!(v["views"]["spectator"].is_object() || v["views"]["spectator"].is_array());
    assert!(v["events"].is_array() && v["final_state"].is_object());
}

fn scenario_file(name: &str, body: &str) -> PathBuf {
    let path =
        std::env::temp_dir().join(format!("clash-run-test-{}-{name}.json", std::process::id()));
    std::fs::write(&path, body).unwrap();
    path
}

#[test]
fn unknown_rulesets_and_bad_files_exit_1() {
    let file = scenario_file("unknown", r#"{"ruleset": "chess", "setup": {}}"#);
    Command::cargo_bin("clash")
        .unwrap()
        .arg("run")
        .arg(&file)
        .assert()
        .code(1);
    let file = scenario_file("broken", "{ not json");
    Command::cargo_bin("clash")
        .unwrap()
        .arg("run")
        .arg(&file)
        .assert()
        .code(1);
    Command::cargo_bin("clash")
        .unwrap()
        .args(["run", "/nonexistent/file.json"])
        .assert()
        .code(1);
}

#[test]
fn an_unexpected_refusal_exits_2_and_names_the_rule() {
    let file = scenario_file(
        "refused",
        r#"{"ruleset": "triforce", "setup": {"players": 3},
            "steps": [{"seat": "p2", "command": {"type": "end_turn"}}]}"#,
    );
    let out = Command::cargo_bin("clash")
        .unwrap()
        .arg("run")
        .arg(&file)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("TF-"),
        "the error names the Triforce rule it breaks: {stderr}"
    );
}

#[test]
fn an_expected_refusal_is_fine() {
    let file = scenario_file(
        "expected",
        r#"{"ruleset": "triforce", "setup": {"players": 3},
            "steps": [{"seat": "p2", "command": {"type": "end_turn"}, "expect_error": "TF-12"}]}"#,
    );
    let out = Command::cargo_bin("clash")
        .unwrap()
        .arg("run")
        .arg(&file)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
