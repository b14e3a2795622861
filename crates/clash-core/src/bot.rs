//! Bots at the table: programs that take a seat and play it by the same rules as a person.
//!
//! A bot decides from a [`SeatTable`] and nothing else: the seat's view ([`Ruleset::view`] for
//! [`Viewer::Seat`]), the commands the seat may send now, the log as the seat saw it, and whose
//! move it is — exactly what the table's pages and JSON API give the person in that seat. The
//! only way to build a `SeatTable` from a game is [`SeatTable::of`], which goes through the
//! ruleset's own view and event redaction, so a [`SeatBot`] cannot read another seat's secret
//! choice, a hidden hand or the deck: it never holds the state.
//!
//! Besides the table, a bot is given a [`Budget`] (how long and how much it may think) and the
//! [`Randomness`] it draws on; with the same table, budget and seed it answers the same command,
//! as long as the clock does not cut it short.
//!
//! The catalogue offers each ruleset's bots type-erased ([`BotFn`], set with
//! [`crate::RulesetEntry::with_bots`]): the table server (or any program holding an
//! [`AnyGame`]) asks for a seat's command as JSON and sends it like any client would.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::game::{AnyGame, Game};
use crate::randomness::Randomness;
use crate::ruleset::{Ruleset, Status};
use crate::seat::{Seat, Viewer};

/// How well a bot plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum Strength {
    /// A uniformly random choice among the commands a bot sends.
    Casual,
    /// The ruleset's best policy, within its [`Budget`].
    Strong,
}

impl Strength {
    pub const ALL: [Strength; 2] = [Strength::Casual, Strength::Strong];

    /// The word people see ("casual", "strong").
    pub fn word(self) -> &'static str {
        match self {
            Strength::Casual => "casual",
            Strength::Strong => "strong",
        }
    }
}

impl fmt::Display for Strength {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.word())
    }
}

/// A strength that is neither `casual` nor `strong`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown bot strength {0:?}: expected \"casual\" or \"strong\"")]
pub struct BadStrength(pub String);

impl FromStr for Strength {
    type Err = BadStrength;
    fn from_str(s: &str) -> Result<Self, BadStrength> {
        Strength::ALL
            .into_iter()
            .find(|x| x.word().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| BadStrength(s.to_string()))
    }
}

/// How much a bot may think about one command: a wall-clock limit and a cap on units of work
/// (a strong bot's playouts, sampled deals or solved games). Whichever runs out first ends the
/// thinking; a bot always answers, from what it has worked out so far or by a simpler rule.
/// The work cap keeps a bot bounded on any machine; the clock keeps it human-paced on a slow
/// one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budget {
    pub time: Duration,
    pub work: u32,
}

impl Budget {
    /// What a table gives a bot by default: two seconds and 2000 units of work.
    pub const TABLE: Budget = Budget {
        time: Duration::from_secs(2),
        work: 2000,
    };

    /// A budget bounded by work alone (the clock is generous), so play is reproducible from a
    /// seed on any machine: for tests and measurements.
    pub fn work(work: u32) -> Budget {
        Budget {
            time: Duration::from_secs(600),
            work,
        }
    }
}

impl Default for Budget {
    fn default() -> Self {
        Budget::TABLE
    }
}

/// Everything a person in `seat` has to decide with, and nothing more.
pub struct SeatTable<R: Ruleset> {
    pub seat: Seat,
    /// The seat's view of the table ([`Ruleset::view`] for this seat).
    pub view: R::View,
    /// The commands the seat may send now ([`Ruleset::legal_commands`]), as its page lists
    /// them.
    pub legal: Vec<R::Command>,
    /// Every event so far, as this seat was shown it ([`Ruleset::event_view`]; events hidden
    /// from the seat are left out).
    pub log: Vec<R::Event>,
    /// Whose move it is, or how the game ended: public, as on every page.
    pub status: Status,
}

impl<R: Ruleset> SeatTable<R> {
    /// What `seat` sees of `game`.
    pub fn of(game: &Game<R>, seat: Seat) -> Self {
        Self::from_state(game.state(), game.log(), seat)
    }

