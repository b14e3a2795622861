//! The JSON API and the live stream, plus the routes of the web UI.
//!
//! Every request that touches a table names it by id and proves its role with a link key, sent
//! as `?key=…`, an `X-Clash-Key` header, or `Authorization: Bearer …`. Bodies are JSON read by
//! hand (not by an extractor) so every refusal is a JSON error with a clear message; bodies over
//! [`BODY_LIMIT`] bytes are refused with 413 before they are read.

use std::collections::HashMap;
use std::convert::Infallible;
use std::sync::Arc;

use axum::Json;
use axum::Router;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{DefaultBodyLimit, Path, Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use clash_core::{Seat, Viewer};
use futures_util::Stream;
use serde_json::{Value, json};

use crate::error::ApiError;
use crate::links::Role;
use crate::pages;
use crate::setups::presets;
use crate::tables::{CommandRequest, Push, Table, Tables};

/// Largest request body accepted (commands and setups are small).
pub const BODY_LIMIT: usize = 64 * 1024;

type Shared = State<Arc<Tables>>;
type Params = Query<HashMap<String, String>>;

pub fn router(tables: Arc<Tables>) -> Router {
    Router::new()
        .route("/", get(pages::lobby))
        .route("/tables", post(pages::create_from_form))
        .route(
            "/t/{id}/{key}",
            get(pages::table_page).post(pages::claim_from_page),
        )
        .route("/assets/{name}", get(pages::asset))
        .route("/assets/panel/{file}", get(pages::panel_asset))
        .route("/healthz", get(healthz))
        .route("/api/openapi.json", get(openapi))
        .route("/api/rulesets", get(rulesets))
        .route("/api/tables", post(create_table))
        .route("/api/tables/{id}", get(table_info))
        .route("/api/tables/{id}/view", get(view))
        .route("/api/tables/{id}/events", get(events))
        .route("/api/tables/{id}/commands", post(command))
        .route("/api/tables/{id}/stream", get(stream))
        .route("/api/tables/{id}/export", get(export))
        .route("/api/tables/{id}/claim", post(claim))
        .route("/api/tables/{id}/seed", post(seed))
        .route("/api/tables/{id}/close", post(close))
        .route(
            "/api/tables/{id}/seats/{seat}/link",
            post(issue_link).delete(revoke_link),
        )
        .route("/api/tables/{id}/seats/{seat}/hand-back", post(hand_back))
        .fallback(not_found)
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .with_state(tables)
}

async fn not_found() -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        "not_found",
        "no such page or endpoint; the API is described at /api/openapi.json",
    )
}

async fn healthz(State(tables): Shared) -> Response {
    if tables.store().healthy().await {
        (StatusCode::OK, "ok\n").into_response()
    } else {
        ApiError::storage("the database is not reachable").into_response()
    }
}

async fn openapi() -> Response {
    (
        [(header::CONTENT_TYPE, "application/json")],
        include_str!("openapi.json"),
    )
        .into_response()
}

/// Read a JSON object body, turning every failure into a clear refusal.
pub fn json_body(
    body: Result<Bytes, BytesRejection>,
) -> Result<serde_json::Map<String, Value>, ApiError> {
    let bytes = body.map_err(|e| {
        let status = e.status();
        if status == StatusCode::PAYLOAD_TOO_LARGE {
            ApiError::new(
                status,
                "too_large",
                format!("the request body is larger than {BODY_LIMIT} bytes"),
            )
        } else {
            ApiError::new(status, "malformed", e.body_text())
        }
    })?;
    match serde_json::from_slice::<Value>(&bytes) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(_) => Err(ApiError::malformed("the body must be a JSON object")),
        Err(e) => Err(ApiError::malformed(format!(
            "the body is not valid JSON: {e}"
        ))),
    }
}

/// The link key of a request: `?key=`, `X-Clash-Key`, or `Authorization: Bearer`.
pub(crate) fn key_of(
    headers: &HeaderMap,
    params: &HashMap<String, String>,
) -> Result<String, ApiError> {
    let header_key = headers
        .get("x-clash-key")
        .and_then(|v| v.to_str().ok())
        .map(str::to_string);
    let bearer = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .map(str::to_string);
    params
        .get("key")
        .cloned()
        .or(header_key)
        .or(bearer)
        .ok_or_else(|| {
            ApiError::new(
                StatusCode::UNAUTHORIZED,
                "missing_key",
                "send your link key as ?key=…, an X-Clash-Key header, or Authorization: Bearer …",
            )
        })
}

