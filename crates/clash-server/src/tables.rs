//! Tables in play: each holds one game of any ruleset, its links, its table log and its server
//! secret; the registry holds the tables in use and reads the others back from their log when
//! they are next asked for.
//!
//! A table's state sits behind its own async lock, held from the moment a change is checked
//! until it is committed, so commands and seat changes to one table are applied strictly one
//! after another and in log order, while other tables go on undisturbed. Who a key is (its role,
//! the seat it plays, what it may see) is decided under that same lock, on every request and on
//! every push to a live stream: a right that has ended cannot be used by a request racing the
//! change that ended it. What a viewer then sees is computed from the snapshot taken under the
//! lock, after it is released (see [`crate::snapshot`]). Rules engines run on the blocking
//! thread pool, never on the threads that serve requests.
//!
//! A table nobody has used for a while, with no open stream and no request in flight, leaves
//! memory ([`Tables::sweep`]); memory grows with the tables in use, not the tables stored, and
//! starting the server reads none of them.
//!
//! A change is carried out by a task of its own, so a client that hangs up (or a request that
//! runs out of time) cannot leave a change committed to the database but not to memory.
//!
//! When several nodes share the database, a table in memory can fall behind what another node
//! stored. News of their changes marks the table behind and wakes its streams; whoever takes the
//! lock next reads the new log entries and takes them in ([`Table::catch_up`]). A request first
//! checks the table's head in the database, so it sees a change made through another node even
//! before the news arrives. A change that still loses the race for the next log position writes
//! nothing; the table catches up and a command is decided again.

use std::collections::HashMap;
use std::future::Future;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex as StdMutex};
use std::time::{Duration, Instant};

use clash_core::{
    AnyGame, ChanceInputs, DerivedRandomness, Draw, GameError, Randomness, Recorder, RulesetEntry,
    Seat, SeededRandomness,
};
use serde_json::Value;
use tokio::sync::{Mutex, MutexGuard, OnceCell, watch};

use crate::config::Limits;
use crate::error::{ApiError, Conflict};
use crate::links::{Role, new_key, new_secret, new_table_id, plain_word};
use crate::log::{
    Chainer, Chance, CommandEntry, Entry, Sender, TableEvent, canonical, commitment, hex,
};
use crate::metrics::Metrics;
use crate::play::{Access, Holder, Item, Play, SeatInfo, Sent, contributor};
use crate::rate::CreationLimit;
use crate::setups::{Preset, presets};
use crate::snapshot::{Meta, Receipt, Snapshot};
use crate::store::{LinkChange, LinkStatus, Notice, Store, StoredCommand, StoredLink, Write};
use crate::work::{self, Kind};

/// Every table this server holds in memory, and the database behind them.
pub struct Tables {
    store: Store,
    catalogue: Vec<RulesetEntry>,
    /// Each ruleset's ready-made setups, checked once.
    presets: HashMap<&'static str, Vec<Preset>>,
    limits: Limits,
    metrics: Arc<Metrics>,
    creation: CreationLimit,
    /// Tables in memory, or being read back (every asker waits for the one read).
    loaded: StdMutex<HashMap<String, Slot>>,
    /// Flips to true when the server shuts down, so open live streams end.
    closing: watch::Sender<bool>,
    /// Where `Table::last_used` counts from.
    epoch: Instant,
    /// News heard from other nodes so far (a table read meanwhile may have missed some).
    heard: AtomicU64,
}

type Slot = Arc<OnceCell<Arc<Table>>>;

/// One table.
pub struct Table {
    pub id: String,
    pub ruleset: &'static str,
    pub title: String,
    pub meta: Arc<Meta>,
    /// The seed of a legacy table's chance.
    legacy_seed: u64,
    play: Mutex<Play>,
    /// The revision, for live streams to wait on.
    changed: watch::Sender<u64>,
    /// Milliseconds after the registry's epoch when the table was last asked for.
    last_used: AtomicU64,
    watching: StdMutex<Watching>,
    /// Who has the table open right now (not stored: it is about connections, not the game).
    pub presence: Arc<crate::presence::Presence>,
    /// Where the table is stored and its ruleset, to catch up with other nodes' changes.
    source: Source,
    /// Another node changed the table since memory last read it: catch up before using it.
    behind: std::sync::atomic::AtomicBool,
    /// A bot runner works for this table (see [`crate::bots`]).
    pub(crate) bots_running: AtomicBool,
}

/// Where a table is stored, and its ruleset.
#[derive(Clone)]
struct Source {
    store: Store,
    entry: RulesetEntry,
}

/// Live streams open on a table, by key.
#[derive(Default)]
struct Watching {
    by_key: HashMap<String, usize>,
    total: usize,
}

/// A freshly created table's links.
pub struct Created {
    pub table: Arc<Table>,
    pub owner_key: String,
    pub spectator_key: String,
}

/// A command as a client sent it.
#[derive(Clone)]
pub struct CommandRequest {
    pub key: String,
    pub as_seat: Option<Seat>,
    pub command: Value,
    /// The client's id for this command; a retry with the same id is answered, not applied.
    pub id: Option<String>,
    /// The table revision the client last saw: refused if this seat acted since.
    pub revision: Option<usize>,
    /// Ask first: a command the rules call weighty is refused with its question (`confirm`)
    /// instead of applied, so the page can ask and send it again without `ask`.
    pub ask: bool,
}

/// What a request is answered with: a viewer's update at the snapshot, with the log lines from
/// `after` (computed once the table's lock is released).
pub struct Answer {
    pub snapshot: Arc<Snapshot>,
    pub access: Access,
    pub after: usize,
    pub receipt: Option<Receipt>,
}

impl Answer {
    /// The update as JSON.
    pub async fn text(&self, metrics: &Metrics) -> Result<String, ApiError> {
        self.snapshot
            .update_text(&self.access, self.after, self.receipt.as_ref(), metrics)
            .await
    }
}

/// What a live stream sends next.
pub enum Push {
    /// The table as it stands, for rights that still hold.
    Snapshot(Arc<Snapshot>),
    /// The key's rights changed: what it saw is no longer what it may see.
    Changed { message: String },
    /// The key no longer works.
    Revoked,
    /// The GM deleted the table.
    Deleted,
}

/// Which shared link to replace.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SharedLink {
    Owner,
    Spectator,
}

/// A live stream's place at its table; dropping it frees the place.
pub struct StreamTicket {
    table: Arc<Table>,
    key: Option<String>,
    metrics: Arc<Metrics>,
}

impl Drop for StreamTicket {
    fn drop(&mut self) {
        let mut w = self.table.watching();
        w.total = w.total.saturating_sub(1);
        if let Some(key) = &self.key
            && let Some(n) = w.by_key.get_mut(key)
        {
            *n -= 1;
            if *n == 0 {
                w.by_key.remove(key);
            }
        }
        self.metrics.streams_open.dec();
    }
}

