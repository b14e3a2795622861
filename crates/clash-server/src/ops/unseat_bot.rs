//! The GM takes a seat back from its bot: it is the GM's NPC again, or empty.

use clash_core::Seat;

use super::{At, Decision, Operation, When, Who, sealed};
use crate::error::{Conflict, TableError};
use crate::log::TableEvent;

pub struct UnseatBot {
    pub key: String,
    pub seat: Seat,
}

impl sealed::Sealed for UnseatBot {}

impl Operation for UnseatBot {
    type Answer = ();

    fn who(&self) -> Who<'_> {
        Who::Gm {
            key: &self.key,
            refusal: "only the GM's link (the table's creator) can manage seats and links",
        }
    }

    fn when(&self) -> When {
        When::OPEN
    }

    fn doing(&self) -> &'static str {
        "take the seat back from its bot"
    }

    async fn decide(&self, at: &At<'_>) -> Result<Decision<()>, TableError> {
        at.play.known_seat(self.seat)?;
        if !at.play.bots.contains_key(&self.seat) {
            return Err(TableError::conflict(
                Conflict::NoChange,
                format!("no bot plays {}", at.name(self.seat)),
            ));
        }
        let events = vec![TableEvent::BotUnseated { seat: self.seat }];
        Ok(Decision::table(events, Vec::new()))
    }
}
