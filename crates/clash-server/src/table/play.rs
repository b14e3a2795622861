//! A table's live state, behind its lock: the game, the log as memory needs it, the links, and
//! the rules of who may do what with a key.
//!
//! The game is held as an immutable snapshot: a change is decided on a copy, and the copy
//! replaces it only once the change is committed. So a refused or unsaved change leaves nothing
//! behind, and readers can use the snapshot after the lock is released (see [`crate::view::snapshot`]).

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, RwLock};

use clash_core::{AnyGame, RulesetEntry, Seat, Strength};

use crate::error::TableError;
use crate::log::{Entry, Hash, Sender, TableEvent, canonical};
use crate::store::{LinkChange, StoredLink, StoredTable};
pub use crate::table::access::{Access, Holder, SeatInfo, apply_link, contributor};
pub use crate::table::ledger::{Held, Ledger};
use crate::table::presence::Presence;
use crate::view::snapshot::{Meta, Snapshot};

/// A command id already used at this table.
pub struct Sent {
    pub seat: Seat,
    pub command: String,
    pub pos: usize,
    pub n: u64,
}

pub struct Play {
    pub game: Arc<dyn AnyGame>,
    pub ledger: Arc<RwLock<Ledger>>,
    pub head: Hash,
    /// Commands accepted so far; the next one is number `commands`.
    pub commands: u64,
    /// The latest client seed of each contributor (`gm`, `p1`, …), sorted by contributor.
    pub seeds: BTreeMap<String, String>,
    pub ids: HashMap<String, Sent>,
    /// For each seat, who sent its latest command and at which log position.
    pub last: HashMap<Seat, (Sender, usize)>,
    pub links: Vec<StoredLink>,
    pub closed: bool,
    /// The server secret is out (the table ended).
    pub revealed: bool,
    /// The GM deleted the table: nothing more happens here.
    pub deleted: bool,
    /// The GM has switched odds in play on.
    pub odds: bool,
    /// The table's name now (the GM may rename it).
    pub title: String,
    /// The GM has archived the table: no moves or talk until it is brought back.
    pub archived: bool,
    /// Lines of table talk so far.
    pub talk_lines: usize,
    /// The seats a bot plays, with its strength (from the log's `bot_seated` events).
    pub bots: BTreeMap<Seat, Strength>,
    /// The GM's clock and reminders (from the log's `clock_set` events).
    pub clock: crate::notify::rule::ClockRule,
    /// What the log holds, by kind and link, and its size (see [`crate::table::caps`]).
    pub tally: crate::table::caps::Tally,
    /// What each link appended in the last minute (memory only).
    pub pace: crate::table::caps::Pace,
    /// Who has the table open (shared with the table; kept across a reload).
    pub presence: Arc<Presence>,
    /// Everything a reader needs, as of the last change.
    pub snapshot: Arc<Snapshot>,
}

impl Play {
    /// Rebuild a stored table by replaying its log.
    pub fn rebuild(entry: &RulesetEntry, t: StoredTable, meta: Arc<Meta>) -> Result<Play, String> {
        let game = (entry.new_game)(&t.setup).map_err(|e| e.to_string())?;
        let opening = game.events_json(0);
        let entries: Vec<&Entry> = t.log.iter().map(|(e, _)| e).collect();
        let game = replay_game(entry, game, 0, &opening, 0, &entries)?;
        let mut play = Play::fresh(game, meta.clone(), t.links);
        play.commands = t.commands;
        for (pos, (logged, hash)) in t.log.into_iter().enumerate() {
            play.absorb(pos, logged, hash);
        }
        play.keep(&t.kept);
        // A table from before openings were logged: its opening events stand with its creation.
        let mut ledger = play.ledger.write().unwrap_or_else(|p| p.into_inner());
        let unlogged = play
            .game
            .event_count()
            .saturating_sub(ledger.game_pos.len());
        ledger
            .game_pos
            .splice(0..0, std::iter::repeat_n(0, unlogged));
        drop(ledger);
        play.refresh(meta);
        Ok(play)
    }

