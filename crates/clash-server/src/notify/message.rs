//! What a notification says, built from one seat's own view alone.
//!
//! A personal message is made of what that key's page shows: its turn line with what the game
//! asks of it ("Your move: choose your stance."), and the new log lines it may read
//! ([`Snapshot::seen`] for its access) that are news away from the table (a reveal, an outcome
//! such as who won a conflict, a proposal or concession, the end), so it can carry nothing the
//! seat may not see. A table channel is read by the whole group, so its messages are made from
//! what a spectator sees, plus the handles players gave to be mentioned by. A line that holds
//! only while the game waits on a seat ("your move", a reminder, a clock running out) says so
//! ([`Item::waiting`]), so a digest drops it once that seat has moved. No message carries a
//! key: the link is the server's lobby (which keeps the links a browser opened), since a
//! seat's page address *is* its key.

use std::collections::HashMap;

use clash_core::Seat;
use hmac::{Hmac, KeyInit, Mac};
use serde::Serialize;
use serde_json::{Value, json};
use sha2::Sha256;

use crate::log::TableEvent;
use crate::table::play::Access;
use crate::table::presence::Presence;
use crate::view::room::{Turn, view};
use crate::view::snapshot::Snapshot;

/// What happened, by kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum What {
    YourMove,
    Reveal,
    /// An outcome or something put to the table: who won a conflict or a round, a proposal, a
    /// concession, a chapter's end ([`clash_core::Ruleset::news`]).
    News,
    Ended,
    Mention,
    Whisper,
    Reminder,
    /// A seat's clock is running out.
    ClockWarning,
    ClockOut,
    Alert,
}

impl What {
    pub fn as_str(self) -> &'static str {
        match self {
            What::YourMove => "your_move",
            What::Reveal => "reveal",
            What::News => "news",
            What::Ended => "ended",
            What::Mention => "mention",
            What::Whisper => "whisper",
            What::Reminder => "reminder",
            What::ClockWarning => "clock_warning",
            What::ClockOut => "clock_out",
            What::Alert => "alert",
        }
    }
}

/// One thing to tell, in words.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Item {
    pub kind: What,
    pub text: String,
    /// The seat this line is about while the game waits on it: a digest drops the line once
    /// the game no longer does (a move already made is not "your move").
    #[serde(skip)]
    pub waiting: Option<Seat>,
}

/// The longest line of a message; the rest is cut.
const LINE_LIMIT: usize = 300;

pub(crate) fn item(kind: What, text: &str) -> Item {
    let mut cut: String = text.chars().take(LINE_LIMIT).collect();
    if cut.len() < text.len() {
        cut.push('…');
    }
    Item {
        kind,
        text: cut,
        waiting: None,
    }
}

/// A line that holds only while the game waits on `seat`.
pub(crate) fn while_waiting(kind: What, text: &str, seat: Seat) -> Item {
    Item {
        waiting: Some(seat),
        ..item(kind, text)
    }
}

/// The turn line with what the game asks: "Your move: choose your stance."
pub(crate) fn asked_line(turn_text: &str, asked: Option<String>) -> String {
    match asked {
        Some(asked) => format!("{turn_text}: {asked}."),
        None => format!("{turn_text}."),
    }
}

/// A log line as a message tells it: the end of a game says how it ended.
fn told(line: &crate::view::snapshot::SeenEntry) -> String {
    match &line.table {
        Some(TableEvent::GameOver { how }) => format!("The game is over: {how}"),
        _ => line.text.clone(),
    }
}

/// The seat whose move `turn` is for `access`: its own, or for the GM an NPC's it plays.
fn moving_seat(access: &Access, turn: &Turn) -> Seat {
    match (access.seat, turn.npc.first()) {
        (Some(seat), _) if turn.yours => seat,
        (_, Some(npc)) => npc.seat,
        (seat, None) => seat.unwrap_or(Seat::Gm),
    }
}

/// Whether it is this viewer's move (or, for the GM, the move of an NPC it plays).
fn mine(turn: &Turn) -> bool {
    turn.yours || !turn.npc.is_empty()
}

