//! Random full Conflicts between 3 parties with random legal bids: rounds and bids per second.

use clash_core::{Ruleset, SeededRandomness};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use nd_tourists::driver::{PlayStats, RandomDriver, play_out};
use nd_tourists::{NdTourists, Setup, State};
use serde_json::json;

const CONFLICTS: u64 = 200;

fn setup() -> Setup {
    let party = |name: &str, seat: &str, v: i32, reserve: serde_json::Value| {
        json!({"name": name, "seat": seat, "characters": [{"name": name, "attribute": {"name": "Might", "value": v},
            "aspects": ["Bold"], "weaknesses": ["Rash"], "reserve": reserve}]})
    };
    serde_json::from_value(json!({"parties": [
        party("Alpha", "p1", 6, json!(["Rock Lover", "II"])),
        party("Beta", "p2", 5, json!([{"card": "Paper Lover", "reversed": true}])),
        party("Gamma", "gm", 7, json!([])),
    ]}))
    .expect("bench setup")
}

/// Play `CONFLICTS` random Conflicts from `start`; the same seeds every time.
fn play_all(start: &State) -> PlayStats {
    let mut total = PlayStats::default();
    for seed in 0..CONFLICTS {
        let mut st = start.clone();
        let s = play_out(
            &mut st,
            &mut RandomDriver::new(seed),
            &mut SeededRandomness::new(seed),
            100_000,
        )
        .expect("legal play");
        total.bids += s.bids;
        total.rounds += s.rounds;
        total.commands += s.commands;
    }
    total
}

/// Nanoseconds this thread has spent on a CPU (Linux), to report figures that a loaded
/// machine's waiting time does not distort.
fn thread_cpu_ns() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    text.split_whitespace().next()?.parse().ok()
}

fn cpu_time_figures(start: &State, stats: PlayStats) {
    let (Some(t0), wall) = (thread_cpu_ns(), std::time::Instant::now()) else {
        return;
    };
    const REPEAT: u64 = 5;
    for _ in 0..REPEAT {
        std::hint::black_box(play_all(start));
    }
    let Some(t1) = thread_cpu_ns() else { return };
    let cpu = (t1 - t0) as f64 / 1e9;
    let wall = wall.elapsed().as_secs_f64();
    eprintln!(
        "on-CPU time: {:.0} bids/s, {:.0} rounds/s, {:.0} commands/s (cpu {cpu:.2}s, wall {wall:.2}s)",
        (stats.bids * REPEAT) as f64 / cpu,
        (stats.rounds * REPEAT) as f64 / cpu,
        (stats.commands * REPEAT) as f64 / cpu,
    );
}

fn conflicts(c: &mut Criterion) {
    let start = NdTourists::setup(&setup()).expect("setup");
    let stats = play_all(&start);
    eprintln!(
        "workload: {CONFLICTS} conflicts, {} rounds, {} bids, {} commands",
        stats.rounds, stats.bids, stats.commands
    );
    cpu_time_figures(&start, stats);
    let mut g = c.benchmark_group("random_conflicts");
    g.throughput(Throughput::Elements(stats.bids));
    g.bench_function("bids", |b| b.iter(|| play_all(&start)));
    g.throughput(Throughput::Elements(stats.rounds));
    g.bench_function("rounds", |b| b.iter(|| play_all(&start)));
    g.finish();
}

criterion_group!(benches, conflicts);
criterion_main!(benches);
