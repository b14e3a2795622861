//! How a campaign starts, or where it stands ([`Setup`]).

use serde::{Deserialize, Serialize};

use crate::character::CharacterSpec;
use crate::conflict::Conflict;
use crate::owe::{OracleClaim, OweEntry, Return};

/// How a campaign starts, or where it stands (a position, issue 18): the characters with their
/// dice as they stand, the Owe List, and any conflict under way.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Setup {
    pub characters: Vec<CharacterSpec>,
    /// An Owe List carried over from earlier play, oldest first.
    #[serde(default)]
    pub owe_list: Vec<OweEntry>,
    #[serde(default = "first_chapter")]
    pub chapter: u32,
    /// A conflict under way, or ended with consequences still to settle (see
    /// [`crate::position`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub conflict: Option<Conflict>,
    /// WA-17.1: the Oracle claimed for the current chapter, and what was picked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub oracle: Option<OracleClaim>,
    /// WA-17.1 / WA-17.2: characters due back in a later chapter.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub returning: Vec<Return>,
    /// Changes to the rules' numbers ([`crate::variant`]); absent: the rules as written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub variant: Option<clash_core::variant::Variant>,
}

fn first_chapter() -> u32 {
    1
}
