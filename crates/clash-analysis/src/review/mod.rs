//! Reviews of finished games, for any ruleset that says what a side's chance is
//! ([`Reviewed`]): the game-free driver that replays a [`Record`] step by step, judges each
//! decision through the game, weighs the luck of each roll and draw against every result it
//! could have had ([`chance`]), and sums it all up per conflict and per player ([`score`]).
//!
//! What a game supplies:
//!
//! * [`Reviewed::conflict`]: which conflict a state is in, with its sides, so that a table of
//!   many conflicts gets one chart each;
//! * [`Reviewed::chances`]: each side's chance from a state, by the game's exact odds, solver
//!   or search; the chart, the luck and the players' results are all in these units;
//! * [`Reviewed::decision`]: a verdict on a decision, worked out from the deciding seat's own
//!   table ([`SeatTable`]: its view, its legal commands, the log as it saw it), so the best
//!   choice never rests on what that seat could not see; the state after the step is handed
//!   over for the hindsight reply to simultaneous choices only.
//!
//! Luck is game-free: for every step that rolled or drew, [`chance::outcomes`] plays the same
//! command again with every possible result, and the luck of each side is its chance after the
//! real result minus its average chance over all of them. So a side's luck over a conflict adds
//! up the swings chance alone gave it, and its result less that sum is its luck-adjusted result.

pub mod chance;
mod driver;
pub mod play;
pub mod score;

use clash_core::review::{Record, Refusal, Reviewer, Side};
use clash_core::{Ruleset, SeatTable};

pub use driver::Driver;

/// A conflict as a review charts it.
#[derive(Debug, Clone, PartialEq)]
pub struct Conflict {
    /// "Conflict 2: Ada against the Bruiser".
    pub title: String,
    pub sides: Vec<Side>,
}

/// A game's verdict on one decision, in the deciding side's chance (0 to 1).
#[derive(Debug, Clone, PartialEq)]
pub struct GameVerdict {
    /// The side the decision was for: an index into the sides of the conflict the state before
    /// the step is in.
    pub side: usize,
    /// The side's chance after the choice made and after the best choice.
    pub played: f64,
    pub best: f64,
    /// The best choice in words (shown when it was not the choice made).
    pub best_choice: String,
    /// For a choice made at the same time as others: the chances of the choice made and of the
    /// best reply against what the others really chose, and that reply in words.
    pub hindsight: Option<(f64, f64, String)>,
    /// How the verdict was reached, in words.
    pub basis: String,
}

/// What a game makes of a step.
#[derive(Debug, Clone, PartialEq)]
pub enum Judged {
    /// Not a decision to grade: nothing else could be chosen, or it is table business or
    /// words rather than play.
    NotJudged,
    Verdict(GameVerdict),
    /// A decision the review cannot grade, and why.
    Unevaluated(String),
}

/// What a review needs of a ruleset.
pub trait Reviewed: Ruleset + Sized {
    /// What a side's chance means in this game and how it is computed, in words.
    fn measure() -> Vec<String>;

    /// The conflict `state` is in, or has just ended in (until the next one starts), if any.
    fn conflict(state: &Self::State) -> Option<Conflict>;

    /// Whether the step from `before` to `after` starts a new conflict: by default when there
    /// was none before; a game whose ended conflict stays on the table until the next says so.
    fn starts_conflict(before: &Self::State, after: &Self::State) -> bool {
        Self::conflict(before).is_none() && Self::conflict(after).is_some()
    }

    /// Each side's chance in `state`, as [`Reviewed::conflict`] lists its sides; `Err` says why
    /// it cannot be evaluated. `seed` makes any sampling reproducible.
    fn chances(state: &Self::State, seed: u64) -> Result<Vec<f64>, String>;

    /// How the conflict `state` is in ended for each side (1 won, 0 lost), once it has.
    fn result(state: &Self::State) -> Option<Vec<f64>>;

