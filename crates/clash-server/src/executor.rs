//! The executor: the one place every table operation ([`crate::ops`]) runs through.
//!
//! For each operation, in this order and under the table's lock:
//! 1. the table is caught up with the changes other nodes announced, and the key resolved to
//!    an [`Actor`] with the rights it has *now* ([`resolve`]); where memory may still lag
//!    another node's change not yet announced, step 8 finds out (and an answer that changed
//!    nothing is checked against the table's head before it is given);
//! 2. a retry of a request already taken (same client id) is answered again, not applied;
//! 3. the operation is refused once the table has ended or while it is archived, as it says;
//! 4. a request sent from a view older than the actor's seat's last move is refused;
//! 5. the operation decides;
//! 6. once the table's secret is revealed its record is final: housekeeping (a new name,
//!    archiving, who holds which link) is kept beside the log, anything else is refused
//!    ([`crate::table::keeping`]); before that, a change past one of the table's caps is refused
//!    ([`crate::table::caps`]);
//! 7. **the secret guard**: a change of who holds, plays or sees a seat is refused while that
//!    seat holds a secret choice its player made and the rules have not revealed
//!    ([`guard_seats`]), whatever the operation — so no route can hand a player's pending
//!    choice to anyone else (only the actor's own seat may keep its choice, when the operation
//!    keeps it with the same person: claiming an invite, moving one's seat to another device);
//! 8. the change is hash-chained onto the log and committed, and only then taken into memory;
//!    a change that lost the race for the log to another node writes nothing, the table
//!    catches up, and the operation is decided again from the start;
//! 9. every stream of the table is woken, and the notifier is told of the change
//!    ([`crate::notify`]; it only queues it).
//!
//! Each attempt runs as a task of its own, so a client that hangs up (or a request that runs out
//! of time) cannot leave a change committed to the database but not to memory.

use std::collections::BTreeMap;
use std::sync::Arc;

use clash_core::{Seat, Strength};

use crate::error::{Conflict, TableError};
use crate::log::{Chainer, Entry, TableEvent, capitalised};
use crate::ops::{Actor, After, At, Change, Operation, When, Who, acting_seat};
use crate::server::Server;
use crate::store::{LinkStatus, StoredLink, Write};
use crate::table::Table;
use crate::table::links::{Role, plain_word};
use crate::table::play::{Access, Play, apply_link};
use crate::view::snapshot::Snapshot;
use crate::work::detached;

/// How often a change that lost a race for the log to another node is decided again.
const RACE_RETRIES: u32 = 8;

/// What an operation came to.
pub struct Done<A> {
    pub answer: A,
    /// The table as it stands after the change.
    pub snapshot: Arc<Snapshot>,
    /// The rights of the key that asked, as they were when it was decided.
    pub access: Option<Access>,
    /// The log position where the change begins (for a retry: where it began then).
    pub at: usize,
    /// A retry of a request taken before: nothing was applied now.
    pub duplicate: bool,
}

impl Server {
    /// Run `op` on `table`: see the module documentation.
    pub async fn execute<O: Operation>(
        self: &Arc<Self>,
        table: &Arc<Table>,
        op: O,
    ) -> Result<Done<O::Answer>, TableError> {
        let op = Arc::new(op);
        let (mut tries, mut checked) = (0, false);
        loop {
            let (server, t, o) = (self.clone(), table.clone(), op.clone());
            let result = detached(async move { server.attempt(&t, o.as_ref()).await }).await;
            // Decided on memory without asking the database (see `attempt`): an answer that
            // changed nothing may rest on memory another node has overtaken, so check once.
            let unchanged = !matches!(result, Ok((_, true)));
            if unchanged && !result.as_ref().is_err_and(TableError::raced) && !checked {
                checked = true;
                if table.overtaken().await? {
                    continue;
                }
            }
            match result {
                Err(e) if e.raced() && tries < RACE_RETRIES => tries += 1,
                Err(e) => return Err(e),
                Ok((done, changed)) => {
                    if changed && op.after() == After::RunBots {
                        self.run_bots(table);
                    }
                    return Ok(done);
                }
            }
        }
    }

