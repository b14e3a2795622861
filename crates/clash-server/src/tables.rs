//! Tables in play: each holds one game of any ruleset, its links, and its secret seed.
//!
//! A table's game sits behind its own async lock, held from the moment a command is checked
//! until its events are committed, so commands to one table are applied strictly one after
//! another and in log order, while other tables go on undisturbed. Watchers (the live streams)
//! learn of every change through a `watch` channel carrying a revision number, and each then
//! builds its own redacted update.

use std::collections::HashMap;
use std::sync::{Arc, RwLock};

use clash_core::{AnyGame, GameError, RulesetEntry, Seat, SeededRandomness, SeenEvent, Viewer};
use serde::Serialize;
use serde_json::Value;
use tokio::sync::{Mutex, watch};

use crate::error::ApiError;
use crate::labels::label;
use crate::links::{Role, new_key, new_seed, new_table_id, same_key};
use crate::store::{Store, StoredLink, StoredTable, Write};

/// Every table this server holds, and the database behind them.
pub struct Tables {
    store: Store,
    catalogue: Vec<RulesetEntry>,
    tables: RwLock<HashMap<String, Arc<Table>>>,
    /// Flips to true when the server shuts down, so open live streams end.
    closing: watch::Sender<bool>,
}

/// One table.
pub struct Table {
    pub id: String,
    pub ruleset: &'static str,
    pub title: String,
    /// Never leaves the server: it would let a seat predict every die and shuffle.
    seed: u64,
    play: Mutex<Play>,
    links: RwLock<Vec<StoredLink>>,
    changed: watch::Sender<u64>,
}

struct Play {
    game: Box<dyn AnyGame>,
    /// Commands accepted so far; command `n` draws its chance from stream `n` of the seed.
    commands: u64,
}

/// A legal command with a label a person can read.
#[derive(Debug, Clone, Serialize)]
pub struct LegalCommand {
    pub label: String,
    pub command: Value,
}

/// Everything one viewer may know of a table right now, plus the events since `after`.
#[derive(Debug, Clone, Serialize)]
pub struct Update {
    pub table: String,
    pub ruleset: &'static str,
    pub title: String,
    /// Who is looking: a seat name or `spectator`.
    pub viewer: String,
    /// The seat this viewer may command, if any.
    pub seat: Option<Seat>,
    /// Length of the table's log: resume from here.
    pub event_count: usize,
    pub events: Vec<SeenEvent>,
    pub view: Value,
    pub render: String,
    pub legal: Vec<LegalCommand>,
}

/// One seat of the table and who holds it, as the owner sees it.
#[derive(Debug, Clone, Serialize)]
pub struct SeatInfo {
    pub seat: Seat,
    /// `owner` (the GM's own seat), `npc` (played by the owner), `player` (invited), or `open`.
    pub holder: &'static str,
    /// The seat's link key, shown to the owner only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,
}

/// A freshly created table's links.
pub struct Created {
    pub table: Arc<Table>,
    pub owner_key: String,
    pub spectator_key: String,
}

impl Tables {
    /// Restore every stored table by replaying its log. Tables whose ruleset this build lacks, or
    /// whose log no longer replays, are left in the database untouched and reported.
    pub fn restore(store: Store, catalogue: Vec<RulesetEntry>, stored: Vec<StoredTable>) -> Tables {
        let tables = Tables {
            store,
            catalogue,
            tables: RwLock::new(HashMap::new()),
            closing: watch::Sender::new(false),
        };
        for t in stored {
            let id = t.id.clone();
            match tables.rebuild(t) {
                Ok(table) => {
                    tables.write_map().insert(id, Arc::new(table));
                }
                Err(e) => eprintln!("table {id} could not be restored: {e}"),
            }
        }
        tables
    }

    fn rebuild(&self, t: StoredTable) -> Result<Table, String> {
        let entry = self
            .entry(&t.ruleset)
            .ok_or_else(|| format!("this build has no ruleset {:?}", t.ruleset))?;
        let mut game = (entry.new_game)(&t.setup).map_err(|e| e.to_string())?;
        for e in &t.events {
            game.restore(e).map_err(|e| e.to_string())?;
        }
        Ok(Table {
            id: t.id,
            ruleset: entry.id,
            title: t.title,
            seed: t.seed,
            play: Mutex::new(Play {
                game,
                commands: t.commands,
            }),
            links: RwLock::new(t.links),
            changed: watch::Sender::new(0),
        })
    }

    fn write_map(&self) -> std::sync::RwLockWriteGuard<'_, HashMap<String, Arc<Table>>> {
        // A panic while holding this lock cannot leave the map half-changed (inserts are atomic).
        self.tables.write().unwrap_or_else(|p| p.into_inner())
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

    pub fn catalogue(&self) -> &[RulesetEntry] {
        &self.catalogue
    }

    pub fn entry(&self, ruleset: &str) -> Option<RulesetEntry> {
        self.catalogue.iter().find(|e| e.id == ruleset).copied()
    }