    /// What `seat` sees of a table in `state` reached through `log`.
    pub fn from_state(state: &R::State, log: &[R::Event], seat: Seat) -> Self {
        let viewer = Viewer::Seat(seat);
        SeatTable {
            seat,
            view: R::view(state, viewer),
            legal: R::legal_commands(state, seat),
            log: log
                .iter()
                .filter_map(|e| R::event_view(e, viewer))
                .collect(),
            status: R::status(state),
        }
    }

    /// True while the game waits on this seat.
    pub fn to_act(&self) -> bool {
        self.status.waiting_for.contains(&self.seat)
    }

    /// The whole table as JSON, for comparing what two seats (or two tables) show.
    pub fn to_json(&self) -> Value {
        serde_json::json!({
            "seat": self.seat,
            "view": to_json(&self.view),
            "legal": self.legal.iter().map(to_json).collect::<Vec<_>>(),
            "log": self.log.iter().map(to_json).collect::<Vec<_>>(),
            "status": to_json(&self.status),
        })
    }
}

impl<R: Ruleset> fmt::Debug for SeatTable<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SeatTable")
            .field("seat", &self.seat)
            .field("view", &self.view)
            .field("legal", &self.legal)
            .field("status", &self.status)
            .finish_non_exhaustive()
    }
}

fn to_json<T: Serialize>(value: &T) -> Value {
    serde_json::to_value(value).unwrap_or(Value::Null)
}

/// A program that plays one seat of ruleset `R` from that seat's table alone.
pub trait SeatBot<R: Ruleset>: Send + Sync {
    /// A command for `table.seat`, or `None` when there is nothing a bot does now (it is not
    /// the seat's move, or only table business is left that a person decides: starting a
    /// conflict, the next round, narration).
    fn choose(
        &self,
        table: &SeatTable<R>,
        budget: Budget,
        rng: &mut dyn Randomness,
    ) -> Option<R::Command>;
}

/// Why a type-erased bot could not be asked.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BotError {
    /// The bots of one ruleset were asked about another ruleset's game.
    #[error("these are {expected} bots; the table plays {found}")]
    WrongRuleset {
        expected: &'static str,
        found: &'static str,
    },
    /// The seat does not play at this table.
    #[error("seat {0} does not play at this table")]
    NoSuchSeat(Seat),
}

/// A ruleset's bots, type-erased for the catalogue: `seat`'s bot of `strength` decides in
/// `game` and answers a command as JSON (as [`AnyGame::command`] takes it), or `None` when
/// there is nothing a bot does now. The game is only read to build the seat's
/// [`SeatTable`] ([`play_seat`]); the command still goes through the rules like any other.
pub type BotFn = fn(
    game: &dyn AnyGame,
    seat: Seat,
    strength: Strength,
    budget: Budget,
    rng: &mut dyn Randomness,
) -> Result<Option<Value>, BotError>;

/// Ask `bot` for `seat`'s command in `game`, showing it only the seat's [`SeatTable`].
pub fn play_seat<R: Ruleset>(
    game: &dyn AnyGame,
    seat: Seat,
    bot: &dyn SeatBot<R>,
    budget: Budget,
    rng: &mut dyn Randomness,
) -> Result<Option<Value>, BotError> {
    let game = game
        .as_any()
        .downcast_ref::<Game<R>>()
        .ok_or(BotError::WrongRuleset {
            expected: R::ID,
            found: game.ruleset(),
        })?;
    if !R::seats(game.state()).contains(&seat) {
        return Err(BotError::NoSuchSeat(seat));
    }
    let table = SeatTable::of(game, seat);
    Ok(bot.choose(&table, budget, rng).map(|c| to_json(&c)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strengths_read_and_print_as_words() {
        for s in Strength::ALL {
            assert_eq!(s.to_string().parse::<Strength>(), Ok(s));
            let json = serde_json::to_value(s).unwrap();
            assert_eq!(json, Value::String(s.word().into()));
            assert_eq!(serde_json::from_value::<Strength>(json).unwrap(), s);
        }
        assert_eq!(" Strong ".parse::<Strength>(), Ok(Strength::Strong));
        assert!("expert".parse::<Strength>().is_err());
    }

    #[test]
    fn a_work_budget_is_bounded_by_work() {
        let b = Budget::work(7);
        assert_eq!(b.work, 7);
        assert!(b.time >= Budget::TABLE.time);
    }
}
