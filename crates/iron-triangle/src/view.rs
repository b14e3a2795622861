//! What one viewer sees of the table ([`TableView`]), every seat named as the table knows it.

use clash_core::{Seat, Viewer};
use serde::Serialize;

use crate::{campaign, conflict, variant};

/// What one viewer sees of the table.
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "iron-triangle/"))]
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TableView {
    pub viewer: Viewer,
    pub players: Vec<Seat>,
    /// Every seat with the name the table knows it by, so a page never shows a seat id.
    pub seats: Vec<SeatName>,
    pub characters: Vec<conflict::CharacterView>,
    pub campaign: campaign::CampaignView,
    pub conflict: Option<conflict::ConflictView>,
    /// The numbers this table's rules use, when a variant changed them ([`variant`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub rules: Option<variant::Rules>,
}

/// A seat and its name at the table ("the GM", "Ada").
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "iron-triangle/"))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SeatName {
    pub seat: Seat,
    pub name: String,
}
