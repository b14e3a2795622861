//! Table talk: lines from the GM and the players, stored in the table log like everything else
//! that happens at the table (so they survive a restart, keep their order among the moves, and
//! are hash-chained), read by everyone at the table, spectators included. A player may also
//! whisper to the GM: only the GM and that player read it.

use std::sync::Arc;

use axum::Router;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use serde_json::Value;

use crate::error::ApiError;
use crate::log::TableEvent;
use crate::tables::{Item, Table, Tables};

/// The longest line of talk, in characters.
pub const MAX_LINE: usize = 500;
/// The most lines of talk one table keeps; past it the table asks to be wound down.
pub const MAX_LINES: usize = 10_000;

/// A line as it will be stored: trimmed, control characters other than line breaks removed.
pub fn clean(text: &str) -> Result<String, ApiError> {
    let text: String = text
        .trim()
        .chars()
        .filter(|c| *c == '\n' || !c.is_control())
        .collect();
    if text.is_empty() {
        return Err(ApiError::malformed("say something: the line is empty"));
    }
    if text.chars().count() > MAX_LINE {
        return Err(ApiError::malformed(format!(
            "a line of table talk is at most {MAX_LINE} characters"
        )));
    }
    Ok(text)
}

impl Tables {
    /// Say `text` at the table as `key`, or whisper it to the GM.
    pub async fn say(
        &self,
        table: &Table,
        key: &str,
        text: &str,
        to_gm: bool,
    ) -> Result<(), ApiError> {
        let mut play = table.play.lock().await;
        // A player whose seat the GM plays for now still talks: only their moves wait.
        let access = play.access(key, None)?;
        let Some(by) = crate::room::reader(&access) else {
            return Err(ApiError::forbidden(
                "spectators read the table talk; only the GM and the players speak",
            ));
        };
        if to_gm && by == clash_core::Seat::Gm.to_string() {
            return Err(ApiError::malformed(
                "the GM speaks to everyone; whispers go from a player to the GM",
            ));
        }
        crate::room::check_in_play(&play)?;
        let text = clean(text)?;
        let lines = play
            .items
            .iter()
            .filter(|i| matches!(i, Item::Table(e) if e.is_talk()))
            .count();
        if lines >= MAX_LINES {
            return Err(ApiError::conflict(
                "too_much_talk",
                format!(
                    "this table holds {MAX_LINES} lines of talk already; start a new table to go on talking"
                ),
            ));
        }
        let event = if to_gm {
            TableEvent::Whispered { by, text }
        } else {
            TableEvent::Said { by, text }
        };
        self.table_events(table, &mut play, vec![event], Vec::new())
            .await
    }
}

/// `POST /api/tables/{id}/chat` with `{"text": "…", "to_gm": false}`.
async fn chat(
    State(tables): State<Arc<Tables>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    Query(params): Query<std::collections::HashMap<String, String>>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let key = crate::api::key_of(&headers, &params)?;
    let table = tables.get(&id)?;
    table.access(&key, None).await?;
    let body = crate::api::json_body(body)?;
    let text = body
        .get("text")
        .and_then(Value::as_str)
        .ok_or_else(|| ApiError::malformed("send {\"text\": \"…\"}"))?;
    let to_gm = match body.get("to_gm") {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => *b,
        Some(_) => return Err(ApiError::malformed("\"to_gm\" is true or false")),
    };
    tables.say(&table, &key, text, to_gm).await?;
    Ok(StatusCode::NO_CONTENT.into_response())
}

pub fn router(tables: Arc<Tables>) -> Router {
    Router::new()
        .route("/api/tables/{id}/chat", post(chat))
        .with_state(tables)
}
