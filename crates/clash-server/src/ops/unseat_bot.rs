//! The GM takes a seat back from its bot: it is the GM's NPC again, or empty.

use clash_core::Seat;

use super::{At, Decision};
use crate::error::{Conflict, TableError};
use crate::log::TableEvent;

pub struct UnseatBot {
    pub key: String,
    pub seat: Seat,
}

gm_operation!(UnseatBot => (), super::When::OPEN, super::SEATS_ARE_THE_GMS, "take the seat back from its bot");

impl UnseatBot {
    async fn decided(&self, at: &At<'_>) -> Result<Decision<()>, TableError> {
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
