//! `clash … | head`: no command panics when its reader goes away. Each command's standard output
//! is a pipe whose reading end is closed before the command writes anything, so every write
//! fails with a broken pipe; the command must end quietly (no panic, no backtrace).

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Start `clash args…` with standard output a pipe nobody reads.
fn start_unread(args: &[&str]) -> Child {
    let mut child = Command::new(assert_cmd::cargo::cargo_bin!("clash"))
        .args(args)
        .current_dir(root())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("clash starts");
    drop(child.stdout.take());
    child
}

fn assert_quiet_end(args: &[&str], expected_code: i32) {
    let out = start_unread(args).wait_with_output().expect("clash ends");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        !stderr.contains("panicked") && !stderr.contains("Broken pipe"),
        "clash {args:?}: {stderr}"
    );
    assert_eq!(
        out.status.code(),
        Some(expected_code),
        "clash {args:?}: {stderr}"
    );
}

#[test]
fn run_narration_and_json_end_quietly() {
    assert_quiet_end(
        &[
            "run",
            "examples/wicked-age/tv-08-round-three.json",
            "--json",
        ],
        0,
    );
    assert_quiet_end(&["run", "examples/wicked-age/tv-08-round-three.json"], 0);
}

#[test]
fn listing_and_help_end_quietly() {
    assert_quiet_end(&["rulesets"], 0);
    assert_quiet_end(&["--help"], 0);
    assert_quiet_end(&["solve", "--help"], 0);
}

#[test]
fn odds_end_quietly() {
    assert_quiet_end(&["odds", "wicked-age", "exchange", "d10+d6", "d12+d8"], 0);
    assert_quiet_end(
        &[
            "odds",
            "wicked-age",
            "conflict",
            "d10+d6",
            "d12+d8",
            "--json",
        ],
        0,
    );
    assert_quiet_end(
        &["odds", "triforce", "combat", "sword", "shield", "plain"],
        0,
    );
    assert_quiet_end(
        &[
            "odds",
            "nd-tourists",
            "reversed",
            "--already",
            "2",
            "--draws",
            "3",
        ],
        0,
    );
    assert_quiet_end(
        &[
            "odds",
            "nd-tourists",
            "break",
            "--targets",
            "XVI",
            "--draws",
            "2",
        ],
        0,
    );
}

#[test]
fn solve_and_simulate_end_quietly() {
    let matrix =
        std::env::temp_dir().join(format!("clash-pipe-matrix-{}.json", std::process::id()));
    std::fs::write(&matrix, "[[0, -1, 2], [1, 0, -1], [-1, 1, 0]]").unwrap();
    assert_quiet_end(&["solve", "matrix", matrix.to_str().unwrap()], 0);
    assert_quiet_end(
        &[
            "solve",
            "iron-triangle",
            "moves",
            "--state",
            "bench/peers/it13.json",
            "--active-stance",
            "A2",
        ],
        0,
    );
    assert_quiet_end(
        &[
            "solve",
            "iron-triangle",
            "conflict",
            "--state",
            "crates/iron-triangle/data/duel.json",
            "--json",
        ],
        0,
    );
    assert_quiet_end(
        &["simulate", "wicked-age", "--games", "4", "--threads", "1"],
        0,
    );
    let _ = std::fs::remove_file(matrix);
}

#[test]
fn serve_keeps_serving_when_nobody_reads_its_output() {
    let db = std::env::temp_dir().join(format!("clash-pipe-serve-{}.db", std::process::id()));
    let mut child = start_unread(&[
        "serve",
        "--addr",
        "127.0.0.1:0",
        "--db",
        db.to_str().unwrap(),
    ]);
    // The greeting is written as soon as the socket listens; give it time to fail.
    let started = Instant::now();
    while started.elapsed() < Duration::from_secs(3) {
        assert!(
            child.try_wait().unwrap().is_none(),
            "the server stopped when its output was closed"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    child.kill().unwrap();
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", db.display()));
    }
}
