//! A table's record (`GET /api/tables/{id}/export`) and its verification (`clash verify`).
//!
//! # The record (`clash-table-export/1`)
//!
//! ```json
//! { "format": "clash-table-export/1", "table": "…", "ruleset": "…", "title": "…",
//!   "exported_as": "gm | p1 | … | spectator", "chance": "clash-chance-v1", "commitment": "<hex>",
//!   "secret": "<hex, only once revealed>", "head": "<hex>",
//!   "entries": [ { "pos": 0, "hash": "<hex>", "entry": { … } }, … ] }
//! ```
//!
//! Once the table has ended and its secret is revealed, every entry is given in full, to
//! everyone: commands with their rolls and draws, events, table events. Before that, a record is
//! cut to what its key may see, exactly as the live views are: an entry that key may read whole
//! is given as `entry`; one it sees only in part as `seen` (another seat's secret stance shows as
//! "ready"; a command's draws are never shown, even to its sender, since a shuffle's order is
//! secret from everyone); one it may not see at all as `"hidden": true`. Each then also carries
//! its `digest`, so the chain can be followed without the secret. There is no secret in it.
//!
//! # Verification
//!
//! [`verify`] checks, in this order: the top-level fields against the table's creation; the
//! secret against the commitment; the chain (every entry's digest recomputed from its content
//! and the secret, every hash from the one before, up to the head); the heads participants
//! witnessed, each at its place; the reader the record names against what it gives; that a
//! revealed record is the whole game (it ends with the table's close and the reveal of the
//! secret it gives); then it replays the log through the ruleset from the catalogue: each
//! command's chance is derived again from the secret, the client seeds in force and the
//! command's number, every draw is compared with the recorded one, and every event the command
//! produces with the events that follow it in the log. It reports what it checked, what it
//! could not check (the verdict is then "partly verified"), or each entry, draw or event that
//! differs.

mod replay;
mod report;
mod seen;
mod verify;
mod whole;

use clash_core::{SeenEvent, Viewer};
use serde_json::{Value, json};

use crate::log::{Chance, Entry, Reader, TableEvent, digest, hex};

pub use report::Report;
pub use seen::{SEEN_FORMAT, Witness, is_hash, read_seen};
pub use verify::{verify, verify_seen};

/// The format name of a record.
pub const FORMAT: &str = "clash-table-export/1";

/// What the server knows when building a record for one key.
pub struct Source<'a> {
    pub table: &'a str,
    pub secret: &'a [u8],
    pub commitment: &'a str,
    pub chance: Chance,
    pub viewer: Viewer,
    /// Who reads it as table talk: a whisper is given only to the GM and the player it is from
    /// or to, even once the secret is revealed.
    pub reader: Reader,
    pub revealed: bool,
    /// The log position of each game event.
    pub game_pos: &'a [usize],
    /// The game events as the viewer sees them (indices into the game's own log).
    pub seen: &'a [SeenEvent],
}

/// Build the record from the stored log (`(entry, hash)` in order).
pub fn build(source: &Source<'_>, stored: &[(Value, String)]) -> Value {
    let created = stored
        .first()
        .and_then(|(e, _)| serde_json::from_value::<Entry>(e.clone()).ok());
    let (ruleset, title) = match created {
        Some(Entry::Table {
            event: TableEvent::Created { ruleset, title, .. },
        }) => (ruleset, title),
        _ => (String::new(), String::new()),
    };
    let entries: Vec<Value> = stored
        .iter()
        .enumerate()
        .map(|(pos, (body, hash))| entry_for(source, pos, body, hash))
        .collect();
    let mut doc = json!({
        "format": FORMAT,
        "table": source.table,
        "ruleset": ruleset,
        "title": title,
        "exported_as": made_for(&source.reader),
        "chance": source.chance,
        "commitment": source.commitment,
        "head": stored.last().map(|(_, h)| h.clone()).unwrap_or_default(),
        "entries": entries,
    });
    if source.revealed {
        doc["secret"] = Value::String(hex(source.secret));
    }
    doc
}

/// Who the record was made for, as `exported_as` names them: `gm` for the GM's link (whatever
/// the game lets that seat see), the seat of a player's key, or `spectator`.
fn made_for(reader: &Reader) -> String {
    match reader {
        Reader::Gm => "gm".into(),
        Reader::Player { seat, .. } => seat.to_string(),
        Reader::Spectator => "spectator".into(),
    }
}

/// Whether the entry at `pos` is private talk this reader may not read (a whisper between the
/// GM and another player): it is left out of the reader's record but for its place in the
/// chain, before and after the end alike.
fn private(source: &Source<'_>, pos: usize, body: &Value) -> bool {
    match serde_json::from_value::<Entry>(body.clone()) {
        Ok(Entry::Table { event }) => !event.readable_by(&source.reader, pos),
        _ => false,
    }
}

fn entry_for(source: &Source<'_>, pos: usize, body: &Value, hash: &str) -> Value {
    if private(source, pos, body) {
        // Chained by its digest alone, like any entry this reader may not see: no author, no
        // kind, no text.
        return json!({ "pos": pos, "hash": hash, "hidden": true,
            "digest": hex(&digest(source.secret, source.table, pos as u64, body)) });
    }
    if source.revealed {
        return json!({ "pos": pos, "hash": hash, "entry": body });
    }
    let mut out = json!({ "pos": pos, "hash": hash, "digest": hex(&digest(source.secret, source.table, pos as u64, body)) });
    match seen_form(source, pos, body) {
        Some(seen) if &seen == body => out["entry"] = seen,
        Some(seen) => out["seen"] = seen,
        None => out["hidden"] = Value::Bool(true),
    }
    out
}

/// What the viewer may see of one entry before the reveal; `None` for nothing at all.
fn seen_form(source: &Source<'_>, pos: usize, body: &Value) -> Option<Value> {
    let entry: Entry = serde_json::from_value(body.clone()).ok()?;
    match entry {
        Entry::Command(c) => {
            let mut seen = json!({ "kind": "command", "n": c.n, "seat": c.seat, "by": c.by });
            if source.viewer.is(c.seat) {
                seen["command"] = c.command;
            }
            Some(seen)
        }
        Entry::Event { .. } => {
            let game_index = source.game_pos.binary_search(&pos).ok()?;
            let seen = source.seen.iter().find(|s| s.index == game_index)?;
            Some(json!({ "kind": "event", "event": seen.event }))
        }
        Entry::Table { event } => serde_json::to_value(Entry::Table {
            event: event.public(),
        })
        .ok(),
    }
}
