//! A table's live state, behind its lock: the game, the log as memory needs it, the links, and
//! the rules of who may do what with a key.
//!
//! The game is held as an immutable snapshot: a change is decided on a copy, and the copy
//! replaces it only once the change is committed. So a refused or unsaved change leaves nothing
//! behind, and readers can use the snapshot after the lock is released (see [`crate::snapshot`]).

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, RwLock};

use clash_core::{AnyGame, RulesetEntry, Seat, Strength, Viewer};
use serde::Serialize;

use crate::error::ApiError;
use crate::links::{Role, same_key};
use crate::log::{Entry, Hash, Sender, TableEvent, canonical};
use crate::presence::Presence;
use crate::snapshot::{Meta, Snapshot};
use crate::store::{LinkChange, LinkStatus, StoredLink, StoredTable};

/// What one position of the log holds, as far as memory needs to know.
#[derive(Clone)]
pub enum Item {
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
    pub items: Vec<Item>,
    /// The log position of each game event, by its index in the game's own log.
    pub game_pos: Vec<usize>,
}

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
    /// Who has the table open (shared with the table; kept across a reload).
    pub presence: Arc<Presence>,
    /// Everything a reader needs, as of the last change.
    pub snapshot: Arc<Snapshot>,
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
    /// A bot the GM seated plays it.
    Bot,
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
    /// How well the seat's bot plays, while a bot holds it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bot: Option<Strength>,
    /// Who holds the seat once its bot gets up: the GM (an NPC) or nobody.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub under: Option<Holder>,
}

/// What a key may do at a table right now.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Access {
    pub role: Role,
    /// The seat it acts as, if any.
    pub seat: Option<Seat>,
    /// What it sees.
    pub viewer: Viewer,
    /// A player's key while the GM plays the seat: it only watches.
    pub suspended: bool,
}

