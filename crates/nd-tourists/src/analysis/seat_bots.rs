//! N-Dimensional Tourists at the table.
//!
//! The other parties' Reserves and the deck are hidden: a seat sees its own Reserves card by
//! card, and of the others only how many cards each holds. The strong bot never reads them.
//! It starts from the seat's own position ([`crate::view::View::position`]: everything
//! the seat knows, as a setup) and deals the cards it cannot see at random from the cards it
//! has not seen, exactly as the GM's `start` deals a resumed position's unseen Reserves: a
//! *deal* consistent with everything on the seat's view ([`deal`]).
//!
//! * **casual**: a uniformly random bid, pass, reaction or Loss card to spend;
//! * **strong**: every choice open to it (bid or pass; reject, turn, cover or let a card stand;
//!   which Loss card to spend) is tried on the same sampled deals, and each deal is played on
//!   to the end of the round by the threshold bidder ([`ThresholdBot`]: bid while the exact
//!   chance, from its own knowledge, that the next card improves its position is high enough)
//!   in every seat. The choice whose rounds end best on average is played: a party left
//!   standing alone wins outright, a Wiped Out one loses outright; otherwise Control held
//!   counts for, and Losses taken count against (Lasting ones three times as much as
//!   Temporary ones). With a single choice, or no deal, it plays as the threshold bidder would.
//!
//! One unit of work is one round played out on one deal; the clock is checked between deals.
//!
//! No bot starts the Conflict, calls the next round, reframes, declares tactics, concedes or
//! re-chooses the cards that mark its Loss (the first ones stand): those are the GM's and the
//! players' calls.

use crate::state::{PartyId, Phase};
use crate::{Command, NdTourists, State};
use clash_core::{
    Budget, Randomness, Ruleset, Seat, SeatBot, SeatTable, SeededRandomness, execute,
};

use crate::analysis::threshold_bot::ThresholdBot;
use clash_analysis::bots::Bot;
use clash_analysis::table_bots::{
    Casual, Deadline, Seated, Sends, bot_commands, or_casual, seed_from,
};

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
    /// The policy every seat follows when a deal is played on.
    pub bidder: ThresholdBot,
}

/// Commands a played-on round may take before it is scored as it stands (a round takes a few
/// dozen; this only bounds the work).
const ROUND_COMMANDS: u32 = 400;

/// How well the round ended for `me` (a set of parties) against the others, as described in
/// the module documentation.
pub fn score(state: &State, me: &[PartyId]) -> f64 {
    let party = |p: PartyId| -> f64 {
        let Some(ps) = state.party(p) else {
            return 0.0;
        };
        if state.victor == Some(p) {
            return 20.0;
        }
        if !ps.in_play() {
            return -20.0;
        }
        let control = if state.dominant == Some(p) {
            f64::from(state.control)
        } else {
            0.0
        };
        control - 0.5 * ps.temporary.len() as f64 - 1.5 * ps.lasting.len() as f64
    };
    let all = state.parties.len() as PartyId;
    let others: Vec<PartyId> = (0..all).filter(|p| !me.contains(p)).collect();
    let mine: f64 = me.iter().map(|p| party(*p)).sum();
    let theirs: f64 = others.iter().map(|p| party(*p)).sum::<f64>() / others.len().max(1) as f64;
    mine - theirs
}

impl Strong {
    /// Play `state` on to the end of the round with the threshold bidder in every seat.
    fn play_round(&self, state: &mut State, rng: &mut dyn Randomness) {
        let mut bidder = self.bidder.clone();
        for _ in 0..ROUND_COMMANDS {
            if state.phase != Phase::Bidding {
                return;
            }
            let waiting = NdTourists::status(state).waiting_for;
            let Some((seat, command)) = waiting
                .into_iter()
                .find_map(|s| bidder.choose(state, s, rng).map(|c| (s, c)))
            else {
                return;
            };
            if execute::<NdTourists>(state, seat, &command, rng).is_err() {
                return;
            }
        }
    }

    /// The average score of each option over deals, within the budget.
    fn weigh(
        &self,
        table: &SeatTable<NdTourists>,
        options: &[Command],
        budget: Budget,
        seed: u64,
    ) -> Option<Vec<f64>> {
        let deadline = Deadline::start(budget);
        let me: Vec<PartyId> = table
            .view
            .parties
            .iter()
            .enumerate()
            .filter(|(_, p)| p.seat == table.seat)
            .map(|(i, _)| i as PartyId)
            .collect();
        let per_deal = options.len() as u32;
        let deals = (deadline.work / per_deal.max(1)).max(1);
        let mut totals = vec![0.0; options.len()];
        let mut played = 0u32;
        for k in 0..deals {
            if k > 0 && deadline.passed() {
                break;
            }
            let mut dealer = SeededRandomness::for_command(seed, u64::from(k));
            let world = deal(table, &mut dealer)?;
            for (i, option) in options.iter().enumerate() {
                // The same draws for every option, so options are compared on equal luck.
                let mut luck = SeededRandomness::for_command(seed ^ 0x9e37_79b9, u64::from(k));
                let mut w = world.clone();
                totals[i] += match execute::<NdTourists>(&mut w, table.seat, option, &mut luck) {
                    Ok(_) => {
                        self.play_round(&mut w, &mut luck);
                        score(&w, &me)
                    }
                    Err(_) => f64::MIN / 4.0,
                };
            }
            played += 1;
        }
        Some(totals.into_iter().map(|t| t / f64::from(played)).collect())
    }
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
        let mut options = bot_commands(table);
        options.dedup();
        if options.len() <= 1 {
            return options.into_iter().next();
        }
        let seed = seed_from(rng);
        let Some(scores) = self.weigh(table, &options, budget, seed) else {
            return Casual::default().choose(table, budget, rng);
        };
        let best = scores
            .iter()
            .enumerate()
            .max_by(|a, b| a.1.total_cmp(b.1).then(b.0.cmp(&a.0)))
            .map(|(i, _)| i)?;
        options.get(best).cloned()
    }
}

/// The threshold bidder alone, deciding on one sampled deal: the policy [`clash_analysis::bots`] had,
/// played from the view. Kept as the yardstick the strong bot is measured against.
#[derive(Debug, Clone, Default)]
pub struct Threshold(pub ThresholdBot);

impl SeatBot<NdTourists> for Threshold {
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
        let mut dealer = SeededRandomness::new(seed_from(rng));
        let picked =
            deal(table, &mut dealer).and_then(|w| self.0.clone().choose(&w, table.seat, rng));
        or_casual(picked, |c| options.contains(c), table, budget, rng)
    }
}
