//! The web UI: server-rendered HTML, one small script, no build step.
//!
//! * `/` — the lobby: pick a game and a ready-made setup, create a table.
//! * `/t/{table}/{key}` — the table as the link's holder sees it: the GM's seat list and invite
//!   links, the state, the readable log, and controls (every legal command as a button, a JSON
//!   box, and a per-ruleset panel where one exists). Live updates arrive over SSE.

use std::collections::HashMap;
use std::sync::Arc;

use axum::Form;
use axum::extract::rejection::FormRejection;
use axum::extract::{Path, State};
use axum::http::{StatusCode, header};
use axum::response::{Html, IntoResponse, Redirect, Response};
use serde_json::{Value, json};

use clash_core::RulesetEntry;

use crate::error::{ApiError, TableError};
use crate::extract::{Caller, ClientAddr, Params, as_seat};
use crate::http::table_path;
use crate::http::tables::table_summary;
use crate::links::Role;
use crate::tables::{TITLE_LIMIT, Tables};

/// Escape text for HTML content and attribute values.
pub fn esc(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

use crate::embed::script_data as script_json;

fn page(title: &str, body: &str) -> String {
    format!(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">\
<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
<title>{}</title><link rel=\"icon\" href=\"data:,\"><link rel=\"stylesheet\" href=\"/assets/app.css\"></head><body>{body}</body></html>",
        esc(title)
    )
}

fn error_page(e: impl Into<ApiError>) -> Response {
    let e: ApiError = e.into();
    let body = format!(
        "<main class=\"narrow\"><h1>Clash</h1><section class=\"card\"><h2>That did not work</h2>\
<p class=\"error\">{}</p><p><a href=\"/\">Back to the lobby</a></p></section></main>",
        esc(&e.message())
    );
    (e.status(), Html(page("Clash — error", &body))).into_response()
}

/// The lobby, optionally with an error from a failed create shown beside the form.
fn lobby_html(
    tables: &Tables,
    error: Option<&str>,
    chosen: Option<&str>,
    setup_text: &str,
) -> String {
    let mut options = String::new();
    let mut preset_data = serde_json::Map::new();
    for entry in tables.catalogue() {
        let list = tables.presets(entry.id);
        options.push_str(&format!("<optgroup label=\"{}\">", esc(entry.name)));
        if list.is_empty() {
            let value = format!("{}#custom", entry.id);
            let sel = if chosen == Some(value.as_str()) {
                " selected"
            } else {
                ""
            };
            options.push_str(&format!(
                "<option value=\"{v}\"{sel}>{} — your own setup</option>",
                esc(entry.name),
                v = esc(&value)
            ));
        }
        for (i, p) in list.iter().enumerate() {
            let value = format!("{}#{i}", entry.id);
            let sel = if chosen == Some(value.as_str()) {
                " selected"
            } else {
                ""
            };
            options.push_str(&format!(
                "<option value=\"{v}\"{sel}>{} — {}</option>",
                esc(entry.name),
                esc(&p.name),
                v = esc(&value)
            ));
            preset_data.insert(value, json!({ "setup": p.setup, "blurb": entry.blurb }));
        }
        options.push_str("</optgroup>");
    }
    let form = if tables.catalogue().is_empty() {
        "<p class=\"error\">This build has no rulesets yet.</p>".to_string()
    } else {
        format!(
            "<form method=\"post\" action=\"/tables\" id=\"create-form\">\
<label for=\"preset\">Game and starting setup</label>\
<select name=\"preset\" id=\"preset\">{options}</select>\
<p class=\"hint\" id=\"blurb\"></p>\
<label for=\"title\">Table name <span class=\"hint\">(optional)</span></label>\
<input name=\"title\" id=\"title\" maxlength=\"{TITLE_LIMIT}\" placeholder=\"Friday night duel\">\
<details{open}><summary>Setup (JSON) — optional, the chosen setup is used as it is</summary>\
<textarea name=\"setup\" id=\"setup\" rows=\"10\" spellcheck=\"false\">{setup}</textarea></details>\
{err}<button type=\"submit\" class=\"primary\">Create table</button></form>",
            open = if setup_text.is_empty() { "" } else { " open" },
            setup = esc(setup_text),
            err = error
                .map(|e| format!("<p class=\"error\" role=\"alert\">{}</p>", esc(e)))
                .unwrap_or_default(),
        )
    };
    let body = format!(
        "<main class=\"narrow\"><header><h1>Clash</h1><p>Play tabletop conflict systems together, each at your own screen.</p></header>\
<section class=\"card\" id=\"mine\" hidden><h2>Your tables</h2>\
<p class=\"hint\">Tables this browser created or joined. Their links are kept on this device only.</p>\
<ul id=\"mine-list\" class=\"mine\"></ul><details id=\"archived\" hidden><summary>Archived tables</summary><ul id=\"archived-list\" class=\"mine\"></ul></details></section>\
<section class=\"card\" id=\"start\"><h2>Start a table</h2>\
<div id=\"by-form\" class=\"by-form\"><p class=\"hint\">Loading the forms…</p></div>\
<div class=\"start-ways\"><details id=\"ready-made\"{ready_open}><summary>Or start from a ready-made setup, or write its JSON</summary>{form}</details>\
<details id=\"from-file\"><summary>Or start from a setup file</summary>\
<p class=\"hint\">A setup downloaded from another table (“Download the whole setup” in session zero, or “Download this table as a setup”).</p>\
<label for=\"file-title\">Table name <span class=\"hint\">(optional)</span></label><input id=\"file-title\" maxlength=\"120\">\
<button type=\"button\" id=\"file-pick\">Choose the file and create the table</button><p class=\"error\" id=\"file-error\" role=\"alert\"></p></details></div></section>\
<section class=\"card\"><h2>How it works</h2><ol>\
<li>Pick a game, name the table and say how many players sit at it. You become its <b>GM</b> and get the GM page — <b>bookmark it</b>, its link is your key.</li>\
<li>On the GM page, make an <b>invite link</b> for each player seat and send it to that player \
(or choose “Play as NPC” to run the seat yourself, or “Seat a bot” to let a bot play it). In a game with characters, each player opens their link and makes their own \
character through the game's form — every rule is checked as they type — and you start play once every sheet is in.</li>\
<li>Everyone plays from their own page: the board shows what you may do now, the banner at the top says \
when it is your move, and the table's log holds the talk as well as the moves. Secret choices stay secret until they are revealed. \
The Rules button opens the game's rules and charts at any time.</li></ol>\
<p class=\"hint\">Bots and other programs can play through the <a href=\"/api/openapi.json\">JSON API</a>.</p></section>\
<script type=\"application/json\" id=\"presets\">{presets}</script>\
<script type=\"application/json\" id=\"games\">{games}</script>{forms}<script src=\"/assets/lobby.js\"></script></main>",
        presets = script_json(&Value::Object(preset_data)),
        games = script_json(&crate::forms::games(tables)),
        forms = crate::forms::lobby_tags(tables),
        ready_open = if error.is_some() { " open" } else { "" },
    );
    page("Clash — tables", &body)
}

pub async fn lobby(State(tables): State<Arc<Tables>>) -> Html<String> {
    Html(lobby_html(&tables, None, None, ""))
}

/// The lobby's form: a preset (`ruleset#index`) and an optional setup JSON that overrides it.
pub async fn create_from_form(
    State(tables): State<Arc<Tables>>,
    ClientAddr(client): ClientAddr,
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
        (
            status,
            Html(lobby_html(
                &tables,
                Some(&message),
                Some(&chosen),
                &setup_text,
            )),
        )
            .into_response()
    };
    if let Err(e) = tables.creation().check(client) {
        tables.metrics().refuse("create_rate");
        return refuse(e.status(), e.message());
    }
    let (ruleset, index) = chosen.split_once('#').unwrap_or((chosen.as_str(), "0"));
    let Some(entry) = tables.entry(ruleset) else {
        return refuse(
            StatusCode::BAD_REQUEST,
            format!("pick a game from the list ({ruleset:?} is not one)"),
        );
    };
    let setup = if setup_text.is_empty() {
        match index
            .parse::<usize>()
            .ok()
            .and_then(|i| tables.presets(entry.id).get(i))
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
    match tables
        .create(
            ruleset,
            fields.get("title").map_or("", String::as_str),
            setup,
        )
        .await
    {
        Ok(created) => {
            Redirect::to(&table_path(&created.table.id, &created.owner_key)).into_response()
        }
        Err(e) => {
            let e = ApiError::from(e);
            refuse(e.status(), e.message())
        }
    }
}

/// The page an invite link opens: one button (pressed by the page's script at once) exchanges
/// the invite for the player's own key. A GET never uses the invite up, so a chat app that
/// previews the link does not take the seat.
fn claim_page(title: &str, id: &str, invite: &str) -> Response {
    let body = format!(
        "<main class=\"narrow\"><h1>Clash</h1><section class=\"card\"><h2>You are invited to {title}</h2>\
<p>Taking the seat gives this browser its own link to it, which nobody else holds — not even the GM. \
Bookmark the page you land on.</p>\
<form method=\"post\" action=\"/t/{id}/{invite}\" id=\"claim\"><button type=\"submit\" class=\"primary\">Take the seat</button></form>\
</section><script src=\"/assets/claim.js\"></script></main>",
        title = esc(title),
        id = esc(id),
        invite = esc(invite),
    );
    Html(page(&format!("{title} — Clash"), &body)).into_response()
}

/// The invite page's form: exchange the invite and go to the seat's own page.
pub async fn claim_from_page(
    State(tables): State<Arc<Tables>>,
    Path((id, invite)): Path<(String, String)>,
) -> Response {
    let table = match tables.get(&id).await {
        Ok(t) => t,
        Err(e) => return error_page(e),
    };
    let claim = crate::ops::claim::Claim { invite };
    match tables.execute(&table, claim).await {
        Ok(done) => Redirect::to(&table_path(&id, &done.answer.1)).into_response(),
        Err(TableError::Conflict { .. } | TableError::BadKey) => error_page(TableError::conflict(
            crate::error::Conflict::NotInvite,
            "this invite has already been used (or replaced). If you did not use it yourself, tell the GM: \
             someone else took the seat. Ask the GM for a new link.",
        )),
        Err(e) => error_page(e),
    }
}

/// `?as=p2`: the seat the GM's page plays.
#[derive(serde::Deserialize)]
pub struct PageQuery {
    #[serde(rename = "as")]
    as_seat: Option<String>,
}

pub async fn table_page(
    State(tables): State<Arc<Tables>>,
    Path((id, key)): Path<(String, String)>,
    Params(q): Params<PageQuery>,
) -> Response {
    let as_seat = match as_seat(q.as_seat.as_deref()) {
        Ok(s) => s,
        Err(e) => return error_page(e),
    };
    let table = match tables.get(&id).await {
        Ok(t) => t,
        Err(e) => return error_page(e),
    };
    let rights = match table.access(&key, as_seat).await {
        Ok(a) => a,
        Err(TableError::Invite) => return claim_page(&table.title, &id, &key),
        Err(e) => return error_page(e),
    };
    let caller = Caller {
        table,
        key: key.clone(),
        rights,
    };
    let t = &caller.table;
    let update = match t.answer(&key, as_seat, 0).await {
        Ok(a) => match a.text(tables.metrics()).await {
            Ok(text) => serde_json::from_str::<Value>(&text).unwrap_or(Value::Null),
            Err(e) => return error_page(e),
        },
        Err(e) => return error_page(e),
    };
    let summary = table_summary(&caller).await;
    let entry = tables.entry(t.ruleset);
    let game = entry.map_or(t.ruleset, |e| e.name);
    let owner = caller.rights.role == Role::Owner;
    let title = update["title"].as_str().unwrap_or(&t.title).to_string();
    let me = update["room"]["me"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    let boot = json!({
        "table": t.id,
        "key": key,
        "as": as_seat,
        "role": caller.rights.role.to_string(),
        "game": game,
        "rules": entry.as_ref().and_then(crate::rules::links),
        "update": update,
        "summary": summary,
    });
    let body = format!(
        "{header}<main class=\"table\" id=\"main\">{banner}\
<div class=\"cols\"><div class=\"col col-play\">{board}</div>\
<div class=\"col col-side\">{talk}{gm}{fairness}</div></div></main>{dialogs}\
<script type=\"application/json\" id=\"boot\">{boot}</script>\
<script src=\"/assets/verify.js\"></script><script src=\"/assets/fair-check.js\"></script>\
<script src=\"/assets/app.js\"></script>{panel}",
        header = table_header(&title, game, &me),
        banner = TURN_BANNER,
        board = board_card(owner),
        talk = TALK_CARD,
        gm = if owner { GM_CARD } else { "" },
        fairness = fair_card(&t.id, &key),
        dialogs = DIALOGS,
        panel = panel_tags(entry) + &crate::forms::tags(entry.as_ref(), true),
        boot = script_json(&boot),
    );
    Html(page(&format!("{title} — Clash"), &body)).into_response()
}

/// The bar at the top: home, the table's name, the game, who you are, the connection, the
/// rules and alerts.
fn table_header(title: &str, game: &str, me: &str) -> String {
    format!(
        "<a class=\"skip\" href=\"#main\">Skip to the table</a>\
<header class=\"bar\"><a href=\"/\" class=\"home\" aria-label=\"Clash lobby\">Clash</a>\
<div class=\"bar-title\"><h1 id=\"title\">{title}</h1>\
<p class=\"sub\">{game} · you are <b id=\"who\">{me}</b> · <span id=\"status\" class=\"status\">connecting…</span></p></div>\
<div class=\"bar-tools\"><button type=\"button\" id=\"rules-open\" class=\"small\" aria-haspopup=\"dialog\">Rules</button>\
<button type=\"button\" id=\"alerts\" class=\"small\" aria-pressed=\"false\">Alerts off</button></div></header>",
        title = esc(title),
        game = esc(game),
        me = esc(me),
    )
}

/// Whose move it is, and who is here.
const TURN_BANNER: &str = "<section class=\"turn\" id=\"turn\" aria-label=\"Whose move\">\
<p id=\"turn-text\" role=\"status\" aria-live=\"polite\"></p><ul id=\"people\" class=\"people\" aria-label=\"Who is at the table\"></ul>\
<a href=\"#seats-card\" id=\"invite-hint\" class=\"invite-hint\" hidden>Invite your players</a></section>";

/// The game's board, the player's controls and (folded) the text picture; the GM's JSON drawer.
fn board_card(owner: bool) -> String {
    let advanced = if owner {
        "<details id=\"json-box\" class=\"advanced\"><summary>Advanced: send JSON</summary>\
<p class=\"hint\">Send any command as JSON, as the seat this page plays. The commands the rules allow now are listed below; tap one to copy it into the box.</p>\
<textarea id=\"json-command\" rows=\"4\" spellcheck=\"false\" aria-label=\"Command as JSON\" placeholder='{\"type\": \"…\"}'></textarea>\
<button type=\"button\" id=\"json-send\">Send</button><p class=\"error\" id=\"json-error\" role=\"alert\"></p>\
<ul id=\"json-legal\" class=\"json-legal\"></ul>\
<details><summary>This page's view as JSON</summary><pre id=\"view-json\"></pre></details></details>"
    } else {
        ""
    };
    format!(
        "<section class=\"card\" id=\"board-card\" aria-label=\"The game\"><div id=\"panel\"></div>\
<div id=\"fallback\" hidden><p class=\"hint\" id=\"legal-hint\"></p><div id=\"legal\" class=\"buttons\"></div></div>\
<p class=\"error\" id=\"legal-error\" role=\"alert\"></p>\
<details class=\"fold\" id=\"picture\"><summary>The table as text</summary><pre id=\"render\"></pre></details>{advanced}</section>"
    )
}

/// The log and the table talk.
const TALK_CARD: &str = "<details class=\"card fold\" id=\"log-card\" data-open-wide><summary><h2>Log and table talk</h2> <span class=\"badge\" id=\"log-new\" hidden></span></summary>\
<div class=\"filters\" role=\"group\" aria-label=\"Show in the log\">\
<button type=\"button\" class=\"small\" data-filter=\"all\" aria-pressed=\"true\">Everything</button>\
<button type=\"button\" class=\"small\" data-filter=\"reveals\" aria-pressed=\"false\">Rolls and reveals</button>\
<button type=\"button\" class=\"small\" data-filter=\"talk\" aria-pressed=\"false\">Talk</button></div>\
<ol id=\"log\" aria-live=\"polite\" aria-relevant=\"additions\" tabindex=\"0\" aria-label=\"Log\"></ol>\
<form id=\"chat\" class=\"chat\" autocomplete=\"off\"><label for=\"chat-text\" class=\"sr-only\">Say something to the table</label>\
<input id=\"chat-text\" maxlength=\"500\" placeholder=\"Say something to the table\">\
<button type=\"submit\" class=\"small\" id=\"chat-send\">Say</button>\
<label class=\"check\" id=\"whisper-box\" hidden><input type=\"checkbox\" id=\"whisper\"> Whisper to the GM only</label>\
<label class=\"check\" id=\"whisper-to-box\" hidden>To <select id=\"whisper-to\"><option value=\"\">Everyone</option></select></label>\
<p class=\"error\" id=\"chat-error\" role=\"alert\"></p></form>\
<p class=\"hint\" id=\"chat-readonly\" hidden>Spectators read the table talk.</p></details>";

/// The GM's tools: take back a command, seats and links, the table itself.
const GM_CARD: &str = "<details class=\"card fold\" id=\"undo-card\" data-open-wide><summary><h2>Take back a command</h2></summary>\
<p class=\"hint\">You can take back the last command while nothing was rolled, drawn or revealed since. Everyone's log says so; nothing is erased.</p>\
<button type=\"button\" id=\"undo\" class=\"small\">Take back</button><p class=\"error\" id=\"undo-error\" role=\"alert\"></p></details>\
<details class=\"card fold\" id=\"seats-card\"><summary><h2>Seats and invite links</h2></summary>\
<p class=\"hint\">Send each player the invite of their seat. Opening it gives the player's browser its own link, \
which you never see. “New link” replaces a seat's link; “Play as NPC” takes the seat over for you \
(everyone's log says so) and “Give back” returns it to its player. “Seat a bot” lets a casual or \
strong bot play an NPC seat or an empty seat (or your NPCs' part, where the game gives you a seat): \
it sees only what that seat sees, and “Take the seat back” ends it at any time. A seat whose player \
has a secret choice waiting to be revealed changes hands only after the reveal.</p>\
<div id=\"seats\"></div><p class=\"error\" id=\"seats-error\" role=\"alert\"></p></details>\
<details class=\"card fold\" id=\"manage-card\"><summary><h2>This table</h2></summary>\
<form id=\"rename\" class=\"inline\"><label for=\"rename-title\">Name</label>\
<input id=\"rename-title\" maxlength=\"120\"><button type=\"submit\" class=\"small\">Rename</button></form>\
<p><button type=\"button\" id=\"archive\" class=\"small\">Archive</button> \
<button type=\"button\" id=\"delete\" class=\"small danger\">Delete for good</button> \
<button type=\"button\" id=\"close-table\" class=\"small\">End the table and reveal the secret</button></p>\
<p class=\"hint\">Archived tables take no moves or talk until you bring them back; they move to “Archived” in your lobby.</p>\
<p class=\"error\" id=\"manage-error\" role=\"alert\"></p></details>";

/// Verifiable dice.
fn fair_card(id: &str, key: &str) -> String {
    format!(
        "<details class=\"card fold\" id=\"fair-card\"><summary><h2>Fair dice</h2> <span class=\"fair-summary\" id=\"fair-summary\"></span></summary>\
<p class=\"hint\">Every roll, draw and shuffle comes from the server's secret, sealed when the table was made, mixed with the seeds \
the players' pages add. The secret is revealed when the table ends; then anyone can check every roll with <code>clash verify</code>. \
This page checks too: the log's chain as it grows, and every roll and draw once the secret is out.</p>\
<div id=\"fair-check\" class=\"fair-check\" role=\"status\" aria-live=\"polite\"><p class=\"check wait\">Checking the log…</p></div>\
<dl class=\"fair\"><dt>Sealed secret (SHA-256)</dt><dd><code id=\"commitment\"></code></dd>\
<dt>Log head</dt><dd><code id=\"head\"></code></dd><dt>Seeds</dt><dd id=\"seeds\"></dd>\
<dt>Secret</dt><dd id=\"secret\">revealed when the table ends</dd></dl>\
<p id=\"seed-box\" hidden><label for=\"my-seed\">Your seed</label> <input id=\"my-seed\" maxlength=\"64\" spellcheck=\"false\"> \
<button type=\"button\" id=\"seed-send\" class=\"small\">Use this seed</button></p>\
<p><a id=\"export\" href=\"/api/tables/{id}/export?key={key}\" download=\"clash-{id}.json\">Download the table's record</a></p>\
<p class=\"error\" id=\"fair-error\" role=\"alert\"></p></details>",
        id = esc(id),
        key = esc(key),
    )
}

/// The rules sheet and the confirmation dialog.
const DIALOGS: &str = "<dialog id=\"rules-sheet\" class=\"sheet\" aria-labelledby=\"rules-heading\">\
<div class=\"sheet-bar\"><h2 id=\"rules-heading\">Rules</h2><button type=\"button\" class=\"small\" id=\"rules-close\">Close</button></div>\
<div id=\"rules-body\" class=\"rules\">Loading the rules…</div></dialog>\
<dialog id=\"confirm\" class=\"confirm\" aria-labelledby=\"confirm-text\"><form method=\"dialog\">\
<p id=\"confirm-text\"></p><div class=\"buttons\"><button value=\"no\" class=\"small\">Cancel</button>\
<button value=\"yes\" class=\"small primary-inline\" id=\"confirm-yes\">Yes, do it</button></div></form></dialog>";

pub async fn asset(Path(name): Path<String>) -> Response {
    let (kind, text) = match name.as_str() {
        "app.css" => ("text/css; charset=utf-8", include_str!("assets/app.css")),
        "app.js" => (
            "text/javascript; charset=utf-8",
            include_str!("assets/app.js"),
        ),
        "verify.js" => (
            "text/javascript; charset=utf-8",
            include_str!("assets/verify.js"),
        ),
        "fair-check.js" => (
            "text/javascript; charset=utf-8",
            include_str!("assets/fair-check.js"),
        ),
        "claim.js" => (
            "text/javascript; charset=utf-8",
            include_str!("assets/claim.js"),
        ),
        "lobby.js" => (
            "text/javascript; charset=utf-8",
            include_str!("assets/lobby.js"),
        ),
        "panel-kit.css" => (
            "text/css; charset=utf-8",
            include_str!("assets/panel-kit.css"),
        ),
        "panel-kit.js" => (
            "text/javascript; charset=utf-8",
            include_str!("assets/panel-kit.js"),
        ),
        _ => {
            return ApiError::NotFound.into_response();
        }
    };
    (
        [
            (header::CONTENT_TYPE, kind),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        text,
    )
        .into_response()
}

/// The shared panel kit and, when the game has a board of its own, its script and style.
fn panel_tags(entry: Option<RulesetEntry>) -> String {
    let kit = "<link rel=\"stylesheet\" href=\"/assets/panel-kit.css\">\
<script src=\"/assets/panel-kit.js\"></script>";
    match entry.filter(|e| e.panel.is_some()) {
        Some(e) => format!(
            "{kit}<link rel=\"stylesheet\" href=\"/assets/panel/{id}.css\">\
<script src=\"/assets/panel/{id}.js\"></script>",
            id = esc(e.id)
        ),
        None => kit.to_string(),
    }
}

/// A game's own board, `{ruleset}.js` or `{ruleset}.css`, as the catalogue carries it.
pub async fn panel_asset(State(tables): State<Arc<Tables>>, Path(file): Path<String>) -> Response {
    let found = file
        .rsplit_once('.')
        .and_then(|(id, ext)| Some((tables.entry(id)?.panel, ext)))
        .filter(|(panel, _)| panel.is_some());
    let (kind, text) = match found {
        Some((panel, "js")) => ("text/javascript; charset=utf-8", panel.script),
        Some((panel, "css")) => ("text/css; charset=utf-8", panel.style),
        _ => return ApiError::NotFound.into_response(),
    };
    (
        [
            (header::CONTENT_TYPE, kind),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        text,
    )
        .into_response()
}

/// The web UI's pages and assets (HTML and files, not part of the JSON API).
pub fn routes() -> axum::Router<Arc<Tables>> {
    use axum::routing::get;
    axum::Router::new()
        .route("/", get(lobby))
        .route("/tables", axum::routing::post(create_from_form))
        .route("/t/{id}/{key}", get(table_page).post(claim_from_page))
        .route("/assets/{name}", get(asset))
        .route("/assets/panel/{file}", get(panel_asset))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping_covers_markup_and_quotes() {
        assert_eq!(
            esc("<a href=\"x\">'&'</a>"),
            "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;"
        );
    }
}
