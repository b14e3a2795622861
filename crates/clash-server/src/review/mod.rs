//! Reviews and replays of ended tables.
//!
//! Once a table has ended every roll, draw and choice in its log is revealed, and the game's own
//! crate can review it ([`clash_core::ReviewFn`]): the skill of every decision and the luck of
//! every roll. Before the end nothing of it is given: the request is refused with the reason.
//!
//! A review is queued work, off the request path: the first request makes a job for the table
//! ([`Job`]), which a task of its own works through in slices of [`SLICE`] on the blocking pool,
//! sharing the bots' allowance ([`crate::work::Pool::Think`]) one slice at a time, so a bot
//! waiting to think waits at most for one slice, and two reviews never run at once. After each
//! slice the review as far as it has got is published for the pages, which poll it: the first
//! steps show within a couple of seconds, while the rest is worked out. A job has a time budget
//! ([`crate::Limits::review_time`]); once it runs out, or the GM cancels it, the review stops
//! where it is and says which steps it did not look at. Its memory is bounded by the review's
//! own bounds (at most [`clash_core::review::MAX_STEPS`] commands, a bounded number of results
//! and playouts per step). The job is kept with the table while the table is in memory, so
//! asking again is answered at once.
//!
//! [`replay`] gives the table's log step by step as one seat saw it, with what was revealed
//! later marked as such.

pub(crate) mod job;
pub mod record;
pub mod replay;

use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex as StdMutex, OnceLock};
use std::time::{Duration, Instant};

use clash_core::review::Reviewer;
use tokio::sync::Semaphore;

pub use job::{Job, JobState, ReviewStatus};

use crate::error::{Conflict, TableError};
use crate::server::Server;
use crate::table::Table;
use crate::work::{self, Pool};

/// How long one slice of a review's work runs before it lets others (bots above all) have
/// the allowance.
pub const SLICE: Duration = Duration::from_millis(250);

/// Refused: the table has not ended.
pub fn not_ended() -> TableError {
    TableError::conflict(
        Conflict::NotEnded,
        "the review and the replay open once the table has ended: until then some choices, \
         cards or the secret behind the dice are still hidden, and a review would give them away",
    )
}

/// The table's job, made now if it has none (or its review was cancelled): `record` is the
/// table's record, read only then. A record that is not whole (the table has not ended) is
/// refused.
pub async fn start(
    server: &Arc<Server>,
    table: &Arc<Table>,
    record: impl std::future::Future<Output = Result<serde_json::Value, TableError>>,
) -> Result<Arc<Job>, TableError> {
    if let Some(job) = current(table).filter(|j| !j.cancelled()) {
        return Ok(job);
    }
    let entry = server
        .entry(table.ruleset)
        .ok_or_else(|| TableError::Unreadable("its ruleset is not offered here".into()))?;
    let doc = record.await?;
    let read = record::read(&doc).map_err(TableError::Unreadable)?;
    if !read.whole {
        return Err(not_ended());
    }
    let record = Arc::new(read.record);
    let reviewer = match entry.review {
        Some(hook) => {
            let record = record.clone();
            let made = work::run(Pool::Read, move || hook(&record)).await?;
            Some(made.map_err(|e| TableError::Unreadable(e.to_string()))?)
        }
        None => None,
    };
    let budget = server.limits().review_time;
    let job = Arc::new(Job {
        latest: StdMutex::new(reviewer.as_ref().map(|r| ReviewStatus {
            state: JobState::Working,
            seconds: 0.0,
            budget: budget.as_secs_f64(),
            review: r.review(),
        })),
        cancelled: AtomicBool::new(false),
        record,
        entry,
    });
    if let Ok(mut slot) = table.review.lock() {
        *slot = Some(job.clone());
    }
    if let Some(reviewer) = reviewer {
        tokio::spawn(run(job.clone(), reviewer, budget));
    }
    Ok(job)
}

/// The table's job, if one was made.
pub fn current(table: &Table) -> Option<Arc<Job>> {
    table.review.lock().ok().and_then(|j| j.clone())
}

/// One review slice at a time, server-wide: reviews queue behind each other, never in front
/// of more than one slice of bots' thinking.
fn turn() -> &'static Semaphore {
    static TURN: OnceLock<Semaphore> = OnceLock::new();
    TURN.get_or_init(|| Semaphore::new(1))
}

type Shared = Arc<StdMutex<Box<dyn Reviewer>>>;

/// Stop `reviewer` for `why` and publish where it got to.
fn stop(job: &Job, reviewer: &Shared, why: &str, spent: Duration) {
    let mut r = reviewer.lock().unwrap_or_else(|e| e.into_inner());
    r.stop(why);
    job.publish(JobState::Stopped, spent.as_secs_f64(), r.review());
}

/// Work `reviewer` through, slice by slice, within `budget`.
async fn run(job: Arc<Job>, reviewer: Box<dyn Reviewer>, budget: Duration) {
    let reviewer: Shared = Arc::new(StdMutex::new(reviewer));
    let mut spent = Duration::ZERO;
    loop {
        if job.cancelled() {
            return stop(&job, &reviewer, "the GM cancelled the review", spent);
        }
        if spent >= budget {
            let why = format!(
                "the review's time budget of {} seconds ran out",
                budget.as_secs()
            );
            return stop(&job, &reviewer, &why, spent);
        }
        let _turn = turn().acquire().await.ok();
        let slice = SLICE
            .min(budget.saturating_sub(spent))
            .max(Duration::from_millis(1));
        let r = reviewer.clone();
        let started = Instant::now();
        let out = work::run(Pool::Think, move || {
            let mut r = r.lock().unwrap_or_else(|e| e.into_inner());
            let done = r.work(Instant::now() + slice);
            (done, r.review())
        })
        .await;
        spent += started.elapsed();
        match out {
            Ok((true, review)) => return job.publish(JobState::Done, spent.as_secs_f64(), review),
            Ok((false, review)) => job.publish(JobState::Working, spent.as_secs_f64(), review),
            Err(e) => {
                tracing::error!(reason = %e, "a review failed");
                return stop(&job, &reviewer, "the review failed on this server", spent);
            }
        }
    }
}
