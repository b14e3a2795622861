//! Turns resolved per second: whole two-character conflicts played by the random legal-move
//! driver (`conflict::driver`), from the first pick to the end. Each iteration plays the same
//! fixed seeds, and the reported throughput is their exact total of turns.

mod duel;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use duel::{Buffers, duel_table, play};
use iron_triangle::Table;

/// Play seeds `0..DUELS` out; returns the turns they took.
fn play_all(start: &Table, buffers: &mut Buffers) -> u64 {
    (0..DUELS).map(|seed| play(start, seed, buffers).0).sum()
}

/// Conflicts per iteration: seeds `0..DUELS`, the same every iteration.
const DUELS: u64 = 100;

fn bench(c: &mut Criterion) {
    let start = duel_table();
    // Every iteration plays the same seeds, so its exact total of turns is the throughput.
    let mut buffers = Buffers::default();
    let turns = play_all(&start, &mut buffers);
    let mut group = c.benchmark_group("conflict");
    group.throughput(Throughput::Elements(turns));
    group.bench_function(
        format!("random duels ({DUELS} conflicts, {turns} turns)"),
        |b| b.iter(|| play_all(&start, &mut buffers)),
    );
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
