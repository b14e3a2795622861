//! One table: its game, links, log and server secret behind one async lock.
//!
//! The lock is held from the moment a change is checked until it is committed (see
//! [`crate::executor`]), so commands and seat changes to one table are applied strictly one
//! after another and in log order, while other tables go on undisturbed. Who a key is (its role,
//! the seat it plays, what it may see) is decided under that same lock, on every request and on
//! every push to a live stream: a right that has ended cannot be used by a request racing the
//! change that ended it. What a viewer then sees is computed from the snapshot taken under the
//! lock, after it is released (see [`crate::view::snapshot`]). Deciding a command is short rules work
//! done on the request's own task; anything long runs on the blocking pool ([`crate::work`]).
//!
//! When several nodes share the database, a table in memory can fall behind what another node
//! stored. News of their changes marks the table behind and wakes its streams; whoever takes the
//! lock next reads the new log entries and takes them in ([`Table::catch_up`]). A request first
//! checks the table's head in the database, so it sees a change made through another node even
//! before the news arrives.

pub mod access;
pub mod caps;
pub mod chat;
pub mod keeping;
pub mod ledger;
pub mod links;
pub mod play;
pub mod presence;
pub mod seats;
pub mod undo;

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex as StdMutex};

use clash_core::{
    AnyGame, ChanceInputs, DerivedRandomness, Draw, Randomness, Recorder, RulesetEntry, Seat,
    SeededRandomness,
};
use serde_json::Value;
use tokio::sync::{Mutex, MutexGuard, watch};

use crate::error::TableError;
use crate::log::{Chance, Entry, commitment, hex};
use crate::metrics::Metrics;
use crate::store::Store;
use crate::table::links::Role;
use crate::table::play::{Access, Play, SeatInfo};
use crate::view::snapshot::{Meta, Receipt, Snapshot};
use crate::work::{self, Pool};

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
    pub(crate) last_used: AtomicU64,
    /// Live streams open on this table (see [`crate::view::stream`]).
    pub(crate) watching: StdMutex<Watching>,
    /// Who has the table open right now (not stored: it is about connections, not the game).
    pub presence: Arc<crate::table::presence::Presence>,
    /// Where the table is stored and its ruleset, to catch up with other nodes' changes.
    pub(crate) source: TableSource,
    /// Another node changed the table since memory last read it: catch up before using it.
    pub(crate) behind: std::sync::atomic::AtomicBool,
    /// A bot runner works for this table (see [`crate::bots`]).
    pub(crate) bots_running: AtomicBool,
    /// Once the table has ended: its game read for replays, and its review (see
    /// [`crate::review`]).
    pub(crate) review: StdMutex<Option<Arc<crate::review::job::Job>>>,
}

/// Where a table is stored, and its ruleset.
#[derive(Clone)]
pub struct TableSource {
    pub store: Store,
    pub entry: RulesetEntry,
}

/// Live streams open on a table, by key.
#[derive(Default)]
pub struct Watching {
    pub by_key: HashMap<String, usize>,
    pub total: usize,
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
    pub async fn text(&self, metrics: &Metrics) -> Result<String, TableError> {
        let text = self
            .snapshot
            .update_text(&self.access, self.after, self.receipt.as_ref(), metrics)
            .await?;
        crate::metrics::COST.update_bytes.inc_by(text.len() as u64);
        Ok(text)
    }
}

/// A command decided on a copy of the game: the copy, its events and the draws it took.
pub(crate) type Decided = (Box<dyn AnyGame>, Vec<Value>, Vec<Draw>);

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

