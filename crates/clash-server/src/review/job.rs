//! One ended table's review job: its game read for replays, and its review as worked out so
//! far, which the table keeps (see [`super::start`]).

use std::sync::Arc;
use std::sync::Mutex as StdMutex;
use std::sync::atomic::{AtomicBool, Ordering};

use clash_core::RulesetEntry;
use clash_core::review::{Record, Review};
use serde::Serialize;

/// What became of a review so far.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum JobState {
    /// Still being worked out: the review holds the steps done so far.
    Working,
    /// Every step is looked at.
    Done,
    /// It stopped before its end (its time ran out, or the GM cancelled it): the review says
    /// which steps were not looked at.
    Stopped,
}

/// A review as the pages read it.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ReviewStatus {
    pub state: JobState,
    /// Seconds of work so far.
    pub seconds: f64,
    /// The budget, in seconds.
    pub budget: f64,
    pub review: Review,
}

/// One ended table's game, read from its log for replays, and its review being worked out
/// (or done), when its game has one.
pub struct Job {
    pub(super) latest: StdMutex<Option<ReviewStatus>>,
    pub(super) cancelled: AtomicBool,
    /// The game as the log holds it.
    pub record: Arc<Record>,
    pub entry: RulesetEntry,
}

impl Job {
    /// The review so far; `None` when the game has none.
    pub fn status(&self) -> Option<ReviewStatus> {
        self.latest
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    pub(super) fn publish(&self, state: JobState, seconds: f64, review: Review) {
        let mut s = self.latest.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(s) = s.as_mut() {
            s.state = state;
            s.seconds = seconds;
            s.review = review;
        }
    }

    /// Ask the review to stop after its current slice.
    pub fn cancel(&self) {
        self.cancelled.store(true, Ordering::Release);
    }

    pub(super) fn cancelled(&self) -> bool {
        self.cancelled.load(Ordering::Acquire)
    }
}
