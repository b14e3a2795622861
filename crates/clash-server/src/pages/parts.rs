//! The cards of a table's page. Their ids and classes are what the page scripts and the browser
//! tests find them by.

use maud::{Markup, html};
use serde_json::Value;

/// The game's board, the player's controls and (folded) the text picture; the GM's JSON drawer.
/// `board`: the game draws a board (its script fills `#panel`), whose space is kept until then.
pub fn board_card(owner: bool, board: bool) -> Markup {
    html! {
        // The board's own headings (a control's title, a board's sections) sit under this one.
        section .card #board-card aria-labelledby="board-heading" {
            h2 .sr-only #board-heading { "The game" }
            div #panel .pending[board] {}
            div #fallback hidden {
                p .hint #legal-hint {}
                div #legal .buttons {}
            }
            p .error #legal-error role="alert" {}
            details .fold #picture {
                summary { "The table as text" }
                pre #render {}
            }
            @if owner { (json_box()) }
        }
    }
}

/// The GM's drawer for sending any command as JSON.
fn json_box() -> Markup {
    html! {
        details #json-box .advanced {
            summary { "Advanced: send JSON" }
            p .hint { "Send any command as JSON, as the seat this page plays. The commands the rules allow now are listed below; tap one to copy it into the box." }
            textarea #json-command rows="4" spellcheck="false" aria-label="Command as JSON" placeholder="{\"type\": \"…\"}" {}
            button type="button" #json-send { "Send" }
            p .error #json-error role="alert" {}
            ul #json-legal .json-legal {}
            details {
                summary { "This page's view as JSON" }
                pre #view-json {}
            }
        }
    }
}

/// The log and the table talk; `host` is what the game calls the table's creator ("the GM").
/// Drawn open, as a wide screen shows it (a phone's script folds it, out of sight below the
/// board), and with the talk's controls as this viewer's `room` allows (talk.js's `renderTalk`).
pub fn talk_card(host: &str, room: &Value) -> Markup {
    let can_talk = room["can_talk"].as_bool() == Some(true);
    let whisper_to = can_talk
        && room["role"] == "gm"
        && room["people"]
            .as_array()
            .is_some_and(|people| people.iter().any(|p| p["holder"] == "player"));
    let readonly = if can_talk {
        None
    } else if room["role"] == "spectator" {
        Some("Spectators read the table talk.".to_string())
    } else if room["archived"].as_bool() == Some(true) {
        let host = crate::log::capitalised(host);
        Some(format!(
            "{host} has archived this table: talk goes on when it is brought back into play."
        ))
    } else {
        Some("You can read the table talk.".to_string())
    };
    html! {
        details .card .fold #log-card data-open-wide open {
            summary { h2 { "Log and table talk" } " " span .badge #log-new hidden {} }
            div .filters role="group" aria-label="Show in the log" {
                button type="button" .small data-filter="all" aria-pressed="true" { "Everything" }
                button type="button" .small data-filter="reveals" aria-pressed="false" { "Rolls and reveals" }
                button type="button" .small data-filter="talk" aria-pressed="false" { "Talk" }
            }
            ol #log aria-live="polite" aria-relevant="additions" tabindex="0" aria-label="Log" {}
            form #chat .chat autocomplete="off" hidden[!can_talk] {
                label for="chat-text" .sr-only { "Say something to the table" }
                input #chat-text maxlength="500" placeholder="Say something to the table";
                button type="submit" .small #chat-send { "Say" }
                label .check #whisper-box hidden[room["can_whisper"].as_bool() != Some(true)] { input type="checkbox" #whisper; " Whisper to " (host) " only" }
                label .check #whisper-to-box hidden[!whisper_to] {
                    "To "
                    select #whisper-to { option value="" { "Everyone" } }
                }
                p .error #chat-error role="alert" {}
            }
            p .hint #chat-readonly hidden[readonly.is_none()] { (readonly.unwrap_or_default()) }
        }
    }
}

