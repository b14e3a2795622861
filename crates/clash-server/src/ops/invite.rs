//! The GM issues a new invite for a seat, ending any link, invite or GM play it had.

use clash_core::Seat;

use super::{At, Decision, Operation, When, Who, manageable, sealed};
use crate::error::TableError;
use crate::links::new_key;
use crate::log::TableEvent;
use crate::store::{LinkChange, LinkStatus, StoredLink};

pub struct Invite {
    pub key: String,
    pub seat: Seat,
}

impl sealed::Sealed for Invite {}

impl Operation for Invite {
    /// The invite's key.
    type Answer = String;

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
        "give the seat a new link"
    }

    async fn decide(&self, at: &At<'_>) -> Result<Decision<String>, TableError> {
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
