//! The GM deletes the table and everything stored about it. Open pages are told.
//!
//! A table this server cannot read back — its ruleset is not offered here (an example game on
//! a server started without examples) — is still its GM's to delete ([`unreadable`]): it is
//! never loaded, so nothing runs on it and no stream is open, and only its GM's key is checked
//! before the store removes it.

use std::sync::Arc;

use super::{At, Change, Decision};
use crate::error::TableError;
use crate::links::{Role, same_key};
use crate::store::Write;
use crate::store::side::{Arg, Cell, Query};
use crate::tables::Tables;

pub struct Delete {
    pub key: String,
}

gm_operation!(Delete => (), super::When::ANY, super::THE_TABLE_IS_THE_GMS);

impl Delete {
    async fn decided(&self, _: &At<'_>) -> Result<Decision<()>, TableError> {
        Ok(Decision::change(Change::Delete, ()))
    }
}

/// Delete table `id`, which this server cannot read back, for the holder of its GM's `key`.
pub async fn unreadable(tables: &Arc<Tables>, id: &str, key: &str) -> Result<(), TableError> {
    const SQL: &str =
        "SELECT key FROM links WHERE table_id = $1 AND role = $2 AND status = 'active'";
    let args = vec![Arg::Text(id.into()), Arg::Text(Role::Owner.to_string())];
    let stored = |e: crate::store::StoreError| TableError::storage(e.to_string());
    let owners = tables
        .store()
        .select(Query::new(SQL, args))
        .await
        .map_err(stored)?;
    if !owners.iter().any(|row| {
        row.first()
            .map(Cell::text)
            .is_some_and(|k| same_key(&k, key))
    }) {
        return Err(TableError::forbidden(super::THE_TABLE_IS_THE_GMS));
    }
    let write = Write::DeleteTable { id: id.to_string() };
    tables.store().write(write).await.map_err(stored)?;
    tracing::info!(table = %id, "a table this server cannot open was deleted by its GM");
    Ok(())
}
