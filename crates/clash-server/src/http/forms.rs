//! Tables made by form, and characters made by their players: the routes around each game's
//! forms (see `clash_core::session_zero`).
//!
//! * `POST /api/tables/from-form` makes a table from the lobby's form: the game, a name, how
//!   many players and which seats the GM plays, and the game's own choices. A game with
//!   characters starts in session zero (its players make them from their invite links); one
//!   without starts at once.
//! * `POST /api/rulesets/{id}/check` checks a sheet or a table's choices as the person types,
//!   answering every problem at its field with the rule it breaks. The same checks refuse a
//!   sheet handed in, so nothing reaches a table until it is valid.
//! * `GET /api/tables/{id}/setup` gives the GM the table as a setup file (where play stands, as
//!   far as the GM may know it) to start another table from.
//! * `/assets/forms/…` serves the session-zero board and each game's forms.
//!
//! The forms and checks come from each ruleset through the catalogue; nothing here knows a
//! game.

use std::sync::Arc;

use axum::Json;
use axum::Router;
use axum::extract::{Path, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use clash_core::session_zero::{FieldError, Maker};
use clash_core::{RulesetEntry, Seat, Viewer};
use maud::{Markup, html};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::error::{ApiError, Conflict, Refusal, TableError};
use crate::http::contract::Whose;
use crate::http::extract::{Caller, JsonBody};
use crate::http::routes::{self, table_path};
use crate::http::tables::Creating;
use crate::pages::{Sources, script, script_in, style, style_in};
use crate::server::Server;
use crate::table::links::Role;

/// The forms' scripts and styles.
pub fn asset_routes() -> Router<Arc<Server>> {
    Router::new().route(routes::FORM_ASSET.path, get(asset))
}

/// The problems of a form as an answer: 422 with the first as the error, and all of them.
fn refused(problems: &[FieldError]) -> Response {
    let first = problems.first();
    let message = first.map_or_else(String::new, |p| match p.rule {
        Some(rule) => format!("{rule}: {}", p.message),
        None => p.message.clone(),
    });
    let refusal = Refusal::InvalidForm;
    let body = json!({
        "error": { "code": refusal.code(), "message": message, "rule": first.and_then(|p| p.rule) },
        "problems": problems,
    });
    (refusal.status(), Json(body)).into_response()
}

fn forms_of(
    server: &Server,
    ruleset: &str,
) -> Result<(RulesetEntry, clash_core::FormsEntry), ApiError> {
    let entry = server
        .entry(ruleset)
        .ok_or_else(|| ApiError::malformed(format!("this server has no game {ruleset:?}")))?;
    let forms = entry.forms.ok_or_else(|| {
        ApiError::malformed(format!(
            "{} has no forms: give its setup as JSON",
            entry.name
        ))
    })?;
    Ok((entry, forms))
}

/// `{"sheet": {…}, "maker": "player" | "gm"}` or `{"table": {"players": n, "options": {…}}}`.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CheckBody {
    #[serde(default)]
    #[schema(value_type = Option<Object>)]
    sheet: Option<Value>,
    /// `player` (the default) or `gm`.
    #[serde(default)]
    #[schema(schema_with = crate::http::schemas::maker)]
    maker: Option<Maker>,
    #[serde(default)]
    #[schema(value_type = Option<Object>)]
    table: Option<Value>,
}

/// Every problem of a sheet or a table's choices, each at its field and naming its rule.
#[utoipa::path(post, path = routes::CHECK_FORM.path, tag = "forms", request_body = CheckBody,
    params(("id" = String, Path, description = "The ruleset (one with forms)")),
    responses((status = 200, description = "`{\"problems\": [...]}`: each at its field, naming its rule", body = Object)),
    extensions(("x-clash" = json!(Whose::Anyone.only()))))]
pub(crate) async fn check(
    State(server): State<Arc<Server>>,
    Path(id): Path<String>,
    JsonBody(body): JsonBody<CheckBody>,
) -> Result<Response, ApiError> {
    let (_, forms) = forms_of(&server, &id)?;
    let problems = match (body.sheet, body.table) {
        (Some(sheet), None) => (forms.check_sheet)(&sheet, body.maker.unwrap_or(Maker::Player)),
        (None, Some(table)) => (forms.check_table)(&table),
        _ => {
            return Err(ApiError::malformed(
                "send {\"sheet\": {…}, \"maker\": \"player\"} or {\"table\": {\"players\": 2, \"options\": {…}}}",
            ));
        }
    };
    Ok(Json(json!({ "problems": problems })).into_response())
}

/// The lobby's form: the game, a name, the game's choices, and the player seats the GM will
/// play from the start (`["p2"]`).
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct FormBody {
    /// A ruleset with forms.
    ruleset: String,
    #[serde(default)]
    #[schema(schema_with = crate::http::schemas::new_title)]
    title: Option<String>,
    /// `{"players": n, "options": {…}}`, as the game's form gives it.
    #[schema(value_type = Object)]
    table: Value,
    /// The player seats the GM plays from the start (`["p2"]`).
    #[serde(default)]
    #[schema(schema_with = crate::http::schemas::player_seats)]
    gm_plays: Vec<Seat>,
}

