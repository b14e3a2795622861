//! Turns resolved per second: whole two-character conflicts played by the random legal-move
//! driver (`conflict::driver`), from the first pick to the end. Each iteration plays the same
//! fixed seeds, and the reported throughput is their exact total of turns.

mod duel;

use clash_core::SeededRandomness;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use duel::duel_table;
use iron_triangle::Table;
use iron_triangle::conflict::driver;

/// Play one conflict out; returns the turns it took.
fn play(start: &Table, seed: u64) -> u64 {
    let mut table = start.clone();
    let mut rng = SeededRandomness::new(seed);
    let (mut buffer, mut events) = (driver::Plays::default(), Vec::new());
    while let Ok(Some(_)) = driver::random_play(&mut table, &mut rng, false, &mut buffer, &mut events) {}
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
