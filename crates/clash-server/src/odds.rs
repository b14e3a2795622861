//! Odds in play: a per-table switch the GM turns on, and each seat's odds for its next choice.
//!
//! * `GET /api/tables/{id}/odds` — whether odds are on at this table and, when they are, the
//!   odds for the caller's seat: the catalogue's odds hook run on the seat's own view (the same
//!   JSON its page receives), so no odds can tell a seat what its view hides.
//! * `PUT /api/tables/{id}/odds` `{"enabled": bool}` — the GM (owner) switches odds on or off.
//!
//! The switch is off by default. Turning it is a table event in the log (`odds_switched`), so it
//! survives a restart and replays, exports and verifies with the table. Odds are computed on the blocking pool, once per seat and revision, from the table's
//! snapshot (see [`crate::snapshot`]).

use std::sync::Arc;

use axum::extract::State;
use axum::routing::get;
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::error::ApiError;
use crate::extract::{Caller, JsonBody, Params, as_seat};
use crate::tables::Tables;

/// The odds routes, sharing the tables with the rest of the API.
pub fn routes() -> Router<Arc<Tables>> {
    Router::new().route("/api/tables/{id}/odds", get(odds).put(switch))
}

#[derive(Deserialize)]
struct AsSeat {
    #[serde(rename = "as")]
    as_seat: Option<String>,
}

async fn odds(
    State(tables): State<Arc<Tables>>,
    caller: Caller,
    Params(q): Params<AsSeat>,
) -> Result<Json<Value>, ApiError> {
    let seat = as_seat(q.as_seat.as_deref())?;
    let reply = caller.table.answer(&caller.key, seat, usize::MAX).await?;
    let snapshot = reply.snapshot;
    let enabled = snapshot.odds_on();
    let seat = reply.access.seat.filter(|_| !reply.access.suspended);
    let hook = tables.entry(caller.table.ruleset).and_then(|e| e.odds);
    let (Some(seat), Some(hook), true) = (seat, hook, enabled) else {
        return Ok(Json(json!({ "enabled": enabled, "odds": null })));
    };
    let computed = snapshot.odds(seat, hook).await?;
    Ok(Json(json!({
        "enabled": true,
        "event_count": snapshot.revision(),
        "odds": computed,
    })))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Switch {
    enabled: bool,
}

async fn switch(
    State(tables): State<Arc<Tables>>,
    caller: Caller,
    JsonBody(body): JsonBody<Switch>,
) -> Result<Json<Value>, ApiError> {
    let op = crate::ops::set_odds::SetOdds {
        key: caller.key,
        enabled: body.enabled,
    };
    tables.execute(&caller.table, op).await?;
    Ok(Json(json!({ "enabled": body.enabled })))
}
