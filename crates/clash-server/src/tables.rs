//! The registry: the tables this server holds in memory, and the database behind them. The
//! services that work on tables (executor, bots, notifier, metrics) are the [`crate::server`]'s.
//!
//! A table is read back from its log when it is first asked for ([`Tables::fetch`], through
//! [`crate::server::Server::table`]); a table nobody has used for a while, with no open stream
//! and no request in flight, leaves memory ([`Tables::sweep`]): memory grows with the tables in
//! use, not the tables stored, and starting the server reads none of them. What one table holds and how it is locked is in
//! [`crate::table`]; every change to a table goes through [`crate::executor`].
//!
//! When several nodes share the database, news of their changes marks a loaded table behind and
//! wakes its streams ([`Tables::notice`]); whoever takes its lock next catches up.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex as StdMutex};
use std::time::{Duration, Instant};

use clash_core::{AnyGame, GameError, RulesetEntry};
use serde_json::Value;
use tokio::sync::{OnceCell, watch};

use crate::config::Limits;
use crate::error::TableError;
use crate::log::{Chainer, Chance, Entry, TableEvent, commitment, hex};
use crate::metrics::Metrics;
use crate::setups::{Preset, presets};
use crate::store::{LinkStatus, Notice, Store, StoredLink, Write};
use crate::table::links::{Role, new_key, new_secret, new_table_id, plain_word};
use crate::table::play::Play;
use crate::table::{Table, TableSource};
use crate::view::snapshot::Meta;
use crate::work::{self, Pool, detached};

/// Every table this server holds in memory, and the database behind them.
pub struct Tables {
    store: Store,
    catalogue: Vec<RulesetEntry>,
    /// Each ruleset's ready-made setups, checked once.
    presets: HashMap<&'static str, Vec<Preset>>,
    limits: Limits,
    /// The server's metrics, where the registry counts tables read, created and let go.
    metrics: Arc<Metrics>,
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

/// A freshly created table's links.
pub struct NewTable {
    pub table: Arc<Table>,
    pub owner_key: String,
    pub spectator_key: String,
}

/// The longest table name.
pub const TITLE_LIMIT: usize = 120;

/// A table name as given: trimmed, 1 to [`TITLE_LIMIT`] characters, no control characters
/// (which could hide or reorder what surrounds the name on a page).
pub fn table_title(text: &str) -> Result<String, TableError> {
    let title = text.trim();
    if title.is_empty() || title.chars().count() > TITLE_LIMIT {
        return Err(TableError::malformed(format!(
            "a table's name is 1 to {TITLE_LIMIT} characters"
        )));
    }
    clash_core::text::plain_name("a table's name", title).map_err(TableError::malformed)?;
    Ok(title.to_string())
}

impl Tables {
    /// A registry over `store`. Nothing is read from it until a table is asked for.
    pub fn new(
        store: Store,
        catalogue: Vec<RulesetEntry>,
        limits: Limits,
        metrics: Arc<Metrics>,
    ) -> Tables {
        let presets = catalogue.iter().map(|e| (e.id, presets(e))).collect();
        Tables {
            store,
            presets,
            catalogue,
            limits,
            metrics,
            loaded: StdMutex::new(HashMap::new()),
            closing: watch::Sender::new(false),
            epoch: Instant::now(),
            heard: AtomicU64::new(0),
        }
    }