    pub fn count(&self) -> usize {
        self.tables.read().map_or(0, |m| m.len())
    }

    pub fn get(&self, id: &str) -> Result<Arc<Table>, ApiError> {
        let map = self.tables.read().unwrap_or_else(|p| p.into_inner());
        map.get(id)
            .cloned()
            .ok_or_else(|| ApiError::unknown_table(id))
    }

    /// Create a table: check the setup, draw a secret seed, store it, and hand out the owner's
    /// and the spectators' links.
    pub async fn create(
        &self,
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
        let game = (entry.new_game)(&setup).map_err(|e| match e {
            GameError::Malformed { detail, .. } => {
                ApiError::malformed(format!("the setup does not fit {ruleset}: {detail}"))
            }
            other => ApiError::game(other),
        })?;
        let title = match title.trim() {
            "" => format!("{ruleset} table"),
            t => t.chars().take(120).collect(),
        };
        let (owner_key, spectator_key) = (new_key(), new_key());
        let links = vec![
            StoredLink {
                key: owner_key.clone(),
                role: Role::Owner.to_string(),
                npc: false,
            },
            StoredLink {
                key: spectator_key.clone(),
                role: Role::Spectator.to_string(),
                npc: false,
            },
        ];
        let id = new_table_id();
        let seed = new_seed();
        self.store
            .write(Write::CreateTable {
                id: id.clone(),
                ruleset: entry.id.into(),
                title: title.clone(),
                setup,
                seed,
                links: links.clone(),
            })
            .await
            .map_err(|e| ApiError::storage(e.to_string()))?;
        let table = Arc::new(Table {
            id: id.clone(),
            ruleset: entry.id,
            title,
            seed,
            play: Mutex::new(Play { game, commands: 0 }),
            links: RwLock::new(links),
            changed: watch::Sender::new(0),
        });
        self.write_map().insert(id, table.clone());
        Ok(Created {
            table,
            owner_key,
            spectator_key,
        })
    }

    /// Apply `command` as `seat`; acknowledged only once its events are committed.
    pub async fn command(
        &self,
        table: &Table,
        seat: Seat,
        command: &Value,
    ) -> Result<Update, ApiError> {
        let mut play = table.play.lock().await;
        let n = play.commands;
        let mut rng = SeededRandomness::for_command(table.seed, n);
        let first_index = play.game.event_count();
        let events = play
            .game
            .command(seat, command, &mut rng)
            .map_err(ApiError::game)?;
        let write = Write::Command {
            table_id: table.id.clone(),
            n,
            seat: seat.to_string(),
            command: command.clone(),
            first_index,
            events,
        };
        if let Err(e) = self.store.write(write).await {
            // Memory ran ahead of the disk: rebuild the game from what the disk holds.
            eprintln!("table {}: command not stored: {e}", table.id);
            self.reload(table, &mut play).await;
            return Err(ApiError::storage(format!(
                "the command was not saved, so it did not happen: {e}"
            )));
        }
        play.commands += 1;
        let update = table.update_locked(&play, Viewer::Seat(seat), Some(seat), first_index);
        drop(play);
        table.changed.send_modify(|r| *r += 1);
        Ok(update)
    }

    async fn reload(&self, table: &Table, play: &mut Play) {
        match self.store.load_table(&table.id).await {
            Ok(Some(stored)) => match self.rebuild(stored) {
                Ok(fresh) => *play = fresh.play.into_inner(),
                Err(e) => eprintln!("table {}: reload failed: {e}", table.id),
            },
            Ok(None) => eprintln!("table {}: missing from the database", table.id),
            Err(e) => eprintln!("table {}: reload failed: {e}", table.id),
        }
    }

    /// Give `seat` a new link (revoking any old one). `npc` seats are played by the owner.
    pub async fn issue_link(
        &self,
        table: &Table,
        seat: Seat,
        npc: bool,
    ) -> Result<String, ApiError> {
        let play = table.play.lock().await;
        if !play.game.seats().contains(&seat) {
            return Err(ApiError::malformed(format!(
                "{} has no seat {seat} at this table",
                table.ruleset
            )));
        }
        let key = new_key();
        let link = StoredLink {
            key: key.clone(),
            role: seat.to_string(),
            npc,
        };
        self.replace_link(table, seat, Some(link)).await?;
        drop(play);
        Ok(key)
    }

    /// Revoke `seat`'s link: its holder can no longer act or watch.
    pub async fn revoke_link(&self, table: &Table, seat: Seat) -> Result<(), ApiError> {
        let _play = table.play.lock().await;
        self.replace_link(table, seat, None).await
    }