fn parse_seat(text: &str) -> Result<Seat, ApiError> {
    text.parse()
        .map_err(|e: clash_core::BadSeat| ApiError::malformed(e.to_string()))
}

pub(crate) fn parse_as(value: Option<&str>) -> Result<Option<Seat>, ApiError> {
    value.filter(|s| !s.is_empty()).map(parse_seat).transpose()
}

/// The table, the caller's key, and what it may do there now.
pub struct Access {
    pub table: Arc<Table>,
    pub key: String,
    pub as_seat: Option<Seat>,
    pub rights: crate::tables::Access,
}

impl Access {
    pub fn viewer(&self) -> Viewer {
        self.rights.viewer
    }
}

pub async fn access(
    tables: &Tables,
    id: &str,
    key: &str,
    as_seat: Option<Seat>,
) -> Result<Access, ApiError> {
    let table = tables.get(id)?;
    let rights = table.access(key, as_seat).await?;
    Ok(Access {
        table,
        key: key.to_string(),
        as_seat,
        rights,
    })
}

pub(crate) async fn access_from(
    tables: &Tables,
    id: &str,
    headers: &HeaderMap,
    params: &HashMap<String, String>,
) -> Result<Access, ApiError> {
    let key = key_of(headers, params)?;
    access(
        tables,
        id,
        &key,
        parse_as(params.get("as").map(String::as_str))?,
    )
    .await
}

async fn rulesets(State(tables): Shared) -> Json<Value> {
    let list: Vec<Value> = tables
        .catalogue()
        .iter()
        .map(|e| json!({ "id": e.id, "name": e.name, "blurb": e.blurb, "presets": presets(e) }))
        .collect();
    Json(json!({ "rulesets": list }))
}

/// The links a table's owner receives, as paths on this server.
pub fn table_path(id: &str, key: &str) -> String {
    format!("/t/{id}/{key}")
}

