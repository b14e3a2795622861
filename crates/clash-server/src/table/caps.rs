//! How much one table's log may hold, and how fast it may grow: every kind of entry a client's
//! request appends has a cap per link (the person who sent it: the GM, or a seat's player), per
//! table, and per minute, and the record as a whole has a size limit. The executor checks them
//! before a change is committed ([`check`]) and refuses one past a cap with a message naming the
//! cap; the ending of a table (its close, the end of the game, the reveal of its secret) and
//! what the server itself appends (a clock running out) are never refused.
//!
//! Counts are kept from the log as it is read ([`Tally`]); the per-minute counts live in memory
//! on the node that took the request ([`Pace`]). docs/server.md lists the defaults and what they
//! bound: the record's size, and so a page's start-up data.

use std::collections::{HashMap, VecDeque};
use std::time::{Duration, Instant};

use crate::error::TableError;
use crate::log::{Entry, Sender, TableEvent};

/// A kind of entry a request appends.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Appended {
    /// A command to the game (its events go with it).
    Command,
    /// A line of talk or a whisper.
    Talk,
    /// A client seed.
    Seed,
    /// The GM's seat and link changes (invites, takeovers, bots, replaced links) and claims.
    Seats,
    /// A player's links to move their seat to another device.
    Moves,
    /// The table's settings: its name, archiving, odds in play, its clock.
    Settings,
    /// A command taken back.
    Undo,
}

impl Appended {
    /// The kind in words, plural ("lines of talk").
    pub fn plural(self) -> &'static str {
        match self {
            Appended::Command => "commands",
            Appended::Talk => "lines of talk",
            Appended::Seed => "seeds",
            Appended::Seats => "seat and link changes",
            Appended::Moves => "links to move a seat to another device",
            Appended::Settings => "changes of the table's settings",
            Appended::Undo => "commands taken back",
        }
    }
}

/// One kind's caps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cap {
    /// Over the table's life, from one link.
    pub per_link: usize,
    /// Over the table's life, from everyone.
    pub per_table: usize,
    /// In any minute, from one link.
    pub per_minute: usize,
}

const fn cap(per_link: usize, per_table: usize, per_minute: usize) -> Cap {
    Cap {
        per_link,
        per_table,
        per_minute,
    }
}

/// Every cap of a table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Caps {
    pub command: Cap,
    pub talk: Cap,
    pub seed: Cap,
    pub seats: Cap,
    pub moves: Cap,
    pub settings: Cap,
    pub undo: Cap,
    /// The table's log, its entries' JSON as a page embeds it ([`size`]), in bytes at most: the
    /// record is never larger, and a page's start-up data about twice that at most.
    pub record_bytes: usize,
}

impl Default for Caps {
    fn default() -> Self {
        Caps {
            command: cap(20_000, 20_000, 600),
            talk: cap(
                crate::table::chat::MAX_LINES,
                crate::table::chat::MAX_LINES,
                60,
            ),
            seed: cap(100, 1_000, 20),
            seats: cap(2_000, 2_000, 120),
            moves: cap(50, 200, 10),
            settings: cap(1_000, 1_000, 60),
            undo: cap(1_000, 1_000, 60),
            record_bytes: 4 * 1024 * 1024,
        }
    }
}

impl Caps {
    pub fn of(&self, kind: Appended) -> Cap {
        match kind {
            Appended::Command => self.command,
            Appended::Talk => self.talk,
            Appended::Seed => self.seed,
            Appended::Seats => self.seats,
            Appended::Moves => self.moves,
            Appended::Settings => self.settings,
            Appended::Undo => self.undo,
        }
    }
}

/// The kind of `entry` and the link that sent it (`gm`, or a seat); `None` for what is never
/// capped (the table's creation and ending, game events, the clock running out).
pub fn kind(entry: &Entry) -> Option<(Appended, String)> {
    let event = match entry {
        Entry::Command(c) => {
            let by = match c.by {
                Sender::Player => c.seat.to_string(),
                Sender::Gm | Sender::Bot => "gm".into(),
            };
            return Some((Appended::Command, by));
        }
        Entry::Event { .. } => return None,
        Entry::Table { event } => event,
    };
    let gm = |kind| Some((kind, "gm".to_string()));
    match event {
        TableEvent::Said { by, .. } | TableEvent::Whispered { by, .. } => {
            Some((Appended::Talk, by.clone()))
        }
        TableEvent::SeedAdded { by, .. } => Some((Appended::Seed, by.clone())),
        // A move needs a move link: the links are what is counted.
        TableEvent::MoveOffered { seat } => Some((Appended::Moves, seat.to_string())),
        TableEvent::SeatMoved { .. } => None,
        TableEvent::SeatClaimed { seat } => Some((Appended::Seats, seat.to_string())),
        TableEvent::InviteIssued { .. }
        | TableEvent::TakenOver { .. }
        | TableEvent::HandedBack { .. }
        | TableEvent::LinkRevoked { .. }
        | TableEvent::LinkReplaced { .. }
        | TableEvent::BotSeated { .. }
        | TableEvent::BotUnseated { .. } => gm(Appended::Seats),
        TableEvent::Renamed { .. }
        | TableEvent::Archived
        | TableEvent::Unarchived
        | TableEvent::OddsSwitched { .. }
        | TableEvent::ClockSet { .. } => gm(Appended::Settings),
        TableEvent::Undone { .. } => gm(Appended::Undo),
        TableEvent::Created { .. }
        | TableEvent::Closed
        | TableEvent::GameOver { .. }
        | TableEvent::SecretRevealed { .. }
        | TableEvent::ClockRanOut { .. } => None,
    }
}

