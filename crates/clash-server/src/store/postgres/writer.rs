//! Group commit on PostgreSQL: a writer takes every write waiting and commits them in one
//! transaction, sent as one pipeline (`BEGIN`, each write's prepared statements, `COMMIT`,
//! then the news of the tables that changed: see [`super::tell`]), so a batch costs one round
//! trip and one flush of the write-ahead log however many writes it carries.
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

use super::batch::{Batch, all_failed};
use crate::metrics::DATABASE;
use crate::store::rows::Param;
use crate::store::{StoreError, Write};

/// One statement announces every table a batch changed.
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

    /// Send `batch` as one transaction in one pipeline, its news after it.
    async fn attempt(&mut self, node: &str, batch: &[&Write]) -> Result<(), Failure> {
        let plans: Vec<_> = batch.iter().map(|w| w.statements()).collect();
        let sqls = plans.iter().flatten().map(|s| s.sql);
        let prepared = self.prepare(sqls.chain([NOTIFY])).await;
        prepared.map_err(|e| (None, e))?;
        let news: Vec<String> = batch
            .iter()
            .filter_map(|w| w.announces())
            .map(|table| format!("{node} {table}"))
            .collect();
        let client = &self.client;
        let mut parts = vec![Part::Transaction];
        let mut sent: Vec<Sent<'_>> = vec![simple(client, "BEGIN")];
        for (k, plan) in plans.iter().enumerate() {
            for statement in plan {
                let params = statement.params.iter().map(bind);
                let prepared = &self.prepared[statement.sql];
                sent.push(Box::pin(client.execute_raw(prepared, params)));
                parts.push(Part::Write(k));
            }
        }
        sent.push(simple(client, "COMMIT"));
        parts.push(Part::Transaction);
        if !news.is_empty() {
            let told = super::tell(client, &self.prepared[NOTIFY], news);
            parts.extend(told.iter().map(|_| Part::News));
            sent.extend(told);
        }
        DATABASE.round_trips.inc();
        // Polled together, in order: every statement is sent before the first answer is awaited.
        outcome(join_all(sent).await, &parts)
    }
}

/// What a statement of the pipeline belongs to.
#[derive(Debug, Clone, Copy)]
enum Part {
    /// Its `BEGIN` or `COMMIT`.
    Transaction,
    /// The write at this place in the batch.
    Write(usize),
    /// The news of the batch, sent after its commit.
    News,
}

/// A statement sent, answering how many rows it changed.
type Sent<'a> = BoxFuture<'a, Result<u64, tokio_postgres::Error>>;

fn simple<'a>(client: &'a Client, sql: &'a str) -> Sent<'a> {
    Box::pin(async move { client.batch_execute(sql).await.map(|_| 0) })
}

/// How a pipeline went. After the first failure PostgreSQL refuses the rest of the transaction
/// and turns its `COMMIT` into a rollback: that failure counts. Only the database's own refusal
/// names a write; a lost connection fails them all. News that was not sent fails no write (the
/// change is stored; other nodes see it at their next head check).
fn outcome(
    results: Vec<Result<u64, tokio_postgres::Error>>,
    parts: &[Part],
) -> Result<(), Failure> {
    let mut failed = None;
    for (result, part) in results.into_iter().zip(parts) {
        match (result, *part) {
            (Ok(_), _) => {}
            (Err(e), Part::News) => tracing::warn!(error = %e, "news of a commit was not sent"),
            (Err(e), Part::Write(k)) if failed.is_none() && e.as_db_error().is_some() => {
                failed = Some((Some(k), e.into()));
            }
            (Err(e), _) if failed.is_none() => failed = Some((None, e.into())),
            (Err(_), _) => {}
        }
    }
    failed.map_or(Ok(()), Err)
}

fn bind<'a>(param: &'a Param<'_>) -> &'a (dyn ToSql + Sync) {
    match param {
        Param::Text(t) => t,
        Param::MaybeText(t) => t,
        Param::Int(n) => n,
        Param::MaybeInt(n) => n,
        Param::Bool(b) => b,
    }
}