    /// One attempt at `op`; answers whether anything was committed.
    async fn attempt<O: Operation>(
        self: &Arc<Self>,
        table: &Arc<Table>,
        op: &O,
    ) -> Result<(Done<O::Answer>, bool), TableError> {
        // Memory as it stands, without reading the table's head from a database shared with
        // other nodes: a change decided on memory that another node overtook loses the race
        // for the log when it is written (and is decided again), and an answer that changed
        // nothing is checked afterwards (`execute`). A command that changes the table costs no
        // read of its head.
        let mut play = table.lock().await?;
        let actor = resolve(&play, op.who())?;
        if let Some(done) = retried(&play, op, &actor)? {
            return Ok((done, false));
        }
        check_when(&play, op.when())?;
        check_seen(&play, op, &actor)?;
        let at = At {
            entry: table.source.entry,
            store: self.store(),
            table,
            play: &play,
            actor: &actor,
        };
        let decision = op.decide(&at).await?;
        let begins = play.revision();
        let changed = decision.change.is_some();
        if let Some(change) = decision.change {
            let change = crate::table::keeping::after_the_end(&play, change)?;
            // A change with no log entry cannot lose a race for the log: make sure it was
            // decided on the latest table first.
            if !change.appends() && table.bring_up_to_date(&mut play).await? {
                return Err(TableError::conflict(
                    Conflict::Raced,
                    "another server changed this table at the same moment",
                ));
            }
            let paced = within_caps(&self.limits().caps, &play, &actor, &change)?;
            let kept = op.same_person().then(|| own_seat(&actor)).flatten();
            guard_seats(&play, &change, op.doing(), kept)?;
            let before = play.snapshot.clone();
            self.commit(table, &mut play, change).await?;
            play.pace.note(&paced, std::time::Instant::now());
            // Who should hear of it (queued only: see crate::notify).
            self.notify_committed(table, before, &play, &actor);
        }
        let done = Done {
            answer: decision.answer,
            snapshot: play.snapshot.clone(),
            access: actor.access().cloned(),
            at: begins,
            duplicate: false,
        };
        drop(play);
        if changed {
            table.announce();
        }
        Ok((done, changed))
    }

    /// Commit `change` and take it into memory. The caller holds the table's lock.
    async fn commit(
        &self,
        table: &Table,
        play: &mut Play,
        change: Change,
    ) -> Result<(), TableError> {
        match change {
            Change::Append {
                entries,
                command,
                links,
                game,
            } => {
                let mut chainer = Chainer {
                    secret: &table.meta.secret,
                    table: &table.id,
                    head: play.head,
                    next: play.revision() as u64,
                };
                let log: Vec<_> = entries.iter().map(|e| chainer.push(e)).collect();
                let hashes: Vec<_> = log.iter().map(|(_, _, hash)| *hash).collect();
                let write = Write::Append {
                    table_id: table.id.clone(),
                    log,
                    command,
                    links: links.clone(),
                };
                self.write(table, play, write).await?;
                play.take_in(entries.into_iter().zip(hashes), game, links);
                play.refresh(table.meta.clone());
                Ok(())
            }
            Change::Keep(keeping) => {
                let write = Write::Keep {
                    table_id: table.id.clone(),
                    title: keeping.title.clone(),
                    archived: keeping.archived,
                    links: keeping.links.clone(),
                };
                self.write(table, play, write).await?;
                play.keep(&keeping);
                play.refresh(table.meta.clone());
                // The log is as it was: tell the streams the picture changed all the same.
                play.presence.touch();
                Ok(())
            }
            Change::Delete => {
                let write = Write::DeleteTable {
                    id: table.id.clone(),
                };
                self.write(table, play, write).await?;
                play.deleted = true;
                self.tables().forget(&table.id);
                tracing::info!(table = %table.id, "table deleted");
                Ok(())
            }
        }
    }

