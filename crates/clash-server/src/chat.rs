//! Table talk: lines from the GM and the players, stored in the table log like everything else
//! that happens at the table (so they survive a restart, keep their order among the moves, and
//! are hash-chained), read by everyone at the table, spectators included. A player may also
//! whisper to the GM: only the GM and that player read it.

use std::sync::Arc;

use axum::Router;
use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::post;
use serde::Deserialize;

use crate::error::{ApiError, Conflict};
use crate::extract::{Caller, JsonBody};
use crate::log::TableEvent;
use crate::tables::{Table, Tables};

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
        self: &Arc<Self>,
        table: &Arc<Table>,
        key: &str,
        text: &str,
        to_gm: bool,
    ) -> Result<(), ApiError> {
        let (key, text) = (key.to_string(), text.to_string());
        self.change(table, move |tables, table| {
            let (key, text) = (key.clone(), text.clone());
            async move {
                let mut play = table.lock_current().await?;
                // A player whose seat the GM plays for now still talks: only their moves wait.
                let access = play.access(&key, None)?;
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
                play.check_in_play()?;
                let text = clean(&text)?;
                if play.talk_lines >= MAX_LINES {
                    return Err(ApiError::conflict(
                        Conflict::TooMuchTalk,
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
struct Line {
    text: String,
    #[serde(default)]
    to_gm: bool,
}

/// `POST /api/tables/{id}/chat` with `{"text": "…", "to_gm": false}`.
async fn chat(
    State(tables): State<Arc<Tables>>,
    caller: Caller,
    JsonBody(line): JsonBody<Line>,
) -> Result<StatusCode, ApiError> {
    tables
        .say(&caller.table, &caller.key, &line.text, line.to_gm)
        .await?;
    Ok(StatusCode::NO_CONTENT)
}

/// The table talk route, sharing the tables with the rest of the application.
pub fn routes() -> Router<Arc<Tables>> {
    Router::new().route("/api/tables/{id}/chat", post(chat))
}
