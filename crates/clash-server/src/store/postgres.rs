//! The PostgreSQL backend: one database shared by any number of `clash serve` nodes.
//!
//! Every write is its own transaction on a pooled connection. A table's log positions,
//! command numbers and command ids are unique keys, so two nodes that append to the same
//! table at once cannot both succeed: the one that commits second gets a unique violation,
//! which comes back as [`StoreError::raced`] with nothing written, and its node catches up from
//! the log and decides again. The log rows are inserted first, so a losing transaction waits
//! on the winner's row and touches nothing else.
//!
//! Each change is announced in its transaction with `NOTIFY` (delivered only on commit), naming
//! the node that made it and the table. Every node listens on a connection of its own and hands
//! the news of other nodes to the tables it holds ([`Notice`]); when that connection is lost it
//! reconnects, listens again, and then tells every table to catch up ([`Notice::Resync`]), since
//! news sent meanwhile is gone.
//!
//! The schema versions are the SQLite backend's, in PostgreSQL's dialect, counted in the
//! `clash_schema` table; nodes starting together take an advisory lock so one of them migrates.

use std::sync::Mutex;
use std::time::Duration;

use deadpool_postgres::{Manager, ManagerConfig, Pool, RecyclingMethod};
use futures_util::StreamExt;
use futures_util::future::BoxFuture;
use serde_json::Value;
use tokio::sync::mpsc;
use tokio_postgres::error::SqlState;
use tokio_postgres::{AsyncMessage, Config, IsolationLevel, NoTls};

use super::{
    LinkChange, LinkStatus, Notice, Storage, StoreError, StoredLink, StoredTable, TableRows, Tail,
    Write, parse_json, read_entry,
};
use crate::log::{Chance, Entry, Hash, hex, unhex};

/// The channel changes are announced on.
const CHANNEL: &str = "clash_tables";

/// Connections each node keeps to the database (besides the one that listens), unless
/// `CLASH_DB_POOL` says otherwise.
const POOL_SIZE: usize = 16;

fn pool_size() -> usize {
    std::env::var("CLASH_DB_POOL")
        .ok()
        .and_then(|n| n.parse().ok())
        .filter(|n| *n > 0)
        .unwrap_or(POOL_SIZE)
}

/// The advisory lock held while migrating (any number that no other program uses).
const MIGRATION_LOCK: i64 = 0x636c_6173_685f_6462;

