//! Tables in play: each holds one game of any ruleset, its links, its table log and its server
//! secret.
//!
//! A table's state sits behind its own async lock, held from the moment a request is checked
//! until what it changes is committed, so commands and seat changes to one table are applied
//! strictly one after another and in log order, while other tables go on undisturbed. Who a
//! key is (its role, the seat it plays, what it may see) is decided under that same lock, on
//! every request and on every push to a live stream: a right that has ended cannot be used by a
//! request racing the change that ended it. Watchers (the live streams) learn of every change
//! through a `watch` channel carrying a revision number, and each then asks for its own update.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, RwLock};

use clash_core::{
    AnyGame, ChanceInputs, DerivedRandomness, GameError, Randomness, Recorder, RulesetEntry, Seat,
    SeededRandomness, SeenEvent, Viewer,
};
use serde::Serialize;
use serde_json::Value;
use tokio::sync::{Mutex, MutexGuard, watch};

use crate::error::ApiError;
use crate::labels::label;
use crate::links::{Role, new_key, new_secret, new_table_id, plain_word, same_key};
use crate::log::{
    Chainer, Chance, CommandEntry, Entry, Hash, Sender, TableEvent, canonical, commitment, hex,
};
use crate::store::{LinkChange, LinkStatus, Store, StoredCommand, StoredLink, StoredTable, Write};

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
    /// Never leaves the server until the table ends: with it and the client seeds anyone could
    /// foresee every roll and draw.
    secret: Vec<u8>,
    /// SHA-256 of the secret, shown to everyone from the start.
    pub commitment: String,
    pub chance: Chance,
    /// The seed of a legacy table's chance.
    legacy_seed: u64,
    pub(crate) play: Mutex<Play>,
    pub(crate) changed: watch::Sender<u64>,
    /// Who has the table open right now (not stored: it is about connections, not the game).
    pub(crate) presence: crate::presence::Presence,
}

/// What one position of the log holds, as far as memory needs to know.
pub(crate) enum Item {
    /// Command `n` from `seat`; `chance` when it rolled dice or drew cards.
    Command {
        n: u64,
        seat: Seat,
        chance: bool,
    },
    Game,
    Table(TableEvent),
}

/// A command id already used at this table.
struct Sent {
    seat: Seat,
    command: String,
    pos: usize,
    n: u64,
}

pub(crate) struct Play {
    pub(crate) game: Box<dyn AnyGame>,
    pub(crate) items: Vec<Item>,
    /// The log position of each game event, by its index in the game's own log.
    pub(crate) game_pos: Vec<usize>,
    head: Hash,
    /// Commands accepted so far; the next one is number `commands`.
    commands: u64,
    /// The latest client seed of each contributor (`gm`, `p1`, …), sorted by contributor.
    seeds: BTreeMap<String, String>,
    ids: HashMap<String, Sent>,
    /// For each seat, who sent its latest command and at which log position.
    last: HashMap<Seat, (Sender, usize)>,
    pub(crate) links: Vec<StoredLink>,
    pub(crate) closed: bool,
}

/// A legal command with a label a person can read.
#[derive(Debug, Clone, Serialize)]
pub struct LegalCommand {
    pub label: String,
    pub command: Value,
}

/// One line of the table log as one viewer sees it: a game event (`event`) or a table event
/// (`table`), told in words.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SeenEntry {
    /// Position in the table log; clients resume after the last one they saw.
    pub index: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub event: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub table: Option<TableEvent>,
    pub text: String,
    /// A game event that shows chance or a secret brought into the open.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub reveals: bool,
}

/// Verifiable chance, as everyone may see it.
#[derive(Debug, Clone, Serialize)]
pub struct Fairness {
    /// `clash-chance-v1`, or `legacy` for a table created before verifiable chance.
    pub chance: Chance,
    /// SHA-256 of the server secret (hex).
    pub commitment: String,
    /// The client seeds in force, by contributor.
    pub seeds: BTreeMap<String, String>,
    /// Each contributor's name at the table ("Ada", "the GM").
    pub names: BTreeMap<String, String>,
    /// Who this viewer contributes as (`gm`, `p1`), if it may add a seed.
    pub contributor: Option<String>,
    /// The secret, once the table has ended.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub secret: Option<String>,
}

/// Who holds a seat, as everyone may know it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Holder {
    /// The GM's own seat.
    Owner,
    /// The GM plays it.
    Npc,
    /// A player has claimed it.
    Player,
    /// An invite is out, not yet used.
    Invited,
    Open,
}

