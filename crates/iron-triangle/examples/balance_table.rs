//! The level-0 balance table's cost, old and new side by side: solves the duels of the first N
//! builds (default 4: 16 duels) each on its own (`clash analyse iron-triangle builds` before
//! the shared memo) and on shared memos (as it runs now), checks every record is the same but
//! for its time, and prints both wall times.
//!
//! ```sh
//! cargo run --release -p iron-triangle --example balance_table -- 4          # both, 16 duels
//! cargo run --release -p iron-triangle --example balance_table -- 36 shared  # the whole table, new way only
//! cargo run --release -p iron-triangle --example balance_table -- 36 shared 2 OLD/duels.jsonl
//! ```
//!
//! The last form also checks every record against a `duels.jsonl` that an earlier build of
//! `clash analyse iron-triangle builds` wrote.

use std::sync::Mutex;
use std::time::Instant;

use iron_triangle::analysis::balance::{self, Build, DuelRecord};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let n: usize = args.first().and_then(|a| a.parse().ok()).unwrap_or(4);
    let mode = args.get(1).map_or("both", String::as_str);
    let threads: Option<usize> = args.get(2).and_then(|a| a.parse().ok());
    let builds: Vec<Build> = balance::level_0_builds().into_iter().take(n).collect();
    let pairs: Vec<(Build, Build)> = builds
        .iter()
        .flat_map(|pc| builds.iter().map(move |npc| (*pc, *npc)))
        .collect();
    println!(
        "{} builds, {} duels, load average {}",
        builds.len(),
        pairs.len(),
        load()
    );
    let shared = (mode != "alone").then(|| timed("shared memos", &pairs, threads, true));
    let alone = (mode != "shared").then(|| timed("each alone", &pairs, threads, false));
    if let (Some(a), Some(b)) = (&shared, &alone) {
        let same = a.len() == b.len() && a.iter().zip(b).all(|(x, y)| untimed(x) == untimed(y));
        println!("records equal (but for seconds): {same}");
        assert!(same, "the shared memos changed a record");
    }
    if let (Some(new), Some(path)) = (&shared, args.get(3)) {
        let mut old = balance::read_records(std::path::Path::new(path));
        old.retain(|r| builds.contains(&r.pc) && builds.contains(&r.npc));
        old.sort_by_key(|r| (r.pc, r.npc));
        let same =
            old.len() == new.len() && old.iter().zip(new).all(|(x, y)| untimed(x) == untimed(y));
        println!(
            "records equal to {path} (but for seconds): {same} ({} records)",
            old.len()
        );
        assert!(same, "a record differs from the earlier build's");
    }
    println!("load average {}", load());
}

fn untimed(r: &DuelRecord) -> DuelRecord {
    DuelRecord {
        seconds: 0.0,
        ..r.clone()
    }
}

fn timed(
    label: &str,
    pairs: &[(Build, Build)],
    threads: Option<usize>,
    shared: bool,
) -> Vec<DuelRecord> {
    let out = Mutex::new(Vec::new());
    let start = Instant::now();
    let done =
        |r: Result<DuelRecord, _>| out.lock().unwrap().push(r.expect("a level-0 duel solves"));
    if shared {
        balance::solve_all(pairs, threads, &done);
    } else {
        use rayon::prelude::*;
        pairs
            .par_iter()
            .with_max_len(1)
            .for_each(|(pc, npc)| done(balance::duel(*pc, *npc)));
    }
    let secs = start.elapsed().as_secs_f64();
    let mut records = out.into_inner().unwrap();
    records.sort_by_key(|r| (r.pc, r.npc));
    let states: usize = records.iter().map(|r| r.states).sum();
    println!(
        "{label:>13}: {secs:8.2} s wall for {} duels ({states} states in all)",
        records.len()
    );
    records
}

fn load() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|l| l.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "unknown".into())
}
