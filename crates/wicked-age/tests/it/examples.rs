//! Every scenario in `examples/wicked-age/` runs to the end with all its checks passing.

use std::path::PathBuf;

use clash_core::RulesetEntry;
use clash_core::scenario::run_str;
use wicked_age::WickedAge;

fn example_files() -> Vec<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../examples/wicked-age");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("examples folder")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    files
}

#[test]
fn every_example_runs_and_its_checks_pass() {
    let files = example_files();
    assert!(
        files.len() >= 13,
        "expected at least one example per test vector"
    );
    let mut failures = Vec::new();
    for file in files {
        let json = std::fs::read_to_string(&file).expect("readable example");
        if let Err(e) = run_str(&[RulesetEntry::of::<WickedAge>()], &json) {
            failures.push(format!("{}: {e}", file.display()));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn there_is_an_example_for_every_test_vector() {
    let names: Vec<String> = example_files()
        .iter()
        .filter_map(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
        .collect();
    for n in 1..=13 {
        let prefix = format!("tv-{n:02}-");
        assert!(
            names.iter().any(|f| f.starts_with(&prefix)),
            "no example for TV-{n}"
        );
    }
}
