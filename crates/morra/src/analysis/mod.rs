//! Morra's analysis (feature `analysis`): everything Clash offers about Morra besides its rules,
//! built on the generic analysis crate.
//!
//! * [`round`]: one round as a zero-sum matrix game, exactly: each hand's chance of scoring
//!   against any hand of the other player, and the equilibrium mix of hands;
//! * [`seat_bots`]: the casual and strong bots that take a seat at a table, and the same strong
//!   bot for simulations;
//! * [`in_play`]: the odds a seat is shown in play;
//! * [`contests`]: simulated games between two bots (`clash simulate morra`);
//! * [`cli`]: `clash odds morra` and `clash simulate morra`.
//!
//! [`offer`] adds all of it to the catalogue's entry ([`crate::entry`]).

pub mod cli;
pub mod contests;
pub mod in_play;
pub mod round;
pub mod seat_bots;

use clash_analysis::table_bots::hook;
use clash_core::RulesetEntry;

use crate::Morra;

/// `entry` with Morra's odds in play, table bots and `clash` subcommands.
pub fn offer(entry: RulesetEntry) -> RulesetEntry {
    entry
        .with_seat_odds::<Morra>()
        .with_bots(hook::<Morra>)
        .with_commands(cli::commands())
}