    /// Write to the store. On a lost race, catch up and say so (the executor decides again);
    /// on any other failure, read memory back from the database (it may hold less).
    async fn write(&self, table: &Table, play: &mut Play, write: Write) -> Result<(), TableError> {
        let Err(e) = self.store().write(write).await else {
            return Ok(());
        };
        if e.raced {
            tracing::debug!(table = %table.id, "raced another node for the log");
            if let Err(e) = table.catch_up(play).await {
                tracing::warn!(table = %table.id, error = %e, "catching up failed");
                table.reload(play).await;
            }
            table.announce();
            return Err(TableError::conflict(
                Conflict::Raced,
                "another server changed this table at the same moment; look at the table again",
            ));
        }
        tracing::error!(table = %table.id, error = %e, "a change was not stored");
        table.reload(play).await;
        Err(TableError::storage(format!(
            "the change was not saved, so it did not happen: {e}"
        )))
    }
}

/// Who is asking, with the rights they have now.
fn resolve(play: &Play, who: Who<'_>) -> Result<Actor, TableError> {
    let key = |k: &str| k.to_string();
    match who {
        Who::Gm { key: k, refusal } => {
            if play.role(k)? != Role::Owner {
                return Err(TableError::forbidden(refusal));
            }
            let access = play.access(k, None)?;
            Ok(Actor::Key {
                key: key(k),
                access,
            })
        }
        Who::Key { key: k, as_seat } => Ok(Actor::Key {
            key: key(k),
            access: play.access(k, as_seat)?,
        }),
        Who::Seat { key: k, as_seat } => {
            let actor = Actor::Key {
                key: key(k),
                access: play.access(k, as_seat)?,
            };
            acting_seat(&actor)?;
            Ok(actor)
        }
        Who::Invite { key: k } => {
            let link = play.link(k).ok_or(TableError::BadKey)?;
            match (link.status, link.role.parse::<Role>()) {
                (LinkStatus::Invite | LinkStatus::Transfer, Ok(Role::Seat(seat))) => {
                    Ok(Actor::Invite {
                        key: key(k),
                        seat,
                        moving: link.status == LinkStatus::Transfer,
                        used: false,
                    })
                }
                // Used already: only a retry of the request that used it gets anywhere (see
                // crate::ops::claim).
                (LinkStatus::Used, Ok(Role::Seat(seat))) => Ok(Actor::Invite {
                    key: key(k),
                    seat,
                    moving: false,
                    used: true,
                }),
                (LinkStatus::Used, _) => Err(TableError::InviteUsed),
                _ => Err(TableError::conflict(
                    Conflict::NotInvite,
                    "this link is not an unused invite",
                )),
            }
        }
        Who::Bot(seat) => Ok(Actor::Bot(seat)),
    }
}

/// Refuse `change` past one of the table's caps; answers what it appends that counts towards
/// the per-minute caps (a person's request; not the server's own).
fn within_caps(
    caps: &crate::table::caps::Caps,
    play: &Play,
    actor: &Actor,
    change: &Change,
) -> Result<Vec<Entry>, TableError> {
    let Change::Append { entries, .. } = change else {
        return Ok(Vec::new());
    };
    let paced = !matches!(actor, Actor::Bot(_));
    crate::table::caps::check(&play.tally, &play.pace, entries, caps, paced)?;
    Ok(if paced { entries.clone() } else { Vec::new() })
}

/// A retry of a request the table already took (same client id): answered again.
fn retried<O: Operation>(
    play: &Play,
    op: &O,
    actor: &Actor,
) -> Result<Option<Done<O::Answer>>, TableError> {
    let Some(id) = op.id() else {
        return Ok(None);
    };
    if !plain_word(id, 100) {
        return Err(TableError::malformed(
            "a command id is 1 to 100 letters, digits, '-', '_', '.' or ':'",
        ));
    }
    let Some(sent) = play.ids.get(id) else {
        return Ok(None);
    };
    let answer = op.again(sent, acting_seat(actor)?)?;
    Ok(Some(Done {
        answer,
        snapshot: play.snapshot.clone(),
        access: actor.access().cloned(),
        at: sent.pos,
        duplicate: true,
    }))
}

