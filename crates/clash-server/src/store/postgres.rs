//! The PostgreSQL backend: one database shared by any number of `clash serve` nodes.
//!
//! A table's log positions, command numbers and command ids are unique keys, so two nodes that
//! append to the same table at once cannot both succeed: the one that commits second gets a
//! unique violation, which comes back as [`StoreError::raced`] with nothing of that write
//! stored, and its node catches up from the log and decides again.
//!
//! Each node commits its writes in groups, one pipeline per group ([`writer`]); answers head
//! checks and catch-up reads asked together with one statement ([`read`]); and announces its
//! changes to the other nodes, and hears theirs, by `NOTIFY` ([`news`]).
//!
//! The schema versions are the shared numbered steps ([`crate::store::schema`]), the version
//! counted in the one-row `clash_schema` table; nodes starting together take an advisory lock,
//! so one of them migrates and the others then find the database up to date.

use std::sync::Mutex;
use std::time::{Duration, Instant};

use deadpool_postgres::{Manager, ManagerConfig, Pool, RecyclingMethod};
use futures_util::future::BoxFuture;
use serde_json::Value;
use tokio::sync::mpsc;
use tokio_postgres::error::SqlState;
use tokio_postgres::types::ToSql;
use tokio_postgres::{Client, Config, NoTls};

use super::schema::{Data, Schema, Step, upgrade};
use super::side::{Query, Row};
use super::{Notice, Storage, StoreError, StoredTable, TableRows, Tail, Write};
use crate::metrics::DATABASE;

mod batch;
mod news;
mod read;
mod writer;

use batch::Queue;

/// The channel changes are announced on.
const CHANNEL: &str = "clash_tables";

/// Connections each node keeps to the database for reads (besides the [`WRITERS`] and the one
/// that listens), unless `CLASH_DB_POOL` says otherwise.
const POOL_SIZE: usize = 16;

fn pool_size() -> usize {
    std::env::var("CLASH_DB_POOL")
        .ok()
        .and_then(|n| n.parse().ok())
        .filter(|n| *n > 0)
        .unwrap_or(POOL_SIZE)
}

/// Connections each node commits on (each takes whatever writes have gathered while the
/// others wait for the database), and workers for each kind of batched read.
const WRITERS: usize = 3;
const READERS: usize = 2;

/// The advisory lock held while migrating (any number that no other program uses).
const MIGRATION_LOCK: i64 = 0x636c_6173_685f_6462;

/// The statements that send `news` (the parameter of `notify`, after the channel), in a
/// transaction of their own, for a pipeline.
///
/// PostgreSQL makes the commits of all transactions that notify wait in one line, each holding
/// a lock until its commit is flushed to disk; news sent inside each node's write transaction
/// would put every node's commits in that line. So news goes after the change it tells of (in
/// the same pipeline, so it is delivered once the change is durable), in a transaction whose
/// commit does not wait for the disk: news lost in a database crash is made up for by the
/// resync every node does when its listening connection comes back. (News sent after a batch
/// that failed tells of no change: the nodes that hear it find nothing new.)
fn tell<'a, T: ToSql + Send + Sync + 'a>(
    client: &'a Client,
    notify: &'a tokio_postgres::Statement,
    news: T,
) -> [BoxFuture<'a, Result<u64, tokio_postgres::Error>>; 3] {
    let simple = |sql: &'a str| -> BoxFuture<'a, _> {
        Box::pin(async move { client.batch_execute(sql).await.map(|_| 0) })
    };
    [
        simple("BEGIN; SET LOCAL synchronous_commit TO OFF"),
        Box::pin(async move { client.execute(notify, &[&CHANNEL, &news]).await }),
        simple("COMMIT"),
    ]
}

impl From<tokio_postgres::Error> for StoreError {
    fn from(e: tokio_postgres::Error) -> Self {
        // Another node took the same log position, command number or id first (unique), or
        // deleted the table meanwhile (foreign key): this node is behind, nothing was written.
        let raced = e.code().is_some_and(|c| {
            *c == SqlState::UNIQUE_VIOLATION
                || *c == SqlState::FOREIGN_KEY_VIOLATION
                || *c == SqlState::T_R_DEADLOCK_DETECTED
                || *c == SqlState::T_R_SERIALIZATION_FAILURE
        });
        let message = match e.as_db_error() {
            Some(db) => format!("{}: {}", db.code().code(), db.message()),
            None => e.to_string(),
        };
        StoreError { message, raced }
    }
}

