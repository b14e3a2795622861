//! The GM deletes the table and everything stored about it. Open pages are told.

use super::{At, Change, Decision, Operation, When, Who, sealed};
use crate::error::TableError;

pub struct Delete {
    pub key: String,
}

impl sealed::Sealed for Delete {}

impl Operation for Delete {
    type Answer = ();

    fn who(&self) -> Who<'_> {
        Who::Gm {
            key: &self.key,
            refusal: "only the GM's link can delete the table",
        }
    }

    fn when(&self) -> When {
        When::ANY
    }

    async fn decide(&self, _: &At<'_>) -> Result<Decision<()>, TableError> {
        Ok(Decision::change(Change::Delete, ()))
    }
}
