//! Every scenario in examples/triforce runs through the kernel's scenario runner without error
//! (the test vectors TV-1 … TV-13, with their numbers as checks).

use clash_core::RulesetEntry;
use clash_core::scenario::run_str;
use triforce::Triforce;

#[test]
fn every_example_runs() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/triforce");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    assert!(files.len() >= 13, "one example per test vector at least");
    for tv in 1..=13 {
        let prefix = format!("tv-{tv:02}-");
        assert!(
            files.iter().any(|f| f
                .file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with(&prefix)),
            "TV-{tv} has an example"
        );
    }
    for file in files {
        let json = std::fs::read_to_string(&file).unwrap();
        if let Err(e) = run_str(&[RulesetEntry::of::<Triforce>()], &json) {
            panic!("{}: {e}", file.display());
        }
    }
}
