//! The GM takes back the last command: recorded as a table event, never a deletion.
//!
//! The rules engines are pure state machines rebuilt from their event log, so taking a command
//! back is a replay: the log gains an `undone` table event naming the command, and the game is
//! rebuilt from its setup and every game event except that command's. The command and its
//! events stay in the log (and in the table's record, where `clash verify` replays the undo the
//! same way).
//!
//! Only the last command still standing may be taken back, and only when it rolled no dice,
//! drew no card and revealed nothing ([`clash_core::Ruleset::reveals`]): otherwise someone
//! could see an outcome or a secret and then choose again. Several undos in a row walk back
//! command by command under the same conditions.

use std::collections::HashSet;

use clash_core::{AnyGame, GameError, Seat};
use serde_json::Value;

use crate::log::TableEvent;
use std::sync::RwLock;

use crate::table::ledger::{Held, Ledger};
use crate::view::snapshot::UndoOffer;

/// The command that would be taken back.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Candidate {
    pub n: u64,
    pub seat: Seat,
    /// Its log position.
    pub at: usize,
    /// How many game events it produced (the last ones of the game's log).
    pub events: usize,
}

/// The last command still standing, if it may be taken back; otherwise why not, in words.
pub(crate) fn candidate(
    game: &dyn AnyGame,
    ledger: &RwLock<Ledger>,
    closed: bool,
) -> Result<Candidate, String> {
    if closed {
        return Err("the table has ended".into());
    }
    let ledger = ledger.read().unwrap_or_else(|p| p.into_inner());
    let mut undone = HashSet::new();
    let found = ledger
        .items
        .iter()
        .enumerate()
        .rev()
        .find_map(|(pos, item)| {
            match item {
                Held::Table(TableEvent::Undone { at, .. }) => {
                    undone.insert(*at as usize);
                }
                Held::Command { n, seat, chance } if !undone.contains(&pos) => {
                    return Some((pos, *n, *seat, *chance));
                }
                _ => {}
            }
            None
        });
    let Some((at, n, seat, chance)) = found else {
        return Err("no command has been sent yet".into());
    };
    let name = game.seat_name(seat);
    if chance {
        return Err(format!(
            "{} last command rolled dice or drew cards, so it stands",
            crate::log::possessive(&name)
        ));
    }
    // Game event positions only grow: those after the command are its events.
    let events = ledger.game_pos.len() - ledger.game_pos.partition_point(|p| *p <= at);
    let from = game.event_count().saturating_sub(events);
    if game.events_json(from).iter().any(|e| game.reveals(e)) {
        return Err(format!(
            "{} last command brought something hidden into the open, so it stands",
            crate::log::possessive(&name)
        ));
    }
    Ok(Candidate {
        n,
        seat,
        at,
        events,
    })
}

/// What the GM's page offers.
pub(crate) fn offer(game: &dyn AnyGame, ledger: &RwLock<Ledger>, closed: bool) -> UndoOffer {
    match candidate(game, ledger, closed) {
        Ok(c) => UndoOffer {
            n: Some(c.n),
            text: match c.seat {
                Seat::Gm => "Take back your last command".into(),
                s => format!(
                    "Take back {} last command",
                    crate::log::possessive(&game.seat_name(s))
                ),
            },
        },
        Err(why) => UndoOffer {
            n: None,
            text: format!("Nothing to take back: {why}."),
        },
    }
}

/// The game rebuilt from its setup and every event but the last `drop`.
pub fn rebuilt(
    game: &dyn AnyGame,
    new_game: fn(&Value) -> Result<Box<dyn AnyGame>, GameError>,
    drop: usize,
) -> Result<Box<dyn AnyGame>, GameError> {
    let mut fresh = new_game(&game.setup_json())?;
    let all = game.events_json(0);
    let keep = all.len().saturating_sub(drop);
    let opening = fresh.event_count().min(keep);
    for event in &all[opening..keep] {
        fresh.restore(event)?;
    }
    Ok(fresh)
}
