//! The GM revokes every link of a seat: nobody plays it until it is given again.

use clash_core::Seat;

use super::{At, Decision, manageable};
use crate::error::TableError;
use crate::log::TableEvent;
use crate::store::LinkChange;
use crate::table::play::Holder;

pub struct Revoke {
    pub key: String,
    pub seat: Seat,
}

gm_operation!(Revoke => (), super::When::OPEN, super::SEATS_ARE_THE_GMS, "revoke the seat's link");

impl Revoke {
    async fn decided(&self, at: &At<'_>) -> Result<Decision<()>, TableError> {
        let (play, seat) = (at.play, self.seat);
        manageable(play, seat)?;
        play.guard_bot(seat, "revoke its link")?;
        if play.holder(seat) == Holder::Open {
            // Nothing to revoke: already as asked.
            return Ok(Decision::nothing(()));
        }
        let links = vec![LinkChange::RemoveRole(seat.to_string())];
        Ok(Decision::table(
            vec![TableEvent::LinkRevoked { seat }],
            links,
        ))
    }
}
