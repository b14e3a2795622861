//! Shared helpers for the conflict tests: build a table, send JSON commands, read energies.
#![allow(dead_code)]

use clash_core::{RuleError, Ruleset, ScriptedRandomness, Seat, SeededRandomness, Viewer, execute};
use iron_triangle::conflict::{Fighter, Phase};
use iron_triangle::{Command, Event, IronTriangle, Setup, Table};
use serde_json::{Value, json};

/// A character sheet: established, so any energy, moves, combos and specials may be given.
pub fn sheet(name: &str, seat: &str, energy: [u32; 3], moves: &[&str]) -> Value {
    json!({
        "name": name, "controller": seat, "established": true, "level": 10,
        "energy": {"defend": energy[0], "grapple": energy[1], "attack": energy[2]},
        "moves": moves.iter().map(|m| json!({"move": m, "name": format!("{name}'s {m}")})).collect::<Vec<_>>(),
    })
}

pub fn with(mut sheet: Value, key: &str, value: Value) -> Value {
    sheet[key] = value;
    sheet
}

pub const BASIC: [&str; 9] = [
    "D-L", "D-M", "D-H", "G-L", "G-M", "G-H", "A-L", "A-M", "A-H",
];
pub const ALL: [&str; 13] = [
    "D-L", "D-M", "D-H", "G-L", "G-M", "G-H", "G-J", "G-S", "A-L", "A-M", "A-H", "A-J", "A-S",
];

pub struct T {
    pub setup: Setup,
    pub table: Table,
    pub log: Vec<Event>,
    pub rng: ScriptedRandomness,
}

pub fn seat(s: &str) -> Seat {
    s.parse().expect("seat")
}

impl T {
    pub fn new(characters: Vec<Value>) -> T {
        let setup: Setup =
            serde_json::from_value(json!({ "characters": characters })).expect("setup json");
        let table = IronTriangle::setup(&setup).expect("valid setup");
        T {
            setup,
            table,
            log: Vec::new(),
            rng: ScriptedRandomness::new([]).then_seeded(7),
        }
    }

    pub fn try_cmd(&mut self, who: &str, command: Value) -> Result<Vec<Event>, RuleError> {
        let command: Command = serde_json::from_value(command).expect("command json");
        let events = execute::<IronTriangle>(&mut self.table, seat(who), &command, &mut self.rng)?;
        self.log.extend(events.iter().cloned());
        Ok(events)
    }

    pub fn cmd(&mut self, who: &str, command: Value) -> Vec<Event> {
        let shown = command.to_string();
        match self.try_cmd(who, command) {
            Ok(e) => e,
            Err(e) => panic!("{who} {shown} refused: {e}"),
        }
    }