impl From<deadpool_postgres::PoolError> for StoreError {
    fn from(e: deadpool_postgres::PoolError) -> Self {
        match e {
            deadpool_postgres::PoolError::Backend(e) => e.into(),
            other => StoreError::new(format!("no database connection: {other}")),
        }
    }
}

/// The PostgreSQL backend (see the module's description).
pub struct PgStore {
    pool: Pool,
    writer: Queue<writer::Writer>,
    heads: Queue<read::Heads>,
    tails: Queue<read::Tails>,
    /// Presence news for the other nodes, sent in order by one task.
    presence: mpsc::UnboundedSender<(String, String)>,
    notices: Mutex<Option<mpsc::UnboundedReceiver<Notice>>>,
    shown: String,
}

/// The URL without its password, for people.
fn shown(config: &Config) -> String {
    let host = config
        .get_hosts()
        .iter()
        .map(|h| match h {
            tokio_postgres::config::Host::Tcp(name) => name.clone(),
            #[cfg(unix)]
            tokio_postgres::config::Host::Unix(path) => path.display().to_string(),
        })
        .collect::<Vec<_>>()
        .join(",");
    let port = config.get_ports().first().copied().unwrap_or(5432);
    format!(
        "postgres://{}@{host}:{port}/{}",
        config.get_user().unwrap_or(""),
        config.get_dbname().unwrap_or("")
    )
}

fn parse(url: &str) -> Result<Config, StoreError> {
    let mut config: Config = url
        .parse()
        .map_err(|e| StoreError::new(format!("reading the database URL: {e}")))?;
    // A connection whose peer vanished (a lost network, a host gone) is noticed within a minute.
    config
        .keepalives(true)
        .keepalives_idle(Duration::from_secs(20))
        .connect_timeout(Duration::from_secs(10))
        .application_name("clash");
    Ok(config)
}

/// Bring the database at `url` to the latest schema version; answers the version.
pub async fn migrate(url: &str) -> Result<usize, StoreError> {
    let config = parse(url)?;
    let (client, connection) = config.connect(NoTls).await?;
    let driver = tokio::spawn(connection);
    let result = upgrade(&mut PgSchema(client)).await;
    // Closing the connection lets go of the migration lock.
    let _ = driver.await;
    result
}

/// The PostgreSQL side of the schema runner. The migration lock is a session lock, taken
/// before the version is read and held until the connection closes.
struct PgSchema(Client);

impl Schema for PgSchema {
    async fn version(&mut self) -> Result<usize, StoreError> {
        let client = &self.0;
        client
            .execute("SELECT pg_advisory_lock($1)", &[&MIGRATION_LOCK])
            .await?;
        client
            .batch_execute("CREATE TABLE IF NOT EXISTS clash_schema (version INTEGER NOT NULL)")
            .await?;
        let version: Option<i32> = client
            .query_opt("SELECT version FROM clash_schema", &[])
            .await?
            .map(|r| r.get(0));
        Ok(version.map_or(0, |v| usize::try_from(v).unwrap_or(0)))
    }

    async fn apply(&mut self, number: usize, step: &'static Step) -> Result<(), StoreError> {
        let tx = self.0.transaction().await?;
        tx.batch_execute(step.postgres).await?;
        match step.data {
            // The data steps carry tables of older SQLite files into the log. No PostgreSQL
            // database predates version 4 (this backend came with it) and tables are copied in
            // with their log, so there is never such data here.
            // `warn_at` is added by the step's own SQL (`IF NOT EXISTS`).
            Some(Data::LegacyLog | Data::OddsSwitches | Data::OddsToLog | Data::WarnAt) | None => {}
        }
        tx.execute("DELETE FROM clash_schema", &[]).await?;
        tx.execute(
            "INSERT INTO clash_schema (version) VALUES ($1)",
            &[&(number as i32)],
        )
        .await?;
        tx.commit().await?;
        Ok(())
    }
}

