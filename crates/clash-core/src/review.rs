//! Reviews of finished games: the skill of every decision and the luck of every roll and draw,
//! measured in each side's chance of winning, as a chess or backgammon player expects of an
//! engine's review.
//!
//! A review reads a game as its log holds it ([`Record`]: the setup, then every command with
//! the chance it took and the events it made) and is worked out by the game's own crate, which
//! knows what a chance of winning means in that game and how to compute it; the catalogue
//! carries it type-erased ([`ReviewFn`], set with [`crate::RulesetEntry::with_review`]). The
//! work is resumable ([`Reviewer`]): whoever runs it (the `clash review` command, a table
//! server's queue) gives it slices of time, reads the review as far as it has got after each,
//! and may stop it whenever it likes; what was not evaluated says so.
//!
//! Everything here is plain data: the numbers and the words a page or a terminal shows.

use std::time::Instant;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::randomness::Draw;
use crate::seat::Seat;

/// One command as the log holds it: who sent it, what it was, every roll and pick it took, and
/// the events it made (unredacted: a review is read once nothing is hidden any more).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Step {
    pub seat: Seat,
    pub command: Value,
    #[serde(default)]
    pub draws: Vec<Draw>,
    #[serde(default)]
    pub events: Vec<Value>,
}

/// A game as its log holds it: the setup it started from, and every command that stands (one
/// taken back by the GM is left out), in order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Record {
    pub setup: Value,
    pub steps: Vec<Step>,
}

/// The most commands a review takes: a long evening is a few hundred; the bound keeps a crafted
/// record from asking for unbounded work or memory.
pub const MAX_STEPS: usize = 5_000;

/// Why a review is not given.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    /// Something it would use is still hidden: the game is not over.
    #[error("{0}")]
    NotYet(String),
    /// The record does not replay through the rules.
    #[error("the record does not replay through the rules: {0}")]
    Unreadable(String),
    /// More commands than a review takes.
    #[error(
        "the game has {steps} commands; a review takes at most {max}, to keep its work bounded"
    )]
    TooLong { steps: usize, max: usize },
    /// This game has no review.
    #[error("there is no review for this game")]
    Unavailable,
}

/// A review being worked out, resumable: each call to [`Reviewer::work`] evaluates more of the
/// game, in order, until its deadline or the end.
pub trait Reviewer: Send {
    /// Evaluate the next steps until `until` (at least one step is started if any is left; a
    /// step is never cut in two). True once every step is evaluated.
    fn work(&mut self, until: Instant) -> bool;

    /// Stop here: every step not yet evaluated is reported as not evaluated, for `why`.
    fn stop(&mut self, why: &str);

    /// The review as far as it has got.
    fn review(&self) -> Review;
}

/// A ruleset's review, type-erased for the catalogue: a reviewer for `record`, or why there is
/// none (the game is not over, the record does not replay, it is too long).
pub type ReviewFn = fn(record: &Record) -> Result<Box<dyn Reviewer>, Refusal>;

/// The review of a whole table: every conflict in it, and each player over all of them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Review {
    pub ruleset: String,
    /// What a side's chance means in this game, and how the review computes it, in words.
    pub measure: Vec<String>,
    /// Each player over the whole table.
    pub players: Vec<PlayerReview>,
    pub conflicts: Vec<ConflictReview>,
    pub progress: Progress,
    /// What the review could not evaluate, each reason once with how often it applied.
    pub unevaluated: Vec<String>,
}

/// How far a review has got.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Progress {
    /// Commands in the game.
    pub steps: u32,
    /// Commands looked at so far.
    pub evaluated: u32,
    /// Every command is looked at (or the review was stopped).
    pub done: bool,
    /// Why the review stopped before its end, if it did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub stopped: Option<String>,
}

/// One side of a conflict: whose chance a line of the chart follows.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Side {
    /// As the table knows it: a character's, a party's or a player's name.
    pub name: String,
    /// The seats that play for it.
    pub seats: Vec<Seat>,
}

/// One conflict (or, in a game of one contest, the whole game).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ConflictReview {
    /// "Conflict 2: Ada against the Bruiser".
    pub title: String,
    /// The first and last step (commands of the game, from 0) that belong to it.
    pub first_step: u32,
    pub last_step: u32,
    pub sides: Vec<Side>,
    /// Each side's chance over time: before the first step, then after every evaluated step.
    pub points: Vec<ChancePoint>,
    /// Every step of the conflict with its verdict and its luck.
    pub moments: Vec<Moment>,
    /// Each player in this conflict.
    pub players: Vec<PlayerReview>,
    /// The moment that moved the chances most (an index into `moments`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub key_moment: Option<u32>,
    /// The biggest swings of the chances, largest first (indices into `moments`).
    pub swings: Vec<u32>,
    /// How it went, in plain words.
    pub summary: Vec<String>,
    /// How it ended for each side (1 won, 0 lost, shares in between), once it has.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub result: Option<Vec<f64>>,
}

/// Each side's chance at one point of a conflict.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ChancePoint {
    /// How many of the game's commands had been played at this point: the replay's step.
    pub step: u32,
    /// Per side, as `sides` lists them, from 0 to 1.
    pub chances: Vec<f64>,
    /// Dice were rolled or cards drawn in this step.
    pub roll: bool,
}

/// One step of a conflict: who did what, how good a choice it was, and how lucky its roll.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Moment {
    pub step: u32,
    pub seat: Seat,
    /// What happened, in words.
    pub text: String,
    /// Each side's chance before and after the step, where known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub before: Option<Vec<f64>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub after: Option<Vec<f64>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub decision: Option<Verdict>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub luck: Option<Luck>,
    /// What could not be evaluated here, and why.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub unevaluated: Option<String>,
}

