//! The designer's workbench as the catalogue offers it ([`Workbench`], set with
//! [`crate::RulesetEntry::with_workbench`]): a game's rule parameters, the tables its bots play
//! to measure them, and the hook that plays many games of one variant and reports, game by
//! game, what happened ([`Observed`]) in terms no game owns. The metrics, intervals,
//! comparisons, findings and plots built on these live in the analysis crate, which knows no
//! game; the games' own pieces (which parameters, how a game is scored, what counts as an
//! option) live in each game's crate.
//!
//! Everything here is plain data: no I/O, no threads of its own.

use std::sync::atomic::AtomicBool;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::error::RuleError;
use crate::variant::{Params, Variant};

/// Which bots play a simulated game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Mix {
    /// Every seat casual (uniformly random among what a bot sends).
    Casual,
    /// Every seat strong.
    Strong,
    /// One seat, drawn at random each game, strong; the others casual.
    Mixed,
}

impl Mix {
    pub const ALL: [Mix; 3] = [Mix::Casual, Mix::Strong, Mix::Mixed];

    /// The mix in words ("casual bots").
    pub fn words(self) -> &'static str {
        match self {
            Mix::Casual => "casual bots",
            Mix::Strong => "strong bots",
            Mix::Mixed => "one strong bot against casual ones",
        }
    }
}

/// One table a game's workbench plays: a setup the bots play from start to end.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct BenchTable {
    /// Its name on the command line and in the form (`kaiju`).
    pub key: &'static str,
    /// What it is, in a sentence.
    pub about: &'static str,
    /// The seats' names for people, in seat order (what [`Observed::winners`] index).
    pub seats: &'static [&'static str],
    /// The unit of a game's length ("rounds", "turns").
    pub unit: &'static str,
    /// What "ahead" means mid-game, for decisiveness and lead changes ("holding Control").
    pub lead: &'static str,
}

/// A suggested variant: a name and its changes as people type them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Suggested {
    pub name: &'static str,
    pub changes: &'static str,
    /// Why a designer might try it.
    pub why: &'static str,
}

/// Games to play of one variant on one table with one mix of bots.
#[derive(Debug, Clone, PartialEq)]
pub struct Trial {
    /// Index into [`Workbench::tables`].
    pub table: usize,
    /// `None`: the rules as written.
    pub variant: Option<Variant>,
    pub mix: Mix,
    pub games: u64,
    /// Game `i` draws all its chance from this seed and `i`, so results depend on neither the
    /// threads nor the order games finish in.
    pub seed: u64,
    /// A strong bot's work per command (its [`crate::Budget::work`]; no clock, so a seed
    /// gives the same games on any machine).
    pub work: u32,
    /// Worker threads (`None`: all cores).
    pub threads: Option<usize>,
}

/// How a simulated game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Ending {
    /// The rules named a winner (or winners sharing it).
    Won,
    /// The rules ended it with nobody winning (nobody left, a drawn count).
    NoWinner,
    /// A limit ended it: the rules' own (a turn limit) or the table's cap on its length.
    Limit,
    /// It stopped unfinished: nobody could, or any bot would, do anything more.
    Stall,
}

/// How many times a strong bot could choose an option, and did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OptionUse {
    /// The option in a player's words ("cover with a Reserve card", "G-L").
    pub option: String,
    /// Decisions where it was among the bot's choices.
    pub offered: u32,
    /// Decisions where the bot chose it.
    pub chosen: u32,
}

/// One simulated game, as the analysis crate measures it. Seats are positions in
/// [`BenchTable::seats`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Observed {
    /// Empty unless the rules named winners.
    pub winners: Vec<u8>,
    /// Length in the table's unit.
    pub length: u32,
    pub ending: Ending,
    /// The seat with the initiative (the first to act, or whom the rules favour at the start).
    pub first: Option<u8>,
    /// In a mixed game: the strong seat, and a casual seat drawn to compare it with.
    pub strong: Option<u8>,
    pub compared: Option<u8>,
    /// The seat ahead halfway through the game, if one was ahead alone.
    pub midpoint_leader: Option<u8>,
    /// How often the seat ahead alone changed.
    pub lead_changes: u32,
    /// Each seat's luck: how much better than expected its chance came out, summed over the
    /// game (0 on average); empty for a game without chance.
    pub luck: Vec<f64>,
    /// The strong seats' decisions, by option.
    pub options: Vec<OptionUse>,
}

/// How much of an exact table to solve.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ExactRequest {
    /// At most this many entries a side (a table of `n × n` cells).
    pub size: usize,
    pub threads: Option<usize>,
}

/// An exact balance table from a game's solver: rows against columns, each cell the value to
/// the row's side (P(row wins) − P(column wins)) with best play.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ExactTable {
    pub title: String,
    /// Who the rows are ("the PC's build, acting first").
    pub rows_are: String,
    pub cols_are: String,
    pub rows: Vec<String>,
    pub cols: Vec<String>,
    /// `values[r][c]`; `None` where the solver did not answer (stopped, or beyond its bounds).
    pub values: Vec<Vec<Option<f64>>>,
    /// What the table covers and what it leaves out.
    pub note: String,
}

/// Play the games of a trial: every finished game's observation, in game order, stopping early
/// (with what is done) once `stop` is set; `progress` is called once per finished game. A
/// refusal names the rule a variant's number breaks.
pub type PlayFn = fn(
    trial: &Trial,
    progress: &(dyn Fn() + Sync),
    stop: &AtomicBool,
) -> Result<Vec<Observed>, RuleError>;

/// Solve a game's exact balance table under a variant.
pub type ExactFn = fn(
    variant: Option<&Variant>,
    request: &ExactRequest,
    progress: &(dyn Fn() + Sync),
    stop: &AtomicBool,
) -> Result<ExactTable, RuleError>;

/// A game's workbench.
#[derive(Clone, Copy)]
pub struct Workbench {
    /// The numbers and switches its rules fix.
    pub params: Params,
    /// The tables its bots play, the first by default.
    pub tables: &'static [BenchTable],
    /// Variants worth trying.
    pub suggested: &'static [Suggested],
    pub play: PlayFn,
    /// The exact balance table, where the game's solver answers.
    pub exact: Option<ExactFn>,
}

/// `setup` with `variant` in its `variant` field (every game that offers a workbench reads its
/// variant there); `None` when the setup is not a JSON object.
pub fn with_variant(setup: &Value, variant: &Variant) -> Option<Value> {
    let mut setup = setup.as_object()?.clone();
    setup.insert(
        "variant".into(),
        serde_json::to_value(variant).unwrap_or(Value::Null),
    );
    Some(Value::Object(setup))
}

/// The variant a setup carries, if any (`None` also for a malformed one: the game refuses it).
pub fn variant_of(setup: &Value) -> Option<Variant> {
    serde_json::from_value(setup.get("variant")?.clone()).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_variant_goes_into_a_setup_and_comes_back() {
        let v = Variant::new(
            "short fuse",
            crate::variant::parse_changes("wipe_out=4").unwrap(),
        );
        let setup = serde_json::json!({"players": 3});
        let with = with_variant(&setup, &v).unwrap();
        assert_eq!(with["players"], 3);
        assert_eq!(variant_of(&with), Some(v.clone()));
        assert_eq!(variant_of(&setup), None);
        assert!(with_variant(&serde_json::json!([1]), &v).is_none());
    }
}
