//! Property tests over random legal conflicts: energy stays in range, and no view or event view
//! leaks another seat's unrevealed stance, move, face-down special or hidden NPC sheet. (Replay,
//! legal commands accepted and refusals that change nothing are the kernel's laws, checked over
//! the same kind of conflicts with these wild commands in `laws.rs`.)

use clash_core::{Ruleset, Seat, SeededRandomness, Viewer, execute};
use iron_triangle::conflict::{MoveChoice, Stance, driver};
use iron_triangle::{Command, ConflictCommand, ConflictEvent, Event, IronTriangle, Setup, Table};
use proptest::prelude::*;
use serde_json::{Value, json};

const POOL: [&str; 13] = [
    "D-L", "D-M", "D-H", "G-L", "G-M", "G-H", "G-J", "G-S", "A-L", "A-M", "A-H", "A-J", "A-S",
];

fn specials_for(bits: u32, pc: bool) -> Vec<Value> {
    let all = [
        json!({"special": "scouter"}),
        json!({"special": "to_blave"}),
        json!({"special": "there_can_be_only_one"}),
        json!({"special": "pressure_point"}),
        json!({"special": "wax_on", "action": "attack"}),
        json!({"special": "santa_carla", "action": "grapple"}),
        json!({"special": "i_already_know", "action": "defend"}),
        json!({"special": "yojimbo"}),
        json!({"special": "liquid_metal"}),
        json!({"special": "drunken_monkey"}),
        json!({"special": "way_of_the_samurai"}),
    ];
    all.iter()
        .enumerate()
        .filter(|(i, _)| bits & (1 << i) != 0 && (pc || *i != 10))
        .map(|(_, s)| s.clone())
        .collect()
}

fn character(
    name: &str,
    seat: &str,
    energy: [u32; 3],
    all_moves: bool,
    special_bits: u32,
) -> Value {
    let moves: Vec<&str> = if all_moves {
        POOL.to_vec()
    } else {
        vec!["D-M", "G-L", "A-H", "A-L", "G-M"]
    };
    json!({
        "name": name, "controller": seat, "established": true, "level": 10,
        "energy": {"defend": energy[0], "grapple": energy[1], "attack": energy[2]},
        "moves": moves.iter().map(|m| json!({"move": m, "name": m})).collect::<Vec<_>>(),
        "combos": if all_moves { json!([{"from": "A-H", "followups": ["G-M", "A-L"]}, {"from": "G-M", "followups": ["A-S"]}]) } else { json!([]) },
        "specials": specials_for(special_bits, seat != "gm"),
    })
}

#[derive(Debug, Clone)]
struct Config {
    pcs: usize,
    npcs: usize,
    energies: Vec<[u32; 3]>,
    all_moves: Vec<bool>,
    specials: Vec<u32>,
    lethal: bool,
    minor: bool,
    seed: u64,
}

fn config() -> impl Strategy<Value = Config> {
    (
        1usize..=2,
        1usize..=2,
        any::<u64>(),
        any::<bool>(),
        prop::bool::weighted(0.15),
    )
        .prop_flat_map(|(pcs, npcs, seed, lethal, minor)| {
            let n = pcs + npcs;
            (
                prop::collection::vec([1u32..6, 1u32..6, 1u32..6], n),
                prop::collection::vec(any::<bool>(), n),
                prop::collection::vec(prop_oneof![Just(0u32), any::<u32>()], n),
            )
                .prop_map(move |(energies, all_moves, specials)| Config {
                    pcs,
                    npcs,
                    energies,
                    all_moves,
                    specials,
                    lethal,
                    minor,
                    seed,
                })
        })
}

fn build(cfg: &Config) -> (Setup, Table, Vec<Event>) {
    let mut chars = Vec::new();
    for i in 0..cfg.pcs {
        chars.push(character(
            &format!("Pc{i}"),
            &format!("p{}", i + 1),
            cfg.energies[i],
            cfg.all_moves[i],
            cfg.specials[i],
        ));
    }
    for j in 0..cfg.npcs {
        let k = cfg.pcs + j;
        chars.push(character(
            &format!("Npc{j}"),
            "gm",
            cfg.energies[k],
            cfg.all_moves[k],
            cfg.specials[k],
        ));
    }
    let setup: Setup = serde_json::from_value(json!({ "characters": chars })).unwrap();
    let mut table = IronTriangle::setup(&setup).unwrap();
    let npcs: Vec<String> = (0..cfg.npcs).map(|j| format!("Npc{j}")).collect();
    let start: Command = serde_json::from_value(json!({"type": "start_conflict", "stakes": "s", "npcs": npcs, "lethal": cfg.lethal, "minor": cfg.minor})).unwrap();
    let mut rng = SeededRandomness::new(cfg.seed);
    let log = execute::<IronTriangle>(&mut table, Seat::Gm, &start, &mut rng).unwrap();
    (setup, table, log)
}

