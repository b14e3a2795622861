//! The workbench page (`/workbench`): pick a game, change its rule numbers (each shown with
//! the rule it comes from), run the variants side by side, read the findings, the figures and
//! the plots, and share the link. The page's script builds the form from the games' rule
//! numbers and follows the study through the JSON routes ([`crate::http::workbench`]).

use std::collections::HashMap;
use std::sync::Arc;

use axum::Extension;
use axum::extract::{Path, State};
use axum::http::header;
use axum::response::{Html, IntoResponse, Response};
use maud::{Markup, html};

use super::{data, page, script, style};
use crate::error::ApiError;
use crate::server::Server;
use crate::workbench::Studies;

fn body(studies: &Studies, server: &Server) -> Markup {
    let links: HashMap<&str, crate::rules::RulesLinks> = server
        .catalogue()
        .iter()
        .filter_map(|e| Some((e.id, crate::rules::links(e)?)))
        .collect();
    html! {
        main .narrow .bench {
            header {
                h1 { "Workbench" }
                p { "Change a rule's numbers and see what the game becomes. Every variant is played by the game's bots beside the rules as written, and every figure carries its 95% interval." }
                p { a href="/" { "Back to the lobby" } }
            }
            section .card #bench-setup {
                h2 { "What to compare" }
                form #bench-form {
                    p .hint #bench-loading { "Loading the games…" }
                }
            }
            section .card #bench-progress hidden {
                h2 { "Playing" }
                progress #bench-bar max="1" value="0" {}
                p #bench-count role="status" aria-live="polite" {}
            }
            section .card #bench-results hidden aria-labelledby="bench-results-title" {
                h2 #bench-results-title { "What the bots found" }
                div #bench-report {}
            }
            (data("bench", &studies.games()))
            (data("rule-links", &links))
            (style("/assets/workbench.css"))
            (script("/assets/workbench.js"))
        }
    }
}

pub async fn workbench_page(
    State(server): State<Arc<Server>>,
    Extension(studies): Extension<Arc<Studies>>,
) -> Html<String> {
    Html(page("Clash — workbench", body(&studies, &server)).into_string())
}

/// Plot `n.svg` of a finished study.
pub async fn plot(
    Extension(studies): Extension<Arc<Studies>>,
    Path((id, file)): Path<(String, String)>,
) -> Response {
    let n = file
        .strip_suffix(".svg")
        .and_then(|n| n.parse::<usize>().ok());
    match n.and_then(|n| studies.plot(&id, n)) {
        Some(svg) => (
            [
                (header::CONTENT_TYPE, "image/svg+xml"),
                (header::CACHE_CONTROL, "max-age=3600"),
            ],
            svg,
        )
            .into_response(),
        None => ApiError::NotFound.into_response(),
    }
}
