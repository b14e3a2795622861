//! Criterion benchmarks of Triforce's analysis: the exact odds of a three-way combat and one
//! MCTS decision.

use std::hint::black_box;

use clash_core::SeededRandomness;
use criterion::{Criterion, criterion_group, criterion_main};
use triforce::Gear;
use triforce::analysis::combat_odds;
use triforce::analysis::mcts::MctsBot;

fn odds(c: &mut Criterion) {
    let gear = [Gear::Sword, Gear::Shield, Gear::None];
    c.bench_function("triforce combat sword+shield+plain", |b| {
        b.iter(|| combat_odds::combat(black_box(&gear)))
    });
}

/// A 3-player position 30 random commands into the game, p-whoever to act.
fn midgame() -> triforce::State {
    let start = triforce::start(&triforce::Setup::new(3)).expect("standard opening");
    triforce::random::play(
        start,
        &mut triforce::RandomPlayer::new(5),
        &mut SeededRandomness::new(5),
        30,
    )
    .expect("random play")
    .state
}

fn mcts(c: &mut Criterion) {
    let state = midgame();
    let bot = MctsBot::with_playouts(200);
    c.bench_function("triforce MCTS decision, 200 playouts, 3 players", |b| {
        b.iter(|| bot.search(black_box(&state), 1))
    });
}

criterion_group!(benches, odds, mcts);
criterion_main!(benches);