/// Run a change as a task of its own: the caller may stop waiting, the change still finishes
/// (its commit and its note in memory go together).
async fn detached<T: Send + 'static>(
    work: impl Future<Output = Result<T, ApiError>> + Send + 'static,
) -> Result<T, ApiError> {
    tokio::spawn(work).await.unwrap_or_else(|e| {
        tracing::error!(error = %e, "a table change failed");
        Err(ApiError::Unreadable(
            "the change failed inside the server".into(),
        ))
    })
}

fn storage(e: impl std::fmt::Display) -> ApiError {
    ApiError::storage(format!(
        "the change was not saved, so it did not happen: {e}"
    ))
}

impl Tables {
    /// A registry over `store`. Nothing is read from it until a table is asked for.
    pub fn new(store: Store, catalogue: Vec<RulesetEntry>, limits: Limits) -> Tables {
        let presets = catalogue.iter().map(|e| (e.id, presets(e))).collect();
        Tables {
            store,
            presets,
            creation: CreationLimit::new(&limits),
            catalogue,
            limits,
            metrics: Arc::new(Metrics::new()),
            loaded: StdMutex::new(HashMap::new()),
            closing: watch::Sender::new(false),
            epoch: Instant::now(),
            heard: AtomicU64::new(0),
        }
    }

    fn source(&self, entry: RulesetEntry) -> Source {
        Source {
            store: self.store.clone(),
            entry,
        }
    }

    /// News from other nodes sharing the database: a loaded table they changed catches up
    /// (and wakes its streams); after a lost connection, every loaded table does.
    pub fn notice(&self, notice: Notice) {
        self.heard.fetch_add(1, Ordering::AcqRel);
        let map = self.map();
        let loaded = map.iter().filter_map(|(id, slot)| Some((id, slot.get()?)));
        for (id, table) in loaded {
            match &notice {
                Notice::Changed(changed) if changed == id => table.fall_behind(),
                Notice::Resync => table.fall_behind(),
                Notice::Presence {
                    node,
                    table: which,
                    counts,
                } if which == id => {
                    table.presence.set_elsewhere(node, counts.clone());
                    table.announce();
                }
                _ => {}
            }
        }
    }

    /// Follow the news of the database until it ends (a backend only this node writes has none).
    pub async fn follow(self: Arc<Self>) {
        let Some(mut notices) = self.store.notices() else {
            return;
        };
        while let Some(notice) = notices.recv().await {
            if notice == Notice::Resync {
                tracing::warn!("the database's news was interrupted: open tables catch up");
            }
            self.notice(notice);
        }
    }

    fn map(&self) -> std::sync::MutexGuard<'_, HashMap<String, Slot>> {
        // A panic while holding this lock cannot leave the map half-changed (each change is one
        // insert or remove).
        self.loaded.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn now(&self) -> u64 {
        self.epoch.elapsed().as_millis() as u64
    }

    /// End every live stream (the server is stopping).
    pub fn close(&self) {
        self.closing.send_replace(true);
    }

    pub fn closing(&self) -> watch::Receiver<bool> {
        self.closing.subscribe()
    }

    pub fn store(&self) -> &Store {
        &self.store
    }

    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    pub fn metrics(&self) -> &Arc<Metrics> {
        &self.metrics
    }

    pub fn creation(&self) -> &CreationLimit {
        &self.creation
    }

    pub fn catalogue(&self) -> &[RulesetEntry] {
        &self.catalogue
    }

    pub fn entry(&self, ruleset: &str) -> Option<RulesetEntry> {
        self.catalogue.iter().find(|e| e.id == ruleset).copied()
    }

    /// The ready-made setups of `ruleset`, best first.
    pub fn presets(&self, ruleset: &str) -> &[Preset] {
        self.presets.get(ruleset).map_or(&[], Vec::as_slice)
    }

    /// Tables in memory now.
    pub fn loaded(&self) -> usize {
        self.map().values().filter(|s| s.initialized()).count()
    }

    /// The table `id`, read back from its log if it is not in memory.
    pub async fn get(self: &Arc<Self>, id: &str) -> Result<Arc<Table>, ApiError> {
        if !plain_word(id, 64) {
            return Err(ApiError::unknown_table(id));
        }
        let slot = self.map().entry(id.to_string()).or_default().clone();
        let mut loaded = false;
        let found = slot
            .get_or_try_init(|| {
                loaded = true;
                self.load(id)
            })
            .await;
        match found {
            Ok(table) => {
                table.last_used.store(self.now(), Ordering::Relaxed);
                // A table read back with bots in its seats: they go on where they were.
                if loaded && table.seated_bots() {
                    self.run_bots(table);
                }
                Ok(table.clone())
            }
            Err(e) => {
                // Forget the empty slot, so unknown ids leave nothing behind.
                let mut map = self.map();
                if map
                    .get(id)
                    .is_some_and(|s| Arc::ptr_eq(s, &slot) && !s.initialized())
                {
                    map.remove(id);
                }
                Err(e)
            }
        }
    }

    /// Read a table back from its log (on the blocking pool: a long log takes a while).
    async fn load(&self, id: &str) -> Result<Arc<Table>, ApiError> {
        let stored = self
            .store
            .load_table(id)
            .await
            .map_err(|e| ApiError::storage(e.to_string()))?
            .ok_or_else(|| ApiError::unknown_table(id))?;
        let entry = self.entry(&stored.ruleset).ok_or_else(|| {
            ApiError::Unreadable(format!("this server has no ruleset {:?}", stored.ruleset))
        })?;
        let id = id.to_string();
        let heard = self.heard.load(Ordering::Acquire);
        let source = self.source(entry);
        let table = work::run(Kind::Read, move || Table::rebuild(&entry, stored, source))
            .await?
            .map_err(|e| {
                tracing::error!(table = %id, error = %e, "a stored table does not replay");
                ApiError::Unreadable(e)
            })?;
        if self.heard.load(Ordering::Acquire) != heard {
            // News came while the table was read: it may be about this table.
            table.behind.store(true, Ordering::Release);
        }
        self.metrics.table_loads.inc();
        self.metrics.tables_loaded.inc();
        tracing::debug!(table = %table.id, "table read back from its log");
        Ok(Arc::new(table))
    }

