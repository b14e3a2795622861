//! The GM keeps their tables: rename one, archive it (it takes no moves or talk until brought
//! back), or delete it for good (`DELETE /api/tables/{id}`, [`Tables::delete`]). Renames and archiving are table events in
//! the log, so every page learns of them; deleting removes the table and everything stored with
//! it, and every open page is told.

use std::sync::Arc;

use axum::Router;
use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::post;
use serde::Deserialize;
use tokio::sync::MutexGuard;

use crate::error::ApiError;
use crate::extract::{OptionalJson, TableKey};
use crate::links::Role;
use crate::log::TableEvent;
use crate::play::Play;
use crate::tables::{TITLE_LIMIT, Table, Tables};

/// The longest table name, in characters.
pub const MAX_TITLE: usize = TITLE_LIMIT;

/// The table's lock for its GM, whether or not the table has ended.
async fn gm_play<'t>(table: &'t Table, key: &str) -> Result<MutexGuard<'t, Play>, ApiError> {
    let play = table.lock_current().await?;
    if play.role(key)? != Role::Owner {
        return Err(ApiError::forbidden(
            "only the GM's link (the table's creator) can rename, archive or delete the table",
        ));
    }
    Ok(play)
}

impl Tables {
    /// Give the table a new name.
    pub async fn rename(
        self: &Arc<Self>,
        table: &Arc<Table>,
        key: &str,
        title: &str,
    ) -> Result<(), ApiError> {
        let (key, title) = (key.to_string(), title.to_string());
        self.change(table, move |tables, table| {
            let (key, title) = (key.clone(), title.clone());
            async move {
                let mut play = gm_play(&table, &key).await?;
                let title: String = title.trim().chars().filter(|c| !c.is_control()).collect();
                if title.is_empty() || title.chars().count() > MAX_TITLE {
                    return Err(ApiError::malformed(format!(
                        "a table's name is 1 to {MAX_TITLE} characters"
                    )));
                }
                if play.title == title {
                    return Ok(());
                }
                let events = vec![TableEvent::Renamed { title }];
                tables
                    .table_events(&table, &mut play, events, Vec::new())
                    .await
            }
        })
        .await
    }

    /// Archive the table, or bring it back.
    pub async fn archive(
        self: &Arc<Self>,
        table: &Arc<Table>,
        key: &str,
        archived: bool,
    ) -> Result<(), ApiError> {
        let key = key.to_string();
        self.change(table, move |tables, table| {
            let key = key.clone();
            async move {
                let mut play = gm_play(&table, &key).await?;
                if play.archived == archived {
                    return Ok(());
                }
                let event = if archived {
                    TableEvent::Archived
                } else {
                    TableEvent::Unarchived
                };
                tables
                    .table_events(&table, &mut play, vec![event], Vec::new())
                    .await
            }
        })
        .await
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Rename {
    title: String,
}

async fn rename(
    State(tables): State<Arc<Tables>>,
    caller: TableKey,
    crate::extract::JsonBody(body): crate::extract::JsonBody<Rename>,
) -> Result<StatusCode, ApiError> {
    tables
        .rename(&caller.table, &caller.key, &body.title)
        .await?;
    Ok(StatusCode::NO_CONTENT)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Archive {
    #[serde(default = "yes")]
    archived: bool,
}

fn yes() -> bool {
    true
}

async fn archive(
    State(tables): State<Arc<Tables>>,
    caller: TableKey,
    OptionalJson(body): OptionalJson<Archive>,
) -> Result<StatusCode, ApiError> {
    let archived = body.is_none_or(|b| b.archived);
    tables.archive(&caller.table, &caller.key, archived).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// The routes that keep a table, sharing the tables with the rest of the application.
pub fn routes() -> Router<Arc<Tables>> {
    Router::new()
        .route("/api/tables/{id}/rename", post(rename))
        .route("/api/tables/{id}/archive", post(archive))
}