fn seats(table: &Table) -> Vec<Seat> {
    IronTriangle::seats(table)
}

fn viewers(table: &Table) -> Vec<Viewer> {
    std::iter::once(Viewer::Spectator)
        .chain(seats(table).into_iter().map(Viewer::Seat))
        .collect()
}

/// Alternatives of the state that differ only in one hidden thing owned by `owner`.
fn hidden_variants(table: &Table) -> Vec<(Seat, Table)> {
    let mut out = Vec::new();
    let Some(c) = table.conflict.as_ref() else {
        return out;
    };
    let Some(turn) = c.turn.as_ref() else {
        return out;
    };
    for (slot, f) in [Some(turn.active), turn.opponent].into_iter().enumerate() {
        let Some(f) = f else { continue };
        let owner = table.characters[c.fighters[f as usize].character].controller;
        if !turn.stances_revealed && turn.stances[slot].is_some() {
            let mut alt = table.clone();
            let t = alt.conflict.as_mut().unwrap().turn.as_mut().unwrap();
            t.stances[slot] = Some(if t.stances[slot] == Some(Stance::NONE) {
                Stance::new(Some(iron_triangle::Action::Attack), 1)
            } else {
                Stance::NONE
            });
            out.push((owner, alt));
        }
        if !turn.moves_revealed && turn.moves[slot].is_some() {
            let mut alt = table.clone();
            let t = alt.conflict.as_mut().unwrap().turn.as_mut().unwrap();
            t.moves[slot] = Some(if t.moves[slot] == Some(MoveChoice::Surrender) {
                MoveChoice::Play("A-H".parse().unwrap())
            } else {
                MoveChoice::Surrender
            });
            out.push((owner, alt));
        }
    }
    for (i, p) in turn.specials.iter().enumerate() {
        if p.face_down {
            let owner = table.characters[c.fighters[p.by as usize].character].controller;
            let mut alt = table.clone();
            let t = alt.conflict.as_mut().unwrap().turn.as_mut().unwrap();
            t.specials[i].special = if p.special == iron_triangle::Special::PressurePoint {
                iron_triangle::Special::WaxOn(iron_triangle::Action::Defend)
            } else {
                iron_triangle::Special::PressurePoint
            };
            out.push((owner, alt));
        }
    }
    // An unrevealed NPC's combos and specials are the GM's secret (IT-24).
    for (i, ch) in table.characters.iter().enumerate() {
        if !ch.is_pc() && !ch.revealed {
            let mut alt = table.clone();
            alt.characters[i].combos.clear();
            for k in &mut alt.characters[i].specials {
                k.spent = !k.spent;
            }
            out.push((Seat::Gm, alt));
        }
    }
    out
}

fn hidden_payload_seen(e: &Event, viewer: Viewer) -> bool {
    match e {
        Event::Conflict(ConflictEvent::StanceTaken { owner, stance, .. }) => {
            !viewer.is(*owner) && stance.is_some()
        }
        Event::Conflict(ConflictEvent::MoveChosen { owner, choice, .. }) => {
            !viewer.is(*owner) && choice.is_some()
        }
        Event::Conflict(ConflictEvent::SpecialPlayed {
            owner,
            face_down: true,
            special,
            ..
        }) => !viewer.is(*owner) && special.is_some(),
        Event::Conflict(ConflictEvent::Scouted { owner, report, .. }) => {
            !viewer.is(*owner) && report.is_some()
        }
        _ => false,
    }
}

