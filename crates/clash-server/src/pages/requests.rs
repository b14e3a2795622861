//! The JSON bodies the page scripts send, described for TypeScript (`src/assets/types/`) and
//! checked against the server by the server tests (`requests`): every body, with every field it may carry, is sent to its
//! route and taken. The routes refuse unknown fields, so a field renamed on either side fails
//! this test (or, on the page's side, `tsc`).

use clash_core::{Seat, Strength};
use serde::Serialize;

use ts_rs::TS;

/// `POST /api/tables/{id}/commands`: one command as a seat (`as`, for the GM's page playing
/// another seat), with the page's id for it and the log length the page has seen.
#[derive(Serialize, TS)]
pub struct CommandRequest<C> {
    pub command: C,
    #[serde(rename = "as", skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub as_seat: Option<Seat>,
    pub id: String,
    pub revision: u64,
    /// Ask first: a weighty command is refused with its question instead of applied.
    pub ask: bool,
}

/// `POST /api/tables/{id}/chat`: a line of table talk, or a whisper.
#[derive(Serialize, TS)]
pub struct ChatLine {
    pub text: String,
    pub to_gm: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub to: Option<Seat>,
}

/// `POST /api/tables/{id}/seed`: this seat's seed for the dice.
#[derive(Serialize, TS)]
pub struct SeedRequest {
    pub seed: String,
}

/// `POST /api/tables/{id}/undo`: the command the GM takes back.
#[derive(Serialize, TS)]
pub struct UndoRequest {
    pub n: u64,
}

/// `POST /api/tables/{id}/rename`.
#[derive(Serialize, TS)]
pub struct RenameRequest {
    pub title: String,
}

/// `POST /api/tables/{id}/archive`.
#[derive(Serialize, TS)]
pub struct ArchiveRequest {
    pub archived: bool,
}

/// `POST /api/tables/{id}/seats/{seat}/link`: a new invite, or (`npc`) the GM takes the seat.
#[derive(Serialize, TS)]
pub struct LinkRequest {
    pub npc: bool,
}

/// `POST /api/tables/{id}/seats/{seat}/bot`: seat a bot of this strength.
#[derive(Serialize, TS)]
pub struct BotRequest {
    pub strength: Strength,
}

/// `PUT /api/tables/{id}/odds`: the GM's switch for odds in play.
#[derive(Serialize, TS)]
pub struct OddsRequest {
    pub enabled: bool,
}

/// Every request body, written under the types' directory.
pub fn export(cfg: &ts_rs::Config) {
    CommandRequest::<()>::export_all(cfg).expect("exports");
    ChatLine::export_all(cfg).expect("exports");
    SeedRequest::export_all(cfg).expect("exports");
    UndoRequest::export_all(cfg).expect("exports");
    RenameRequest::export_all(cfg).expect("exports");
    ArchiveRequest::export_all(cfg).expect("exports");
    LinkRequest::export_all(cfg).expect("exports");
    BotRequest::export_all(cfg).expect("exports");
    OddsRequest::export_all(cfg).expect("exports");
}
