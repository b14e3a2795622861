//! A seat's player makes a one-time link to move their seat to another device of theirs,
//! without the GM: shown on their own page alone (never in the GM's seat list), it is claimed
//! like an invite ([`super::claim`]), and claiming it ends the key of the device left behind.
//! A newer link replaces an unused older one; the GM taking the seat over, a new invite or a
//! revocation removes it.

use clash_core::Seat;

use super::{At, Change, Decision, Operation, When, Who, sealed};
use crate::error::TableError;
use crate::log::TableEvent;
use crate::store::{LinkChange, LinkStatus, StoredLink};
use crate::table::links::{Role, new_key};

pub struct MoveSeat {
    pub key: String,
}

impl sealed::Sealed for MoveSeat {}

impl Operation for MoveSeat {
    /// The seat, and the one-time link's key.
    type Answer = (Seat, String);

    fn who(&self) -> Who<'_> {
        Who::Key {
            key: &self.key,
            as_seat: None,
        }
    }

    /// At any time: a finished table's record is still read, and talk still followed.
    fn when(&self) -> When {
        When::ANY
    }

    /// The seat stays with the same person: only their own page can ask, so a choice they
    /// have made in secret goes with them. The guard still looks, and exempts this seat alone.
    fn same_person(&self) -> bool {
        true
    }

    async fn decide(&self, at: &At<'_>) -> Result<Decision<(Seat, String)>, TableError> {
        let seat = match at.actor.access() {
            Some(a) if !a.suspended => match a.role {
                Role::Seat(s) => s,
                _ => return Err(refused()),
            },
            _ => return Err(refused()),
        };
        let role = seat.to_string();
        let key = new_key();
        let mut links: Vec<LinkChange> = at
            .play
            .links
            .iter()
            .filter(|l| l.role == role && l.status == LinkStatus::Transfer)
            .map(|l| LinkChange::Remove(l.key.clone()))
            .collect();
        links.push(LinkChange::Add(StoredLink {
            key: key.clone(),
            role,
            status: LinkStatus::Transfer,
        }));
        let events = vec![TableEvent::MoveOffered { seat }];
        Ok(Decision::change(Change::table(events, links), (seat, key)))
    }
}

fn refused() -> TableError {
    TableError::forbidden(
        "only a seat's player moves it to another device, from their own page (while the GM plays the seat, it cannot move)",
    )
}
