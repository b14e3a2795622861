//! The GM archives the table (it takes no moves or talk until brought back), or brings it back.

use super::{At, Decision, Operation, When, Who, sealed};
use crate::error::TableError;
use crate::log::TableEvent;

pub struct Archive {
    pub key: String,
    pub archived: bool,
}

impl sealed::Sealed for Archive {}

impl Operation for Archive {
    type Answer = ();

    fn who(&self) -> Who<'_> {
        Who::Gm {
            key: &self.key,
            refusal: "only the GM's link (the table's creator) can rename, archive or delete the table",
        }
    }

    fn when(&self) -> When {
        When::ANY
    }

    async fn decide(&self, at: &At<'_>) -> Result<Decision<()>, TableError> {
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
