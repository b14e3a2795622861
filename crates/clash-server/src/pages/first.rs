//! A table page's first screen drawn by the server, from the same update the page's script
//! starts from and as the script draws it (turn.js): whose move it is, the last lines of the
//! log under it, and who is at the table. Nothing then moves when the scripts arrive; they
//! draw the same over it.

use maud::{Markup, html};
use serde_json::Value;

/// The kinds of table event that are news under the banner, as turn.js's `NEWS`.
const NEWS: [&str; 7] = [
    "closed",
    "game_over",
    "archived",
    "unarchived",
    "undone",
    "taken_over",
    "handed_back",
];

/// Whose move it is and the last lines (turn.js's `renderTurn` and `renderJust` on the page's
/// first update); `page` is the page's own path (the GM's links to play an NPC seat);
/// `unclaimed`: the GM still has players to invite (gm.js's pointer to the seats card).
pub fn turn_banner(update: &Value, owner: bool, page: &str, unclaimed: bool) -> Markup {
    let room = &update["room"];
    let turn = &room["turn"];
    let closed = !turn["over"].is_null()
        || update["closed"].as_bool() == Some(true)
        || room["archived"].as_bool() == Some(true);
    let npc = turn["npc"].as_array().map_or(&[][..], Vec::as_slice);
    let yours = turn["yours"].as_bool() == Some(true);
    let mine = !closed && (yours || !npc.is_empty());
    let class = format!(
        "turn{}{}{}",
        if mine { " yours" } else { "" },
        if turn["over"].is_null() { "" } else { " over" },
        if closed { " closed" } else { "" }
    );
    let lines = last_lines(update);
    html! {
        section class=(class) #turn aria-label="Whose move" {
            // Focused (from the script) when the control in use went away and nothing took its
            // place: a screen reader then reads what happens now.
            p #turn-text tabindex="-1" {
                (turn["text"].as_str().unwrap_or_default())
                @if mine && !yours {
                    @for n in npc {
                        " " a .npc-link href=(format!("{page}?as={}", n["seat"].as_str().unwrap_or_default())) {
                            "Play " (n["name"].as_str().unwrap_or_default())
                        }
                    }
                }
            }
            div #just .just hidden[lines.is_empty()] data-lines=(indices(&lines)) {
                div .just-text {
                    span #just-label .just-label { "Last:" } " "
                    ol #just-lines .just-lines {
                        @for line in &lines {
                            li data-index=(line["index"]) { (line["text"].as_str().unwrap_or_default()) }
                        }
                    }
                }
                button type="button" #just-more .just-more .small aria-controls="just-lines" aria-expanded="false" hidden {}
            }
            a href="#seats-card" #invite-hint .invite-hint hidden[!unclaimed] { "Invite your players" }
        }
        ul #people .people aria-label="Who is at the table" { (people(update, owner)) }
    }
}

/// The lines "Last:" shows on a page just opened: the news among its log lines, the newest
/// three at most (a small screen's style shows only the newest).
fn last_lines(update: &Value) -> Vec<&Value> {
    let events = update["events"].as_array().map_or(&[][..], Vec::as_slice);
    let news: Vec<&Value> = events
        .iter()
        .filter(|ev| {
            let kind = ev["table"]["type"].as_str();
            ev["table"].is_null() || kind.is_some_and(|k| NEWS.contains(&k))
        })
        .collect();
    news[news.len().saturating_sub(3)..].to_vec()
}

fn indices(lines: &[&Value]) -> String {
    let all: Vec<String> = lines.iter().map(|l| l["index"].to_string()).collect();
    all.join(" ")
}

/// Who is at the table (turn.js's `renderPeople`).
fn people(update: &Value, owner: bool) -> Markup {
    let room = &update["room"];
    let host = room["host"].as_str().unwrap_or_default();
    let gm_here = room["gm_here"].as_bool() == Some(true);
    let people = room["people"].as_array().map_or(&[][..], Vec::as_slice);
    let waiting = room["turn"]["waiting"]
        .as_array()
        .map_or(&[][..], Vec::as_slice);
    let live = room["archived"].as_bool() != Some(true) && update["closed"].as_bool() != Some(true);
    let spectators = room["spectators"].as_u64().unwrap_or(0);
    html! {
        @if !people.iter().any(|p| p["seat"] == "gm") {
            (person(host, gm_here, owner.then_some("you"), false))
        }
        @for p in people {
            @let seat = &p["seat"];
            @let holder = p["holder"].as_str().unwrap_or_default();
            @let note = if *seat == update["seat"] || (seat == "gm" && owner) {
                Some("you".to_string())
            } else {
                match holder {
                    "npc" => Some(format!("played by {host}")),
                    "bot" => Some("played by a bot".to_string()),
                    "open" => Some("no player yet".to_string()),
                    "invited" => Some("invited".to_string()),
                    _ => None,
                }
            };
            @let here = if holder == "npc" || seat == "gm" { gm_here } else { holder == "bot" || p["here"].as_bool() == Some(true) };
            @let waits = live && waiting.iter().any(|w| w["seat"] == *seat);
            (person(p["name"].as_str().unwrap_or_default(), here, note.as_deref(), waits))
        }
        @if spectators > 0 {
            li .person .watchers {
                @if spectators == 1 { "1 watching" } @else { (spectators) " watching" }
            }
        }
    }
}

/// One person (turn.js's `person`).
fn person(name: &str, here: bool, note: Option<&str>, waiting: bool) -> Markup {
    let class = format!(
        "person{}{}",
        if here { " here" } else { " away" },
        if waiting { " waiting" } else { "" }
    );
    let title = format!(
        "{name}{}{}",
        if here {
            " has the table open"
        } else {
            " is not connected"
        },
        if waiting {
            " — the game waits for them"
        } else {
            ""
        }
    );
    html! {
        li class=(class) title=(title) {
            span .dot aria-hidden="true" {}
            (name)
            @if let Some(note) = note { span .note { " (" (note) ")" } }
            span .sr-only { @if here { ", connected" } @else { ", not connected" } }
            @if waiting { span .sr-only { ", to move" } }
        }
    }
}
