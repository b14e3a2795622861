//! The analysis every game shares, knowing no game: each game's own analyses (its odds, solvers,
//! bots and subcommands) live in the game's crate behind its `analysis` feature and are built on
//! this crate, which depends on no game.
//!
//! * [`matrix_game`] and [`certified`]: exact (rational) and fast (`f64`) zero-sum matrix game
//!   solving, the exact answer proved from a floating-point solution; [`matrix_input`]: matrices
//!   as people write them (integers, decimals, fractions);
//! * [`exact`]: how exact probabilities are reported (`"63/640"` plus a decimal);
//! * [`bots`]: the bot trait for simulations ([`bots::Bot`], reading the full state), and a
//!   random bot for any ruleset;
//! * [`simulate`] and [`contests`]: bot-against-bot runs in parallel with summary statistics;
//! * [`histogram`]: SVG/PNG histograms of game lengths;
//! * [`table_bots`]: what every game's table bots share (the casual bot, which commands a bot
//!   sends, the catalogue's hook); [`bot_strength`]: one table bot against another on a game's
//!   table; [`testing`]: the checks every game's bots must pass;
//! * [`review`]: reviews of finished games (skill and luck, per conflict and per player), for any
//!   ruleset that says what a side's chance is;
//! * [`workbench`]: the designer's workbench: variants of a game's rules played by its bots,
//!   measured with intervals, compared, told in sentences and drawn;
//! * [`cli`]: what every game's `clash` subcommands share (output, options, the simulation run).

pub mod bot_strength;
pub mod bots;
pub mod certified;
pub mod cli;
pub mod contests;
pub mod exact;
pub mod histogram;
pub mod matrix_game;
pub mod matrix_input;
pub mod review;
pub mod simulate;
pub mod table_bots;
pub mod testing;
pub mod workbench;
