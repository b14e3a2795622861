//! The GM takes a seat over ("Play as NPC"): a player's key is suspended (it watches) until the
//! seat is handed back.

use clash_core::Seat;

use super::{At, Decision, manageable};
use crate::error::{Conflict, TableError};
use crate::log::TableEvent;
use crate::store::{LinkChange, LinkStatus, StoredLink};
use crate::table::links::new_key;
use crate::table::play::Holder;

pub struct TakeOver {
    pub key: String,
    pub seat: Seat,
}

gm_operation!(TakeOver => (), super::When::OPEN, super::SEATS_ARE_THE_GMS, "take the seat over");

impl TakeOver {
    async fn decided(&self, at: &At<'_>) -> Result<Decision<()>, TableError> {
        let (play, seat) = (at.play, self.seat);
        manageable(play, seat)?;
        play.guard_bot(seat, "play it yourself")?;
        if play.holder(seat) == Holder::Npc {
            return Err(TableError::conflict(
                Conflict::NoChange,
                format!("the GM already plays {}", at.name(seat)),
            ));
        }
        let mut links: Vec<LinkChange> = play
            .links
            .iter()
            .filter(|l| l.role == seat.to_string())
            .map(|link| match link.status {
                LinkStatus::Active => LinkChange::SetStatus {
                    key: link.key.clone(),
                    status: LinkStatus::Suspended,
                },
                _ => LinkChange::Remove(link.key.clone()),
            })
            .collect();
        links.push(LinkChange::Add(StoredLink {
            key: new_key(),
            role: seat.to_string(),
            status: LinkStatus::Npc,
        }));
        Ok(Decision::table(vec![TableEvent::TakenOver { seat }], links))
    }
}
