//! The GM ends the table: no more commands, and the server secret is revealed so every roll and
//! draw can be checked.

use super::{At, Decision, Operation, When, Who, sealed};
use crate::error::TableError;
use crate::log::{TableEvent, hex};

pub struct End {
    pub key: String,
}

impl sealed::Sealed for End {}

impl Operation for End {
    type Answer = ();

    fn who(&self) -> Who<'_> {
        Who::Gm {
            key: &self.key,
            refusal: "only the GM's link (the table's creator) can end the table",
        }
    }

    fn when(&self) -> When {
        When::OPEN
    }

    async fn decide(&self, at: &At<'_>) -> Result<Decision<()>, TableError> {
        let events = vec![
            TableEvent::Closed,
            TableEvent::SecretRevealed {
                secret: hex(&at.table.meta.secret),
            },
        ];
        Ok(Decision::table(events, Vec::new()))
    }
}
