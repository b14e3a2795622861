//! `clash solve iron-triangle`: Surrender is offered only with a price; whole duels are solved.

use std::path::PathBuf;

use assert_cmd::Command;
use serde_json::Value;

/// A turn file where the active character's only move is face up in its chain (IT-35).
fn cornered(tag: &str) -> PathBuf {
    let path = std::env::temp_dir().join(format!("clash-solve-{tag}-{}.json", std::process::id()));
    let spec = serde_json::json!({
        "active": {"name": "Ada", "energy": {"defend": 3, "grapple": 3, "attack": 3}, "moves": ["D-M"]},
        "opponent": {"name": "Bruiser", "energy": {"defend": 3, "grapple": 3, "attack": 3}},
        "chain": ["D-M"]
    });
    std::fs::write(&path, spec.to_string()).unwrap();
    path
}

fn solve(args: &[&str]) -> std::process::Output {
    Command::cargo_bin("clash")
        .unwrap()
        .args(["solve", "iron-triangle"])
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn a_cornered_character_needs_a_surrender_price() {
    let file = cornered("turn");
    let file = file.to_str().unwrap();
    let refused = solve(&["turn", "--state", file]);
    assert!(!refused.status.success());
    assert!(String::from_utf8_lossy(&refused.stderr).contains("must surrender (IT-35)"));

    let priced = solve(&["turn", "--state", file, "--surrender", "4", "--json"]);
    assert!(
        priced.status.success(),
        "{}",
        String::from_utf8_lossy(&priced.stderr)
    );
    let v: Value = serde_json::from_slice(&priced.stdout).unwrap();
    assert_eq!(v["surrender"], 4);
    assert_eq!(v["value"]["fraction"], "-4/1");
    assert_eq!(v["moves"][0]["active"][0]["option"], "surrender");
}

#[test]
fn the_move_matrix_gains_a_surrender_row_and_column() {
    let file = cornered("moves");
    let out = solve(&[
        "moves",
        "--state",
        file.to_str().unwrap(),
        "--surrender",
        "2",
        "--json",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["rows"], serde_json::json!(["surrender"]));
    assert_eq!(
        v["cols"],
        serde_json::json!(["D-M", "G-L", "A-H", "surrender"])
    );
    assert_eq!(v["matrix"], serde_json::json!([[-2, -2, -2, 0]]));
}

fn duel_file(tag: &str, spec: Value) -> PathBuf {
    let path = std::env::temp_dir().join(format!("clash-duel-{tag}-{}.json", std::process::id()));
    std::fs::write(&path, spec.to_string()).unwrap();
    path
}

#[test]
fn a_duel_of_last_points_is_worth_minus_a_third_to_the_pc() {
    // One energy each: a win knocks the loser out, a tie knocks both out and the GM's side wins
    // (IT-27), so the cyclic starting moves give the PC one win in three.
    let file = duel_file(
        "tiny",
        serde_json::json!({
            "active": {"name": "Ada", "energy": {"defend": 1, "grapple": 0, "attack": 0}},
            "opponent": {"name": "Bruiser", "energy": {"defend": 0, "grapple": 1, "attack": 0}}
        }),
    );
    let out = solve(&["conflict", "--state", file.to_str().unwrap(), "--json"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(
        (v["value"].as_f64().unwrap() + 1.0 / 3.0).abs() < 1e-9,
        "{v}"
    );
    assert_eq!(v["states"], 1);
    assert_eq!(v["first"], "Ada");
    assert!(out.stderr.is_empty(), "no progress bar with --json");

    let text = solve(&["conflict", "--state", file.to_str().unwrap()]);
    assert!(text.status.success());
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(
        text.contains("Value to Ada: -0.333333") && text.contains("1 conflict states solved"),
        "{text}"
    );
}

#[test]
fn a_real_level_0_duel_is_solved_and_a_too_large_one_refused() {
    // IT-9: level 0, 10 energy each, the three starting moves.
    let file = duel_file(
        "level0",
        serde_json::json!({
            "active": {"name": "Ada", "energy": {"defend": 3, "grapple": 2, "attack": 5}},
            "opponent": {"name": "Bruiser", "energy": {"defend": 4, "grapple": 4, "attack": 2}}
        }),
    );
    let out = solve(&["conflict", "--state", file.to_str().unwrap(), "--json"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let value = v["value"].as_f64().unwrap();
    assert!((-1.0..=1.0).contains(&value));
    assert!(((1.0 + value) / 2.0 - v["first_wins"].as_f64().unwrap()).abs() < 1e-12);
    assert!(v["states"].as_u64().unwrap() > 1000);

    let file = duel_file(
        "big",
        serde_json::json!({
            "active": {"name": "Ada", "energy": {"defend": 15, "grapple": 15, "attack": 15}},
            "opponent": {"name": "Bruiser", "energy": {"defend": 15, "grapple": 15, "attack": 15}}
        }),
    );
    let out = solve(&["conflict", "--state", file.to_str().unwrap()]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("energy states") && err.contains("more than"),
        "{err}"
    );
}

#[test]
fn turns_print_decimals_by_default_and_fractions_with_exact() {
    let file = duel_file(
        "decimals",
        serde_json::json!({
            "active": {"name": "Ada", "energy": {"defend": 3, "grapple": 2, "attack": 5}},
            "opponent": {"name": "Bruiser", "energy": {"defend": 4, "grapple": 4, "attack": 2}}
        }),
    );
    let file = file.to_str().unwrap();
    let text = solve(&["turn", "--state", file]);
    assert!(
        text.status.success(),
        "{}",
        String::from_utf8_lossy(&text.stderr)
    );
    let text = String::from_utf8_lossy(&text.stdout).to_string();
    let value = text
        .lines()
        .find(|l| l.starts_with("Value to Ada:"))
        .unwrap();
    assert!(
        value.contains("-0.001550") && !value.contains('/'),
        "{value}"
    );
    assert!(
        !text.contains("Energy") && !text.contains("Some("),
        "{text}"
    );
    let stances = text
        .lines()
        .find(|l| l.starts_with("Stances, Ada:"))
        .unwrap();
    assert!(
        stances.contains("0.") && !stances.contains('/'),
        "{stances}"
    );

    let exact = solve(&["turn", "--state", file, "--exact"]);
    let exact = String::from_utf8_lossy(&exact.stdout).to_string();
    assert!(
        exact.contains("Value to Ada: -168325037/108575629010"),
        "{exact}"
    );

    // JSON carries both: the exact fraction and its decimal.
    let json = solve(&["turn", "--state", file, "--json"]);
    let v: Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(v["value"]["fraction"], "-168325037/108575629010");
    assert!((v["value"]["decimal"].as_f64().unwrap() + 0.00155).abs() < 1e-5);
}

#[test]
fn matrices_take_fractions_decimals_and_big_integers_and_name_a_bad_cell() {
    let matrix = |tag: &str, text: &str| {
        let path =
            std::env::temp_dir().join(format!("clash-matrix-{tag}-{}.json", std::process::id()));
        std::fs::write(&path, text).unwrap();
        path
    };
    let run = |path: &PathBuf, extra: &[&str]| {
        Command::cargo_bin("clash")
            .unwrap()
            .args(["solve", "matrix", path.to_str().unwrap()])
            .args(extra)
            .output()
            .unwrap()
    };
    // Matching pennies scaled by a number far beyond 64 bits, and a fractional game.
    let big = matrix(
        "big",
        "[[132000000000000000000000000000000000001, -132000000000000000000000000000000000001], [-132000000000000000000000000000000000001, 132000000000000000000000000000000000001]]",
    );
    let out = run(&big, &["--json"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["value"]["fraction"], "0/1");
    assert_eq!(v["row"][0]["fraction"], "1/2");
    let fractions = matrix("fractions", r#"[["1/3", -0.25], ["-1/2", "2/3"]]"#);
    let out = run(&fractions, &["--exact"]);
    let text = String::from_utf8_lossy(&out.stdout);
    // Value (ad - bc) / (a + d - b - c) = (2/9 - 1/8) / (1/3 + 2/3 + 1/4 + 1/2) = 1/18.
    assert!(text.contains("Value to the row player: 1/18"), "{text}");
    let bad = matrix("bad", r#"[[1, 2], [3, "x"]]"#);
    let out = run(&bad, &[]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("row 2, column 2"));
}

/// The example position part-way through a turn (stances revealed, Ada's chain live).
fn mid_turn() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples/iron-triangle/position-mid-turn.json")
}

#[test]
fn it_42_a_table_position_is_solved_at_the_turn_it_is_at() {
    let file = mid_turn();
    let out = solve(&["moves", "--state", file.to_str().unwrap(), "--json"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let rows: Vec<&str> = v["rows"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .collect();
    let cols: Vec<&str> = v["cols"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .collect();
    // Ada's Overhand Right is face up in her chain (IT-42), the Brute's Tackle in his pile (IT-37).
    assert_eq!(rows, ["D-M", "G-L", "G-M"]);
    assert_eq!(cols, ["D-L", "A-M"]);
    // Under the revealed stances (Ada Grapple 2), Bear Hug on Stomp Guard scores the scenario's 10.
    assert_eq!(v["matrix"][2][0], 10);
    // A stance given on the command line replaces the revealed one.
    let plain = solve(&[
        "moves",
        "--state",
        file.to_str().unwrap(),
        "--active-stance",
        "none",
        "--json",
    ]);
    let p: Value = serde_json::from_slice(&plain.stdout).unwrap();
    assert_eq!(p["matrix"][2][0], 6);
    // The whole turn from the same position solves too.
    let turn = solve(&["turn", "--state", file.to_str().unwrap()]);
    assert!(
        turn.status.success(),
        "{}",
        String::from_utf8_lossy(&turn.stderr)
    );
}