/// The GM's tools: take back a command, seats and links (open while players are still to be
/// invited, as gm.js opens it), the table itself.
pub fn gm_cards(unclaimed: bool) -> Markup {
    html! {
        details .card .fold #undo-card data-open-wide open {
            summary { h2 { "Take back a command" } }
            p .hint { "You can take back the last command while nothing was rolled, drawn or revealed since. Everyone's log says so; nothing is erased." }
            button type="button" #undo .small { "Take back" }
            p .error #undo-error role="alert" {}
        }
        details .card .fold #seats-card open[unclaimed] {
            summary { h2 { "Seats and invite links" } }
            p .hint { "Send each player the invite of their seat. Opening it gives the player's browser its own link, "
                "which you never see. “New link” replaces a seat's link; “Play as NPC” takes the seat over for you "
                "(everyone's log says so) and “Give back” returns it to its player. “Seat a bot” lets a casual or "
                "strong bot play an NPC seat or an empty seat (or your NPCs' part, where the game gives you a seat): "
                "it sees only what that seat sees, and “Take the seat back” ends it at any time. A seat whose player "
                "has a secret choice waiting to be revealed changes hands only after the reveal." }
            div #seats {}
            p .error #seats-error role="alert" {}
        }
        (manage_card())
    }
}

/// Rename, archive, delete or end the table.
fn manage_card() -> Markup {
    html! {
        details .card .fold #manage-card {
            summary { h2 { "This table" } }
            form #rename .inline {
                label for="rename-title" { "Name" }
                input #rename-title maxlength="120";
                button type="submit" .small { "Rename" }
            }
            p {
                button type="button" #archive .small { "Archive" } " "
                button type="button" #delete .small .danger { "Delete for good" } " "
                button type="button" #close-table .small { "End the table and reveal the secret" }
            }
            p .hint { "Archived tables take no moves or talk until you bring them back; they move to “Archived” in your lobby." }
            p .error #manage-error role="alert" {}
            (super::week::week_card())
        }
    }
}

/// A player's own card: a one-time link that moves their seat to another device of theirs.
pub fn move_card(host: &str) -> Markup {
    html! {
        details .card .fold #move-card {
            summary { h2 { "Play on another device" } }
            p .hint { "Make a one-time link and open it on your phone, tablet or other computer: your seat moves there, "
                "and this page stops playing it. Only you see the link, not " (host) "; a newer link replaces an older one." }
            button type="button" #move-make .small { "Make a link to move my seat" }
            p #move-link-box hidden {
                input #move-link readonly aria-label="Link that moves your seat to another device";
                " " button type="button" #move-copy .small { "Copy" }
            }
        }
    }
}

/// Verifiable dice.
pub fn fair_card(id: &str, key: &str) -> Markup {
    html! {
        details .card .fold #fair-card {
            summary { h2 { "Fair dice" } " " span .fair-summary #fair-summary {} }
            p .hint { "Every roll, draw and shuffle comes from the server's secret, sealed when the table was made, mixed with the seeds "
                "the players' pages add. The secret is revealed when the table ends; then anyone can check every roll with " code { "clash verify" } ". "
                "This page checks too: the log's chain as it grows, and every roll and draw once the secret is out." }
            // The check's script, which the table's script loads once the page has (app.js).
            div #fair-check .fair-check role="status" aria-live="polite"
                data-script=(super::assets::url(&super::Sources::SHARED, "/assets/fair-check.js")) {
                p .check .wait { "Checking the log…" }
            }
            dl .fair {
                dt { "Sealed secret (SHA-256)" } dd { code #commitment {} }
                dt { "Log head" } dd { code #head {} }
                dt { "Seeds" } dd #seeds {}
                dt { "Secret" } dd #secret { "revealed when the table ends" }
            }
            p #seed-box hidden {
                label for="my-seed" { "Your seed" } " "
                input #my-seed maxlength="64" spellcheck="false"; " "
                button type="button" #seed-send .small { "Use this seed" }
            }
            p { a #export href=(format!("/api/tables/{id}/export?key={key}")) download=(format!("clash-{id}.json")) { "Download the table's record" } }
            p .error #fair-error role="alert" {}
        }
    }
}

/// The rules sheet and the confirmation dialog.
pub fn dialogs() -> Markup {
    html! {
        dialog #rules-sheet .sheet aria-labelledby="rules-heading" {
            div .sheet-bar {
                h2 #rules-heading { "Rules" }
                button type="button" .small #rules-close { "Close" }
            }
            div #rules-body .rules { "Loading the rules…" }
        }
        dialog #confirm .confirm aria-labelledby="confirm-text" {
            form method="dialog" {
                p #confirm-text {}
                div .buttons {
                    button value="no" .small { "Cancel" }
                    button value="yes" .small .primary-inline #confirm-yes { "Yes, do it" }
                }
            }
        }
    }
}
