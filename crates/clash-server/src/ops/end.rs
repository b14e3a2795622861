//! The GM ends the table: no more commands, and the server secret is revealed so every roll and
//! draw can be checked.

use super::{At, Decision};
use crate::error::TableError;
use crate::log::{TableEvent, hex};

pub struct End {
    pub key: String,
}

gm_operation!(End => (), super::When::OPEN, super::THE_TABLE_IS_THE_GMS);

impl End {
    async fn decided(&self, at: &At<'_>) -> Result<Decision<()>, TableError> {
        let events = vec![
            TableEvent::Closed,
            TableEvent::SecretRevealed {
                secret: hex(&at.table.meta.secret),
            },
        ];
        Ok(Decision::table(events, Vec::new()))
    }
}
