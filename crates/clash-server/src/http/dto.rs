//! The bodies of the JSON API: what each route reads and answers, as types. The OpenAPI
//! document (`/api/openapi.json`) is generated from these and the routes' annotations, so it
//! cannot drift from what the server does. Game-specific JSON (setups, commands, views, events)
//! is each ruleset's own and appears here as plain JSON objects.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

use crate::seats::SeatInfo;

/// Every refusal: `{"error": {"code", "message", "rule"}}`; a refused request changes nothing.
#[derive(Serialize, ToSchema)]
pub struct ErrorBody {
    pub error: ErrorDetail,
}

#[derive(Serialize, ToSchema)]
pub struct ErrorDetail {
    /// Stable and machine-readable: `bad_key`, `rule`, `secret_pending`, `cross_site`, …
    pub code: String,
    /// What went wrong, in words.
    pub message: String,
    /// The rule a refused command breaks (`"IT-35"`), when a rule refused it.
    pub rule: Option<String>,
}

/// One ruleset this server plays.
#[derive(Serialize, ToSchema)]
pub struct RulesetInfo {
    pub id: String,
    pub name: String,
    pub blurb: String,
    /// Ready-made setups, best first.
    #[schema(value_type = Vec<Object>)]
    pub presets: Value,
}

#[derive(Serialize, ToSchema)]
pub struct Rulesets {
    pub rulesets: Vec<RulesetInfo>,
}

/// `POST /api/tables`: the ruleset, its setup (default: its first ready-made one) and a name.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CreateTable {
    #[serde(default)]
    pub ruleset: Option<String>,
    #[serde(default)]
    #[schema(value_type = Option<Object>)]
    pub setup: Option<Value>,
    #[serde(default)]
    pub title: Option<String>,
}

/// The GM's and the spectators' links, as paths on this server.
#[derive(Serialize, ToSchema)]
pub struct SharedLinks {
    pub owner: Option<String>,
    pub spectator: Option<String>,
}

/// A table just created: its links (the owner key is the GM's; keep it) and its seats.
#[derive(Serialize, ToSchema)]
pub struct Created {
    pub table: String,
    pub title: String,
    pub ruleset: String,
    pub owner_key: String,
    pub spectator_key: String,
    pub links: SharedLinks,
    #[schema(value_type = Vec<Object>)]
    pub seats: Vec<SeatInfo>,
}

/// One seat as the table summary gives it; the GM also sees an unused invite's link.
#[derive(Serialize, ToSchema)]
pub struct SummarySeat {
    #[serde(flatten)]
    #[schema(value_type = Object)]
    pub seat: SeatInfo,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub link: Option<String>,
}

/// What the caller's link is, and every seat's holder.
#[derive(Serialize, ToSchema)]
pub struct Summary {
    pub table: String,
    pub title: String,
    pub ruleset: String,
    /// `owner`, `spectator` or a seat (`p1`).
    pub role: String,
    /// The seat the key acts for, if any.
    #[schema(value_type = Option<String>)]
    pub seat: Option<clash_core::Seat>,
    pub event_count: usize,
    pub seats: Vec<SummarySeat>,
    /// For the GM: the GM's and the watch link.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub links: Option<SharedLinks>,
}

/// The log as one viewer reads it, from `after` on.
#[derive(Serialize, ToSchema)]
pub struct Events {
    pub event_count: usize,
    pub head: String,
    #[schema(value_type = Vec<Object>)]
    pub events: Vec<crate::snapshot::SeenEntry>,
}

/// `POST /api/tables/{id}/commands`.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CommandBody {
    /// The ruleset's command, e.g. `{"type": "commit", …}`.
    #[serde(default)]
    #[schema(value_type = Option<Object>)]
    pub command: Option<Value>,
    /// The seat the GM's link acts as.
    #[serde(rename = "as", default)]
    pub as_seat: Option<String>,
    /// The client's id, the same on every retry: a retry is answered, not applied twice.
    #[serde(default)]
    pub id: Option<String>,
    /// The `event_count` the client last saw: refused if its seat moved since.
    #[serde(default)]
    pub revision: Option<usize>,
    /// Ask first: a command the rules call weighty is refused with its question (409
    /// `confirm`) instead of applied, so the page can ask and send it again without `ask`.
    #[serde(default)]
    pub ask: bool,
}

/// `{"npc": true}`: the GM takes the seat over; `{"npc": false}` (or no body): a new invite.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct LinkBody {
    #[serde(default)]
    pub npc: bool,
}

/// A seat's new invite, or the GM's takeover of it.
#[derive(Serialize, ToSchema)]
pub struct SeatLink {
    #[schema(value_type = String)]
    pub seat: clash_core::Seat,
    pub npc: bool,
    /// The invite's key, for the player (absent for a takeover).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub invite: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub link: Option<String>,
}

/// A replaced shared link.
#[derive(Serialize, ToSchema)]
pub struct NewLink {
    /// `owner` or `spectator`.
    pub link: String,
    pub key: String,
    pub path: String,
}

/// A claimed seat: the player's own key, which nobody else holds.
#[derive(Serialize, ToSchema)]
pub struct Claimed {
    #[schema(value_type = String)]
    pub seat: clash_core::Seat,
    pub key: String,
    pub link: String,
}

/// A one-time link that moves a seat to another device of its player's (shown to them alone).
#[derive(Serialize, ToSchema)]
pub struct MoveLink {
    #[schema(value_type = String)]
    pub seat: clash_core::Seat,
    pub key: String,
    pub link: String,
}

/// `{"seed": "…"}`: 1 to 64 letters, digits, `-`, `_`, `.` or `:`.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SeedBody {
    pub seed: String,
}

/// `{"text": "…"}`, with `"to_gm": true` for a player's whisper to the GM or `"to": "p2"` for
/// the GM's whisper to one seat's player.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Line {
    pub text: String,
    #[serde(default)]
    pub to_gm: bool,
    #[serde(default)]
    pub to: Option<String>,
}

/// `{"n": …}`: the command to take back (refused if it is no longer the last one).
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct UndoBody {
    #[serde(default)]
    pub n: Option<u64>,
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RenameBody {
    pub title: String,
}

/// `{"archived": false}` brings the table back; no body archives it.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ArchiveBody {
    #[serde(default = "yes")]
    pub archived: bool,
}

fn yes() -> bool {
    true
}

/// `{"strength": "strong"}` (default `casual`).
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct BotBody {
    #[serde(default)]
    pub strength: Option<String>,
}

#[derive(Serialize, ToSchema)]
pub struct BotSeated {
    #[schema(value_type = String)]
    pub seat: clash_core::Seat,
    #[schema(value_type = String)]
    pub bot: clash_core::Strength,
}

/// Whether odds in play are on, and the caller's seat's odds when they are.
#[derive(Serialize, ToSchema)]
pub struct Odds {
    pub enabled: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub event_count: Option<usize>,
    #[schema(value_type = Option<Object>)]
    pub odds: Option<Value>,
}

#[derive(Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct OddsSwitch {
    pub enabled: bool,
}
