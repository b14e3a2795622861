//! Legal-action generation per position, and random full games per second on one core.

use std::hint::black_box;
use std::time::Duration;

use clash_core::{Seat, SeededRandomness};
use criterion::{Criterion, Throughput, criterion_group};
use triforce::random::{self, Policy, RandomPlayer};
use triforce::{Setup, State, turn};

fn position(board: &[(u8, &str)]) -> State {
    let mut setup = Setup::new(3);
    for (n, stack) in board {
        setup.board.insert(
            *n,
            stack
                .split_whitespace()
                .map(|p| p.parse().unwrap())
                .collect(),
        );
    }
    triforce::start(&setup).unwrap()
}

/// A middle-game position: 300 random commands into seed 7's game.
fn midgame() -> State {
    let start = triforce::start(&Setup::new(3)).unwrap();
    let mut dice = SeededRandomness::new(7);
    random::play(start, &mut RandomPlayer::new(7), &mut dice, 300)
        .unwrap()
        .state
}

fn legal_actions(c: &mut Criterion) {
    let tv3 = position(&[
        (1, "p1-S p1-M"),
        (2, "p1-S"),
        (8, "p1-M"),
        (9, "p2-S"),
        (11, "p3-L"),
        (13, "p3-L p1-S"),
        (15, "p2-M"),
    ]);
    let mid = midgame();
    let mut group = c.benchmark_group("legal_actions");
    for (name, state) in [
        ("opening", triforce::start(&Setup::new(3)).unwrap()),
        ("tv3", tv3),
        ("midgame", mid),
    ] {
        let seat = state.awaiting().unwrap_or(Seat::Player(1));
        group.bench_function(name, |b| {
            b.iter(|| turn::legal(black_box(&state), seat).len())
        });
    }
    group.finish();
}

/// What a table page asks for on every change (issue 19: a few milliseconds at most while the
/// table is locked): the view, the awaited seat's legal commands, the status and the position,
/// on the largest table (6 players) in the middle of a game.
fn table_calls(c: &mut Criterion) {
    use clash_core::{Ruleset, Viewer};
    use triforce::Triforce;
    let start = triforce::start(&Setup::new(6)).unwrap();
    let mut dice = SeededRandomness::new(11);
    let state = random::play(start, &mut RandomPlayer::new(11), &mut dice, 600)
        .unwrap()
        .state;
    let seat = state.awaiting().unwrap_or(Seat::Player(1));
    let mut group = c.benchmark_group("table_calls_6p");
    group.bench_function("view", |b| {
        b.iter(|| {
            Triforce::view(black_box(&state), Viewer::Spectator)
                .positions
                .len()
        })
    });
    group.bench_function("legal_commands", |b| {
        b.iter(|| Triforce::legal_commands(black_box(&state), seat).len())
    });
    group.bench_function("status", |b| {
        b.iter(|| Triforce::status(black_box(&state)).waiting_for.len())
    });
    group.bench_function("position", |b| {
        b.iter(|| Triforce::position(black_box(&state), Viewer::Spectator).is_some())
    });
    group.finish();
}

/// Plays `GAMES` games from fixed seeds per iteration, so every iteration does the same work.
const GAMES: u64 = 50;

fn games(c: &mut Criterion, name: &str, setup: Setup, policy: Policy) {
    let start = triforce::start(&setup).unwrap();
    let mut group = c.benchmark_group("random_games_3p");
    group.throughput(Throughput::Elements(GAMES));
    group.sample_size(10);
    group.bench_function(name, |b| {
        b.iter(|| {
            let mut commands = 0;
            for seed in 0..GAMES {
                let mut dice = SeededRandomness::new(seed ^ 0xd1ce);
                let mut player = RandomPlayer::with_policy(seed, policy);
                let game = random::play(start, &mut player, &mut dice, u32::MAX).unwrap();
                commands += game.commands;
            }
            commands
        })
    });
    group.finish();
}

fn random_games(c: &mut Criterion) {
    let mut limited = Setup::new(3);
    limited.turn_limit = Some(100);
    games(c, "by_kind_turn_limit_100", limited, Policy::ByKind);
    games(c, "by_kind_full", Setup::new(3), Policy::ByKind);
    games(c, "uniform_full", Setup::new(3), Policy::Uniform);
}

/// CPU time of this thread, so the figures below hold even on a busy machine (criterion's
/// wall-clock figures count time spent waiting for a core).
fn thread_cpu() -> Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime only writes the timespec we pass.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

fn cpu_figures() {
    let mid = midgame();
    let seat = mid.awaiting().unwrap_or(Seat::Player(1));
    let runs = 1_000_000u32;
    let start = thread_cpu();
    let total: usize = (0..runs)
        .map(|_| turn::legal(black_box(&mid), seat).len())
        .sum();
    let per = (thread_cpu() - start) / runs;
    println!(
        "cpu: legal actions (midgame, {} commands): {per:?} per position",
        total / runs as usize
    );
    for (name, limit, games) in [
        ("turn limit 100", Some(100), 4000u64),
        ("no limit", None, 300),
    ] {
        let mut setup = Setup::new(3);
        setup.turn_limit = limit;
        let state = triforce::start(&setup).unwrap();
        let (mut commands, mut turns) = (0u64, 0u64);
        let start = thread_cpu();
        for seed in 0..games {
            let mut dice = SeededRandomness::new(seed ^ 0xd1ce);
            let game =
                random::play(state, &mut RandomPlayer::new(seed), &mut dice, u32::MAX).unwrap();
            commands += u64::from(game.commands);
            turns += u64::from(game.state.turn());
        }
        let spent = thread_cpu() - start;
        println!(
            "cpu: 3-player random games ({name}, by_kind): {:.0} games/s, mean {} turns and {} commands per game, {:?} per command",
            games as f64 / spent.as_secs_f64(),
            turns / games,
            commands / games,
            spent / commands as u32
        );
    }
}

criterion_group!(benches, legal_actions, table_calls, random_games);

fn main() {
    cpu_figures();
    benches();
    Criterion::default().configure_from_args().final_summary();
}
