//! Odds in play: the exact odds that bear on a seat's next choice, computed from that seat's own
//! view of the table and nothing else.
//!
//! A ruleset that offers them implements [`SeatOdds`] on its typed view ([`Ruleset::View`]); the
//! catalogue carries them type-erased ([`OddsFn`], set with
//! [`crate::RulesetEntry::with_seat_odds`]). The erased hook is handed the running game, but it
//! only reads it to build the seat's view through the ruleset's own [`Ruleset::view`]
//! ([`seat_odds`]), the same way [`crate::bot::play_seat`] builds a bot's table: odds can never
//! tell a seat what its view hides.

use serde::Serialize;
use serde_json::Value;

use crate::game::{AnyGame, Game, to_json};
use crate::ruleset::Ruleset;
use crate::seat::{Seat, Viewer};

/// The odds a ruleset shows a seat in play.
pub trait SeatOdds: Ruleset {
    /// What the odds look like on the wire (the table page draws them).
    type Odds: Serialize;

    /// The odds that bear on `seat`'s next choice, from `view` (the seat's own view of the
    /// table), or `None` when no odds apply now.
    fn odds(view: &Self::View, seat: Seat) -> Option<Self::Odds>;
}

/// A ruleset's odds, type-erased for the catalogue: `seat`'s odds in `game` as JSON, or `None`
/// when none apply now (or `game` is not a game of this ruleset, or not yet in play).
pub type OddsFn = fn(game: &dyn AnyGame, seat: Seat) -> Option<Value>;

/// The erased odds of ruleset `R` ([`OddsFn`]): `R::odds` of the seat's own view.
pub fn seat_odds<R: SeatOdds>(game: &dyn AnyGame, seat: Seat) -> Option<Value> {
    let game = game.as_any().downcast_ref::<Game<R>>()?;
    if !R::seats(game.state()).contains(&seat) {
        return None;
    }
    let view = R::view(game.state(), Viewer::Seat(seat));
    R::odds(&view, seat).map(|o| to_json(&o))
}
