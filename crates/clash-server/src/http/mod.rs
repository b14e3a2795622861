//! The HTTP face of the tables: the JSON API, the live stream and the web UI's routes.
//!
//! Every request that touches a table names it by id and proves its role with a link key, sent
//! as `?key=…`, an `X-Clash-Key` header, or `Authorization: Bearer …`. What a handler needs is
//! read by typed extractors ([`crate::http::extract`]); bodies are typed ([`dto`]), JSON
//! (`Content-Type: application/json`) of at most [`Limits::body_limit`] bytes, and their unknown
//! fields are refused; every refusal is an [`ApiError`].
//!
//! Every JSON route is registered through utoipa-axum's `routes!`, which routes the handler
//! and documents it from the same annotation, so the OpenAPI document served at
//! `/api/openapi.json` holds exactly the routes the server answers. Every path is one of
//! [`routes`](mod@routes); each annotation carries its operation's [`contract`] (whose key it needs, what
//! it refuses), from which the document's security and error answers are finished.
//!
//! Adding a route (tests fail, saying what to do, at each step left out):
//!
//! 1. a constant in [`routes`](mod@routes), listed in its `ALL`;
//! 2. the handler's annotation: `#[utoipa::path(post, path = routes::NAME.path, …,
//!    responses(/* its successes only */), extensions(("x-clash" =
//!    json!(Who::Gm.refuses(&[…]).conflicts(&[…])))))]` — its refusals by name; their statuses,
//!    codes and meanings come from [`crate::error::Refusal`], and those its shape implies (a
//!    key, a body, a seat in the path, …) are added for it; a new kind of refusal is a new
//!    `Refusal` first;
//! 3. `.routes(routes!(module::handler))` in [`api`] (a page: `.route(routes::NAME.path, …)`);
//! 4. request bodies as types here ([`dto`]), `Serialize` too, their bounds from the server's
//!    own limits ([`schemas`]);
//! 5. a row in docs/server.md's API table;
//! 6. tests that send `api(&app, routes::NAME.at([&t.id]).key(&key).json(&Body { … }))`: every
//!    answer is checked against the document.

pub mod contract;
pub mod dto;
pub mod extract;
pub mod forms;
pub mod layers;
pub mod live;
pub mod mail;
pub mod net;
pub mod notify;
pub mod notify_dto;
pub mod play;
pub mod rate;
pub mod reply;
pub mod review;
pub mod routes;
pub mod schemas;
pub mod seats;
pub mod tables;
pub mod whole;
pub mod workbench;

use std::sync::Arc;

use axum::Router;
use axum::error_handling::HandleErrorLayer;
use axum::extract::DefaultBodyLimit;
use axum::http::header;
use serde_json::Value;
use tower::ServiceBuilder;
use utoipa::OpenApi;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::config::Limits;
use crate::error::ApiError;
use crate::http::rate::CreationLimit;
use crate::server::Server;

#[derive(OpenApi)]
#[openapi(
    info(
        title = "Clash table server",
        description = "Create tables for any ruleset, hand out seat links, send commands, and follow a table live. Every table request is authorised by a link key: the GM (owner) key from table creation, a player's own seat key (obtained by claiming the seat's invite), or the spectator key. A key acts only in its role. Errors are JSON objects {error: {code, message, rule}}; a refused request changes nothing. Every table keeps a hash-chained log; chance is verifiable (docs/verification.md). A bot is just a client: a program holding a seat's key reads the same view, legal commands and log that seat's page shows, and sends commands through the same operations, checked by the same rules."
    ),
    tags(
        (name = "tables", description = "Creating a table and what a key sees of it"),
        (name = "seats", description = "Who holds each seat: invites, takeovers, bots, shared links"),
        (name = "play", description = "Commands, seeds, talk, undo, odds, and keeping the table"),
        (name = "notify", description = "Playing across a week: notifications, the table's clock, and which tables wait on you"),
        (name = "forms", description = "Tables by form and characters made by their players"),
        (name = "workbench", description = "A designer's workbench: change a rule's numbers and see what the game becomes, side by side"),
        (name = "server", description = "Health and metrics")
    ),
    components(schemas(dto::ErrorBody))
)]
struct Doc;