fn energy_in_range(table: &Table) -> bool {
    table.characters.iter().all(|c| {
        iron_triangle::Action::ALL
            .iter()
            .all(|a| c.energy.current.get(*a) <= c.energy.max.get(*a))
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn random_conflicts_keep_every_invariant(cfg in config()) {
        let (_, mut table, mut log) = build(&cfg);
        let mut rng = SeededRandomness::new(cfg.seed ^ 0x5eed);
        for step in 0..400 {
            // No viewer sees another seat's hidden choice, in the view or the event log.
            for (owner, alt) in hidden_variants(&table) {
                for v in viewers(&table).into_iter().filter(|v| !v.is(owner)) {
                    let a = serde_json::to_value(IronTriangle::view(&table, v)).unwrap();
                    let b = serde_json::to_value(IronTriangle::view(&alt, v)).unwrap();
                    prop_assert_eq!(a, b, "view of {} leaks {}'s secret at step {}", v, owner, step);
                }
            }
            for e in &log {
                for v in viewers(&table) {
                    let seen = IronTriangle::event_view(e, v).unwrap();
                    prop_assert!(!hidden_payload_seen(&seen, v), "event leaks to {}: {:?}", v, seen);
                }
            }
            prop_assert!(energy_in_range(&table));
            match driver::random_step(&mut table, &mut rng, true) {
                Ok(Some(s)) => log.extend(s.events),
                Ok(None) => break,
                Err(e) => prop_assert!(false, "the driver's legal command was refused: {e}"),
            }
        }
    }

    #[test]
    fn arbitrary_json_commands_never_panic(seed: u64, kind in 0usize..19, name in "[A-Za-z0-9]{0,6}", n in 0u32..40) {
        let cfg = Config { pcs: 1, npcs: 1, energies: vec![[3, 3, 3], [3, 3, 3]], all_moves: vec![true, true], specials: vec![u32::MAX, u32::MAX], lethal: false, minor: false, seed };
        let (_, mut table, _) = build(&cfg);
        let mut rng = SeededRandomness::new(seed);
        for _ in 0..(seed % 25) {
            let _ = driver::random_step(&mut table, &mut rng, true);
        }
        let types = ["start_conflict", "join_conflict", "sit_out", "refuse_lethal", "settle_conflict", "pick_active", "pick_opponent", "end_chain",
            "take_stance", "play_move", "play_special", "pass_window", "drunken_swap", "split_loss", "split_gain", "kill_surrendered", "spare_surrendered", "reveal_npc", "narrate_conflict"];
        let raw = json!({"type": types[kind], "character": name, "opponent": name, "amount": n, "action": "attack", "move": "G-S",
            "special": "yojimbo", "target": name, "split": {"defend": n, "grapple": 0, "attack": 1}, "stakes": name, "npcs": [name], "outcome": name, "text": name});
        if let Ok(cmd) = serde_json::from_value::<Command>(raw) {
            for s in seats(&table) {
                let before = table.clone();
                let mut scratch = table.clone();
                if execute::<IronTriangle>(&mut scratch, s, &cmd, &mut rng).is_err() {
                    prop_assert_eq!(&scratch, &before);
                }
            }
        }
    }
}

#[test]
fn every_legal_command_type_shows_up_somewhere() {
    // A sanity check that the random driver explores: surrender, splits and specials all occur.
    let mut kinds = std::collections::BTreeSet::new();
    for seed in 0..40u64 {
        let cfg = Config {
            pcs: 2,
            npcs: 2,
            energies: vec![[3, 4, 5]; 4],
            all_moves: vec![true; 4],
            specials: vec![u32::MAX; 4],
            lethal: seed % 2 == 0,
            minor: false,
            seed,
        };
        let (_, mut table, _) = build(&cfg);
        let mut rng = SeededRandomness::new(seed);
        while let Ok(Some(step)) = driver::random_step(&mut table, &mut rng, true) {
            let v = serde_json::to_value(&step.command).unwrap();
            kinds.insert(v["type"].as_str().unwrap_or("").to_string());
            if let Command::Conflict(ConflictCommand::PlaySpecial { special, .. }) = step.command {
                kinds.insert(format!("{special}"));
            }
        }
    }
    for k in [
        "pick_active",
        "pick_opponent",
        "take_stance",
        "play_move",
        "split_loss",
        "play_special",
        "pass_window",
        "Yojimbo",
        "Scouter",
        "Pressure Point",
    ] {
        assert!(kinds.contains(k), "never saw {k}: {kinds:?}");
    }
}

/// The driver's compact list (stances and moves counted, not written out) is exactly every
/// seat's written-out legal plays, in order; without surrender at will, a seat with a move to
/// play lists no Surrender (IT-35).
#[test]
fn the_drivers_compact_list_is_every_seats_written_out_plays() {
    use iron_triangle::conflict::legal::{self, Play};
    for seed in 0..30u64 {
        let cfg = Config {
            pcs: 2,
            npcs: 2,
            energies: vec![[2, 3, 1]; 4],
            all_moves: vec![seed % 2 == 0; 4],
            specials: vec![u32::MAX; 4],
            lethal: seed % 3 == 0,
            minor: false,
            seed,
        };
        let (_, mut table, _) = build(&cfg);
        let mut rng = SeededRandomness::new(seed);
        for surrender in [seed % 2 == 1; 400] {
            let mut compact = Vec::new();
            driver::plays(&table, surrender, &mut compact);
            let mut written = Vec::new();
            for seat in std::iter::once(Seat::Gm).chain(table.players.iter().copied()) {
                let mut plays: Vec<Play> = Vec::new();
                legal::plays_for(&table, seat, &mut plays);
                let has_move = plays
                    .iter()
                    .any(|p| matches!(p, Play::Move(_, MoveChoice::Play(_))));
                plays.retain(|p| {
                    surrender || !has_move || !matches!(p, Play::Move(_, MoveChoice::Surrender))
                });
                written.extend(plays.into_iter().map(|p| (seat, p)));
            }
            assert_eq!(compact, written, "seed {seed}");
            if !matches!(
                driver::random_step(&mut table, &mut rng, surrender),
                Ok(Some(_))
            ) {
                break;
            }
        }
    }
}

/// `random_play` (no log handed back) plays exactly the game `random_step_with` logs.
#[test]
fn random_play_plays_the_same_game_as_the_logged_driver() {
    for seed in 0..20u64 {
        let cfg = Config {
            pcs: 1,
            npcs: 1,
            energies: vec![[3, 4, 5]; 2],
            all_moves: vec![true; 2],
            specials: vec![u32::MAX; 2],
            lethal: false,
            minor: false,
            seed,
        };
        let (_, start, _) = build(&cfg);
        let (mut logged, mut quiet) = (start.clone(), start);
        let (mut rng_a, mut rng_b) = (SeededRandomness::new(seed), SeededRandomness::new(seed));
        let (mut buffer, mut events) = (driver::Plays::default(), Vec::new());
        loop {
            let step = driver::random_step_with(&mut logged, &mut rng_a, false, &mut buffer)
                .expect("legal");
            let seat = driver::random_play(&mut quiet, &mut rng_b, false, &mut buffer, &mut events)
                .expect("legal");
            assert_eq!(step.as_ref().map(|s| s.seat), seat, "seed {seed}");
            let Some(step) = step else { break };
            let played: Vec<Event> = events.iter().cloned().map(Event::Conflict).collect();
            assert_eq!(step.events, played, "seed {seed}");
        }
        assert_eq!(logged, quiet, "seed {seed}");
    }
}

/// `decide_into` appends a legal command's events after what the list held, and leaves the list
/// as it was when the command is illegal.
#[test]
fn decide_into_appends_events_and_leaves_the_list_alone_on_an_error() {
    let cfg = Config {
        pcs: 1,
        npcs: 1,
        energies: vec![[3, 4, 5]; 2],
        all_moves: vec![true; 2],
        specials: vec![u32::MAX; 2],
        lethal: false,
        minor: false,
        seed: 3,
    };
    let (_, table, _) = build(&cfg);
    let mut rng = SeededRandomness::new(3);
    let earlier = ConflictEvent::FightBegan { lethal: false };
    let (seat, legal) = driver::options(&table, false)
        .into_iter()
        .next()
        .expect("a legal play");
    let mut out = vec![earlier.clone()];
    iron_triangle::conflict::decide_into(&table, seat, &legal, &mut rng, &mut out).expect("legal");
    let alone = iron_triangle::conflict::decide(&table, seat, &legal, &mut rng).expect("legal");
    assert_eq!(out[0], earlier);
    assert_eq!(out[1..], alone[..]);
    let mut out = vec![earlier.clone()];
    // IT-32: nobody picks an opponent before a turn is under way.
    let illegal = ConflictCommand::PickOpponent {
        opponent: "nobody".into(),
    };
    assert!(
        iron_triangle::conflict::decide_into(&table, seat, &illegal, &mut rng, &mut out).is_err()
    );
    assert_eq!(out, vec![earlier]);
}