    /// Take in what other nodes added to the table's log since memory last saw it (`tail`
    /// starts at this table's revision), with its links as they are now. The
    /// game after the tail is `game`, replayed by the caller with [`replay_game`].
    pub fn catch_up(&mut self, game: Box<dyn AnyGame>, tail: crate::store::Tail, meta: Arc<Meta>) {
        let from = self.revision();
        self.fork_ledger();
        for (i, (logged, hash)) in tail.log.into_iter().enumerate() {
            self.absorb(from + i, logged, hash);
        }
        self.game = Arc::from(game);
        self.links = tail.links;
        self.keep(&tail.kept);
        self.refresh(meta);
    }

    /// Go on with a copy of the ledger, for a change that does more than append to it:
    /// snapshots taken before keep reading the one they know.
    fn fork_ledger(&mut self) {
        let copy = self
            .ledger
            .read()
            .unwrap_or_else(|p| p.into_inner())
            .clone();
        self.ledger = Arc::new(RwLock::new(copy));
    }

    /// Take committed entries (with their hashes) into memory, with the game after them (when
    /// they change it) and their link changes.
    pub fn take_in(
        &mut self,
        entries: impl IntoIterator<Item = (Entry, Hash)>,
        game: Option<Box<dyn AnyGame>>,
        links: Vec<LinkChange>,
    ) {
        let entries: Vec<(Entry, Hash)> = entries.into_iter().collect();
        let undoes = entries.iter().any(|(e, _)| {
            matches!(
                e,
                Entry::Table {
                    event: TableEvent::Undone { .. }
                }
            )
        });
        if undoes {
            // Taking back shortens the game's events.
            self.fork_ledger();
        }
        let from = self.revision();
        for (i, (entry, hash)) in entries.into_iter().enumerate() {
            self.absorb(from + i, entry, hash);
        }
        if let Some(game) = game {
            self.game = Arc::from(game);
        }
        for link in links {
            self.change_link(link);
        }
    }

    /// Take one logged entry into memory (its game events are the caller's: [`replay_game`]).
    fn absorb(&mut self, pos: usize, logged: Entry, hash: Hash) {
        self.head = hash;
        self.tally.count(&logged);
        let mut ledger = self.ledger.write().unwrap_or_else(|p| p.into_inner());
        match logged {
            Entry::Command(c) => {
                self.last.insert(c.seat, (c.by, pos));
                self.commands = self.commands.max(c.n + 1);
                let (seat, n, chance) = (c.seat, c.n, !c.draws.is_empty());
                if let Some(id) = c.id {
                    let command = canonical(&c.command);
                    self.ids.insert(
                        id,
                        Sent {
                            seat,
                            command,
                            pos,
                            n,
                        },
                    );
                }
                ledger.items.push(Held::Command { n, seat, chance });
            }
            Entry::Event { .. } => {
                ledger.game_pos.push(pos);
                ledger.items.push(Held::Game);
            }
            Entry::Table { event } => {
                if let TableEvent::Undone { events, .. } = &event {
                    let keep = ledger.game_pos.len().saturating_sub(*events as usize);
                    ledger.game_pos.truncate(keep);
                }
                // Memory needs only what readers see: the setup of `created` stays on disk.
                let public = event.public();
                drop(ledger);
                self.note(&event);
                self.ledger
                    .write()
                    .unwrap_or_else(|p| p.into_inner())
                    .items
                    .push(Held::Table(public));
            }
        }
    }

    /// A table with `game` and `links` and an empty log (the caller fills it).
    pub fn fresh(game: Box<dyn AnyGame>, meta: Arc<Meta>, links: Vec<StoredLink>) -> Play {
        let game: Arc<dyn AnyGame> = Arc::from(game);
        let ledger = Arc::new(RwLock::new(Ledger::default()));
        let snapshot = Arc::new(Snapshot::empty(meta.clone(), game.clone(), ledger.clone()));
        Play {
            game,
            ledger,
            head: [0; 32],
            commands: 0,
            seeds: BTreeMap::new(),
            ids: HashMap::new(),
            last: HashMap::new(),
            links,
            closed: false,
            revealed: false,
            deleted: false,
            odds: false,
            title: meta.title.clone(),
            archived: false,
            talk_lines: 0,
            bots: BTreeMap::new(),
            clock: Default::default(),
            tally: Default::default(),
            pace: Default::default(),
            presence: Arc::default(),
            snapshot,
        }
    }