/// The schema versions, numbered as the SQLite backend's (version n is `STEPS[n - 1]`).
///
/// Version 2's data step (chaining the events of tables made before the table log) has nothing
/// to do here: a PostgreSQL database starts empty, and tables copied in already have their log.
pub const STEPS: [&str; 4] = [
    // 1: tables, links, commands and the old event rows.
    "CREATE TABLE tables (
        id TEXT PRIMARY KEY,
        ruleset TEXT NOT NULL,
        title TEXT NOT NULL,
        setup TEXT NOT NULL,
        seed BIGINT NOT NULL,
        created_at BIGINT NOT NULL
    );
    CREATE TABLE links (
        key TEXT PRIMARY KEY,
        table_id TEXT NOT NULL REFERENCES tables(id),
        role TEXT NOT NULL,
        npc BOOLEAN NOT NULL DEFAULT FALSE,
        made BIGSERIAL
    );
    CREATE INDEX links_by_table ON links(table_id, made);
    CREATE TABLE commands (
        table_id TEXT NOT NULL REFERENCES tables(id),
        n BIGINT NOT NULL,
        seat TEXT NOT NULL,
        command TEXT NOT NULL,
        PRIMARY KEY (table_id, n)
    );
    CREATE TABLE events (
        table_id TEXT NOT NULL REFERENCES tables(id),
        idx BIGINT NOT NULL,
        event TEXT NOT NULL,
        PRIMARY KEY (table_id, idx)
    );",
    // 2: the hash-chained table log, the server secret, link states and command ids.
    "ALTER TABLE tables ADD COLUMN secret TEXT;
    ALTER TABLE tables ADD COLUMN chance TEXT NOT NULL DEFAULT 'legacy';
    ALTER TABLE links ADD COLUMN status TEXT NOT NULL DEFAULT 'active';
    UPDATE links SET status = 'npc' WHERE npc;
    UPDATE links SET status = 'invite' WHERE NOT npc AND role NOT IN ('owner', 'spectator');
    ALTER TABLE commands ADD COLUMN command_id TEXT;
    CREATE UNIQUE INDEX commands_by_id ON commands(table_id, command_id)
        WHERE command_id IS NOT NULL;
    CREATE TABLE log (
        table_id TEXT NOT NULL REFERENCES tables(id),
        pos BIGINT NOT NULL,
        entry TEXT NOT NULL,
        hash TEXT NOT NULL,
        PRIMARY KEY (table_id, pos)
    );",
    // 3: the odds-in-play switch is a column of the table.
    "ALTER TABLE tables ADD COLUMN odds BOOLEAN NOT NULL DEFAULT FALSE;",
    // 4: the odds switch is a table event in the log, and the column goes. (SQLite's step also
    // logs each switch that was on; no PostgreSQL database predates version 4, since this
    // backend came with it, so there is none to log here.)
    "ALTER TABLE tables DROP COLUMN odds;",
];

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
    /// Presence news for the other nodes, sent in order by one task.
    presence: mpsc::UnboundedSender<(String, String)>,
    /// This node's name in the change announcements (random per start).
    node: String,
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
    let (mut client, connection) = config.connect(NoTls).await?;
    let driver = tokio::spawn(connection);
    let result = migrate_with(&mut client).await;
    drop(client);
    let _ = driver.await;
    result
}

async fn migrate_with(client: &mut tokio_postgres::Client) -> Result<usize, StoreError> {
    let tx = client.transaction().await?;
    tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK])
        .await?;
    tx.batch_execute("CREATE TABLE IF NOT EXISTS clash_schema (version INTEGER NOT NULL)")
        .await?;
    let version: i32 = tx
        .query_opt("SELECT version FROM clash_schema", &[])
        .await?
        .map_or(0, |r| r.get(0));
    let version = usize::try_from(version).unwrap_or(0);
    if version > STEPS.len() {
        return Err(StoreError::new(format!(
            "the database is at schema version {version}, newer than this build knows ({}): upgrade clash",
            STEPS.len()
        )));
    }
    for step in &STEPS[version..] {
        tx.batch_execute(step).await?;
    }
    let latest = STEPS.len() as i32;
    tx.execute("DELETE FROM clash_schema", &[]).await?;
    tx.execute("INSERT INTO clash_schema (version) VALUES ($1)", &[&latest])
        .await?;
    tx.commit().await?;
    Ok(STEPS.len())
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
        let node = crate::links::new_key();
        let (tx, rx) = mpsc::unbounded_channel();
        tokio::spawn(listen(config.clone(), node.clone(), tx));
        let (presence, told) = mpsc::unbounded_channel();
        tokio::spawn(tell(pool.clone(), node.clone(), told));
        Ok(PgStore {
            pool,
            presence,
            node,
            notices: Mutex::new(Some(rx)),
            shown: shown(&config),
        })
    }

    async fn commit(&self, write: &Write) -> Result<(), StoreError> {
        let mut client = self.pool.get().await?;
        if let Write::Ping = write {
            client.simple_query("SELECT 1").await?;
            return Ok(());
        }
        let tx = client.transaction().await?;
        if let Some(table) = apply(&tx, write).await? {
            let news = format!("{} {table}", self.node);
            let notify = tx.prepare_cached("SELECT pg_notify($1, $2)").await?;
            tx.execute(&notify, &[&CHANNEL, &news]).await?;
        }
        tx.commit().await?;
        Ok(())
    }
}

