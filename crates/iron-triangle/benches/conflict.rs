//! Turns resolved per second: whole two-character conflicts played by the random legal-move
//! driver (`conflict::driver`), from the first pick to the end. Each iteration plays the same
//! fixed seeds, and the reported throughput is their exact total of turns.

use clash_core::{Ruleset, Seat, SeededRandomness, execute};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use iron_triangle::conflict::driver;
use iron_triangle::{Command, IronTriangle, Setup, Table};
use serde_json::json;

fn duel_table() -> Table {
    let moves = ["D-L", "D-M", "D-H", "G-L", "G-M", "G-H", "A-L", "A-M", "A-H"];
    let sheet = |name: &str, seat: &str| {
        json!({
            "name": name, "controller": seat, "established": true, "level": 3,
            "energy": {"defend": 8, "grapple": 8, "attack": 8},
            "moves": moves.iter().map(|m| json!({"move": m, "name": m})).collect::<Vec<_>>(),
            "combos": [{"from": "A-H", "followups": ["G-M"]}, {"from": "G-M", "followups": ["D-L", "A-L"]}],
        })
    };
    let setup: Setup = serde_json::from_value(json!({"characters": [sheet("Ada", "p1"), sheet("Brute", "gm")]})).expect("setup");
    let mut table = IronTriangle::setup(&setup).expect("valid setup");
    let start: Command = serde_json::from_value(json!({"type": "start_conflict", "stakes": "the bridge", "npcs": ["Brute"]})).expect("command");
    let join: Command = serde_json::from_value(json!({"type": "join_conflict", "character": "Ada"})).expect("command");
    let mut rng = SeededRandomness::new(1);
    execute::<IronTriangle>(&mut table, Seat::Gm, &start, &mut rng).expect("start");
    execute::<IronTriangle>(&mut table, Seat::Player(1), &join, &mut rng).expect("join");
    table
}

/// Play one conflict out; returns the turns it took.
fn play(start: &Table, seed: u64) -> u64 {
    let mut table = start.clone();
    let mut rng = SeededRandomness::new(seed);
    let mut buffer = driver::Plays::default();
    while let Ok(Some(_)) = driver::random_step_with(&mut table, &mut rng, false, &mut buffer) {}
    table.conflict.as_ref().map_or(0, |c| u64::from(c.turns_played))
}

/// Conflicts per iteration: seeds `0..DUELS`, the same every iteration.
const DUELS: u64 = 100;

fn bench(c: &mut Criterion) {
    let start = duel_table();
    // Every iteration plays the same seeds, so its exact total of turns is the throughput.
    let turns: u64 = (0..DUELS).map(|s| play(&start, s)).sum();
    let mut group = c.benchmark_group("conflict");
    group.throughput(Throughput::Elements(turns));
    group.bench_function(format!("random duels ({DUELS} conflicts, {turns} turns)"), |b| {
        b.iter(|| (0..DUELS).map(|s| play(&start, s)).sum::<u64>())
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
