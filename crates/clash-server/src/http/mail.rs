//! The pages an email's links open (see [`crate::notify::consent`]): confirming an address,
//! unsubscribing it from everything this server sends, and asking for mail again. Opening a link
//! changes nothing (a mail scanner may open it); the page's button does. The unsubscribe link
//! also takes the one-click POST a mail program sends for `List-Unsubscribe-Post` (RFC 8058),
//! whatever its body, with no cookie or key.

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{Html, IntoResponse, Response};
use maud::{Markup, html};

use super::routes;
use crate::notify::consent::{self, Choice};
use crate::notify::now::now_ms;
use crate::pages::page;
use crate::server::Server;

/// The mail routes.
pub fn routes() -> axum::Router<Arc<Server>> {
    use axum::routing::{get, post};
    axum::Router::new()
        .route(
            routes::MAIL_CONFIRM_PAGE.path,
            get(confirm_page).post(confirm),
        )
        .route(
            routes::MAIL_UNSUBSCRIBE_PAGE.path,
            get(unsubscribe_page).post(unsubscribe),
        )
        .route(routes::MAIL_RESUBSCRIBE.path, post(confirm))
}

fn card(status: StatusCode, heading: &str, body: Markup) -> Response {
    let markup = page(
        &format!("{heading} — Clash"),
        html! {
            main .narrow {
                h1 { "Clash" }
                section .card { h2 { (heading) } (body) }
            }
        },
    );
    (status, Html(markup.into_string())).into_response()
}

fn unknown() -> Response {
    card(
        StatusCode::NOT_FOUND,
        "This link is not known here",
        html! { p { "It may have been copied wrongly. Nothing was changed." } },
    )
}

fn failed() -> Response {
    card(
        StatusCode::SERVICE_UNAVAILABLE,
        "That did not work",
        html! { p { "The server could not read its records just now; nothing was changed. Try again in a moment." } },
    )
}

/// A page with one button that posts to `action`.
fn asking(heading: &str, text: Markup, action: String, button: &str) -> Response {
    let body = html! {
        (text)
        form method="post" action=(action) {
            button type="submit" .primary { (button) }
        }
    };
    card(StatusCode::OK, heading, body)
}

async fn confirm_page(State(server): State<Arc<Server>>, Path(token): Path<String>) -> Response {
    match consent::lookup(server.store(), &token).await {
        Ok(Some((address, _))) => asking(
            "Confirm your address",
            html! { p { "A player asked this Clash server to send news of their table to " strong { (address) } ". "
            "Confirm that this is your address and that you want it: nothing is sent there until you do, "
            "and every message has a link to stop all of them." } },
            routes::MAIL_CONFIRM.at([&token]).into_uri(),
            "Yes, send me news of my tables",
        ),
        Ok(None) => unknown(),
        Err(_) => failed(),
    }
}

async fn unsubscribe_page(
    State(server): State<Arc<Server>>,
    Path(token): Path<String>,
) -> Response {
    match consent::lookup(server.store(), &token).await {
        Ok(Some((address, _))) => asking(
            "Stop all mail from this server",
            html! { p { "This Clash server will send nothing more to " strong { (address) } ", from any table." } },
            routes::MAIL_UNSUBSCRIBE.at([&token]).into_uri(),
            "Send me no more mail",
        ),
        Ok(None) => unknown(),
        Err(_) => failed(),
    }
}

async fn confirm(State(server): State<Arc<Server>>, Path(token): Path<String>) -> Response {
    match consent::answer(server.store(), &token, Choice::Confirm, now_ms()).await {
        Ok(Some(address)) => card(
            StatusCode::OK,
            "Your address is confirmed",
            html! {
                p { "News of your tables will be sent to " strong { (address) } " (at most a few messages a day)." }
                p { "Every message has a link to stop them all: "
                    a href=(routes::MAIL_UNSUBSCRIBE.at([&token]).into_uri()) { "stop all mail from this server" } "." }
            },
        ),
        Ok(None) => unknown(),
        Err(_) => failed(),
    }
}

async fn unsubscribe(State(server): State<Arc<Server>>, Path(token): Path<String>) -> Response {
    match consent::answer(server.store(), &token, Choice::Unsubscribe, now_ms()).await {
        Ok(Some(address)) => asking(
            "No more mail",
            html! { p { "This Clash server sends nothing more to " strong { (address) } ", from any table. "
            "Changed your mind? You can ask for news again." } },
            routes::MAIL_RESUBSCRIBE.at([&token]).into_uri(),
            "Send me news of my tables again",
        ),
        Ok(None) => unknown(),
        Err(_) => failed(),
    }
}
