//! What checking a record reads and says: the record's entries as read back ([`Item`]) and the
//! outcome ([`Report`]), shared by every check of [`super::verify`].

use serde_json::Value;

use crate::log::Hash;

/// The outcome of checking a record.
#[derive(Debug, Default)]
pub struct Report {
    /// What was checked and held, in words.
    pub verified: Vec<String>,
    /// Each thing that did not hold, naming the entry, draw or event.
    pub failures: Vec<String>,
    /// What could not be checked (a record taken before the reveal; a legacy table).
    pub unchecked: Vec<String>,
}

impl Report {
    pub fn ok(&self) -> bool {
        self.failures.is_empty()
    }
}

/// One entry of a record, as read back.
pub(super) struct RecordEntry {
    pub(super) pos: usize,
    pub(super) hash: Option<Hash>,
    pub(super) digest: Option<Hash>,
    pub(super) entry: Option<Value>,
    /// The part a key may see of an entry it may not read whole.
    pub(super) seen: Option<Value>,
    /// A whisper between a player and the GM, given by its digest only, with its author (as
    /// records made before whispers were left out entirely gave it).
    pub(super) withheld: bool,
    /// Given by its digest alone: after the end, only talk between the GM and another player.
    pub(super) hidden: bool,
}
