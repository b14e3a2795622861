//! The cards of a table's page. Their ids and classes are what the page scripts and the browser
//! tests find them by.

use maud::{Markup, html};

/// Whose move it is and what just happened (kept in sight at the top of the screen), who is
/// here, and the one live region that tells a screen reader what matters as it happens.
pub fn turn_banner() -> Markup {
    html! {
        section .turn #turn aria-label="Whose move" {
            // Focused (from the script) when the control in use went away and nothing took its
            // place: a screen reader then reads what happens now.
            p #turn-text tabindex="-1" {}
            div #just .just hidden {
                div .just-text {
                    span #just-label .just-label {} " "
                    ol #just-lines .just-lines {}
                }
                button type="button" #just-more .just-more .small aria-controls="just-lines" aria-expanded="false" hidden {}
            }
            a href="#seats-card" #invite-hint .invite-hint hidden { "Invite your players" }
        }
        ul #people .people aria-label="Who is at the table" {}
        p #announcer .sr-only role="status" aria-live="polite" aria-atomic="true" {}
    }
}

/// The game's board, the player's controls and (folded) the text picture; the GM's JSON drawer.
pub fn board_card(owner: bool) -> Markup {
    html! {
        // The board's own headings (a control's title, a board's sections) sit under this one.
        section .card #board-card aria-labelledby="board-heading" {
            h2 .sr-only #board-heading { "The game" }
            div #panel {}
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
pub fn talk_card(host: &str) -> Markup {
    html! {
        details .card .fold #log-card data-open-wide {
            summary { h2 { "Log and table talk" } " " span .badge #log-new hidden {} }
            div .filters role="group" aria-label="Show in the log" {
                button type="button" .small data-filter="all" aria-pressed="true" { "Everything" }
                button type="button" .small data-filter="reveals" aria-pressed="false" { "Rolls and reveals" }
                button type="button" .small data-filter="talk" aria-pressed="false" { "Talk" }
            }
            ol #log aria-live="polite" aria-relevant="additions" tabindex="0" aria-label="Log" {}
            form #chat .chat autocomplete="off" {
                label for="chat-text" .sr-only { "Say something to the table" }
                input #chat-text maxlength="500" placeholder="Say something to the table";
                button type="submit" .small #chat-send { "Say" }
                label .check #whisper-box hidden { input type="checkbox" #whisper; " Whisper to " (host) " only" }
                label .check #whisper-to-box hidden {
                    "To "
                    select #whisper-to { option value="" { "Everyone" } }
                }
                p .error #chat-error role="alert" {}
            }
            p .hint #chat-readonly hidden { "Spectators read the table talk." }
        }
    }
}

/// The GM's tools: take back a command, seats and links, the table itself.
pub fn gm_cards() -> Markup {
    html! {
        details .card .fold #undo-card data-open-wide {
            summary { h2 { "Take back a command" } }
            p .hint { "You can take back the last command while nothing was rolled, drawn or revealed since. Everyone's log says so; nothing is erased." }
            button type="button" #undo .small { "Take back" }
            p .error #undo-error role="alert" {}
        }
        details .card .fold #seats-card {
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
            div #fair-check .fair-check role="status" aria-live="polite" { p .check .wait { "Checking the log…" } }
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
