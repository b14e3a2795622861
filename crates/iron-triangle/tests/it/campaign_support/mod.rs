//! Shared helpers for the campaign tests: a table driven by JSON commands, with checks that a
//! refused command names its rule and leaves the table unchanged.
#![allow(dead_code)]

use clash_core::{RuleError, Ruleset, Seat, SeededRandomness, Viewer, replay};
use iron_triangle::campaign::CampaignEvent;
use iron_triangle::{Command, Event, IronTriangle, Setup, Table};
use serde_json::{Value, json};

pub const GM: Seat = Seat::Gm;
pub const P1: Seat = Seat::Player(1);
pub const P2: Seat = Seat::Player(2);
pub const P3: Seat = Seat::Player(3);

/// Ada from TV-12 (`book/examplecharacter.adoc`).
pub fn ada(seat: &str) -> Value {
    json!({
        "name": "Ada", "controller": seat,
        "energy": {"defend": 3, "grapple": 2, "attack": 5},
        "backgrounds": [{"name": "Detective", "points": 2}, {"name": "Disgraced hockey player", "points": 1}],
        "belief": "Everyone lies", "flaw": "Temper", "goal": "Find the thief",
        "moves": [
            {"move": "D-M", "name": "Philly Shell"},
            {"move": "G-L", "name": "Trip"},
            {"move": "A-H", "name": "Overhand Right"}
        ]
    })
}

/// A second valid starting PC.
pub fn hero(name: &str, seat: &str) -> Value {
    json!({
        "name": name, "controller": seat,
        "energy": {"defend": 4, "grapple": 3, "attack": 3},
        "backgrounds": [{"name": "Sailor", "points": 2}, {"name": "Cook", "points": 1}],
        "belief": "The sea provides", "flaw": "Greedy", "goal": "Buy a ship",
        "moves": [
            {"move": "D-M", "name": "Wall"},
            {"move": "G-L", "name": "Sweep"},
            {"move": "A-H", "name": "Hook"}
        ]
    })
}

pub struct T {
    pub setup: Setup,
    table: Table,
    pub log: Vec<Event>,
    rng: SeededRandomness,
}

impl T {
    pub fn new(setup: Value) -> T {
        let setup: Setup = serde_json::from_value(setup).expect("setup parses");
        let table = IronTriangle::setup(&setup).expect("setup is valid");
        T {
            setup,
            table,
            log: Vec::new(),
            rng: SeededRandomness::new(7),
        }
    }

    /// Ada (p1), Bo (p2) and Cy (p3).
    pub fn three() -> T {
        T::new(json!({"characters": [ada("p1"), hero("Bo", "p2"), hero("Cy", "p3")]}))
    }

    pub fn state(&self) -> &Table {
        &self.table
    }

    /// Change the table as another module would (e.g. a PC dying in a conflict); replay no
    /// longer reproduces the result afterwards.
    pub fn edit(&mut self, f: impl FnOnce(&mut Table)) {
        f(&mut self.table);
    }

    pub fn try_cmd(&mut self, seat: Seat, command: Value) -> Result<Vec<Event>, RuleError> {
        let command: Command = serde_json::from_value(command).expect("command parses");
        let events = IronTriangle::decide(&self.table, seat, &command, &mut self.rng)?;
        for e in &events {
            IronTriangle::apply(&mut self.table, e);
        }
        self.log.extend(events.iter().cloned());
        Ok(events)
    }

    /// The command must be accepted.
    pub fn ok(&mut self, seat: Seat, command: Value) -> Vec<Event> {
        let shown = command.to_string();
        self.try_cmd(seat, command)
            .unwrap_or_else(|e| panic!("{seat} {shown} refused: {e}"))
    }

    /// A player's character made during play: handed in, then kept by the GM (issue 38).
    pub fn made(&mut self, seat: Seat, command: Value) -> Vec<Event> {
        let handed = self.ok(seat, command);
        assert!(
            matches!(
                handed.as_slice(),
                [Event::Campaign(CampaignEvent::CharacterHandedIn { .. })]
            ),
            "{handed:?}"
        );
        self.ok(
            Seat::Gm,
            serde_json::json!({"type": "keep_character", "seat": seat}),
        )
    }

    /// The command must be refused under `rule`, leaving the table as it was.
    pub fn refused(&mut self, seat: Seat, command: Value, rule: &str) {
        let before = self.state().clone();
        let shown = command.to_string();
        match self.try_cmd(seat, command) {
            Ok(_) => panic!("{seat} {shown} was accepted; expected a refusal under {rule}"),
            Err(e) => assert_eq!(e.rule(), Some(rule), "{seat} {shown}: {e}"),
        }
        assert_eq!(self.state(), &before, "a refused command changed the table");
    }

    pub fn pc(&self, name: &str) -> &iron_triangle::Character {
        self.state().character(name).expect("character exists")
    }

    pub fn view(&self, viewer: Viewer) -> Value {
        serde_json::to_value(IronTriangle::view(self.state(), viewer)).expect("view serializes")
    }

    pub fn replayed(&self) -> Table {
        replay::<IronTriangle>(&self.setup, &self.log).expect("replay")
    }
}