    async fn replace_link(
        &self,
        table: &Table,
        seat: Seat,
        link: Option<StoredLink>,
    ) -> Result<(), ApiError> {
        let role = seat.to_string();
        let write = Write::ReplaceLink {
            table_id: table.id.clone(),
            role: role.clone(),
            link: link.clone(),
        };
        self.store
            .write(write)
            .await
            .map_err(|e| ApiError::storage(e.to_string()))?;
        {
            let mut links = table.links.write().unwrap_or_else(|p| p.into_inner());
            links.retain(|l| l.role != role);
            links.extend(link);
        }
        // Wake the streams: a revoked seat's stream notices and closes.
        table.changed.send_modify(|r| *r += 1);
        Ok(())
    }
}

impl Table {
    /// The role `key` stands for at this table.
    pub fn role_of(&self, key: &str) -> Result<Role, ApiError> {
        let links = self.links.read().unwrap_or_else(|p| p.into_inner());
        links
            .iter()
            .find(|l| same_key(&l.key, key))
            .and_then(|l| l.role.parse().ok())
            .ok_or_else(ApiError::bad_key)
    }

    fn npc_seats(&self) -> Vec<Seat> {
        let links = self.links.read().unwrap_or_else(|p| p.into_inner());
        links
            .iter()
            .filter(|l| l.npc)
            .filter_map(|l| l.role.parse().ok())
            .collect()
    }

    pub fn key_of(&self, role: Role) -> Option<String> {
        let links = self.links.read().unwrap_or_else(|p| p.into_inner());
        let name = role.to_string();
        links.iter().find(|l| l.role == name).map(|l| l.key.clone())
    }

    pub async fn seats(&self) -> Vec<Seat> {
        self.play.lock().await.game.seats()
    }

    /// The seat `role` acts as, with the owner optionally choosing one of the seats it plays
    /// (`as`); `None` means the role may only watch.
    pub async fn acting_seat(
        &self,
        role: Role,
        as_seat: Option<Seat>,
    ) -> Result<Option<Seat>, ApiError> {
        match (role, as_seat) {
            (Role::Seat(s), None) => Ok(Some(s)),
            (Role::Seat(s), Some(other)) if other == s => Ok(Some(s)),
            (Role::Seat(s), Some(other)) => Err(ApiError::forbidden(format!(
                "this link is for {s}; it cannot act as {other}"
            ))),
            (Role::Spectator, None) => Ok(None),
            (Role::Spectator, Some(_)) => {
                Err(ApiError::forbidden("a spectator link can only watch"))
            }
            (Role::Owner, choice) => {
                let seats = self.seats().await;
                let plays_gm = seats.contains(&Seat::Gm);
                match choice {
                    None => Ok(plays_gm.then_some(Seat::Gm)),
                    Some(Seat::Gm) if plays_gm => Ok(Some(Seat::Gm)),
                    Some(s) if self.npc_seats().contains(&s) => Ok(Some(s)),
                    Some(s) => Err(ApiError::forbidden(format!(
                        "the GM link plays {s} only once that seat is made an NPC (use “Play as NPC” in the seat list)"
                    ))),
                }
            }
        }
    }

    /// Who holds each seat, for the owner's seat list.
    pub async fn seat_list(&self) -> Vec<SeatInfo> {
        let seats = self.seats().await;
        let links = self.links.read().unwrap_or_else(|p| p.into_inner()).clone();
        seats
            .into_iter()
            .map(|seat| {
                let link = links.iter().find(|l| l.role == seat.to_string());
                let holder = match link {
                    Some(l) if l.npc => "npc",
                    Some(_) => "player",
                    None if seat == Seat::Gm => "owner",
                    None => "open",
                };
                SeatInfo {
                    seat,
                    holder,
                    key: link.map(|l| l.key.clone()),
                }
            })
            .collect()
    }

    /// What `viewer` sees now, with its events from `after` on.
    pub async fn update(&self, viewer: Viewer, seat: Option<Seat>, after: usize) -> Update {
        let play = self.play.lock().await;
        self.update_locked(&play, viewer, seat, after)
    }

    fn update_locked(
        &self,
        play: &Play,
        viewer: Viewer,
        seat: Option<Seat>,
        after: usize,
    ) -> Update {
        let game = &play.game;
        let legal = seat
            .map(|s| {
                game.legal_commands(s)
                    .into_iter()
                    .map(|c| LegalCommand {
                        label: label(&c),
                        command: c,
                    })
                    .collect()
            })
            .unwrap_or_default();
        Update {
            table: self.id.clone(),
            ruleset: self.ruleset,
            title: self.title.clone(),
            viewer: viewer.to_string(),
            seat,
            event_count: game.event_count(),
            events: game.events_for(viewer, after),
            view: game.view(viewer),
            render: game.render(viewer),
            legal,
        }
    }

    /// A receiver that wakes on every change to this table.
    pub fn watch(&self) -> watch::Receiver<u64> {
        self.changed.subscribe()
    }

    /// True while `key` still stands for `role` (links can be revoked under an open stream).
    pub fn still_valid(&self, key: &str, role: Role) -> bool {
        self.role_of(key).is_ok_and(|r| r == role)
    }

    pub async fn event_count(&self) -> usize {
        self.play.lock().await.game.event_count()
    }
}
