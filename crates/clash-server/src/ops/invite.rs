//! The GM issues a new invite for a seat, ending any link, invite or GM play it had.

use clash_core::Seat;

use super::{At, Decision, manageable};
use crate::error::TableError;
use crate::log::TableEvent;
use crate::store::{LinkChange, LinkStatus, StoredLink};
use crate::table::links::new_key;

pub struct Invite {
    pub key: String,
    pub seat: Seat,
}

gm_operation!(Invite => String, super::When::OPEN, super::SEATS_ARE_THE_GMS, "give the seat a new link");

impl Invite {
    async fn decided(&self, at: &At<'_>) -> Result<Decision<String>, TableError> {
        manageable(at.play, self.seat)?;
        at.play.guard_bot(self.seat, "give it a link")?;
        let invite = new_key();
        let links = vec![
            LinkChange::RemoveRole(self.seat.to_string()),
            LinkChange::Add(StoredLink {
                key: invite.clone(),
                role: self.seat.to_string(),
                status: LinkStatus::Invite,
            }),
        ];
        let role = self.seat.to_string();
        let replaced = at.play.links.iter().any(|l| l.role == role);
        let events = vec![TableEvent::InviteIssued {
            seat: self.seat,
            replaced,
        }];
        Ok(Decision::change(
            super::Change::table(events, links),
            invite,
        ))
    }
}
