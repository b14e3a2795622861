//! The shared scripts and styles, and each game's board and forms, served from the binary: to
//! pages under their content-hashed names ([`super::built`]), to a person by their plain ones.

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use clash_core::RulesetEntry;
use maud::{Markup, html};

use super::built::{self, Sources, unhashed};
use super::{script, style};
use crate::error::ApiError;
use crate::server::Server;

pub use super::built::{CSS, JS};

/// The app's style, which every page carries in its head ([`super::page`]); served too.
pub(super) const APP_CSS: &str = include_str!("../assets/app.css");

/// The server's own scripts and styles, by their name under `/assets/`.
pub(super) static SHARED: &[(&str, &str, &str)] = &[
    ("app.css", CSS, APP_CSS),
    // The page kit every page, board and form builds with, and its style.
    ("kit.js", JS, include_str!("../assets/kit.js")),
    ("kit.css", CSS, include_str!("../assets/kit.css")),
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
    // The session-zero board (`/assets/forms/…`, beside each game's forms).
    (
        "forms/session-zero.js",
        JS,
        include_str!("../assets/forms/session-zero.js"),
    ),
];

impl Sources<'static> {
    /// The server's own files only.
    pub const SHARED: Sources<'static> = Sources {
        shared: SHARED,
        games: &[],
    };
}

impl<'a> Sources<'a> {
    /// The server's own files and those of `games`.
    pub fn of(games: &'a [RulesetEntry]) -> Sources<'a> {
        Sources {
            shared: SHARED,
            games,
        }
    }
}

/// How long a browser keeps a file asked for by its hashed name: its content never changes.
const FOREVER: &str = "public, max-age=31536000, immutable";

/// The file `requested` (its name under `/assets/`, hashed or not) as a response. By its
/// current hash it is the file as pages load it (minified, its imports hashed), kept for good;
/// by a hash it no longer has (a page made by an older build) it is the current one, checked
/// again on every load, so nothing is kept under a name that is not its content's; by its plain
/// name it is the file as written (for a person reading it), checked again on every load.
pub fn serve(sources: &Sources, requested: &str) -> Response {
    let (name, hash) = unhashed(requested);
    let found = match hash {
        None => sources
            .text(&name)
            .map(|(kind, text)| (kind, Bytes::from_static(text.as_bytes()), false)),
        Some(hash) => built::build(sources, &name)
            .map(|file| (file.kind, file.body.clone(), file.hash == hash)),
    };
    let Some((kind, body, current)) = found else {
        return ApiError::NotFound.into_response();
    };
    let cache = if current { FOREVER } else { "no-cache" };
    (
        [(header::CONTENT_TYPE, kind), (header::CACHE_CONTROL, cache)],
        body,
    )
        .into_response()
}

/// A shared asset, `/assets/{name}`.
pub async fn asset(Path(name): Path<String>) -> Response {
    serve(&Sources::SHARED, &name)
}

/// Where a page loads the file at `path` (`/assets/…`) from: its hashed name, or `path` itself
/// when there is no such file.
pub fn url(sources: &Sources, path: &str) -> String {
    path.strip_prefix("/assets/")
        .and_then(|name| built::build(sources, name))
        .map_or_else(|| path.to_string(), |b| b.url.clone())
}

/// A page script from `sources` at its hashed name, with every module it imports fetched at
/// once (`modulepreload`) rather than level after level.
pub fn script_in(sources: &Sources, path: &str) -> Markup {
    let file = path
        .strip_prefix("/assets/")
        .and_then(|name| built::build(sources, name));
    match file {
        Some(file) => html! {
            @for import in &file.imports { link rel="modulepreload" href=(import); }
            script type="module" src=(file.url) {}
        },
        None => html! { script type="module" src=(path) {} },
    }
}

/// A stylesheet from `sources` at its hashed name.
pub fn style_in(sources: &Sources, path: &str) -> Markup {
    html! { link rel="stylesheet" href=(url(sources, path)); }
}

/// The page kit and, when the game has a board of its own, its script and style.
pub fn board_tags(entry: Option<RulesetEntry>) -> Markup {
    let games = entry.as_slice();
    let sources = Sources::of(games);
    html! {
        (style("/assets/kit.css"))
        (script("/assets/kit.js"))
        @if let Some(e) = entry.filter(|e| e.panel.is_some()) {
            (style_in(&sources, &format!("/assets/panel/{}.css", e.id)))
            (script_in(&sources, &format!("/assets/panel/{}.js", e.id)))
        }
    }
}

/// A game's own board, `{ruleset}.js` or `{ruleset}.css`, as the catalogue carries it.
pub async fn panel_asset(State(server): State<Arc<Server>>, Path(file): Path<String>) -> Response {
    game_asset(&server, "panel", &file)
}

/// A game's file under `/assets/{dir}/`: its board (`panel`) or its forms (`forms`), found by
/// the game's id in the file's name.
pub fn game_asset(server: &Server, dir: &str, file: &str) -> Response {
    let (name, _) = unhashed(file);
    let entry = name.rsplit_once('.').and_then(|(id, _)| server.entry(id));
    let sources = Sources::of(entry.as_slice());
    serve(&sources, &format!("{dir}/{file}"))
}