    fn source(&self, entry: RulesetEntry) -> TableSource {
        TableSource {
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

    /// The table `id`, read back from its log if it is not in memory; says whether it was read
    /// back now ([`crate::server::Server::table`] starts its bots then).
    pub(crate) async fn fetch(&self, id: &str) -> Result<(Arc<Table>, bool), TableError> {
        if !plain_word(id, 64) {
            return Err(TableError::unknown_table(id));
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
                Ok((table.clone(), loaded))
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
    async fn load(&self, id: &str) -> Result<Arc<Table>, TableError> {
        let stored = self
            .store
            .load_table(id)
            .await
            .map_err(|e| TableError::storage(e.to_string()))?
            .ok_or_else(|| TableError::unknown_table(id))?;
        let entry = self
            .entry(&stored.ruleset)
            .ok_or_else(|| TableError::RulesetUnavailable(stored.ruleset.clone()))?;
        let id = id.to_string();
        let heard = self.heard.load(Ordering::Acquire);
        let source = self.source(entry);
        let table = work::run(Pool::Read, move || Table::rebuild(&entry, stored, source))
            .await?
            .map_err(|e| {
                tracing::error!(table = %id, error = %e, "a stored table does not replay");
                TableError::Unreadable(e)
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

    /// The periodic clean-up: idle tables leave memory; with other nodes on the database, each table open here is told to them again, and what
    /// they have not repeated for three sweeps is forgotten (a node that died).
    pub fn sweep(&self) {
        self.unload_idle(self.limits.idle_unload);
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
    ) -> Result<NewTable, TableError> {
        let entry = self.entry(ruleset).ok_or_else(|| {
            let known: Vec<&str> = self.catalogue.iter().map(|e| e.id).collect();
            TableError::malformed(format!(
                "unknown ruleset {ruleset:?}; this server has: {}",
                known.join(", ")
            ))
        })?;
        let title = match title.trim() {
            "" => format!("{} table", entry.name),
            given => table_title(given)?,
        };
        // Checking a setup is the ruleset's work: off the threads that serve requests.
        let checked = setup.clone();
        let game = work::run(Pool::Read, move || (entry.new_game)(&checked))
            .await?
            .map_err(|e| match e {
                GameError::Malformed { detail, .. } => {
                    TableError::malformed(format!("the setup does not fit {}: {detail}", entry.id))
                }
                other => TableError::game(other),
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
    ) -> Result<NewTable, TableError> {
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
        let log_hashes: Vec<_> = log.iter().map(|(_, _, hash)| *hash).collect();
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
            .map_err(|e| TableError::storage(format!("the table was not saved: {e}")))?;
        let hashes: Vec<_> = log_hashes;
        let mut play = Play::fresh(game, meta.clone(), links);
        play.take_in(entries.into_iter().zip(hashes), None, Vec::new());
        play.refresh(meta.clone());
        let table = Arc::new(Table::new(meta, 0, play, self.source(entry)));
        table.last_used.store(self.now(), Ordering::Relaxed);
        self.map()
            .insert(id, Arc::new(OnceCell::new_with(Some(table.clone()))));
        self.metrics.tables_created.inc();
        self.metrics.tables_loaded.inc();
        tracing::info!(table = %table.id, ruleset = entry.id, "table created");
        Ok(NewTable {
            table,
            owner_key,
            spectator_key,
        })
    }

    /// The table's record for `key`: see [`crate::export`].
    pub async fn export(&self, table: &Table, key: &str) -> Result<Value, TableError> {
        let (access, snapshot) = {
            let play = table.lock_current().await?;
            (play.access(key, None)?, play.snapshot.clone())
        };
        // The database holds at least what the snapshot knows (memory follows the commit).
        let mut stored = self
            .store
            .read_log(&table.id)
            .await
            .map_err(|e| TableError::storage(e.to_string()))?;
        stored.truncate(snapshot.revision());
        let meta = table.meta.clone();
        work::run(Pool::Read, move || {
            let (seen, game_pos) = snapshot.game_events(access.viewer);
            let source = crate::export::Source {
                table: &meta.id,
                secret: &meta.secret,
                commitment: &meta.commitment,
                chance: meta.chance,
                viewer: access.viewer,
                reader: snapshot.talk_reader(&access),
                revealed: snapshot.revealed(),
                game_pos: &game_pos,
                seen: &seen,
            };
            crate::export::build(&source, &stored)
        })
        .await
    }

    /// Forget a deleted table.
    pub(crate) fn forget(&self, id: &str) {
        if self.map().remove(id).is_some() {
            self.metrics.tables_loaded.dec();
        }
    }

    /// Count `table` as used now (a bot acted), so it does not leave memory mid-game.
    pub(crate) fn touch(&self, table: &Table) {
        table.last_used.store(self.now(), Ordering::Relaxed);
    }
}
