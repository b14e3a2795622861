//! Where rules work runs.
//!
//! Short, bounded work — deciding one command, one viewer's picture, a few log lines — runs
//! [`inline`] on the task that needs it: it takes tens of microseconds, less than handing it to
//! another thread and waking the task again costs (two context switches and a wake-up each way).
//! Long work — reading a table back from its log, checking a setup, taking moves back, odds,
//! reviews, bots, studies — runs off the threads that serve requests ([`run`]), on tokio's
//! blocking thread pool, but at most as many jobs of each kind at once as the machine has cores:
//! a burst queues instead of starting hundreds of threads that fight over the cores (and starve
//! the database writer).

use std::sync::OnceLock;

use tokio::sync::Semaphore;

use crate::error::TableError;

/// The pools rules work runs in: each kind of work with its own allowance.
#[derive(Debug, Clone, Copy)]
pub enum Pool {
    /// Replaying a table's game to take moves back (the table's lock is held meanwhile).
    Decide,
    /// Long log reads, odds, records, setups and tables read back.
    Read,
    /// A seated bot thinking (no lock is held meanwhile); at most half the cores, so bots
    /// never crowd out people's commands and pictures.
    Think,
    /// A workbench study (many simulated games on one thread): one at a time, queued, so
    /// studies never take the cores from people's tables.
    Study,
}

fn allowance(kind: Pool) -> &'static Semaphore {
    static DECIDE: OnceLock<Semaphore> = OnceLock::new();
    static READ: OnceLock<Semaphore> = OnceLock::new();
    static THINK: OnceLock<Semaphore> = OnceLock::new();
    static STUDY: OnceLock<Semaphore> = OnceLock::new();
    let n = || {
        std::thread::available_parallelism()
            .map(usize::from)
            .unwrap_or(2)
    };
    match kind {
        Pool::Decide => DECIDE.get_or_init(|| Semaphore::new(n())),
        Pool::Read => READ.get_or_init(|| Semaphore::new(n())),
        Pool::Think => THINK.get_or_init(|| Semaphore::new((n() / 2).max(1))),
        Pool::Study => STUDY.get_or_init(|| Semaphore::new(1)),
    }
}

/// Run `job` on the blocking pool within its kind's allowance.
pub async fn run<T: Send + 'static>(
    kind: Pool,
    job: impl FnOnce() -> T + Send + 'static,
) -> Result<T, TableError> {
    // The semaphore is never closed, so acquiring cannot fail. The job keeps its place until
    // it ends, even if whoever waits for it stops waiting (a bot given up on).
    let permit = allowance(kind).acquire().await.ok();
    crate::metrics::COST.handoffs.inc();
    tokio::task::spawn_blocking(move || {
        let _permit = permit;
        job()
    })
    .await
    .map_err(|e| TableError::Unreadable(format!("the rules failed: {e}")))
}

/// Run short rules work here, on the calling task's thread (see the module documentation): a
/// panic in the rules is an error, as it is for work on the pool.
pub fn inline<T>(job: impl FnOnce() -> T) -> Result<T, TableError> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(job))
        .map_err(|_| TableError::Unreadable("the rules failed inside the server".into()))
}

/// Run a change as a task of its own: the caller may stop waiting, the change still finishes
/// (its commit and its note in memory go together).
pub async fn detached<T: Send + 'static>(
    work: impl Future<Output = Result<T, TableError>> + Send + 'static,
) -> Result<T, TableError> {
    crate::metrics::COST.handoffs.inc();
    tokio::spawn(work).await.unwrap_or_else(|e| {
        tracing::error!(error = %e, "a table change failed");
        Err(TableError::Unreadable(
            "the change failed inside the server".into(),
        ))
    })
}
