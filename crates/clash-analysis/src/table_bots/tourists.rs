//! N-Dimensional Tourists at the table.
//!
//! The other parties' Reserves and the deck are hidden: a seat sees its own Reserves card by
//! card, and of the others only how many cards each holds. The strong bot never reads them.
//! It starts from the seat's own position ([`nd_tourists::view::View::position`]: everything
//! the seat knows, as a setup) and deals the cards it cannot see at random from the cards it
//! has not seen, exactly as the GM's `start` deals a resumed position's unseen Reserves: a
//! *deal* consistent with everything on the seat's view.
//!
//! * **casual**: a uniformly random bid, pass, reaction or Loss choice;
//! * **strong**: the threshold bidder ([`ThresholdBot`]: bid while the exact chance, from its
//!   own knowledge, that the next card improves its position is high enough), played on a
//!   sampled deal.
//!
//! No bot starts the Conflict, calls the next round, reframes, declares tactics, concedes or
//! re-chooses the cards that mark its Loss (the first ones stand): those are the GM's and the
//! players' calls.

use clash_core::{Budget, Randomness, Seat, SeatBot, SeatTable, SeededRandomness, execute};
use nd_tourists::state::Phase;
use nd_tourists::{Command, NdTourists, State};

use super::{Casual, Seated, Sends, bot_commands, seed_from};
use crate::bots::Bot;
use crate::bots::tourists::ThresholdBot;

impl Seated for NdTourists {
    /// Bots bid, pass, react and spend Losses; the GM's business, tactics (words), conceding
    /// and re-choosing the cards that mark a Loss are left to people.
    fn bot_sends(command: &Command) -> Sends {
        match command {
            Command::Start {}
            | Command::NextRound {}
            | Command::Reframe { .. }
            | Command::DeclareTactics { .. }
            | Command::Concede { .. }
            | Command::KeepLossCards { .. } => Sends::Never,
            _ => Sends::Play,
        }
    }

    fn strong() -> Box<dyn SeatBot<Self>> {
        Box::new(Strong::default())
    }
}

/// A full table consistent with what the seat sees: its position, with the Reserves it cannot
/// see dealt at random from the cards it has not seen (by the engine's own `start`).
pub fn deal(table: &SeatTable<NdTourists>, rng: &mut dyn Randomness) -> Option<State> {
    use clash_core::Ruleset;
    let setup = table.view.position.as_ref()?;
    let mut state = NdTourists::setup(setup).ok()?;
    if state.phase == Phase::Preparing && state.resume.is_some() {
        execute::<NdTourists>(&mut state, Seat::Gm, &Command::Start {}, rng).ok()?;
    }
    Some(state)
}

/// The strong N-Dimensional Tourists bot.
#[derive(Debug, Clone, Default)]
pub struct Strong {
    pub bidder: ThresholdBot,
}

impl SeatBot<NdTourists> for Strong {
    fn choose(
        &self,
        table: &SeatTable<NdTourists>,
        budget: Budget,
        rng: &mut dyn Randomness,
    ) -> Option<Command> {
        if !table.to_act() {
            return None;
        }
        let options = bot_commands(table);
        if options.len() <= 1 {
            return options.into_iter().next();
        }
        let mut dealer = SeededRandomness::new(seed_from(rng));
        let Some(world) = deal(table, &mut dealer) else {
            return Casual::default().choose(table, budget, rng);
        };
        match self.bidder.clone().choose(&world, table.seat, rng) {
            Some(c) if options.contains(&c) => Some(c),
            _ => Casual::default().choose(table, budget, rng),
        }
    }
}