/// The size of an entry as a page embeds it (see [`crate::pages::embed`]: `<`, `>`, `&` and the line
/// separators take six bytes there), which is never less than its size as stored; so one limit
/// bounds both the record and the log a page starts with.
pub fn size(entry: &Entry) -> usize {
    let json = serde_json::to_string(entry).unwrap_or_default();
    let escaped = json
        .chars()
        .filter(|c| matches!(c, '<' | '>' | '&' | '\u{2028}' | '\u{2029}'))
        .count();
    json.len() + 5 * escaped
}

/// What a table's log holds, by kind and link, and its size.
#[derive(Debug, Clone, Default)]
pub struct Tally {
    by_link: HashMap<(Appended, String), usize>,
    by_kind: HashMap<Appended, usize>,
    /// The log's entries as stored, in bytes.
    pub bytes: usize,
}

impl Tally {
    /// Count one more entry of the log.
    pub fn count(&mut self, entry: &Entry) {
        self.bytes += size(entry);
        if let Some((kind, by)) = kind(entry) {
            *self.by_kind.entry(kind).or_default() += 1;
            *self.by_link.entry((kind, by)).or_default() += 1;
        }
    }
}

/// When each link appended each kind in the last minute (memory only).
#[derive(Debug, Default)]
pub struct Pace {
    recent: HashMap<(Appended, String), VecDeque<Instant>>,
}

const MINUTE: Duration = Duration::from_secs(60);

impl Pace {
    /// Note what was just appended.
    pub fn note(&mut self, entries: &[Entry], now: Instant) {
        self.recent.retain(|_, times| {
            times.retain(|t| now.duration_since(*t) < MINUTE);
            !times.is_empty()
        });
        for (kind, by) in entries.iter().filter_map(kind) {
            self.recent.entry((kind, by)).or_default().push_back(now);
        }
    }

    /// How many `kind` from `by` in the minute before `now`, and when the oldest of them leaves
    /// that minute.
    fn within(&self, kind: Appended, by: &str, now: Instant) -> (usize, Duration) {
        let Some(times) = self.recent.get(&(kind, by.to_string())) else {
            return (0, Duration::ZERO);
        };
        let live: Vec<&Instant> = times
            .iter()
            .filter(|t| now.duration_since(**t) < MINUTE)
            .collect();
        let wait = live
            .first()
            .map_or(Duration::ZERO, |t| MINUTE - now.duration_since(**t));
        (live.len(), wait)
    }
}

/// Refuse `entries` if they would take the log past a cap: the record's size, then for each
/// kind the table's cap, the link's, and (when `paced`: a person's request, not the server's
/// own) the link's per minute.
pub fn check(
    tally: &Tally,
    pace: &Pace,
    entries: &[Entry],
    caps: &Caps,
    paced: bool,
) -> Result<(), TableError> {
    let capped: Vec<(Appended, String)> = entries.iter().filter_map(kind).collect();
    if capped.is_empty() && !entries.iter().any(|e| matches!(e, Entry::Event { .. })) {
        return Ok(());
    }
    let bytes: usize = entries.iter().map(size).sum();
    if tally.bytes + bytes > caps.record_bytes {
        return Err(TableError::full(format!(
            "this table's record has reached its size limit of {} KiB (a limit of this server): end the table, and start a new one to go on",
            caps.record_bytes / 1024
        )));
    }
    let mut adding: HashMap<&(Appended, String), usize> = HashMap::new();
    for key in &capped {
        *adding.entry(key).or_default() += 1;
    }
    let now = Instant::now();
    for ((kind, by), n) in adding {
        let cap = caps.of(*kind);
        let table = tally.by_kind.get(kind).copied().unwrap_or(0);
        if table + n > cap.per_table {
            return Err(TableError::full(format!(
                "this table holds {} {} already, as many as a table may (a limit of this server)",
                cap.per_table,
                kind.plural()
            )));
        }
        let link = tally
            .by_link
            .get(&(*kind, by.clone()))
            .copied()
            .unwrap_or(0);
        if link + n > cap.per_link {
            return Err(TableError::full(format!(
                "this link has made {} {} at this table, as many as one link may (a limit of this server)",
                cap.per_link,
                kind.plural()
            )));
        }
        let (recent, wait) = pace.within(*kind, by, now);
        if paced && recent + n > cap.per_minute {
            return Err(TableError::TooFast {
                message: format!(
                    "at most {} {} a minute from one link (a limit of this server); try again in {} s",
                    cap.per_minute,
                    kind.plural(),
                    wait.as_secs().max(1)
                ),
                retry_after: wait.max(Duration::from_secs(1)),
            });
        }
    }
    Ok(())
}