    /// What the step from `before` to `after` scored for each side, added up into the
    /// conflict's result: by default the conflict's result, once it has one. A game scored by
    /// parts (rounds won, say) scores each part as it is decided.
    fn scored(before: &Self::State, after: &Self::State) -> Option<Vec<f64>> {
        match Self::result(before) {
            Some(_) => None,
            None => Self::result(after),
        }
    }

    /// Each side's chance in a state one of a roll's other results would have led to, for
    /// weighing the roll's luck: by default [`Reviewed::chances`]; a game whose chances are
    /// dear may weigh the many results of a roll more cheaply.
    fn result_chances(state: &Self::State, seed: u64) -> Result<Vec<f64>, String> {
        Self::chances(state, seed)
    }

    /// `table.seat`'s decision to send `command`, judged from its table alone; `later` holds
    /// the whole game from this step on, for the hindsight reply to simultaneous choices only.
    fn decision(
        table: &SeatTable<Self>,
        command: &Self::Command,
        later: &Later<'_, Self>,
        seed: u64,
    ) -> Judged;

    /// States a roll leads to count as one result when their keys are equal: by default the
    /// whole state; a game leaves out what its chances never read (the faces shown, say).
    fn luck_key(state: &Self::State) -> String {
        serde_json::to_string(state).unwrap_or_default()
    }

    /// The most different results of one roll whose chances a review weighs from `state`: by
    /// default [`driver::MAX_RESULTS`]; a game whose chances are dear asks for fewer.
    fn max_results(state: &Self::State) -> usize {
        let _ = state;
        driver::MAX_RESULTS
    }

    /// The step in words: by default, what its events say, a sentence each.
    fn describe(after: &Self::State, seat: clash_core::Seat, events: &[Self::Event]) -> String {
        let _ = seat;
        let lines: Vec<String> = events.iter().map(|e| Self::narrate(after, e)).collect();
        clash_core::text::sentences(&lines)
    }
}

/// The game from a step on, as it really went: for the hindsight reply to choices made at the
/// same time as others, which the others' choices, revealed later, decide.
pub struct Later<'a, R: Ruleset> {
    /// The whole state once the step is done.
    pub after: &'a R::State,
    /// The events of every later step, in order.
    pub later: Vec<&'a [R::Event]>,
}

impl<R: Ruleset> Later<'_, R> {
    /// The state after this step, then after each later step in turn.
    pub fn states(&self) -> impl Iterator<Item = R::State> + '_ {
        let mut state = self.after.clone();
        std::iter::once(self.after.clone()).chain(self.later.iter().map(move |events| {
            for e in *events {
                R::apply(&mut state, e);
            }
            state.clone()
        }))
    }
}

/// The catalogue's review hook for ruleset `R` ([`clash_core::ReviewFn`]).
pub fn hook<R: Reviewed>(record: &Record) -> Result<Box<dyn Reviewer>, Refusal> {
    Ok(Box::new(Driver::<R>::new(record)?))
}

/// `value` of the state `seat`'s `command` leads to, averaged over every result of any chance
/// it takes (the states grouped by [`Reviewed::luck_key`], each valued once): what the choice
/// is worth before its dice are rolled. `None` if the rules refuse the command, or its results
/// are too many to weigh.
pub fn expected<R: Reviewed>(
    state: &R::State,
    seat: clash_core::Seat,
    command: &R::Command,
    seed: u64,
    mut value: impl FnMut(&R::State) -> Option<Vec<f64>>,
) -> Option<Vec<f64>> {
    let found = chance::outcomes::<R>(state, seat, command, R::luck_key, seed)?;
    if found.groups.len() > R::max_results(state) {
        return None;
    }
    let mut total: Vec<f64> = Vec::new();
    for (p, s) in &found.groups {
        let v = value(s)?;
        total.resize(total.len().max(v.len()), 0.0);
        for (t, x) in total.iter_mut().zip(v) {
            *t += p * x;
        }
    }
    Some(total)
}
