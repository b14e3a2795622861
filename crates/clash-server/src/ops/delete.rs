//! The GM deletes the table and everything stored about it. Open pages are told.
//!
//! A table this server cannot read back — its ruleset is not offered here (an example game on
//! a server started without examples) — is still its GM's to delete ([`unreadable`]): it is
//! never loaded, so nothing runs on it and no stream is open, and only its GM's key is checked
//! before the store removes it.

use std::sync::Arc;

use super::{At, Change, Decision};
use crate::error::TableError;
use crate::server::Server;
use crate::store::Write;
use crate::store::side;
use crate::table::links::{Role, same_key};

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
pub async fn unreadable(server: &Arc<Server>, id: &str, key: &str) -> Result<(), TableError> {
    let stored = |e: crate::store::StoreError| TableError::storage(e.to_string());
    let owners = side::active_keys(server.store(), id, &Role::Owner.to_string())
        .await
        .map_err(stored)?;
    if !owners.iter().any(|k| same_key(k, key)) {
        return Err(TableError::forbidden(super::THE_TABLE_IS_THE_GMS));
    }
    let write = Write::DeleteTable { id: id.to_string() };
    server.store().write(write).await.map_err(stored)?;
    tracing::info!(table = %id, "a table this server cannot open was deleted by its GM");
    Ok(())
}