    /// Let idle tables leave memory: those unused for `idle`, then the least recently used
    /// beyond [`Limits::max_loaded`]. A table with an open stream or a request in flight stays.
    /// Returns how many left.
    pub fn unload_idle(&self, idle: Duration) -> usize {
        let now = self.now();
        let idle_ms = idle.as_millis() as u64;
        let mut map = self.map();
        // Only the map holds the slot and only the slot holds the table: nobody is using it.
        let mut free: Vec<(u64, String)> = map
            .iter()
            .filter(|(_, slot)| Arc::strong_count(slot) == 1)
            .filter_map(|(id, slot)| {
                let table = slot.get()?;
                (Arc::strong_count(table) == 1)
                    .then(|| (table.last_used.load(Ordering::Relaxed), id.clone()))
            })
            .collect();
        free.sort();
        let over = map.len().saturating_sub(self.limits.max_loaded);
        let mut gone = 0;
        for (i, (used, id)) in free.into_iter().enumerate() {
            if i < over || now.saturating_sub(used) >= idle_ms {
                map.remove(&id);
                gone += 1;
            }
        }
        drop(map);
        if gone > 0 {
            self.metrics.table_unloads.inc_by(gone as u64);
            self.metrics.tables_loaded.dec_by(gone as i64);
            tracing::debug!(tables = gone, "idle tables left memory");
        }
        gone
    }

    /// The periodic clean-up: idle tables leave memory; the rate limiter forgets quiet addresses;
    /// with other nodes on the database, each table open here is told to them again, and what
    /// they have not repeated for three sweeps is forgotten (a node that died).
    pub fn sweep(&self) {
        self.unload_idle(self.limits.idle_unload);
        self.creation.forget_idle();
        if self.store.shared() {
            let tables: Vec<Arc<Table>> = self
                .map()
                .values()
                .filter_map(|s| s.get().cloned())
                .collect();
            for table in tables {
                let local = table.presence.local();
                if !local.is_empty() {
                    self.store.tell_presence(&table.id, &local);
                }
                if table.presence.forget_quiet(self.limits.sweep_every * 3) {
                    table.announce();
                }
            }
        }
    }

    /// Create a table: check the setup, draw the server secret, store it with the log's first
    /// entry (which carries the secret's commitment), and hand out the owner's and the
    /// spectators' links.
    pub async fn create(
        self: &Arc<Self>,
        ruleset: &str,
        title: &str,
        setup: Value,
    ) -> Result<Created, ApiError> {
        let entry = self.entry(ruleset).ok_or_else(|| {
            let known: Vec<&str> = self.catalogue.iter().map(|e| e.id).collect();
            ApiError::malformed(format!(
                "unknown ruleset {ruleset:?}; this server has: {}",
                known.join(", ")
            ))
        })?;
        let title = match title.trim() {
            "" => format!("{} table", entry.name),
            t if t.chars().count() > TITLE_LIMIT => {
                return Err(ApiError::malformed(format!(
                    "a table name is at most {TITLE_LIMIT} characters"
                )));
            }
            t => t.to_string(),
        };
        // Checking a setup is the ruleset's work: off the threads that serve requests.
        let checked = setup.clone();
        let game = work::run(Kind::Read, move || (entry.new_game)(&checked))
            .await?
            .map_err(|e| match e {
                GameError::Malformed { detail, .. } => {
                    ApiError::malformed(format!("the setup does not fit {}: {detail}", entry.id))
                }
                other => ApiError::game(other),
            })?;
        let tables = self.clone();
        detached(async move { tables.create_table(entry, title, setup, game).await }).await
    }

    async fn create_table(
        &self,
        entry: RulesetEntry,
        title: String,
        setup: Value,
        game: Box<dyn AnyGame>,
    ) -> Result<Created, ApiError> {
        let (owner_key, spectator_key) = (new_key(), new_key());
        let links = vec![
            StoredLink {
                key: owner_key.clone(),
                role: Role::Owner.to_string(),
                status: LinkStatus::Active,
            },
            StoredLink {
                key: spectator_key.clone(),
                role: Role::Spectator.to_string(),
                status: LinkStatus::Active,
            },
        ];
        let id = new_table_id();
        let secret = new_secret();
        let meta = Arc::new(Meta {
            id: id.clone(),
            ruleset: entry.id,
            title: title.clone(),
            commitment: hex(&commitment(&secret)),
            chance: Chance::V1,
            secret: secret.clone(),
        });
        let created = TableEvent::Created {
            ruleset: entry.id.into(),
            title: title.clone(),
            setup: setup.clone(),
            commitment: meta.commitment.clone(),
            chance: Chance::V1,
        };
        // The game's opening (what happens by itself before anyone acts) follows the creation.
        let opening = game.events_json(0);
        let mut entries = vec![Entry::Table {
            event: created.clone(),
        }];
        entries.extend(opening.into_iter().map(|event| Entry::Event { event }));
        let mut chainer = Chainer {
            secret: &secret,
            table: &id,
            head: [0; 32],
            next: 0,
        };
        let log: Vec<_> = entries.iter().map(|e| chainer.push(e)).collect();
        self.store
            .write(Write::CreateTable {
                id: id.clone(),
                ruleset: entry.id.into(),
                title: title.clone(),
                setup,
                secret: secret.clone(),
                links: links.clone(),
                log,
            })
            .await
            .map_err(storage)?;
        let mut play = Play::fresh(game, meta.clone(), links);
        play.head = chainer.head;
        note_entries(&mut play, &entries);
        play.refresh(meta.clone());
        let table = Arc::new(Table::new(meta, 0, play, self.source(entry)));
        table.last_used.store(self.now(), Ordering::Relaxed);
        self.map()
            .insert(id, Arc::new(OnceCell::new_with(Some(table.clone()))));
        self.metrics.tables_created.inc();
        self.metrics.tables_loaded.inc();
        tracing::info!(table = %table.id, ruleset = entry.id, "table created");
        Ok(Created {
            table,
            owner_key,
            spectator_key,
        })
    }

    /// Apply a command; acknowledged only once it and its events are committed. A command whose
    /// id was applied before is answered again without being applied.
    pub async fn command(
        self: &Arc<Self>,
        table: &Arc<Table>,
        request: CommandRequest,
    ) -> Result<Answer, ApiError> {
        let started = Instant::now();
        let mut tries = 0;
        let answer = loop {
            let (tables, table, request) = (self.clone(), table.clone(), request.clone());
            match detached(async move { tables.apply_command(&table, request).await }).await {
                // Another node stored a change first and memory has caught up: decide again
                // (a retry of the same command id is then answered as already applied).
                Err(ApiError::Conflict {
                    conflict: Conflict::Raced,
                    ..
                }) if tries < RACE_RETRIES => tries += 1,
                other => break other?,
            }
        };
        if answer.receipt.as_ref().is_some_and(|r| !r.duplicate) {
            self.metrics.commands.inc();
            self.metrics
                .command_seconds
                .observe(started.elapsed().as_secs_f64());
        }
        Ok(answer)
    }

