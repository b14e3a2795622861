//! Every example scenario in `examples/nd-tourists/` plays through to its expectations.

use clash_core::RulesetEntry;
use clash_core::scenario::run_str;
use nd_tourists::NdTourists;

#[test]
fn every_example_file_runs_and_meets_its_expectations() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/nd-tourists");
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .expect("examples folder")
        .map(|e| e.expect("entry").path())
        .collect();
    files.retain(|p| p.extension().is_some_and(|x| x == "json"));
    files.sort();
    assert!(
        files.len() >= 9,
        "expected an example per test vector, found {}",
        files.len()
    );
    let mut failures = Vec::new();
    for f in &files {
        let json = std::fs::read_to_string(f).expect("readable example");
        if let Err(e) = run_str(&[RulesetEntry::of::<NdTourists>()], &json) {
            failures.push(format!("{}: {e}", f.display()));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
