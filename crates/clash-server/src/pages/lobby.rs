//! The lobby: the tables this browser knows, the game forms, ready-made setups and setup files.

use std::collections::HashMap;
use std::sync::Arc;

use axum::Form;
use axum::extract::State;
use axum::extract::rejection::FormRejection;
use axum::http::StatusCode;
use axum::response::{Html, IntoResponse, Redirect, Response};
use maud::{Markup, html};
use serde_json::{Value, json};

use super::{data, error_page, page, script};
use crate::error::ApiError;
use crate::http::routes::table_path;
use crate::http::tables::Creating;
use crate::server::Server;
use crate::tables::TITLE_LIMIT;
use crate::work::{self, Pool};

/// What the lobby shows again after a refused create: the error, the chosen preset and the
/// setup as typed.
#[derive(Default)]
struct Refused<'a> {
    error: Option<&'a str>,
    chosen: Option<&'a str>,
    setup: &'a str,
}

/// The ready-made setups, grouped by game, and each one's setup and blurb for the page's script.
fn presets(server: &Server, chosen: Option<&str>) -> (Markup, Value) {
    let mut preset_data = serde_json::Map::new();
    for entry in server.catalogue() {
        for (i, p) in server.presets(entry.id).iter().enumerate() {
            let value = format!("{}#{i}", entry.id);
            preset_data.insert(value, json!({ "setup": p.setup, "blurb": entry.blurb }));
        }
    }
    let options = html! {
        @for entry in server.catalogue() {
            @let list = server.presets(entry.id);
            optgroup label=(entry.name) {
                @if list.is_empty() {
                    @let value = format!("{}#custom", entry.id);
                    option value=(value) selected[chosen == Some(value.as_str())] {
                        (entry.name) " — your own setup"
                    }
                }
                @for (i, p) in list.iter().enumerate() {
                    @let value = format!("{}#{i}", entry.id);
                    option value=(value) selected[chosen == Some(value.as_str())] {
                        (entry.name) " — " (p.name)
                    }
                }
            }
        }
    };
    (options, Value::Object(preset_data))
}

/// The form that creates a table from a ready-made setup or setup JSON.
fn setup_form(options: Markup, refused: &Refused) -> Markup {
    html! {
        form method="post" action="/tables" #create-form {
            label for="preset" { "Game and starting setup" }
            select name="preset" #preset { (options) }
            p .hint #blurb {}
            label for="title" { "Table name " span .hint { "(optional)" } }
            input name="title" #title maxlength=(TITLE_LIMIT) placeholder="Friday night duel";
            details open[!refused.setup.is_empty()] {
                summary { "Setup (JSON) — optional, the chosen setup is used as it is" }
                textarea name="setup" #setup rows="10" spellcheck="false" { (refused.setup) }
            }
            (variant_fields())
            @if let Some(e) = refused.error {
                p .error role="alert" { (e) }
            }
            p .hint { "In a game where players make characters, the table opens in session zero with the setup's "
                "characters in: add or remove seats, send each invited player's sheet back or keep it, then start play." }
            button type="submit" .primary { "Create table" }
        }
    }
}

/// A rule variant for the table (the game's numbers changed, as on the workbench): filled by
/// hand or by a workbench study's "Open a table with it" link (`lobby-variant.js`).
fn variant_fields() -> Markup {
    html! {
        details #variant-pick {
            summary { "Rule variant — optional: change some of the rules' numbers for this table" }
            label for="variant-name" { "The variant's name" }
            input name="variant_name" #variant-name maxlength="60" placeholder="short fuse";
            label for="variant-changes" { "Changes " span .hint { "(key=value, separated by commas)" } }
            input name="variant" #variant-changes placeholder="wipe_out=4, reserve=2";
            div .hint #variant-hint {}
            p .hint { a href=(crate::http::routes::WORKBENCH_PAGE.path) { "Compare variants on the workbench first" } }
        }
    }
}

/// The ways to start a table: the game's form, a ready-made setup, a setup file.
/// `forms`: some game has forms (the lobby's script draws them in `#by-form`).
fn start_card(form: Markup, refused: &Refused, forms: bool) -> Markup {
    html! {
        section .card #start {
            h2 { "Start a table" }
            // The form's place is kept while its script loads, so what lies below starts out of
            // sight rather than jumping down when the form arrives.
            // (Folded away while a refused setup is shown again, as lobby.js folds it.)
            div #by-form .by-form hidden[refused.error.is_some()] { p .hint .loading[forms] { "Loading the forms…" } }
            div .start-ways {
                details #ready-made open[refused.error.is_some()] {
                    summary { "Or start from a ready-made setup, or write its JSON" }
                    (form)
                }
                details #from-file {
                    summary { "Or start from a setup file" }
                    p .hint { "A setup downloaded from another table (“Download the whole setup” in session zero, or “Download this table as a setup”)." }
                    label for="file-title" { "Table name " span .hint { "(optional)" } }
                    input #file-title maxlength="120";
                    button type="button" #file-pick { "Choose the file and create the table" }
                    p .error #file-error role="alert" {}
                }
            }
        }
    }
}