/// A read-only transaction that sees the database at one moment.
async fn snapshot(
    client: &mut deadpool_postgres::Client,
) -> Result<deadpool_postgres::Transaction<'_>, StoreError> {
    Ok(client
        .build_transaction()
        .isolation_level(IsolationLevel::RepeatableRead)
        .read_only(true)
        .start()
        .await?)
}

/// Send presence news in the order it was told (best effort: presence is not the game, and it
/// is told again at every sweep).
async fn tell(pool: Pool, node: String, mut told: mpsc::UnboundedReceiver<(String, String)>) {
    while let Some((table, counts)) = told.recv().await {
        let news = format!("{node} {table} {counts}");
        let sent = async {
            let client = pool.get().await?;
            let notify = client.prepare_cached("SELECT pg_notify($1, $2)").await?;
            client.execute(&notify, &[&CHANNEL, &news]).await?;
            Ok::<_, StoreError>(())
        };
        if let Err(e) = sent.await {
            tracing::debug!(error = %e, "presence news not sent");
        }
    }
}

/// Listen for changes on a connection of its own, for as long as anyone hears them: news of
/// other nodes' changes is passed on; after the connection is lost and found again, a resync.
async fn listen(config: Config, node: String, news: mpsc::UnboundedSender<Notice>) {
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

/// Apply one write in `tx`; answers the table to announce, if any.
async fn apply(
    tx: &deadpool_postgres::Transaction<'_>,
    write: &Write,
) -> Result<Option<String>, StoreError> {
    match write {
        Write::CreateTable {
            id,
            ruleset,
            title,
            setup,
            secret,
            links,
            log,
        } => {
            let now = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_secs() as i64);
            tx.execute(
                "INSERT INTO tables (id, ruleset, title, setup, seed, created_at, secret, chance) VALUES ($1, $2, $3, $4, 0, $5, $6, 'clash-chance-v1')",
                &[id, ruleset, title, &setup.to_string(), &now, &hex(secret)],
            )
            .await?;
            insert_log(tx, id, log).await?;
            for l in links {
                insert_link(tx, id, l).await?;
            }
            Ok(None)
        }
        Write::Append {
            table_id,
            log,
            command,
            links,
        } => {
            // The log first: a node that is behind waits here on the winner's row, then fails.
            insert_log(tx, table_id, log).await?;
            if let Some(c) = command {
                let insert = tx
                    .prepare_cached(
                        "INSERT INTO commands (table_id, n, seat, command, command_id) VALUES ($1, $2, $3, $4, $5)",
                    )
                    .await?;
                tx.execute(
                    &insert,
                    &[
                        table_id,
                        &(c.n as i64),
                        &c.seat,
                        &c.command.to_string(),
                        &c.id,
                    ],
                )
                .await?;
            }
            for change in links {
                change_link(tx, table_id, change).await?;
            }
            Ok(Some(table_id.clone()))
        }
        Write::DeleteTable { id } => {
            for table in ["log", "commands", "events", "links"] {
                tx.execute(&format!("DELETE FROM {table} WHERE table_id = $1"), &[id])
                    .await?;
            }
            tx.execute("DELETE FROM tables WHERE id = $1", &[id])
                .await?;
            Ok(Some(id.clone()))
        }
        Write::Restore(rows) => {
            restore(tx, rows).await?;
            Ok(None)
        }
        Write::Ping => Ok(None),
    }
}

async fn insert_log(
    tx: &deadpool_postgres::Transaction<'_>,
    table_id: &str,
    log: &[(u64, Value, Hash)],
) -> Result<(), StoreError> {
    let positions: Vec<i64> = log.iter().map(|(p, _, _)| *p as i64).collect();
    let entries: Vec<String> = log.iter().map(|(_, e, _)| e.to_string()).collect();
    let hashes: Vec<String> = log.iter().map(|(_, _, h)| hex(h)).collect();
    let insert = tx
        .prepare_cached(
            "INSERT INTO log (table_id, pos, entry, hash) SELECT $1, * FROM UNNEST($2::BIGINT[], $3::TEXT[], $4::TEXT[])",
        )
        .await?;
    tx.execute(&insert, &[&table_id, &positions, &entries, &hashes])
        .await?;
    Ok(())
}

