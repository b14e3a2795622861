//! News between the nodes on one database: each change is announced with `NOTIFY` in the
//! transaction that makes it (so it is delivered only on commit), naming the node that made it
//! and the table. Every node listens on a connection of its own and hands the news of other
//! nodes to the tables it holds ([`Notice`]); when that connection is lost it reconnects,
//! listens again, and then tells every table to catch up ([`Notice::Resync`]), since news sent
//! meanwhile is gone. Who has a table open through a node is news too (presence).

use std::time::Duration;

use deadpool_postgres::Pool;
use futures_util::StreamExt;
use futures_util::future::join_all;
use tokio::sync::mpsc;
use tokio_postgres::{AsyncMessage, Config, NoTls};

use super::CHANNEL;
use crate::metrics::DATABASE;
use crate::store::{Notice, StoreError};

/// Send presence news in the order it was told (best effort: presence is not the game, and it
/// is told again at every sweep).
pub(super) async fn tell(
    pool: Pool,
    node: String,
    mut told: mpsc::UnboundedReceiver<(String, String)>,
) {
    while let Some((table, counts)) = told.recv().await {
        let news = format!("{node} {table} {counts}");
        let sent = async {
            let client = pool.get().await?;
            let notify = client.prepare_cached("SELECT pg_notify($1, $2)").await?;
            DATABASE.round_trips.inc();
            for told in join_all(super::tell(&client, &notify, news)).await {
                told?;
            }
            Ok::<_, StoreError>(())
        };
        if let Err(e) = sent.await {
            tracing::debug!(error = %e, "presence news not sent");
        }
    }
}

/// Listen for changes on a connection of its own, for as long as anyone hears them: news of
/// other nodes' changes is passed on; after the connection is lost and found again, a resync.
pub(super) async fn listen(config: Config, node: String, news: mpsc::UnboundedSender<Notice>) {
    let mut first = true;
    loop {
        match config.connect(NoTls).await {
            Ok((client, mut connection)) => {
                let mut messages =
                    futures_util::stream::poll_fn(move |cx| connection.poll_message(cx));
                let statement = format!("LISTEN {CHANNEL}");
                let listening = client.batch_execute(&statement);
                tokio::pin!(listening);
                let mut heard = false;
                loop {
                    tokio::select! {
                        done = &mut listening, if !heard => {
                            if done.is_err() {
                                break;
                            }
                            heard = true;
                            // Anything announced while no one listened is lost: catch up.
                            if !first && news.send(Notice::Resync).is_err() {
                                return;
                            }
                            first = false;
                        }
                        message = messages.next() => match message {
                            Some(Ok(AsyncMessage::Notification(n))) => {
                                if let Some(notice) = read_news(n.payload(), &node)
                                    && news.send(notice).is_err()
                                {
                                    return;
                                }
                            }
                            Some(Ok(_)) => {}
                            Some(Err(_)) | None => break,
                        }
                    }
                }
                tracing::warn!("lost the database connection that hears other nodes' changes");
            }
            Err(e) => tracing::warn!(error = %e, "cannot reach the database to hear changes"),
        }
        if news.is_closed() {
            return;
        }
        tokio::time::sleep(Duration::from_secs(1)).await;
    }
}

/// What a notification says, unless it is this node's own: `NODE TABLE` for a change,
/// `NODE TABLE COUNTS` (a JSON object) for who has the table open through that node.
fn read_news(payload: &str, node: &str) -> Option<Notice> {
    let mut parts = payload.splitn(3, ' ');
    let (from, table) = (parts.next()?, parts.next()?);
    if from == node {
        return None;
    }
    Some(match parts.next() {
        None => Notice::Changed(table.to_string()),
        Some(counts) => Notice::Presence {
            node: from.to_string(),
            table: table.to_string(),
            counts: serde_json::from_str(counts).ok()?,
        },
    })
}