/// One seat of the table and who holds it.
#[derive(Debug, Clone, Serialize)]
pub struct SeatInfo {
    pub seat: Seat,
    pub holder: Holder,
    /// The GM played the seat after taking it from a player, who can have it back.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub suspended: bool,
    /// The invite's key, shown to the owner only while the invite is unused.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,
}

/// Everything one viewer may know of a table right now, plus the log lines since `after`.
#[derive(Debug, Clone, Serialize)]
pub struct Update {
    pub table: String,
    pub ruleset: &'static str,
    pub title: String,
    /// Who is looking: a seat name or `spectator`.
    pub viewer: String,
    /// The seat this viewer may command, if any.
    pub seat: Option<Seat>,
    /// Length of the table log (its revision): resume from here.
    pub event_count: usize,
    /// The chain hash of the last log entry (hex).
    pub head: String,
    pub events: Vec<SeenEntry>,
    pub view: Value,
    pub render: String,
    pub legal: Vec<LegalCommand>,
    pub seats: Vec<SeatInfo>,
    pub fairness: Fairness,
    /// The table has ended: no more commands.
    pub closed: bool,
    /// A note for this viewer (a player whose seat the GM plays for now).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub notice: Option<String>,
    /// For a command's answer: what was done with it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub command: Option<Receipt>,
    /// The table around the game, for this viewer: whose move, who is here, what it may do.
    pub room: crate::room::RoomView,
}

/// The answer's note about the command itself.
#[derive(Debug, Clone, Serialize)]
pub struct Receipt {
    /// The command's number at the table.
    pub n: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// True when this id was applied before: nothing was applied now.
    pub duplicate: bool,
}

/// A freshly created table's links.
pub struct Created {
    pub table: Arc<Table>,
    pub owner_key: String,
    pub spectator_key: String,
}

/// What a key may do at a table right now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Access {
    pub role: Role,
    /// The seat it acts as, if any.
    pub seat: Option<Seat>,
    /// What it sees.
    pub viewer: Viewer,
    /// A player's key while the GM plays the seat: it only watches.
    pub suspended: bool,
}

/// A command as a client sent it.
pub struct CommandRequest<'a> {
    pub key: &'a str,
    pub as_seat: Option<Seat>,
    pub command: &'a Value,
    /// The client's id for this command; a retry with the same id is answered, not applied.
    pub id: Option<String>,
    /// The table revision the client last saw: refused if this seat acted since.
    pub revision: Option<usize>,
    /// Ask first: a command the rules call weighty is refused with its question (`confirm`)
    /// instead of applied, so the page can ask and send it again without `ask`.
    pub ask: bool,
}

/// What a live stream sends next.
pub enum Push {
    Update(Box<Update>),
    /// The key's rights changed: what it saw is no longer what it may see.
    Changed {
        message: String,
    },
    /// The key no longer works.
    Revoked,
}

