//! Helpers shared by the integration tests: positions written the spec's way.
#![allow(dead_code)]

use clash_core::{RuleError, Scripted, ScriptedRandomness, Seat, execute};
use triforce::{Command, Event, Pos, Setup, StartIn, State, Triforce};

pub const R: Seat = Seat::Player(1);
pub const G: Seat = Seat::Player(2);
pub const B: Seat = Seat::Player(3);

/// A setup with `players` players and stacks written as `(8, "p3-M p1-L")`, bottom first.
pub fn setup(players: u8, board: &[(u8, &str)]) -> Setup {
    let mut s = Setup::new(players);
    for (n, stack) in board {
        s.board.insert(
            *n,
            stack
                .split_whitespace()
                .map(|p| p.parse().unwrap())
                .collect(),
        );
    }
    s
}

/// The same, starting in p1's combat phase (for combat test vectors).
pub fn combat_setup(board: &[(u8, &str)]) -> Setup {
    let mut s = setup(3, board);
    s.start_in = StartIn::Combat;
    s
}

pub fn start(setup: &Setup) -> State {
    triforce::start(setup).expect("valid setup")
}

/// Send `command` as `seat` with exactly these dice.
pub fn send(
    state: &mut State,
    seat: Seat,
    command: Command,
    dice: &[u32],
) -> Result<Vec<Event>, RuleError> {
    let mut rng = ScriptedRandomness::new(dice.iter().map(|d| Scripted::Die(*d)));
    let events = execute::<Triforce>(state, seat, &command, &mut rng)?;
    assert_eq!(rng.remaining(), 0, "every scripted die is used");
    Ok(events)
}

/// Stack at position `n` as text, bottom first.
pub fn stack(state: &State, n: u8) -> Vec<String> {
    state
        .stack(Pos::number(n).unwrap())
        .as_slice()
        .iter()
        .map(|p| p.to_string())
        .collect()
}

pub fn stack_is(state: &State, n: u8, expected: &str) -> bool {
    stack(state, n)
        == expected
            .split_whitespace()
            .map(String::from)
            .collect::<Vec<_>>()
}

pub fn mv(from: u8, to: u8) -> Command {
    Command::Move { from, to }
}

/// The destinations of every movable piece of seat index `s`, as (from, [to…]).
pub fn move_map(state: &State, s: u8) -> Vec<(u8, Vec<u8>)> {
    let mut out: Vec<(u8, Vec<u8>)> = Vec::new();
    for (from, to) in triforce::actions::moves(state, s) {
        match out.last_mut() {
            Some((f, list)) if *f == from.n() => list.push(to.n()),
            _ => out.push((from.n(), vec![to.n()])),
        }
    }
    out
}

/// The TV-3 board.
pub const TV3: &[(u8, &str)] = &[
    (1, "p1-S p1-M"),
    (2, "p1-S"),
    (8, "p1-M"),
    (9, "p2-S"),
    (11, "p3-L"),
    (13, "p3-L p1-S"),
    (15, "p2-M"),
];
