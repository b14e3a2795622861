//! How a table starts ([`Setup`]): who plays, the characters already made, the countdowns, an
//! established campaign, and for a position, the conflict under way.

use clash_core::Seat;
use serde::{Deserialize, Serialize};

use crate::character::CharacterSheet;
use crate::{campaign, position};

/// How a table starts: who plays, the characters already made, and any countdowns.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Setup {
    /// Player seats (1 to 5 of them besides the GM, IT-1). Seats that control a character in
    /// `characters` are added automatically.
    #[serde(default)]
    pub players: Vec<Seat>,
    #[serde(default)]
    pub characters: Vec<CharacterSheet>,
    #[serde(default)]
    pub countdowns: Vec<campaign::CountdownSheet>,
    /// An established campaign's state (session, problem recency, rest limits).
    #[serde(default)]
    pub campaign: campaign::CampaignSetup,
    /// A conflict under way or just ended, for a setup that is a position ([`position`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub conflict: Option<position::ConflictSheet>,
    /// Changes to the rules' numbers ([`variant`](crate::variant)); absent: the rules as written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub variant: Option<clash_core::variant::Variant>,
}