fn check_when(play: &Play, when: When) -> Result<(), TableError> {
    if let (Some(message), true) = (when.ended, play.closed) {
        return Err(TableError::conflict(Conflict::Closed, message));
    }
    if when.in_play {
        play.check_in_play()?;
    }
    Ok(())
}

/// Refuse a request sent from a view older than its seat's last move.
fn check_seen<O: Operation>(play: &Play, op: &O, actor: &Actor) -> Result<(), TableError> {
    let (Some(seen), Ok(seat)) = (op.seen(), acting_seat(actor)) else {
        return Ok(());
    };
    match play.last.get(&seat) {
        Some((_, at)) if *at >= seen => Err(TableError::conflict(
            Conflict::Stale,
            format!(
                "{} has already moved since this page last updated (perhaps in another tab); look at the table again before sending this",
                capitalised(&play.game.seat_name(seat))
            ),
        )),
        _ => Ok(()),
    }
}

/// Who controls a seat: the keys that may act for or watch it (with their status), and the bot
/// that plays it.
type Control<'a> = (Vec<(&'a str, LinkStatus)>, Option<Strength>);

fn control<'a>(
    links: &'a [StoredLink],
    bots: &BTreeMap<Seat, Strength>,
    seat: Seat,
) -> Control<'a> {
    let role = seat.to_string();
    // A tombstone controls nothing: it only says what became of a key.
    let mut keys: Vec<(&str, LinkStatus)> = links
        .iter()
        .filter(|l| l.role == role && !l.status.is_tombstone())
        .map(|l| (l.key.as_str(), l.status))
        .collect();
    keys.sort_by_key(|(k, _)| *k);
    (keys, bots.get(&seat).copied())
}

/// The seats whose control `change` alters: its link changes, and any bot it seats or unseats.
pub fn seats_changing_hands(play: &Play, change: &Change) -> Vec<Seat> {
    let (entries, links) = match change {
        Change::Append { entries, links, .. } => (entries.as_slice(), links),
        Change::Keep(keeping) => (&[][..], &keeping.links),
        Change::Delete => return Vec::new(),
    };
    let mut after_links = play.links.clone();
    for link in links {
        apply_link(&mut after_links, link.clone());
    }
    let mut after_bots = play.bots.clone();
    for entry in entries {
        match entry {
            Entry::Table {
                event: TableEvent::BotSeated { seat, strength },
            } => {
                after_bots.insert(*seat, *strength);
            }
            Entry::Table {
                event: TableEvent::BotUnseated { seat },
            } => {
                after_bots.remove(seat);
            }
            _ => {}
        }
    }
    play.game
        .seats()
        .into_iter()
        .filter(|s| control(&play.links, &play.bots, *s) != control(&after_links, &after_bots, *s))
        .collect()
}

/// The seat an actor stands for as its own player: an invite's or move link's seat, or a
/// player's key that is not suspended. Never the GM's: the GM's link is not a seat's player.
fn own_seat(actor: &Actor) -> Option<Seat> {
    match actor {
        Actor::Invite { seat, .. } => Some(*seat),
        Actor::Key { access, .. } => match (access.role, access.suspended) {
            (Role::Seat(s), false) => Some(s),
            _ => None,
        },
        Actor::Bot(_) => None,
    }
}

/// The secret guard: refuse `change` if it alters who controls a seat while that seat holds a
/// secret choice its player made. A choice the GM (or the GM's bot) made for the seat may go
/// with it: it goes back to the seat's player, whose seat it is. `kept` is the one seat the
/// change keeps with the same person (its own player changing devices), whose choice goes
/// with them.
fn guard_seats(
    play: &Play,
    change: &Change,
    doing: &str,
    kept: Option<Seat>,
) -> Result<(), TableError> {
    let moved = seats_changing_hands(play, change);
    for seat in moved.into_iter().filter(|s| Some(*s) != kept) {
        if play.players_secret_pending(seat) {
            return Err(TableError::conflict(
                Conflict::SecretPending,
                format!(
                    "{} has a secret choice waiting to be revealed; you can {doing} once the rules reveal it",
                    capitalised(&play.game.seat_name(seat))
                ),
            ));
        }
    }
    Ok(())
}
