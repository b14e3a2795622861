//! The table log: every entry a table has ever recorded, in order, each chained to the one
//! before by a hash.
//!
//! An entry is a command (who sent what, and every roll and draw it took), a game event the
//! rules engine decided, or a table event: something that happened at the table rather than in
//! the game (the table was created, a seat changed hands, a client seed was added, the table
//! ended). Later kinds of table event (chat, bots taking seats, undo, renaming) are new variants
//! of [`TableEvent`]; the chain, storage and export handle them unchanged.
//!
//! # Hashes (`clash-log-v1`)
//!
//! ```text
//! salt(pos)   = HMAC-SHA256(server secret, "clash-entry-salt-v1" 0x00 table 0x00 pos (8 bytes BE))
//! digest(pos) = SHA-256("clash-entry-v1" 0x00 salt(pos) canonical-json(entry))
//! hash(pos)   = SHA-256("clash-chain-v1" 0x00 hash(pos − 1) digest(pos))     hash(−1) = 32 zero bytes
//! ```
//!
//! The salt comes from the secret, so before the secret is revealed a digest says nothing about
//! a hidden entry (a stance has few possible values and could otherwise be guessed from its
//! hash). Canonical JSON is compact with object keys sorted, so the same entry always hashes the
//! same whatever order its fields were written in.

mod chain;

use clash_core::{Draw, Seat, Strength};
use serde::{Deserialize, Serialize};
use serde_json::Value;

pub use chain::{
    Chainer, Hash, canonical, chain, commitment, digest, hex, salt, unhex, unhex_hash,
};

/// One entry of the log, exactly as stored and hashed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Entry {
    /// An accepted command. Its events follow it directly.
    Command(CommandEntry),
    /// A game event, unredacted.
    Event { event: Value },
    /// Something that happened at the table.
    Table { event: TableEvent },
}

/// An accepted command and the chance it used.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CommandEntry {
    /// The command's number at this table (0, 1, 2, …): the `command` input of the derivation.
    pub n: u64,
    pub seat: Seat,
    /// Who sent it: the seat's player, or the GM playing the seat.
    pub by: Sender,
    /// The client's command id, if it sent one (retries with it are answered, not applied).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    pub command: Value,
    /// Every roll and pick the command took, in order.
    #[serde(default)]
    pub draws: Vec<Draw>,
}

/// Who sent a command for a seat.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Sender {
    /// The link holder of the seat itself.
    Player,
    /// The GM, for their own seat or an NPC seat.
    Gm,
    /// A bot the GM seated there (see [`TableEvent::BotSeated`]).
    Bot,
}

/// How a table's chance is made.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Chance {
    /// Verifiable: see `clash_core::command_seed`.
    #[serde(rename = "clash-chance-v1")]
    V1,
    /// A table created before verifiable chance: a secret seed the host always knew. Its chain
    /// can be checked, its rolls cannot.
    #[serde(rename = "legacy")]
    Legacy,
}

/// Something that happened at the table, outside the game's rules. Every seat sees these.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum TableEvent {
    /// The first entry: what is played and the commitment to the server secret.
    Created {
        ruleset: String,
        title: String,
        setup: Value,
        commitment: String,
        chance: Chance,
    },
    /// A client seed for chance from here on (`by` is a seat, or `gm` for the GM's link).
    SeedAdded { by: String, seed: String },
    /// A new invite link for a seat; any earlier link or invite for it stops working
    /// (`replaced`: there was one).
    InviteIssued {
        seat: Seat,
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        replaced: bool,
    },
    /// An invite was used: the seat now has its player, with a key only they hold.
    SeatClaimed { seat: Seat },
    /// A seat's player made a one-time link to move the seat to another device of theirs
    /// (shown on their own page alone).
    MoveOffered { seat: Seat },
    /// A seat's player moved it to another device with that link: the same player holds it,
    /// with a new key; the old device's key no longer works.
    SeatMoved { seat: Seat },
    /// The GM plays the seat from now on.
    TakenOver { seat: Seat },
    /// The seat goes back to the player the GM took it from.
    HandedBack { seat: Seat },
    /// The seat's link is gone; nobody plays it.
    LinkRevoked { seat: Seat },
    /// The GM's link (`owner`) or the watch link (`spectator`) was replaced; the old one no
    /// longer works.
    LinkReplaced { link: String },
    /// The GM ended the table: no more commands.
    Closed,
    /// The game is over (as its rules tell): no more commands.
    GameOver { how: String },
    /// The server secret, revealed once the table ended: every roll and draw can be checked.
    SecretRevealed { secret: String },
    /// A line of table talk from `by` (`gm` or a seat), for everyone at the table.
    Said { by: String, text: String },
    /// A line from a player to the GM alone, or (with `to`) from the GM to one seat's player:
    /// only the GM and that seat's player read it, in the live log and in the table's record
    /// (see [`TableEvent::readable_by`]).
    Whispered {
        by: String,
        #[serde(default)]
        text: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        to: Option<Seat>,
    },
    /// The GM took back command `n` (by `seat`, at log position `at`, with its `events` game
    /// events): the game goes on as if it had not been sent. Nothing is deleted: the command and
    /// its events stay in the log, and the game is rebuilt by replaying the log without them.
    /// Allowed only for the last command still standing, when it rolled no dice, drew no card
    /// and revealed nothing.
    Undone {
        n: u64,
        seat: Seat,
        at: u64,
        events: u64,
    },
    /// The GM renamed the table.
    Renamed { title: String },
    /// The GM put the table away: it takes no commands or talk until brought back.
    Archived,
    /// The GM brought an archived table back into play.
    Unarchived,
    /// The GM seated a bot of this strength in an NPC seat or an empty player seat: it plays
    /// the seat from that seat's view alone until the GM takes the seat back.
    BotSeated { seat: Seat, strength: Strength },
    /// The GM took the seat back from its bot: it is the GM's NPC again, or empty.
    BotUnseated { seat: Seat },
    /// The GM switched odds in play on or off: while on, each seat is shown the odds of its
    /// next choice, worked out from its own view.
    OddsSwitched { enabled: bool },
    /// The GM set the table's clock and reminders (see [`crate::notify::rule`]).
    ClockSet {
        rule: crate::notify::rule::ClockRule,
    },
    /// A seat's clock ran out and the GM's settings let a bot move for it: the command that
    /// follows is that bot's casual move.
    ClockRanOut { seat: Seat },
}

