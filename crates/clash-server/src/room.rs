//! The table around the game, as one viewer sees it: whose move it is, who is here, the
//! table's name and whether it is archived, and what this viewer may do besides playing
//! (talk, whisper, take back a command).
//!
//! Everything here comes from the ruleset's [`clash_core::Status`] and seat names, the table's
//! snapshot and who has it open: no ruleset is known by name.

use clash_core::{Seat, Status};
use serde::Serialize;

use crate::links::Role;
use crate::play::{Access, Holder};
use crate::presence::Presence;
use crate::snapshot::Snapshot;

/// A seat by name.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Named {
    pub seat: Seat,
    pub name: String,
}

/// Whose move it is, for this viewer.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Debug, Clone, Serialize)]
pub struct Turn {
    /// The seats the game waits on, by name.
    pub waiting: Vec<Named>,
    /// The game waits on this viewer's own seat.
    pub yours: bool,
    /// For the GM: the seats it plays as NPCs that the game waits on.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub npc: Vec<Named>,
    /// How the game ended, once it has.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub over: Option<String>,
    /// One line for the banner: "Your move", "Waiting for Ada and the GM", "Game over: …".
    pub text: String,
}

/// One seat of the table: who it is, who holds it, and whether they have the table open.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Debug, Clone, Serialize)]
pub struct Person {
    pub seat: Seat,
    pub name: String,
    pub holder: Holder,
    pub here: bool,
}

/// What the GM may take back now.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Debug, Clone, Serialize)]
pub struct UndoOffer {
    /// The command that would be taken back, if any may be.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub n: Option<u64>,
    /// "Take back Ada's last command", or why nothing can be taken back.
    pub text: String,
}

/// The room around the game, for one viewer.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Debug, Clone, Serialize)]
pub struct RoomView {
    /// The name this viewer goes by ("Ada", "the GM", "a spectator").
    pub me: String,
    /// `gm`, `player`, `watching` (a player whose seat the GM plays for now) or `spectator`.
    pub role: &'static str,
    pub turn: Turn,
    pub people: Vec<Person>,
    pub gm_here: bool,
    pub spectators: usize,
    pub archived: bool,
    /// May say things in the table talk (the GM and the players; spectators read).
    pub can_talk: bool,
    /// May whisper to the GM (a player).
    pub can_whisper: bool,
    /// For the GM: the command it could take back now.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub undo: Option<UndoOffer>,
}

/// Who a key reads table talk as: `gm` for the GM's link, its seat for a player (also while
/// the GM plays it), `None` for a spectator.
pub fn reader(access: &Access) -> Option<String> {
    match access.role {
        Role::Owner => Some(Seat::Gm.to_string()),
        Role::Seat(s) => Some(s.to_string()),
        Role::Spectator => None,
    }
}

/// Who a key counts as for presence.
pub fn presence_name(access: &Access) -> String {
    reader(access).unwrap_or_else(|| "spectator".into())
}

/// "Ada", "Ada and Bo", "Ada, Bo and the GM".
pub fn and_list(names: &[String]) -> String {
    match names {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

fn turn(snapshot: &Snapshot, status: &Status, access: &Access) -> Turn {
    let game = snapshot.game();
    let named = |s: Seat| Named {
        seat: s,
        name: game.seat_name(s),
    };
    let owner = access.role == Role::Owner;
    let holder = |s: Seat| {
        snapshot
            .seats()
            .iter()
            .find(|i| i.seat == s)
            .map(|i| i.holder)
    };
    // Nobody's move once the table has ended or while it is archived, whatever the game says.
    let open = status.over.is_none() && !snapshot.closed() && !snapshot.archived();
    let yours = open && access.seat.is_some_and(|s| status.waiting_for.contains(&s));
    let npc: Vec<Named> = status
        .waiting_for
        .iter()
        .filter(|_| open)
        .filter(|s| owner && Some(**s) != access.seat && holder(**s) == Some(Holder::Npc))
        .map(|s| named(*s))
        .collect();
    let others: Vec<String> = status
        .waiting_for
        .iter()
        .filter(|s| Some(**s) != access.seat)
        .map(|s| game.seat_name(*s))
        .collect();
    // The GM's own seat may have a bot playing its NPCs: what is left is the GM's business.
    let helped = access.seat.is_some_and(|s| holder(s) == Some(Holder::Bot));
    let text = match (&status.over, snapshot.closed(), snapshot.archived()) {
        (Some(how), _, _) => format!("Game over: {how}"),
        (None, true, _) => "The table has ended.".into(),
        (None, false, true) => "The GM has archived this table.".into(),
        _ if yours && helped => "Your move: your bot plays the NPCs' part".into(),
        _ if yours && others.is_empty() => "Your move".into(),
        _ if yours => format!("Your move (also waiting for {})", and_list(&others)),
        _ if !npc.is_empty() => format!(
            "Your move as {}",
            and_list(&npc.iter().map(|n| n.name.clone()).collect::<Vec<_>>())
        ),
        _ if others.is_empty() => "Nobody needs to act right now.".into(),
        _ => format!("Waiting for {}", and_list(&others)),
    };
    Turn {
        waiting: status.waiting_for.iter().map(|s| named(*s)).collect(),
        yours,
        npc,
        over: status.over.clone(),
        text,
    }
}

/// The room as `access` sees it, with `presence` as it is now.
pub fn view(snapshot: &Snapshot, presence: &Presence, access: &Access) -> RoomView {
    let game = snapshot.game();
    let archived = snapshot.archived();
    let owner = access.role == Role::Owner;
    let player = matches!(access.role, Role::Seat(_));
    let me = match access.role {
        Role::Owner => "the GM".to_string(),
        Role::Seat(s) => game.seat_name(s),
        Role::Spectator => "a spectator".into(),
    };
    let role = match access.role {
        Role::Owner => "gm",
        Role::Seat(_) if access.suspended => "watching",
        Role::Seat(_) => "player",
        Role::Spectator => "spectator",
    };
    let people = snapshot
        .seats()
        .iter()
        .map(|info| Person {
            seat: info.seat,
            name: game.seat_name(info.seat),
            here: presence.is_here(&info.seat.to_string()),
            holder: info.holder,
        })
        .collect();
    let open = !archived;
    RoomView {
        me,
        role,
        turn: turn(snapshot, snapshot.status(), access),
        people,
        gm_here: presence.is_here("gm"),
        spectators: presence.count("spectator"),
        archived,
        can_talk: open && (owner || player),
        can_whisper: open && player,
        undo: owner.then(|| snapshot.undo_offer().clone()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_listed_in_plain_english() {
        let names = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(and_list(&names(&[])), "");
        assert_eq!(and_list(&names(&["Ada"])), "Ada");
        assert_eq!(and_list(&names(&["Ada", "the GM"])), "Ada and the GM");
        assert_eq!(
            and_list(&names(&["Ada", "Bo", "the GM"])),
            "Ada, Bo and the GM"
        );
    }
}
