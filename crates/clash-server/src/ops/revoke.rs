//! The GM revokes every link of a seat: nobody plays it until it is given again.

use clash_core::Seat;

use super::{At, Decision, Operation, When, Who, manageable, sealed};
use crate::error::TableError;
use crate::log::TableEvent;
use crate::play::Holder;
use crate::store::LinkChange;

pub struct Revoke {
    pub key: String,
    pub seat: Seat,
}

impl sealed::Sealed for Revoke {}

impl Operation for Revoke {
    type Answer = ();

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
        "revoke the seat's link"
    }

    async fn decide(&self, at: &At<'_>) -> Result<Decision<()>, TableError> {
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
