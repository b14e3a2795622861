//! The GM gives the table a new name.

use super::{At, Decision};
use crate::error::TableError;
use crate::log::TableEvent;
use crate::tables::table_title;

pub struct Rename {
    pub key: String,
    pub title: String,
}

gm_operation!(Rename => (), super::When::ANY, super::THE_TABLE_IS_THE_GMS);

impl Rename {
    async fn decided(&self, at: &At<'_>) -> Result<Decision<()>, TableError> {
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
