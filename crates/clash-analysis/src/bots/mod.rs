//! Bots: programs that take a seat.
//!
//! One generic trait over [`clash_core::Ruleset`]: given the full state and its seat, a bot
//! returns a command the engine accepts, or `None` when the seat has nothing to do. Chance
//! (tie-breaks, sampling from a mixed strategy, playouts) comes from the `Randomness` passed in,
//! so a seeded run is reproducible.
//!
//! [`RandomBot`] plays any ruleset with a uniformly random legal command; each game's crate
//! has its own strong bot (behind its `analysis` feature).
//!
//! These bots read the full state, hidden information included: they are for simulations and
//! analysis, where every seat is a program. A bot that sits at a table decides from its seat's
//! view alone: see [`crate::table_bots`]. [`JsonBot`] drives any of these through JSON for tools
//! ([`Typed`]).

use std::marker::PhantomData;

use clash_core::{Randomness, Ruleset, Seat};
use serde_json::Value;

/// A program that plays one seat of ruleset `R`.
pub trait Bot<R: Ruleset>: Send {
    /// A command for `seat`, or `None` when the seat has nothing to do now.
    fn choose(
        &mut self,
        state: &R::State,
        seat: Seat,
        rng: &mut dyn Randomness,
    ) -> Option<R::Command>;
}

/// Picks a uniformly random command among the engine's legal commands.
pub struct RandomBot<R>(PhantomData<fn() -> R>);

impl<R> Default for RandomBot<R> {
    fn default() -> Self {
        RandomBot(PhantomData)
    }
}

impl<R: Ruleset> Bot<R> for RandomBot<R> {
    fn choose(
        &mut self,
        state: &R::State,
        seat: Seat,
        rng: &mut dyn Randomness,
    ) -> Option<R::Command> {
        pick_random(R::legal_commands(state, seat), rng)
    }
}

/// A uniformly random element (used for tie-breaks and fallbacks).
pub fn pick_random<T>(mut options: Vec<T>, rng: &mut dyn Randomness) -> Option<T> {
    if options.is_empty() {
        return None;
    }
    let i = rng.choose(options.len(), &|i| i.to_string()).ok()?;
    Some(options.swap_remove(i.min(options.len() - 1)))
}

/// A bot driven through JSON, for tools: the state is the ruleset's full state as
/// `AnyGame::state_json` gives it, and the answer is a command as `AnyGame::command` takes it.
/// Never for a table seat, since the full state shows what the seat may not see: tables use
/// [`crate::table_bots`].
pub trait JsonBot: Send {
    /// The ruleset this bot plays.
    fn ruleset(&self) -> &'static str;
    /// A command for `seat` in `state`, or `None` (nothing to do, or a state it cannot read).
    fn choose_json(&mut self, state: &Value, seat: Seat, rng: &mut dyn Randomness)
    -> Option<Value>;
}

/// Wraps a typed bot as a [`JsonBot`].
pub struct Typed<R: Ruleset, B: Bot<R>> {
    bot: B,
    _r: PhantomData<fn() -> R>,
}

impl<R: Ruleset, B: Bot<R>> Typed<R, B> {
    pub fn new(bot: B) -> Self {
        Typed {
            bot,
            _r: PhantomData,
        }
    }
}

impl<R: Ruleset, B: Bot<R>> JsonBot for Typed<R, B> {
    fn ruleset(&self) -> &'static str {
        R::ID
    }

    fn choose_json(
        &mut self,
        state: &Value,
        seat: Seat,
        rng: &mut dyn Randomness,
    ) -> Option<Value> {
        let state: R::State = serde_json::from_value(state.clone()).ok()?;
        let command = self.bot.choose(&state, seat, rng)?;
        serde_json::to_value(command).ok()
    }
}
