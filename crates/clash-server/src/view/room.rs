//! The table around the game, as one viewer sees it: whose move it is, who is here, the
//! table's name and whether it is archived, and what this viewer may do besides playing
//! (talk, whisper, take back a command).
//!
//! Everything here comes from the ruleset's [`clash_core::Status`] and seat names, the table's
//! snapshot and who has it open: no ruleset is known by name.

use clash_core::{Seat, Status};
use serde::Serialize;

use crate::table::access::{Access, Holder};
use crate::table::links::Role;
use crate::table::presence::Presence;
use crate::view::snapshot::{Snapshot, UndoOffer};

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
    /// The seats waited on are alternatives: the first of them to act decides for all.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub any_of: bool,
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

/// The room around the game, for one viewer.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Debug, Clone, Serialize)]
pub struct RoomView {
    /// The name this viewer goes by ("Ada", "the GM", "a spectator").
    pub me: String,
    /// What the table's creator is called in this game: "the GM", or "the host" in a game
    /// without a GM (the game's own name for the GM's seat).
    pub host: String,
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

/// "Ada or Bo", "Ada, Bo or Cy".
pub fn or_list(names: &[String]) -> String {
    match names {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
    }
}

/// One seat the game waits on, as the banner needs it.
#[derive(Debug, Clone)]
pub struct Waiter {
    pub seat: Seat,
    pub name: String,
    /// The seat's name part by part, for a seat known by several (Bo's player, who also
    /// plays Cy): a list of waiters reads "Ada, Bo and Cy".
    pub names: Vec<String>,
    /// The GM plays it as an NPC.
    pub npc: bool,
}

/// What the banner is made from: who waits, and who is looking.
#[derive(Debug, Clone)]
pub struct Banner {
    pub waiting: Vec<Waiter>,
    /// The waiting seats are alternatives: the first to act decides.
    pub any_of: bool,
    /// The seat this viewer acts as, if any.
    pub me: Option<Seat>,
    /// The viewer is the GM.
    pub gm: bool,
    /// A bot plays the viewer's own seat's NPCs (the GM's seat).
    pub helped: bool,
}

impl Banner {
    fn yours(&self) -> bool {
        self.me
            .is_some_and(|m| self.waiting.iter().any(|w| w.seat == m))
    }

    /// For the GM: the NPC seats waited on that this page does not play already.
    fn npcs(&self) -> Vec<&Waiter> {
        let gm = self.gm;
        self.waiting
            .iter()
            .filter(|w| gm && w.npc && Some(w.seat) != self.me)
            .collect()
    }

    /// The others waited on, by the names this viewer knows them by: an NPC is the GM's to
    /// play, so a player reads "the GM (for Mirri the Fox)".
    fn others(&self) -> Vec<String> {
        let rest: Vec<&Waiter> = self
            .waiting
            .iter()
            .filter(|w| Some(w.seat) != self.me && !(self.gm && w.npc))
            .collect();
        let played: Vec<String> = rest
            .iter()
            .filter(|w| w.npc)
            .flat_map(|w| w.names.clone())
            .collect();
        let gm_too = rest.iter().any(|w| w.seat == Seat::Gm);
        let mut names: Vec<String> = rest
            .iter()
            // The GM's own seat is named once, with the NPCs it plays, when there are any.
            .filter(|w| !w.npc && (w.seat != Seat::Gm || played.is_empty()))
            .flat_map(|w| w.names.clone())
            .collect();
        if !played.is_empty() {
            let also = if gm_too { "also " } else { "" };
            names.push(format!("the GM ({also}for {})", and_list(&played)));
        }
        names
    }