/// `text` mentions `name` as `@name` (case and spaces aside).
pub fn mentions(text: &str, name: &str) -> bool {
    let plain = |s: &str| s.to_lowercase().replace(' ', "");
    let name = plain(name.trim_start_matches("the "));
    !name.is_empty() && plain(text).contains(&format!("@{name}"))
}

/// What `access` is told of the change from `before` to `after`: from its own view alone.
pub fn personal(before: &Snapshot, after: &Snapshot, access: &Access) -> Told {
    let presence = Presence::default();
    let (was, now) = (
        view(before, &presence, access),
        view(after, &presence, access),
    );
    let mut items = Vec::new();
    if mine(&now.turn) {
        let seat = moving_seat(access, &now.turn);
        let asked = after.game().asked(seat);
        // A new wait, or the same wait with a new question (a conflict won while the game
        // waited on a challenge: now a consequence to choose).
        let again = mine(&was.turn) && asked.is_some() && before.game().asked(seat) != asked;
        if !mine(&was.turn) || again {
            let text = asked_line(&now.turn.text, asked);
            items.push(while_waiting(What::YourMove, &text, seat));
        }
    }
    let own = crate::view::room::reader(access);
    for line in after.seen(access, before.revision()) {
        let what = match &line.table {
            _ if line.reveals => Some(What::Reveal),
            _ if line.news => Some(What::News),
            Some(TableEvent::Closed | TableEvent::GameOver { .. }) => Some(What::Ended),
            Some(TableEvent::Whispered { by, .. }) if Some(by) != own.as_ref() => {
                Some(What::Whisper)
            }
            Some(TableEvent::Said { by, text }) if Some(by) != own.as_ref() => {
                mentions(text, &now.me).then_some(What::Mention)
            }
            _ => None,
        };
        if let Some(what) = what {
            items.push(item(what, &told(&line)));
        }
    }
    Told {
        items,
        moved: mine(&was.turn) && !mine(&now.turn),
    }
}

/// What one target is told of a change, and whether a wait of its own ended with it.
pub struct Told {
    pub items: Vec<Item>,
    /// The game waited on this key before the change and no longer does: what is still queued
    /// about that wait is dropped.
    pub moved: bool,
}

/// The seats the game waits on, while the table is open.
pub(crate) fn waiting(s: &Snapshot) -> Vec<Seat> {
    let open = s.status().over.is_none() && !s.closed() && !s.archived();
    if open {
        s.status().waiting_for.clone()
    } else {
        Vec::new()
    }
}

/// What the table channel is told: only what a spectator sees, with players mentioned by their
/// handles; the seat that acted (`actor`) is not pinged.
pub fn channel(
    before: &Snapshot,
    after: &Snapshot,
    actor: Option<Seat>,
    handles: &HashMap<Seat, String>,
) -> Vec<Item> {
    let game = after.game();
    let who = |s: Seat| {
        handles
            .get(&s)
            .map(|h| super::escape::mention(h))
            .unwrap_or_else(|| game.seat_name(s))
    };
    let was = waiting(before);
    let mut items: Vec<Item> = waiting(after)
        .into_iter()
        .filter(|s| !was.contains(s) && Some(*s) != actor)
        .map(|s| {
            let text = match game.asked(s) {
                Some(asked) => format!("{}: it is your move — {asked}.", who(s)),
                None => format!("{}: it is your move.", who(s)),
            };
            while_waiting(What::YourMove, &text, s)
        })
        .collect();
    for line in after.seen(&Access::nobody(), before.revision()) {
        match &line.table {
            _ if line.reveals => items.push(item(What::Reveal, &line.text)),
            _ if line.news => items.push(item(What::News, &line.text)),
            Some(TableEvent::Closed | TableEvent::GameOver { .. }) => {
                items.push(item(What::Ended, &told(&line)))
            }
            Some(TableEvent::Said { text, by }) => {
                let named = game.seats().into_iter().filter(|s| {
                    Some(*s) != actor && *by != s.to_string() && mentions(text, &game.seat_name(*s))
                });
                let names: Vec<String> = named.map(who).collect();
                if !names.is_empty() {
                    let text = format!("{}: {}", names.join(" "), line.text);
                    items.push(item(What::Mention, &text));
                }
            }
            _ => {}
        }
    }
    items
}

