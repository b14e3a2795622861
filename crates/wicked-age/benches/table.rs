//! Issue 19: what one request costs on the largest table the limits allow (100 characters,
//! a 16-way conflict), beside a duel. The review measured 27 s for one GM view of a 590-NPC
//! table when legal commands were found by copying the state per candidate; `view`,
//! `legal_commands` (every seat), `status`, `render` and `position` must stay cheap and grow
//! linearly: compare the two groups in one run.

use clash_core::{Ruleset, Seat, SeededRandomness, Viewer, execute};
use criterion::{Criterion, criterion_group, criterion_main};
use serde_json::{Value, json};
use wicked_age::limits::{MAX_CHARACTERS, MAX_PARTICIPANTS};
use wicked_age::{Command, State, WickedAge};

fn pc(i: usize) -> Value {
    json!({"name": format!("Hero {i}"), "kind": "pc", "seat": format!("p{}", i % 200 + 1),
        "forms": {"covertly": 12, "directly": 10, "for_myself": 8, "for_others": 6, "with_love": 6, "with_violence": 4},
        "strengths": [{"name": format!("Trick {i}"), "pc_form": "covertly", "npc_form": "action", "significance": [{"type": "potent"}]}],
        "best_interests": ["Survive", "Get rich"]})
}

fn npc(i: usize) -> Value {
    json!({"name": format!("Bandit {i}"), "kind": "npc",
        "forms": {"action": [12, 8], "maneuvering": [10, 6], "self_protection": [6, 4]}})
}

/// `characters` characters, half PCs and half NPCs, the first `fighting` in a conflict whose
/// initiative is half rolled.
fn table(characters: usize, fighting: usize) -> State {
    let list: Vec<Value> = (0..characters)
        .map(|i| if i % 2 == 0 { pc(i) } else { npc(i) })
        .collect();
    let names: Vec<String> = list
        .iter()
        .take(fighting)
        .map(|c| c["name"].as_str().unwrap_or_default().to_string())
        .collect();
    let owe: Vec<Value> = (0..characters)
        .step_by(2)
        .map(|i| json!({"character": format!("Hero {i}"), "player": format!("p{}", i % 200 + 1)}))
        .collect();
    let setup =
        serde_json::from_value(json!({"characters": list, "owe_list": owe})).expect("setup");
    let mut st = WickedAge::setup(&setup).expect("valid");
    let mut rng = SeededRandomness::new(3);
    let start = Command::StartConflict {
        participants: names.clone(),
        action: "a brawl at the ferry".into(),
    };
    execute::<WickedAge>(&mut st, Seat::Gm, &start, &mut rng).expect("start");
    for name in names.iter().take(fighting / 2) {
        let ch = st.character(name).expect("character").clone();
        let roll = Command::RollInitiative {
            character: name.clone(),
            choice: wicked_age::moves::typical_choice(&ch),
        };
        execute::<WickedAge>(&mut st, ch.controller, &roll, &mut rng).expect("roll");
    }
    st
}

fn requests(c: &mut Criterion, name: &str, st: &State) {
    let seats = WickedAge::seats(st);
    let mut g = c.benchmark_group(name);
    g.bench_function("view (GM)", |b| {
        b.iter(|| WickedAge::view(st, Viewer::Seat(Seat::Gm)))
    });
    g.bench_function("legal commands (every seat)", |b| {
        b.iter(|| {
            seats
                .iter()
                .map(|s| WickedAge::legal_commands(st, *s).len())
                .sum::<usize>()
        })
    });
    g.bench_function("legal commands (GM)", |b| {
        b.iter(|| WickedAge::legal_commands(st, Seat::Gm))
    });
    g.bench_function("status", |b| b.iter(|| WickedAge::status(st)));
    g.bench_function("render (spectator)", |b| {
        b.iter(|| WickedAge::render(st, Viewer::Spectator))
    });
    g.bench_function("position", |b| {
        b.iter(|| WickedAge::position(st, Viewer::Spectator))
    });
    g.finish();
}

fn tables(c: &mut Criterion) {
    let duel = table(2, 2);
    let largest = table(MAX_CHARACTERS, MAX_PARTICIPANTS);
    requests(c, "duel (2 characters)", &duel);
    requests(
        c,
        "largest table (100 characters, 16 in the conflict)",
        &largest,
    );
}

criterion_group!(benches, tables);
criterion_main!(benches);
