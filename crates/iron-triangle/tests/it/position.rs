//! Positions (issue 18): a table exported as a setup starts a new table at the same point, over
//! random conflicts and campaigns; hidden information never gets into one; impossible
//! positions are refused with the rule they break.

use crate::conflict_support;

use clash_core::{Randomness, Ruleset, Seat, SeededRandomness, Viewer};
use conflict_support::*;
use iron_triangle::conflict::{Phase, Step, driver};
use iron_triangle::{IronTriangle, Setup, Table};
use proptest::prelude::*;
use serde_json::{Value, json};

/// The table as a position can hold it: Scouter snapshots and the last turn's report are
/// views, and "a special was used this turn" means nothing between turns.
/// Nor does a window's list of who was asked once the window has closed.
fn normalized(t: &Table) -> Table {
    let mut t = t.clone();
    if let Some(c) = t.conflict.as_mut() {
        c.scouted.clear();
        c.last_turn = None;
        if c.phase != Phase::Turn {
            c.fighters
                .iter_mut()
                .for_each(|f| f.special_this_turn = false);
        }
        if let Some(turn) = c.turn.as_mut()
            && !matches!(turn.step, Step::AfterReveal | Step::BeforeResolution)
        {
            turn.asked.clear();
            turn.done.clear();
        }
    }
    t
}

/// Something in `t` that no position may show: an unrevealed choice or a face-down special,
/// or a problem past its opening.
fn holds_a_secret(t: &Table) -> bool {
    let problem = t
        .campaign
        .problem
        .as_ref()
        .is_some_and(|p| !p.commitments.is_empty() || p.revealed);
    let turn = t.conflict.as_ref().and_then(|c| c.turn.as_ref());
    let hidden = turn.is_some_and(|t| {
        (!t.stances_revealed && t.stances.iter().any(Option::is_some))
            || (!t.moves_revealed && t.moves.iter().any(Option::is_some))
            || t.specials.iter().any(|p| p.face_down && !p.cancelled)
    });
    problem || hidden
}

fn round_trip(t: &Table) -> Result<(), TestCaseError> {
    let gm = IronTriangle::position(t, Viewer::Seat(Seat::Gm));
    let Some(position) = gm else {
        prop_assert!(holds_a_secret(t), "no position without a secret");
        return Ok(());
    };
    prop_assert!(!holds_a_secret(t));
    let text = serde_json::to_string(&position).unwrap();
    let read: Setup = serde_json::from_str(&text).unwrap();
    let (again, opening) = clash_core::start::<IronTriangle>(&read)
        .map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
    prop_assert!(opening.is_empty());
    prop_assert!(
        normalized(t) == normalized(&again),
        "{text}\nbefore {:?}\nafter {:?}",
        t.conflict,
        again.conflict
    );
    prop_assert_eq!(
        IronTriangle::position(&again, Viewer::Seat(Seat::Gm)),
        Some(read.clone())
    );
    // Players see it too once no NPC sheet is secret (IT-24), and then the same.
    let secret_npc = t.characters.iter().any(|c| !c.is_pc() && !c.revealed);
    let spectator = IronTriangle::position(t, Viewer::Spectator);
    prop_assert_eq!(spectator.is_some(), !secret_npc);
    if let Some(p) = spectator {
        prop_assert_eq!(p, read);
    }
    Ok(())
}

const POOL: [&str; 13] = [
    "D-L", "D-M", "D-H", "G-L", "G-M", "G-H", "G-J", "G-S", "A-L", "A-M", "A-H", "A-J", "A-S",
];

