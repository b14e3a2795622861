//! The bodies of the notification, clock and lobby routes ([`super::notify`]).

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::notify::rule::ClockRule;
use crate::notify::target::{Format, Kind, Target};

/// One of the caller's own targets, with how delivering to it goes.
#[derive(Serialize, ToSchema)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct TargetView {
    pub id: String,
    pub kind: Kind,
    pub format: Format,
    /// The webhook URL, the email address or the handle, as set (shown to its owner only).
    pub address: String,
    /// A JSON webhook's signing key: check `X-Clash-Signature` with it (docs/server.md).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub secret: Option<String>,
    /// Failed attempts since the last delivery that went through.
    pub failures: i64,
    /// Why the last attempt failed, if one did.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub last_error: Option<String>,
    /// When (ms since the Unix epoch).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub last_error_at: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub last_ok_at: Option<i64>,
}

impl From<Target> for TargetView {
    fn from(t: Target) -> Self {
        TargetView {
            secret: (t.format == Format::Json).then_some(t.secret),
            id: t.id,
            kind: t.kind,
            format: t.format,
            address: t.address,
            failures: t.failures,
            last_error: t.last_error,
            last_error_at: t.last_error_at,
            last_ok_at: t.last_ok_at,
        }
    }
}

/// What the caller's key hears of this table, and where.
#[derive(Serialize, ToSchema)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct NotifySettings {
    /// The caller's own webhooks and email addresses.
    pub targets: Vec<TargetView>,
    /// How the table channel mentions the caller's player.
    pub handle: Option<String>,
    /// The table channel (shown to the GM only).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub channel: Option<TargetView>,
    /// The server can send email (its host set up an SMTP relay).
    pub email: bool,
    /// Personal targets one key may have.
    pub per_key: usize,
}

/// `POST …/notify/targets`: `{"kind": "webhook", "format": "discord", "address": "https://…"}`,
/// `{"kind": "email", "address": "ada@example.org"}`, or (the GM) `{"kind": "channel", …}`.
#[derive(Serialize, Deserialize, ToSchema)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(deny_unknown_fields)]
pub struct NewTarget {
    /// `webhook`, `email` or `channel`.
    pub kind: String,
    /// For a webhook or channel: `discord`, `slack` or `json` (default `json`).
    #[serde(default)]
    pub format: Option<String>,
    pub address: String,
}

/// `PUT …/notify/handle`: how the table channel mentions the caller (`null` removes it).
#[derive(Serialize, Deserialize, ToSchema)]
#[schema(example = json!({"handle": "@ada"}))]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(deny_unknown_fields)]
pub struct HandleBody {
    pub handle: Option<String>,
}

/// One delivery, for the GM.
#[derive(Serialize, ToSchema)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Delivery {
    /// When it ended (ms since the Unix epoch).
    pub at: i64,
    /// `webhook (discord) 1a2b3c…`: the kind, format and id of the target, never its address.
    pub target: String,
    /// Whom it was for: a seat's name, `the GM`, or `the table`.
    pub to: String,
    /// What it told: `your_move`, `reveal`, `ended`, `mention`, `whisper`, `reminder`, …
    pub kinds: Vec<String>,
    /// `sent` or `failed`.
    pub outcome: String,
    pub detail: String,
}

#[derive(Serialize, ToSchema)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct DeliveryLog {
    /// Newest first.
    pub deliveries: Vec<Delivery>,
}

/// One seat's clock, as everyone at the table may see it (times in ms since the Unix epoch).
#[derive(Serialize, ToSchema)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct SeatClock {
    pub seat: String,
    pub name: String,
    /// The game waits on this seat now.
    pub waiting: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub waiting_since: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub remind_at: Option<i64>,
    /// When the seat's clock runs out, while it waits.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub runs_out_at: Option<i64>,
    /// Time spent waited on so far (counts against a budget clock).
    pub spent_ms: i64,
    /// What is left of a budget clock.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub budget_left_ms: Option<i64>,
}

#[derive(Serialize, ToSchema)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ClockView {
    pub rule: ClockRule,
    pub seats: Vec<SeatClock>,
    /// The server's time when this was answered.
    pub now: i64,
}

/// One table a browser keeps a link to.
#[derive(Serialize, Deserialize, ToSchema)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(deny_unknown_fields)]
pub struct KeptLink {
    pub id: String,
    pub key: String,
}

/// `POST /api/moves`: the tables a lobby keeps links to.
#[derive(Serialize, Deserialize, ToSchema)]
#[schema(example = json!({"tables": [{"id": "0a1b2c3d4e5f", "key": "00112233445566778899aabbccddeeff"}]}))]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(deny_unknown_fields)]
pub struct MovesBody {
    /// At most 50.
    pub tables: Vec<KeptLink>,
}

/// Whether a kept table waits on its key.
#[derive(Serialize, ToSchema)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct TableMove {
    pub id: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub title: Option<String>,
    /// The game waits on this key's seat (or, for the GM, on a seat the GM plays).
    pub yours: bool,
    /// The key's turn line ("Your move", "Waiting for Ada").
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub text: Option<String>,
    /// Why this table could not be read with this key (`bad_key`, `unknown_table`, …).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub error: Option<String>,
}

#[derive(Serialize, ToSchema)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Moves {
    /// The tables waiting on their key first, in the order asked; then the others.
    pub tables: Vec<TableMove>,
}
