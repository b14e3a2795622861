//! The GM takes back the last command: recorded as a table event, never a deletion.
//!
//! The rules engines are pure state machines rebuilt from their event log, so taking a command
//! back is a replay: the log gains an `undone` table event naming the command, and the game is
//! rebuilt from its setup and every game event except that command's. The command and its
//! events stay in the log (and in the table's record, where `clash verify` replays the undo the
//! same way).
//!
//! Only the last command still standing may be taken back, and only when it rolled no dice,
//! drew no card and revealed nothing ([`clash_core::Ruleset::reveals`]): otherwise someone
//! could see an outcome or a secret and then choose again. Several undos in a row walk back
//! command by command under the same conditions.

use std::collections::HashSet;
use std::sync::Arc;

use axum::Router;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use clash_core::{AnyGame, GameError, Seat};
use serde_json::Value;

use crate::error::ApiError;
use crate::log::TableEvent;
use crate::tables::{Item, Play, Table, Tables};

/// The command that would be taken back.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Candidate {
    pub n: u64,
    pub seat: Seat,
    /// Its log position.
    pub at: usize,
    /// How many game events it produced (the last ones of the game's log).
    pub events: usize,
}

/// The last command still standing, if it may be taken back; otherwise why not, in words.
pub(crate) fn candidate(play: &Play) -> Result<Candidate, String> {
    if play.closed {
        return Err("the table has ended".into());
    }
    let mut undone = HashSet::new();
    let found = play.items.iter().enumerate().rev().find_map(|(pos, item)| {
        match item {
            Item::Table(TableEvent::Undone { at, .. }) => {
                undone.insert(*at as usize);
            }
            Item::Command { n, seat, chance } if !undone.contains(&pos) => {
                return Some((pos, *n, *seat, *chance));
            }
            _ => {}
        }
        None
    });
    let Some((at, n, seat, chance)) = found else {
        return Err("no command has been sent yet".into());
    };
    let name = play.game.seat_name(seat);
    if chance {
        return Err(format!(
            "{name}'s last command rolled dice or drew cards, so it stands"
        ));
    }
    let events = play.game_pos.iter().filter(|p| **p > at).count();
    let total = play.game.event_count();
    let from = total.saturating_sub(events);
    if play
        .game
        .events_json(from)
        .iter()
        .any(|e| play.game.reveals(e))
    {
        return Err(format!(
            "{name}'s last command brought something hidden into the open, so it stands"
        ));
    }
    Ok(Candidate {
        n,
        seat,
        at,
        events,
    })
}

/// What the GM's page offers.
pub(crate) fn offer(play: &Play) -> crate::room::UndoOffer {
    match candidate(play) {
        Ok(c) => crate::room::UndoOffer {
            n: Some(c.n),
            text: match c.seat {
                Seat::Gm => "Take back your last command".into(),
                s => format!("Take back {}'s last command", play.game.seat_name(s)),
            },
        },
        Err(why) => crate::room::UndoOffer {
            n: None,
            text: format!("Nothing to take back: {why}."),
        },
    }
}

/// The game rebuilt from its setup and every event but the last `drop`.
pub fn rebuilt(
    game: &dyn AnyGame,
    new_game: fn(&Value) -> Result<Box<dyn AnyGame>, GameError>,
    drop: usize,
) -> Result<Box<dyn AnyGame>, GameError> {
    let mut fresh = new_game(&game.setup_json())?;
    let all = game.events_json(0);
    let keep = all.len().saturating_sub(drop);
    let opening = fresh.event_count().min(keep);
    for event in &all[opening..keep] {
        fresh.restore(event)?;
    }
    Ok(fresh)
}

/// Replay the game without its last `drop` events (restoring a table whose log holds an undo).
pub(crate) fn drop_last(
    play: &mut Play,
    new_game: fn(&Value) -> Result<Box<dyn AnyGame>, GameError>,
    drop: usize,
) -> Result<(), GameError> {
    play.game = rebuilt(play.game.as_ref(), new_game, drop)?;
    let keep = play.game_pos.len().saturating_sub(drop);
    play.game_pos.truncate(keep);
    Ok(())
}

impl Tables {
    /// The GM takes back the last command standing (`expected`, if given, must be it).
    pub async fn undo(
        &self,
        table: &Table,
        key: &str,
        expected: Option<u64>,
    ) -> Result<(), ApiError> {
        let mut play = self.owner_play(table, key).await?;
        crate::room::check_in_play(&play)?;
        let c = candidate(&play).map_err(|why| {
            ApiError::conflict("cannot_undo", format!("nothing can be taken back: {why}"))
        })?;
        if let Some(n) = expected.filter(|n| *n != c.n) {
            return Err(ApiError::conflict(
                "stale",
                format!(
                    "command {n} is not the last one standing any more; look at the table again"
                ),
            ));
        }
        let entry = self
            .entry(table.ruleset)
            .ok_or_else(|| ApiError::storage("this build no longer has the table's ruleset"))?;
        let fresh = rebuilt(play.game.as_ref(), entry.new_game, c.events).map_err(|e| {
            ApiError::storage(format!("the game could not be rebuilt without it: {e}"))
        })?;
        let event = TableEvent::Undone {
            n: c.n,
            seat: c.seat,
            at: c.at as u64,
            events: c.events as u64,
        };
        self.table_events(table, &mut play, vec![event], Vec::new())
            .await?;
        play.game = fresh;
        let keep = play.game_pos.len().saturating_sub(c.events);
        play.game_pos.truncate(keep);
        Ok(())
    }
}

/// `POST /api/tables/{id}/undo` (`{"n": …}` optional): the GM takes back the last command.
async fn undo(
    State(tables): State<Arc<Tables>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    Query(params): Query<std::collections::HashMap<String, String>>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let key = crate::api::key_of(&headers, &params)?;
    let table = tables.get(&id)?;
    let empty = body.as_ref().is_ok_and(|b| b.is_empty());
    let expected = if empty {
        None
    } else {
        match crate::api::json_body(body)?.get("n") {
            None | Some(Value::Null) => None,
            Some(v) => Some(v.as_u64().ok_or_else(|| {
                ApiError::malformed("\"n\" is the number of the command to take back")
            })?),
        }
    };
    tables.undo(&table, &key, expected).await?;
    Ok(StatusCode::NO_CONTENT.into_response())
}

pub fn router(tables: Arc<Tables>) -> Router {
    Router::new()
        .route("/api/tables/{id}/undo", post(undo))
        .with_state(tables)
}
