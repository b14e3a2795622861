//! The JSON API and the live stream, plus the routes of the web UI.
//!
//! Every request that touches a table names it by id and proves its role with a link key, sent
//! as `?key=…`, an `X-Clash-Key` header, or `Authorization: Bearer …`. What a handler needs is
//! read by typed extractors ([`crate::extract`]); every refusal is an [`ApiError`]. Bodies are
//! JSON (`Content-Type: application/json`) of at most [`Limits::body_limit`] bytes, and their
//! unknown fields are refused.

use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;

use axum::Json;
use axum::Router;
use axum::extract::{DefaultBodyLimit, FromRequestParts, Path, State};
use axum::http::request::Parts;
use axum::http::{HeaderMap, StatusCode, header};
use axum::middleware;
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use futures_util::Stream;
use serde::Deserialize;
use serde_json::{Value, json};

use crate::config::Limits;
use crate::error::ApiError;
use crate::extract::{
    Caller, ClientAddr, JsonBody, OptionalJson, Params, TableKey, as_seat, position, seat_named,
};
use crate::links::Role;
use crate::ops::add_seed::AddSeed;
use crate::ops::claim::Claim;
use crate::ops::command::Command;
use crate::ops::delete::Delete;
use crate::ops::end::End;
use crate::ops::hand_back::HandBack;
use crate::ops::invite::Invite;
use crate::ops::replace_link::{ReplaceLink, SharedLink};
use crate::ops::revoke::Revoke;
use crate::ops::take_over::TakeOver;
use crate::pages;
use crate::stream::Watcher;
use crate::table::Answer;
use crate::tables::Tables;

type Shared = State<Arc<Tables>>;

pub fn router(tables: Arc<Tables>) -> Router {
    let limits: Limits = tables.limits().clone();
    let timed = Router::new()
        .route("/", get(pages::lobby))
        .route("/tables", post(pages::create_from_form))
        .route(
            "/t/{id}/{key}",
            get(pages::table_page).post(pages::claim_from_page),
        )
        .route("/assets/{name}", get(pages::asset))
        .route("/assets/panel/{file}", get(pages::panel_asset))
        .route("/healthz", get(healthz))
        .route("/metrics", get(metrics))
        .route("/api/openapi.json", get(openapi))
        .route("/api/rulesets", get(rulesets))
        .route("/api/tables", post(create_table))
        .route("/api/tables/{id}", get(table_info).delete(delete_table))
        .route("/api/tables/{id}/view", get(view))
        .route("/api/tables/{id}/events", get(events))
        .route("/api/tables/{id}/commands", post(command))
        .route("/api/tables/{id}/export", get(export))
        .route("/api/tables/{id}/claim", post(claim))
        .route("/api/tables/{id}/seed", post(seed))
        .route("/api/tables/{id}/close", post(close))
        .route("/api/tables/{id}/links/{link}", post(replace_link))
        .route(
            "/api/tables/{id}/seats/{seat}/link",
            post(issue_link).delete(revoke_link),
        )
        .route("/api/tables/{id}/seats/{seat}/hand-back", post(hand_back))
        .route_layer(middleware::from_fn_with_state(
            limits.request_timeout,
            crate::layers::time_limit,
        ));
    let extras = crate::odds::routes()
        .merge(crate::chat::routes())
        .merge(crate::undo::routes())
        .merge(crate::manage::routes())
        .merge(crate::rules::routes())
        .merge(crate::forms::routes())
        .merge(crate::bots::routes())
        .route_layer(middleware::from_fn_with_state(
            limits.request_timeout,
            crate::layers::time_limit,
        ));
    let app = timed
        .merge(extras)
        .route("/api/tables/{id}/stream", get(stream))
        .fallback(not_found)
        .layer(DefaultBodyLimit::max(limits.body_limit))
        .with_state(tables.clone());
    crate::layers::wrap(app, tables.metrics().clone(), &limits)
}

async fn not_found() -> ApiError {
    ApiError::NotFound
}

/// A JSON answer already serialized.
fn json_text(status: StatusCode, text: String) -> Response {
    (status, [(header::CONTENT_TYPE, "application/json")], text).into_response()
}

async fn answer(tables: &Tables, answer: Answer) -> Result<Response, ApiError> {
    let text = answer.text(tables.metrics()).await?;
    Ok(json_text(StatusCode::OK, text))
}

