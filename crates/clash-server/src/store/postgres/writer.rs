//! Group commit on PostgreSQL: a writer takes every write waiting and commits them in one
//! transaction, sent as one pipeline (`BEGIN`, each write's prepared statements,
//! one `pg_notify` for the tables that changed, `COMMIT`), so a batch costs one round trip and
//! one flush of the write-ahead log however many writes it carries.
//!
//! A write that loses a race (another node stored the same log position, command number or id
//! first: a unique violation, or a deleted table: a foreign key) fails at its own statement;
//! PostgreSQL then refuses the rest of the pipeline and turns the `COMMIT` into a rollback. The
//! first failing statement names its write, which alone is answered with the error
//! ([`StoreError::raced`]); the other writes are sent again without it. Every node orders a
//! batch by table id, so two batches waiting on each other's rows always wait in the same
//! order and cannot deadlock. (A node's own writers never touch the same table at once: a
//! table's change is stored under its lock.)

use std::collections::HashMap;

use futures_util::future::{BoxFuture, join_all};
use tokio_postgres::types::ToSql;
use tokio_postgres::{Client, Config, NoTls, Statement};

use super::CHANNEL;
use super::batch::{Batch, all_failed};
use crate::metrics::DATABASE;
use crate::store::rows::Param;
use crate::store::{StoreError, Write};

/// One statement announces every table a batch changed, delivered when it commits.
const NOTIFY: &str = "SELECT pg_notify($1, news) FROM UNNEST($2::TEXT[]) AS news";

/// The writer of one node (see the module's description).
pub(super) struct Writer {
    config: Config,
    /// This node's name in the change announcements.
    node: String,
    /// The connection, while it works; made again for the next batch after it fails.
    connection: Option<Connection>,
}

struct Connection {
    client: Client,
    /// Statements prepared on this connection, by their SQL.
    prepared: HashMap<&'static str, Statement>,
}

impl Writer {
    pub(super) fn new(config: &Config, node: &str) -> Writer {
        Writer {
            config: config.clone(),
            node: node.to_string(),
            connection: None,
        }
    }

    async fn connect(&mut self) -> Result<&mut Connection, StoreError> {
        if self
            .connection
            .as_ref()
            .is_none_or(|c| c.client.is_closed())
        {
            let (client, connection) = self.config.connect(NoTls).await?;
            tokio::spawn(connection);
            DATABASE.round_trips.inc();
            self.connection = Some(Connection {
                client,
                prepared: HashMap::new(),
            });
        }
        self.connection
            .as_mut()
            .ok_or_else(|| StoreError::new("no database connection"))
    }
}

impl Batch for Writer {
    type Ask = Write;
    type Answer = ();
    const MOST: usize = 512;

    async fn run(&mut self, writes: &[Write]) -> Vec<Result<(), StoreError>> {
        let node = self.node.clone();
        match self.connect().await {
            Ok(connection) => commit(connection, &node, writes).await,
            Err(e) => all_failed(writes.len(), e),
        }
    }
}

/// Commit `writes` together; each gets its own answer.
async fn commit(
    connection: &mut Connection,
    node: &str,
    writes: &[Write],
) -> Vec<Result<(), StoreError>> {
    let mut answers: Vec<Option<Result<(), StoreError>>> = vec![None; writes.len()];
    let mut order: Vec<usize> = (0..writes.len()).collect();
    order.sort_by_key(|&i| writes[i].table());
    while !order.is_empty() {
        let batch: Vec<&Write> = order.iter().map(|&i| &writes[i]).collect();
        match connection.attempt(node, &batch).await {
            Ok(()) => order.drain(..).for_each(|i| answers[i] = Some(Ok(()))),
            // That write alone fails; the others go again without it.
            Err((Some(k), e)) => answers[order.remove(k)] = Some(Err(e)),
            Err((None, e)) => order
                .drain(..)
                .for_each(|i| answers[i] = Some(Err(e.clone()))),
        }
    }
    answers
        .into_iter()
        .map(|a| a.unwrap_or_else(|| Err(StoreError::new("a write was not answered"))))
        .collect()
}

/// Which write of a batch failed (its place in the batch; `None` when the batch failed as a
/// whole), and why.
type Failure = (Option<usize>, StoreError);

impl Connection {
    /// Prepare whichever of `sqls` this connection has not prepared yet, all in one round trip.
    async fn prepare(
        &mut self,
        sqls: impl Iterator<Item = &'static str>,
    ) -> Result<(), StoreError> {
        let mut missing: Vec<&'static str> =
            sqls.filter(|s| !self.prepared.contains_key(s)).collect();
        missing.sort_unstable();
        missing.dedup();
        if missing.is_empty() {
            return Ok(());
        }
        DATABASE.round_trips.inc();
        let client = &self.client;
        let prepared = join_all(missing.iter().map(|sql| client.prepare(sql))).await;
        for (sql, statement) in missing.into_iter().zip(prepared) {
            self.prepared.insert(sql, statement?);
        }
        Ok(())
    }

    /// Send `batch` as one transaction in one pipeline.
    async fn attempt(&mut self, node: &str, batch: &[&Write]) -> Result<(), Failure> {
        let plans: Vec<_> = batch.iter().map(|w| w.statements()).collect();
        let sqls = plans.iter().flatten().map(|s| s.sql);
        self.prepare(sqls.chain([NOTIFY]))
            .await
            .map_err(|e| (None, e))?;
        let news: Vec<String> = batch
            .iter()
            .filter_map(|w| w.announces())
            .map(|table| format!("{node} {table}"))
            .collect();
        let client = &self.client;
        // Which write each statement belongs to (`None`: the transaction's own).
        let mut owners = vec![None];
        let mut sent: Vec<BoxFuture<'_, Result<u64, tokio_postgres::Error>>> =
            vec![Box::pin(async {
                client.batch_execute("BEGIN").await.map(|_| 0)
            })];
        for (k, plan) in plans.iter().enumerate() {
            for statement in plan {
                let params = statement.params.iter().map(bind);
                sent.push(Box::pin(
                    client.execute_raw(&self.prepared[statement.sql], params),
                ));
                owners.push(Some(k));
            }
        }
        if !news.is_empty() {
            let notify = &self.prepared[NOTIFY];
            sent.push(Box::pin(async move {
                client.execute(notify, &[&CHANNEL, &news]).await
            }));
            owners.push(None);
        }
        sent.push(Box::pin(async {
            client.batch_execute("COMMIT").await.map(|_| 0)
        }));
        owners.push(None);
        DATABASE.round_trips.inc();
        // Polled together, in order: every statement is sent before the first answer is awaited.
        let results = join_all(sent).await;
        // After the first failure PostgreSQL refuses the rest and rolls back: that one counts.
        // Only the database's own refusal names a write; a lost connection fails them all.
        match results.into_iter().zip(owners).find(|(r, _)| r.is_err()) {
            Some((Err(e), owner)) => Err((owner.filter(|_| e.as_db_error().is_some()), e.into())),
            _ => Ok(()),
        }
    }
}

fn bind<'a>(param: &'a Param<'_>) -> &'a (dyn ToSql + Sync) {
    match param {
        Param::Text(t) => t,
        Param::MaybeText(t) => t,
        Param::Int(n) => n,
        Param::Bool(b) => b,
    }
}
