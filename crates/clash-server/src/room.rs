//! The table around the game, as one viewer sees it: whose move it is, who is here, the
//! table's name and whether it is archived, and what this viewer may do besides playing
//! (talk, whisper, take back a command).
//!
//! Everything here comes from the ruleset's [`clash_core::Status`] and seat names, the table
//! log and the open streams: no ruleset is known by name.

use clash_core::Seat;
use serde::Serialize;

use crate::error::ApiError;
use crate::links::Role;
use crate::log::TableEvent;
use crate::tables::{Access, Holder, Item, Play, Table};

/// A seat by name.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Named {
    pub seat: Seat,
    pub name: String,
}

/// Whose move it is, for this viewer.
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
#[derive(Debug, Clone, Serialize)]
pub struct Person {
    pub seat: Seat,
    pub name: String,
    pub holder: Holder,
    pub here: bool,
}

/// What the GM may take back now.
#[derive(Debug, Clone, Serialize)]
pub struct UndoOffer {
    /// The command that would be taken back, if any may be.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub n: Option<u64>,
    /// "Take back Ada's last command", or why nothing can be taken back.
    pub text: String,
}

/// The room around the game, for one viewer.
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

/// The table's name now: the latest rename, else the name it was created with.
pub(crate) fn title(table: &Table, play: &Play) -> String {
    play.items
        .iter()
        .rev()
        .find_map(|i| match i {
            Item::Table(TableEvent::Renamed { title }) => Some(title.clone()),
            _ => None,
        })
        .unwrap_or_else(|| table.title.clone())
}

/// Whether the GM has archived the table (and not brought it back).
pub(crate) fn archived(play: &Play) -> bool {
    play.items
        .iter()
        .rev()
        .find_map(|i| match i {
            Item::Table(TableEvent::Archived) => Some(true),
            Item::Table(TableEvent::Unarchived) => Some(false),
            _ => None,
        })
        .unwrap_or(false)
}

/// Refuse play and talk at an archived table.
pub(crate) fn check_in_play(play: &Play) -> Result<(), ApiError> {
    if archived(play) {
        return Err(ApiError::conflict(
            "archived",
            "the GM has archived this table; it takes no moves or talk until the GM brings it back",
        ));
    }
    Ok(())
}

/// For a page that asks first: refuse a weighty command with its question, but only once the
/// rules would take it (tried on a copy of the game with the chance it would get), so nobody
/// is asked about a command that is then refused. Nothing of the trial leaves this function.
pub(crate) fn ask_first(
    table: &Table,
    play: &Play,
    seat: Seat,
    command: &serde_json::Value,
    n: u64,
) -> Result<(), ApiError> {
    let Some(question) = play.game.confirm(seat, command) else {
        return Ok(());
    };
    let mut trial = play.game.boxed_clone();
    let mut chance = table.chance_for(play, n);
    trial
        .command(seat, command, chance.as_mut())
        .map_err(ApiError::game)?;
    Err(ApiError::conflict("confirm", question))
}

/// "Ada", "Ada and Bo", "Ada, Bo and the GM".
pub fn and_list(names: &[String]) -> String {
    match names {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

fn turn(play: &Play, access: &Access, archived: bool) -> Turn {
    let status = play.game.status();
    let named = |s: Seat| Named {
        seat: s,
        name: play.game.seat_name(s),
    };
    let owner = access.role == Role::Owner;
    let yours = access.seat.is_some_and(|s| status.waiting_for.contains(&s));
    let npc: Vec<Named> = status
        .waiting_for
        .iter()
        .filter(|s| owner && Some(**s) != access.seat && play.holder(**s) == Holder::Npc)
        .map(|s| named(*s))
        .collect();
    let others: Vec<String> = status
        .waiting_for
        .iter()
        .filter(|s| Some(**s) != access.seat)
        .map(|s| play.game.seat_name(*s))
        .collect();
    let text = match (&status.over, play.closed, archived) {
        (Some(how), _, _) => format!("Game over: {how}"),
        (None, true, _) => "The table has ended.".into(),
        (None, false, true) => "The GM has archived this table.".into(),
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
        over: status.over,
        text,
    }
}

/// The room as `access` sees it.
pub(crate) fn view(table: &Table, play: &Play, access: &Access) -> RoomView {
    let archived = archived(play);
    let owner = access.role == Role::Owner;
    let player = matches!(access.role, Role::Seat(_));
    let me = match access.role {
        Role::Owner => "the GM".to_string(),
        Role::Seat(s) => play.game.seat_name(s),
        Role::Spectator => "a spectator".into(),
    };
    let role = match access.role {
        Role::Owner => "gm",
        Role::Seat(_) if access.suspended => "watching",
        Role::Seat(_) => "player",
        Role::Spectator => "spectator",
    };
    let people = play
        .seat_list(false)
        .into_iter()
        .map(|info| Person {
            seat: info.seat,
            name: play.game.seat_name(info.seat),
            here: table.presence.is_here(&info.seat.to_string())
                || (info.seat == Seat::Gm && table.presence.is_here("gm")),
            holder: info.holder,
        })
        .collect();
    let open = !archived;
    RoomView {
        me,
        role,
        turn: turn(play, access, archived),
        people,
        gm_here: table.presence.is_here("gm"),
        spectators: table.presence.count("spectator"),
        archived,
        can_talk: open && (owner || player),
        can_whisper: open && player,
        undo: owner.then(|| crate::undo::offer(play)),
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