/// Make a table from the lobby's form (rate-limited like any other creation).
#[utoipa::path(post, path = routes::FROM_FORM.path, tag = "forms", request_body = FormBody,
    responses((status = 201, description = "The table and its links; a game with characters starts in session zero", body = Object)),
    extensions(("x-clash" = json!(Whose::Anyone.refuses(&[Refusal::RateLimited, Refusal::InvalidForm,
        Refusal::Rule, Refusal::UnknownSeat, Refusal::Storage, Refusal::Unreadable]).conflicts(&[Conflict::Raced])))))]
pub(crate) async fn create(
    State(server): State<Arc<Server>>,
    _: Creating,
    JsonBody(body): JsonBody<FormBody>,
) -> Result<Response, ApiError> {
    let (entry, forms) = forms_of(&server, &body.ruleset)?;
    if body.gm_plays.contains(&Seat::Gm) {
        return Err(ApiError::malformed(
            "\"gm_plays\" lists player seats; the GM's own seat is theirs already",
        ));
    }
    let title = match body.title.as_deref().map(str::trim) {
        Some(t) if !t.is_empty() => t.to_string(),
        _ => format!("{} table", entry.name),
    };
    let setup = match (forms.table_setup)(&body.table) {
        Ok(s) => s,
        Err(problems) => return Ok(refused(&problems)),
    };
    let created = server.tables().create(&body.ruleset, &title, setup).await?;
    let t = &created.table;
    for seat in body.gm_plays {
        let op = crate::ops::take_over::TakeOver {
            key: created.owner_key.clone(),
            seat,
        };
        server.execute(t, op).await?;
    }
    let body = json!({
        "table": t.id,
        "title": t.title,
        "ruleset": t.ruleset,
        "owner_key": created.owner_key,
        "spectator_key": created.spectator_key,
        "session_zero": forms.sheets,
        "links": {
            "owner": table_path(&t.id, &created.owner_key),
            "spectator": table_path(&t.id, &created.spectator_key),
        },
    });
    Ok((StatusCode::CREATED, Json(body)).into_response())
}

/// The GM's table as a setup file: where play stands as far as the GM may know it, to start
/// another table from (the lobby's "Start from a file"). Computed from the table's snapshot,
/// outside its lock.
#[utoipa::path(get, path = routes::SETUP_FILE.path, tag = "forms",
    params(("id" = String, Path, description = "The table's id")),
    responses((status = 200, description = "The table as a setup file, to start another table from", body = Object)),
    extensions(("x-clash" = json!(Whose::Gm.conflicts(&[Conflict::NoPosition])))))]
pub(crate) async fn setup_file(caller: Caller) -> Result<Response, ApiError> {
    if caller.rights.role != Role::Owner {
        return Err(TableError::forbidden("only the GM downloads the table's setup").into());
    }
    let reply = caller.table.answer(&caller.key, None, usize::MAX).await?;
    let snapshot = reply.snapshot;
    let setup = snapshot
        .game()
        .position(Viewer::Seat(Seat::Gm))
        .ok_or_else(|| {
            TableError::conflict(
                Conflict::NoPosition,
                "the table cannot be written as a setup just now (a secret choice is still hidden, \
                 or the players are still making their characters): try again later",
            )
        })?;
    let file = json!({
        "clash": "setup",
        "ruleset": caller.table.ruleset,
        "title": snapshot.title(),
        "setup": setup,
    });
    let name = format!(
        "attachment; filename=\"{}-setup.json\"",
        caller.table.ruleset
    );
    Ok((
        [
            (header::CONTENT_TYPE, "application/json".to_string()),
            (header::CONTENT_DISPOSITION, name),
        ],
        serde_json::to_string_pretty(&file).unwrap_or_default(),
    )
        .into_response())
}

/// The session-zero board and each game's forms (`{ruleset}.js`, `.css`).
async fn asset(State(server): State<Arc<Server>>, Path(file): Path<String>) -> Response {
    crate::pages::game_asset(&server, "forms", &file)
}

/// One game's forms: its style and script.
fn game_tags(entry: &RulesetEntry) -> Markup {
    let sources = Sources::of(std::slice::from_ref(entry));
    html! {
        (style_in(&sources, &format!("/assets/forms/{}.css", entry.id)))
        (script_in(&sources, &format!("/assets/forms/{}.js", entry.id)))
    }
}

/// The tags a page needs for the forms: the page kit (which a table's page has already, with
/// its board), and the game's forms where it has them (and the session-zero board on a table's
/// page).
pub fn tags(entry: Option<&RulesetEntry>, table_page: bool) -> Markup {
    html! {
        @if !table_page {
            (style("/assets/kit.css"))
            (script("/assets/kit.js"))
        }
        @if let Some(e) = entry.filter(|e| e.forms.is_some()) {
            (game_tags(e))
        }
        @if table_page {
            (script("/assets/forms/session-zero.js"))
        }
    }
}

/// Every game's forms, for the lobby.
pub fn lobby_tags(server: &Server) -> Markup {
    html! {
        (tags(None, false))
        @for e in server.catalogue().iter().filter(|e| e.forms.is_some()) {
            (game_tags(e))
        }
    }
}

/// The games the lobby's form offers: every ruleset with forms.
pub fn games(server: &Server) -> Value {
    let list: Vec<Value> = server
        .catalogue()
        .iter()
        .filter_map(|e| {
            let forms = e.forms?;
            Some(json!({ "id": e.id, "name": e.name, "blurb": e.blurb, "sheets": forms.sheets }))
        })
        .collect();
    Value::Array(list)
}
