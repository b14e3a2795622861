//! In A Wicked Age's analysis (feature `analysis`): everything Clash offers about the game besides
//! its rules, built on the generic analysis crate.
//!
//! * [`reports`]: exact odds of an exchange or a whole conflict (`clash odds wicked-age`), from
//!   the engine's own [`crate::odds`];
//! * [`odds_bot`]: a bot that rolls the forms with the best exact odds, for simulations;
//! * [`seat_bots`]: the casual and strong bots that take a seat at a table;
//! * [`in_play`]: the odds a seat is shown in play;
//! * [`review`]: the review of a finished table (forms, answers, concessions and agreements
//!   against exact odds; the luck of every roll);
//! * [`contests`]: the simulated games (`clash simulate wicked-age`) and the tables on which the
//!   table bots are measured;
//! * [`workbench`]: the designer's workbench: the conflicts its bots play to measure a variant;
//! * [`cli`]: the subcommands the game adds to `clash odds` and `clash simulate`.
//!
//! [`offer`] adds all of it to the catalogue's entry ([`crate::entry`]).

pub mod cli;
pub mod contests;
pub mod in_play;
pub mod odds_bot;
pub mod reports;
pub mod review;
pub mod seat_bots;
pub mod workbench;

use clash_analysis::table_bots::hook;
use clash_core::RulesetEntry;

use crate::WickedAge;

/// `entry` with the game's odds in play, table bots and `clash` subcommands.
pub fn offer(entry: RulesetEntry) -> RulesetEntry {
    entry
        .with_seat_odds::<WickedAge>()
        .with_bots(hook::<WickedAge>)
        .with_review(clash_analysis::review::hook::<WickedAge>)
        .with_commands(cli::commands())
        .with_workbench(workbench::workbench())
}
