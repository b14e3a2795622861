//! A table's page, and the invite page a fresh invite link opens.

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::response::{Html, IntoResponse, Redirect, Response};
use maud::{Markup, html};
use serde_json::{Value, json};

use super::first::turn_banner;
use super::parts::{board_card, dialogs, fair_card, gm_cards, move_card, talk_card};
use super::week::{clock_bar, clock_dialog, notify_card, times_line};
use super::{assets::board_tags, data, error_page, error_page_at, page, script};
use crate::error::TableError;
use crate::http::extract::{Caller, Params, as_seat};
use crate::http::routes::{self, table_path};
use crate::http::tables::table_summary;
use crate::server::Server;
use crate::table::links::Role;

/// The page an invite link opens: one button (pressed by the page's script at once) exchanges
/// the invite for the player's own key. A GET never uses the invite up, so a chat app that
/// previews the link does not take the seat.
fn claim_page(title: &str, host: &str, id: &str, invite: &str, moving: bool) -> Response {
    let body = html! {
        main .narrow {
            h1 { "Clash" }
            section .card {
                @if moving {
                    h2 { "Move your seat at " (title) " to this device" }
                    p { "This gives this browser its own link to your seat, which nobody else holds — not even " (host) ". "
                        "The device you made the link on stops playing the seat. Bookmark the page you land on." }
                } @else {
                    h2 { "You are invited to " (title) }
                    p { "Taking the seat gives this browser its own link to it, which nobody else holds — not even " (host) ". "
                        "Bookmark the page you land on." }
                }
                form method="post" action=(format!("/t/{id}/{invite}")) #claim {
                    // A fresh id for this claim: a browser that sends the form again (its answer
                    // lost) is given the same key.
                    input type="hidden" name="claim" value=(crate::table::links::new_key());
                    button type="submit" .primary { @if moving { "Move the seat here" } @else { "Take the seat" } }
                }
            }
            (script("/assets/claim.js"))
        }
    };
    Html(page(&format!("{title} — Clash"), body).into_string()).into_response()
}

/// The invite page's form: exchange the invite and go to the seat's own page.
pub async fn claim_from_page(
    State(server): State<Arc<Server>>,
    Path((id, invite)): Path<(String, String)>,
    axum::extract::RawForm(form): axum::extract::RawForm,
) -> Response {
    let table = match server.table(&id).await {
        Ok(t) => t,
        Err(e) => return error_page(e),
    };
    // The form's own claim id (hex: nothing in it is encoded).
    let request = String::from_utf8_lossy(&form)
        .split('&')
        .find_map(|pair| pair.strip_prefix("claim="))
        .map(str::to_string);
    let host = table.host().await;
    let claim = crate::ops::claim::Claim { invite, request };
    match server.execute(&table, claim).await {
        // `#claimed`: the seat's page keeps itself in the history (app.js), so Back after
        // opening an invite stays on it instead of leaving the only copy of its link.
        Ok(done) => {
            Redirect::to(&format!("{}#claimed", table_path(&id, &done.answer.1))).into_response()
        }
        Err(TableError::BadKey) => error_page_at(
            TableError::conflict(
                crate::error::Conflict::NotInvite,
                "this link no longer works: the GM has replaced or revoked it. Ask the GM for a new link.",
            ),
            &host,
        ),
        Err(e) => error_page_at(e, &host),
    }
}

/// `?as=p2`: the seat the GM's page plays.
#[derive(serde::Deserialize)]
pub struct PageQuery {
    #[serde(rename = "as")]
    as_seat: Option<String>,
}

