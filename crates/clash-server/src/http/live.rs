//! Following a table live (Server-Sent Events), and the server's health and metrics.

use std::convert::Infallible;
use std::time::Duration;

use axum::extract::State;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use futures_util::Stream;
use serde::Deserialize;
use utoipa::IntoParams;

use super::contract::Whose;
use super::reply::Shared;
use super::routes;
use super::tables::Path;
use crate::error::{ApiError, Refusal};
use crate::http::extract::{Params, TableKey, as_seat, position};
use crate::view::stream::Watcher;

/// Whether the server can reach its database.
#[utoipa::path(get, path = routes::HEALTHZ.path, tag = "server",
    responses((status = 200, description = "The database is reachable", body = String, content_type = "text/plain")),
    extensions(("x-clash" = json!(Whose::Anyone.refuses(&[Refusal::Storage])))))]
pub async fn healthz(State(server): Shared) -> Response {
    if server.store().healthy().await {
        (StatusCode::OK, "ok\n").into_response()
    } else {
        ApiError::storage("the database is not reachable").into_response()
    }
}

/// The server's counters and timings.
#[utoipa::path(get, path = routes::METRICS.path, tag = "server",
    responses((status = 200, description = "Counters and timings in the OpenMetrics text format", body = String,
        content_type = "application/openmetrics-text")),
    extensions(("x-clash" = json!(Whose::Anyone.only()))))]
pub async fn metrics(State(server): Shared) -> Response {
    (
        [(
            header::CONTENT_TYPE,
            "application/openmetrics-text; version=1.0.0; charset=utf-8",
        )],
        server.metrics().encode(),
    )
        .into_response()
}

/// `?after=N&as=p2&changes=patch`.
#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct LiveQuery {
    /// Resume after this log position (a reconnecting browser's `Last-Event-ID` wins).
    #[serde(default, deserialize_with = "position")]
    #[param(schema_with = crate::http::schemas::position)]
    after: Option<usize>,
    /// The seat the GM's link watches as.
    #[serde(rename = "as")]
    as_seat: Option<String>,
    /// `update` (whole updates, the default) or `patch` (JSON Patch after the first).
    #[param(inline, value_type = Option<Changes>)]
    changes: Option<String>,
}

/// How a stream sends each change: whole updates, or JSON Patch after the first.
#[derive(utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
#[allow(dead_code)]
pub enum Changes {
    Update,
    Patch,
}

/// One Server-Sent Event of a table's stream: `update` (the data: the whole update as JSON),
/// `patch` (a JSON Patch to the last one), `access` (what the key may see changed: the stream
/// ends, read again), `revoked` (the link was revoked) or `deleted` (the table was deleted). Its
/// `id` is the log position it brings the reader to.
#[derive(utoipa::ToSchema)]
#[allow(dead_code)]
pub struct StreamEvent {
    #[schema(inline)]
    event: StreamEventName,
    data: String,
    id: Option<String>,
}

#[derive(utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
#[allow(dead_code)]
pub enum StreamEventName {
    Update,
    Patch,
    Access,
    Revoked,
    Deleted,
}

/// Where a stream resumes: the `Last-Event-ID` a reconnecting browser sends, else `?after=`.
fn resume_point(headers: &HeaderMap, after: Option<usize>) -> usize {
    headers
        .get("last-event-id")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse().ok())
        .or(after)
        .unwrap_or(0)
}

/// Follow the table live, as the key sees it.
#[utoipa::path(get, path = routes::STREAM.path, tag = "tables", params(Path, LiveQuery),
    responses((status = 200, description = "Server-Sent Events: `update` (or `patch`) after every change the key may see; `access`, `revoked` or `deleted` when its rights end",
        body = StreamEvent, content_type = "text/event-stream")),
    extensions(("x-clash" = json!(Whose::AnyKey.refuses(&[Refusal::TooManyStreams])))))]
pub async fn stream(
    State(server): Shared,
    caller: TableKey,
    headers: HeaderMap,
    Params(q): Params<LiveQuery>,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, ApiError> {
    let seat = as_seat(q.as_seat.as_deref())?;
    let patches = match q.changes.as_deref() {
        None | Some("update") => false,
        Some("patch") => true,
        Some(other) => {
            return Err(ApiError::malformed(format!(
                "changes is \"update\" (whole updates) or \"patch\" (JSON Patch after the first), not {other:?}"
            )));
        }
    };
    let rights = caller.table.access(&caller.key, seat).await?;
    let ticket = server.open_stream(&caller.table, &caller.key, &rights)?;
    // The page counts as here while its stream lives.
    let here = crate::view::stream::arrive(
        caller.table.clone(),
        crate::view::room::presence_name(&rights),
    );
    let watcher = Watcher::new(
        caller.table,
        caller.key,
        seat,
        rights,
        resume_point(&headers, q.after),
        patches,
        server.tables().closing(),
        server.metrics().clone(),
        (ticket, here),
    );
    let events = futures_util::stream::unfold(watcher, |mut w| async move {
        w.next().await.map(|e| (Ok(e), w))
    });
    let every = server
        .limits()
        .stream_keep_alive
        .max(Duration::from_millis(100));
    Ok(Sse::new(events).keep_alive(KeepAlive::new().interval(every)))
}