/// Who reads the table's talk: the GM, a seat's player (who holds the seat since log position
/// `since`, when they claimed it), or a spectator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reader {
    Gm,
    Player { seat: Seat, since: usize },
    Spectator,
}

/// Who said a line of table talk: `gm` or a seat, by name.
fn speaker(by: &str, name: &dyn Fn(Seat) -> String) -> String {
    by.parse::<Seat>()
        .map_or_else(|_| "Someone".to_string(), |s| capitalised(&name(s)))
}

/// "Ada's", "the GM's", "The Smugglers'" (never "The Smugglers's"); a name already ending in
/// "'s" is left as it is.
pub fn possessive(name: &str) -> String {
    if name.ends_with("'s") || name.ends_with("’s") {
        name.to_string()
    } else if name.ends_with('s') {
        format!("{name}'")
    } else {
        format!("{name}'s")
    }
}

/// `text` with its first letter a capital ("the GM" → "The GM").
pub fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

impl TableEvent {
    /// The event told in words, for every seat's log; `name` gives a seat's name at the table
    /// ("Ada", "the GM").
    pub fn narrate(&self, name: &dyn Fn(Seat) -> String) -> String {
        let seat = |s: &Seat| format!("{} seat", possessive(&name(*s)));
        // The table's creator by the game's own word for it: the GM, or the host in a game
        // without a GM.
        let host = capitalised(&name(Seat::Gm));
        match self {
            TableEvent::Created { .. } => {
                "The table is set. Fair dice: the server has sealed its secret, to be revealed when the table ends (see Fair dice).".into()
            }
            TableEvent::SeedAdded { by, .. } => {
                format!("{} adds a seed to the dice.", speaker(by, name))
            }
            TableEvent::InviteIssued { seat: s, replaced } => match replaced {
                true => format!(
                    "A new invite is issued for {}; the earlier link no longer works.",
                    seat(s)
                ),
                false => format!("An invite is issued for {}.", seat(s)),
            },
            TableEvent::SeatClaimed { seat: s } => format!("A player takes {}.", seat(s)),
            TableEvent::MoveOffered { seat: s } => format!(
                "{} player makes a link to move the seat to another device.",
                capitalised(&possessive(&name(*s)))
            ),
            TableEvent::SeatMoved { seat: s } => format!(
                "{} player moves the seat to another device.",
                capitalised(&possessive(&name(*s)))
            ),
            TableEvent::TakenOver { seat: s } => format!("{host} takes over {}.", seat(s)),
            TableEvent::HandedBack { seat: s } => {
                format!("{} goes back to its player.", capitalised(&seat(s)))
            }
            TableEvent::LinkRevoked { seat: s } => {
                format!("The link for {} is revoked; nobody plays it now.", seat(s))
            }
            TableEvent::LinkReplaced { link } if link == "owner" => {
                format!("{} link is replaced; the old one no longer works.", possessive(&host))
            }
            TableEvent::LinkReplaced { .. } => {
                "The watch link is replaced; the old one no longer works.".into()
            }
            TableEvent::Closed => format!("{host} ends the table."),
            // The rules have just told how it ended; the log need not say it twice.
            TableEvent::GameOver { .. } => {
                "The game is over, so the table closes: no more commands.".to_string()
            }
            TableEvent::Said { by, text } => format!("{}: {text}", speaker(by, name)),
            TableEvent::Whispered { by, text, to: None } => {
                format!("{} (to {} only): {text}", speaker(by, name), name(Seat::Gm))
            }
            TableEvent::Whispered {
                by,
                text,
                to: Some(to),
            } => format!(
                "{} (to {} only): {text}",
                speaker(by, name),
                name(*to)
            ),
            TableEvent::Undone { seat: s, .. } => format!(
                "{host} takes back {} last command: the game goes on as if it had not been sent.",
                match s {
                    Seat::Gm => "their own".to_string(),
                    _ => possessive(&name(*s)),
                }
            ),
            TableEvent::Renamed { title } => format!("{host} renames the table “{title}”."),
            TableEvent::Archived => {
                format!("{host} archives the table: no moves until it is brought back.")
            }
            TableEvent::Unarchived => format!("{host} brings the table back into play."),
            TableEvent::BotSeated { seat: s, strength } => {
                format!("{host} seats a {strength} bot in {}.", seat(s))
            }
            TableEvent::BotUnseated { seat: s } => {
                format!("{host} takes {} back from its bot.", seat(s))
            }
            TableEvent::OddsSwitched { enabled: true } => {
                format!("{host} turns odds in play on: each player is shown the chances of their next choice.")
            }
            TableEvent::OddsSwitched { enabled: false } => {
                format!("{host} turns odds in play off.")
            }
            TableEvent::ClockSet { rule } => rule.narrate(),
            TableEvent::ClockRanOut { seat: s } => format!(
                "The clock of {} has run out: a bot makes a casual move for the seat.",
                seat(s)
            ),
            TableEvent::SecretRevealed { .. } => {
                "The server's secret is revealed: anyone with the table's record can now check every roll and draw (see Fair dice).".into()
            }
        }
    }