async fn change_link(
    tx: &deadpool_postgres::Transaction<'_>,
    table_id: &str,
    change: &LinkChange,
) -> Result<(), StoreError> {
    match change {
        LinkChange::RemoveRole(role) => {
            tx.execute(
                "DELETE FROM links WHERE table_id = $1 AND role = $2",
                &[&table_id, role],
            )
            .await?;
        }
        LinkChange::Remove(key) => {
            tx.execute(
                "DELETE FROM links WHERE table_id = $1 AND key = $2",
                &[&table_id, key],
            )
            .await?;
        }
        LinkChange::Add(link) => insert_link(tx, table_id, link).await?,
        LinkChange::SetStatus { key, status } => {
            tx.execute(
                "UPDATE links SET status = $1, npc = $2 WHERE table_id = $3 AND key = $4",
                &[
                    &status.as_str(),
                    &(*status == LinkStatus::Npc),
                    &table_id,
                    key,
                ],
            )
            .await?;
        }
    }
    Ok(())
}

async fn insert_link(
    tx: &deadpool_postgres::Transaction<'_>,
    table_id: &str,
    l: &StoredLink,
) -> Result<(), StoreError> {
    tx.execute(
        "INSERT INTO links (key, table_id, role, npc, status) VALUES ($1, $2, $3, $4, $5)",
        &[
            &l.key,
            &table_id,
            &l.role,
            &(l.status == LinkStatus::Npc),
            &l.status.as_str(),
        ],
    )
    .await?;
    Ok(())
}

async fn restore(tx: &deadpool_postgres::Transaction<'_>, t: &TableRows) -> Result<(), StoreError> {
    tx.execute(
        "INSERT INTO tables (id, ruleset, title, setup, seed, created_at, secret, chance) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
        &[
            &t.id,
            &t.ruleset,
            &t.title,
            &t.setup,
            &t.seed,
            &t.created_at,
            &t.secret,
            &t.chance,
        ],
    )
    .await?;
    for (key, role, status) in &t.links {
        tx.execute(
            "INSERT INTO links (key, table_id, role, npc, status) VALUES ($1, $2, $3, $4, $5)",
            &[key, &t.id, role, &(status == "npc"), status],
        )
        .await?;
    }
    for (n, seat, command, id) in &t.commands {
        tx.execute(
            "INSERT INTO commands (table_id, n, seat, command, command_id) VALUES ($1, $2, $3, $4, $5)",
            &[&t.id, n, seat, command, id],
        )
        .await?;
    }
    let positions: Vec<i64> = t.log.iter().map(|(p, _, _)| *p).collect();
    let entries: Vec<&str> = t.log.iter().map(|(_, e, _)| e.as_str()).collect();
    let hashes: Vec<&str> = t.log.iter().map(|(_, _, h)| h.as_str()).collect();
    tx.execute(
        "INSERT INTO log (table_id, pos, entry, hash) SELECT $1, * FROM UNNEST($2::BIGINT[], $3::TEXT[], $4::TEXT[])",
        &[&t.id, &positions, &entries, &hashes],
    )
    .await?;
    Ok(())
}

async fn load_links(
    tx: &deadpool_postgres::Transaction<'_>,
    id: &str,
) -> Result<Vec<StoredLink>, StoreError> {
    let rows = tx
        .query(
            "SELECT key, role, status FROM links WHERE table_id = $1 ORDER BY made",
            &[&id],
        )
        .await?;
    rows.iter()
        .map(|r| {
            Ok(StoredLink {
                key: r.get(0),
                role: r.get(1),
                status: LinkStatus::parse(r.get(2))?,
            })
        })
        .collect()
}

