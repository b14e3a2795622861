//! Requests that wait together: a worker takes every request waiting in its queue and answers
//! them all with one trip to the database, while the next ones gather. Under load a node then
//! pays one round trip for many writes (group commit), head checks or catch-up reads.
//!
//! A queue has a few workers, each with its own connection: while one waits for the database
//! (a commit's flush to disk, say), the next takes what has gathered meanwhile, so a request
//! waits for one trip, not for the trip before it as well. When every worker is busy, requests
//! gather into larger batches.

use std::future::Future;
use std::sync::Arc;

use tokio::sync::{Mutex, mpsc, oneshot};

use crate::store::StoreError;

/// What a queue does with the requests it gathered.
pub(super) trait Batch: Send + 'static {
    type Ask: Send + 'static;
    type Answer: Send + 'static;
    /// The most requests answered together.
    const MOST: usize;
    /// Answer `asks`, one answer each, in the order asked.
    fn run(
        &mut self,
        asks: &[Self::Ask],
    ) -> impl Future<Output = Vec<Result<Self::Answer, StoreError>>> + Send;
}

type Waiting<B> = (
    <B as Batch>::Ask,
    oneshot::Sender<Result<<B as Batch>::Answer, StoreError>>,
);

/// The queue of one [`Batch`]; its task ends when the queue is dropped.
pub(super) struct Queue<B: Batch> {
    waiting: mpsc::UnboundedSender<Waiting<B>>,
}

impl<B: Batch> Queue<B> {
    /// Start a queue served by one worker per [`Batch`] of `workers`.
    pub(super) fn start(workers: impl IntoIterator<Item = B>) -> Queue<B> {
        let (waiting, rx) = mpsc::unbounded_channel();
        let rx = Arc::new(Mutex::new(rx));
        for batch in workers {
            tokio::spawn(serve(batch, rx.clone()));
        }
        Queue { waiting }
    }

    pub(super) async fn ask(&self, ask: B::Ask) -> Result<B::Answer, StoreError> {
        let (reply, answer) = oneshot::channel();
        let stopped = || StoreError::new("the database connection's task has stopped");
        crate::metrics::COST.handoffs.inc();
        self.waiting.send((ask, reply)).map_err(|_| stopped())?;
        answer.await.map_err(|_| stopped())?
    }
}

async fn serve<B: Batch>(mut batch: B, rx: Arc<Mutex<mpsc::UnboundedReceiver<Waiting<B>>>>) {
    loop {
        // One idle worker at a time waits for requests; it lets go of the queue once it has them.
        let waiting = {
            let mut rx = rx.lock().await;
            gather::<B>(&mut rx).await
        };
        let Some(waiting) = waiting else {
            return;
        };
        let (asks, replies): (Vec<_>, Vec<_>) = waiting.into_iter().unzip();
        let answers = batch.run(&asks).await;
        for (reply, answer) in replies.into_iter().zip(answers) {
            let _ = reply.send(answer);
        }
    }
}

/// The next request and every one waiting behind it (up to [`Batch::MOST`]); `None` once the
/// queue is gone.
async fn gather<B: Batch>(rx: &mut mpsc::UnboundedReceiver<Waiting<B>>) -> Option<Vec<Waiting<B>>> {
    let mut waiting = vec![rx.recv().await?];
    while waiting.len() < B::MOST {
        match rx.try_recv() {
            Ok(next) => waiting.push(next),
            Err(_) => break,
        }
    }
    Some(waiting)
}

/// The same error for every ask of a batch that failed as a whole.
pub(super) fn all_failed<T>(count: usize, error: StoreError) -> Vec<Result<T, StoreError>> {
    (0..count).map(|_| Err(error.clone())).collect()
}