    /// Whether `reader` may read this event, logged at position `pos`: everyone may, except a
    /// whisper, which only the GM reads and the player who held the seat it is from or to when
    /// it was said (a seat's next player does not read the whispers of the one before).
    pub fn readable_by(&self, reader: &Reader, pos: usize) -> bool {
        let TableEvent::Whispered { by, to, .. } = self else {
            return true;
        };
        match reader {
            Reader::Gm => true,
            Reader::Spectator => false,
            Reader::Player { seat, since } => {
                let theirs = *by == seat.to_string() || *to == Some(*seat);
                theirs && pos >= *since
            }
        }
    }

    /// Table talk (said or whispered).
    pub fn is_talk(&self) -> bool {
        matches!(self, TableEvent::Said { .. } | TableEvent::Whispered { .. })
    }

    /// This event as everyone sees it before the secret is revealed: the setup can hold what
    /// only the GM may know (an NPC's sheet), so it is left out.
    pub fn public(&self) -> TableEvent {
        match self {
            TableEvent::Created {
                ruleset,
                title,
                commitment,
                chance,
                ..
            } => TableEvent::Created {
                ruleset: ruleset.clone(),
                title: title.clone(),
                setup: Value::Null,
                commitment: commitment.clone(),
                chance: *chance,
            },
            other => other.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_name_ending_in_s_takes_an_apostrophe_alone() {
        assert_eq!(possessive("Ada"), "Ada's");
        assert_eq!(possessive("The Smugglers"), "The Smugglers'");
        assert_eq!(possessive("Ysolde's"), "Ysolde's");
        assert_eq!(
            TableEvent::SeatClaimed {
                seat: Seat::Player(2)
            }
            .narrate(&|_| "The Smugglers".to_string()),
            "A player takes The Smugglers' seat."
        );
    }

    #[test]
    fn entries_serialize_as_tagged_json() {
        let e = Entry::Table {
            event: TableEvent::TakenOver {
                seat: Seat::Player(1),
            },
        };
        assert_eq!(
            serde_json::to_value(&e).unwrap(),
            json!({"kind": "table", "event": {"type": "taken_over", "seat": "p1"}})
        );
        let name = |s: Seat| {
            if s == Seat::Player(1) {
                "Ada".to_string()
            } else {
                "the GM".to_string()
            }
        };
        assert_eq!(
            TableEvent::TakenOver {
                seat: Seat::Player(1)
            }
            .narrate(&name),
            "The GM takes over Ada's seat."
        );
        assert_eq!(
            TableEvent::HandedBack {
                seat: Seat::Player(1)
            }
            .narrate(&name),
            "Ada's seat goes back to its player."
        );
        let seed = TableEvent::SeedAdded {
            by: "gm".into(),
            seed: "00ff".into(),
        };
        // The seed itself belongs in Fair dice, not in the log's words (issue 29).
        assert_eq!(seed.narrate(&name), "The GM adds a seed to the dice.");
    }
}
