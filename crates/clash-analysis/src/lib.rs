//! Analysis for Clash's rulesets: exact odds, equilibria, bots and simulations.
//!
//! Nothing here restates a rule that an engine already implements: the In A Wicked Age odds
//! come from [`wicked_age::odds`], N-Dimensional Tourists draws from
//! [`nd_tourists::probability`] and [`nd_tourists::beats`], Triforce dice from
//! [`triforce::combat`] (its private tie-break rank is restated once and checked against the
//! engine's `fight` on every face), and Iron Triangle payoffs from the engine's own turn
//! resolution, driven through `Ruleset::decide`/`apply` on a real table.
//!
//! * [`matrix_game`]: exact (rational) and fast (`f64`) zero-sum matrix game solver (simplex
//!   with Bland's rule);
//! * [`wicked_odds`], [`combat_odds`], [`draw_odds`]: exact odds reports;
//! * [`turn_game`]: the Iron Triangle conflict turn as a two-stage game, solved exactly;
//! * [`duel`]: a whole Iron Triangle duel between two level-0 characters, by backward
//!   induction over conflict states;
//! * [`bots`]: a [`bots::Bot`] per ruleset, reading the full state, for simulations;
//! * [`simulate`] and [`contests`]: bot-against-bot runs in parallel with summary statistics;
//! * [`histogram`]: SVG/PNG histograms of game lengths;
//! * [`exact`]: how exact probabilities are reported (`"63/640"` plus a decimal);
//! * [`in_play`]: the odds that bear on a seat's next choice, from that seat's own view;
//! * [`table_bots`]: bots that take a seat at a table and decide from that seat's view alone
//!   (casual and strong, for every ruleset); [`bot_strength`]: strong against casual.

// The games' subcommands still here are written as they will read in their own crates.
extern crate self as clash_analysis;

pub mod balance;
pub mod bot_strength;
pub mod bots;
pub mod certified;
pub mod cli;
pub mod contests;
pub mod duel;
pub mod exact;
pub mod game_cli;
pub mod histogram;
pub mod in_play;
pub mod matrix_game;
pub mod matrix_input;
pub mod position;
pub mod resolution;
pub mod simulate;
pub mod table_bots;
pub mod testing;
pub mod turn_game;
