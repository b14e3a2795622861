//! A player exchanges their invite for a key of their own, which the GM never sees; or moves
//! their seat to another device with the one-time link their own page made
//! ([`super::move_seat`]), which ends the key of the device they leave.
//!
//! The link exchanged stays behind as a tombstone ([`LinkStatus::Used`]), and so does a key
//! given up by a move ([`LinkStatus::Moved`]): opening either again says what became of it.

use clash_core::Seat;

use super::{Actor, At, Change, Decision, Operation, When, Who, sealed};
use crate::error::{Conflict, TableError};
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

    /// The same person before and after: an invite's player was chosen when the GM issued it
    /// (the guard looked then, and nobody acts for a seat while its invite is out), and a move
    /// link is made by the seat's own player for their own other device.
    fn same_person(&self) -> bool {
        true
    }

    async fn decide(&self, at: &At<'_>) -> Result<Decision<(Seat, String)>, TableError> {
        let Actor::Invite {
            key: used,
            seat,
            moving,
        } = at.actor
        else {
            return Err(TableError::BadKey);
        };
        let key = new_key();
        let mut links = vec![
            LinkChange::SetStatus {
                key: used.clone(),
                status: LinkStatus::Used,
            },
            LinkChange::Add(StoredLink {
                key: key.clone(),
                role: seat.to_string(),
                status: LinkStatus::Active,
            }),
        ];
        let event = if *moving {
            links.splice(0..0, left_behind(at, *seat)?);
            TableEvent::SeatMoved { seat: *seat }
        } else {
            TableEvent::SeatClaimed { seat: *seat }
        };
        Ok(Decision::change(
            Change::table(vec![event], links),
            (*seat, key),
        ))
    }
}

/// The keys of the device a player moves their seat from: each becomes a tombstone. A move link
/// without a player's key beside it (the GM took the seat over since) moves nothing.
fn left_behind(at: &At<'_>, seat: Seat) -> Result<Vec<LinkChange>, TableError> {
    let role = seat.to_string();
    let old: Vec<LinkChange> = at
        .play
        .links
        .iter()
        .filter(|l| l.role == role && l.status == LinkStatus::Active)
        .map(|l| LinkChange::SetStatus {
            key: l.key.clone(),
            status: LinkStatus::Moved,
        })
        .collect();
    if old.is_empty() {
        return Err(TableError::conflict(
            Conflict::NotInvite,
            format!(
                "this link no longer moves {}: its player does not hold the seat now",
                at.name(seat)
            ),
        ));
    }
    Ok(old)
}
