//! Table talk: lines from the GM and the players, stored in the table log like everything else
//! that happens at the table (so they survive a restart, keep their order among the moves, and
//! are hash-chained), read by everyone at the table, spectators included. A player may whisper
//! to the GM, and the GM to one player (see [`crate::ops::say`]).

use std::sync::Arc;

use axum::Router;
use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::post;
use serde::Deserialize;

use crate::error::{ApiError, TableError};
use crate::extract::{Caller, JsonBody, seat_named};
use crate::ops::say::{Audience, Say};
use crate::tables::Tables;

/// The longest line of talk, in characters.
pub const MAX_LINE: usize = 500;
/// The most lines of talk one table keeps; past it the table asks to be wound down.
pub const MAX_LINES: usize = 10_000;

/// A line as it will be stored: trimmed; refused when empty, too long, or holding control
/// characters other than line breaks (which could hide text or reorder what surrounds it).
pub fn clean(text: &str) -> Result<String, TableError> {
    let text = text.trim();
    if text.is_empty() {
        return Err(TableError::malformed("say something: the line is empty"));
    }
    if text.chars().count() > MAX_LINE {
        return Err(TableError::malformed(format!(
            "a line of table talk is at most {MAX_LINE} characters; this one has {}",
            text.chars().count()
        )));
    }
    clash_core::text::plain_text("a line of table talk", text).map_err(TableError::malformed)?;
    Ok(text.to_string())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Line {
    text: String,
    /// A player's whisper to the GM.
    #[serde(default)]
    to_gm: bool,
    /// The GM's whisper to the player of this seat.
    #[serde(default)]
    to: Option<String>,
}

/// `POST /api/tables/{id}/chat` with `{"text": "…"}`; add `"to_gm": true` for a player's
/// whisper to the GM, or `"to": "p2"` for the GM's whisper to one seat's player.
async fn chat(
    State(tables): State<Arc<Tables>>,
    caller: Caller,
    JsonBody(line): JsonBody<Line>,
) -> Result<StatusCode, ApiError> {
    let to = match (line.to.as_deref(), line.to_gm) {
        (Some(_), true) => {
            return Err(ApiError::malformed(
                "a line goes to the GM (to_gm) or to one seat (to), not both",
            ));
        }
        (Some(seat), false) => Audience::Seat(seat_named(seat)?),
        (None, true) => Audience::Gm,
        (None, false) => Audience::Table,
    };
    let say = Say {
        key: caller.key,
        text: line.text,
        to,
    };
    tables.execute(&caller.table, say).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// The table talk route, sharing the tables with the rest of the application.
pub fn routes() -> Router<Arc<Tables>> {
    Router::new().route("/api/tables/{id}/chat", post(chat))
}
