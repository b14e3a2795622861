//! The GM archives the table (it takes no moves or talk until brought back), or brings it back.

use super::{At, Decision};
use crate::error::TableError;
use crate::log::TableEvent;

pub struct Archive {
    pub key: String,
    pub archived: bool,
}

gm_operation!(Archive => (), super::When::ANY, super::THE_TABLE_IS_THE_GMS);

impl Archive {
    async fn decided(&self, at: &At<'_>) -> Result<Decision<()>, TableError> {
        if at.play.archived == self.archived {
            return Ok(Decision::nothing(()));
        }
        let event = match self.archived {
            true => TableEvent::Archived,
            false => TableEvent::Unarchived,
        };
        Ok(Decision::table(vec![event], Vec::new()))
    }
}
