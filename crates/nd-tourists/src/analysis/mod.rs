//! N-Dimensional Tourists' analysis (feature `analysis`): everything Clash offers about the game
//! besides its rules, built on the generic analysis crate.
//!
//! * [`draw_odds`]: exact odds of breaking a set with the next draws and of reversed cards
//!   (`clash odds nd-tourists`), from the engine's own [`crate::probability`] and
//!   [`crate::beats`];
//! * [`threshold_bot`]: a bidder that bids while its next card is likely enough to help, for
//!   simulations;
//! * [`seat_bots`]: the casual and strong bots that take a seat at a table;
//! * [`in_play`]: the odds a seat is shown in play;
//! * [`review`]: the review of a finished table (each round's chances, bids and reactions
//!   against the draw odds, the luck of every draw);
//! * [`contests`]: the simulated games (`clash simulate nd-tourists`) and the table on which the
//!   table bots are measured;
//! * [`workbench`]: the designer's workbench: the tables its bots play to measure a variant;
//! * [`cli`]: the subcommands the game adds to `clash odds` and `clash simulate`.
//!
//! [`offer`] adds all of it to the catalogue's entry ([`crate::entry`]).

pub mod cli;
pub mod contests;
pub mod draw_odds;
pub mod in_play;
pub mod review;
pub mod seat_bots;
pub mod threshold_bot;
pub mod workbench;

use clash_analysis::table_bots::hook;
use clash_core::RulesetEntry;

use crate::NdTourists;

/// `entry` with the game's odds in play, table bots and `clash` subcommands.
pub fn offer(entry: RulesetEntry) -> RulesetEntry {
    entry
        .with_seat_odds::<NdTourists>()
        .with_bots(hook::<NdTourists>)
        .with_review(clash_analysis::review::hook::<NdTourists>)
        .with_commands(cli::commands())
        .with_workbench(workbench::workbench())
}
