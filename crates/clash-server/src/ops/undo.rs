//! The GM takes back the last command still standing (see [`crate::table::undo`] for when one may be).

use super::{At, Change, Decision};
use crate::error::{Conflict, TableError};
use crate::log::{Entry, TableEvent};
use crate::table::undo::{candidate, rebuilt};
use crate::work::{self, Pool};

pub struct Undo {
    pub key: String,
    /// The number of the command to take back, if the GM named it: refused if it is no longer
    /// the last one standing.
    pub expected: Option<u64>,
}

gm_operation!(Undo => (), super::When::PLAYING, "only the GM's link (the table's creator) can take a command back");

impl Undo {
    async fn decided(&self, at: &At<'_>) -> Result<Decision<()>, TableError> {
        let c =
            candidate(at.play.game.as_ref(), &at.play.ledger, at.play.closed).map_err(|why| {
                TableError::conflict(
                    Conflict::CannotUndo,
                    format!("nothing can be taken back: {why}"),
                )
            })?;
        if let Some(n) = self.expected.filter(|n| *n != c.n) {
            return Err(TableError::conflict(
                Conflict::Stale,
                format!(
                    "command {n} is not the last one standing any more; look at the table again"
                ),
            ));
        }
        let entry = at.entry;
        let game = at.play.game.clone();
        // Replaying the game is the rules' work: off the threads that serve requests.
        let fresh = work::run(Pool::Decide, move || {
            rebuilt(game.as_ref(), entry.new_game, c.events)
        })
        .await?
        .map_err(|e| {
            TableError::storage(format!("the game could not be rebuilt without it: {e}"))
        })?;
        let event = TableEvent::Undone {
            n: c.n,
            seat: c.seat,
            at: c.at as u64,
            events: c.events as u64,
        };
        let change = Change::Append {
            entries: vec![Entry::Table { event }],
            command: None,
            links: Vec::new(),
            game: Some(fresh),
        };
        Ok(Decision::change(change, ()))
    }
}