    async fn apply_command(
        &self,
        table: &Table,
        request: CommandRequest,
    ) -> Result<Answer, ApiError> {
        let mut play = table.lock_current().await?;
        let access = play.access(&request.key, request.as_seat)?;
        let seat = access.seat.ok_or_else(|| match access.suspended {
            true => ApiError::forbidden(
                "the GM plays your seat for now; you can watch until it is handed back",
            ),
            false => ApiError::forbidden("this link can only watch; it cannot send commands"),
        })?;
        if let Some(answer) = repeated(&play, &access, seat, &request)? {
            return Ok(answer);
        }
        if play.closed {
            return Err(ApiError::conflict(
                Conflict::Closed,
                "this table has ended: it takes no more commands",
            ));
        }
        play.check_in_play()?;
        if let (Some(seen), Some((_, at))) = (request.revision, play.last.get(&seat))
            && *at >= seen
        {
            return Err(ApiError::conflict(
                Conflict::Stale,
                format!(
                    "{seat} has acted since revision {seen} (at {at}); look at the table again before sending this"
                ),
            ));
        }
        let by = if access.role == Role::Owner {
            Sender::Gm
        } else {
            Sender::Player
        };
        let sending = Sending {
            seat,
            by,
            command: &request.command,
            id: request.id.clone(),
            ask: request.ask,
        };
        let (n, pos) = self.commit_command(table, &mut play, sending).await?;
        let snapshot = play.snapshot.clone();
        drop(play);
        table.announce();
        Ok(Answer {
            snapshot,
            access,
            after: pos,
            receipt: Some(Receipt {
                n,
                id: request.id,
                duplicate: false,
            }),
        })
    }

    /// Decide a command from `seat` on a copy of the game, commit it with its events (and the
    /// end of the table, if the game is over), then take it into memory. The caller holds the
    /// table's lock and has checked who may send it. Returns its number and log position.
    pub(crate) async fn commit_command(
        &self,
        table: &Table,
        play: &mut Play,
        sending: Sending<'_>,
    ) -> Result<(u64, usize), ApiError> {
        let Sending {
            seat,
            by,
            command,
            id,
            ask,
        } = sending;
        let n = play.commands;
        let (game, events, draws) = table.decide(play, seat, command, n).await?;
        // A page that asks first: a weighty command the rules would take is put to the player
        // as a question instead (the decision above was made on a copy and is dropped).
        if ask && let Some(question) = play.game.confirm(seat, command) {
            return Err(ApiError::conflict(Conflict::Confirm, question));
        }
        let mut entries = vec![Entry::Command(CommandEntry {
            n,
            seat,
            by,
            id: id.clone(),
            command: command.clone(),
            draws,
        })];
        entries.extend(events.into_iter().map(|event| Entry::Event { event }));
        // A game that is over ends its table, and the secret is revealed with the last command.
        if let Some(how) = game.status().over {
            entries.push(Entry::Table {
                event: TableEvent::GameOver { how },
            });
            entries.push(Entry::Table {
                event: TableEvent::SecretRevealed {
                    secret: hex(&table.meta.secret),
                },
            });
        }
        let pos = play.revision();
        let stored = StoredCommand {
            n,
            seat: seat.to_string(),
            command: command.clone(),
            id: id.clone(),
        };
        let change = Change {
            entries,
            command: Some(stored),
            links: Vec::new(),
            game: Some(game),
        };
        self.append(table, play, change).await?;
        play.commands += 1;
        play.last.insert(seat, (by, pos));
        if let Some(id) = id {
            let command = canonical(command);
            play.ids.insert(
                id,
                Sent {
                    seat,
                    command,
                    pos,
                    n,
                },
            );
        }
        play.refresh(table.meta.clone());
        Ok((n, pos))
    }

    /// Hash the change's entries onto the log, commit them (with the command row and link
    /// changes), and only then take them into memory. The caller holds the table's lock. If the
    /// commit fails, memory is read back from the database (it may hold less than memory).
    pub(crate) async fn append(
        &self,
        table: &Table,
        play: &mut Play,
        change: Change,
    ) -> Result<(), ApiError> {
        let mut chainer = Chainer {
            secret: &table.meta.secret,
            table: &table.id,
            head: play.head,
            next: play.revision() as u64,
        };
        let log: Vec<_> = change.entries.iter().map(|e| chainer.push(e)).collect();
        let write = Write::Append {
            table_id: table.id.clone(),
            log,
            command: change.command,
            links: change.links.clone(),
        };
        if let Err(e) = self.store.write(write).await {
            if e.raced {
                // Another node stored a change first: take it in; the caller decides again.
                tracing::debug!(table = %table.id, "raced another node for the log");
                if let Err(e) = table.catch_up(play).await {
                    tracing::warn!(table = %table.id, error = %e, "catching up failed");
                    self.reload(table, play).await;
                }
                table.announce();
                return Err(ApiError::conflict(
                    Conflict::Raced,
                    "another server changed this table at the same moment; look at the table again",
                ));
            }
            tracing::error!(table = %table.id, error = %e, "a change was not stored");
            self.reload(table, play).await;
            return Err(storage(e));
        }
        play.head = chainer.head;
        if let Some(game) = change.game {
            play.game = Arc::from(game);
        }
        note_entries(play, &change.entries);
        for link in change.links {
            play.change_link(link);
        }
        Ok(())
    }

    /// Replace memory with what the database holds (after a failed write).
    async fn reload(&self, table: &Table, play: &mut Play) {
        let fresh = match self.store.load_table(&table.id).await {
            Ok(Some(stored)) => self
                .entry(&stored.ruleset)
                .ok_or_else(|| "its ruleset is gone".to_string())
                .and_then(|entry| Play::rebuild(&entry, stored, table.meta.clone())),
            Ok(None) => Err("it is missing from the database".into()),
            Err(e) => Err(e.to_string()),
        };
        match fresh {
            Ok(mut fresh) => {
                fresh.presence = play.presence.clone();
                fresh.refresh(table.meta.clone());
                *play = fresh;
            }
            Err(e) => tracing::error!(table = %table.id, error = %e, "reading a table back failed"),
        }
        table.announce();
    }

    /// Record table events with their link changes, then wake every stream.
    pub(crate) async fn table_events(
        &self,
        table: &Table,
        play: &mut Play,
        events: Vec<TableEvent>,
        links: Vec<LinkChange>,
    ) -> Result<(), ApiError> {
        let change = Change {
            entries: events
                .into_iter()
                .map(|event| Entry::Table { event })
                .collect(),
            command: None,
            links,
            game: None,
        };
        self.append(table, play, change).await?;
        play.refresh(table.meta.clone());
        table.announce();
        Ok(())
    }

