//! The GM seats a bot in an NPC seat or an empty player seat (see [`crate::bots`]).

use clash_core::{Seat, Strength};

use super::{At, Decision};
use crate::error::{Conflict, TableError};
use crate::log::TableEvent;
use crate::table::play::Holder;

pub struct SeatBot {
    pub key: String,
    pub seat: Seat,
    pub strength: Strength,
}

gm_operation!(SeatBot => (), super::When::OPEN, super::SEATS_ARE_THE_GMS, "seat a bot there";
    fn after(&self) -> super::After {
        super::After::RunBots
    }
);

impl SeatBot {
    async fn decided(&self, at: &At<'_>) -> Result<Decision<()>, TableError> {
        let (play, seat, strength) = (at.play, self.seat, self.strength);
        play.known_seat(seat)?;
        if at.entry.bots.is_none() {
            return Err(TableError::conflict(
                Conflict::NoChange,
                "this server has no bots for this game",
            ));
        }
        let name = at.name(seat);
        match play.holder(seat) {
            Holder::Bot if play.bots.get(&seat) == Some(&strength) => {
                return Err(TableError::conflict(
                    Conflict::NoChange,
                    format!("a {strength} bot already plays {name}"),
                ));
            }
            Holder::Bot | Holder::Npc | Holder::Open | Holder::Owner => {}
            Holder::Player | Holder::Invited => {
                return Err(TableError::conflict(
                    Conflict::SeatTaken,
                    format!(
                        "{name} has a player or an unused invite: a bot sits only in an NPC seat or an empty seat (revoke the link first)"
                    ),
                ));
            }
        }
        let events = vec![TableEvent::BotSeated { seat, strength }];
        Ok(Decision::table(events, Vec::new()))
    }
}