    /// Send a command that must be refused; the state must not change. Returns the rule.
    pub fn refused(&mut self, who: &str, command: Value) -> &'static str {
        let before = self.table.clone();
        let shown = command.to_string();
        let err = self
            .try_cmd(who, command)
            .expect_err(&format!("{shown} should be refused"));
        assert_eq!(self.table, before, "a refused command changed the state");
        err.rule().unwrap_or("none")
    }

    pub fn energy(&self, name: &str) -> [u32; 3] {
        let e = self
            .table
            .character(name)
            .expect("character")
            .energy
            .current;
        [e.defend, e.grapple, e.attack]
    }

    pub fn total(&self, name: &str) -> u32 {
        self.energy(name).iter().sum()
    }

    pub fn fighter(&self, name: &str) -> &Fighter {
        let c = self.table.conflict.as_ref().expect("conflict");
        c.fighters.iter().find(|f| f.name == name).expect("fighter")
    }

    pub fn pile(&self, name: &str) -> Vec<String> {
        self.fighter(name)
            .pile
            .iter()
            .map(|m| m.to_string())
            .collect()
    }

    pub fn chain(&self) -> Vec<String> {
        let c = self.table.conflict.as_ref().expect("conflict");
        c.chain
            .as_ref()
            .map(|ch| ch.cards.iter().map(|k| k.mv.to_string()).collect())
            .unwrap_or_default()
    }

    pub fn phase(&self) -> Phase {
        self.table
            .conflict
            .as_ref()
            .expect("conflict")
            .phase
            .clone()
    }

    /// Start a lesser conflict against `npcs` and join every PC.
    pub fn start(&mut self, npcs: &[&str], lethal: bool, minor: bool) {
        self.cmd("gm", json!({"type": "start_conflict", "stakes": "the bridge", "npcs": npcs, "lethal": lethal, "minor": minor}));
        let pcs: Vec<(String, Seat)> = self
            .table
            .characters
            .iter()
            .filter(|c| c.is_pc())
            .map(|c| (c.name.clone(), c.controller))
            .collect();
        for (name, s) in pcs {
            self.cmd(
                &s.to_string(),
                json!({"type": "join_conflict", "character": name}),
            );
        }
    }

    fn controller(&self, name: &str) -> String {
        self.table
            .character(name)
            .expect("character")
            .controller
            .to_string()
    }

    /// Make `active` active (picked by whoever must pick) and pick `opponent`.
    pub fn face(&mut self, active: &str, opponent: &str) {
        let picker = match self.phase() {
            Phase::PickActive {
                picker: iron_triangle::conflict::Picker::Seat { seat },
                ..
            } => seat.to_string(),
            _ => self.controller(active),
        };
        self.cmd(&picker, json!({"type": "pick_active", "character": active}));
        self.cmd(
            &self.controller(active),
            json!({"type": "pick_opponent", "opponent": opponent}),
        );
    }

    pub fn stance(&mut self, who: &str, stance: Option<(&str, u32)>) {
        let (action, amount) = stance.map_or((Value::Null, 0), |(a, n)| (json!(a), n));
        self.cmd(
            &self.controller(who),
            json!({"type": "take_stance", "character": who, "action": action, "amount": amount}),
        );
    }

    pub fn play(&mut self, who: &str, mv: &str) -> Vec<Event> {
        self.cmd(
            &self.controller(who),
            json!({"type": "play_move", "character": who, "move": mv}),
        )
    }

    /// Both stances then both moves; the participants are (name, stance, move).
    pub fn exchange(
        &mut self,
        a: (&str, Option<(&str, u32)>, &str),
        b: (&str, Option<(&str, u32)>, &str),
    ) -> Vec<Event> {
        self.stance(a.0, a.1);
        self.stance(b.0, b.1);
        self.play(a.0, a.2);
        self.play(b.0, b.2)
    }

    /// Split every waiting loss or gain the first legal way (the first type in D, G, A order).
    pub fn settle(&mut self) {
        for _ in 0..10 {
            let waiting = self
                .table
                .conflict
                .as_ref()
                .and_then(|c| iron_triangle::conflict::losses::waiting_split(&self.table, c));
            let Some((_, splitter, ..)) = waiting else {
                return;
            };
            let cmd = IronTriangle::legal_commands(&self.table, splitter)
                .into_iter()
                .find(|c| {
                    matches!(
                        c,
                        Command::Conflict(
                            iron_triangle::ConflictCommand::SplitLoss { .. }
                                | iron_triangle::ConflictCommand::SplitGain { .. }
                        )
                    )
                })
                .expect("a split command");
            let events = execute::<IronTriangle>(&mut self.table, splitter, &cmd, &mut self.rng)
                .expect("legal split");
            self.log.extend(events);
        }
    }

    /// Split the waiting loss exactly so.
    pub fn split(&mut self, who: &str, by: &str, split: [u32; 3]) -> Vec<Event> {
        self.cmd(by, json!({"type": "split_loss", "character": who, "split": {"defend": split[0], "grapple": split[1], "attack": split[2]}}))
    }

    pub fn view(&self, viewer: &str) -> Value {
        let v: Viewer = viewer.parse().expect("viewer");
        serde_json::to_value(IronTriangle::view(&self.table, v)).expect("view json")
    }

    /// The full event log as `viewer` sees it, as JSON text.
    pub fn log_seen_by(&self, viewer: &str) -> String {
        let v: Viewer = viewer.parse().expect("viewer");
        let seen: Vec<Event> = self
            .log
            .iter()
            .filter_map(|e| IronTriangle::event_view(e, v))
            .collect();
        serde_json::to_string(&seen).expect("json")
    }

    pub fn replayed(&self) -> Table {
        clash_core::replay::<IronTriangle>(&self.setup, &self.log).expect("replay")
    }
}

pub fn seeded(seed: u64) -> SeededRandomness {
    SeededRandomness::new(seed)
}

/// The losses recorded in events, as (character, [d, g, a]).
pub fn losses(events: &[Event]) -> Vec<(String, [u32; 3])> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Conflict(iron_triangle::ConflictEvent::EnergyLost {
                character, lost, ..
            }) => Some((
                character.to_string(),
                [lost.defend, lost.grapple, lost.attack],
            )),
            _ => None,
        })
        .collect()
}