    /// The owner's lock on a table, for seat changes: refused after the table ended.
    pub(crate) async fn owner_play<'t>(
        &self,
        table: &'t Table,
        key: &str,
    ) -> Result<MutexGuard<'t, Play>, ApiError> {
        let play = table.lock_current().await?;
        if play.role(key)? != Role::Owner {
            return Err(ApiError::forbidden(
                "only the GM's link (the table's creator) can manage seats and links",
            ));
        }
        if play.closed {
            return Err(ApiError::conflict(Conflict::Closed, "this table has ended"));
        }
        Ok(play)
    }

    /// Run a seat or link change of `table` as a task of its own; a change that lost the race
    /// for the log to another node (several nodes on one database) is decided again once the
    /// table has caught up.
    pub(crate) async fn change<T: Send + 'static, F>(
        self: &Arc<Self>,
        table: &Arc<Table>,
        work: impl Fn(Arc<Tables>, Arc<Table>) -> F,
    ) -> Result<T, ApiError>
    where
        F: Future<Output = Result<T, ApiError>> + Send + 'static,
    {
        let mut tries = 0;
        loop {
            match detached(work(self.clone(), table.clone())).await {
                Err(ApiError::Conflict {
                    conflict: Conflict::Raced,
                    ..
                }) if tries < RACE_RETRIES => tries += 1,
                other => return other,
            }
        }
    }

    /// Issue a new invite for `seat`, ending any link, invite or GM play it had.
    pub async fn invite(
        self: &Arc<Self>,
        table: &Arc<Table>,
        key: &str,
        seat: Seat,
    ) -> Result<String, ApiError> {
        let key = key.to_string();
        self.change(table, move |tables, table| {
            let key = key.clone();
            async move {
                let mut play = tables.owner_play(&table, &key).await?;
                play.check_seat(table.ruleset, seat)?;
                play.guard_bot(seat, "give it a link")?;
                play.guard_secret(seat, "give the seat a new link")?;
                let invite = new_key();
                let changes = vec![
                    LinkChange::RemoveRole(seat.to_string()),
                    LinkChange::Add(StoredLink {
                        key: invite.clone(),
                        role: seat.to_string(),
                        status: LinkStatus::Invite,
                    }),
                ];
                let events = vec![TableEvent::InviteIssued { seat }];
                tables
                    .table_events(&table, &mut play, events, changes)
                    .await?;
                Ok(invite)
            }
        })
        .await
    }

    /// The GM takes `seat` over: a player's key is suspended (it watches) until handed back.
    pub async fn take_over(
        self: &Arc<Self>,
        table: &Arc<Table>,
        key: &str,
        seat: Seat,
    ) -> Result<(), ApiError> {
        let key = key.to_string();
        self.change(table, move |tables, table| {
            let key = key.clone();
            async move {
                let mut play = tables.owner_play(&table, &key).await?;
                play.check_seat(table.ruleset, seat)?;
                play.guard_bot(seat, "play it yourself")?;
                if play.holder(seat) == Holder::Npc {
                    return Err(ApiError::conflict(
                        Conflict::NoChange,
                        format!("the GM already plays {}", play.game.seat_name(seat)),
                    ));
                }
                play.guard_secret(seat, "take the seat over")?;
                let mut changes: Vec<LinkChange> = play
                    .links
                    .iter()
                    .filter(|l| l.role == seat.to_string())
                    .map(|link| match link.status {
                        LinkStatus::Active => LinkChange::SetStatus {
                            key: link.key.clone(),
                            status: LinkStatus::Suspended,
                        },
                        _ => LinkChange::Remove(link.key.clone()),
                    })
                    .collect();
                changes.push(LinkChange::Add(StoredLink {
                    key: new_key(),
                    role: seat.to_string(),
                    status: LinkStatus::Npc,
                }));
                let events = vec![TableEvent::TakenOver { seat }];
                tables
                    .table_events(&table, &mut play, events, changes)
                    .await
            }
        })
        .await
    }

    /// Give a seat the GM took over back to its player.
    pub async fn hand_back(
        self: &Arc<Self>,
        table: &Arc<Table>,
        key: &str,
        seat: Seat,
    ) -> Result<(), ApiError> {
        let key = key.to_string();
        self.change(table, move |tables, table| {
            let key = key.clone();
            async move {
                let mut play = tables.owner_play(&table, &key).await?;
                play.check_seat(table.ruleset, seat)?;
                play.guard_bot(seat, "give it back to its player")?;
                let role = seat.to_string();
                let suspended = play
                    .links
                    .iter()
                    .find(|l| l.role == role && l.status == LinkStatus::Suspended)
                    .map(|l| l.key.clone());
                let Some(player_key) = suspended else {
                    return Err(ApiError::conflict(
                        Conflict::NoChange,
                        format!(
                            "no player is waiting for {}: invite one instead",
                            play.game.seat_name(seat)
                        ),
                    ));
                };
                let mut changes: Vec<LinkChange> = play
                    .links
                    .iter()
                    .filter(|l| l.role == role && l.status == LinkStatus::Npc)
                    .map(|l| LinkChange::Remove(l.key.clone()))
                    .collect();
                changes.push(LinkChange::SetStatus {
                    key: player_key,
                    status: LinkStatus::Active,
                });
                let events = vec![TableEvent::HandedBack { seat }];
                tables
                    .table_events(&table, &mut play, events, changes)
                    .await
            }
        })
        .await
    }

    /// Revoke every link of `seat`: nobody plays it until it is given again.
    pub async fn revoke(
        self: &Arc<Self>,
        table: &Arc<Table>,
        key: &str,
        seat: Seat,
    ) -> Result<(), ApiError> {
        let key = key.to_string();
        self.change(table, move |tables, table| {
            let key = key.clone();
            async move {
                let mut play = tables.owner_play(&table, &key).await?;
                play.check_seat(table.ruleset, seat)?;
                play.guard_bot(seat, "revoke its link")?;
                if play.holder(seat) == Holder::Open {
                    // Nothing to revoke: already as asked.
                    return Ok(());
                }
                let changes = vec![LinkChange::RemoveRole(seat.to_string())];
                let events = vec![TableEvent::LinkRevoked { seat }];
                tables
                    .table_events(&table, &mut play, events, changes)
                    .await
            }
        })
        .await
    }

    /// Replace the GM's link or the watch link: the old key stops working at once (its open
    /// pages are told), and everyone's log says so.
    pub async fn replace_link(
        self: &Arc<Self>,
        table: &Arc<Table>,
        key: &str,
        which: SharedLink,
    ) -> Result<String, ApiError> {
        let key = key.to_string();
        self.change(table, move |tables, table| {
            let key = key.clone();
            async move {
                let mut play = table.lock_current().await?;
                if play.role(&key)? != Role::Owner {
                    return Err(ApiError::forbidden(
                        "only the GM's link can replace the GM's or the watch link",
                    ));
                }
                let role = match which {
                    SharedLink::Owner => Role::Owner,
                    SharedLink::Spectator => Role::Spectator,
                };
                let fresh = new_key();
                let changes = vec![
                    LinkChange::RemoveRole(role.to_string()),
                    LinkChange::Add(StoredLink {
                        key: fresh.clone(),
                        role: role.to_string(),
                        status: LinkStatus::Active,
                    }),
                ];
                let events = vec![TableEvent::LinkReplaced {
                    link: role.to_string(),
                }];
                tables
                    .table_events(&table, &mut play, events, changes)
                    .await?;
                Ok(fresh)
            }
        })
        .await
    }

    /// Exchange an invite for the player's own key.
    pub async fn claim(
        self: &Arc<Self>,
        table: &Arc<Table>,
        invite: &str,
    ) -> Result<(Seat, String), ApiError> {
        let invite = invite.to_string();
        self.change(table, move |tables, table| {
            let invite = invite.clone();
            async move {
                let mut play = table.lock_current().await?;
                let link = play.link(&invite).cloned().ok_or_else(ApiError::bad_key)?;
                let seat = match (link.status, link.role.parse::<Role>()) {
                    (LinkStatus::Invite, Ok(Role::Seat(seat))) => seat,
                    _ => {
                        return Err(ApiError::conflict(
                            Conflict::NotInvite,
                            "this link is not an unused invite",
                        ));
                    }
                };
                let key = new_key();
                let changes = vec![
                    LinkChange::Remove(invite),
                    LinkChange::Add(StoredLink {
                        key: key.clone(),
                        role: seat.to_string(),
                        status: LinkStatus::Active,
                    }),
                ];
                let events = vec![TableEvent::SeatClaimed { seat }];
                tables
                    .table_events(&table, &mut play, events, changes)
                    .await?;
                Ok((seat, key))
            }
        })
        .await
    }

    /// A client seed for chance from now on, from the GM's link or a seat's player.
    pub async fn add_seed(
        self: &Arc<Self>,
        table: &Arc<Table>,
        key: &str,
        seed: &str,
    ) -> Result<(), ApiError> {
        let (key, seed) = (key.to_string(), seed.to_string());
        self.change(table, move |tables, table| {
            let (key, seed) = (key.clone(), seed.clone());
            async move {
                let mut play = table.lock_current().await?;
                let access = play.access(&key, None)?;
                let by = contributor(&access)
                    .ok_or_else(|| ApiError::forbidden("only the GM and the players add seeds"))?;
                if !plain_word(&seed, 64) {
                    return Err(ApiError::malformed(
                        "a seed is 1 to 64 letters, digits, '-', '_', '.' or ':'",
                    ));
                }
                if play.closed {
                    return Err(ApiError::conflict(Conflict::Closed, "this table has ended"));
                }
                if play.seeds.get(&by).is_some_and(|s| *s == seed) {
                    return Ok(());
                }
                let events = vec![TableEvent::SeedAdded { by, seed }];
                tables
                    .table_events(&table, &mut play, events, Vec::new())
                    .await
            }
        })
        .await
    }

    /// End the table and reveal its secret.
    pub async fn close_table(
        self: &Arc<Self>,
        table: &Arc<Table>,
        key: &str,
    ) -> Result<(), ApiError> {
        let key = key.to_string();
        self.change(table, move |tables, table| {
            let key = key.clone();
            async move {
                let mut play = tables.owner_play(&table, &key).await?;
                let events = vec![
                    TableEvent::Closed,
                    TableEvent::SecretRevealed {
                        secret: hex(&table.meta.secret),
                    },
                ];
                tables
                    .table_events(&table, &mut play, events, Vec::new())
                    .await
            }
        })
        .await
    }

    /// Switch odds in play on or off (the GM only): a table event in the log, so the switch
    /// replays, exports and verifies with the table.
    pub async fn set_odds(
        self: &Arc<Self>,
        table: &Arc<Table>,
        key: &str,
        enabled: bool,
    ) -> Result<(), ApiError> {
        let key = key.to_string();
        self.change(table, move |tables, table| {
            let key = key.clone();
            async move {
                let mut play = table.lock_current().await?;
                if play.role(&key)? != Role::Owner {
                    return Err(ApiError::forbidden(
                        "only the GM (the table's owner) can switch odds on or off",
                    ));
                }
                if play.odds == enabled {
                    return Ok(());
                }
                let events = vec![TableEvent::OddsSwitched { enabled }];
                tables
                    .table_events(&table, &mut play, events, Vec::new())
                    .await
            }
        })
        .await
    }

    /// Delete the table and everything stored about it (the GM only). Open pages are told.
    pub async fn delete(self: &Arc<Self>, table: &Arc<Table>, key: &str) -> Result<(), ApiError> {
        let key = key.to_string();
        self.change(table, move |tables, table| {
            let key = key.clone();
            async move {
                let mut play = table.lock_current().await?;
                if play.role(&key)? != Role::Owner {
                    return Err(ApiError::forbidden(
                        "only the GM's link can delete the table",
                    ));
                }
                tables
                    .store
                    .write(Write::DeleteTable {
                        id: table.id.clone(),
                    })
                    .await
                    .map_err(storage)?;
                play.deleted = true;
                drop(play);
                if tables.map().remove(&table.id).is_some() {
                    tables.metrics.tables_loaded.dec();
                }
                table.announce();
                tracing::info!(table = %table.id, "table deleted");
                Ok(())
            }
        })
        .await
    }

    /// The table's record for `key`: see [`crate::export`].
    pub async fn export(&self, table: &Table, key: &str) -> Result<Value, ApiError> {
        let (access, snapshot) = {
            let play = table.lock_current().await?;
            (play.access(key, None)?, play.snapshot.clone())
        };
        // The database holds at least what the snapshot knows (memory follows the commit).
        let mut stored = self
            .store
            .read_log(&table.id)
            .await
            .map_err(|e| ApiError::storage(e.to_string()))?;
        stored.truncate(snapshot.revision());
        let meta = table.meta.clone();
        work::run(Kind::Read, move || {
            let (seen, game_pos) = snapshot.game_events(access.viewer);
            let source = crate::export::Source {
                table: &meta.id,
                secret: &meta.secret,
                commitment: &meta.commitment,
                chance: meta.chance,
                viewer: access.viewer,
                reader: crate::room::reader(&access),
                revealed: snapshot.revealed(),
                game_pos: &game_pos,
                seen: &seen,
            };
            crate::export::build(&source, &stored)
        })
        .await
    }

    /// Open a live stream's place at `table` for `key`, within the caps per key and per table
    /// (the spectators' key is shared by every spectator, so only the table's cap counts it).
    pub fn open_stream(
        &self,
        table: &Arc<Table>,
        key: &str,
        access: &Access,
    ) -> Result<StreamTicket, ApiError> {
        let mut w = table.watching();
        if w.total >= self.limits.streams_per_table {
            self.metrics.refuse("streams_per_table");
            return Err(ApiError::TooManyStreams(format!(
                "this table already has {} live pages open; close some",
                w.total
            )));
        }
        let counted = (access.role != Role::Spectator).then(|| key.to_string());
        if let Some(k) = &counted {
            let n = w.by_key.entry(k.clone()).or_insert(0);
            if *n >= self.limits.streams_per_key {
                self.metrics.refuse("streams_per_key");
                return Err(ApiError::TooManyStreams(format!(
                    "this link already has {n} live pages open; close some"
                )));
            }
            *n += 1;
        }
        w.total += 1;
        self.metrics.streams_open.inc();
        Ok(StreamTicket {
            table: table.clone(),
            key: counted,
            metrics: self.metrics.clone(),
        })
    }
}

