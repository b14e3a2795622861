//! The GM keeps their tables: rename one, archive it (it takes no moves or talk until brought
//! back), or delete it for good. Renames and archiving are table events in the log, so every
//! page learns of them; deleting removes the table and everything stored with it, and every
//! open page is told its link no longer works.

use std::sync::Arc;

use axum::Router;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{delete, post};
use serde_json::Value;
use tokio::sync::MutexGuard;

use crate::error::ApiError;
use crate::links::Role;
use crate::log::TableEvent;
use crate::store::Write;
use crate::tables::{Play, Table, Tables};

/// The longest table name, in characters.
pub const MAX_TITLE: usize = 120;

type Params = Query<std::collections::HashMap<String, String>>;

/// The table's lock for its GM, whether or not the table has ended.
async fn gm_play<'t>(table: &'t Table, key: &str) -> Result<MutexGuard<'t, Play>, ApiError> {
    let play = table.play.lock().await;
    if play.role(key)? != Role::Owner {
        return Err(ApiError::forbidden(
            "only the GM's link (the table's creator) can rename, archive or delete the table",
        ));
    }
    Ok(play)
}

impl Tables {
    /// Give the table a new name.
    pub async fn rename(&self, table: &Table, key: &str, title: &str) -> Result<(), ApiError> {
        let mut play = gm_play(table, key).await?;
        let title: String = title.trim().chars().filter(|c| !c.is_control()).collect();
        if title.is_empty() || title.chars().count() > MAX_TITLE {
            return Err(ApiError::malformed(format!(
                "a table's name is 1 to {MAX_TITLE} characters"
            )));
        }
        if crate::room::title(table, &play) == title {
            return Ok(());
        }
        self.table_events(
            table,
            &mut play,
            vec![TableEvent::Renamed { title }],
            Vec::new(),
        )
        .await
    }

    /// Archive the table, or bring it back.
    pub async fn archive(&self, table: &Table, key: &str, archived: bool) -> Result<(), ApiError> {
        let mut play = gm_play(table, key).await?;
        if crate::room::archived(&play) == archived {
            return Ok(());
        }
        let event = if archived {
            TableEvent::Archived
        } else {
            TableEvent::Unarchived
        };
        self.table_events(table, &mut play, vec![event], Vec::new())
            .await
    }

    /// Delete the table for good: from the database, from memory, and from every open page.
    pub async fn delete(&self, table: &Table, key: &str) -> Result<(), ApiError> {
        let mut play = gm_play(table, key).await?;
        self.store()
            .write(Write::DeleteTable {
                id: table.id.clone(),
            })
            .await
            .map_err(|e| ApiError::storage(format!("the table was not deleted: {e}")))?;
        self.write_map().remove(&table.id);
        // No key works any more: every open stream is told so on its next wake.
        play.links.clear();
        drop(play);
        table.changed.send_modify(|r| *r += 1);
        Ok(())
    }
}

async fn rename(
    State(tables): State<Arc<Tables>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    Query(params): Params,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let key = crate::api::key_of(&headers, &params)?;
    let table = tables.get(&id)?;
    let body = crate::api::json_body(body)?;
    let title = body
        .get("title")
        .and_then(Value::as_str)
        .ok_or_else(|| ApiError::malformed("send {\"title\": \"…\"}"))?;
    tables.rename(&table, &key, title).await?;
    Ok(StatusCode::NO_CONTENT.into_response())
}

async fn archive(
    State(tables): State<Arc<Tables>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    Query(params): Params,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let key = crate::api::key_of(&headers, &params)?;
    let table = tables.get(&id)?;
    let empty = body.as_ref().is_ok_and(|b| b.is_empty());
    let archived = if empty {
        true
    } else {
        match crate::api::json_body(body)?.get("archived") {
            None | Some(Value::Bool(true)) => true,
            Some(Value::Bool(false)) => false,
            Some(_) => return Err(ApiError::malformed("\"archived\" is true or false")),
        }
    };
    tables.archive(&table, &key, archived).await?;
    Ok(StatusCode::NO_CONTENT.into_response())
}

async fn remove(
    State(tables): State<Arc<Tables>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    Query(params): Params,
) -> Result<Response, ApiError> {
    let key = crate::api::key_of(&headers, &params)?;
    let table = tables.get(&id)?;
    tables.delete(&table, &key).await?;
    Ok(StatusCode::NO_CONTENT.into_response())
}

pub fn router(tables: Arc<Tables>) -> Router {
    Router::new()
        .route("/api/tables/{id}/rename", post(rename))
        .route("/api/tables/{id}/archive", post(archive))
        .route("/api/tables/{id}/delete", delete(remove))
        .with_state(tables)
}