    /// The length of the log: the table's revision.
    pub fn revision(&self) -> usize {
        self.ledger
            .read()
            .unwrap_or_else(|p| p.into_inner())
            .items
            .len()
    }

    /// Take a new snapshot after a change.
    pub fn refresh(&mut self, meta: Arc<Meta>) {
        let (revision, games) = {
            let ledger = self.ledger.read().unwrap_or_else(|p| p.into_inner());
            (ledger.items.len(), ledger.game_pos.len())
        };
        self.snapshot = Arc::new(Snapshot::new(
            meta,
            crate::view::snapshot::Taken {
                revision,
                games,
                game: self.game.clone(),
                ledger: self.ledger.clone(),
                head: self.head,
                seeds: self.seeds.clone(),
                seats: self.seat_list(false),
                closed: self.closed,
                revealed: self.revealed,
                odds: self.odds,
                title: self.title.clone(),
                archived: self.archived,
                undo: crate::table::undo::offer(self.game.as_ref(), &self.ledger, self.closed),
                presence: self.presence.clone(),
            },
        ));
    }

    /// Note what a table event changes in memory (links change alongside, separately).
    pub fn note(&mut self, event: &TableEvent) {
        match event {
            TableEvent::SeedAdded { by, seed } => {
                self.seeds.insert(by.clone(), seed.clone());
            }
            TableEvent::Closed | TableEvent::GameOver { .. } => self.closed = true,
            TableEvent::SecretRevealed { .. } => self.revealed = true,
            TableEvent::Renamed { title } => self.title = title.clone(),
            TableEvent::Archived => self.archived = true,
            TableEvent::Unarchived => self.archived = false,
            TableEvent::OddsSwitched { enabled } => self.odds = *enabled,
            TableEvent::Said { .. } | TableEvent::Whispered { .. } => self.talk_lines += 1,
            TableEvent::BotSeated { seat, strength } => {
                self.bots.insert(*seat, *strength);
            }
            TableEvent::BotUnseated { seat } => {
                self.bots.remove(seat);
            }
            TableEvent::ClockSet { rule } => self.clock = *rule,
            _ => {}
        }
    }

    /// Refuse play and talk at an archived table.
    pub fn check_in_play(&self) -> Result<(), TableError> {
        if self.archived {
            return Err(TableError::conflict(
                crate::error::Conflict::Archived,
                "the GM has archived this table; it takes no moves or talk until the GM brings it back",
            ));
        }
        Ok(())
    }
}

/// The game after `entries` (log entries from position `first` on), starting from `game`, which
/// holds `events` game events so far. Game events the game made by itself at its start
/// (`opening`, when replaying from the beginning) are already in it. Rules work: callers run it
/// on the blocking pool.
pub fn replay_game(
    entry: &RulesetEntry,
    mut game: Box<dyn AnyGame>,
    mut events: usize,
    opening: &[serde_json::Value],
    first: usize,
    entries: &[&Entry],
) -> Result<Box<dyn AnyGame>, String> {
    for (i, logged) in entries.iter().enumerate() {
        let pos = first + i;
        match logged {
            Entry::Event { event } => {
                if events >= opening.len() || opening[events] != *event {
                    game.restore(event)
                        .map_err(|e| format!("log entry {pos}: {e}"))?;
                }
                events += 1;
            }
            Entry::Table {
                event: TableEvent::Undone { events: undone, .. },
            } => {
                game = crate::table::undo::rebuilt(game.as_ref(), entry.new_game, *undone as usize)
                    .map_err(|e| format!("log entry {pos}: {e}"))?;
                events = events.saturating_sub(*undone as usize);
            }
            _ => {}
        }
    }
    Ok(game)
}
