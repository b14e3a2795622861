//! Playing across a week on the table page: a key's own "Notify me" card (its webhooks and
//! email addresses, their delivery state, its handle in the table channel), the GM's "Clock and
//! reminders" under the banner (how they stand, and a sheet that sets them in minutes, hours or
//! days, or with one tap from ready-made settings), the GM's part of "This table" (the table
//! channel, the delivery log), and the line of times under the banner. `assets/notify.js` fills them in; their ids are what
//! it and the tests find.

use maud::{Markup, html};

/// How long the game has waited on each seat and what is left of its clock, for everyone.
pub fn times_line() -> Markup {
    html! {
        p #times .times hidden {}
    }
}

/// A seat's own targets. Email is offered when the server can send it (the page's
/// script learns that from the settings route and shows the option).
pub fn notify_card() -> Markup {
    html! {
        details .card .fold #notify-card {
            summary { h2 { "Notify me" } }
            (notify_body())
        }
    }
}

/// The GM's own targets, folded inside the GM's card so the tools beside the board stay short.
fn gm_notify() -> Markup {
    html! {
        details .fold #notify-card {
            summary { h4 { "Notify me" } }
            (notify_body())
        }
    }
}

/// What a key's "Notify me" holds: its targets, adding one, and its handle in the channel.
fn notify_body() -> Markup {
    html! {
        p .hint { "Hear of this table where you already are: when it is your move, a reveal, the end, "
            "a mention or a whisper to you. Only what this page may see is ever sent, and never its link." }
        ul #notify-targets .notify-list {}
        form #notify-add .notify-form autocomplete="off" {
            label for="notify-kind" { "Send to" }
            select #notify-kind {
                option value="discord" { "a Discord webhook" }
                option value="slack" { "a Slack webhook" }
                option value="json" { "a webhook (signed JSON)" }
                option value="email" hidden disabled { "an email address" }
            }
            label for="notify-address" .sr-only { "Webhook address or email address" }
            input #notify-address maxlength="500" placeholder="https://discord.com/api/webhooks/…" spellcheck="false";
            button type="submit" .small #notify-save { "Add" }
        }
        p .error #notify-error role="alert" {}
        form #notify-handle .notify-form autocomplete="off" {
            label for="notify-handle-text" { "Your name in the group's channel" }
            input #notify-handle-text maxlength="64" placeholder="<@123456789>" spellcheck="false";
            button type="submit" .small { "Save" }
        }
        p .hint { "When the GM sets a channel for the whole group, it mentions you by this handle (on Discord: "
            "“Copy User ID” with developer mode on, written as <@your id>)." }
    }
}

/// The GM's part of "This table": the table channel, the delivery log and the GM's own
/// targets, folded so the tools beside the board stay short.
pub fn week_card() -> Markup {
    html! {
        details .fold #week-card {
            summary { h3 { "Playing across a week" } }
            h4 { "The group's channel" }
            p .hint { "One webhook for the whole group (a Discord or Slack channel): it tells what a spectator sees "
                "and mentions each player by the handle they give." }
            p #channel-now .hint {}
            form #channel-form .notify-form autocomplete="off" {
                label for="channel-kind" .sr-only { "Kind of channel" }
                select #channel-kind {
                    option value="discord" { "Discord" }
                    option value="slack" { "Slack" }
                    option value="json" { "signed JSON" }
                }
                label for="channel-address" .sr-only { "Channel webhook address" }
                input #channel-address maxlength="500" placeholder="https://discord.com/api/webhooks/…" spellcheck="false";
                button type="submit" .small { "Set the channel" }
                button type="button" .small #channel-remove hidden { "Remove" }
            }
            p .error #channel-error role="alert" {}
            h4 { "Delivery log" }
            p { button type="button" .small #deliveries-load { "Show the latest deliveries" } }
            ul #deliveries .notify-list {}
            (gm_notify())
        }
    }
}

/// A length's unit, for a number beside it.
fn unit_select(id: &str, label: &str) -> Markup {
    html! {
        select id=(id) aria-label=(label) {
            option value="60" { "minutes" }
            option value="3600" selected { "hours" }
            option value="86400" { "days" }
        }
    }
}

/// The GM's reminders and clock where the GM looks first: a button under the turn banner that
/// says how they stand ("Clock and reminders: Off") and opens [`clock_dialog`].
pub fn clock_bar() -> Markup {
    html! {
        p .clock-bar {
            button type="button" .small #clock-open aria-haspopup="dialog" {
                "Clock and reminders: " span #clock-summary { "Off" }
            }
        }
    }
}

/// The GM's reminders and clock: ready-made settings a tap away, and the settings in minutes,
/// hours or days.
pub fn clock_dialog() -> Markup {
    html! {
        dialog #clock-dialog .sheet .clock-sheet aria-labelledby="clock-heading" {
            div .sheet-bar {
                h2 #clock-heading { "Clock and reminders" }
                button type="button" .small #clock-close { "Close" }
            }
            div .sheet-body {
                p .hint { "Remind players when the game has waited on them, or put a clock on each move or each player. "
                    "Everyone's log says when you change these." }
                div .clock-presets role="group" aria-label="Ready-made settings" {
                    button type="button" .small data-preset="evening" { "An evening: remind after 5 minutes" }
                    button type="button" .small data-preset="evening-clock" { "An evening with a clock: 10 minutes a move" }
                    button type="button" .small data-preset="week" { "Across a week: remind after 12 hours, 2 days a move" }
                    button type="button" .small data-preset="off" { "Off" }
                }
                form #clock-form .clock-form {
                    label for="remind-amount" { "Remind a player after" }
                    span .with-unit {
                        input #remind-amount type="number" min="1" max="40320" step="any" placeholder="never";
                        (unit_select("remind-unit", "Unit of the reminder's wait"))
                    }
                    label for="clock-mode" { "Clock" }
                    select #clock-mode {
                        option value="" { "no clock" }
                        option value="budget" { "a time budget for each player" }
                        option value="deadline" { "a deadline for each move" }
                    }
                    label for="clock-amount" { "Time on the clock" }
                    span .with-unit {
                        input #clock-amount type="number" min="1" max="40320" step="any" value="1";
                        (unit_select("clock-unit", "Unit of the clock's time"))
                    }
                    label for="on-expiry" { "When time runs out" }
                    select #on-expiry {
                        option value="remind" { "remind the player" }
                        option value="bot" { "a bot makes a casual move for them" }
                        option value="alert_gm" { "tell me" }
                    }
                    button type="submit" .small #clock-save { "Save" }
                }
                p .hint { "A player whose clock is running out is warned when a quarter of it is left." }
                p .error #clock-error role="alert" {}
            }
        }
    }
}