async fn load_log(
    tx: &deadpool_postgres::Transaction<'_>,
    id: &str,
    from: u64,
) -> Result<Vec<(Entry, Hash)>, StoreError> {
    let rows = tx
        .query(
            "SELECT entry, hash FROM log WHERE table_id = $1 AND pos >= $2 ORDER BY pos",
            &[&id, &(from as i64)],
        )
        .await?;
    rows.iter()
        .map(|r| read_entry(id, r.get(0), r.get(1)))
        .collect()
}

async fn load_table(
    tx: &deadpool_postgres::Transaction<'_>,
    id: &str,
) -> Result<Option<StoredTable>, StoreError> {
    let row = tx
        .query_opt(
            "SELECT ruleset, title, setup, seed, secret, chance FROM tables WHERE id = $1",
            &[&id],
        )
        .await?;
    let Some(row) = row else {
        return Ok(None);
    };
    let secret: Option<String> = row.get(4);
    let secret = secret
        .as_deref()
        .and_then(unhex)
        .ok_or_else(|| StoreError::new(format!("table {id} has no secret")))?;
    let chance: String = row.get(5);
    let commands: Option<i64> = tx
        .query_one(
            "SELECT MAX(n) + 1 FROM commands WHERE table_id = $1",
            &[&id],
        )
        .await?
        .get(0);
    let seed: i64 = row.get(3);
    Ok(Some(StoredTable {
        id: id.to_string(),
        ruleset: row.get(0),
        title: row.get(1),
        setup: parse_json(row.get(2), "setup")?,
        seed: seed as u64,
        secret,
        chance: match chance.as_str() {
            "clash-chance-v1" => Chance::V1,
            _ => Chance::Legacy,
        },
        links: load_links(tx, id).await?,
        commands: commands.unwrap_or(0) as u64,
        log: load_log(tx, id, 0).await?,
    }))
}

async fn dump_table(
    tx: &deadpool_postgres::Transaction<'_>,
    id: &str,
) -> Result<Option<TableRows>, StoreError> {
    let row = tx
        .query_opt(
            "SELECT ruleset, title, setup, seed, created_at, secret, chance FROM tables WHERE id = $1",
            &[&id],
        )
        .await?;
    let Some(r) = row else {
        return Ok(None);
    };
    let links = tx
        .query(
            "SELECT key, role, status FROM links WHERE table_id = $1 ORDER BY made",
            &[&id],
        )
        .await?;
    let commands = tx
        .query(
            "SELECT n, seat, command, command_id FROM commands WHERE table_id = $1 ORDER BY n",
            &[&id],
        )
        .await?;
    let log = tx
        .query(
            "SELECT pos, entry, hash FROM log WHERE table_id = $1 ORDER BY pos",
            &[&id],
        )
        .await?;
    Ok(Some(TableRows {
        id: id.to_string(),
        ruleset: r.get(0),
        title: r.get(1),
        setup: r.get(2),
        seed: r.get(3),
        created_at: r.get(4),
        secret: r.get(5),
        chance: r.get(6),
        links: links
            .iter()
            .map(|l| (l.get(0), l.get(1), l.get(2)))
            .collect(),
        commands: commands
            .iter()
            .map(|c| (c.get(0), c.get(1), c.get(2), c.get(3)))
            .collect(),
        log: log.iter().map(|e| (e.get(0), e.get(1), e.get(2))).collect(),
    }))
}

