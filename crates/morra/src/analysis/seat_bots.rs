//! Morra's bots. At a table a bot decides from its seat's table alone ([`SeatTable`]): it never
//! sees the other player's hand before the reveal, and needs nothing of it.
//!
//! * **casual**: any hand, with equal chance;
//! * **strong** ([`Strong`]): a hand drawn from the round's equilibrium mix
//!   ([`crate::analysis::round`]), so no habit of the other player wins points off it on
//!   average.
//!
//! [`Strong`] also plays simulated games ([`Bot`]), from the seat's table built out of the
//! state.

use clash_analysis::bots::Bot;
use clash_analysis::table_bots::{Seated, Sends, bot_commands, or_casual};
use clash_core::{Budget, Randomness, Seat, SeatBot, SeatTable};

use crate::analysis::round::mix;
use crate::{Command, Hand, Morra, State};

impl Seated for Morra {
    /// Choosing a hand is all there is to do.
    fn bot_sends(_command: &Command) -> Sends {
        Sends::Play
    }

    fn strong() -> Box<dyn SeatBot<Self>> {
        Box::new(Strong)
    }
}

/// The strong bot: a hand from the equilibrium mix of one round.
#[derive(Debug, Clone, Copy, Default)]
pub struct Strong;

/// A hand drawn with the given weights (in [`Hand::all`]'s order), or `None` when no weight is
/// positive.
pub fn draw(weights: &[f64], rng: &mut dyn Randomness) -> Option<Hand> {
    const SCALE: f64 = 1_000_000.0;
    let ticks: Vec<u32> = weights
        .iter()
        .map(|w| (w.max(0.0) * SCALE).round() as u32)
        .collect();
    let total: u32 = ticks.iter().sum();
    if total == 0 {
        return None;
    }
    let mut pick = rng.roll(total).ok()?;
    for (hand, t) in Hand::all().into_iter().zip(ticks) {
        if pick <= t {
            return Some(hand);
        }
        pick -= t;
    }
    None
}

impl SeatBot<Morra> for Strong {
    fn choose(
        &self,
        table: &SeatTable<Morra>,
        budget: Budget,
        rng: &mut dyn Randomness,
    ) -> Option<Command> {
        if !table.to_act() {
            return None;
        }
        let options = bot_commands(table);
        let hand = mix().ok().and_then(|w| draw(&w, rng));
        let picked = hand.map(|h| Command::Show {
            fingers: h.fingers,
            call: h.call,
        });
        or_casual(picked, |c| options.contains(c), table, budget, rng)
    }
}

impl Bot<Morra> for Strong {
    fn choose(&mut self, state: &State, seat: Seat, rng: &mut dyn Randomness) -> Option<Command> {
        let table = SeatTable::from_state(state, &[], seat);
        SeatBot::choose(self, &table, Budget::work(1), rng)
    }
}
