//! Triforce's analysis (feature `analysis`): everything Clash offers about Triforce besides its
//! rules, built on the generic analysis crate.
//!
//! * [`combat_odds`]: exact odds of one combat (`clash odds triforce combat`);
//! * [`mcts`]: a Monte-Carlo tree search bot reading the whole state, for simulations;
//! * [`seat_bots`]: the casual and strong bots that take a seat at a table;
//! * [`in_play`]: the odds a seat is shown in play;
//! * [`review`]: the review of a finished game (each decision against the strong bot's search,
//!   the luck of every combat);
//! * [`contests`]: the simulated games (`clash simulate triforce`) and the table on which the
//!   table bots are measured;
//! * [`workbench`]: the designer's workbench: the tables its bots play to measure a variant;
//! * [`cli`]: the subcommands Triforce adds to `clash odds` and `clash simulate`.
//!
//! [`offer`] adds all of it to the catalogue's entry ([`crate::entry`]).

pub mod cli;
pub mod combat_odds;
pub mod contests;
pub mod in_play;
pub mod mcts;
pub mod review;
pub mod seat_bots;
pub mod workbench;

use clash_analysis::table_bots::hook;
use clash_core::RulesetEntry;

use crate::Triforce;

/// `entry` with Triforce's odds in play, table bots, reviews and `clash` subcommands.
pub fn offer(entry: RulesetEntry) -> RulesetEntry {
    entry
        .with_seat_odds::<Triforce>()
        .with_bots(hook::<Triforce>)
        .with_review(clash_analysis::review::hook::<Triforce>)
        .with_commands(cli::commands())
        .with_workbench(workbench::workbench())
}
