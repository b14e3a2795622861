//! Criterion benchmarks of Iron Triangle's analysis: the matrix-game solvers on the 13×13 move
//! game (f64, the certified exact solver and the exact simplex alone, side by side), the move
//! game's payoffs with and without a table, the whole exact two-stage turn on
//! `bench/peers/it13.json`, and a real level-0 duel.

use std::hint::black_box;

use clash_analysis::matrix_game;
use criterion::{Criterion, criterion_group, criterion_main};
use iron_triangle::Move;
use iron_triangle::analysis::turn_game::{self, FighterSpec, Payoff, TurnSpec};
use iron_triangle::character::PerAction;
use iron_triangle::conflict::Stance;

fn thirteen() -> Vec<Vec<i64>> {
    let fighter = |name: &str, pile: Vec<Move>| FighterSpec {
        name: name.into(),
        energy: PerAction {
            defend: 4,
            grapple: 4,
            attack: 4,
        },
        max: None,
        moves: Some(Move::ALL.to_vec()),
        combos: vec![],
        pile,
        level: 0,
        specials: vec![],
    };
    let spec = TurnSpec {
        active: fighter("Ada", vec!["A-L".parse().unwrap()]),
        opponent: fighter("Bruiser", vec![]),
        chain: vec![],
    };
    let a2 = Stance::new(Some(iron_triangle::Action::Attack), 2);
    let g1 = Stance::new(Some(iron_triangle::Action::Grapple), 1);
    turn_game::move_game(&spec, a2, g1, Payoff::Energy)
        .expect("13×13 game")
        .matrix
}

fn solver(c: &mut Criterion) {
    let m = thirteen();
    c.bench_function("iron-triangle 13x13 move game, f64 simplex", |b| {
        b.iter(|| matrix_game::solve_f64(black_box(&m)))
    });
    c.bench_function("iron-triangle 13x13 move game, exact certified", |b| {
        b.iter(|| matrix_game::solve_exact(black_box(&m)))
    });
    c.bench_function("iron-triangle 13x13 move game, exact simplex alone", |b| {
        b.iter(|| matrix_game::solve_exact_simplex(black_box(&m)))
    });
}

fn it13() -> TurnSpec {
    let text = include_str!("../../../bench/peers/it13.json");
    iron_triangle::analysis::position::read_turn(text).expect("it13.json is a position")
}

fn turn(c: &mut Criterion) {
    let spec = it13();
    let pos = turn_game::TurnPosition::new(&spec).expect("it13 sets up");
    let a2 = Stance::new(Some(iron_triangle::Action::Attack), 2);
    let g1 = Stance::new(Some(iron_triangle::Action::Grapple), 1);
    c.bench_function("iron-triangle 13x13 payoffs, table-free", |b| {
        b.iter(|| pos.move_matrix(black_box(a2), black_box(g1), Payoff::Energy))
    });
    c.bench_function("iron-triangle 13x13 payoffs, on the engine table", |b| {
        b.iter(|| pos.move_matrix_on_table(black_box(a2), black_box(g1), Payoff::Energy))
    });
    c.bench_function("iron-triangle it13 two-stage turn, exact", |b| {
        b.iter(|| turn_game::solve_turn(black_box(&spec), Payoff::Energy))
    });
}

fn duel(c: &mut Criterion) {
    let fighter = |name: &str, d, g, a| {
        FighterSpec::new(
            name,
            PerAction {
                defend: d,
                grapple: g,
                attack: a,
            },
        )
    };
    let spec = TurnSpec {
        active: fighter("Ada", 3, 3, 4),
        opponent: fighter("Bruiser", 4, 4, 2),
        chain: vec![],
    };
    let mut group = c.benchmark_group("iron-triangle duel");
    group.sample_size(10);
    group.bench_function("level 0, 3/3/4 against 4/4/2", |b| {
        b.iter(|| iron_triangle::analysis::duel::solve_duel(black_box(&spec), &mut |_| {}))
    });
    group.finish();
}

criterion_group!(benches, solver, turn, duel);
criterion_main!(benches);