/// A message ready to send: to whom, about which table, what happened.
#[derive(Debug, Clone)]
pub struct Message {
    pub table: String,
    pub title: String,
    /// The recipient's name at the table ("Ada", "the GM"), or "the table" for a channel.
    pub to: String,
    pub items: Vec<Item>,
    /// Items left out of a digest that grew too long.
    pub more: usize,
}

impl Message {
    /// The message in plain words, ending with where to look.
    pub fn text(&self, base: Option<&str>) -> String {
        self.compose(base, &mut |text| super::escape::plain(text))
    }

    /// The message with what people wrote (the title, each item) written by `written` for the
    /// format it goes in (see [`super::escape`]); the link to the server as it is.
    pub fn compose(&self, base: Option<&str>, written: &mut dyn FnMut(&str) -> String) -> String {
        let title = written(&self.title);
        let mut out = if self.items.len() > 1 {
            format!(
                "Clash — “{title}” ({} things happened):\n",
                self.items.len() + self.more
            )
        } else {
            format!("Clash — “{title}”:\n")
        };
        for i in &self.items {
            out.push_str(&format!("• {}\n", written(&i.text)));
        }
        if self.more > 0 {
            out.push_str(&format!("• … and {} more\n", self.more));
        }
        out.push_str(&match base {
            Some(base) => format!("Open your seat's page from your tables at {base}/"),
            None => "Open your seat's page from the link you keep.".to_string(),
        });
        out
    }

    /// A one-line summary, for an email's subject: in the server's words alone (nothing a
    /// player wrote, not even the table's title, which the body gives).
    pub fn subject(&self) -> String {
        let first = self.items.first().map_or("news", |i| match i.kind {
            What::YourMove => "your move",
            What::News => "news",
            What::Reminder => "a reminder",
            What::ClockWarning => "your clock is running out",
            What::ClockOut => "a clock ran out",
            What::Whisper => "a whisper",
            What::Mention => "you are mentioned",
            What::Ended => "the table has ended",
            What::Reveal => "a reveal",
            What::Alert => "the GM is needed",
        });
        format!("Clash: {first} at a table you follow")
    }

    /// The body sent to a webhook of `format`.
    pub fn payload(&self, format: super::target::Format, base: Option<&str>, now: i64) -> Value {
        use super::target::Format;
        let plain = super::escape::plain;
        match format {
            // Written for the app it goes to: see super::escape.
            Format::Discord => super::escape::discord(|written| self.compose(base, written)),
            Format::Slack => super::escape::slack(|written| self.compose(base, written)),
            _ => json!({
                "table": self.table,
                "title": self.title,
                "to": self.to,
                "events": self.items.iter().map(|i| Item { kind: i.kind, text: plain(&i.text), waiting: None }).collect::<Vec<_>>(),
                "more": self.more,
                "link": base.map(|b| format!("{b}/")),
                "sent_at": now / 1000,
            }),
        }
    }
}

/// The signature of a JSON webhook's body sent at `timestamp` (seconds): `sha256=` and the hex
/// HMAC-SHA256, keyed with the target's secret (its text), of `"{timestamp}.{body}"`.
pub fn signature(secret: &str, timestamp: i64, body: &[u8]) -> String {
    let mut mac = <Hmac<Sha256> as KeyInit>::new_from_slice(secret.as_bytes())
        .expect("HMAC accepts any key length");
    mac.update(format!("{timestamp}.").as_bytes());
    mac.update(body);
    format!("sha256={}", crate::log::hex(&mac.finalize().into_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mentions_are_at_names() {
        assert!(mentions("hey @Ada, your turn", "Ada"));
        assert!(mentions("@GM look", "the GM"));
        assert!(!mentions("Ada is here", "Ada"));
    }

    #[test]
    fn a_signature_is_hmac_sha256_of_timestamp_and_body() {
        // Checked against: printf '1700000000.{}' | openssl dgst -sha256 -hmac key
        assert_eq!(
            signature("key", 1_700_000_000, b"{}"),
            "sha256=9d713ed406bb7076d4123f0dc2c39d2df5c654ed4b0cd56b52c8b4c940bd63ae"
        );
    }
}
