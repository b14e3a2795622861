//! The log as memory keeps it (see [`crate::table::play`]): what each position holds, and where each
//! game event stands.

use clash_core::Seat;

use crate::log::TableEvent;

/// What one position of the log holds, as far as memory needs to know.
#[derive(Clone)]
pub enum Held {
    /// Command `n` from `seat`; `chance` when it rolled dice or drew cards.
    Command {
        n: u64,
        seat: Seat,
        chance: bool,
    },
    Game,
    Table(TableEvent),
}

/// The log as memory keeps it: append-only, shared with snapshots (each reads only the part
/// that existed when it was taken). Taking a command back replaces it with a copy instead of
/// changing it, so a snapshot never sees it change.
#[derive(Default, Clone)]
pub struct Ledger {
    pub items: Vec<Held>,
    /// The log position of each game event, by its index in the game's own log.
    pub game_pos: Vec<usize>,
}
