//! The bodies of the JSON API: what each route reads and answers, as types. The OpenAPI
//! document (`/api/openapi.json`) is generated from these and the routes' annotations, so it
//! cannot drift from what the server does. Game-specific JSON (setups, commands, views, events)
//! is each ruleset's own and appears here as plain JSON objects.
//!
//! Request bodies are described exactly as the server reads them: unknown fields refused
//! (`additionalProperties: false`), fields the handler needs required, text and counts within
//! the bounds the server checks ([`super::schemas`]). They are also `Serialize`, so the tests
//! send the very types the server reads.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

use crate::error::Refusal;
use crate::table::access::SeatInfo;

/// Every refusal: `{"error": {"code", "message", "rule"}}`; a refused request changes nothing.
#[derive(Serialize, Deserialize, ToSchema)]
pub struct ErrorBody {
    pub error: ErrorDetail,
    /// With `invalid_form`: every problem of the form, each at its field and naming its rule.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Vec<Object>>)]
    pub problems: Option<Vec<Value>>,
}

#[derive(Serialize, Deserialize, ToSchema)]
pub struct ErrorDetail {
    /// Stable and machine-readable: `bad_key`, `rule`, `secret_pending`, `cross_site`, …
    #[schema(value_type = Refusal)]
    pub code: String,
    /// What went wrong, in words.
    pub message: String,
    /// The rule a refused command breaks (`"IT-35"`), when a rule refused it.
    pub rule: Option<String>,
}

/// The refusal codes, for the document: a closed set of strings.
impl utoipa::PartialSchema for Refusal {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        let codes: Vec<&str> = Refusal::all().map(Refusal::code).collect();
        utoipa::openapi::schema::ObjectBuilder::new()
            .schema_type(utoipa::openapi::schema::Type::String)
            .enum_values(Some(codes))
            .description(Some(
                "Why the request was refused; each operation lists its own.",
            ))
            .build()
            .into()
    }
}

impl ToSchema for Refusal {
    fn name() -> std::borrow::Cow<'static, str> {
        "RefusalCode".into()
    }
}

/// Where the served document names the rulesets a server plays: a new table's ruleset, and
/// (those with forms) the form's ruleset and the ruleset a form is checked against.
pub fn name_rulesets(doc: &mut Value, all: &[&str], with_forms: &[&str]) {
    let schemas = &mut doc["components"]["schemas"];
    schemas["CreateTable"]["properties"]["ruleset"]["enum"] = all.into();
    // The example names a game this server plays (the server's sources name none).
    if let Some(first) = all.first() {
        schemas["CreateTable"]["example"] =
            serde_json::json!({"ruleset": first, "title": "Friday night"});
    }
    schemas["FormBody"]["properties"]["ruleset"]["enum"] = with_forms.into();
    let check = &mut doc["paths"][super::routes::CHECK_FORM.path]["post"]["parameters"];
    for p in check.as_array_mut().into_iter().flatten() {
        if p["name"] == "id" {
            p["schema"]["enum"] = with_forms.into();
        }
    }
}

/// One ruleset this server plays.
#[derive(Serialize, Deserialize, ToSchema)]
pub struct RulesetInfo {
    pub id: String,
    pub name: String,
    pub blurb: String,
    /// Ready-made setups, best first.
    #[schema(value_type = Vec<Object>)]
    pub presets: Value,
}

#[derive(Serialize, Deserialize, ToSchema)]
pub struct Rulesets {
    pub rulesets: Vec<RulesetInfo>,
}

/// `POST /api/tables`: the ruleset, its setup (default: its first ready-made one) and a name.
#[derive(Default, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CreateTable {
    /// The ruleset's id, from `GET /api/rulesets`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(value_type = String, required = true)]
    pub ruleset: Option<String>,
    /// The ruleset's own setup (see each ruleset's `presets`); left out or null: its first
    /// ready-made one. The ruleset refuses one that does not fit it (400 `malformed`) or that
    /// its rules do not allow (422 `rule`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Object>)]
    pub setup: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(schema_with = super::schemas::new_title)]
    pub title: Option<String>,
}

/// The GM's and the spectators' links, as paths on this server.
#[derive(Serialize, Deserialize, ToSchema)]
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
    pub events: Vec<crate::view::snapshot::SeenEntry>,
}

/// `POST /api/tables/{id}/commands`.
#[derive(Default, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CommandBody {
    /// The ruleset's command, one of the view's `legal[].command` (e.g. `{"type": "commit",
    /// …}`). The ruleset refuses one it cannot read (400 `malformed`) and the rules one they
    /// do not allow now (422 `rule`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Object, required = true)]
    pub command: Option<Value>,
    /// The seat the GM's link acts as (`p2`); empty or null: its own.
    #[serde(rename = "as", default, skip_serializing_if = "Option::is_none")]
    pub as_seat: Option<String>,
    /// The client's id, the same on every retry: a retry is answered, not applied twice.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(schema_with = super::schemas::command_id)]
    pub id: Option<String>,
    /// The `event_count` the client last saw: refused if its seat moved since.
    #[serde(
        default,
        deserialize_with = "super::whole::optional",
        skip_serializing_if = "Option::is_none"
    )]
    #[schema(schema_with = revision)]
    pub revision: Option<usize>,
    /// Ask first: a command the rules call weighty is refused with its question (409
    /// `confirm`) instead of applied, so the page can ask and send it again without `ask`.
    #[serde(default, skip_serializing_if = "is_false")]
    pub ask: bool,
}

fn revision() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
    super::schemas::count(
        "The `event_count` the client last saw: refused if its seat moved since.",
        true,
    )
}