/// The longest table name.
pub const TITLE_LIMIT: usize = 120;

/// How often a command that lost a race for the log to another node is decided again.
const RACE_RETRIES: u32 = 8;

/// A command on its way into the log: from which seat, sent by whom, and how.
pub(crate) struct Sending<'a> {
    pub seat: Seat,
    pub by: Sender,
    pub command: &'a Value,
    /// The client's command id, if it sent one.
    pub id: Option<String>,
    /// Refuse a weighty command with its question instead of applying it.
    pub ask: bool,
}

/// A change to commit: log entries, the command row behind them, link changes, and the game
/// after the command (if it was one).
pub(crate) struct Change {
    pub entries: Vec<Entry>,
    pub command: Option<StoredCommand>,
    pub links: Vec<LinkChange>,
    pub game: Option<Box<dyn AnyGame>>,
}

/// Take committed entries into memory: the log as memory keeps it, and what table events change.
fn note_entries(play: &mut Play, entries: &[Entry]) {
    let mut table_events = Vec::new();
    {
        let mut ledger = play.ledger.write().unwrap_or_else(|p| p.into_inner());
        for entry in entries {
            match entry {
                Entry::Command(c) => ledger.items.push(Item::Command {
                    n: c.n,
                    seat: c.seat,
                    chance: !c.draws.is_empty(),
                }),
                Entry::Event { .. } => {
                    // The game already holds the event (it decided it).
                    let pos = ledger.items.len();
                    ledger.game_pos.push(pos);
                    ledger.items.push(Item::Game);
                }
                Entry::Table { event } => {
                    table_events.push(event.clone());
                    // Memory needs only what readers see: the setup of `created` stays on disk.
                    ledger.items.push(Item::Table(event.public()));
                }
            }
        }
    }
    for event in &table_events {
        play.note(event);
    }
}

