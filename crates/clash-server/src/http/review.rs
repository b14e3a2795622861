//! An ended table's review and replay: `GET …/review` (the review so far, queued the first
//! time it is asked for), `DELETE …/review` (the GM cancels it) and `GET …/replay` (one step
//! of the game as a seat saw it). Before the end each is refused with the reason.

use std::sync::Arc;

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use serde::Deserialize;
use utoipa::IntoParams;

use super::contract::Whose;
use super::reply::Shared;
use super::routes;
use super::tables::Path;
use crate::error::TableError;
use crate::error::{ApiError, Conflict};
use crate::http::extract::{Params, TableKey, as_seat, position};
use crate::review::replay::{self, FrameError, ReplayFrame};
use crate::review::{self as reviews, Job, ReviewStatus};
use crate::server::Server;
use crate::table::links::Role;
use crate::work::{self, Pool};

/// The table's job, made now if need be; refused before the table has ended.
async fn job(server: &Arc<Server>, caller: &TableKey) -> Result<Arc<Job>, ApiError> {
    let reply = caller.table.answer(&caller.key, None, usize::MAX).await?;
    if !reply.snapshot.revealed() {
        return Err(reviews::not_ended().into());
    }
    let record = server.tables().export(&caller.table, &caller.key);
    Ok(reviews::start(server, &caller.table, record).await?)
}

#[utoipa::path(get, path = routes::REVIEW.path, tag = "tables", params(Path),
    responses((status = 200, description = "Once the table has ended: its review as far as it has got (queued the first time it is asked for; ask again until `state` is `done` or `stopped`); `null` for a game that has no review. Before the end it is refused (`not_ended`): it would give away what is still hidden", body = Object)),
    extensions(("x-clash" = json!(Whose::AnyKey.conflicts(&[Conflict::NotEnded])))))]
pub async fn review(
    State(server): Shared,
    caller: TableKey,
) -> Result<Json<Option<ReviewStatus>>, ApiError> {
    Ok(Json(job(&server, &caller).await?.status()))
}

#[utoipa::path(delete, path = routes::CANCEL_REVIEW.path, tag = "tables", params(Path),
    responses((status = 204, description = "The review stops after its current slice; what it did not look at is said so")),
    extensions(("x-clash" = json!(Whose::Gm.only().uncapped()))))]
pub async fn cancel_review(caller: TableKey) -> Result<StatusCode, ApiError> {
    let access = caller.table.access(&caller.key, None).await?;
    if access.role != Role::Owner {
        return Err(TableError::forbidden("only the GM's link cancels a review").into());
    }
    if let Some(job) = reviews::current(&caller.table) {
        job.cancel();
    }
    Ok(StatusCode::NO_CONTENT)
}

/// `?step=3&as=p2`: the step, and the seat whose view it shows.
#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct Stepping {
    /// 0 is the table as it began; `k` the table after its `k`-th command.
    #[serde(default, deserialize_with = "position")]
    #[param(schema_with = crate::http::schemas::position)]
    pub step: Option<usize>,
    /// The seat whose view to show (`p2`, `gm`), or `spectator`; by default the link's own.
    #[serde(rename = "as")]
    pub as_seat: Option<String>,
}

#[utoipa::path(get, path = routes::REPLAY.path, tag = "tables", params(Path, Stepping),
    responses((status = 200, description = "Once the table has ended: one step of it as the seat saw it, with what was revealed later marked", body = Object)),
    extensions(("x-clash" = json!(Whose::AnyKey.conflicts(&[Conflict::NotEnded])))))]
pub async fn replay(
    State(server): Shared,
    caller: TableKey,
    Params(q): Params<Stepping>,
) -> Result<Json<ReplayFrame>, ApiError> {
    let viewer = match q.as_seat.as_deref() {
        Some("spectator") => clash_core::Viewer::Spectator,
        Some(seat) => match as_seat(Some(seat))? {
            Some(seat) => clash_core::Viewer::Seat(seat),
            None => clash_core::Viewer::Spectator,
        },
        None => caller.table.access(&caller.key, None).await?.viewer,
    };
    let job = job(&server, &caller).await?;
    let step = q.step.unwrap_or(0);
    let frame = work::run(Pool::Read, move || {
        replay::frame(&job.entry, &job.record, viewer, step)
    })
    .await?
    .map_err(|e| {
        ApiError::from(match e {
            FrameError::NoSuchSeat(seat) => TableError::UnknownSeat(seat.to_string()),
            FrameError::Unreadable(why) => TableError::Unreadable(why),
        })
    })?;
    Ok(Json(frame))
}
