//! Iron Triangle's analysis (feature `analysis`): everything Clash offers about the game besides
//! its rules, built on the generic analysis crate (its matrix-game solvers above all).
//!
//! * [`turn_game`]: the conflict turn as a two-stage game (stances, then moves), solved exactly;
//!   its payoffs come from the engine's own rule functions ([`resolution`]) or its table;
//! * [`position`]: the one reader of turn state files and table positions for every solver;
//! * [`duel`]: a whole duel between two characters, by backward induction over conflict
//!   states; [`balance`]: every level-0 build against every other;
//! * [`equilibrium_bot`]: a bot that samples from the turn's equilibrium, for simulations;
//! * [`seat_bots`]: the casual and strong bots that take a seat at a table;
//! * [`in_play`]: the odds a seat is shown in play;
//! * [`review`]: the review of a finished table (stances and moves against each turn's
//!   equilibrium, from the duel solver where it answers);
//! * [`contests`]: the simulated games (`clash simulate iron-triangle`) and the table on which
//!   the table bots are measured;
//! * [`workbench`]: the designer's workbench: the duels its bots play to measure a variant,
//!   and the exact balance table under it;
//! * [`cli`]: the subcommands the game adds to `clash solve`, `clash analyse` and
//!   `clash simulate`.
//!
//! [`offer`] adds all of it to the catalogue's entry ([`crate::entry`]).

pub mod balance;
pub mod cli;
pub mod contests;
pub mod duel;
pub mod equilibrium_bot;
pub mod in_play;
pub mod position;
pub mod resolution;
pub mod review;
pub mod seat_bots;
pub mod turn_game;
pub mod workbench;

use clash_analysis::table_bots::hook;
use clash_core::RulesetEntry;

use crate::IronTriangle;

/// `entry` with the game's odds in play, table bots and `clash` subcommands.
pub fn offer(entry: RulesetEntry) -> RulesetEntry {
    entry
        .with_seat_odds::<IronTriangle>()
        .with_bots(hook::<IronTriangle>)
        .with_review(clash_analysis::review::hook::<IronTriangle>)
        .with_commands(cli::commands())
        .with_workbench(workbench::workbench())
}
