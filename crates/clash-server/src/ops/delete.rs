//! The GM deletes the table and everything stored about it. Open pages are told.

use super::{At, Change, Decision};
use crate::error::TableError;

pub struct Delete {
    pub key: String,
}

gm_operation!(Delete => (), super::When::ANY, super::THE_TABLE_IS_THE_GMS);

impl Delete {
    async fn decided(&self, _: &At<'_>) -> Result<Decision<()>, TableError> {
        Ok(Decision::change(Change::Delete, ()))
    }
}