impl Tables {
    /// Restore every stored table from its log. Tables whose ruleset this build lacks, or whose
    /// log no longer replays, are left in the database untouched and reported.
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
        let game = (entry.new_game)(&t.setup).map_err(|e| e.to_string())?;
        let new_game = entry.new_game;
        let opening = game.events_json(0);
        let mut play = Play {
            game,
            items: Vec::new(),
            game_pos: Vec::new(),
            head: [0; 32],
            commands: t.commands,
            seeds: BTreeMap::new(),
            ids: HashMap::new(),
            last: HashMap::new(),
            links: t.links,
            closed: false,
        };
        for (pos, (entry, hash)) in t.log.into_iter().enumerate() {
            play.head = hash;
            match entry {
                Entry::Command(c) => {
                    play.last.insert(c.seat, (c.by, pos));
                    play.commands = play.commands.max(c.n + 1);
                    if let Some(id) = c.id {
                        play.ids.insert(
                            id,
                            Sent {
                                seat: c.seat,
                                command: canonical(&c.command),
                                pos,
                                n: c.n,
                            },
                        );
                    }
                    play.items.push(Item::Command {
                        n: c.n,
                        seat: c.seat,
                        chance: !c.draws.is_empty(),
                    });
                }
                Entry::Event { event } => {
                    // The game already holds its opening events (its start makes them again).
                    let index = play.game_pos.len();
                    if index >= opening.len() || opening[index] != event {
                        play.game
                            .restore(&event)
                            .map_err(|e| format!("log entry {pos}: {e}"))?;
                    }
                    play.game_pos.push(pos);
                    play.items.push(Item::Game);
                }
                Entry::Table { event } => {
                    play.note(&event);
                    if let TableEvent::Undone { events, .. } = &event {
                        crate::undo::drop_last(&mut play, new_game, *events as usize)
                            .map_err(|e| format!("log entry {pos}: {e}"))?;
                    }
                    play.items.push(Item::Table(event));
                }
            }
        }
        // A table from before openings were logged: its opening events stand with its creation.
        let unlogged = play.game.event_count().saturating_sub(play.game_pos.len());
        play.game_pos.splice(0..0, std::iter::repeat_n(0, unlogged));
        Ok(Table {
            id: t.id,
            ruleset: entry.id,
            title: t.title,
            commitment: hex(&commitment(&t.secret)),
            secret: t.secret,
            chance: t.chance,
            legacy_seed: t.seed,
            play: Mutex::new(play),
            changed: watch::Sender::new(0),
            presence: Default::default(),
        })
    }

    pub(crate) fn write_map(&self) -> std::sync::RwLockWriteGuard<'_, HashMap<String, Arc<Table>>> {
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

    /// Create a table: check the setup, draw the server secret, store it with the log's first
    /// entry (which carries the secret's commitment), and hand out the owner's and the
    /// spectators' links.
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
        let commitment = hex(&commitment(&secret));
        let created = TableEvent::Created {
            ruleset: entry.id.into(),
            title: title.clone(),
            setup: setup.clone(),
            commitment: commitment.clone(),
            chance: Chance::V1,
        };
        // The game's opening (what happens by itself before anyone acts) follows the creation.
        let opening = game.events_json(0);
        let mut chainer = Chainer {
            secret: &secret,
            table: &id,
            head: [0; 32],
            next: 0,
        };
        let mut log = vec![chainer.push(&Entry::Table {
            event: created.clone(),
        })];
        log.extend(opening.iter().map(|event| {
            chainer.push(&Entry::Event {
                event: event.clone(),
            })
        }));
        let head = chainer.head;
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
            .map_err(|e| ApiError::storage(e.to_string()))?;
        let mut items = vec![Item::Table(created)];
        items.extend(opening.iter().map(|_| Item::Game));
        let play = Play {
            game,
            items,
            game_pos: (1..=opening.len()).collect(),
            head,
            commands: 0,
            seeds: BTreeMap::new(),
            ids: HashMap::new(),
            last: HashMap::new(),
            links,
            closed: false,
        };
        let table = Arc::new(Table {
            id: id.clone(),
            ruleset: entry.id,
            title,
            secret,
            commitment,
            chance: Chance::V1,
            legacy_seed: 0,
            play: Mutex::new(play),
            changed: watch::Sender::new(0),
            presence: Default::default(),
        });
        self.write_map().insert(id, table.clone());
        Ok(Created {
            table,
            owner_key,
            spectator_key,
        })
    }

    /// Apply a command; acknowledged only once it and its events are committed. A command whose
    /// id was applied before is answered again without being applied.
    pub async fn command(
        &self,
        table: &Table,
        request: CommandRequest<'_>,
    ) -> Result<Update, ApiError> {
        let mut play = table.play.lock().await;
        let access = play.access(request.key, request.as_seat)?;
        let seat = access.seat.ok_or_else(|| match access.suspended {
            true => ApiError::forbidden(
                "the GM plays your seat for now; you can watch until it is handed back",
            ),
            false => ApiError::forbidden("this link can only watch; it cannot send commands"),
        })?;
        if let Some(id) = &request.id {
            if !plain_word(id, 100) {
                return Err(ApiError::malformed(
                    "a command id is 1 to 100 letters, digits, '-', '_', '.' or ':'",
                ));
            }
            if let Some(sent) = play.ids.get(id) {
                if sent.seat != seat || sent.command != canonical(request.command) {
                    return Err(ApiError::conflict(
                        "id_reused",
                        format!("command id {id:?} was already used for a different command"),
                    ));
                }
                let receipt = Receipt {
                    n: sent.n,
                    id: Some(id.clone()),
                    duplicate: true,
                };
                let mut update = table.update_locked(&play, &access, sent.pos);
                update.command = Some(receipt);
                return Ok(update);
            }
        }
        if play.closed {
            return Err(ApiError::conflict(
                "closed",
                "this table has ended: it takes no more commands",
            ));
        }
        crate::room::check_in_play(&play)?;
        if let (Some(seen), Some((_, at))) = (request.revision, play.last.get(&seat))
            && *at >= seen
        {
            return Err(ApiError::conflict(
                "stale",
                format!(
                    "{seat} has acted since revision {seen} (at {at}); look at the table again before sending this"
                ),
            ));
        }
        let n = play.commands;
        if request.ask {
            crate::room::ask_first(table, &play, seat, request.command, n)?;
        }
        // The generator is not `Send`: it lives only for the decision, before any await.
        let (events, draws) = {
            let mut chance = table.chance_for(&play, n);
            let mut recorder = Recorder::new(chance.as_mut());
            let events = play
                .game
                .command(seat, request.command, &mut recorder)
                .map_err(ApiError::game)?;
            (events, recorder.draws)
        };
        let by = if access.role == Role::Owner {
            Sender::Gm
        } else {
            Sender::Player
        };
        let entry = CommandEntry {
            n,
            seat,
            by,
            id: request.id.clone(),
            command: request.command.clone(),
            draws,
        };
        let mut entries = vec![Entry::Command(entry)];
        entries.extend(events.into_iter().map(|event| Entry::Event { event }));
        // A game that is over ends its table, and the secret is revealed with the last command.
        if let Some(how) = play.game.status().over {
            entries.push(Entry::Table {
                event: TableEvent::GameOver { how },
            });
            entries.push(Entry::Table {
                event: TableEvent::SecretRevealed {
                    secret: hex(&table.secret),
                },
            });
        }
        let pos = play.items.len();
        let stored = StoredCommand {
            n,
            seat: seat.to_string(),
            command: request.command.clone(),
            id: request.id.clone(),
        };
        if let Err(e) = self
            .append(table, &mut play, &entries, Some(stored), Vec::new())
            .await
        {
            // Memory ran ahead of the disk: rebuild the game from what the disk holds.
            eprintln!("table {}: command not stored: {e}", table.id);
            self.reload(table, &mut play).await;
            return Err(e);
        }
        play.commands += 1;
        play.last.insert(seat, (by, pos));
        if let Some(id) = &request.id {
            play.ids.insert(
                id.clone(),
                Sent {
                    seat,
                    command: canonical(request.command),
                    pos,
                    n,
                },
            );
        }
        let mut update = table.update_locked(&play, &access, pos);
        update.command = Some(Receipt {
            n,
            id: request.id,
            duplicate: false,
        });
        drop(play);
        table.changed.send_modify(|r| *r += 1);
        Ok(update)
    }

    /// Hash `entries` onto the log, commit them (with the command row and link changes), and
    /// only then note them in memory. The caller holds the table's lock.
    pub(crate) async fn append(
        &self,
        table: &Table,
        play: &mut Play,
        entries: &[Entry],
        command: Option<StoredCommand>,
        links: Vec<LinkChange>,
    ) -> Result<(), ApiError> {
        let mut chainer = Chainer {
            secret: &table.secret,
            table: &table.id,
            head: play.head,
            next: play.items.len() as u64,
        };
        let log: Vec<_> = entries.iter().map(|e| chainer.push(e)).collect();
        let write = Write::Append {
            table_id: table.id.clone(),
            log,
            command,
            links: links.clone(),
        };
        self.store.write(write).await.map_err(|e| {
            ApiError::storage(format!(
                "the change was not saved, so it did not happen: {e}"
            ))
        })?;
        play.head = chainer.head;
        for entry in entries {
            match entry {
                Entry::Command(c) => play.items.push(Item::Command {
                    n: c.n,
                    seat: c.seat,
                    chance: !c.draws.is_empty(),
                }),
                Entry::Event { .. } => {
                    // The game already holds the event (it decided it).
                    play.game_pos.push(play.items.len());
                    play.items.push(Item::Game);
                }
                Entry::Table { event } => {
                    play.note(event);
                    play.items.push(Item::Table(event.clone()));
                }
            }
        }
        for change in links {
            play.change_link(change);
        }
        Ok(())
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

    /// Record table events with their link changes, then wake every stream.
    pub(crate) async fn table_events(
        &self,
        table: &Table,
        play: &mut Play,
        events: Vec<TableEvent>,
        links: Vec<LinkChange>,
    ) -> Result<(), ApiError> {
        let entries: Vec<Entry> = events
            .into_iter()
            .map(|event| Entry::Table { event })
            .collect();
        self.append(table, play, &entries, None, links).await?;
        table.changed.send_modify(|r| *r += 1);
        Ok(())
    }

    /// The owner's lock on a table, for seat changes: refused after the table ended.
    pub(crate) async fn owner_play<'t>(
        &self,
        table: &'t Table,
        key: &str,
    ) -> Result<MutexGuard<'t, Play>, ApiError> {
        let play = table.play.lock().await;
        if play.role(key)? != Role::Owner {
            return Err(ApiError::forbidden(
                "only the GM's link (the table's creator) can manage seats and links",
            ));
        }
        if play.closed {
            return Err(ApiError::conflict("closed", "this table has ended"));
        }
        Ok(play)
    }

    /// Issue a new invite for `seat`, ending any link, invite or GM play it had.
    pub async fn invite(&self, table: &Table, key: &str, seat: Seat) -> Result<String, ApiError> {
        let mut play = self.owner_play(table, key).await?;
        play.check_seat(table, seat)?;
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
        self.table_events(
            table,
            &mut play,
            vec![TableEvent::InviteIssued { seat }],
            changes,
        )
        .await?;
        Ok(invite)
    }

    /// The GM takes `seat` over: a player's key is suspended (it watches) until handed back.
    pub async fn take_over(&self, table: &Table, key: &str, seat: Seat) -> Result<(), ApiError> {
        let mut play = self.owner_play(table, key).await?;
        play.check_seat(table, seat)?;
        if play.holder(seat) == Holder::Npc {
            return Err(ApiError::conflict(
                "no_change",
                format!("the GM already plays {seat}"),
            ));
        }
        play.guard_secret(seat, "take the seat over")?;
        let mut changes = Vec::new();
        for link in play.links.iter().filter(|l| l.role == seat.to_string()) {
            changes.push(match link.status {
                LinkStatus::Active => LinkChange::SetStatus {
                    key: link.key.clone(),
                    status: LinkStatus::Suspended,
                },
                _ => LinkChange::Remove(link.key.clone()),
            });
        }
        changes.push(LinkChange::Add(StoredLink {
            key: new_key(),
            role: seat.to_string(),
            status: LinkStatus::Npc,
        }));
        self.table_events(
            table,
            &mut play,
            vec![TableEvent::TakenOver { seat }],
            changes,
        )
        .await
    }

    /// Give a seat the GM took over back to its player.
    pub async fn hand_back(&self, table: &Table, key: &str, seat: Seat) -> Result<(), ApiError> {
        let mut play = self.owner_play(table, key).await?;
        play.check_seat(table, seat)?;
        let role = seat.to_string();
        let suspended = play
            .links
            .iter()
            .find(|l| l.role == role && l.status == LinkStatus::Suspended)
            .map(|l| l.key.clone());
        let Some(player_key) = suspended else {
            return Err(ApiError::conflict(
                "no_change",
                format!("no player is waiting for {seat}: invite one instead"),
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
        self.table_events(
            table,
            &mut play,
            vec![TableEvent::HandedBack { seat }],
            changes,
        )
        .await
    }

    /// Revoke every link of `seat`: nobody plays it until it is given again.
    pub async fn revoke(&self, table: &Table, key: &str, seat: Seat) -> Result<(), ApiError> {
        let mut play = self.owner_play(table, key).await?;
        play.check_seat(table, seat)?;
        if play.holder(seat) == Holder::Open {
            return Ok(());
        }
        let changes = vec![LinkChange::RemoveRole(seat.to_string())];
        self.table_events(
            table,
            &mut play,
            vec![TableEvent::LinkRevoked { seat }],
            changes,
        )
        .await
    }

    /// Exchange an invite for the player's own key.
    pub async fn claim(&self, table: &Table, invite: &str) -> Result<(Seat, String), ApiError> {
        let mut play = table.play.lock().await;
        let link = play.link(invite).cloned().ok_or_else(ApiError::bad_key)?;
        let seat = match (link.status, link.role.parse::<Role>()) {
            (LinkStatus::Invite, Ok(Role::Seat(seat))) => seat,
            _ => {
                return Err(ApiError::conflict(
                    "not_invite",
                    "this link is not an unused invite",
                ));
            }
        };
        let key = new_key();
        let changes = vec![
            LinkChange::Remove(invite.to_string()),
            LinkChange::Add(StoredLink {
                key: key.clone(),
                role: seat.to_string(),
                status: LinkStatus::Active,
            }),
        ];
        self.table_events(
            table,
            &mut play,
            vec![TableEvent::SeatClaimed { seat }],
            changes,
        )
        .await?;
        Ok((seat, key))
    }

    /// A client seed for chance from now on, from the GM's link or a seat's player.
    pub async fn add_seed(&self, table: &Table, key: &str, seed: &str) -> Result<(), ApiError> {
        let mut play = table.play.lock().await;
        let access = play.access(key, None)?;
        let by = contributor(&access)
            .ok_or_else(|| ApiError::forbidden("only the GM and the players add seeds"))?;
        if !plain_word(seed, 64) {
            return Err(ApiError::malformed(
                "a seed is 1 to 64 letters, digits, '-', '_', '.' or ':'",
            ));
        }
        if play.closed {
            return Err(ApiError::conflict("closed", "this table has ended"));
        }
        if play.seeds.get(&by).is_some_and(|s| s == seed) {
            return Ok(());
        }
        self.table_events(
            table,
            &mut play,
            vec![TableEvent::SeedAdded {
                by,
                seed: seed.to_string(),
            }],
            Vec::new(),
        )
        .await
    }

    /// End the table and reveal its secret.
    pub async fn close_table(&self, table: &Table, key: &str) -> Result<(), ApiError> {
        let mut play = self.owner_play(table, key).await?;
        let events = vec![
            TableEvent::Closed,
            TableEvent::SecretRevealed {
                secret: hex(&table.secret),
            },
        ];
        self.table_events(table, &mut play, events, Vec::new())
            .await
    }

    /// The table's record for `key`: see [`crate::export`].
    pub async fn export(&self, table: &Table, key: &str) -> Result<Value, ApiError> {
        let play = table.play.lock().await;
        let access = play.access(key, None)?;
        // Read under the lock, so the stored log and the game in memory are the same length.
        let stored = self
            .store
            .read_log(&table.id)
            .await
            .map_err(|e| ApiError::storage(e.to_string()))?;
        let seen = play.game.events_for(access.viewer, 0);
        let revealed = play.revealed();
        let source = crate::export::Source {
            table: &table.id,
            secret: &table.secret,
            commitment: &table.commitment,
            chance: table.chance,
            viewer: access.viewer,
            reader: crate::room::reader(&access),
            revealed,
            game_pos: &play.game_pos,
            seen: &seen,
        };
        Ok(crate::export::build(&source, &stored))
    }
}

/// Who a key contributes seeds as: the GM's link as `gm`, a player as their seat.
fn contributor(access: &Access) -> Option<String> {
    match (access.role, access.suspended) {
        (Role::Owner, _) => Some(Seat::Gm.to_string()),
        (Role::Seat(s), false) => Some(s.to_string()),
        _ => None,
    }
}

impl Play {
    /// Note what a table event changes in memory (links change alongside, separately).
    fn note(&mut self, event: &TableEvent) {
        match event {
            TableEvent::SeedAdded { by, seed } => {
                self.seeds.insert(by.clone(), seed.clone());
            }
            TableEvent::Closed | TableEvent::GameOver { .. } => self.closed = true,
            _ => {}
        }
    }

    fn revealed(&self) -> bool {
        self.items
            .iter()
            .rev()
            .any(|i| matches!(i, Item::Table(TableEvent::SecretRevealed { .. })))
    }

    fn change_link(&mut self, change: LinkChange) {
        match change {
            LinkChange::RemoveRole(role) => self.links.retain(|l| l.role != role),
            LinkChange::Remove(key) => self.links.retain(|l| l.key != key),
            LinkChange::Add(link) => self.links.push(link),
            LinkChange::SetStatus { key, status } => {
                if let Some(l) = self.links.iter_mut().find(|l| l.key == key) {
                    l.status = status;
                }
            }
        }
    }

    fn link(&self, key: &str) -> Option<&StoredLink> {
        self.links.iter().find(|l| same_key(&l.key, key))
    }

    /// The role `key` stands for, whatever its state.
    pub(crate) fn role(&self, key: &str) -> Result<Role, ApiError> {
        self.link(key)
            .filter(|l| l.status != LinkStatus::Npc)
            .and_then(|l| l.role.parse().ok())
            .ok_or_else(ApiError::bad_key)
    }

    pub(crate) fn holder(&self, seat: Seat) -> Holder {
        let role = seat.to_string();
        let statuses: Vec<LinkStatus> = self
            .links
            .iter()
            .filter(|l| l.role == role)
            .map(|l| l.status)
            .collect();
        if statuses.contains(&LinkStatus::Npc) {
            Holder::Npc
        } else if statuses.contains(&LinkStatus::Active) {
            Holder::Player
        } else if statuses.contains(&LinkStatus::Invite) {
            Holder::Invited
        } else if seat == Seat::Gm {
            Holder::Owner
        } else {
            Holder::Open
        }
    }

    fn check_seat(&self, table: &Table, seat: Seat) -> Result<(), ApiError> {
        if seat == Seat::Gm {
            return Err(ApiError::malformed(
                "the gm seat belongs to the GM link itself; invite players to p1, p2, …",
            ));
        }
        if !self.game.seats().contains(&seat) {
            return Err(ApiError::malformed(format!(
                "{} has no seat {seat} at this table",
                table.ruleset
            )));
        }
        Ok(())
    }

    /// A seat holding a secret choice its player made may change hands only back to that
    /// player: the GM could otherwise take it (or a new link to it) and read the choice.
    fn guard_secret(&self, seat: Seat, doing: &str) -> Result<(), ApiError> {
        // Only a choice the GM made themselves (playing the seat) may go with the seat; one whose
        // author the log does not know (a table from before the log) counts as the player's.
        let by_gm = matches!(self.last.get(&seat), Some((Sender::Gm, _)));
        if !by_gm && self.game.secret_pending(seat) {
            return Err(ApiError::conflict(
                "secret_pending",
                format!(
                    "{seat} has a secret choice waiting to be revealed; you can {doing} once the rules reveal it"
                ),
            ));
        }
        Ok(())
    }

    /// What `key` may do now, acting `as_seat` if it asks to.
    pub(crate) fn access(&self, key: &str, as_seat: Option<Seat>) -> Result<Access, ApiError> {
        let link = self.link(key).ok_or_else(ApiError::bad_key)?;
        let role: Role = link.role.parse().map_err(|_| ApiError::bad_key())?;
        let watch_only = |role, suspended| Access {
            role,
            seat: None,
            viewer: Viewer::Spectator,
            suspended,
        };
        match (role, link.status) {
            (_, LinkStatus::Npc) => Err(ApiError::bad_key()),
            (_, LinkStatus::Invite) => Err(ApiError::invite()),
            (Role::Seat(s), status) => {
                if let Some(other) = as_seat.filter(|o| *o != s) {
                    return Err(ApiError::forbidden(format!(
                        "this link is for {s}; it cannot act as {other}"
                    )));
                }
                Ok(match status {
                    LinkStatus::Suspended => watch_only(role, true),
                    _ => Access {
                        role,
                        seat: Some(s),
                        viewer: Viewer::Seat(s),
                        suspended: false,
                    },
                })
            }
            (Role::Spectator, _) => match as_seat {
                None => Ok(watch_only(role, false)),
                Some(_) => Err(ApiError::forbidden("a spectator link can only watch")),
            },
            (Role::Owner, _) => {
                let plays_gm = self.game.seats().contains(&Seat::Gm);
                let seat = match as_seat {
                    None => plays_gm.then_some(Seat::Gm),
                    Some(Seat::Gm) if plays_gm => Some(Seat::Gm),
                    Some(s) if self.holder(s) == Holder::Npc => Some(s),
                    Some(s) => {
                        return Err(ApiError::forbidden(format!(
                            "the GM link plays {s} only while the GM has taken that seat over (“Play as NPC” in the seat list)"
                        )));
                    }
                };
                Ok(Access {
                    role,
                    seat,
                    viewer: seat.map_or(Viewer::Spectator, Viewer::Seat),
                    suspended: false,
                })
            }
        }
    }

    pub(crate) fn seat_list(&self, owner: bool) -> Vec<SeatInfo> {
        self.game
            .seats()
            .into_iter()
            .map(|seat| {
                let role = seat.to_string();
                let holder = self.holder(seat);
                let invite = self
                    .links
                    .iter()
                    .find(|l| l.role == role && l.status == LinkStatus::Invite);
                SeatInfo {
                    seat,
                    holder,
                    suspended: self
                        .links
                        .iter()
                        .any(|l| l.role == role && l.status == LinkStatus::Suspended),
                    key: invite.filter(|_| owner).map(|l| l.key.clone()),
                }
            })
            .collect()
    }

    /// The log lines `access` may read from position `after` on.
    fn seen(&self, access: &Access, after: usize) -> Vec<SeenEntry> {
        let viewer = access.viewer;
        let reader = crate::room::reader(access);
        let game_from = self.game_pos.partition_point(|p| *p < after);
        let mut lines: Vec<SeenEntry> = self
            .game
            .events_for(viewer, game_from)
            .into_iter()
            .map(
                |SeenEvent {
                     index,
                     event,
                     text,
                     reveals,
                 }| SeenEntry {
                    index: self.game_pos[index],
                    event: Some(event),
                    table: None,
                    text,
                    reveals,
                },
            )
            .collect();
        for (index, item) in self.items.iter().enumerate().skip(after) {
            if let Item::Table(event) = item
                && event.readable_by(reader.as_deref())
            {
                lines.push(SeenEntry {
                    index,
                    event: None,
                    table: Some(event.public()),
                    text: event.narrate(&|s| self.game.seat_name(s)),
                    reveals: false,
                });
            }
        }
        lines.sort_by_key(|l| l.index);
        lines
    }
}

impl Table {
    /// The generator for command `n`.
    pub(crate) fn chance_for(&self, play: &Play, n: u64) -> Box<dyn Randomness> {
        match self.chance {
            Chance::V1 => {
                let seeds: Vec<(String, String)> = play
                    .seeds
                    .iter()
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect();
                let inputs = ChanceInputs {
                    secret: &self.secret,
                    table: &self.id,
                    command: n,
                    seeds: &seeds,
                };
                Box::new(DerivedRandomness::new(&inputs))
            }
            Chance::Legacy => Box::new(SeededRandomness::for_command(self.legacy_seed, n)),
        }
    }

    /// What `key` may do here now.
    pub async fn access(&self, key: &str, as_seat: Option<Seat>) -> Result<Access, ApiError> {
        self.play.lock().await.access(key, as_seat)
    }

    /// What `key` sees now (acting `as_seat`), with the log lines from `after` on.
    pub async fn update_for(
        &self,
        key: &str,
        as_seat: Option<Seat>,
        after: usize,
    ) -> Result<(Access, Update), ApiError> {
        let play = self.play.lock().await;
        let access = play.access(key, as_seat)?;
        let update = self.update_locked(&play, &access, after);
        Ok((access, update))
    }

    /// The next message for a live stream opened with `bound` rights: an update while the key
    /// still has exactly those rights, else the news that they changed. Decided under the same
    /// lock as every change of seat, so no update computed for old rights goes out after it.
    pub async fn push(
        &self,
        key: &str,
        as_seat: Option<Seat>,
        bound: &Access,
        after: usize,
    ) -> Push {
        let play = self.play.lock().await;
        match play.access(key, as_seat) {
            Ok(now) if now == *bound => {
                Push::Update(Box::new(self.update_locked(&play, &now, after)))
            }
            Ok(now) => Push::Changed {
                message: change_message(bound, &now),
            },
            Err(e) if e.code == "bad_key" => Push::Revoked,
            Err(_) => Push::Changed {
                message: match bound.seat {
                    Some(s) => format!("you no longer play {s} from this page"),
                    None => "what this link may see has changed".into(),
                },
            },
        }
    }

    fn update_locked(&self, play: &Play, access: &Access, after: usize) -> Update {
        let game = &play.game;
        let legal = match (access.seat, play.closed) {
            (Some(s), false) => game
                .legal_commands(s)
                .into_iter()
                .map(|c| LegalCommand {
                    label: label(&c),
                    command: c,
                })
                .collect(),
            _ => Vec::new(),
        };
        let revealed = play.revealed();
        Update {
            table: self.id.clone(),
            ruleset: self.ruleset,
            title: crate::room::title(self, play),
            viewer: access.viewer.to_string(),
            seat: access.seat,
            event_count: play.items.len(),
            head: hex(&play.head),
            events: play.seen(access, after),
            view: game.view(access.viewer),
            render: game.render(access.viewer),
            legal,
            seats: play.seat_list(false),
            fairness: Fairness {
                chance: self.chance,
                commitment: self.commitment.clone(),
                seeds: play.seeds.clone(),
                names: play
                    .seeds
                    .keys()
                    .filter_map(|by| {
                        by.parse::<Seat>()
                            .ok()
                            .map(|s| (by.clone(), game.seat_name(s)))
                    })
                    .collect(),
                contributor: contributor(access),
                secret: revealed.then(|| hex(&self.secret)),
            },
            closed: play.closed,
            notice: access.suspended.then(|| {
                "The GM plays your seat for now; you are watching until it is handed back."
                    .to_string()
            }),
            command: None,
            room: crate::room::view(self, play, access),
        }
    }

    /// Who holds each seat; the owner also sees unused invites.
    pub async fn seat_list(&self, owner: bool) -> Vec<SeatInfo> {
        self.play.lock().await.seat_list(owner)
    }

    /// The owner's and the spectators' keys (for the owner's page).
    pub async fn key_of(&self, role: Role) -> Option<String> {
        let play = self.play.lock().await;
        let name = role.to_string();
        play.links
            .iter()
            .find(|l| l.role == name && l.status == LinkStatus::Active)
            .map(|l| l.key.clone())
    }

    /// A receiver that wakes on every change to this table.
    pub fn watch(&self) -> watch::Receiver<u64> {
        self.changed.subscribe()
    }

    pub async fn event_count(&self) -> usize {
        self.play.lock().await.items.len()
    }
}

/// Why a stream's rights changed, in words for its page.
fn change_message(before: &Access, now: &Access) -> String {
    match (before.seat, now.seat, now.suspended) {
        (_, _, true) => {
            "The GM has taken over your seat; this page now only watches until it is handed back."
                .into()
        }
        (None, Some(_), _) if before.suspended => "Your seat is yours again.".into(),
        (Some(s), _, _) if before.role == Role::Owner => {
            format!("You no longer play {s}: it went back to a player or changed hands.")
        }
        _ => "What this link may see has changed.".into(),
    }
}
