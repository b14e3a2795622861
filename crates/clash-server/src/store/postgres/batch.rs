//! Requests that wait together: a task takes every request waiting in its queue and answers
//! them all with one trip to the database, while the next ones gather. Under load a node then
//! pays one round trip for many writes (group commit), head checks or catch-up reads.

use std::future::Future;

use tokio::sync::{mpsc, oneshot};

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
    pub(super) fn start(batch: B) -> Queue<B> {
        let (waiting, rx) = mpsc::unbounded_channel();
        tokio::spawn(serve(batch, rx));
        Queue { waiting }
    }

    pub(super) async fn ask(&self, ask: B::Ask) -> Result<B::Answer, StoreError> {
        let (reply, answer) = oneshot::channel();
        let stopped = || StoreError::new("the database connection's task has stopped");
        self.waiting.send((ask, reply)).map_err(|_| stopped())?;
        answer.await.map_err(|_| stopped())?
    }
}

async fn serve<B: Batch>(mut batch: B, mut rx: mpsc::UnboundedReceiver<Waiting<B>>) {
    while let Some(first) = rx.recv().await {
        let mut waiting = vec![first];
        while waiting.len() < B::MOST {
            match rx.try_recv() {
                Ok(next) => waiting.push(next),
                Err(_) => break,
            }
        }
        let (asks, replies): (Vec<_>, Vec<_>) = waiting.into_iter().unzip();
        let answers = batch.run(&asks).await;
        for (reply, answer) in replies.into_iter().zip(answers) {
            let _ = reply.send(answer);
        }
    }
}

/// The same error for every ask of a batch that failed as a whole.
pub(super) fn all_failed<T>(count: usize, error: StoreError) -> Vec<Result<T, StoreError>> {
    (0..count).map(|_| Err(error.clone())).collect()
}
