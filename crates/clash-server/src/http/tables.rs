//! Tables as a whole: the rulesets, creating a table, what a key sees of it (its summary, its
//! view, its log, its record) and deleting it.

use std::sync::Arc;

use axum::Json;
use axum::extract::{Path as UrlPath, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::Value;
use utoipa::IntoParams;

use super::contract::Whose;
use super::dto::{
    CreateTable, Created, Events, RulesetInfo, Rulesets, SharedLinks, Summary, SummarySeat,
};
use super::reply::{Shared, UpdateJson, answer};
use super::routes::{self, table_path};
use crate::error::{ApiError, Conflict, Refusal, TableError};
use crate::http::extract::{Caller, ClientAddr, JsonBody, Params, TableKey, as_seat, position};
use crate::http::rate::{CreationLimit, TooSoon};
use crate::ops::delete::Delete;
use crate::server::Server;
use crate::table::links::Role;

/// The rulesets this server plays.
#[utoipa::path(get, path = routes::RULESETS.path, tag = "tables",
    responses((status = 200, description = "The rulesets this server plays, with ready-made setups", body = Rulesets)),
    extensions(("x-clash" = json!(Whose::Anyone.only()))))]
pub async fn rulesets(State(server): Shared) -> Json<Rulesets> {
    let rulesets = server
        .catalogue()
        .iter()
        .map(|e| RulesetInfo {
            id: e.id.into(),
            name: e.name.into(),
            blurb: e.blurb.into(),
            presets: serde_json::to_value(server.presets(e.id)).unwrap_or_default(),
        })
        .collect();
    Json(Rulesets { rulesets })
}

/// A creation allowed by the per-address rate limit (checked before the body is read): every
/// route that creates a table takes one, so the limit is checked and counted in one place.
pub struct Creating;

impl axum::extract::FromRequestParts<Arc<Server>> for Creating {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        server: &Arc<Server>,
    ) -> Result<Self, ApiError> {
        let Ok(ClientAddr(ip)) = ClientAddr::from_request_parts(parts, server).await;
        // The allowance the router holds (every router has one: see `http::router`).
        let Some(limit) = parts.extensions.get::<Arc<CreationLimit>>() else {
            return Ok(Creating);
        };
        match limit.check(ip) {
            Ok(()) => Ok(Creating),
            Err(TooSoon { retry_after }) => {
                server.metrics().refuse("create_rate");
                Err(ApiError::RateLimited { retry_after })
            }
        }
    }
}

/// Create a table of a ruleset: the caller holds its GM's key.
#[utoipa::path(post, path = routes::CREATE_TABLE.path, tag = "tables", request_body = CreateTable,
    responses(
        (status = 201, description = "The table, its GM's and spectators' links, and its seats", body = Created)),
    extensions(("x-clash" = json!(Whose::Anyone.refuses(&[Refusal::RateLimited, Refusal::Rule, Refusal::Storage, Refusal::Unreadable])))))]
pub async fn create_table(
    State(server): Shared,
    _: Creating,
    JsonBody(body): JsonBody<CreateTable>,
) -> Result<(StatusCode, Json<Created>), ApiError> {
    let ruleset = body.ruleset.ok_or_else(|| {
        ApiError::malformed(
            "name the ruleset: {\"ruleset\": \"<id from /api/rulesets>\", \"setup\": {…}}",
        )
    })?;
    let setup = match (body.setup, server.entry(&ruleset)) {
        (Some(s), _) => s,
        (None, Some(entry)) => server
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
    let created = server
        .tables()
        .create(&ruleset, &body.title.unwrap_or_default(), setup)
        .await?;
    let t = &created.table;
    let body = Created {
        table: t.id.clone(),
        title: t.title.clone(),
        ruleset: t.ruleset.into(),
        links: SharedLinks {
            owner: Some(table_path(&t.id, &created.owner_key)),
            spectator: Some(table_path(&t.id, &created.spectator_key)),
        },
        owner_key: created.owner_key,
        spectator_key: created.spectator_key,
        seats: t.seat_list(true).await,
    };
    Ok((StatusCode::CREATED, Json(body)))
}

/// What the caller's link is, and every seat's holder (the owner also sees unused invites and
/// its own links).
pub async fn table_summary(caller: &Caller) -> Summary {
    let t = &caller.table;
    let owner = caller.rights.role == Role::Owner;
    let link = |k: Option<String>| k.map(|k| table_path(&t.id, &k));
    let seats = t
        .seat_list(owner)
        .await
        .into_iter()
        .map(|seat| SummarySeat {
            link: seat.key.as_ref().map(|k| table_path(&t.id, k)),
            seat,
        })
        .collect();
    let links = match owner {
        true => Some(SharedLinks {
            owner: link(t.key_of(Role::Owner).await),
            spectator: link(t.key_of(Role::Spectator).await),
        }),
        false => None,
    };
    Summary {
        table: t.id.clone(),
        title: t.title.clone(),
        ruleset: t.ruleset.into(),
        role: caller.rights.role.to_string(),
        seat: caller.rights.seat,
        event_count: t.event_count().await,
        seats,
        links,
    }
}

/// What the caller's link is, and who holds each seat (the GM also sees unused invites and the
/// shared links).
#[utoipa::path(get, path = routes::TABLE_INFO.path, tag = "tables", params(Path),
    responses((status = 200, description = "The caller's link and every seat's holder", body = Summary)),
    extensions(("x-clash" = json!(Whose::AnyKey.only()))))]