async fn healthz(State(tables): Shared) -> Response {
    if tables.store().healthy().await {
        (StatusCode::OK, "ok\n").into_response()
    } else {
        ApiError::storage("the database is not reachable").into_response()
    }
}

async fn metrics(State(tables): Shared) -> Response {
    (
        [(
            header::CONTENT_TYPE,
            "application/openmetrics-text; version=1.0.0; charset=utf-8",
        )],
        tables.metrics().encode(),
    )
        .into_response()
}

async fn openapi() -> Response {
    (
        [(header::CONTENT_TYPE, "application/json")],
        include_str!("openapi.json"),
    )
        .into_response()
}

async fn rulesets(State(tables): Shared) -> Json<Value> {
    let list: Vec<Value> = tables
        .catalogue()
        .iter()
        .map(|e| {
            json!({ "id": e.id, "name": e.name, "blurb": e.blurb, "presets": tables.presets(e.id) })
        })
        .collect();
    Json(json!({ "rulesets": list }))
}

/// The links a table's owner receives, as paths on this server.
pub fn table_path(id: &str, key: &str) -> String {
    format!("/t/{id}/{key}")
}

/// A creation allowed by the per-address rate limit (checked before the body is read).
pub struct Creating;

impl FromRequestParts<Arc<Tables>> for Creating {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, tables: &Arc<Tables>) -> Result<Self, ApiError> {
        let Ok(ClientAddr(ip)) = ClientAddr::from_request_parts(parts, tables).await;
        tables.creation().check(ip).inspect_err(|_| {
            tables.metrics().refuse("create_rate");
        })?;
        Ok(Creating)
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CreateBody {
    #[serde(default)]
    ruleset: Option<String>,
    #[serde(default)]
    setup: Option<Value>,
    #[serde(default)]
    title: Option<String>,
}

async fn create_table(
    State(tables): Shared,
    _: Creating,
    JsonBody(body): JsonBody<CreateBody>,
) -> Result<Response, ApiError> {
    let ruleset = body.ruleset.ok_or_else(|| {
        ApiError::malformed("name the ruleset: {\"ruleset\": \"triforce\", \"setup\": {…}}")
    })?;
    let setup = match (body.setup, tables.entry(&ruleset)) {
        (Some(s), _) => s,
        (None, Some(entry)) => tables
            .presets(entry.id)
            .first()
            .map(|p| p.setup.clone())
            .ok_or_else(|| {
                ApiError::malformed(format!(
                    "give a setup for {ruleset:?} (no default setup is known)"
                ))
            })?,
        // Unknown ruleset: let `create` say so.
        (None, None) => Value::Null,
    };
    let title = body.title.unwrap_or_default();
    let created = tables.create(&ruleset, &title, setup).await?;
    let t = &created.table;
    let seats = t.seat_list(true).await;
    let body = json!({
        "table": t.id,
        "title": t.title,
        "ruleset": t.ruleset,
        "owner_key": created.owner_key,
        "spectator_key": created.spectator_key,
        "links": {
            "owner": table_path(&t.id, &created.owner_key),
            "spectator": table_path(&t.id, &created.spectator_key),
        },
        "seats": seats,
    });
    Ok((StatusCode::CREATED, Json(body)).into_response())
}

/// What the caller's link is, and every seat's holder (the owner also sees unused invites and
/// its own links).
pub async fn table_summary(caller: &Caller) -> Value {
    let t = &caller.table;
    let owner = caller.rights.role == Role::Owner;
    let seats = t.seat_list(owner).await;
    let mut body = json!({
        "table": t.id,
        "title": t.title,
        "ruleset": t.ruleset,
        "role": caller.rights.role.to_string(),
        "seat": caller.rights.seat,
        "event_count": t.event_count().await,
        "seats": seats,
    });
    if owner {
        let owner_key = t.key_of(Role::Owner).await;
        let spectator_key = t.key_of(Role::Spectator).await;
        let link = |k: Option<String>| k.map(|k| table_path(&t.id, &k));
        body["links"] = json!({ "owner": link(owner_key), "spectator": link(spectator_key) });
        if let Some(list) = body["seats"].as_array_mut() {
            for s in list {
                if let Some(key) = s.get("key").and_then(Value::as_str) {
                    let path = table_path(&t.id, key);
                    s["link"] = Value::String(path);
                }
            }
        }
    }
    body
}

async fn table_info(caller: Caller) -> Json<Value> {
    Json(table_summary(&caller).await)
}

async fn delete_table(State(tables): Shared, caller: Caller) -> Result<StatusCode, ApiError> {
    tables
        .execute(&caller.table, Delete { key: caller.key })
        .await?;
    Ok(StatusCode::NO_CONTENT)
}

/// `?after=N&as=p2`: where the log lines start, and the seat the GM's link acts as.
#[derive(Deserialize)]
struct Reading {
    #[serde(default, deserialize_with = "position")]
    after: Option<usize>,
    #[serde(rename = "as")]
    as_seat: Option<String>,
}

async fn view(
    State(tables): Shared,
    caller: Caller,
    Params(q): Params<Reading>,
) -> Result<Response, ApiError> {
    let seat = as_seat(q.as_seat.as_deref())?;
    let reply = caller
        .table
        .answer(&caller.key, seat, q.after.unwrap_or(usize::MAX))
        .await?;
    answer(&tables, reply).await
}

async fn events(caller: Caller, Params(q): Params<Reading>) -> Result<Json<Value>, ApiError> {
    let seat = as_seat(q.as_seat.as_deref())?;
    let reply = caller
        .table
        .answer(&caller.key, seat, q.after.unwrap_or(0))
        .await?;
    let lines = reply.snapshot.lines(&reply.access, reply.after).await;
    let head = reply.snapshot.head_hex();
    Ok(Json(json!({
        "event_count": reply.snapshot.revision(),
        "head": head,
        "events": lines,
    })))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CommandBody {
    #[serde(default)]
    command: Option<Value>,
    #[serde(rename = "as", default)]
    as_seat: Option<String>,
    /// The client's id, the same on every retry.
    #[serde(default)]
    id: Option<String>,
    /// The `event_count` the client last saw.
    #[serde(default)]
    revision: Option<usize>,
    /// Ask first: a command the rules call weighty is refused with its question (409
    /// `confirm`) instead of applied, so the page can ask and send it again without `ask`.
    #[serde(default)]
    ask: bool,
}

async fn command(
    State(tables): Shared,
    caller: Caller,
    Params(q): Params<Reading>,
    JsonBody(body): JsonBody<CommandBody>,
) -> Result<Response, ApiError> {
    let seat = as_seat(body.as_seat.as_deref().or(q.as_seat.as_deref()))?;
    let command = body.command.ok_or_else(|| {
        ApiError::malformed("put the command under \"command\": {\"command\": {\"type\": …}}")
    })?;
    let request = Command {
        key: caller.key,
        as_seat: seat,
        command,
        id: body.id,
        revision: body.revision,
        ask: body.ask,
    };
    let reply = tables.command(&caller.table, request).await?;
    answer(&tables, reply).await
}

/// A seat in the path that the GM may manage (not the GM's own).
fn manageable(text: &str) -> Result<clash_core::Seat, ApiError> {
    let seat = seat_named(text)?;
    if seat == clash_core::Seat::Gm {
        return Err(ApiError::malformed(
            "the gm seat belongs to the GM link itself; invite players to p1, p2, …",
        ));
    }
    Ok(seat)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LinkBody {
    #[serde(default)]
    npc: bool,
}

/// `{"npc": true}`: the GM takes the seat over; `{"npc": false}` (or no body): a new invite.
async fn issue_link(
    State(tables): Shared,
    caller: TableKey,
    Path((_, seat)): Path<(String, String)>,
    OptionalJson(body): OptionalJson<LinkBody>,
) -> Result<Response, ApiError> {
    let seat = manageable(&seat)?;
    let (table, key) = (&caller.table, caller.key);
    if body.is_some_and(|b| b.npc) {
        tables.execute(table, TakeOver { key, seat }).await?;
        return Ok((
            StatusCode::CREATED,
            Json(json!({ "seat": seat, "npc": true })),
        )
            .into_response());
    }
    let invite = tables.execute(table, Invite { key, seat }).await?.answer;
    let link = table_path(&table.id, &invite);
    Ok((
        StatusCode::CREATED,
        Json(json!({ "seat": seat, "npc": false, "invite": invite, "link": link })),
    )
        .into_response())
}

async fn hand_back(
    State(tables): Shared,
    caller: TableKey,
    Path((_, seat)): Path<(String, String)>,
) -> Result<StatusCode, ApiError> {
    let seat = manageable(&seat)?;
    let op = HandBack {
        key: caller.key,
        seat,
    };
    tables.execute(&caller.table, op).await?;
    Ok(StatusCode::NO_CONTENT)
}

async fn revoke_link(
    State(tables): Shared,
    caller: TableKey,
    Path((_, seat)): Path<(String, String)>,
) -> Result<StatusCode, ApiError> {
    let seat = manageable(&seat)?;
    let op = Revoke {
        key: caller.key,
        seat,
    };
    tables.execute(&caller.table, op).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// A new GM link (`/links/owner`) or watch link (`/links/spectator`); the old one stops working.
async fn replace_link(
    State(tables): Shared,
    caller: TableKey,
    Path((_, link)): Path<(String, String)>,
) -> Result<Response, ApiError> {
    let which = match link.as_str() {
        "owner" => SharedLink::Owner,
        "spectator" => SharedLink::Spectator,
        other => {
            return Err(ApiError::malformed(format!(
                "{other:?} is not a shared link: replace \"owner\" (the GM's) or \"spectator\" (the watch link)"
            )));
        }
    };
    let op = ReplaceLink {
        key: caller.key,
        which,
    };
    let key = tables.execute(&caller.table, op).await?.answer;
    let path = table_path(&caller.table.id, &key);
    Ok((
        StatusCode::CREATED,
        Json(json!({ "link": link, "key": key, "path": path })),
    )
        .into_response())
}

/// Exchange an invite (sent as the key) for the player's own key.
async fn claim(State(tables): Shared, caller: TableKey) -> Result<Response, ApiError> {
    let op = Claim { invite: caller.key };
    let (seat, key) = tables.execute(&caller.table, op).await?.answer;
    let link = table_path(&caller.table.id, &key);
    Ok((
        StatusCode::CREATED,
        Json(json!({ "seat": seat, "key": key, "link": link })),
    )
        .into_response())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SeedBody {
    seed: String,
}

async fn seed(
    State(tables): Shared,
    caller: TableKey,
    JsonBody(body): JsonBody<SeedBody>,
) -> Result<StatusCode, ApiError> {
    let op = AddSeed {
        key: caller.key,
        seed: body.seed,
    };
    tables.execute(&caller.table, op).await?;
    Ok(StatusCode::NO_CONTENT)
}

async fn close(State(tables): Shared, caller: TableKey) -> Result<StatusCode, ApiError> {
    tables
        .execute(&caller.table, End { key: caller.key })
        .await?;
    Ok(StatusCode::NO_CONTENT)
}

async fn export(State(tables): Shared, caller: TableKey) -> Result<Response, ApiError> {
    let record = tables.export(&caller.table, &caller.key).await?;
    let disposition = format!("attachment; filename=\"clash-{}.json\"", caller.table.id);
    let text = serde_json::to_string_pretty(&record).unwrap_or_default();
    Ok((
        [
            (header::CONTENT_TYPE, "application/json".to_string()),
            (header::CONTENT_DISPOSITION, disposition),
        ],
        text,
    )
        .into_response())
}

/// `?after=N&as=p2&changes=patch`.
#[derive(Deserialize)]
struct Watching {
    #[serde(default, deserialize_with = "position")]
    after: Option<usize>,
    #[serde(rename = "as")]
    as_seat: Option<String>,
    changes: Option<String>,
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

async fn stream(
    State(tables): Shared,
    caller: TableKey,
    headers: HeaderMap,
    Params(q): Params<Watching>,
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
    let ticket = tables.open_stream(&caller.table, &caller.key, &rights)?;
    // The page counts as here while its stream lives.
    let here = crate::presence::arrive(caller.table.clone(), crate::room::presence_name(&rights));
    let watcher = Watcher::new(
        caller.table,
        caller.key,
        seat,
        rights,
        resume_point(&headers, q.after),
        patches,
        tables.closing(),
        tables.metrics().clone(),
        (ticket, here),
    );
    let events = futures_util::stream::unfold(watcher, |mut w| async move {
        w.next().await.map(|e| (Ok(e), w))
    });
    let every = tables
        .limits()
        .stream_keep_alive
        .max(Duration::from_millis(100));
    Ok(Sse::new(events).keep_alive(KeepAlive::new().interval(every)))
}
