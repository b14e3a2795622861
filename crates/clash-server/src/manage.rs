//! The GM keeps their tables: rename one, archive it (it takes no moves or talk until brought
//! back), or delete it for good (`DELETE /api/tables/{id}`, [`crate::ops::delete`]). Renames and archiving are table events in
//! the log, so every page learns of them; deleting removes the table and everything stored with
//! it, and every open page is told.

use std::sync::Arc;

use axum::Router;
use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::post;
use serde::Deserialize;

use crate::error::ApiError;
use crate::extract::{OptionalJson, TableKey};
use crate::ops::archive::Archive as ArchiveOp;
use crate::ops::rename::Rename as RenameOp;
use crate::tables::Tables;

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
    let op = RenameOp {
        key: caller.key,
        title: body.title,
    };
    tables.execute(&caller.table, op).await?;
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
    let op = ArchiveOp {
        key: caller.key,
        archived,
    };
    tables.execute(&caller.table, op).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// The routes that keep a table, sharing the tables with the rest of the application.
pub fn routes() -> Router<Arc<Tables>> {
    Router::new()
        .route("/api/tables/{id}/rename", post(rename))
        .route("/api/tables/{id}/archive", post(archive))
}