/// Who a key contributes seeds as: the GM's link as `gm`, a player as their seat.
pub fn contributor(access: &Access) -> Option<String> {
    match (access.role, access.suspended) {
        (Role::Owner, _) => Some(Seat::Gm.to_string()),
        (Role::Seat(s), false) => Some(s.to_string()),
        _ => None,
    }
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
        // A copy of the ledger: snapshots taken before keep reading the one they know.
        let copy = self
            .ledger
            .read()
            .unwrap_or_else(|p| p.into_inner())
            .clone();
        self.ledger = Arc::new(RwLock::new(copy));
        for (i, (logged, hash)) in tail.log.into_iter().enumerate() {
            self.absorb(from + i, logged, hash);
        }
        self.game = Arc::from(game);
        self.links = tail.links;
        self.refresh(meta);
    }

    /// Take one logged entry into memory (its game events are the caller's: [`replay_game`]).
    fn absorb(&mut self, pos: usize, logged: Entry, hash: Hash) {
        self.head = hash;
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
                ledger.items.push(Item::Command { n, seat, chance });
            }
            Entry::Event { .. } => {
                ledger.game_pos.push(pos);
                ledger.items.push(Item::Game);
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
                    .push(Item::Table(public));
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
            crate::snapshot::Taken {
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
                undo: crate::undo::offer(self),
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
            _ => {}
        }
    }

    /// Refuse play and talk at an archived table.
    pub fn check_in_play(&self) -> Result<(), ApiError> {
        if self.archived {
            return Err(ApiError::conflict(
                crate::error::Conflict::Archived,
                "the GM has archived this table; it takes no moves or talk until the GM brings it back",
            ));
        }
        Ok(())
    }

    /// Go on with `game`, which lacks the last `dropped` game events (a command taken back): the
    /// log keeps them, but they no longer stand for events of the game.
    pub fn rewind(&mut self, game: Box<dyn AnyGame>, dropped: usize) {
        let mut ledger = self
            .ledger
            .read()
            .unwrap_or_else(|p| p.into_inner())
            .clone();
        let keep = ledger.game_pos.len().saturating_sub(dropped);
        ledger.game_pos.truncate(keep);
        self.ledger = Arc::new(RwLock::new(ledger));
        self.game = Arc::from(game);
    }

    pub fn change_link(&mut self, change: LinkChange) {
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

    pub fn link(&self, key: &str) -> Option<&StoredLink> {
        self.links.iter().find(|l| same_key(&l.key, key))
    }

    /// The role `key` stands for, whatever its state.
    pub fn role(&self, key: &str) -> Result<Role, ApiError> {
        self.link(key)
            .filter(|l| l.status != LinkStatus::Npc)
            .and_then(|l| l.role.parse().ok())
            .ok_or_else(ApiError::bad_key)
    }

    pub fn holder(&self, seat: Seat) -> Holder {
        if self.bots.contains_key(&seat) {
            return Holder::Bot;
        }
        self.linked(seat)
    }

    /// Who holds a seat by its links alone (the GM or a player, an invite, nobody), whether or
    /// not a bot sits in it now.
    pub fn linked(&self, seat: Seat) -> Holder {
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

    /// A seat the GM may manage: one of the game's player seats.
    pub fn check_seat(&self, ruleset: &str, seat: Seat) -> Result<(), ApiError> {
        if seat == Seat::Gm {
            return Err(ApiError::malformed(
                "the gm seat belongs to the GM link itself; invite players to p1, p2, …",
            ));
        }
        self.known_seat(ruleset, seat)
    }

    /// A seat this table's game has.
    pub fn known_seat(&self, ruleset: &str, seat: Seat) -> Result<(), ApiError> {
        let seats = self.game.seats();
        if !seats.contains(&seat) {
            let names: Vec<String> = seats.iter().map(Seat::to_string).collect();
            return Err(ApiError::UnknownSeat(format!(
                "unknown seat {seat}: this {ruleset} table has {}",
                names.join(", ")
            )));
        }
        Ok(())
    }

    /// Refuse a change of hands while a bot plays `seat`: the GM takes the seat back first.
    pub fn guard_bot(&self, seat: Seat, doing: &str) -> Result<(), ApiError> {
        if self.bots.contains_key(&seat) {
            return Err(ApiError::conflict(
                crate::error::Conflict::BotSeated,
                format!(
                    "a bot plays {} now; take the seat back from it before you {doing}",
                    self.game.seat_name(seat)
                ),
            ));
        }
        Ok(())
    }

    /// A seat holding a secret choice its player made may change hands only back to that
    /// player: the GM could otherwise take it (or a new link to it) and read the choice.
    pub fn guard_secret(&self, seat: Seat, doing: &str) -> Result<(), ApiError> {
        // Only a choice the GM made themselves (playing the seat) may go with the seat; one whose
        // author the log does not know (a table from before the log) counts as the player's.
        let by_gm = matches!(self.last.get(&seat), Some((Sender::Gm, _)));
        if !by_gm && self.game.secret_pending(seat) {
            return Err(ApiError::conflict(
                crate::error::Conflict::SecretPending,
                format!(
                    "{seat} has a secret choice waiting to be revealed; you can {doing} once the rules reveal it"
                ),
            ));
        }
        Ok(())
    }

    /// What `key` may do now, acting `as_seat` if it asks to.
    pub fn access(&self, key: &str, as_seat: Option<Seat>) -> Result<Access, ApiError> {
        if self.deleted {
            return Err(ApiError::BadKey);
        }
        let link = self.link(key).ok_or_else(ApiError::bad_key)?;
        let role: Role = link.role.parse().map_err(|_| ApiError::bad_key())?;
        if let Some(s) = as_seat {
            self.known_seat(self.game.ruleset(), s)?;
        }
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
                    // A seat the GM seated a bot in is the GM's too: the GM does what the bot
                    // leaves to people (words, table business) from the seat's own page.
                    Some(s) if matches!(self.holder(s), Holder::Npc | Holder::Bot) => Some(s),
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

    pub fn seat_list(&self, owner: bool) -> Vec<SeatInfo> {
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
                    bot: self.bots.get(&seat).copied(),
                    under: (holder == Holder::Bot).then(|| self.linked(seat)),
                }
            })
            .collect()
    }

    /// The active key of the owner or the spectators.
    pub fn key_of(&self, role: Role) -> Option<String> {
        let name = role.to_string();
        self.links
            .iter()
            .find(|l| l.role == name && l.status == LinkStatus::Active)
            .map(|l| l.key.clone())
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
                game = crate::undo::rebuilt(game.as_ref(), entry.new_game, *undone as usize)
                    .map_err(|e| format!("log entry {pos}: {e}"))?;
                events = events.saturating_sub(*undone as usize);
            }
            _ => {}
        }
    }
    Ok(game)
}