/// A command whose id was used before: answered again (not applied) when it is the same command
/// from the same seat, refused otherwise.
fn repeated(
    play: &Play,
    access: &Access,
    seat: Seat,
    request: &CommandRequest,
) -> Result<Option<Answer>, ApiError> {
    let Some(id) = &request.id else {
        return Ok(None);
    };
    if !plain_word(id, 100) {
        return Err(ApiError::malformed(
            "a command id is 1 to 100 letters, digits, '-', '_', '.' or ':'",
        ));
    }
    let Some(sent) = play.ids.get(id) else {
        return Ok(None);
    };
    if sent.seat != seat || sent.command != canonical(&request.command) {
        return Err(ApiError::conflict(
            Conflict::IdReused,
            format!("command id {id:?} was already used for a different command"),
        ));
    }
    Ok(Some(Answer {
        snapshot: play.snapshot.clone(),
        access: access.clone(),
        after: sent.pos,
        receipt: Some(Receipt {
            n: sent.n,
            id: Some(id.clone()),
            duplicate: true,
        }),
    }))
}

impl Table {
    fn new(meta: Arc<Meta>, legacy_seed: u64, play: Play, source: Source) -> Table {
        let revision = play.snapshot.revision() as u64;
        let presence = play.presence.clone();
        Table {
            presence,
            id: meta.id.clone(),
            ruleset: meta.ruleset,
            title: meta.title.clone(),
            meta,
            legacy_seed,
            play: Mutex::new(play),
            changed: watch::Sender::new(revision),
            last_used: AtomicU64::new(0),
            watching: StdMutex::new(Watching::default()),
            source,
            behind: std::sync::atomic::AtomicBool::new(false),
            bots_running: AtomicBool::new(false),
        }
    }

    /// Rebuild a stored table from its log.
    fn rebuild(
        entry: &RulesetEntry,
        stored: crate::store::StoredTable,
        source: Source,
    ) -> Result<Table, String> {
        let meta = Arc::new(Meta {
            id: stored.id.clone(),
            ruleset: entry.id,
            title: stored.title.clone(),
            commitment: hex(&commitment(&stored.secret)),
            chance: stored.chance,
            secret: stored.secret.clone(),
        });
        let legacy_seed = stored.seed;
        let play = Play::rebuild(entry, stored, meta.clone())?;
        Ok(Table::new(meta, legacy_seed, play, source))
    }

