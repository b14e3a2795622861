//! Clash's shared kernel: what every rules engine needs and nothing more.
//!
//! * [`Seat`] and [`Viewer`]: who sends commands and who looks;
//! * [`Ruleset`]: the state-machine shape of an engine (setup, decide, apply, view);
//! * [`replay`]: rebuild a state from its setup and event log;
//! * [`Randomness`]: injected chance, either [`SeededRandomness`] (ChaCha8),
//!   [`DerivedRandomness`] (verifiable chance for server tables) or [`ScriptedRandomness`]
//!   (given dice and picks, for tests and worked examples);
//! * [`RuleError`]: the typed refusal naming the rule a command breaks;
//! * [`Game`] and [`AnyGame`]: a running game, and the same driven through JSON by the CLI and
//!   the server;
//! * [`RulesetEntry`]: a ruleset as the catalogue offers it, with the hooks it fills;
//! * [`Listed`]: a ruleset's name, blurb, ready-made setups and board ([`Panel`]), for the
//!   catalogue;
//! * [`session_zero`]: the stage before play where players make their characters through each
//!   game's forms, checked field by field ([`SessionZero`], [`Staged`]);
//! * [`scenario`]: scripted play of any ruleset from a JSON scenario (`clash run`);
//! * [`odds`]: odds in play, from a seat's own view ([`SeatOdds`], [`OddsFn`]);
//! * [`text`]: a check that text meant for people shows no seat ids, indices or debug output;
//! * [`variant`]: the numbers and switches a game's rules fix, as parameters a designer may
//!   change, and named sets of changes ([`variant::Variant`]) a setup carries;
//! * [`workbench`]: a game's workbench as the catalogue offers it (its parameters, tables and
//!   the hook that plays a variant's games);
//! * [`bot`]: bots that take a seat and decide from that seat's view alone ([`SeatBot`],
//!   [`SeatTable`]), and their type-erased hook in the catalogue ([`BotFn`]);
//! * [`review`]: reviews of finished games (the skill of every decision, the luck of every
//!   roll), worked out by each game's crate and carried by the catalogue ([`ReviewFn`]).
//!
//! * [`cli`] (feature `cli`): the subcommands a ruleset adds to the `clash` command;
//! * [`testkit`] (feature `testkit`): the laws every ruleset keeps, checked over its setups and
//!   random play, for the engines' tests;
//! * [`ts`] (feature `ts`): the TypeScript declarations a game crate keeps of its view and
//!   command, checked against the Rust types.
//!
//! The kernel does no I/O.

pub mod bot;
#[cfg(feature = "cli")]
pub mod cli;
pub mod entry;
pub mod error;
pub mod game;
pub mod limits;
pub mod listing;
pub mod odds;
pub mod randomness;
pub mod review;
pub mod ruleset;
pub mod scenario;
pub mod seat;
pub mod session_zero;
#[cfg(feature = "testkit")]
pub mod testkit;
pub mod text;
#[cfg(feature = "ts")]
pub mod ts;
pub mod variant;
pub mod workbench;

pub use bot::{BadStrength, BotError, BotFn, Budget, SeatBot, SeatTable, Strength, play_seat};
pub use entry::RulesetEntry;
pub use error::{RuleError, ensure};
pub use game::{AnyGame, Game, GameError, SeenEvent};
pub use limits::TableLimits;
pub use listing::{Listed, Panel, Preset, Rules};
pub use odds::{OddsFn, SeatOdds, seat_odds};
pub use randomness::{
    CHANCE_DERIVATION, ChanceInputs, DerivedRandomness, Draw, Randomness, RandomnessError,
    RandomnessSpec, Recorder, Scripted, ScriptedRandomness, SeededRandomness, command_seed,
    shuffle,
};
pub use review::{Record, Refusal, Review, ReviewFn, Reviewer, Step};
pub use ruleset::{Ruleset, Status, execute, replay, start};
pub use seat::{BadSeat, Seat, Viewer};
pub use session_zero::{FieldError, Forms, FormsEntry, Maker, SessionZero, Staged, TableChoices};
