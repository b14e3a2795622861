//! The shared scripts and styles, and each game's board, served from the binary.

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use clash_core::RulesetEntry;
use maud::{Markup, html};

use super::{script, style};
use crate::error::ApiError;
use crate::tables::Tables;

pub const JS: &str = "text/javascript; charset=utf-8";
pub const CSS: &str = "text/css; charset=utf-8";

/// The shared assets, by the name they are served under (`/assets/{name}`).
static SHARED: &[(&str, &str, &str)] = &[
    ("app.css", CSS, include_str!("../assets/app.css")),
    ("kit.js", JS, include_str!("../assets/kit.js")),
    ("app.js", JS, include_str!("../assets/app.js")),
    ("state.js", JS, include_str!("../assets/state.js")),
    ("send.js", JS, include_str!("../assets/send.js")),
    ("turn.js", JS, include_str!("../assets/turn.js")),
    ("talk.js", JS, include_str!("../assets/talk.js")),
    ("gm.js", JS, include_str!("../assets/gm.js")),
    ("lock.js", JS, include_str!("../assets/lock.js")),
    ("notify.js", JS, include_str!("../assets/notify.js")),
    ("rule-links.js", JS, include_str!("../assets/rule-links.js")),
    ("verify.js", JS, include_str!("../assets/verify.js")),
    ("fair-check.js", JS, include_str!("../assets/fair-check.js")),
    ("claim.js", JS, include_str!("../assets/claim.js")),
    ("lobby.js", JS, include_str!("../assets/lobby.js")),
    ("review.js", JS, include_str!("../assets/review.js")),
    (
        "review-link.js",
        JS,
        include_str!("../assets/review-link.js"),
    ),
    ("review.css", CSS, include_str!("../assets/review.css")),
    (
        "lobby-variant.js",
        JS,
        include_str!("../assets/lobby-variant.js"),
    ),
    ("workbench.js", JS, include_str!("../assets/workbench.js")),
    (
        "workbench.css",
        CSS,
        include_str!("../assets/workbench.css"),
    ),
    (
        "panel-kit.css",
        CSS,
        include_str!("../assets/panel-kit.css"),
    ),
    ("panel-kit.js", JS, include_str!("../assets/panel-kit.js")),
];

/// An asset as a response: its type, and checked again on every load (no stale scripts after
/// an upgrade).
pub fn served(kind: &'static str, text: &'static str) -> Response {
    (
        [
            (header::CONTENT_TYPE, kind),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        text,
    )
        .into_response()
}

pub async fn asset(Path(name): Path<String>) -> Response {
    match SHARED.iter().find(|(n, _, _)| *n == name) {
        Some(&(_, kind, text)) => served(kind, text),
        None => ApiError::NotFound.into_response(),
    }
}

/// The shared panel kit and, when the game has a board of its own, its script and style.
pub fn board_tags(entry: Option<RulesetEntry>) -> Markup {
    html! {
        (style("/assets/panel-kit.css"))
        (script("/assets/panel-kit.js"))
        @if let Some(e) = entry.filter(|e| e.panel.is_some()) {
            (style(&format!("/assets/panel/{}.css", e.id)))
            (script(&format!("/assets/panel/{}.js", e.id)))
        }
    }
}

/// A game's own board, `{ruleset}.js` or `{ruleset}.css`, as the catalogue carries it.
pub async fn panel_asset(State(tables): State<Arc<Tables>>, Path(file): Path<String>) -> Response {
    let found = file
        .rsplit_once('.')
        .and_then(|(id, ext)| Some((tables.entry(id)?.panel, ext)))
        .filter(|(panel, _)| panel.is_some());
    match found {
        Some((panel, "js")) => served(JS, panel.script),
        Some((panel, "css")) => served(CSS, panel.style),
        _ => ApiError::NotFound.into_response(),
    }
}
