//! `clash solve iron-triangle`: Surrender is offered only with a price.

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
    Command::cargo_bin("clash").unwrap().args(["solve", "iron-triangle"]).args(args).output().unwrap()
}

#[test]
fn a_cornered_character_needs_a_surrender_price() {
    let file = cornered("turn");
    let file = file.to_str().unwrap();
    let refused = solve(&["turn", "--state", file]);
    assert!(!refused.status.success());
    assert!(String::from_utf8_lossy(&refused.stderr).contains("must surrender (IT-35)"));

    let priced = solve(&["turn", "--state", file, "--surrender", "4", "--json"]);
    assert!(priced.status.success(), "{}", String::from_utf8_lossy(&priced.stderr));
    let v: Value = serde_json::from_slice(&priced.stdout).unwrap();
    assert_eq!(v["surrender"], 4);
    assert_eq!(v["value"]["fraction"], "-4/1");
    assert_eq!(v["moves"][0]["active"][0]["option"], "surrender");
}

#[test]
fn the_move_matrix_gains_a_surrender_row_and_column() {
    let file = cornered("moves");
    let out = solve(&["moves", "--state", file.to_str().unwrap(), "--surrender", "2", "--json"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["rows"], serde_json::json!(["surrender"]));
    assert_eq!(v["cols"], serde_json::json!(["D-M", "G-L", "A-H", "surrender"]));
    assert_eq!(v["matrix"], serde_json::json!([[-2, -2, -2, 0]]));
}
