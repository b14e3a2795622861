//! An ended table's review page (`/t/{id}/{key}/review`): the replay, step by step as a seat
//! saw it on the game's own board, beside the review (each conflict's chart, its players, every
//! decision and roll), which the page's script fetches and follows while it is worked out.

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::response::Response;
use maud::html;
use serde_json::{Value, json};

use super::{assets::board_tags, data, error_page, page, script, style};
use crate::http::extract::{Params, as_seat};
use crate::http::routes::table_path;
use crate::server::Server;

/// `?as=p2`: the seat whose view the replay starts with.
#[derive(serde::Deserialize)]
pub struct ReviewQuery {
    #[serde(rename = "as")]
    as_seat: Option<String>,
}

pub async fn review_page(
    State(server): State<Arc<Server>>,
    Path((id, key)): Path<(String, String)>,
    Params(q): Params<ReviewQuery>,
) -> Response {
    let as_seat = match as_seat(q.as_seat.as_deref()) {
        Ok(s) => s,
        Err(e) => return error_page(e),
    };
    let table = match server.table(&id).await {
        Ok(t) => t,
        Err(e) => return error_page(e),
    };
    let reply = match table.answer(&key, None, usize::MAX).await {
        Ok(r) => r,
        Err(e) => return error_page(e),
    };
    if !reply.snapshot.revealed() {
        return error_page(crate::review::not_ended());
    }
    let update = match reply.text(server.metrics()).await {
        Ok(text) => serde_json::from_str::<Value>(&text).unwrap_or(Value::Null),
        Err(e) => return error_page(e),
    };
    let entry = server.entry(table.ruleset);
    let game = entry.map_or(table.ruleset, |e| e.name);
    let viewer = as_seat
        .map(|s| s.to_string())
        .unwrap_or_else(|| update["viewer"].as_str().unwrap_or("spectator").to_string());
    let boot = json!({
        "table": table.id,
        "key": key,
        "ruleset": table.ruleset,
        "game": game,
        "viewer": viewer,
        "back": table_path(&table.id, &key),
        "update": update,
        "rules": entry.as_ref().and_then(crate::rules::links),
    });
    let title = update["title"].as_str().unwrap_or(&table.title).to_string();
    let body = html! {
        a .skip href="#main" { "Skip to the review" }
        header .bar {
            a href="/" .home aria-label="Clash lobby" { "Clash" }
            div .bar-title {
                h1 #title { (title) }
                p .sub { "Review of an ended " (game) " table" }
            }
            div .bar-tools { a .small #back href=(table_path(&table.id, &key)) { "Back to the table" } }
        }
        main .table .review #main {
            div .cols {
                div ."col" ."col-play" {
                    section .card #replay aria-labelledby="replay-heading" {
                        h2 #replay-heading { "Replay" }
                        div .rv-steps {
                            button type="button" .small #rv-first aria-label="First step" { "|◀" }
                            button type="button" .small #rv-back aria-label="Step back" { "◀" }
                            input #rv-slider type="range" min="0" max="0" value="0" aria-label="Step";
                            button type="button" .small #rv-forward aria-label="Step forward" { "▶" }
                            button type="button" .small #rv-last aria-label="Last step" { "▶|" }
                        }
                        p .rv-where #rv-where aria-live="polite" {}
                        label for="rv-as" { "See the table as" }
                        select #rv-as {}
                        p .hint { "The arrow keys step too. Lines marked “revealed later” were hidden from this seat at the time." }
                        div #rv-verdict .rv-verdict aria-live="polite" {}
                        ol #rv-lines .rv-lines {}
                        p #rv-status .rv-status {}
                        div #panel .rv-board {}
                        details { summary { "The table as text" } pre #render {} }
                    }
                }
                div ."col" ."col-side" {
                    section .card #review aria-labelledby="review-heading" {
                        h2 #review-heading { "Review" }
                        p #rv-progress role="status" aria-live="polite" { "Asking for the review…" }
                        p .error #rv-error role="alert" {}
                        div #rv-players {}
                        div #rv-conflicts {}
                        details #rv-method {
                            summary { "How these numbers are made" }
                            div #rv-measure {}
                        }
                    }
                }
            }
        }
        (data("boot", &boot))
        (style("/assets/review.css"))
        (board_tags(entry))
        (script("/assets/review.js"))
    };
    super::html(page(&format!("{title}: review — Clash"), body))
}
