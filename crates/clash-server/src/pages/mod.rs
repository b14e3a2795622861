//! The web UI: server-rendered HTML from maud templates, which escape every value they are given,
//! plus ES module scripts with no build step.
//!
//! * `/` — the lobby: pick a game and a ready-made setup, create a table ([`lobby`]).
//! * `/t/{table}/{key}` — the table as the link's holder sees it ([`table`]): the GM's seat list
//!   and invite links, the state, the readable log, and controls. Live updates arrive over SSE.
//! * `/t/{table}/{key}/review` — an ended table's replay and review ([`review`]).
//! * `/workbench` — the designer's workbench: rule variants side by side ([`workbench`]).
//! * `/assets/…` — the scripts and styles ([`assets`]).
//!
//! Only two things ever reach a page unescaped: start-up data, through [`data`] (JSON made safe
//! by [`crate::pages::embed::script_data`]), and the rules' Markdown rendered by pulldown-cmark (see
//! [`crate::rules`]).

mod assets;
mod built;
pub mod embed;
mod first;
mod lobby;
mod parts;
/// What the pages send and read, described for TypeScript (the `ts` feature, for the tests
/// that generate and check the declarations).
#[cfg(feature = "ts")]
pub mod requests;
mod review;
pub mod routes;
mod table;
#[cfg(feature = "ts")]
pub mod types;
mod week;
mod workbench;

use std::sync::LazyLock;

use axum::response::{Html, IntoResponse, Response};
use base64::Engine;
use maud::{DOCTYPE, Markup, PreEscaped, html};
use serde::Serialize;
use sha2::{Digest, Sha256};

use crate::error::ApiError;

pub use assets::{game_asset, script_in, style_in};
pub use built::Sources;
pub use built::{CSS, JS};

/// The app's own style, written into every page's head rather than linked: the page paints
/// as soon as it arrives, without a round trip for its stylesheet first. The policy allows it
/// by its hash ([`inline_style_hash`]); nothing else inline is allowed.
const APP_CSS: &str = assets::APP_CSS;

/// `sha256-…` of [`APP_CSS`], as the content security policy names an inline style.
pub fn inline_style_hash() -> &'static str {
    static HASH: LazyLock<String> = LazyLock::new(|| {
        let digest = Sha256::digest(APP_CSS.as_bytes());
        format!(
            "sha256-{}",
            base64::engine::general_purpose::STANDARD.encode(digest)
        )
    });
    &HASH
}

/// A whole page: the shared head (title, viewport, the app's style) around `body`.
pub fn page(title: &str, body: Markup) -> Markup {
    html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                title { (title) }
                link rel="icon" href="data:,";
                // The style's own text, as written (no `</style` in it: tested below).
                style { (PreEscaped(APP_CSS)) }
            }
            body { (body) }
        }
    }
}

/// How a page may be kept: by this browser only (`private`: no shared cache ever holds a page,
/// whose address may carry a key), and checked again before it is shown anew (`no-cache`).
/// Not `no-store`, so the back/forward cache may keep the page in the tab's memory and show
/// it again at once on Back (its live stream is closed while it is away: app.js).
pub const PAGE_CACHE: &str = "private, no-cache";

/// A page as an answer, kept as [`PAGE_CACHE`] says.
pub fn html(markup: Markup) -> Response {
    (
        [(axum::http::header::CACHE_CONTROL, PAGE_CACHE)],
        Html(markup.into_string()),
    )
        .into_response()
}

/// Start-up data for a page's script: `<script type="application/json" id=…>`. The one place
/// JSON goes into a page unescaped, which [`crate::pages::embed::script_data`] makes safe.
pub fn data(id: &str, value: &impl Serialize) -> Markup {
    html! {
        script type="application/json" id=(id) { (PreEscaped(crate::pages::embed::script_data(value))) }
    }
}

/// A page script of the server's own (`/assets/app.js`): an ES module served from this origin
/// (the CSP allows nothing inline) under its hashed name, the modules it imports fetched at
/// once. Modules run in the order of their tags, after the page is parsed, so they never hold
/// up its first paint.
pub fn script(src: &str) -> Markup {
    script_in(&Sources::SHARED, src)
}

/// A stylesheet of the server's own, under its hashed name.
pub fn style(href: &str) -> Markup {
    style_in(&Sources::SHARED, href)
}

/// A page that says what went wrong, with the error's status.
pub fn error_page(e: impl Into<ApiError>) -> Response {
    error_page_at(e, "the GM")
}

/// The error page of a table whose creator the game calls `host` ("the GM", "the host"): what
/// to do names them by that word ("ask the host for a new link").
pub fn error_page_at(e: impl Into<ApiError>, host: &str) -> Response {
    let e: ApiError = e.into();
    let heading = match e.code() {
        "invite_used" => "This invite was already used",
        "moved" => "Your seat has moved to another device",
        "bad_key" | "not_invite" => "This link no longer works",
        _ => "That did not work",
    };
    let body = html! {
        main .narrow {
            h1 { "Clash" }
            section .card {
                h2 { (heading) }
                p .error { (crate::log::capitalised(&e.message().replace("the GM", host))) }
                p { a href="/" { "Back to the lobby" } }
            }
        }
    };
    let markup = page("Clash — error", body);
    (e.status(), Html(markup.into_string())).into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_inline_style_is_the_one_the_policy_allows() {
        let out = page("t", html! {}).into_string();
        let inline = out
            .split_once("<style>")
            .and_then(|(_, rest)| rest.split_once("</style>"))
            .map(|(css, _)| css)
            .unwrap_or_default();
        assert_eq!(inline, APP_CSS);
        assert!(!APP_CSS.to_ascii_lowercase().contains("</style"));
        let digest = Sha256::digest(inline.as_bytes());
        let expected = base64::engine::general_purpose::STANDARD.encode(digest);
        assert_eq!(inline_style_hash(), format!("sha256-{expected}"));
        let policy = crate::http::layers::CONTENT_SECURITY_POLICY
            .to_str()
            .unwrap();
        assert!(
            policy.contains(&format!("style-src 'self' '{}';", inline_style_hash())),
            "{policy}"
        );
        assert!(policy.contains("script-src 'self';"), "{policy}");
    }

    #[test]
    fn text_is_escaped_and_data_cannot_end_its_script() {
        let hostile = "</title><script>alert('x')</script> & \"q\"";
        let out = page(hostile, data("boot", &hostile)).into_string();
        assert!(!out.contains("<script>alert"), "{out}");
        assert!(out.contains("&lt;/title&gt;&lt;script&gt;"), "{out}");
        assert_eq!(out.matches("</script>").count(), 1, "{out}");
    }
}
