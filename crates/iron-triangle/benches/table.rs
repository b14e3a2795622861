//! What a table page asks for on every change, on the largest table the limits allow (issue 19:
//! a few milliseconds at most while the table is locked, growing linearly with the table): the
//! view for the GM and for a player, the GM's legal commands, the status and the position.
//!
//! The table: 5 players' PCs and 59 NPCs (the 64-character limit), 32 countdowns, a problem's
//! worth of history, and a conflict with every NPC in it, at W5 with 58 idle NPCs asked.

use std::hint::black_box;

use clash_core::{Ruleset, Seat, SeededRandomness, Viewer, execute};
use criterion::{Criterion, criterion_group, criterion_main};
use iron_triangle::{Command, IronTriangle, Setup, Table, limits};
use serde_json::{Value, json};

fn sheet(name: &str, seat: &str) -> Value {
    let moves = [
        "D-L", "D-M", "D-H", "G-L", "G-M", "G-H", "A-L", "A-M", "A-H",
    ];
    json!({
        "name": name, "controller": seat, "established": true, "level": 10,
        "energy": {"defend": 9, "grapple": 9, "attack": 9},
        "belief": "Belief", "flaw": "Flaw", "goal": "Goal",
        "moves": moves.iter().map(|m| json!({"move": m, "name": format!("{name} {m}")})).collect::<Vec<_>>(),
        "combos": [{"from": "A-H", "followups": ["G-M", "A-L"]}],
        "specials": [{"special": "scouter"}, {"special": "yojimbo"}, {"special": "wax_on", "action": "attack"}],
    })
}

fn send(table: &mut Table, seat: &str, command: Value) {
    let command: Command = serde_json::from_value(command).expect("command");
    let seat: Seat = seat.parse().expect("seat");
    execute::<IronTriangle>(table, seat, &command, &mut SeededRandomness::new(1)).expect("legal");
}

fn largest_table() -> Table {
    let players = ["p1", "p2", "p3", "p4", "p5"];
    let npcs = limits::MAX_CHARACTERS - players.len();
    let mut characters: Vec<Value> = players
        .iter()
        .enumerate()
        .map(|(i, p)| sheet(&format!("Hero{i}"), p))
        .collect();
    characters.extend((0..npcs).map(|i| sheet(&format!("Npc{i}"), "gm")));
    let countdowns: Vec<Value> = (0..limits::MAX_COUNTDOWNS)
        .map(|i| json!({"name": format!("Countdown{i}"), "boxes": 6, "marked": i % 6}))
        .collect();
    let setup: Setup = serde_json::from_value(json!({
        "characters": characters,
        "countdowns": countdowns,
        "campaign": {"problems_opened": 40, "last_decided": {"p1": 39, "p2": 12}},
    }))
    .expect("setup");
    let mut table = IronTriangle::setup(&setup).expect("valid setup");
    let names: Vec<String> = (0..npcs).map(|i| format!("Npc{i}")).collect();
    send(
        &mut table,
        "gm",
        json!({"type": "start_conflict", "stakes": "everything", "npcs": names}),
    );
    for (i, p) in players.iter().enumerate() {
        send(
            &mut table,
            p,
            json!({"type": "join_conflict", "character": format!("Hero{i}")}),
        );
    }
    send(
        &mut table,
        "p1",
        json!({"type": "pick_active", "character": "Hero0"}),
    );
    send(
        &mut table,
        "p1",
        json!({"type": "pick_opponent", "opponent": "Npc0"}),
    );
    send(
        &mut table,
        "p1",
        json!({"type": "take_stance", "character": "Hero0", "amount": 0}),
    );
    send(
        &mut table,
        "gm",
        json!({"type": "take_stance", "character": "Npc0", "amount": 0}),
    );
    send(
        &mut table,
        "p1",
        json!({"type": "play_move", "character": "Hero0", "move": "A-H"}),
    );
    send(
        &mut table,
        "gm",
        json!({"type": "play_move", "character": "Npc0", "move": "G-L"}),
    );
    table
}

fn table_calls(c: &mut Criterion) {
    let table = largest_table();
    let mut group = c.benchmark_group("largest_table");
    group.bench_function("view_gm", |b| {
        b.iter(|| {
            IronTriangle::view(black_box(&table), Viewer::Seat(Seat::Gm))
                .characters
                .len()
        })
    });
    group.bench_function("view_player", |b| {
        b.iter(|| {
            IronTriangle::view(black_box(&table), Viewer::Seat(Seat::Player(1)))
                .characters
                .len()
        })
    });
    group.bench_function("legal_commands_gm", |b| {
        b.iter(|| IronTriangle::legal_commands(black_box(&table), Seat::Gm).len())
    });
    group.bench_function("status", |b| {
        b.iter(|| IronTriangle::status(black_box(&table)).waiting_for.len())
    });
    group.bench_function("position_gm", |b| {
        b.iter(|| IronTriangle::position(black_box(&table), Viewer::Seat(Seat::Gm)).is_some())
    });
    group.finish();
}

criterion_group!(benches, table_calls);
criterion_main!(benches);