fn specials(bits: u32, pc: bool) -> Vec<Value> {
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

fn fighter(name: &str, seat: &str, energy: [u32; 3], bits: u32) -> Value {
    json!({
        "name": name, "controller": seat, "established": true, "level": 10,
        "energy": {"defend": energy[0], "grapple": energy[1], "attack": energy[2]},
        "moves": POOL.iter().map(|m| json!({"move": m, "name": format!("{name}'s {m}")})).collect::<Vec<_>>(),
        "combos": [{"from": "A-H", "followups": ["G-M", "A-L"]}, {"from": "G-M", "followups": ["A-S"]}],
        "specials": specials(bits, seat != "gm"),
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Every state of random conflicts (specials, combos, surrenders, lethal or not) exports a
    /// position that starts an equal table, or none when it holds a secret.
    #[test]
    fn conflict_positions_round_trip(
        pcs in 1usize..=3,
        npcs in 1usize..=3,
        energies in prop::collection::vec([1u32..5, 1u32..5, 1u32..5], 6),
        bits in prop::collection::vec(prop_oneof![Just(0u32), any::<u32>()], 6),
        lethal: bool,
        reveal: bool,
        seed: u64,
    ) {
        let mut chars = Vec::new();
        for i in 0..pcs {
            chars.push(fighter(&format!("Pc{i}"), &format!("p{}", i + 1), energies[i], bits[i]));
        }
        for j in 0..npcs {
            chars.push(fighter(&format!("Npc{j}"), "gm", energies[pcs + j], bits[pcs + j]));
        }
        let mut t = T::new(chars);
        if reveal {
            for j in 0..npcs {
                t.cmd("gm", json!({"type": "reveal_npc", "character": format!("Npc{j}")}));
            }
        }
        let names: Vec<String> = (0..npcs).map(|j| format!("Npc{j}")).collect();
        t.cmd("gm", json!({"type": "start_conflict", "stakes": "the bridge", "npcs": names, "lethal": lethal}));
        let mut table = t.table.clone();
        let mut rng = SeededRandomness::new(seed);
        round_trip(&table)?;
        for _ in 0..400 {
            let Ok(Some(_)) = driver::random_step(&mut table, &mut rng, seed % 3 == 0) else { break };
            round_trip(&table)?;
        }
    }

    /// Random campaigns (problems, rests, countdowns, session ends, conflicts) round-trip too.
    #[test]
    fn campaign_positions_round_trip(seed: u64, steps in 1usize..120) {
        let mut t = T::new(vec![
            with(sheet("Ada", "p1", [3, 3, 3], &["D-M", "G-L", "A-H"]), "goal", json!("Find the thief")),
            sheet("Bo", "p2", [3, 3, 3], &["D-M", "G-L", "A-H"]),
            sheet("Boss", "gm", [4, 4, 4], &BASIC),
        ]);
        let mut table = t.table.clone();
        let mut rng = SeededRandomness::new(seed);
        let seats = IronTriangle::seats(&table);
        for _ in 0..steps {
            let seat = seats[rng.choose(seats.len(), &|_| String::new()).unwrap()];
            let legal = IronTriangle::legal_commands(&table, seat);
            if legal.is_empty() {
                continue;
            }
            let command = &legal[rng.choose(legal.len(), &|_| String::new()).unwrap()];
            clash_core::execute::<IronTriangle>(&mut table, seat, command, &mut rng).unwrap();
            round_trip(&table)?;
        }
        t.table = table;
    }
}

/// A turn part-way, built by hand: Ada (p1) and Bo (p2) against the Brute, Ada active against
/// the Brute after winning with A-H; stances revealed, moves to choose.
fn mid_turn() -> Value {
    let ada = fighter("Ada", "p1", [4, 4, 4], 0);
    let bo = fighter("Bo", "p2", [4, 4, 4], 0);
    let mut brute = fighter("Brute", "gm", [6, 6, 6], 0);
    brute["state"] = json!({"revealed": true});
    json!({
        "characters": [ada, bo, brute],
        "conflict": {
            "stakes": "the bridge",
            "fighters": [
                {"character": "Ada", "status": "in", "turns": 1},
                {"character": "Bo", "status": "in"},
                {"character": "Brute", "status": "in", "pile": ["G-L"]}
            ],
            "phase": {"phase": "turn"},
            "turns_played": 2,
            "last_active": "Ada",
            "chain": {"against": "Brute", "cards": [{"owner": "Ada", "move": "A-H"}]},
            "turn": {
                "active": "Ada", "opponent": "Brute", "step": "moves",
                "stances": [{"action": "grapple", "amount": 2}, {"amount": 0}]
            }
        }
    })
}

fn start(v: Value) -> Result<Table, clash_core::RuleError> {
    let setup: Setup = serde_json::from_value(v).expect("a position parses");
    IronTriangle::setup(&setup)
}

fn refused(v: Value) -> &'static str {
    start(v)
        .expect_err("an impossible position")
        .rule()
        .unwrap_or("none")
}

#[test]
fn a_mid_turn_position_plays_on_with_its_chain_and_pile() {
    let mut table = start(mid_turn()).expect("a possible position");
    let c = table.conflict.as_ref().unwrap();
    assert_eq!(c.turn.as_ref().unwrap().step, Step::Moves);
    // IT-42: Ada's A-H is in the live chain, so unavailable to her; IT-44: G-M would combo.
    let view =
        serde_json::to_value(IronTriangle::view(&table, Viewer::Seat(Seat::Player(1)))).unwrap();
    let moves = view["conflict"]["your_moves"].as_array().unwrap();
    let of = |m: &str| moves.iter().find(|x| x["move"] == m).unwrap().clone();
    assert_eq!(of("A-H")["available"], false); // IT-42
    assert_eq!(of("G-M")["combos"], true); // IT-44
    let mut rng = SeededRandomness::new(1);
    let play = |c: &str, m: &str| -> iron_triangle::Command {
        serde_json::from_value(json!({"type": "play_move", "character": c, "move": m})).unwrap()
    };
    clash_core::execute::<IronTriangle>(&mut table, Seat::Player(1), &play("Ada", "G-M"), &mut rng)
        .unwrap();
    let events =
        clash_core::execute::<IronTriangle>(&mut table, Seat::Gm, &play("Brute", "D-L"), &mut rng)
            .unwrap();
    // Grapple beats Defend: 2 × 2 (stance) + 4 (base) + 1 (combo, IT-45) + 1 (D-L shares Low
    // with the Brute's pile [G-L], IT-39) = 10.
    let total = events.iter().find_map(|e| match e {
        iron_triangle::Event::Conflict(iron_triangle::ConflictEvent::TurnResolved {
            breakdown,
            ..
        }) => Some(breakdown[0].total),
        _ => None,
    });
    assert_eq!(total, Some(10));
}

#[test]
fn impossible_positions_are_refused_with_their_rule() {
    let with_conflict = |f: &dyn Fn(&mut Value)| {
        let mut v = mid_turn();
        f(&mut v);
        v
    };
    // IT-52: a fighter in with no energy left.
    assert_eq!(
        refused(with_conflict(
            &|v| v["characters"][2]["current"] = json!({"defend": 0, "grapple": 0, "attack": 0})
        )),
        "IT-52"
    );
    // IT-37: a pile card its owner does not know.
    let mut v = mid_turn();
    v["characters"][2]["moves"] =
        json!([{"move": "D-M", "name": "Block"}, {"move": "G-M", "name": "Hug"}]);
    v["characters"][2]["combos"] = json!([]);
    assert_eq!(refused(v), "IT-37");
    // IT-42: a chain whose cards belong to both sides.
    assert_eq!(
        refused(with_conflict(
            &|v| v["conflict"]["chain"]["cards"] =
                json!([{"owner": "Ada", "move": "A-H"}, {"owner": "Brute", "move": "G-M"}])
        )),
        "IT-42"
    );
    // IT-43: a chain against someone other than this turn's opponent would have ended.
    assert_eq!(
        refused(with_conflict(
            &|v| v["conflict"]["chain"]["against"] = json!("Ada")
        )),
        "IT-42"
    );
    // IT-33: a stance above the energy of its type.
    assert_eq!(
        refused(with_conflict(
            &|v| v["conflict"]["turn"]["stances"][0] = json!({"action": "grapple", "amount": 9})
        )),
        "IT-33"
    );
    // IT-2: moves are part of a position only once revealed.
    assert_eq!(
        refused(with_conflict(
            &|v| v["conflict"]["turn"]["moves"] = json!(["G-M", "D-L"])
        )),
        "IT-2"
    );
    // IT-23: once the fight has begun nobody is still answering.
    assert_eq!(
        refused(with_conflict(
            &|v| v["conflict"]["fighters"][1]["status"] = json!("pending")
        )),
        "IT-23"
    );
    // IT-27: with every NPC out, the conflict is over.
    assert_eq!(
        refused(with_conflict(&|v| {
            v["conflict"]["fighters"][2]["status"] = json!("out");
            v["conflict"]["chain"] = Value::Null;
        })),
        "IT-27"
    );
    // IT-46: a cap needs three wins in the live chain.
    assert_eq!(
        refused(with_conflict(&|v| {
            v["conflict"]["phase"] = json!({"phase": "pick_active", "picker": {"seat": "p1"}, "side": "players", "capped": "Ada"});
            v["conflict"]["turn"] = Value::Null;
        })),
        "IT-46"
    );
    // D-27: There Can Be Only One binds to an opponent.
    assert_eq!(
        refused(with_conflict(
            &|v| v["conflict"]["fighters"][0]["bound_to"] = json!("Bo")
        )),
        "D-27"
    );
    // IT-53: only a known special is spent; IT-24: only an NPC is revealed.
    assert_eq!(
        refused(with_conflict(
            &|v| v["characters"][0]["state"] = json!({"spent": [{"special": "yojimbo"}]})
        )),
        "IT-53"
    );
    assert_eq!(
        refused(with_conflict(
            &|v| v["characters"][0]["state"] = json!({"revealed": true})
        )),
        "IT-24"
    );
}

#[test]
fn a_three_win_cap_survives_a_position() {
    // IT-46 from a position: three wins in the chain against the (now out) X, so You must pass.
    let mut v = json!({
        "characters": [
            fighter("You", "p1", [4, 4, 4], 0),
            fighter("Mo", "p2", [4, 4, 4], 0),
            fighter("X", "gm", [4, 4, 4], 0),
            fighter("Y", "gm", [4, 4, 4], 0)
        ],
        "conflict": {
            "stakes": "the bridge",
            "fighters": [
                {"character": "You", "status": "in", "turns": 1},
                {"character": "Mo", "status": "in"},
                {"character": "X", "status": "out"},
                {"character": "Y", "status": "in"}
            ],
            "phase": {"phase": "pick_active", "picker": {"seat": "p1"}, "side": "players", "capped": "You"},
            "turns_played": 3,
            "last_active": "You",
            "chain": {"against": "X", "cards": [
                {"owner": "You", "move": "A-H"}, {"owner": "You", "move": "A-M"}, {"owner": "You", "move": "A-L"}
            ]}
        }
    });
    v["characters"][2]["current"] = json!({"defend": 0, "grapple": 0, "attack": 0});
    let mut table = start(v).expect("a possible position");
    let mut rng = SeededRandomness::new(1);
    let pick = |c: &str| -> iron_triangle::Command {
        serde_json::from_value(json!({"type": "pick_active", "character": c})).unwrap()
    };
    let err =
        clash_core::execute::<IronTriangle>(&mut table, Seat::Player(1), &pick("You"), &mut rng)
            .unwrap_err();
    assert_eq!(err.rule(), Some("IT-46"));
    clash_core::execute::<IronTriangle>(&mut table, Seat::Player(1), &pick("Mo"), &mut rng)
        .unwrap();
}

#[test]
fn hidden_choices_keep_a_table_from_exporting_a_position() {
    let mut t = T::new(vec![
        sheet("Ada", "p1", [4, 4, 4], &BASIC),
        sheet("Brute", "gm", [4, 4, 4], &BASIC),
    ]);
    t.start(&["Brute"], false, false);
    t.face("Ada", "Brute");
    assert!(IronTriangle::position(&t.table, Viewer::Seat(Seat::Gm)).is_some());
    t.stance("Ada", Some(("attack", 2)));
    // Ada's stance is committed and unrevealed: no position, for anyone (IT-2).
    for viewer in [
        Viewer::Seat(Seat::Gm),
        Viewer::Seat(Seat::Player(1)),
        Viewer::Spectator,
    ] {
        assert_eq!(IronTriangle::position(&t.table, viewer), None);
    }
    t.stance("Brute", None);
    assert!(IronTriangle::position(&t.table, Viewer::Seat(Seat::Gm)).is_some());
    // The Brute's sheet is the GM's secret (IT-24): players get no position.
    assert_eq!(
        IronTriangle::position(&t.table, Viewer::Seat(Seat::Player(1))),
        None
    );
}
