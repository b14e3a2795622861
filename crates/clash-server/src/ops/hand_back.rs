//! The GM gives a seat they took over back to its player.

use clash_core::Seat;

use super::{At, Decision, manageable};
use crate::error::{Conflict, TableError};
use crate::log::TableEvent;
use crate::store::{LinkChange, LinkStatus};

pub struct HandBack {
    pub key: String,
    pub seat: Seat,
}

gm_operation!(HandBack => (), super::When::OPEN, super::SEATS_ARE_THE_GMS, "give the seat back");

impl HandBack {
    async fn decided(&self, at: &At<'_>) -> Result<Decision<()>, TableError> {
        let (play, seat) = (at.play, self.seat);
        manageable(play, seat)?;
        play.guard_bot(seat, "give it back to its player")?;
        let role = seat.to_string();
        let suspended = play
            .links
            .iter()
            .find(|l| l.role == role && l.status == LinkStatus::Suspended)
            .map(|l| l.key.clone());
        let Some(player_key) = suspended else {
            return Err(TableError::conflict(
                Conflict::NoChange,
                format!(
                    "no player is waiting for {}: invite one instead",
                    at.name(seat)
                ),
            ));
        };
        let mut links: Vec<LinkChange> = play
            .links
            .iter()
            .filter(|l| l.role == role && l.status == LinkStatus::Npc)
            .map(|l| LinkChange::Remove(l.key.clone()))
            .collect();
        links.push(LinkChange::SetStatus {
            key: player_key,
            status: LinkStatus::Active,
        });
        Ok(Decision::table(
            vec![TableEvent::HandedBack { seat }],
            links,
        ))
    }
}
