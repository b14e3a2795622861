//! Every scenario in `examples/iron-triangle/` runs through the scenario runner exactly as
//! `clash run` does, with its `expect` checks.

use clash_core::RulesetEntry;
use clash_core::scenario::run_str;
use iron_triangle::IronTriangle;

#[test]
fn every_example_runs() {
    let dir = format!(
        "{}/../../examples/iron-triangle",
        env!("CARGO_MANIFEST_DIR")
    );
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("examples folder")
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    assert!(files.len() >= 13, "expected the TV examples and the duel");
    let mut failures = Vec::new();
    for path in &files {
        let json = std::fs::read_to_string(path).expect("readable");
        if let Err(e) = run_str(&[RulesetEntry::of::<IronTriangle>()], &json) {
            failures.push(format!("{}: {e}", path.display()));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_duel_is_narrated_one_sentence_per_event() {
    let path = format!(
        "{}/../../examples/iron-triangle/duel.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let report = run_str(
        &[RulesetEntry::of::<IronTriangle>()],
        &std::fs::read_to_string(path).expect("duel"),
    )
    .expect("the duel runs");
    assert!(
        report
            .log
            .iter()
            .all(|e| !e.text.is_empty() && !e.text.contains('\n'))
    );
    let text: Vec<&str> = report.log.iter().map(|e| e.text.as_str()).collect();
    let all = text.join("\n");
    assert!(all.contains("Overhand Right") || all.contains("A-H"));
    assert!(all.contains("The conflict is over: the players' side wins"));
    // Spectators never see a stance or move before the reveal (IT-2).
    assert!(!all.contains("secretly"));
}
