//! The campaign's example scenarios (TV-9, TV-12, TV-13 and more) run through the scenario
//! runner exactly as `clash run` does, with their `expect` checks.

use clash_core::RulesetEntry;
use clash_core::scenario::run_str;
use iron_triangle::IronTriangle;

fn run(file: &str) {
    let path = format!(
        "{}/../../examples/iron-triangle/{file}",
        env!("CARGO_MANIFEST_DIR")
    );
    let json = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    if let Err(e) = run_str(&[RulesetEntry::of::<IronTriangle>()], &json) {
        panic!("{file}: {e}");
    }
}

#[test]
fn tv_9_problems_example() {
    run("tv-09-problems.json"); // TV-9, IT-17, IT-21
}

#[test]
fn tv_12_creation_example() {
    run("tv-12-creation.json"); // TV-12
}

#[test]
fn tv_13_short_rest_example() {
    run("tv-13-short-rest.json"); // TV-13, IT-31
}

#[test]
fn tv_13_rest_and_level_up_example() {
    run("tv-13-rest-and-level-up.json"); // TV-13, IT-60 … IT-64
}

#[test]
fn campaign_session_example() {
    run("campaign-session.json"); // IT-13, IT-14, IT-20, IT-60, IT-64, IT-65
}