impl PgStore {
    /// Connect to the database at `url` (a `postgres://` URL), bring its schema up to date, and
    /// start listening for other nodes' changes.
    pub async fn connect(url: &str) -> Result<PgStore, StoreError> {
        let config = parse(url)?;
        migrate(url).await?;
        let manager = Manager::from_config(
            config.clone(),
            NoTls,
            ManagerConfig {
                recycling_method: RecyclingMethod::Fast,
            },
        );
        let pool = Pool::builder(manager)
            .max_size(pool_size())
            .build()
            .map_err(|e| StoreError::new(e.to_string()))?;
        let node = crate::table::links::new_key();
        let (tx, rx) = mpsc::unbounded_channel();
        tokio::spawn(news::listen(config.clone(), node.clone(), tx));
        let (presence, told) = mpsc::unbounded_channel();
        tokio::spawn(news::tell(pool.clone(), node.clone(), told));
        Ok(PgStore {
            writer: Queue::start((0..WRITERS).map(|_| writer::Writer::new(&config, &node))),
            heads: Queue::start((0..READERS).map(|_| read::Heads(pool.clone()))),
            tails: Queue::start((0..READERS).map(|_| read::Tails(pool.clone()))),
            pool,
            presence,
            notices: Mutex::new(Some(rx)),
            shown: shown(&config),
        })
    }
}

impl Storage for PgStore {
    fn write(&self, write: Write) -> BoxFuture<'_, Result<(), StoreError>> {
        Box::pin(async move {
            let arrived = Instant::now();
            let done = self.writer.ask(write).await;
            DATABASE
                .commit_seconds
                .observe(arrived.elapsed().as_secs_f64());
            done
        })
    }

    fn load_table(&self, id: &str) -> BoxFuture<'_, Result<Option<StoredTable>, StoreError>> {
        let id = id.to_string();
        Box::pin(async move { read::load_table(&self.pool, &id).await })
    }

    fn load_tail(&self, id: &str, from: u64) -> BoxFuture<'_, Result<Option<Tail>, StoreError>> {
        let ask = (id.to_string(), from);
        Box::pin(self.tails.ask(ask))
    }

    fn load_tails<'a>(
        &'a self,
        asks: &'a [(String, u64)],
    ) -> BoxFuture<'a, Result<Vec<Option<Tail>>, StoreError>> {
        Box::pin(read::tails(&self.pool, asks))
    }

    fn head(&self, id: &str) -> BoxFuture<'_, Result<Option<u64>, StoreError>> {
        Box::pin(self.heads.ask(id.to_string()))
    }

    fn shared(&self) -> bool {
        true
    }

    fn read_log(&self, id: &str) -> BoxFuture<'_, Result<Vec<(Value, String)>, StoreError>> {
        let id = id.to_string();
        Box::pin(async move { read::read_log(&self.pool, &id).await })
    }

    fn count_tables(&self) -> BoxFuture<'_, Result<u64, StoreError>> {
        Box::pin(async move {
            let rows = read::query(&self.pool, "SELECT COUNT(*) FROM tables", &[]).await?;
            Ok(rows.first().map_or(0, |r| r.get::<_, i64>(0)) as u64)
        })
    }

    fn table_ids(&self) -> BoxFuture<'_, Result<Vec<String>, StoreError>> {
        Box::pin(async move {
            let sql = "SELECT id FROM tables ORDER BY created_at, id";
            let rows = read::query(&self.pool, sql, &[]).await?;
            Ok(rows.iter().map(|r| r.get(0)).collect())
        })
    }

    fn dump_table(&self, id: &str) -> BoxFuture<'_, Result<Option<TableRows>, StoreError>> {
        let id = id.to_string();
        Box::pin(async move { read::dump_table(&self.pool, &id).await })
    }

    fn select(&self, query: Query) -> BoxFuture<'_, Result<Vec<Row>, StoreError>> {
        Box::pin(async move { read::select(&self.pool, &query).await })
    }

    fn healthy(&self) -> BoxFuture<'_, bool> {
        Box::pin(async move { self.writer.ask(Write::Ping).await.is_ok() })
    }

    fn notices(&self) -> Option<mpsc::UnboundedReceiver<Notice>> {
        self.notices
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .take()
    }

    fn describe(&self) -> String {
        self.shown.clone()
    }

    fn tell_presence(&self, table: &str, counts: &std::collections::HashMap<String, usize>) {
        let counts = serde_json::to_string(counts).unwrap_or_else(|_| "{}".into());
        let _ = self.presence.send((table.to_string(), counts));
    }
}
