//! Rules work off the threads that serve requests: deciding a command, computing a viewer's
//! picture, reading a table back from its log, checking a setup.
//!
//! It runs on tokio's blocking thread pool, but at most as many jobs of each kind at once as the
//! machine has cores: a burst of changes queues its pictures instead of starting hundreds of
//! threads that fight over the cores (and starve the database writer). Commands have their own
//! allowance, so deciding one never waits behind a queue of pictures.

use std::sync::OnceLock;

use tokio::sync::Semaphore;

use crate::error::TableError;

/// What kind of work, each with its own allowance.
#[derive(Debug, Clone, Copy)]
pub enum Kind {
    /// Deciding a command (the table's lock is held meanwhile).
    Decide,
    /// Pictures, log lines, odds, records, setups and tables read back.
    Read,
    /// A seated bot thinking (no lock is held meanwhile); at most half the cores, so bots
    /// never crowd out people's commands and pictures.
    Think,
    /// A workbench study (many simulated games on one thread): one at a time, queued, so
    /// studies never take the cores from people's tables.
    Study,
}

fn allowance(kind: Kind) -> &'static Semaphore {
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
        Kind::Decide => DECIDE.get_or_init(|| Semaphore::new(n())),
        Kind::Read => READ.get_or_init(|| Semaphore::new(n())),
        Kind::Think => THINK.get_or_init(|| Semaphore::new((n() / 2).max(1))),
        Kind::Study => STUDY.get_or_init(|| Semaphore::new(1)),
    }
}

/// Run `job` on the blocking pool within its kind's allowance.
pub async fn run<T: Send + 'static>(
    kind: Kind,
    job: impl FnOnce() -> T + Send + 'static,
) -> Result<T, TableError> {
    // The semaphore is never closed, so acquiring cannot fail. The job keeps its place until
    // it ends, even if whoever waits for it stops waiting (a bot given up on).
    let permit = allowance(kind).acquire().await.ok();
    tokio::task::spawn_blocking(move || {
        let _permit = permit;
        job()
    })
    .await
    .map_err(|e| TableError::Unreadable(format!("the rules failed: {e}")))
}
