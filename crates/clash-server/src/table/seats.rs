//! Who holds each seat and what a key may do: the table's links read under its lock.

use clash_core::{Seat, Viewer};

use crate::error::{Conflict, TableError};
use crate::log::Sender;
use crate::store::{LinkChange, LinkStatus, StoredLink};
use crate::table::access::{Access, Holder, SeatInfo, apply_link};
use crate::table::links::{Role, same_key};
use crate::table::play::Play;

/// Why a key in this state no longer works, if it does not: an NPC marker is never handed out,
/// and a tombstone says what became of the key.
fn gone(status: LinkStatus) -> Option<TableError> {
    match status {
        LinkStatus::Npc => Some(TableError::BadKey),
        LinkStatus::Used => Some(TableError::InviteUsed),
        LinkStatus::Moved => Some(TableError::Moved),
        _ => None,
    }
}

impl Play {
    pub fn change_link(&mut self, change: LinkChange) {
        apply_link(&mut self.links, change);
    }

    pub fn link(&self, key: &str) -> Option<&StoredLink> {
        self.links.iter().find(|l| same_key(&l.key, key))
    }

    /// The role `key` stands for, whatever its state (a key that no longer works has none).
    pub fn role(&self, key: &str) -> Result<Role, TableError> {
        let link = self.link(key).ok_or(TableError::BadKey)?;
        if let Some(gone) = gone(link.status) {
            return Err(gone);
        }
        link.role.parse().map_err(|_| TableError::BadKey)
    }

    pub fn holder(&self, seat: Seat) -> Holder {
        if self.bots.contains_key(&seat) {
            return Holder::Bot;
        }
        self.linked(seat)
    }

    /// Who holds a seat by its links alone (the GM or a player, an invite, nobody), whether or
    /// not a bot sits in it now.
    pub fn linked(&self, seat: Seat) -> Holder {
        let role = seat.to_string();
        let statuses: Vec<LinkStatus> = self
            .links
            .iter()
            .filter(|l| l.role == role)
            .map(|l| l.status)
            .collect();
        if statuses.contains(&LinkStatus::Npc) {
            Holder::Npc
        } else if statuses.contains(&LinkStatus::Active) {
            Holder::Player
        } else if statuses.contains(&LinkStatus::Invite) {
            Holder::Invited
        } else if seat == Seat::Gm {
            Holder::Owner
        } else {
            Holder::Open
        }
    }

    /// A seat this table's game has.
    pub fn known_seat(&self, seat: Seat) -> Result<(), TableError> {
        let seats = self.game.seats();
        if !seats.contains(&seat) {
            let names: Vec<String> = seats.iter().map(Seat::to_string).collect();
            return Err(TableError::UnknownSeat(format!(
                "unknown seat {seat}: this {} table has {}",
                self.game.ruleset(),
                names.join(", ")
            )));
        }
        Ok(())
    }

    /// Whether a player's key for `seat` waits while the GM plays it.
    pub fn suspended(&self, seat: Seat) -> bool {
        let role = seat.to_string();
        self.links
            .iter()
            .any(|l| l.role == role && l.status == LinkStatus::Suspended)
    }

    /// Refuse a change of hands while a bot plays `seat`: the GM takes the seat back first.
    pub fn guard_bot(&self, seat: Seat, doing: &str) -> Result<(), TableError> {
        if self.bots.contains_key(&seat) {
            return Err(TableError::conflict(
                Conflict::BotSeated,
                format!(
                    "a bot plays {} now; take the seat back from it before you {doing}",
                    self.game.seat_name(seat)
                ),
            ));
        }
        Ok(())
    }

    /// Whether `seat` holds a secret choice the rules have not revealed that its player made
    /// (or whose author the log does not know: a table from before the log). A choice the GM,
    /// or a bot the GM seated, made for the seat is the GM's: the GM saw it being made.
    pub fn players_secret_pending(&self, seat: Seat) -> bool {
        let by_gm = matches!(self.last.get(&seat), Some((Sender::Gm | Sender::Bot, _)));
        !by_gm && self.game.secret_pending(seat)
    }

    /// What `key` may do now, acting `as_seat` if it asks to.
    pub fn access(&self, key: &str, as_seat: Option<Seat>) -> Result<Access, TableError> {
        if self.deleted {
            return Err(TableError::BadKey);
        }
        let link = self.link(key).ok_or(TableError::BadKey)?;
        let role: Role = link.role.parse().map_err(|_| TableError::BadKey)?;
        if let Some(s) = as_seat {
            self.known_seat(s)?;
        }
        let watch_only = |role, suspended| Access {
            role,
            seat: None,
            viewer: Viewer::Spectator,
            suspended,
        };
        if let Some(gone) = gone(link.status) {
            return Err(gone);
        }
        match (role, link.status) {
            (_, LinkStatus::Invite | LinkStatus::Transfer) => Err(TableError::Invite),
            (Role::Seat(s), status) => {
                if let Some(other) = as_seat.filter(|o| *o != s) {
                    return Err(TableError::forbidden(format!(
                        "this link is for {}; it cannot act as {}",
                        self.game.seat_name(s),
                        self.game.seat_name(other)
                    )));
                }
                Ok(match status {
                    LinkStatus::Suspended => watch_only(role, true),
                    _ => Access {
                        role,
                        seat: Some(s),
                        viewer: Viewer::Seat(s),
                        suspended: false,
                    },
                })
            }
            (Role::Spectator, _) => match as_seat {
                None => Ok(watch_only(role, false)),
                Some(_) => Err(TableError::forbidden("a spectator link can only watch")),
            },
            (Role::Owner, _) => {
                let plays_gm = self.game.seats().contains(&Seat::Gm);
                let seat = match as_seat {
                    None => plays_gm.then_some(Seat::Gm),
                    Some(Seat::Gm) if plays_gm => Some(Seat::Gm),
                    // A seat the GM seated a bot in is the GM's too: the GM does what the bot
                    // leaves to people (words, table business) from the seat's own page.
                    Some(s) if matches!(self.holder(s), Holder::Npc | Holder::Bot) => Some(s),
                    Some(s) => {
                        return Err(TableError::forbidden(format!(
                            "the GM link plays {} only while the GM has taken that seat over (“Play as NPC” in the seat list)",
                            self.game.seat_name(s)
                        )));
                    }
                };
                Ok(Access {
                    role,
                    seat,
                    viewer: seat.map_or(Viewer::Spectator, Viewer::Seat),
                    suspended: false,
                })
            }
        }
    }

    pub fn seat_list(&self, owner: bool) -> Vec<SeatInfo> {
        self.game
            .seats()
            .into_iter()
            .map(|seat| {
                let role = seat.to_string();
                let holder = self.holder(seat);
                let invite = self
                    .links
                    .iter()
                    .find(|l| l.role == role && l.status == LinkStatus::Invite);
                SeatInfo {
                    seat,
                    holder,
                    suspended: self
                        .links
                        .iter()
                        .any(|l| l.role == role && l.status == LinkStatus::Suspended),
                    key: invite.filter(|_| owner).map(|l| l.key.clone()),
                    bot: self.bots.get(&seat).copied(),
                    under: (holder == Holder::Bot).then(|| self.linked(seat)),
                }
            })
            .collect()
    }

    /// The active key of the owner or the spectators.
    pub fn key_of(&self, role: Role) -> Option<String> {
        let name = role.to_string();
        self.links
            .iter()
            .find(|l| l.role == name && l.status == LinkStatus::Active)
            .map(|l| l.key.clone())
    }
}
