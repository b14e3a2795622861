//! The GM gives the table a new name.

use super::{At, Decision, Operation, When, Who, sealed};
use crate::error::TableError;
use crate::log::TableEvent;
use crate::tables::table_title;

pub struct Rename {
    pub key: String,
    pub title: String,
}

impl sealed::Sealed for Rename {}

impl Operation for Rename {
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
        let title = table_title(&self.title)?;
        if at.play.title == title {
            return Ok(Decision::nothing(()));
        }
        Ok(Decision::table(
            vec![TableEvent::Renamed { title }],
            Vec::new(),
        ))
    }
}
