//! A command to the game, from the seat a key acts for: decided by the rules on a copy of the
//! game, with chance drawn from the table's verifiable randomness, and committed with its events
//! (and the end of the table, when the game is over).

use std::sync::Arc;
use std::time::Instant;

use clash_core::Seat;
use serde_json::Value;

use super::{At, Change, Decision, Operation, When, Who, acting_seat, sealed};
use crate::error::{Conflict, TableError};
use crate::log::{CommandEntry, Entry, Sender, TableEvent, canonical, hex};
use crate::server::Server;
use crate::store::{LinkChange, StoredCommand};
use crate::table::links::Role;
use crate::table::play::Sent;
use crate::table::{Answer, Table};
use crate::view::snapshot::Receipt;

/// A command as a client sent it.
#[derive(Clone)]
pub struct Command {
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

impl sealed::Sealed for Command {}

impl Operation for Command {
    /// The command's number at the table.
    type Answer = u64;

    fn who(&self) -> Who<'_> {
        Who::Seat {
            key: &self.key,
            as_seat: self.as_seat,
        }
    }

    fn when(&self) -> When {
        When {
            ended: Some("this table has ended: it takes no more commands"),
            in_play: true,
        }
    }

    async fn decide(&self, at: &At<'_>) -> Result<Decision<u64>, TableError> {
        let seat = acting_seat(at.actor)?;
        let by = match at.actor.access() {
            Some(access) if access.role == Role::Owner => Sender::Gm,
            _ => Sender::Player,
        };
        let sending = Sending {
            seat,
            by,
            command: &self.command,
            id: self.id.clone(),
            ask: self.ask,
        };
        decide_command(at, sending).await
    }

    fn id(&self) -> Option<&str> {
        self.id.as_deref()
    }

    fn again(&self, sent: &Sent, seat: Seat) -> Result<u64, TableError> {
        if sent.seat != seat || sent.command != canonical(&self.command) {
            return Err(TableError::conflict(
                Conflict::IdReused,
                format!(
                    "command id {:?} was already used for a different command",
                    self.id.as_deref().unwrap_or_default()
                ),
            ));
        }
        Ok(sent.n)
    }

    fn seen(&self) -> Option<usize> {
        self.revision
    }
}

/// A command on its way into the log: from which seat, sent by whom, and how.
pub struct Sending<'a> {
    pub seat: Seat,
    pub by: Sender,
    pub command: &'a Value,
    /// The client's command id, if it sent one.
    pub id: Option<String>,
    /// Refuse a weighty command with its question instead of applying it.
    pub ask: bool,
}

/// Decide a command on a copy of the game (the rules' work, off the request threads): the log
/// entries it makes, the command row, and the game after it. Answers its number.
pub async fn decide_command(
    at: &At<'_>,
    sending: Sending<'_>,
) -> Result<Decision<u64>, TableError> {
    let Sending {
        seat,
        by,
        command,
        id,
        ask,
    } = sending;
    let n = at.play.commands;
    let (game, events, draws) = at.table.decide(at.play, seat, command, n)?;
    // A page that asks first: a weighty command the rules would take is put to the player as a
    // question instead (the decision above was made on a copy and is dropped).
    if ask && let Some(question) = at.play.game.confirm(seat, command) {
        return Err(TableError::conflict(Conflict::Confirm, question));
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
                secret: hex(&at.table.meta.secret),
            },
        });
    }
    let stored = StoredCommand {
        n,
        seat: seat.to_string(),
        command: command.clone(),
        id,
    };
    // A seat the game no longer has (one the GM removed in session zero) takes its links with
    // it: its player's key, and an invite still out, stop working in the same commit.
    let now = game.seats();
    let links = at
        .play
        .game
        .seats()
        .into_iter()
        .filter(|s| !now.contains(s))
        .map(|s| LinkChange::RemoveRole(s.to_string()))
        .collect();
    let change = Change::Append {
        entries,
        command: Some(stored),
        links,
        game: Some(game),
    };
    Ok(Decision::change(change, n))
}

impl Server {
    /// Apply a command; acknowledged only once it and its events are committed. A command whose
    /// id was applied before is answered again without being applied.
    pub async fn command(
        self: &Arc<Self>,
        table: &Arc<Table>,
        command: Command,
    ) -> Result<Answer, TableError> {
        let started = Instant::now();
        let id = command.id.clone();
        let done = self.execute(table, command).await?;
        if !done.duplicate {
            self.metrics().commands.inc();
            self.metrics()
                .command_seconds
                .observe(started.elapsed().as_secs_f64());
        }
        Ok(Answer {
            snapshot: done.snapshot,
            // A command comes from a key, which always has rights.
            access: done
                .access
                .unwrap_or_else(crate::table::play::Access::nobody),
            after: done.at,
            receipt: Some(Receipt {
                n: done.answer,
                id,
                duplicate: done.duplicate,
            }),
        })
    }
}
