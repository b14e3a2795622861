//! A seat's clock ran out and the GM chose to let a bot move for it: the catalogue's bot makes
//! a casual move from the seat's own view, sent by the server's clock
//! ([`crate::notify::clock`]) for the game as the bot saw it, after a `clock_ran_out` table
//! event that tells everyone why. It goes through the same rules as any player's command, as
//! `bot` in the log.

use std::sync::Arc;

use clash_core::{AnyGame, Seat};
use serde_json::Value;

use super::command::{Sending, decide_command};
use super::{At, Change, Decision, Operation, When, Who, sealed};
use crate::error::TableError;
use crate::log::{Entry, Sender, TableEvent};

pub struct ClockMove {
    pub seat: Seat,
    pub command: Value,
    /// The game the bot decided from: if the table moved on since, nothing is sent.
    pub game: Arc<dyn AnyGame>,
}

impl sealed::Sealed for ClockMove {}

impl Operation for ClockMove {
    /// Whether the move was made (false: the game moved on, or the table ended or was
    /// archived meanwhile).
    type Answer = bool;

    fn who(&self) -> Who<'_> {
        Who::Bot(self.seat)
    }

    fn when(&self) -> When {
        When::ANY
    }

    async fn decide(&self, at: &At<'_>) -> Result<Decision<bool>, TableError> {
        let play = at.play;
        let waited = play.snapshot.status().waiting_for.contains(&self.seat);
        if !Arc::ptr_eq(&play.game, &self.game) || !waited || play.closed || play.archived {
            return Ok(Decision::nothing(false));
        }
        let sending = Sending {
            seat: self.seat,
            by: Sender::Bot,
            command: &self.command,
            id: None,
            ask: false,
        };
        let decision = decide_command(at, sending).await?;
        let change = decision.change.map(|change| match change {
            Change::Append {
                mut entries,
                command,
                links,
                game,
            } => {
                let ran_out = TableEvent::ClockRanOut { seat: self.seat };
                entries.insert(0, Entry::Table { event: ran_out });
                Change::Append {
                    entries,
                    command,
                    links,
                    game,
                }
            }
            other => other,
        });
        Ok(Decision {
            change,
            answer: true,
        })
    }
}