/// How a table works, in three steps.
fn how_it_works() -> Markup {
    html! {
        section .card {
            h2 { "How it works" }
            ol {
                li { "Pick a game, name the table and say how many players sit at it. You become its " b { "GM" } " and get the GM page — " b { "bookmark it" } ", its link is your key." }
                li { "On the GM page, make an " b { "invite link" } " for each player seat and send it to that player "
                    "(or choose “Play as NPC” to run the seat yourself, or “Seat a bot” to let a bot play it). In a game with characters, each player opens their link and makes their own "
                    "character through the game's form — every rule is checked as they type — and you start play once every sheet is in." }
                li { "Everyone plays from their own page: the board shows what you may do now, the banner at the top says "
                    "when it is your move, and the table's log holds the talk as well as the moves. Secret choices stay secret until they are revealed. "
                    "The Rules button opens the game's rules and charts at any time." }
            }
            p .hint { "Bots and other programs can play through the " a href="/api/openapi.json" { "JSON API" } "." }
        }
    }
}

/// The lobby, with what a refused create left to show again.
fn lobby_html(server: &Server, refused: &Refused) -> Markup {
    let (options, preset_data) = presets(server, refused.chosen);
    let form = if server.catalogue().is_empty() {
        html! { p .error { "This build has no rulesets yet." } }
    } else {
        setup_form(options, refused)
    };
    let body = html! {
        main .narrow {
            header {
                h1 { "Clash" }
                p { "Play tabletop conflict systems together, each at your own screen." }
                p { a href=(crate::http::routes::WORKBENCH_PAGE.path) { "The workbench" } ": change a rule's numbers and see what the game becomes." }
            }
            section .card #mine hidden {
                h2 { "Your tables" }
                p .hint { "Tables this browser created or joined. Their links are kept on this device only." }
                ul #mine-list .mine {}
                details #archived hidden {
                    summary { "Archived tables" }
                    ul #archived-list .mine {}
                }
            }
            (start_card(form, refused, server.catalogue().iter().any(|e| e.forms.is_some())))
            (how_it_works())
            (data("presets", &preset_data))
            (data("games", &crate::http::forms::games(server)))
            (data("rule-links", &rule_links(server)))
            (data("variant-games", &crate::workbench::Studies::new(server.catalogue()).games()))
            (crate::http::forms::lobby_tags(server))
            (script("/assets/lobby.js"))
            (script("/assets/lobby-variant.js"))
        }
    };
    page("Clash — tables", body)
}

/// Each game's rule links, so rule IDs in its creation form link to the rule itself.
fn rule_links(server: &Server) -> HashMap<&'static str, crate::rules::RulesLinks> {
    server
        .catalogue()
        .iter()
        .filter_map(|e| Some((e.id, crate::rules::links(e)?)))
        .collect()
}

pub async fn lobby(State(server): State<Arc<Server>>) -> Response {
    super::html(lobby_html(&server, &Refused::default()))
}

/// The lobby's form: a preset (`ruleset#index`) and an optional setup JSON that overrides it.
pub async fn create_from_form(
    State(server): State<Arc<Server>>,
    creating: Result<Creating, ApiError>,
    form: Result<Form<HashMap<String, String>>, FormRejection>,
) -> Response {
    let fields = match form {
        Ok(Form(f)) => f,
        Err(e) => return error_page(ApiError::malformed(e.body_text())),
    };
    let chosen = fields.get("preset").cloned().unwrap_or_default();
    let setup_text = fields
        .get("setup")
        .map(|s| s.trim().to_string())
        .unwrap_or_default();
    let refuse = |status: StatusCode, message: String| {
        let refused = Refused {
            error: Some(&message),
            chosen: Some(&chosen),
            setup: &setup_text,
        };
        (status, Html(lobby_html(&server, &refused).into_string())).into_response()
    };
    if let Err(e) = creating {
        return refuse(e.status(), e.message());
    }
    let (ruleset, index) = chosen.split_once('#').unwrap_or((chosen.as_str(), "0"));
    let Some(entry) = server.entry(ruleset) else {
        return refuse(
            StatusCode::BAD_REQUEST,
            format!("pick a game from the list ({ruleset:?} is not one)"),
        );
    };
    let setup = if setup_text.is_empty() {
        match index
            .parse::<usize>()
            .ok()
            .and_then(|i| server.presets(entry.id).get(i))
        {
            Some(p) => p.setup.clone(),
            None => {
                return refuse(
                    StatusCode::BAD_REQUEST,
                    "this game needs a setup: write it in the Setup box".into(),
                );
            }
        }
    } else {
        match serde_json::from_str::<Value>(&setup_text) {
            Ok(v) => v,
            Err(e) => {
                return refuse(
                    StatusCode::BAD_REQUEST,
                    format!("the setup is not valid JSON: {e}"),
                );
            }
        }
    };
    let changes = fields.get("variant").map_or("", |s| s.trim());
    let setup = if !changes.is_empty() {
        // A table with changed rules starts at once from its setup: session zero's sheets do
        // not carry a variant.
        let name = fields.get("variant_name").map_or("", String::as_str);
        match crate::workbench::with_variant(&entry, &setup, name, changes) {
            Ok(s) => s,
            Err(e) => return refuse(e.status(), e.message()),
        }
    } else {
        // A game whose players make characters opens a ready-made setup in session zero, its
        // sheets in: the GM may add or remove seats and review every sheet before play starts.
        match entry.forms.map(|f| f.ready_made) {
            Some(ready_made) => {
                let given = setup.clone();
                work::run(Pool::Read, move || ready_made(&given))
                    .await
                    .ok()
                    .flatten()
                    .unwrap_or(setup)
            }
            None => setup,
        }
    };
    let title = fields.get("title").map_or("", String::as_str);
    match server.tables().create(ruleset, title, setup).await {
        Ok(created) => {
            Redirect::to(&table_path(&created.table.id, &created.owner_key)).into_response()
        }
        Err(e) => {
            let e = ApiError::from(e);
            refuse(e.status(), e.message())
        }
    }
}