fn is_false(b: &bool) -> bool {
    !b
}

impl CommandBody {
    /// A command as its seat's own key sends it.
    pub fn of(command: Value) -> CommandBody {
        CommandBody {
            command: Some(command),
            ..CommandBody::default()
        }
    }
}

/// `{"npc": true}`: the GM takes the seat over; `{"npc": false}` (or no body): a new invite.
#[derive(Default, Serialize, Deserialize, ToSchema)]
#[schema(example = json!({"npc": false}))]
#[serde(deny_unknown_fields)]
pub struct LinkBody {
    #[serde(default)]
    pub npc: bool,
}

/// A seat's new invite, or the GM's takeover of it.
#[derive(Serialize, Deserialize, ToSchema)]
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
#[derive(Serialize, Deserialize, ToSchema)]
pub struct NewLink {
    /// `owner` or `spectator`.
    pub link: String,
    pub key: String,
    pub path: String,
}

/// A claimed seat: the player's own key, which nobody else holds.
#[derive(Serialize, Deserialize, ToSchema)]
pub struct Claimed {
    #[schema(value_type = String)]
    pub seat: clash_core::Seat,
    pub key: String,
    pub link: String,
}

/// A one-time link that moves a seat to another device of its player's (shown to them alone).
#[derive(Serialize, Deserialize, ToSchema)]
pub struct MoveLink {
    #[schema(value_type = String)]
    pub seat: clash_core::Seat,
    pub key: String,
    pub link: String,
}

/// `{"seed": "…"}`: 1 to 64 letters, digits, `-`, `_`, `.` or `:`.
#[derive(Serialize, Deserialize, ToSchema)]
#[schema(example = json!({"seed": "my-lucky-seed"}))]
#[serde(deny_unknown_fields)]
pub struct SeedBody {
    #[schema(schema_with = super::schemas::seed)]
    pub seed: String,
}

/// `{"text": "…"}`, with `"to_gm": true` for a player's whisper to the GM or `"to": "p2"` for
/// the GM's whisper to one seat's player (not both).
#[derive(Default, Serialize, Deserialize, ToSchema)]
#[schema(example = json!({"text": "Shall we begin?"}))]
#[serde(deny_unknown_fields)]
pub struct Line {
    #[schema(schema_with = super::schemas::talk)]
    pub text: String,
    #[serde(default, skip_serializing_if = "is_false")]
    pub to_gm: bool,
    /// The seat whose player the GM whispers to (`p2`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to: Option<String>,
}

impl Line {
    /// A line for the whole table.
    pub fn said(text: &str) -> Line {
        Line {
            text: text.into(),
            ..Line::default()
        }
    }
}

/// `{"n": …}`: the command to take back (refused if it is no longer the last one).
#[derive(Default, Serialize, Deserialize, ToSchema)]
#[schema(example = json!({}))]
#[serde(deny_unknown_fields)]
pub struct UndoBody {
    #[serde(
        default,
        deserialize_with = "super::whole::optional",
        skip_serializing_if = "Option::is_none"
    )]
    #[schema(schema_with = undo_number)]
    pub n: Option<u64>,
}

fn undo_number() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
    super::schemas::count(
        "The number of the command to take back (refused if it is no longer the last one).",
        true,
    )
}

#[derive(Serialize, Deserialize, ToSchema)]
#[schema(example = json!({"title": "Sunday afternoon"}))]
#[serde(deny_unknown_fields)]
pub struct RenameBody {
    #[schema(schema_with = super::schemas::title)]
    pub title: String,
}

/// `{"archived": false}` brings the table back; no body archives it.
#[derive(Serialize, Deserialize, ToSchema)]
#[schema(example = json!({"archived": false}))]
#[serde(deny_unknown_fields)]
pub struct ArchiveBody {
    #[serde(default = "yes")]
    pub archived: bool,
}

fn yes() -> bool {
    true
}

/// `{"strength": "strong"}` (default `casual`).
#[derive(Default, Serialize, Deserialize, ToSchema)]
#[schema(example = json!({"strength": "strong"}))]
#[serde(deny_unknown_fields)]
pub struct BotBody {
    /// `casual` (the default) or `strong`, in any case, surrounding whitespace ignored.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(schema_with = strength)]
    pub strength: Option<String>,
}

fn strength() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
    let types = [
        utoipa::openapi::schema::Type::String,
        utoipa::openapi::schema::Type::Null,
    ];
    utoipa::openapi::schema::ObjectBuilder::new()
        .schema_type(utoipa::openapi::schema::SchemaType::from_iter(types))
        .pattern(Some(
            r"^\s*([cC][aA][sS][uU][aA][lL]|[sS][tT][rR][oO][nN][gG])\s*$",
        ))
        .description(Some("`casual` (the default) or `strong`."))
        .build()
        .into()
}

#[derive(Serialize, Deserialize, ToSchema)]
pub struct BotSeated {
    #[schema(value_type = String)]
    pub seat: clash_core::Seat,
    #[schema(value_type = String)]
    pub bot: clash_core::Strength,
}

/// Whether odds in play are on, and the caller's seat's odds when they are.
#[derive(Serialize, Deserialize, ToSchema)]
pub struct Odds {
    pub enabled: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub event_count: Option<usize>,
    #[schema(value_type = Option<Object>)]
    pub odds: Option<Value>,
}

#[derive(Deserialize, Serialize, ToSchema)]
#[schema(example = json!({"enabled": true}))]
#[serde(deny_unknown_fields)]
pub struct OddsSwitch {
    pub enabled: bool,
}