    /// The banner's line while the table is open.
    pub fn text(&self) -> String {
        let all: Vec<String> = self.waiting.iter().flat_map(|w| w.names.clone()).collect();
        let npcs: Vec<String> = self.npcs().iter().map(|w| w.name.clone()).collect();
        let others = self.others();
        let mine = match (self.yours(), npcs.is_empty()) {
            (true, true) => Some("Your move".to_string()),
            (true, false) => Some(format!("Your move, also as {}", and_list(&npcs))),
            (false, false) => Some(format!("Your move as {}", and_list(&npcs))),
            (false, true) => None,
        };
        match mine {
            _ if self.any_of && self.yours() => format!(
                "Any of you may act now: {}; the first to do so decides",
                or_list(&all)
            ),
            _ if self.any_of => format!(
                "Waiting for one of {}; the first to act decides",
                or_list(&others)
            ),
            Some(m) if self.helped => format!("{m} (a bot plays your NPCs in conflicts)"),
            Some(m) if others.is_empty() => m,
            Some(m) => format!("{m} (also waiting for {})", and_list(&others)),
            None if others.is_empty() => "Nobody needs to act right now.".into(),
            None => format!("Waiting for {}", and_list(&others)),
        }
    }
}

fn turn(snapshot: &Snapshot, status: &Status, access: &Access) -> Turn {
    let game = snapshot.game();
    let named = |s: Seat| Named {
        seat: s,
        name: game.seat_name(s),
    };
    let holder = |s: Seat| {
        snapshot
            .seats()
            .iter()
            .find(|i| i.seat == s)
            .map(|i| i.holder)
    };
    // Nobody's move once the table has ended or while it is archived, whatever the game says.
    let open = status.over.is_none() && !snapshot.closed() && !snapshot.archived();
    let banner = Banner {
        waiting: status
            .waiting_for
            .iter()
            .map(|s| Waiter {
                seat: *s,
                name: game.seat_name(*s),
                names: game.seat_names(*s),
                npc: holder(*s) == Some(Holder::Npc),
            })
            .collect(),
        any_of: status.any_of,
        me: access.seat,
        gm: access.role == Role::Owner,
        helped: access.seat.is_some_and(|s| holder(s) == Some(Holder::Bot)),
    };
    let text = match (&status.over, snapshot.closed(), snapshot.archived()) {
        (Some(how), _, _) => format!("Game over: {how}"),
        (None, true, _) => "The table has ended.".into(),
        (None, false, true) => format!(
            "{} has archived this table.",
            crate::log::capitalised(&game.seat_name(Seat::Gm))
        ),
        _ => banner.text(),
    };
    let npc = match open {
        true => banner.npcs().iter().map(|w| named(w.seat)).collect(),
        false => Vec::new(),
    };
    Turn {
        waiting: status.waiting_for.iter().map(|s| named(*s)).collect(),
        yours: open && banner.yours(),
        any_of: status.any_of,
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
    let host = game.seat_name(Seat::Gm);
    let me = match access.role {
        Role::Owner => host.clone(),
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
        host,
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

    fn waiter(n: u8, name: &str, npc: bool) -> Waiter {
        let seat = if n == 0 { Seat::Gm } else { Seat::Player(n) };
        Waiter {
            seat,
            name: name.into(),
            names: vec![name.into()],
            npc,
        }
    }

    #[test]
    fn a_seat_known_by_two_names_is_listed_name_by_name() {
        let two = Waiter {
            names: vec!["Bo".into(), "Cy".into()],
            ..waiter(2, "Bo and Cy", false)
        };
        let b = banner(vec![waiter(1, "Ada", false), two], None, false);
        assert_eq!(b.text(), "Waiting for Ada, Bo and Cy");
    }

    fn banner(waiting: Vec<Waiter>, me: Option<Seat>, gm: bool) -> Banner {
        Banner {
            waiting,
            any_of: false,
            me,
            gm,
            helped: false,
        }
    }

    #[test]
    fn a_seat_the_gm_plays_is_waited_on_as_the_gm() {
        let waiting = || {
            vec![
                waiter(1, "Ysolde", false),
                waiter(2, "Oren", false),
                waiter(3, "Mirri the Fox", true),
            ]
        };
        let player = banner(waiting(), Some(Seat::Player(1)), false);
        assert_eq!(
            player.text(),
            "Your move (also waiting for Oren and the GM (for Mirri the Fox))"
        );
        let watcher = banner(waiting(), None, false);
        assert_eq!(
            watcher.text(),
            "Waiting for Ysolde, Oren and the GM (for Mirri the Fox)"
        );
        let gm = banner(waiting(), Some(Seat::Gm), true);
        assert_eq!(
            gm.text(),
            "Your move as Mirri the Fox (also waiting for Ysolde and Oren)"
        );
        let both = vec![waiter(0, "the GM", false), waiter(3, "Mirri the Fox", true)];
        assert_eq!(
            banner(both.clone(), Some(Seat::Gm), true).text(),
            "Your move, also as Mirri the Fox"
        );
        assert_eq!(
            banner(both, Some(Seat::Player(1)), false).text(),
            "Waiting for the GM (also for Mirri the Fox)"
        );
    }

    #[test]
    fn alternatives_are_told_as_any_of_you() {
        let mut b = banner(
            vec![
                waiter(1, "Ada", false),
                waiter(2, "Bo", false),
                waiter(3, "Cy", false),
            ],
            Some(Seat::Player(2)),
            false,
        );
        b.any_of = true;
        assert_eq!(
            b.text(),
            "Any of you may act now: Ada, Bo or Cy; the first to do so decides"
        );
        b.me = None;
        assert_eq!(
            b.text(),
            "Waiting for one of Ada, Bo or Cy; the first to act decides"
        );
    }

    #[test]
    fn a_gm_helped_by_a_bot_is_told_so_in_words() {
        let mut b = banner(vec![waiter(0, "the GM", false)], Some(Seat::Gm), true);
        b.helped = true;
        assert_eq!(b.text(), "Your move (a bot plays your NPCs in conflicts)");
    }
}