/// Every documented route: the JSON API, the live stream, health and metrics.
fn api() -> OpenApiRouter<Arc<Server>> {
    OpenApiRouter::with_openapi(Doc::openapi())
        .routes(routes!(live::healthz))
        .routes(routes!(live::metrics))
        .routes(routes!(tables::rulesets))
        .routes(routes!(tables::create_table))
        .routes(routes!(tables::table_info, tables::delete_table))
        .routes(routes!(tables::view))
        .routes(routes!(tables::events))
        .routes(routes!(tables::export))
        .routes(routes!(review::review, review::cancel_review))
        .routes(routes!(review::replay))
        .routes(routes!(play::command))
        .routes(routes!(play::seed))
        .routes(routes!(play::close))
        .routes(routes!(play::chat))
        .routes(routes!(play::undo))
        .routes(routes!(play::rename))
        .routes(routes!(play::archive))
        .routes(routes!(play::odds, play::switch_odds))
        .routes(routes!(seats::claim))
        .routes(routes!(seats::move_link))
        .routes(routes!(seats::replace_link))
        .routes(routes!(seats::issue_link, seats::revoke_link))
        .routes(routes!(seats::hand_back))
        .routes(routes!(seats::seat_bot, seats::unseat_bot))
        .routes(routes!(notify::settings))
        .routes(routes!(notify::add_target))
        .routes(routes!(notify::remove_target))
        .routes(routes!(notify::set_handle))
        .routes(routes!(notify::delivery_log))
        .routes(routes!(notify::clock_view, notify::set_clock))
        .routes(routes!(notify::moves))
        .routes(routes!(crate::http::forms::create))
        .routes(routes!(crate::http::forms::check))
        .routes(routes!(crate::http::forms::setup_file))
        .routes(routes!(workbench::games))
        .routes(routes!(workbench::start))
        .routes(routes!(workbench::status))
}

/// The live stream: documented like the rest, but without the time limit of a request.
fn streams() -> OpenApiRouter<Arc<Server>> {
    OpenApiRouter::new().routes(routes!(live::stream))
}

/// The OpenAPI document of this server's routes, finished from their contracts (see
/// [`contract`]), and what is wrong with their annotations (nothing, as a test checks).
pub fn checked_document() -> (Value, Vec<String>) {
    let mut generated = api().split_for_parts().1;
    generated.merge(streams().split_for_parts().1);
    let mut doc = serde_json::to_value(&generated).unwrap_or_default();
    let mut problems = contract::finish(&mut doc);
    problems.extend(schemas::refine(&mut doc));
    (doc, problems)
}

/// The OpenAPI document of this server's routes.
pub fn document() -> Value {
    checked_document().0
}

/// The document as this server serves it: the rulesets it plays named where a ruleset is
/// asked for, and in the example of a new table.
pub fn served_document(server: &Server) -> Value {
    let mut doc = document();
    let all: Vec<&str> = server.catalogue().iter().map(|e| e.id).collect();
    let forms = server.catalogue().iter().filter(|e| e.forms.is_some());
    let with_forms: Vec<&str> = forms.map(|e| e.id).collect();
    dto::name_rulesets(&mut doc, &all, &with_forms);
    doc
}

/// The whole HTTP application for these tables, with the table-creation allowance it holds to
/// (see [`crate::http::rate`]; whoever runs the server sweeps it).
pub fn router(server: Arc<Server>, creation: Arc<CreationLimit>) -> Router {
    let limits: Limits = server.limits().clone();
    let (api, _) = api().split_for_parts();
    let (stream, _) = streams().split_for_parts();
    let doc = Arc::new(served_document(&server).to_string());
    let timed: Router<Arc<Server>> = api
        .merge(crate::pages::routes::routes())
        .merge(mail::routes())
        .merge(crate::rules::routes())
        .merge(crate::http::forms::asset_routes())
        .route(
            routes::OPENAPI.path,
            axum::routing::get(move || async move {
                ([(header::CONTENT_TYPE, "application/json")], (*doc).clone())
            }),
        );
    // Every request but a live stream (which lives as long as its page) is answered in time.
    let timed = timed.route_layer(
        ServiceBuilder::new()
            .layer(HandleErrorLayer::new(
                move |_: tower::BoxError| async move { ApiError::timeout(limits.request_timeout) },
            ))
            .timeout(limits.request_timeout),
    );
    let studies = Arc::new(crate::workbench::Studies::new(server.catalogue()));
    let app = timed
        .merge(stream)
        .fallback(not_found)
        .layer(axum::Extension(studies))
        .layer(axum::Extension(creation))
        .layer(DefaultBodyLimit::max(limits.body_limit))
        .with_state(server.clone());
    crate::http::layers::wrap(app, server.metrics().clone(), &limits)
}

async fn not_found() -> ApiError {
    ApiError::NotFound
}
