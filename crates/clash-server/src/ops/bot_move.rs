//! A seated bot's command, sent by the table's bot runner ([`crate::bots`]) for the game as the
//! bot saw it: it goes through the same rules as any player's, as `bot` in the log.

use std::sync::Arc;

use clash_core::{AnyGame, Seat};
use serde_json::Value;

use super::command::{Sending, decide_command};
use super::{At, Decision, Operation, When, Who, sealed};
use crate::error::TableError;
use crate::log::Sender;

pub struct BotMove {
    pub seat: Seat,
    pub command: Value,
    /// The game the bot decided from: if the table moved on since, nothing is sent.
    pub game: Arc<dyn AnyGame>,
}

impl sealed::Sealed for BotMove {}

impl Operation for BotMove {
    /// Whether the command was sent (false: the game moved on, the bot got up, or the table
    /// ended or was archived while the bot thought).
    type Answer = bool;

    fn who(&self) -> Who<'_> {
        Who::Bot(self.seat)
    }

    fn when(&self) -> When {
        When::ANY
    }

    async fn decide(&self, at: &At<'_>) -> Result<Decision<bool>, TableError> {
        let play = at.play;
        let current = Arc::ptr_eq(&play.game, &self.game) && play.bots.contains_key(&self.seat);
        if !current || play.closed || play.archived {
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
        Ok(Decision {
            change: decision.change,
            answer: true,
        })
    }
}