    fn watching(&self) -> std::sync::MutexGuard<'_, Watching> {
        self.watching.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The table's lock, with memory caught up with what other nodes stored; refused once the
    /// table is deleted.
    pub(crate) async fn lock(&self) -> Result<MutexGuard<'_, Play>, ApiError> {
        let mut play = self.play.lock().await;
        if self.behind.swap(false, Ordering::AcqRel)
            && let Err(e) = self.catch_up(&mut play).await
        {
            self.behind.store(true, Ordering::Release);
            return Err(e);
        }
        if play.deleted {
            return Err(ApiError::unknown_table(&self.id));
        }
        Ok(play)
    }

    /// The table's lock, with memory checked against a database shared with other nodes (one
    /// small query): a request that follows a change made through another node sees it, even
    /// before the news of it arrives.
    pub(crate) async fn lock_current(&self) -> Result<MutexGuard<'_, Play>, ApiError> {
        let mut play = self.lock().await?;
        if !self.source.store.shared() {
            return Ok(play);
        }
        let head = self
            .source
            .store
            .head(&self.id)
            .await
            .map_err(|e| ApiError::storage(e.to_string()))?;
        match head {
            None => {
                play.deleted = true;
                return Err(ApiError::unknown_table(&self.id));
            }
            Some(head) if head > play.revision() as u64 => self.catch_up(&mut play).await?,
            Some(_) => {}
        }
        Ok(play)
    }

    /// Tell the other nodes on the database who has this table open through this one.
    pub(crate) fn tell_presence(&self) {
        if self.source.store.shared() {
            self.source
                .store
                .tell_presence(&self.id, &self.presence.local());
        }
    }

    /// Another node changed the table: catch up when next used, and wake the streams (which
    /// use it at once).
    fn fall_behind(&self) {
        self.behind.store(true, Ordering::Release);
        self.announce();
    }

    /// Read what other nodes added to the log since memory last saw it, and take it in. The
    /// caller holds the lock.
    pub(crate) async fn catch_up(&self, play: &mut Play) -> Result<(), ApiError> {
        let from = play.revision();
        let tail = self
            .source
            .store
            .load_tail(&self.id, from as u64)
            .await
            .map_err(|e| ApiError::storage(e.to_string()))?;
        let Some(tail) = tail else {
            play.deleted = true;
            return Ok(());
        };
        let events = play
            .ledger
            .read()
            .unwrap_or_else(|p| p.into_inner())
            .game_pos
            .len();
        let (entry, game) = (self.source.entry, play.game.clone());
        let entries: Vec<Entry> = tail.log.iter().map(|(e, _)| e.clone()).collect();
        let game = work::run(Kind::Read, move || {
            let entries: Vec<&Entry> = entries.iter().collect();
            crate::play::replay_game(&entry, game.boxed_clone(), events, &[], from, &entries)
        })
        .await?
        .map_err(|e| {
            tracing::error!(table = %self.id, error = %e, "another node's change does not replay");
            ApiError::Unreadable(e)
        })?;
        if !tail.log.is_empty() {
            tracing::debug!(table = %self.id, entries = tail.log.len(), "caught up with another node");
        }
        play.catch_up(game, tail, self.meta.clone());
        Ok(())
    }

    /// Whether a bot sits at this table (as the table was read back: see [`crate::bots`]).
    fn seated_bots(&self) -> bool {
        self.play
            .try_lock()
            .map_or(true, |play| !play.bots.is_empty())
    }

    /// Count the table as used now (a bot acted), so it does not leave memory mid-game.
    pub(crate) fn touch(&self, tables: &Tables) {
        self.last_used.store(tables.now(), Ordering::Relaxed);
    }

    /// Wake every live stream of this table.
    pub(crate) fn announce(&self) {
        self.changed.send_modify(|r| *r += 1);
    }

    /// Decide command `n` on a copy of the game, on the blocking pool: the copy, its events and
    /// the draws it took. The game in memory is untouched until the command is committed.
    async fn decide(
        &self,
        play: &Play,
        seat: Seat,
        command: &Value,
        n: u64,
    ) -> Result<(Box<dyn AnyGame>, Vec<Value>, Vec<Draw>), ApiError> {
        let game = play.game.clone();
        let command = command.clone();
        let seeds: Vec<(String, String)> = play
            .seeds
            .iter()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        let (meta, legacy_seed) = (self.meta.clone(), self.legacy_seed);
        work::run(Kind::Decide, move || {
            let mut next = game.boxed_clone();
            let mut randomness: Box<dyn Randomness> = match meta.chance {
                Chance::V1 => Box::new(DerivedRandomness::new(&ChanceInputs {
                    secret: &meta.secret,
                    table: &meta.id,
                    command: n,
                    seeds: &seeds,
                })),
                Chance::Legacy => Box::new(SeededRandomness::for_command(legacy_seed, n)),
            };
            let mut recorder = Recorder::new(randomness.as_mut());
            let events = next.command(seat, &command, &mut recorder)?;
            let draws = recorder.draws;
            Ok((next, events, draws))
        })
        .await?
        .map_err(ApiError::game)
    }

    /// What `key` may do here now.
    pub async fn access(&self, key: &str, as_seat: Option<Seat>) -> Result<Access, ApiError> {
        self.lock_current().await?.access(key, as_seat)
    }

    /// What `key` sees now (acting `as_seat`), with the log lines from `after` on.
    pub async fn answer(
        &self,
        key: &str,
        as_seat: Option<Seat>,
        after: usize,
    ) -> Result<Answer, ApiError> {
        let play = self.lock_current().await?;
        let access = play.access(key, as_seat)?;
        Ok(Answer {
            snapshot: play.snapshot.clone(),
            access,
            after,
            receipt: None,
        })
    }

    /// The next thing for a live stream opened with `bound` rights: the table as it stands while
    /// the key still has exactly those rights, else the news that they changed. Decided under the
    /// same lock as every change of seat, so nothing taken for old rights goes out after it.
    pub async fn push(&self, key: &str, as_seat: Option<Seat>, bound: &Access) -> Push {
        let play = match self.lock().await {
            Ok(play) => play,
            Err(ApiError::UnknownTable(_)) => return Push::Deleted,
            Err(e) => {
                // The database is out of reach: show what memory holds; a later change retries.
                tracing::warn!(table = %self.id, error = %e, "a stream could not catch up");
                self.play.lock().await
            }
        };
        if play.deleted {
            return Push::Deleted;
        }
        match play.access(key, as_seat) {
            Ok(now) if now == *bound => Push::Snapshot(play.snapshot.clone()),
            Ok(now) => Push::Changed {
                message: change_message(bound, &now, play.game.as_ref()),
            },
            Err(ApiError::BadKey) => Push::Revoked,
            Err(_) => Push::Changed {
                message: match bound.seat {
                    Some(s) => format!(
                        "you no longer play {} from this page",
                        play.game.seat_name(s)
                    ),
                    None => "what this link may see has changed".into(),
                },
            },
        }
    }

    /// Who holds each seat; the owner also sees unused invites.
    pub async fn seat_list(&self, owner: bool) -> Vec<SeatInfo> {
        self.play.lock().await.seat_list(owner)
    }

    /// The owner's and the spectators' keys (for the owner's page).
    pub async fn key_of(&self, role: Role) -> Option<String> {
        self.play.lock().await.key_of(role)
    }

    /// A receiver that wakes on every change to this table.
    pub fn watch(&self) -> watch::Receiver<u64> {
        self.changed.subscribe()
    }

    pub async fn event_count(&self) -> usize {
        self.play.lock().await.revision()
    }
}

/// Why a stream's rights changed, in words for its page.
fn change_message(before: &Access, now: &Access, game: &dyn AnyGame) -> String {
    match (before.seat, now.seat, now.suspended) {
        (_, _, true) => {
            "The GM has taken over your seat; this page now only watches until it is handed back."
                .into()
        }
        (None, Some(_), _) if before.suspended => "Your seat is yours again.".into(),
        (Some(s), _, _) if before.role == Role::Owner => {
            format!(
                "You no longer play {}: it went back to a player or changed hands.",
                game.seat_name(s)
            )
        }
        _ => "What this link may see has changed.".into(),
    }
}
