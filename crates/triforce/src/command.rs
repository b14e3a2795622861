//! What a seat sends ([`Command`]) and what happens ([`Event`]); [`crate::turn`] checks a
//! command and applies its events.

use clash_core::Seat;
use serde::{Deserialize, Serialize};

use crate::board::Pos;
use crate::combat::{Battle, Exchange};
use crate::pieces::{Blank, List, Pyramid, Size};
use crate::players::size_words;
use crate::state::Outcome;

/// What a seat may send. Positions are numbers 1..15 (TF-6); levels count from 1 at the lowest
/// non-white pyramid of the stack.
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "triforce/"))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", from = "CommandRepr")]
pub enum Command {
    /// TF-14: put a pyramid of this size from your stash on your home stack.
    Place { size: Size },
    /// TF-15: move your piece on top of `from` to `to`.
    Move { from: u8, to: u8 },
    /// TF-17: stop after the first or second action.
    EndTurn,
    /// TF-20: resolve the contested stack at `at` next.
    Resolve { at: u8 },
    /// TF-22.1: as top player, give up the piece at `level` for a sword.
    TakeSword { level: u8 },
    /// TF-22.2: as bottom player, give up the piece at `level` for a shield.
    TakeShield { level: u8 },
    /// TF-22: make no exchange in the open window.
    Decline,
}

/// How a command is read: as [`Command`], but refusing unknown fields on every kind (serde
/// lets a unit variant of a tagged enum carry any field, so those two are empty structs here).
#[derive(Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
enum CommandRepr {
    Place { size: Size },
    Move { from: u8, to: u8 },
    EndTurn {},
    Resolve { at: u8 },
    TakeSword { level: u8 },
    TakeShield { level: u8 },
    Decline {},
}

impl From<CommandRepr> for Command {
    fn from(c: CommandRepr) -> Command {
        match c {
            CommandRepr::Place { size } => Command::Place { size },
            CommandRepr::Move { from, to } => Command::Move { from, to },
            CommandRepr::EndTurn {} => Command::EndTurn,
            CommandRepr::Resolve { at } => Command::Resolve { at },
            CommandRepr::TakeSword { level } => Command::TakeSword { level },
            CommandRepr::TakeShield { level } => Command::TakeShield { level },
            CommandRepr::Decline {} => Command::Decline,
        }
    }
}

impl Command {
    /// The command in words, for refusals.
    pub fn words(&self) -> String {
        match *self {
            Command::Place { size } => format!("placing a {} pyramid", size_words(size)),
            Command::Move { from, to } => format!("moving from {from} to {to}"),
            Command::EndTurn => "ending the turn".into(),
            Command::Resolve { at } => format!("resolving the stack at {at}"),
            Command::TakeSword { level } => {
                format!(
                    "taking a sword for the piece {} from the bottom",
                    place_words(level)
                )
            }
            Command::TakeShield { level } => {
                format!(
                    "taking a shield for the piece {} from the bottom",
                    place_words(level)
                )
            }
            Command::Decline => "declining an exchange".into(),
        }
    }
}

/// A place in a stack counted from the bottom: "first", "second", … ("9th" past tenth).
fn place_words(level: u8) -> String {
    const WORDS: [&str; 10] = [
        "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth",
        "tenth",
    ];
    WORDS
        .get(usize::from(level).wrapping_sub(1))
        .map_or_else(|| format!("{level}th"), |w| (*w).to_string())
}

impl Blank for Command {
    const BLANK: Command = Command::Decline;
}

/// Room for every legal command in any position (at most 15 × 14 moves, 3 placements, end).
pub type Commands = List<Command, 224>;

/// What happened. Every die rolled is in a [`Battle`], so replay never rolls.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// TF-12: `seat` begins turn number `turn` and has legal actions.
    TurnStarted { seat: Seat, turn: u32 },
    /// TF-18: `seat` has no legal action and passes turn `turn`.
    Pinned { seat: Seat, turn: u32 },
    /// TF-14.
    Placed { seat: Seat, size: Size, at: Pos },
    /// TF-15.
    Moved {
        seat: Seat,
        piece: Pyramid,
        from: Pos,
        to: Pos,
    },
    /// TF-12.4: the actions are over; combat follows.
    TurnEnded { seat: Seat },
    /// TF-20: the active seat resolves this stack next.
    StackChosen { seat: Seat, at: Pos },
    /// TF-22.1: `given` (at `level`, from 1) went to the stash and a sword took its place.
    SwordTaken {
        seat: Seat,
        at: Pos,
        level: u8,
        given: Pyramid,
    },
    /// TF-22.2: as above, for a shield.
    ShieldTaken {
        seat: Seat,
        at: Pos,
        level: u8,
        given: Pyramid,
    },
    /// TF-22: no exchange.
    Declined {
        seat: Seat,
        at: Pos,
        exchange: Exchange,
    },
    /// TF-24 to TF-26: one combat.
    Battle(Battle),
    /// TF-28 to TF-30.
    GameOver { outcome: Outcome },
}