pub async fn table_info(caller: Caller) -> Json<Summary> {
    Json(table_summary(&caller).await)
}

/// Delete the table for good, from memory and the database.
#[utoipa::path(delete, path = routes::DELETE_TABLE.path, tag = "tables", params(Path),
    responses((status = 204, description = "Deleted with everything stored about it; open pages are told \
        (a table whose game this server does not offer is deleted all the same)")),
    extensions(("x-clash" = json!(Whose::Gm.conflicts(&[Conflict::Raced]).uncapped()))))]
pub async fn delete_table(
    State(server): Shared,
    crate::http::extract::Key(key): crate::http::extract::Key,
    UrlPath(id): UrlPath<String>,
) -> Result<StatusCode, ApiError> {
    match server.table(&id).await {
        Ok(table) => {
            server.execute(&table, Delete { key }).await?;
        }
        Err(TableError::RulesetUnavailable(_)) => {
            crate::ops::delete::unreadable(&server, &id, &key).await?
        }
        Err(e) => return Err(e.into()),
    }
    Ok(StatusCode::NO_CONTENT)
}

/// `?after=N&as=p2`: where the log lines start, and the seat the GM's link acts as.
#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct Reading {
    /// Give the log lines after this position.
    #[serde(default, deserialize_with = "position")]
    #[param(schema_with = crate::http::schemas::position)]
    pub after: Option<usize>,
    /// The seat the GM's link looks as (`p2`).
    #[serde(rename = "as")]
    pub as_seat: Option<String>,
}

/// The table's id, in the path.
#[derive(IntoParams)]
#[into_params(parameter_in = Path)]
#[allow(dead_code)]
pub struct Path {
    /// The table's id.
    id: String,
}

/// What the key sees now: its view, the legal commands, whose move, and the log from `after`.
#[utoipa::path(get, path = routes::VIEW.path, tag = "tables", params(Path, Reading),
    responses((status = 200, description = "What the key sees now: the view, legal commands, whose move, the log lines after `after`", body = Object)),
    extensions(("x-clash" = json!(Whose::AnyKey.only()))))]
pub async fn view(
    State(server): Shared,
    caller: TableKey,
    Params(q): Params<Reading>,
) -> Result<UpdateJson, ApiError> {
    let seat = as_seat(q.as_seat.as_deref())?;
    let reply = caller
        .table
        .answer(&caller.key, seat, q.after.unwrap_or(usize::MAX))
        .await?;
    answer(&server, reply).await
}

/// The log as the key may read it, from `after` on.
#[utoipa::path(get, path = routes::EVENTS.path, tag = "tables", params(Path, Reading),
    responses((status = 200, description = "The log lines the key may read, from `after` on", body = Events)),
    extensions(("x-clash" = json!(Whose::AnyKey.only()))))]
pub async fn events(
    caller: TableKey,
    Params(q): Params<Reading>,
) -> Result<Json<Events>, ApiError> {
    let seat = as_seat(q.as_seat.as_deref())?;
    let reply = caller
        .table
        .answer(&caller.key, seat, q.after.unwrap_or(0))
        .await?;
    let events = reply.snapshot.lines(&reply.access, reply.after).await;
    Ok(Json(Events {
        event_count: reply.snapshot.revision(),
        head: reply.snapshot.head_hex(),
        events,
    }))
}

/// The table's record, for `clash verify`.
#[utoipa::path(get, path = routes::EXPORT.path, tag = "tables", params(Path),
    responses((status = 200, description = "The table's record as this key may see it (everything, secret included, once the table has ended): see docs/verification.md", body = Object)),
    extensions(("x-clash" = json!(Whose::AnyKey.only()))))]
pub async fn export(State(server): Shared, caller: TableKey) -> Result<Response, ApiError> {
    let record = server.tables().export(&caller.table, &caller.key).await?;
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
