//! `cargo run --release -p clash-review-bench -- [RECORD.json …]`: review one finished record
//! per game (by default the README's, `examples/records/*.json`) whole, each checked first as
//! `clash verify` checks it, and print for each how long it took until the first evaluated
//! steps could be shown (the first slice of work that judged a decision or weighed a roll) and
//! until the whole review was done, with the number of decisions and rolls it judged.
//!
//! The targets: the first steps within 2 s, a whole review of up to 1,000 decisions and
//! rolls within 60 s on a 2-core machine. Reviews run here as the server runs them: in slices
//! of 250 ms, one at a time.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use clash_core::review::Review;

/// A slice of work, as the server gives a review.
const SLICE: Duration = Duration::from_millis(250);

struct Figures {
    game: String,
    commands: u32,
    decisions: usize,
    rolls: usize,
    first: Duration,
    whole: Duration,
    unevaluated: usize,
}

fn judged(r: &Review) -> (usize, usize) {
    let moments = r.conflicts.iter().flat_map(|c| &c.moments);
    let (mut d, mut l) = (0, 0);
    for m in moments {
        d += usize::from(m.decision.is_some());
        l += usize::from(m.luck.is_some());
    }
    (d, l)
}

fn bench(path: &PathBuf) -> Result<Figures, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let doc: serde_json::Value = serde_json::from_str(&text).map_err(|e| e.to_string())?;
    let catalogue = clash_catalogue::rulesets();
    let report = clash_server::export::verify(&doc, &catalogue, &[]);
    if !report.ok() || !report.unchecked.is_empty() {
        return Err(format!("{} does not verify whole", path.display()));
    }
    let read = clash_server::review::record::read(&doc)?;
    let entry = catalogue
        .iter()
        .find(|e| e.id == read.ruleset)
        .ok_or("no such ruleset")?;
    let hook = entry.review.ok_or("the game has no review")?;
    let started = Instant::now();
    let mut reviewer = hook(&read.record).map_err(|e| e.to_string())?;
    let mut first = None;
    loop {
        let done = reviewer.work(Instant::now() + SLICE);
        let review = reviewer.review();
        if first.is_none() && judged(&review) != (0, 0) {
            first = Some(started.elapsed());
        }
        if done {
            let whole = started.elapsed();
            let (decisions, rolls) = judged(&review);
            return Ok(Figures {
                game: entry.name.to_string(),
                commands: review.progress.steps,
                decisions,
                rolls,
                first: first.unwrap_or(whole),
                whole,
                unevaluated: review.unevaluated.len(),
            });
        }
    }
}

fn main() -> ExitCode {
    let mut paths: Vec<PathBuf> = std::env::args().skip(1).map(PathBuf::from).collect();
    if paths.is_empty() {
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../examples/records");
        let mut found: Vec<PathBuf> = std::fs::read_dir(&dir)
            .map(|d| d.flatten().map(|e| e.path()).collect())
            .unwrap_or_default();
        found.retain(|p| p.extension().is_some_and(|e| e == "json"));
        found.sort();
        paths = found;
    }
    println!(
        "{:<24} {:>8} {:>9} {:>6} {:>12} {:>12} {:>8}",
        "game", "commands", "decisions", "rolls", "first steps", "whole", "not eval."
    );
    let mut failed = false;
    for p in &paths {
        match bench(p) {
            Ok(f) => println!(
                "{:<24} {:>8} {:>9} {:>6} {:>10.2} s {:>10.2} s {:>8}",
                f.game,
                f.commands,
                f.decisions,
                f.rolls,
                f.first.as_secs_f64(),
                f.whole.as_secs_f64(),
                f.unevaluated
            ),
            Err(e) => {
                eprintln!("clash-review-bench: {e}");
                failed = true;
            }
        }
    }
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