impl Table {
    pub(crate) fn new(meta: Arc<Meta>, legacy_seed: u64, play: Play, source: TableSource) -> Table {
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
            review: StdMutex::new(None),
        }
    }

    /// Rebuild a stored table from its log.
    pub(crate) fn rebuild(
        entry: &RulesetEntry,
        stored: crate::store::StoredTable,
        source: TableSource,
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

    pub(crate) fn watching(&self) -> std::sync::MutexGuard<'_, Watching> {
        self.watching.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The table's lock, with memory caught up with what other nodes stored; refused once the
    /// table is deleted.
    pub(crate) async fn lock(&self) -> Result<MutexGuard<'_, Play>, TableError> {
        let mut play = self.play.lock().await;
        self.caught_up(&mut play).await?;
        Ok(play)
    }

    /// Under the lock: memory caught up with news heard from other nodes, and the table not
    /// deleted.
    async fn caught_up(&self, play: &mut Play) -> Result<(), TableError> {
        if self.behind.swap(false, Ordering::AcqRel)
            && let Err(e) = self.catch_up(play).await
        {
            self.behind.store(true, Ordering::Release);
            return Err(e);
        }
        if play.deleted {
            return Err(TableError::unknown_table(&self.id));
        }
        Ok(())
    }

    /// The table's lock, with memory checked against a database shared with other nodes (one
    /// small query): a request that follows a change made through another node sees it, even
    /// before the news of it arrives.
    pub(crate) async fn lock_current(&self) -> Result<MutexGuard<'_, Play>, TableError> {
        let mut play = self.lock().await?;
        self.bring_up_to_date(&mut play).await?;
        Ok(play)
    }

    /// On a database shared with other nodes, read the table's head and catch memory up if
    /// another node went further; answers whether it did. The caller holds the lock.
    pub(crate) async fn bring_up_to_date(&self, play: &mut Play) -> Result<bool, TableError> {
        if !self.source.store.shared() {
            return Ok(false);
        }
        let head = self
            .source
            .store
            .head(&self.id)
            .await
            .map_err(|e| TableError::storage(e.to_string()))?;
        match head {
            None => {
                play.deleted = true;
                Err(TableError::unknown_table(&self.id))
            }
            Some(head) if head > play.revision() as u64 => {
                self.catch_up(play).await?;
                Ok(true)
            }
            Some(_) => Ok(false),
        }
    }

    /// Whether another node changed (or deleted) the table beyond what memory holds, catching
    /// memory up if so: one small query on a database shared with other nodes, none otherwise.
    pub(crate) async fn overtaken(&self) -> Result<bool, TableError> {
        if !self.source.store.shared() {
            return Ok(false);
        }
        let mut play = self.play.lock().await;
        let before = play.revision();
        let current = match self.caught_up(&mut play).await {
            Ok(()) => self.bring_up_to_date(&mut play).await.map(|_| ()),
            Err(e) => Err(e),
        };
        match current {
            Ok(()) => Ok(play.revision() != before),
            // Deleted by another node: decided again, the operation says so.
            Err(TableError::UnknownTable(_)) => Ok(true),
            Err(e) => Err(e),
        }
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
    pub(crate) fn fall_behind(&self) {
        self.behind.store(true, Ordering::Release);
        self.announce();
    }

    /// Replace memory with what the database holds (after a failed write).
    pub(crate) async fn reload(&self, play: &mut Play) {
        let fresh = match self.source.store.load_table(&self.id).await {
            Ok(Some(stored)) => Play::rebuild(&self.source.entry, stored, self.meta.clone()),
            Ok(None) => Err("it is missing from the database".into()),
            Err(e) => Err(e.to_string()),
        };
        match fresh {
            Ok(mut fresh) => {
                fresh.presence = play.presence.clone();
                fresh.refresh(self.meta.clone());
                *play = fresh;
            }
            Err(e) => tracing::error!(table = %self.id, error = %e, "reading a table back failed"),
        }
        self.announce();
    }

    /// Read what other nodes added to the log since memory last saw it, and take it in. The
    /// caller holds the lock.
    pub(crate) async fn catch_up(&self, play: &mut Play) -> Result<(), TableError> {
        let from = play.revision();
        let tail = self
            .source
            .store
            .load_tail(&self.id, from as u64)
            .await
            .map_err(|e| TableError::storage(e.to_string()))?;
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
        let game = work::run(Pool::Read, move || {
            let entries: Vec<&Entry> = entries.iter().collect();
            crate::table::play::replay_game(&entry, game.boxed_clone(), events, &[], from, &entries)
        })
        .await?
        .map_err(|e| {
            tracing::error!(table = %self.id, error = %e, "another node's change does not replay");
            TableError::Unreadable(e)
        })?;
        if !tail.log.is_empty() {
            tracing::debug!(table = %self.id, entries = tail.log.len(), "caught up with another node");
        }
        play.catch_up(game, tail, self.meta.clone());
        Ok(())
    }

    /// Whether a bot sits at this table (as the table was read back: see [`crate::bots`]).
    pub(crate) fn seated_bots(&self) -> bool {
        self.play
            .try_lock()
            .map_or(true, |play| !play.bots.is_empty())
    }

    /// Wake every live stream of this table.
    pub(crate) fn announce(&self) {
        let woken = self.changed.receiver_count() as u64;
        crate::metrics::COST.handoffs.inc_by(woken);
        self.changed.send_modify(|r| *r += 1);
    }

    /// Decide command `n` on a copy of the game (short work, done here: see [`crate::work`]):
    /// the copy, its events and the draws it took. The game in memory is untouched until the
    /// command is committed.
    pub(crate) fn decide(
        &self,
        play: &Play,
        seat: Seat,
        command: &Value,
        n: u64,
    ) -> Result<Decided, TableError> {
        let game = &play.game;
        let seeds: Vec<(String, String)> = play
            .seeds
            .iter()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        let (meta, legacy_seed) = (&self.meta, self.legacy_seed);
        work::inline(|| {
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
            let events = next.command(seat, command, &mut recorder)?;
            let draws = recorder.draws;
            Ok((next, events, draws))
        })?
        .map_err(TableError::game)
    }

    /// What `key` may do here now.
    pub async fn access(&self, key: &str, as_seat: Option<Seat>) -> Result<Access, TableError> {
        self.lock_current().await?.access(key, as_seat)
    }

    /// What `key` sees now (acting `as_seat`), with the log lines from `after` on.
    pub async fn answer(
        &self,
        key: &str,
        as_seat: Option<Seat>,
        after: usize,
    ) -> Result<Answer, TableError> {
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
            Err(TableError::UnknownTable(_)) => return Push::Deleted,
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
            Err(TableError::BadKey) => Push::Revoked,
            Err(e @ TableError::Moved) => Push::Changed {
                message: crate::log::capitalised(&e.to_string()),
            },
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

    /// Whether `key` is a link a seat's player made to move the seat to another device (rather
    /// than an invite from the GM): its page says so.
    pub async fn is_move_link(&self, key: &str) -> bool {
        let play = self.play.lock().await;
        play.link(key)
            .is_some_and(|l| l.status == crate::store::LinkStatus::Transfer)
    }

    /// What the game calls the table's creator: "the GM", or "the host" in a game without one.
    pub async fn host(&self) -> String {
        self.play.lock().await.game.seat_name(clash_core::Seat::Gm)
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
