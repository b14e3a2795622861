//! Profiling aid for the conflict benchmark (`benches/conflict.rs`, same duel): plays seeds
//! 0..N (default 1000) through the random driver and prints the turns and steps. Instruction
//! counts are stable on a busy machine where wall-clock times are not:
//!
//! ```sh
//! cargo build --profile bench --example prof_duel -p iron-triangle
//! valgrind --tool=callgrind $CARGO_TARGET_DIR/release/examples/prof_duel 1000
//! ```
//!
//! `prof_duel 1000 check` also prints a fingerprint of every seat, command and event, to confirm
//! that a change still plays exactly the same games (1000 duels: 5889 turns, 43179 steps,
//! fingerprint cdf6ccb933b8ede8 with rustc 1.95 on x86_64 Linux; `DefaultHasher` may change).

#[path = "../benches/duel/mod.rs"]
mod duel;

use clash_core::SeededRandomness;
use duel::duel_table;
use iron_triangle::conflict::driver;


fn main() {
    let n: u64 = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(1000);
    // `check`: also fingerprint every command and event, to confirm a change plays the same games.
    let check = std::env::args().nth(2).is_some_and(|a| a == "check");
    let mut fingerprint = std::collections::hash_map::DefaultHasher::new();
    let start = duel_table();
    let (mut buffer, mut events) = (driver::Plays::default(), Vec::new());
    let (mut turns, mut steps) = (0u64, 0u64);
    for seed in 0..n {
        let mut table = start.clone();
        let mut rng = SeededRandomness::new(seed);
        if check {
            // The logged steps: `random_step_with` picks and carries out exactly as `random_play`.
            while let Ok(Some(step)) = driver::random_step_with(&mut table, &mut rng, false, &mut buffer) {
                steps += 1;
                use std::hash::Hash;
                format!("{:?} {:?} {:?}", step.seat, step.command, step.events).hash(&mut fingerprint);
            }
        } else {
            while let Ok(Some(_)) = driver::random_play(&mut table, &mut rng, false, &mut buffer, &mut events) {
                steps += 1;
            }
        }
        turns += table.conflict.as_ref().map_or(0, |c| u64::from(c.turns_played));
    }
    use std::hash::Hasher;
    println!("{n} duels, {turns} turns, {steps} steps{}", if check { format!(", fingerprint {:016x}", fingerprint.finish()) } else { String::new() });
}
