//! The benchmark's duel, shared by `benches/conflict.rs` and `examples/prof_duel.rs` (which
//! counts its instructions), so both always measure the same conflict.

use clash_core::{Ruleset, Seat, SeededRandomness, execute};
use iron_triangle::conflict::driver;
use iron_triangle::{Command, ConflictEvent, IronTriangle, Setup, Table};
use serde_json::json;

/// Two level-3 characters with all nine basic moves, 8 energy of each type and two combos, in a
/// lesser conflict the GM has started and the player has joined.
pub fn duel_table() -> Table {
    let moves = [
        "D-L", "D-M", "D-H", "G-L", "G-M", "G-H", "A-L", "A-M", "A-H",
    ];
    let sheet = |name: &str, seat: &str| {
        json!({
            "name": name, "controller": seat, "established": true, "level": 3,
            "energy": {"defend": 8, "grapple": 8, "attack": 8},
            "moves": moves.iter().map(|m| json!({"move": m, "name": m})).collect::<Vec<_>>(),
            "combos": [{"from": "A-H", "followups": ["G-M"]}, {"from": "G-M", "followups": ["D-L", "A-L"]}],
        })
    };
    let setup: Setup =
        serde_json::from_value(json!({"characters": [sheet("Ada", "p1"), sheet("Brute", "gm")]}))
            .expect("setup");
    let mut table = IronTriangle::setup(&setup).expect("valid setup");
    let start: Command = serde_json::from_value(
        json!({"type": "start_conflict", "stakes": "the bridge", "npcs": ["Brute"]}),
    )
    .expect("command");
    let join: Command =
        serde_json::from_value(json!({"type": "join_conflict", "character": "Ada"}))
            .expect("command");
    let mut rng = SeededRandomness::new(1);
    execute::<IronTriangle>(&mut table, Seat::Gm, &start, &mut rng).expect("start");
    execute::<IronTriangle>(&mut table, Seat::Player(1), &join, &mut rng).expect("join");
    table
}

/// The driver's reusable lists: its legal plays and the last command's events.
#[derive(Default)]
pub struct Buffers {
    plays: driver::Plays,
    events: Vec<ConflictEvent>,
}

/// Play the duel out from `start` with random legal plays drawn from `seed`; returns the turns
/// and the steps (commands) it took.
pub fn play(start: &Table, seed: u64, buffers: &mut Buffers) -> (u64, u64) {
    let mut table = start.clone();
    let mut rng = SeededRandomness::new(seed);
    let mut steps = 0;
    while let Ok(Some(_)) = driver::random_play(
        &mut table,
        &mut rng,
        false,
        &mut buffers.plays,
        &mut buffers.events,
    ) {
        steps += 1;
    }
    (
        table
            .conflict
            .as_ref()
            .map_or(0, |c| u64::from(c.turns_played)),
        steps,
    )
}
