//! The kernel's laws (`clash_core::testkit`) over Iron Triangle's presets, a campaign and a
//! conflict of fighters knowing every move and special, played by the conflict engine's own
//! random driver (and random legal commands outside conflicts), with wild campaign and conflict
//! commands as probes: replay, refusals that change nothing, legal commands accepted, positions,
//! secret stances and moves, and narration.

use crate::campaign_support;

use campaign_support::{ada, hero};
use clash_core::testkit::{self, Laws};
use clash_core::{Randomness, Seat};
use iron_triangle::conflict::driver;
use iron_triangle::{Command, IronTriangle, Setup, Table};
use proptest::prelude::*;
use serde_json::{Value, json};

const MOVES: [&str; 13] = [
    "D-L", "D-M", "D-H", "G-L", "G-M", "G-H", "G-J", "G-S", "A-L", "A-M", "A-H", "A-J", "A-S",
];

/// A fighter knowing every move, a combo and some specials.
fn fighter(name: &str, seat: &str, energy: [u32; 3], specials: Value) -> Value {
    json!({
        "name": name, "controller": seat, "established": true, "level": 10,
        "energy": {"defend": energy[0], "grapple": energy[1], "attack": energy[2]},
        "moves": MOVES.iter().map(|m| json!({"move": m, "name": m})).collect::<Vec<_>>(),
        "combos": [{"from": "A-H", "followups": ["G-M", "A-L"]}],
        "specials": specials,
    })
}

fn conflict_setup() -> Setup {
    serde_json::from_value(json!({"characters": [
        fighter("Ada", "p1", [3, 4, 5], json!([{"special": "scouter"}, {"special": "wax_on", "action": "attack"}])),
        fighter("Bo", "p2", [4, 3, 3], json!([{"special": "yojimbo"}, {"special": "pressure_point"}])),
        fighter("Brute", "gm", [5, 4, 3], json!([{"special": "drunken_monkey"}, {"special": "liquid_metal"}])),
    ]}))
    .unwrap()
}

fn campaign_setup() -> Setup {
    let mut ready = ada("p1");
    ready["established"] = json!(true);
    let mut npc = hero("Boss", "gm");
    npc["established"] = json!(true);
    serde_json::from_value(json!({
        "characters": [ready, hero("Bo", "p2"), npc],
        "countdowns": [{"name": "Flood", "boxes": 4}],
        "campaign": {"rest_due": true}
    }))
    .unwrap()
}

/// The conflict engine's random play while a conflict runs (surrender at will included), and
/// a random legal command otherwise (the campaign, starting a conflict).
fn play(table: &Table, rng: &mut dyn Randomness) -> Option<(Seat, Command)> {
    let mut options = driver::options(table, true);
    if options.is_empty() {
        return testkit::random_legal::<IronTriangle>(table, rng);
    }
    let i = rng.choose(options.len(), &|i| i.to_string()).ok()?;
    let (seat, command) = options.swap_remove(i.min(options.len() - 1));
    Some((seat, Command::Conflict(command)))
}

/// Conflict and campaign commands with random names, amounts and seats, most of them illegal.
fn probes(_table: &Table, rng: &mut dyn Randomness) -> Vec<(Seat, Command)> {
    let mut pick = |n: usize| rng.roll(n as u32).unwrap_or(1) as usize - 1;
    (0..6)
        .filter_map(|_| {
            let name = ["Ada", "Bo", "Brute", "Boss", "Nobody", ""][pick(6)];
            let (amount, mv) = (pick(12), MOVES[pick(MOVES.len())]);
            let all = json!([
                {"type": "take_stance", "character": name, "action": "grapple", "amount": amount},
                {"type": "play_move", "character": name, "move": mv},
                {"type": "pick_active", "character": name},
                {"type": "pick_opponent", "opponent": name},
                {"type": "split_loss", "character": name, "split": {"defend": amount, "grapple": 1, "attack": 0}},
                {"type": "play_special", "character": name, "special": "yojimbo", "target": name},
                {"type": "drunken_swap", "character": name},
                {"type": "end_chain"},
                {"type": "kill_surrendered"},
                {"type": "choose_option", "option": "dramatic"},
                {"type": "pass_problem"},
                {"type": "open_problem", "description": name},
                {"type": "close_problem"},
                {"type": "mark_countdown", "name": name},
                {"type": "rest", "kind": "breather"},
                {"type": "end_session"},
                {"type": "mark_goal", "character": name, "achieved": true},
            ]);
            let list = all.as_array()?;
            let command: Command = serde_json::from_value(list[pick(list.len())].clone()).ok()?;
            let seat = [Seat::Gm, Seat::Player(1), Seat::Player(2), Seat::Player(3)][pick(4)];
            Some((seat, command))
        })
        .collect()
}

fn laws() -> Laws<IronTriangle> {
    let mut setups = testkit::presets::<IronTriangle>();
    setups.extend([conflict_setup(), campaign_setup()]);
    Laws {
        steps: 80,
        driver: play,
        probes,
        ..Laws::new(setups)
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4))]

    #[test]
    fn the_kernel_laws_hold(seed: u64) {
        testkit::check(&laws(), seed).map_err(TestCaseError::fail)?;
    }
}
