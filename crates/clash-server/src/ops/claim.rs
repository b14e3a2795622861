//! A player exchanges their invite for a key of their own, which the GM never sees.

use clash_core::Seat;

use super::{Actor, At, Change, Decision, Operation, When, Who, sealed};
use crate::error::TableError;
use crate::links::new_key;
use crate::log::TableEvent;
use crate::store::{LinkChange, LinkStatus, StoredLink};

pub struct Claim {
    pub invite: String,
}

impl sealed::Sealed for Claim {}

impl Operation for Claim {
    /// The seat, and the player's own key.
    type Answer = (Seat, String);

    fn who(&self) -> Who<'_> {
        Who::Invite { key: &self.invite }
    }

    fn when(&self) -> When {
        When::ANY
    }

    fn hands_over(&self) -> bool {
        false
    }

    async fn decide(&self, at: &At<'_>) -> Result<Decision<(Seat, String)>, TableError> {
        let Actor::Invite { key: invite, seat } = at.actor else {
            return Err(TableError::BadKey);
        };
        let key = new_key();
        let links = vec![
            LinkChange::Remove(invite.clone()),
            LinkChange::Add(StoredLink {
                key: key.clone(),
                role: seat.to_string(),
                status: LinkStatus::Active,
            }),
        ];
        let events = vec![TableEvent::SeatClaimed { seat: *seat }];
        Ok(Decision::change(Change::table(events, links), (*seat, key)))
    }
}