impl Storage for PgStore {
    fn write(&self, write: Write) -> BoxFuture<'_, Result<(), StoreError>> {
        Box::pin(async move { self.commit(&write).await })
    }

    fn load_table(&self, id: &str) -> BoxFuture<'_, Result<Option<StoredTable>, StoreError>> {
        let id = id.to_string();
        Box::pin(async move {
            let mut client = self.pool.get().await?;
            let tx = snapshot(&mut client).await?;
            let table = load_table(&tx, &id).await?;
            tx.commit().await?;
            Ok(table)
        })
    }

    fn load_tail(&self, id: &str, from: u64) -> BoxFuture<'_, Result<Option<Tail>, StoreError>> {
        let id = id.to_string();
        Box::pin(async move {
            let client = self.pool.get().await?;
            // One statement, so one moment of the database and one round trip.
            let statement = client
                .prepare_cached(
                    "SELECT 1,
                        ARRAY(SELECT key FROM links WHERE table_id = t.id ORDER BY made),
                        ARRAY(SELECT role FROM links WHERE table_id = t.id ORDER BY made),
                        ARRAY(SELECT status FROM links WHERE table_id = t.id ORDER BY made),
                        ARRAY(SELECT entry FROM log WHERE table_id = t.id AND pos >= $2 ORDER BY pos),
                        ARRAY(SELECT hash FROM log WHERE table_id = t.id AND pos >= $2 ORDER BY pos)
                    FROM tables t WHERE t.id = $1",
                )
                .await?;
            let Some(row) = client.query_opt(&statement, &[&id, &(from as i64)]).await? else {
                return Ok(None);
            };
            let (keys, roles, statuses): (Vec<String>, Vec<String>, Vec<String>) =
                (row.get(1), row.get(2), row.get(3));
            let links = keys
                .into_iter()
                .zip(roles)
                .zip(statuses)
                .map(|((key, role), status)| {
                    Ok(StoredLink {
                        key,
                        role,
                        status: LinkStatus::parse(&status)?,
                    })
                })
                .collect::<Result<_, StoreError>>()?;
            let (entries, hashes): (Vec<String>, Vec<String>) = (row.get(4), row.get(5));
            let log = entries
                .iter()
                .zip(&hashes)
                .map(|(entry, hash)| read_entry(&id, entry, hash))
                .collect::<Result<_, _>>()?;
            Ok(Some(Tail { links, log }))
        })
    }

    fn head(&self, id: &str) -> BoxFuture<'_, Result<Option<u64>, StoreError>> {
        let id = id.to_string();
        Box::pin(async move {
            let client = self.pool.get().await?;
            let statement = client
                .prepare_cached(
                    "SELECT (SELECT COALESCE(MAX(pos) + 1, 0) FROM log WHERE table_id = $1) FROM tables WHERE id = $1",
                )
                .await?;
            let row = client.query_opt(&statement, &[&id]).await?;
            Ok(row.map(|r| r.get::<_, i64>(0) as u64))
        })
    }

    fn shared(&self) -> bool {
        true
    }

    fn read_log(&self, id: &str) -> BoxFuture<'_, Result<Vec<(Value, String)>, StoreError>> {
        let id = id.to_string();
        Box::pin(async move {
            let client = self.pool.get().await?;
            let rows = client
                .query(
                    "SELECT entry, hash FROM log WHERE table_id = $1 ORDER BY pos",
                    &[&id],
                )
                .await?;
            rows.iter()
                .map(|r| Ok((parse_json(r.get(0), "log entry")?, r.get(1))))
                .collect()
        })
    }

    fn count_tables(&self) -> BoxFuture<'_, Result<u64, StoreError>> {
        Box::pin(async move {
            let client = self.pool.get().await?;
            let n: i64 = client
                .query_one("SELECT COUNT(*) FROM tables", &[])
                .await?
                .get(0);
            Ok(n as u64)
        })
    }

    fn table_ids(&self) -> BoxFuture<'_, Result<Vec<String>, StoreError>> {
        Box::pin(async move {
            let client = self.pool.get().await?;
            let rows = client
                .query("SELECT id FROM tables ORDER BY created_at, id", &[])
                .await?;
            Ok(rows.iter().map(|r| r.get(0)).collect())
        })
    }

    fn dump_table(&self, id: &str) -> BoxFuture<'_, Result<Option<TableRows>, StoreError>> {
        let id = id.to_string();
        Box::pin(async move {
            let mut client = self.pool.get().await?;
            let tx = snapshot(&mut client).await?;
            let rows = dump_table(&tx, &id).await?;
            tx.commit().await?;
            Ok(rows)
        })
    }

    fn healthy(&self) -> BoxFuture<'_, bool> {
        Box::pin(async move { self.commit(&Write::Ping).await.is_ok() })
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
