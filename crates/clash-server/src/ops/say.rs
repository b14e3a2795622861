//! Table talk: a line for everyone at the table, a player's whisper to the GM, or the GM's
//! whisper to one seat's player. A whisper is read by the GM and the player of the seat it is
//! from or to — the player holding the seat when it was said: a seat's next player does not
//! read the whispers of the one before (see [`crate::log::Reader`]).

use clash_core::Seat;

use super::{At, Decision};
use crate::error::{Conflict, TableError};
use crate::log::TableEvent;
use crate::table::chat::{MAX_LINES, clean};
use crate::table::play::Holder;

/// Who a line is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Audience {
    /// Everyone at the table, spectators included.
    Table,
    /// The GM alone (from a player).
    Gm,
    /// One seat's player alone (from the GM).
    Seat(Seat),
}

pub struct Say {
    pub key: String,
    pub text: String,
    pub to: Audience,
}

// Talk is part of the record, and a finished table's record is final (see
// crate::table::keeping): its talk ends with it.
key_operation!(Say => (), super::When {
    ended: Some("this table has ended and its record is final: talk goes on elsewhere (the record keeps everything said during the game)"),
    in_play: true,
});

impl Say {
    async fn decided(&self, at: &At<'_>) -> Result<Decision<()>, TableError> {
        // A player whose seat the GM plays for now still talks: only their moves wait.
        let by = at
            .actor
            .access()
            .and_then(crate::view::room::reader)
            .ok_or_else(|| {
                TableError::forbidden(
                    "spectators read the table talk; only the GM and the players speak",
                )
            })?;
        let from_gm = by == Seat::Gm.to_string();
        let to = self.whisper_to(at, from_gm)?;
        let text = clean(&self.text)?;
        if at.play.talk_lines >= MAX_LINES {
            return Err(TableError::conflict(
                Conflict::TooMuchTalk,
                format!(
                    "this table holds {MAX_LINES} lines of talk already; start a new table to go on talking"
                ),
            ));
        }
        let event = match self.to {
            Audience::Table => TableEvent::Said { by, text },
            _ => TableEvent::Whispered { by, text, to },
        };
        Ok(Decision::table(vec![event], Vec::new()))
    }
}

impl Say {
    /// The seat a whisper goes to (`None` for the GM, or a line for everyone), if the speaker
    /// may whisper there.
    fn whisper_to(&self, at: &At<'_>, from_gm: bool) -> Result<Option<Seat>, TableError> {
        match (self.to, from_gm) {
            (Audience::Table, _) => Ok(None),
            (Audience::Gm, false) => Ok(None),
            (Audience::Gm, true) => Err(TableError::malformed(
                "the GM whispers to one player (name their seat), not to the GM",
            )),
            (Audience::Seat(_), false) => {
                Err(TableError::malformed("a player whispers to the GM only"))
            }
            (Audience::Seat(seat), true) => {
                at.play.known_seat(seat)?;
                if at.play.linked(seat) != Holder::Player && !at.play.suspended(seat) {
                    return Err(TableError::conflict(
                        Conflict::NoChange,
                        format!("no player holds {} to whisper to", at.name(seat)),
                    ));
                }
                Ok(Some(seat))
            }
        }
    }
}