/// How good a decision was: the chance it left its side against the best choice the seat had,
/// judged from what the seat could see when it chose.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Verdict {
    /// The side the decision was for (an index into the conflict's `sides`).
    pub side: u32,
    /// The side's chance after the choice made, and after the best one (expected over any roll
    /// the choice takes, and over the others' secret choices at their equilibrium).
    pub played: f64,
    pub best: f64,
    /// `best − played`, never below 0: the chance given away.
    pub loss: f64,
    /// The best choice in words, when another choice was better.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub best_choice: Option<String>,
    pub grade: Grade,
    /// For a choice made at the same time as others: the best reply to what they really chose.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub hindsight: Option<Hindsight>,
    /// How this verdict was reached, in words ("the duel solved exactly", "2,000 playouts").
    pub basis: String,
}

/// The best reply to what the others really chose at the same time (known only afterwards).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Hindsight {
    /// The chance the choice made left against their real choices, and the best reply's.
    pub played: f64,
    pub best: f64,
    pub loss: f64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub best_choice: Option<String>,
}

/// A decision's grade, from the chance it gave away (thresholds in [`Grade::of`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum Grade {
    /// The best choice, or as good as it.
    Best,
    /// Gave away less than an inaccuracy does.
    Good,
    Inaccuracy,
    Mistake,
    Blunder,
}

impl Grade {
    /// Lichess's thresholds in win probability: a decision that gives away at least 5
    /// percentage points of its side's chance is an inaccuracy, 10 a mistake, 15 a blunder
    /// (lichess judges 0.1, 0.2 and 0.3 of "winning chances", which run from −1 to 1).
    pub const INACCURACY: f64 = 0.05;
    pub const MISTAKE: f64 = 0.10;
    pub const BLUNDER: f64 = 0.15;
    /// A loss below this is the best choice (values are computed in floating point).
    pub const EQUAL: f64 = 1e-9;

    /// The grade of a decision that gave away `loss` (a probability).
    pub fn of(loss: f64) -> Grade {
        if loss >= Grade::BLUNDER {
            Grade::Blunder
        } else if loss >= Grade::MISTAKE {
            Grade::Mistake
        } else if loss >= Grade::INACCURACY {
            Grade::Inaccuracy
        } else if loss > Grade::EQUAL {
            Grade::Good
        } else {
            Grade::Best
        }
    }

    /// The word people see.
    pub fn word(self) -> &'static str {
        match self {
            Grade::Best => "best",
            Grade::Good => "good",
            Grade::Inaccuracy => "inaccuracy",
            Grade::Mistake => "mistake",
            Grade::Blunder => "blunder",
        }
    }
}

/// How lucky a roll or draw was for each side: its chance just after, minus the average of its
/// chance over every possible result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Luck {
    /// Per side: the average chance over every possible result.
    pub average: Vec<f64>,
    /// Per side: the chance after the real result minus that average.
    pub luck: Vec<f64>,
    /// How many different results were weighed.
    pub results: u32,
    /// The results were a random sample (too many to list), not all of them.
    pub sampled: bool,
}

/// A player (one seat) over a conflict or a whole table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct PlayerReview {
    pub seat: Seat,
    /// The name the table knows the seat by.
    pub name: String,
    /// Decisions judged (a choice among several).
    pub decisions: u32,
    /// Lichess's accuracy from 0 to 100 (see the analysis docs), once there is a decision.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub accuracy: Option<f64>,
    /// The chance given away per decision, on average.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub average_loss: Option<f64>,
    pub inaccuracies: u32,
    pub mistakes: u32,
    pub blunders: u32,
    /// Rolls and draws that moved the chances, and their luck summed for the seat's side.
    pub rolls: u32,
    pub luck: f64,
    /// How the seat's side did: 1 a win, 0 a loss, shares in between (summed over conflicts).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub result: Option<f64>,
    /// The result with the luck taken out: `result − luck`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub adjusted: Option<f64>,
}

impl PlayerReview {
    /// A player with nothing counted yet.
    pub fn new(seat: Seat, name: impl Into<String>) -> PlayerReview {
        PlayerReview {
            seat,
            name: name.into(),
            decisions: 0,
            accuracy: None,
            average_loss: None,
            inaccuracies: 0,
            mistakes: 0,
            blunders: 0,
            rolls: 0,
            luck: 0.0,
            result: None,
            adjusted: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grades_follow_lichess_thresholds_in_win_probability() {
        assert_eq!(Grade::of(0.0), Grade::Best);
        assert_eq!(Grade::of(0.049), Grade::Good);
        assert_eq!(Grade::of(0.05), Grade::Inaccuracy);
        assert_eq!(Grade::of(0.0999), Grade::Inaccuracy);
        assert_eq!(Grade::of(0.10), Grade::Mistake);
        assert_eq!(Grade::of(0.15), Grade::Blunder);
        assert_eq!(Grade::of(1.0), Grade::Blunder);
    }

    #[test]
    fn a_record_reads_back_from_json() {
        let r = Record {
            setup: serde_json::json!({"players": 2}),
            steps: vec![Step {
                seat: Seat::Player(1),
                command: serde_json::json!({"type": "roll"}),
                draws: vec![Draw::Roll { sides: 6, face: 4 }],
                events: vec![serde_json::json!({"type": "rolled", "face": 4})],
            }],
        };
        let text = serde_json::to_string(&r).unwrap();
        assert_eq!(serde_json::from_str::<Record>(&text).unwrap(), r);
    }
}