pub async fn table_page(
    State(server): State<Arc<Server>>,
    Path((id, key)): Path<(String, String)>,
    Params(q): Params<PageQuery>,
) -> Response {
    let as_seat = match as_seat(q.as_seat.as_deref()) {
        Ok(s) => s,
        Err(e) => return error_page(e),
    };
    let table = match server.table(&id).await {
        Ok(t) => t,
        Err(e) => return error_page(e),
    };
    let host = table.host().await;
    let rights = match table.access(&key, as_seat).await {
        Ok(a) => a,
        Err(TableError::Invite) => {
            let moving = table.is_move_link(&key).await;
            return claim_page(&table.title, &host, &id, &key, moving);
        }
        Err(e) => return error_page_at(e, &host),
    };
    let caller = Caller {
        table,
        key: key.clone(),
        rights,
    };
    let (update, odds) = match caller.table.answer(&key, as_seat, 0).await {
        Ok(a) => match a.text(server.metrics()).await {
            Ok(text) => (
                serde_json::from_str::<Value>(&text).unwrap_or(Value::Null),
                a.snapshot.odds_on(),
            ),
            Err(e) => return error_page(e),
        },
        Err(e) => return error_page(e),
    };
    let summary = table_summary(&caller).await;
    let seats = serde_json::to_value(&summary).unwrap_or(Value::Null);
    let owner = caller.rights.role == Role::Owner;
    let unclaimed = owner
        && update["closed"] != true
        && seats["seats"].as_array().is_some_and(|s| {
            s.iter()
                .any(|s| s["holder"] == "open" || s["holder"] == "invited")
        });
    let t = &caller.table;
    let entry = server.entry(t.ruleset);
    let game = entry.map_or(t.ruleset, |e| e.name);
    let boot = json!({
        "table": t.id,
        "key": key,
        "as": as_seat,
        "role": caller.rights.role.to_string(),
        "game": game,
        "rules": entry.as_ref().and_then(crate::rules::links),
        "update": update,
        "summary": summary,
        "odds": odds,
    });
    let title = update["title"].as_str().unwrap_or(&t.title);
    let me = update["room"]["me"].as_str().unwrap_or_default();
    // A board of the game's own, or the players' sheets of session zero, fills `#panel`.
    let staged = !matches!(
        update["view"]["session_zero"],
        Value::Null | Value::Bool(false)
    );
    let board = staged || entry.is_some_and(|e| e.panel.is_some());
    let body = html! {
        (table_header(title, game, me, &routes::REVIEW_PAGE.at([&t.id, &key]).into_uri()))
        main .table #main {
            (turn_banner(&update, owner, &table_path(&t.id, &key), unclaimed))
            p #announcer .sr-only role="status" aria-live="polite" aria-atomic="true" {}
            (times_line())
            @if owner { (clock_bar()) }
            div .cols {
                div ."col" ."col-play" { (board_card(owner, board)) }
                div ."col" ."col-side" {
                    (talk_card(&host, &update["room"]))
                    @if owner { (gm_cards(unclaimed)) }
                    @else if caller.rights.role != Role::Spectator { (notify_card()) }
                    @if matches!(caller.rights.role, Role::Seat(_)) { (move_card(&host)) }
                    (fair_card(&t.id, &key))
                }
            }
        }
        (dialogs())
        @if owner { (clock_dialog()) }
        (data("boot", &boot))
        (script("/assets/app.js"))
        (script("/assets/review-link.js"))
        (board_tags(entry))
        (crate::http::forms::tags(entry.as_ref(), true))
    };
    super::html(page(&format!("{title} — Clash"), body))
}

/// The bar at the top: home, the table's name, the game, who you are, the connection, the
/// rules and alerts.
fn table_header(title: &str, game: &str, me: &str, review: &str) -> Markup {
    html! {
        a .skip href="#main" { "Skip to the table" }
        header .bar {
            a href="/" .home aria-label="Clash lobby" { "Clash" }
            div .bar-title {
                h1 #title { (title) }
                p .sub {
                    (game) " · you are " b #who { (me) } " · "
                    span #status .status { "connecting…" }
                }
            }
            div .bar-tools {
                // Shown once the table has ended (review-link.js).
                a .small .review-link #review-link href=(review) hidden { "Review" }
                button type="button" #rules-open .small aria-haspopup="dialog" { "Rules" }
                button type="button" #alerts .small aria-pressed="false" { "Alerts off" }
            }
        }
    }
}
