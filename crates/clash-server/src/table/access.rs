//! What a key is at a table, and what everyone may know of each seat: the rights a key has
//! ([`Access`]) and who holds a seat ([`Holder`], [`SeatInfo`]). Worked out from the table's
//! links under its lock (see [`crate::table::seats`]).

use clash_core::{Seat, Strength, Viewer};
use serde::Serialize;

use crate::store::{LinkChange, StoredLink};
use crate::table::links::Role;

/// Who holds a seat, as everyone may know it.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Holder {
    /// The GM's own seat.
    Owner,
    /// The GM plays it.
    Npc,
    /// A player has claimed it.
    Player,
    /// An invite is out, not yet used.
    Invited,
    Open,
    /// A bot the GM seated plays it.
    Bot,
}

/// One seat of the table and who holds it.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Debug, Clone, Serialize)]
pub struct SeatInfo {
    pub seat: Seat,
    pub holder: Holder,
    /// The GM played the seat after taking it from a player, who can have it back.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub suspended: bool,
    /// The invite's key, shown to the owner only while the invite is unused.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,
    /// How well the seat's bot plays, while a bot holds it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bot: Option<Strength>,
    /// Who holds the seat once its bot gets up: the GM (an NPC) or nobody.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub under: Option<Holder>,
}

/// What a key may do at a table right now.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Access {
    pub role: Role,
    /// The seat it acts as, if any.
    pub seat: Option<Seat>,
    /// What it sees.
    pub viewer: Viewer,
    /// A player's key while the GM plays the seat: it only watches.
    pub suspended: bool,
}

/// Who a key contributes seeds as: the GM's link as `gm`, a player as their seat.
pub fn contributor(access: &Access) -> Option<String> {
    match (access.role, access.suspended) {
        (Role::Owner, _) => Some(Seat::Gm.to_string()),
        (Role::Seat(s), false) => Some(s.to_string()),
        _ => None,
    }
}

impl Access {
    /// Rights that see only what everyone sees (for an answer that came from no key).
    pub fn nobody() -> Access {
        Access {
            role: Role::Spectator,
            seat: None,
            viewer: Viewer::Spectator,
            suspended: false,
        }
    }
}

/// Apply one link change to a table's links.
pub fn apply_link(links: &mut Vec<StoredLink>, change: LinkChange) {
    match change {
        LinkChange::RemoveRole(role) => links.retain(|l| l.role != role),
        LinkChange::Remove(key) => links.retain(|l| l.key != key),
        LinkChange::Add(link) => links.push(link),
        LinkChange::SetStatus { key, status } => {
            if let Some(l) = links.iter_mut().find(|l| l.key == key) {
                l.status = status;
            }
        }
        // Rows kept beside the links, not the links themselves.
        LinkChange::Follow { .. } | LinkChange::Claimed { .. } => {}
    }
}