async fn create_table(
    State(tables): Shared,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let body = json_body(body)?;
    let ruleset = body.get("ruleset").and_then(Value::as_str).ok_or_else(|| {
        ApiError::malformed("name the ruleset: {\"ruleset\": \"triforce\", \"setup\": {…}}")
    })?;
    let title = body.get("title").and_then(Value::as_str).unwrap_or("");
    let setup = match (body.get("setup"), tables.entry(ruleset)) {
        (Some(s), _) => s.clone(),
        (None, Some(entry)) => presets(&entry)
            .into_iter()
            .next()
            .map(|p| p.setup)
            .ok_or_else(|| {
                ApiError::malformed(format!(
                    "give a setup for {ruleset:?} (no default setup is known)"
                ))
            })?,
        // Unknown ruleset: let `create` say so.
        (None, None) => Value::Null,
    };
    let created = tables.create(ruleset, title, setup).await?;
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
pub async fn table_summary(access: &Access) -> Value {
    let t = &access.table;
    let owner = access.rights.role == Role::Owner;
    let seats = t.seat_list(owner).await;
    let mut body = json!({
        "table": t.id,
        "title": t.title,
        "ruleset": t.ruleset,
        "role": access.rights.role.to_string(),
        "seat": access.rights.seat,
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

async fn table_info(
    State(tables): Shared,
    Path(id): Path<String>,
    headers: HeaderMap,
    Query(params): Params,
) -> Result<Json<Value>, ApiError> {
    let access = access_from(&tables, &id, &headers, &params).await?;
    Ok(Json(table_summary(&access).await))
}

fn after_param(params: &HashMap<String, String>, default: usize) -> Result<usize, ApiError> {
    match params.get("after") {
        None => Ok(default),
        Some(s) => s.parse().map_err(|_| {
            ApiError::malformed(format!(
                "after must be a log position (0, 1, 2, …), not {s:?}"
            ))
        }),
    }
}

async fn view(
    State(tables): Shared,
    Path(id): Path<String>,
    headers: HeaderMap,
    Query(params): Params,
) -> Result<Response, ApiError> {
    let key = key_of(&headers, &params)?;
    let as_seat = parse_as(params.get("as").map(String::as_str))?;
    let after = after_param(&params, usize::MAX)?;
    let (_, update) = tables.get(&id)?.update_for(&key, as_seat, after).await?;
    Ok(Json(update).into_response())
}

async fn events(
    State(tables): Shared,
    Path(id): Path<String>,
    headers: HeaderMap,
    Query(params): Params,
) -> Result<Json<Value>, ApiError> {
    let key = key_of(&headers, &params)?;
    let as_seat = parse_as(params.get("as").map(String::as_str))?;
    let after = after_param(&params, 0)?;
    let (_, update) = tables.get(&id)?.update_for(&key, as_seat, after).await?;
    Ok(Json(
        json!({ "event_count": update.event_count, "head": update.head, "events": update.events }),
    ))
}

async fn command(
    State(tables): Shared,
    Path(id): Path<String>,
    headers: HeaderMap,
    Query(params): Params,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    // Check the table and key before the body, so a stranger learns nothing from our parsing.
    let key = key_of(&headers, &params)?;
    let table = tables.get(&id)?;
    table.access(&key, None).await?;
    let body = json_body(body)?;
    let as_seat = parse_as(
        body.get("as")
            .and_then(Value::as_str)
            .or(params.get("as").map(String::as_str)),
    )?;
    let command = body.get("command").ok_or_else(|| {
        ApiError::malformed("put the command under \"command\": {\"command\": {\"type\": …}}")
    })?;
    let id_text = match body.get("id") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => Some(s.clone()),
        Some(_) => {
            return Err(ApiError::malformed(
                "\"id\" is a string chosen by the client, the same on every retry",
            ));
        }
    };
    let revision = match body.get("revision") {
        None | Some(Value::Null) => None,
        Some(v) => Some(v.as_u64().ok_or_else(|| {
            ApiError::malformed("\"revision\" is the event_count you last saw (0, 1, 2, …)")
        })? as usize),
    };
    let ask = match body.get("ask") {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => *b,
        Some(_) => return Err(ApiError::malformed("\"ask\" is true or false")),
    };
    let request = CommandRequest {
        key: &key,
        as_seat,
        command,
        id: id_text,
        revision,
        ask,
    };
    let update = tables.command(&table, request).await?;
    Ok(Json(update).into_response())
}

fn manageable(seat_text: &str) -> Result<Seat, ApiError> {
    let seat = parse_seat(seat_text)?;
    if seat == Seat::Gm {
        return Err(ApiError::malformed(
            "the gm seat belongs to the GM link itself; invite players to p1, p2, …",
        ));
    }
    Ok(seat)
}

/// `{"npc": true}`: the GM takes the seat over; `{"npc": false}` (or no body): a new invite.
async fn issue_link(
    State(tables): Shared,
    Path((id, seat)): Path<(String, String)>,
    headers: HeaderMap,
    Query(params): Params,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let key = key_of(&headers, &params)?;
    let table = tables.get(&id)?;
    let seat = manageable(&seat)?;
    let empty = body.as_ref().is_ok_and(|b| b.is_empty());
    let npc = if empty {
        false
    } else {
        match json_body(body)?.get("npc") {
            None | Some(Value::Bool(false)) => false,
            Some(Value::Bool(true)) => true,
            Some(_) => return Err(ApiError::malformed("\"npc\" is true or false")),
        }
    };
    if npc {
        tables.take_over(&table, &key, seat).await?;
        return Ok((
            StatusCode::CREATED,
            Json(json!({ "seat": seat, "npc": true })).into_response(),
        )
            .into_response());
    }
    let invite = tables.invite(&table, &key, seat).await?;
    let link = table_path(&table.id, &invite);
    Ok((
        StatusCode::CREATED,
        Json(json!({ "seat": seat, "npc": false, "invite": invite, "link": link })),
    )
        .into_response())
}

async fn hand_back(
    State(tables): Shared,
    Path((id, seat)): Path<(String, String)>,
    headers: HeaderMap,
    Query(params): Params,
) -> Result<Response, ApiError> {
    let key = key_of(&headers, &params)?;
    let table = tables.get(&id)?;
    tables.hand_back(&table, &key, manageable(&seat)?).await?;
    Ok(StatusCode::NO_CONTENT.into_response())
}

async fn revoke_link(
    State(tables): Shared,
    Path((id, seat)): Path<(String, String)>,
    headers: HeaderMap,
    Query(params): Params,
) -> Result<Response, ApiError> {
    let key = key_of(&headers, &params)?;
    let table = tables.get(&id)?;
    tables.revoke(&table, &key, manageable(&seat)?).await?;
    Ok(StatusCode::NO_CONTENT.into_response())
}

/// Exchange an invite (sent as the key) for the player's own key.
async fn claim(
    State(tables): Shared,
    Path(id): Path<String>,
    headers: HeaderMap,
    Query(params): Params,
) -> Result<Response, ApiError> {
    let invite = key_of(&headers, &params)?;
    let table = tables.get(&id)?;
    let (seat, key) = tables.claim(&table, &invite).await?;
    let link = table_path(&table.id, &key);
    Ok((
        StatusCode::CREATED,
        Json(json!({ "seat": seat, "key": key, "link": link })),
    )
        .into_response())
}

async fn seed(
    State(tables): Shared,
    Path(id): Path<String>,
    headers: HeaderMap,
    Query(params): Params,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let key = key_of(&headers, &params)?;
    let table = tables.get(&id)?;
    let body = json_body(body)?;
    let seed = body
        .get("seed")
        .and_then(Value::as_str)
        .ok_or_else(|| ApiError::malformed("send {\"seed\": \"…\"}"))?;
    tables.add_seed(&table, &key, seed).await?;
    Ok(StatusCode::NO_CONTENT.into_response())
}

async fn close(
    State(tables): Shared,
    Path(id): Path<String>,
    headers: HeaderMap,
    Query(params): Params,
) -> Result<Response, ApiError> {
    let key = key_of(&headers, &params)?;
    let table = tables.get(&id)?;
    tables.close_table(&table, &key).await?;
    Ok(StatusCode::NO_CONTENT.into_response())
}

async fn export(
    State(tables): Shared,
    Path(id): Path<String>,
    headers: HeaderMap,
    Query(params): Params,
) -> Result<Response, ApiError> {
    let key = key_of(&headers, &params)?;
    let table = tables.get(&id)?;
    let record = tables.export(&table, &key).await?;
    let disposition = format!("attachment; filename=\"clash-{}.json\"", table.id);
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

/// Where a stream resumes: the `Last-Event-ID` a reconnecting browser sends, else `?after=`.
fn resume_point(headers: &HeaderMap, params: &HashMap<String, String>) -> Result<usize, ApiError> {
    match headers
        .get("last-event-id")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse().ok())
    {
        Some(n) => Ok(n),
        None => after_param(params, 0),
    }
}

struct Watcher {
    table: Arc<Table>,
    key: String,
    as_seat: Option<Seat>,
    /// The rights the stream was opened with: it sends only while the key still has exactly these.
    bound: crate::tables::Access,
    cursor: usize,
    changes: tokio::sync::watch::Receiver<u64>,
    closing: tokio::sync::watch::Receiver<bool>,
    started: bool,
    ended: bool,
    /// Counts this page as present at the table while the stream lives.
    _here: crate::presence::Here,
}

impl Watcher {
    /// The next message for this viewer, or `None` once the stream should end.
    async fn next(&mut self) -> Option<Event> {
        if self.ended {
            return None;
        }
        if self.started {
            tokio::select! {
                changed = self.changes.changed() => changed.ok()?,
                _ = self.closing.wait_for(|c| *c) => return None,
            }
        }
        self.started = true;
        match self
            .table
            .push(&self.key, self.as_seat, &self.bound, self.cursor)
            .await
        {
            Push::Update(update) => {
                self.cursor = update.event_count;
                let data = serde_json::to_string(&update).unwrap_or_default();
                Some(
                    Event::default()
                        .id(update.event_count.to_string())
                        .event("update")
                        .data(data),
                )
            }
            Push::Changed { message } => {
                self.ended = true;
                Some(
                    Event::default()
                        .event("access")
                        .data(json!({ "message": message }).to_string()),
                )
            }
            Push::Revoked => {
                self.ended = true;
                Some(
                    Event::default()
                        .event("revoked")
                        .data("this link was revoked; ask the GM for a new one"),
                )
            }
        }
    }
}

async fn stream(
    State(tables): Shared,
    Path(id): Path<String>,
    headers: HeaderMap,
    Query(params): Params,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, ApiError> {
    let access = access_from(&tables, &id, &headers, &params).await?;
    let cursor = resume_point(&headers, &params)?;
    let changes = access.table.watch();
    let here = crate::presence::arrive(
        access.table.clone(),
        crate::room::presence_name(&access.rights),
    );
    let watcher = Watcher {
        table: access.table,
        key: access.key,
        as_seat: access.as_seat,
        bound: access.rights,
        cursor,
        changes,
        closing: tables.closing(),
        started: false,
        ended: false,
        _here: here,
    };
    let events = futures_util::stream::unfold(watcher, |mut w| async move {
        w.next().await.map(|e| (Ok(e), w))
    });
    // A short keep-alive finds a page that went away soon, so presence is current.
    Ok(Sse::new(events).keep_alive(KeepAlive::new().interval(std::time::Duration::from_secs(5))))
}
