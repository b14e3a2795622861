//! Durable storage: the interface every backend offers ([`Storage`]), the embedded SQLite
//! backend ([`SqliteStore`]), and the PostgreSQL backend for several nodes ([`PgStore`]).
//!
//! The table log is the source of truth: a table is its ruleset, setup JSON, server secret,
//! links, and the hash-chained log of its commands, events and table events (see [`crate::log`]).
//! Tables are read back one at a time, when first used ([`Storage::load_table`]); nothing reads
//! every table at start. The schema is versioned (SQLite's `user_version`, through
//! rusqlite_migration): every start brings an older database up to date.
//!
//! A backend commits each [`Write`] all-or-nothing and answers only once it is durable. The
//! SQLite backend sends writes through one dedicated writer thread, which takes every write
//! waiting in its queue and commits them together in one transaction (group commit), then
//! answers each caller; SQLite serializes writers anyway, so one thread costs no parallelism.
//! Reads use a small pool of connections on the blocking thread pool.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, mpsc};

use futures_util::future::BoxFuture;
use rusqlite::{Connection, OptionalExtension, params};
use rusqlite_migration::{HookResult, M, Migrations};
use serde_json::Value;
use tokio::sync::oneshot;

use crate::log::{Chainer, Chance, Entry, Hash, TableEvent, commitment, hex, unhex, unhex_hash};

mod postgres;
pub use postgres::PgStore;

/// Where a server keeps its tables: a SQLite file (the default, one node) or a PostgreSQL
/// database (`postgres://…`, shared by any number of nodes).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Db {
    Sqlite(PathBuf),
    Postgres(String),
}

impl Db {
    /// A `postgres://` or `postgresql://` URL names a PostgreSQL database; anything else is the
    /// path of a SQLite file.
    pub fn parse(text: &str) -> Db {
        if text.starts_with("postgres://") || text.starts_with("postgresql://") {
            Db::Postgres(text.to_string())
        } else {
            Db::Sqlite(PathBuf::from(text))
        }
    }

    /// Open the database, bringing its schema up to date.
    pub async fn open(&self) -> Result<Store, StoreError> {
        Ok(match self {
            Db::Sqlite(path) => Arc::new(SqliteStore::open(path)?),
            Db::Postgres(url) => Arc::new(PgStore::connect(url).await?),
        })
    }

    /// Bring the database's schema to the latest version (creating the database's tables if
    /// needed); answers that version.
    pub async fn migrate(&self) -> Result<usize, StoreError> {
        match self {
            Db::Sqlite(path) => {
                let path = path.clone();
                tokio::task::spawn_blocking(move || migrate(&path))
                    .await
                    .map_err(|e| StoreError::new(e.to_string()))??;
                Ok(SCHEMA_VERSIONS)
            }
            Db::Postgres(url) => postgres::migrate(url).await,
        }
    }
}

impl From<&Path> for Db {
    fn from(path: &Path) -> Db {
        Db::Sqlite(path.to_path_buf())
    }
}

/// The number of schema versions; both backends have the same numbered steps.
pub const SCHEMA_VERSIONS: usize = 4;

/// Copy every table of `from` that `to` does not have yet, row for row (log hashes, secrets,
/// links and command ids unchanged); answers how many were copied and how many `to` had already.
/// Run it while no server writes to `from`.
pub async fn copy(from: &Store, to: &Store) -> Result<(usize, usize), StoreError> {
    let there: std::collections::HashSet<String> = to.table_ids().await?.into_iter().collect();
    let (mut copied, mut skipped) = (0, 0);
    for id in from.table_ids().await? {
        if there.contains(&id) {
            skipped += 1;
            continue;
        }
        let Some(rows) = from.dump_table(&id).await? else {
            continue;
        };
        to.write(Write::Restore(Box::new(rows))).await?;
        copied += 1;
    }
    Ok((copied, skipped))
}

/// A storage failure, told in words.
#[derive(Debug, Clone, thiserror::Error)]
#[error("database error: {message}")]
pub struct StoreError {
    pub message: String,
    /// The write lost a race: another node wrote the same log position or command first (the
    /// table in memory is behind the database). Nothing was written.
    pub raced: bool,
}

impl StoreError {
    pub fn new(message: impl Into<String>) -> StoreError {
        StoreError {
            message: message.into(),
            raced: false,
        }
    }
}

impl From<rusqlite::Error> for StoreError {
    fn from(e: rusqlite::Error) -> Self {
        let raced = e.sqlite_error_code() == Some(rusqlite::ErrorCode::ConstraintViolation);
        StoreError {
            message: e.to_string(),
            raced,
        }
    }
}

/// The schema as first released (version 1). `IF NOT EXISTS` lets a database made before
/// migrations were versioned (user_version 0, tables present) pass through it unchanged.
const SCHEMA_V1: &str = "
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    ruleset TEXT NOT NULL,
    title TEXT NOT NULL,
    setup TEXT NOT NULL,
    seed INTEGER NOT NULL,
    created_at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS links (
    key TEXT PRIMARY KEY,
    table_id TEXT NOT NULL REFERENCES tables(id),
    role TEXT NOT NULL,
    npc INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS links_by_table ON links(table_id);
CREATE TABLE IF NOT EXISTS commands (
    table_id TEXT NOT NULL REFERENCES tables(id),
    n INTEGER NOT NULL,
    seat TEXT NOT NULL,
    command TEXT NOT NULL,
    PRIMARY KEY (table_id, n)
);
CREATE TABLE IF NOT EXISTS events (
    table_id TEXT NOT NULL REFERENCES tables(id),
    idx INTEGER NOT NULL,
    event TEXT NOT NULL,
    PRIMARY KEY (table_id, idx)
);
";

/// Version 2: the hash-chained table log, the server secret, link states and command ids.
///
/// * `tables.secret` (hex) is the server secret; `tables.chance` says how chance is made
///   (`clash-chance-v1`, or `legacy` for tables from before: their `seed` goes on being used).
/// * `links.status`: `active`, `invite` (not yet claimed), `suspended` (a player's key while the
///   GM plays the seat) or `npc` (the GM plays the seat; the row's key is never handed out).
///   Seat keys from before were shown to the GM, so they become invites: the player's next visit
///   claims a fresh key only they hold.
/// * `log` holds every entry of the table log with its chain hash; the events of older tables
///   are copied into it after a `created` entry (by [`legacy_log`]). `events` is no longer written.
/// * `commands.command_id` makes a client's retry findable after a restart.
const SCHEMA_V2: &str = "
ALTER TABLE tables ADD COLUMN secret TEXT;
ALTER TABLE tables ADD COLUMN chance TEXT NOT NULL DEFAULT 'legacy';
ALTER TABLE links ADD COLUMN status TEXT NOT NULL DEFAULT 'active';
UPDATE links SET status = 'npc' WHERE npc = 1;
UPDATE links SET status = 'invite' WHERE npc = 0 AND role NOT IN ('owner', 'spectator');
ALTER TABLE commands ADD COLUMN command_id TEXT;
CREATE UNIQUE INDEX commands_by_id ON commands(table_id, command_id) WHERE command_id IS NOT NULL;
CREATE TABLE log (
    table_id TEXT NOT NULL REFERENCES tables(id),
    pos INTEGER NOT NULL,
    entry TEXT NOT NULL,
    hash TEXT NOT NULL,
    PRIMARY KEY (table_id, pos)
);
";

/// Version 3: the GM's odds-in-play switch is a column of the table (`odds`, 0 or 1). Servers
/// that kept it in a table of its own (`odds_switches`, made outside the versioned schema) have
/// it carried over.
const SCHEMA_V3: &str = "ALTER TABLE tables ADD COLUMN odds INTEGER NOT NULL DEFAULT 0;";

/// Version 4: the odds switch is a table event in the log (`odds_switched`), so it replays,
/// exports and verifies with the table. A table whose switch was on gets that event at the end
/// of its log (by [`odds_to_log`], which also drops the column); the migration has no SQL of its
/// own because the column must be read before it goes.
const SCHEMA_V4: &str = "";

/// The SQLite steps; [`postgres::STEPS`] holds the same versions for PostgreSQL.
fn migrations() -> Migrations<'static> {
    Migrations::new(vec![
        M::up(SCHEMA_V1),
        M::up_with_hook(SCHEMA_V2, legacy_log),
        M::up_with_hook(SCHEMA_V3, odds_switches),
        M::up_with_hook(SCHEMA_V4, odds_to_log),
    ])
}

/// Append `odds_switched {enabled: true}` to the log of every table whose odds column is on,
/// chained after its last entry, then drop the column.
fn odds_to_log(tx: &rusqlite::Transaction<'_>) -> HookResult {
    let tables: Vec<(String, Option<String>)> = tx
        .prepare("SELECT id, secret FROM tables WHERE odds = 1")?
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<Result<_, _>>()?;
    for (id, secret) in tables {
        // A table without a readable secret cannot be loaded anyway; it keeps its log as it is.
        let Some(secret) = secret.as_deref().and_then(unhex) else {
            continue;
        };
        let last: Option<(i64, String)> = tx
            .query_row(
                "SELECT pos, hash FROM log WHERE table_id = ?1 ORDER BY pos DESC LIMIT 1",
                [&id],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()?;
        let Some(head) = last.map_or(Some((0, [0; 32])), |(pos, hash)| {
            unhex_hash(&hash).map(|h| (pos as u64 + 1, h))
        }) else {
            continue;
        };
        let mut chainer = Chainer {
            secret: &secret,
            table: &id,
            head: head.1,
            next: head.0,
        };
        let entry = Entry::Table {
            event: TableEvent::OddsSwitched { enabled: true },
        };
        let (pos, body, hash) = chainer.push(&entry);
        tx.execute(
            "INSERT INTO log (table_id, pos, entry, hash) VALUES (?1, ?2, ?3, ?4)",
            params![id, pos as i64, body.to_string(), hex(&hash)],
        )?;
    }
    tx.execute_batch("ALTER TABLE tables DROP COLUMN odds;")?;
    Ok(())
}

/// Carry the odds switches over from their old table, if there is one.
fn odds_switches(tx: &rusqlite::Transaction<'_>) -> HookResult {
    let exists: bool = tx.query_row(
        "SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'odds_switches')",
        [],
        |r| r.get(0),
    )?;
    if exists {
        tx.execute_batch(
            "UPDATE tables SET odds = 1 WHERE id IN (SELECT table_id FROM odds_switches);
             DROP TABLE odds_switches;",
        )?;
    }
    Ok(())
}

/// Give every table from before version 2 a secret and a log: a `created` entry (chance
/// `legacy`) followed by its stored events, chained.
fn legacy_log(tx: &rusqlite::Transaction<'_>) -> HookResult {
    let tables: Vec<(String, String, String, String)> = tx
        .prepare("SELECT id, ruleset, title, setup FROM tables")?
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))?
        .collect::<Result<_, _>>()?;
    for (id, ruleset, title, setup) in tables {
        let secret = crate::links::new_secret();
        let setup = serde_json::from_str(&setup).unwrap_or(Value::Null);
        let created = TableEvent::Created {
            ruleset,
            title,
            setup,
            commitment: hex(&commitment(&secret)),
            chance: Chance::Legacy,
        };
        let events: Vec<String> = tx
            .prepare("SELECT event FROM events WHERE table_id = ?1 ORDER BY idx")?
            .query_map([&id], |r| r.get(0))?
            .collect::<Result<_, _>>()?;
        let mut chainer = Chainer {
            secret: &secret,
            table: &id,
            head: [0; 32],
            next: 0,
        };
        let mut entries = vec![Entry::Table { event: created }];
        entries.extend(events.iter().map(|e| Entry::Event {
            event: serde_json::from_str(e).unwrap_or(Value::Null),
        }));
        for entry in &entries {
            let (pos, body, hash) = chainer.push(entry);
            tx.execute(
                "INSERT INTO log (table_id, pos, entry, hash) VALUES (?1, ?2, ?3, ?4)",
                params![id, pos as i64, body.to_string(), hex(&hash)],
            )?;
        }
        tx.execute(
            "UPDATE tables SET secret = ?1 WHERE id = ?2",
            params![hex(&secret), id],
        )?;
    }
    Ok(())
}

/// A table as stored.
#[derive(Debug, Clone)]
pub struct StoredTable {
    pub id: String,
    pub ruleset: String,
    pub title: String,
    pub setup: Value,
    /// The seed of a legacy table's chance (unused by verifiable tables).
    pub seed: u64,
    pub secret: Vec<u8>,
    pub chance: Chance,
    pub links: Vec<StoredLink>,
    /// Commands accepted, counting those of legacy tables that predate the log.
    pub commands: u64,
    /// The log, in order, with each entry's hash.
    pub log: Vec<(Entry, Hash)>,
}

/// What a link key is now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LinkStatus {
    /// Works in its role.
    Active,
    /// An invite for a seat, to be exchanged for the player's own key.
    Invite,
    /// A player's key while the GM plays their seat: it watches until the seat is handed back.
    Suspended,
    /// Marks a seat the GM plays; the key is never handed out.
    Npc,
}

impl LinkStatus {
    fn as_str(self) -> &'static str {
        match self {
            LinkStatus::Active => "active",
            LinkStatus::Invite => "invite",
            LinkStatus::Suspended => "suspended",
            LinkStatus::Npc => "npc",
        }
    }

    fn parse(text: &str) -> Result<LinkStatus, StoreError> {
        match text {
            "active" => Ok(LinkStatus::Active),
            "invite" => Ok(LinkStatus::Invite),
            "suspended" => Ok(LinkStatus::Suspended),
            "npc" => Ok(LinkStatus::Npc),
            other => Err(StoreError::new(format!("unknown link status {other:?}"))),
        }
    }
}

/// One link key and what it may do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredLink {
    pub key: String,
    /// `owner`, `spectator`, or a seat (`gm`, `p1`, …).
    pub role: String,
    pub status: LinkStatus,
}

/// A change to a table's links, made in the same transaction as the log entries that tell it.
#[derive(Debug, Clone)]
pub enum LinkChange {
    /// Remove every link of this role.
    RemoveRole(String),
    /// Remove one key.
    Remove(String),
    Add(StoredLink),
    SetStatus {
        key: String,
        status: LinkStatus,
    },
}

/// An accepted command's row (the log holds it too; this row makes its id and number unique).
#[derive(Debug, Clone)]
pub struct StoredCommand {
    pub n: u64,
    pub seat: String,
    pub command: Value,
    pub id: Option<String>,
}

/// One write: applied in a single transaction together with whatever else is queued.
#[derive(Debug)]
pub enum Write {
    CreateTable {
        id: String,
        ruleset: String,
        title: String,
        setup: Value,
        secret: Vec<u8>,
        links: Vec<StoredLink>,
        log: Vec<(u64, Value, Hash)>,
    },
    /// Append log entries, with the command that made them (if any) and link changes.
    Append {
        table_id: String,
        log: Vec<(u64, Value, Hash)>,
        command: Option<StoredCommand>,
        links: Vec<LinkChange>,
    },
    /// Remove a table and everything stored about it.
    DeleteTable { id: String },
    /// Store a table's rows as they came from [`Storage::dump_table`] (`clash db copy`).
    Restore(Box<TableRows>),
    /// Touch the database without changing it (health checks).
    Ping,
}

/// What every storage backend offers the server.
///
/// Two backends implement it with the same numbered schema versions: the embedded SQLite file
/// ([`SqliteStore`], one node) and PostgreSQL ([`PgStore`], any number of nodes sharing one
/// database). Nothing above this interface knows which one it talks to.
pub trait Storage: Send + Sync + 'static {
    /// Commit `write` all-or-nothing; answers once it is durable. A write that appends at a log
    /// position (or a command number or id) another node took first fails with
    /// [`StoreError::raced`] and changes nothing.
    fn write(&self, write: Write) -> BoxFuture<'_, Result<(), StoreError>>;
    /// One table as stored, or `None` when there is no such table.
    fn load_table(&self, id: &str) -> BoxFuture<'_, Result<Option<StoredTable>, StoreError>>;
    /// What changed in a table from log position `from` on (with its links as they are now), or
    /// `None` when the table is gone.
    fn load_tail(&self, id: &str, from: u64) -> BoxFuture<'_, Result<Option<Tail>, StoreError>>;
    /// The length of a table's log as stored (`None` when the table is gone), for a backend
    /// shared with other nodes to tell whether memory is behind.
    fn head(&self, id: &str) -> BoxFuture<'_, Result<Option<u64>, StoreError>>;
    /// Other nodes may write to this database too.
    fn shared(&self) -> bool {
        false
    }
    /// Every stored entry of a table's log with its hash, in order (for records).
    fn read_log(&self, id: &str) -> BoxFuture<'_, Result<Vec<(Value, String)>, StoreError>>;
    /// How many tables are stored.
    fn count_tables(&self) -> BoxFuture<'_, Result<u64, StoreError>>;
    /// The ids of every stored table (for `clash db copy`).
    fn table_ids(&self) -> BoxFuture<'_, Result<Vec<String>, StoreError>>;
    /// Every stored row of one table, as stored (for `clash db copy`).
    fn dump_table(&self, id: &str) -> BoxFuture<'_, Result<Option<TableRows>, StoreError>>;
    /// True when the database answers.
    fn healthy(&self) -> BoxFuture<'_, bool>;
    /// News of changes other nodes made, for a backend shared by several nodes (taken once;
    /// `None` for a backend only this process writes).
    fn notices(&self) -> Option<tokio::sync::mpsc::UnboundedReceiver<Notice>> {
        None
    }
    /// Where the data lives, for people (no password).
    fn describe(&self) -> String;
    /// Tell the other nodes who has `table` open through this one (nothing to do for a backend
    /// only this process uses). Sent in the order told.
    fn tell_presence(&self, _table: &str, _counts: &std::collections::HashMap<String, usize>) {}
}

/// News from a database shared with other nodes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Notice {
    /// Another node changed this table (appended to its log or deleted it).
    Changed(String),
    /// The connection that hears of changes was lost and is back: any loaded table may have
    /// missed changes.
    Resync,
    /// Who has a table open through another node now, by person.
    Presence {
        node: String,
        table: String,
        counts: std::collections::HashMap<String, usize>,
    },
}

/// A table's changes from a log position on, with its links (kept beside the log) as they are.
#[derive(Debug, Clone)]
pub struct Tail {
    pub links: Vec<StoredLink>,
    /// The log from the asked position on, with each entry's hash.
    pub log: Vec<(Entry, Hash)>,
}

/// Every row of one table exactly as stored: what `clash db copy` carries between backends.
#[derive(Debug, Clone, PartialEq)]
pub struct TableRows {
    pub id: String,
    pub ruleset: String,
    pub title: String,
    pub setup: String,
    pub seed: i64,
    pub created_at: i64,
    pub secret: Option<String>,
    pub chance: String,
    /// `(key, role, status)`, in the order they were made.
    pub links: Vec<(String, String, String)>,
    /// `(n, seat, command, command id)`.
    pub commands: Vec<(i64, String, String, Option<String>)>,
    /// `(position, entry, hash)`.
    pub log: Vec<(i64, String, String)>,
}

/// The storage a server uses.
pub type Store = Arc<dyn Storage>;

type Reply = oneshot::Sender<Result<(), StoreError>>;

/// The embedded SQLite backend: one file, one writer thread, a few reader connections.
pub struct SqliteStore {
    queue: mpsc::Sender<(Write, Reply)>,
    readers: Arc<Readers>,
}

/// Idle reader connections, reused so a read does not pay for opening the file.
struct Readers {
    path: PathBuf,
    idle: Mutex<Vec<Connection>>,
}

/// Reader connections kept open between reads.
const IDLE_READERS: usize = 4;

impl Readers {
    fn with<T>(
        &self,
        read: impl FnOnce(&Connection) -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        let pooled = self.idle.lock().unwrap_or_else(|p| p.into_inner()).pop();
        let conn = match pooled {
            Some(c) => c,
            None => open(&self.path)?,
        };
        let result = read(&conn);
        let mut idle = self.idle.lock().unwrap_or_else(|p| p.into_inner());
        if idle.len() < IDLE_READERS {
            idle.push(conn);
        }
        result
    }
}

fn open(path: &Path) -> Result<Connection, StoreError> {
    let conn = Connection::open(path)?;
    // WAL lets readers and the writer proceed together; FULL syncs the log on every commit so an
    // acknowledged command survives a power cut, not only a crash of this process.
    conn.execute_batch("PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL; PRAGMA foreign_keys=ON; PRAGMA busy_timeout=5000;")?;
    Ok(conn)
}

/// Bring the database at `path` to the latest schema.
pub fn migrate(path: &Path) -> Result<(), StoreError> {
    let mut conn = open(path)?;
    migrations()
        .to_latest(&mut conn)
        .map_err(|e| StoreError::new(format!("migrating the database: {e}")))
}

impl SqliteStore {
    /// Open (creating if needed) the database at `path`, bring its schema up to date and start
    /// the writer. No table is read.
    pub fn open(path: &Path) -> Result<SqliteStore, StoreError> {
        migrate(path)?;
        let writer = open(path)?;
        let (queue, rx) = mpsc::channel::<(Write, Reply)>();
        std::thread::Builder::new()
            .name("clash-db-writer".into())
            .spawn(move || writer_loop(writer, rx))
            .map_err(|e| StoreError::new(e.to_string()))?;
        Ok(SqliteStore {
            queue,
            readers: Arc::new(Readers {
                path: path.to_path_buf(),
                idle: Mutex::new(Vec::new()),
            }),
        })
    }

    /// Run `read` on a pooled connection on the blocking thread pool.
    fn read<T: Send + 'static>(
        &self,
        read: impl FnOnce(&Connection) -> Result<T, StoreError> + Send + 'static,
    ) -> BoxFuture<'static, Result<T, StoreError>> {
        let readers = self.readers.clone();
        Box::pin(async move {
            tokio::task::spawn_blocking(move || readers.with(read))
                .await
                .map_err(|e| StoreError::new(e.to_string()))?
        })
    }

    fn send(&self, write: Write) -> BoxFuture<'static, Result<(), StoreError>> {
        let (tx, rx) = oneshot::channel();
        let sent = self.queue.send((write, tx));
        Box::pin(async move {
            sent.map_err(|_| StoreError::new("the database writer has stopped"))?;
            rx.await
                .map_err(|_| StoreError::new("the database writer has stopped"))?
        })
    }
}

impl Storage for SqliteStore {
    fn write(&self, write: Write) -> BoxFuture<'_, Result<(), StoreError>> {
        self.send(write)
    }

    fn load_table(&self, id: &str) -> BoxFuture<'_, Result<Option<StoredTable>, StoreError>> {
        let id = id.to_string();
        self.read(move |conn| load_table(conn, &id))
    }

    fn read_log(&self, id: &str) -> BoxFuture<'_, Result<Vec<(Value, String)>, StoreError>> {
        let id = id.to_string();
        self.read(move |conn| {
            let mut stmt = conn
                .prepare_cached("SELECT entry, hash FROM log WHERE table_id = ?1 ORDER BY pos")?;
            let rows = stmt.query_map([&id], |r| {
                Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?))
            })?;
            rows.map(|row| {
                let (entry, hash) = row?;
                Ok((parse_json(&entry, "log entry")?, hash))
            })
            .collect()
        })
    }

    fn load_tail(&self, id: &str, from: u64) -> BoxFuture<'_, Result<Option<Tail>, StoreError>> {
        let id = id.to_string();
        self.read(move |conn| {
            let found: Option<i64> = conn
                .prepare_cached("SELECT 1 FROM tables WHERE id = ?1")?
                .query_row([&id], |r| r.get(0))
                .optional()?;
            if found.is_none() {
                return Ok(None);
            }
            Ok(Some(Tail {
                links: load_links(conn, &id)?,
                log: load_log(conn, &id, from)?,
            }))
        })
    }

    fn head(&self, id: &str) -> BoxFuture<'_, Result<Option<u64>, StoreError>> {
        let id = id.to_string();
        self.read(move |conn| {
            let found: Option<i64> = conn
                .prepare_cached("SELECT (SELECT COUNT(*) FROM log WHERE table_id = ?1) FROM tables WHERE id = ?1")?
                .query_row([&id], |r| r.get(0))
                .optional()?;
            Ok(found.map(|n| n as u64))
        })
    }

    fn table_ids(&self) -> BoxFuture<'_, Result<Vec<String>, StoreError>> {
        self.read(|conn| {
            let mut stmt = conn.prepare("SELECT id FROM tables ORDER BY created_at, id")?;
            let ids = stmt.query_map([], |r| r.get(0))?;
            Ok(ids.collect::<Result<_, _>>()?)
        })
    }

    fn dump_table(&self, id: &str) -> BoxFuture<'_, Result<Option<TableRows>, StoreError>> {
        let id = id.to_string();
        self.read(move |conn| dump_table(conn, &id))
    }

    fn describe(&self) -> String {
        self.readers.path.display().to_string()
    }

    fn count_tables(&self) -> BoxFuture<'_, Result<u64, StoreError>> {
        self.read(|conn| {
            let n: i64 = conn.query_row("SELECT COUNT(*) FROM tables", [], |r| r.get(0))?;
            Ok(n as u64)
        })
    }

    fn healthy(&self) -> BoxFuture<'_, bool> {
        let ping = self.send(Write::Ping);
        Box::pin(async move { ping.await.is_ok() })
    }
}

fn writer_loop(mut conn: Connection, rx: mpsc::Receiver<(Write, Reply)>) {
    while let Ok(first) = rx.recv() {
        let mut batch = vec![first];
        // Group commit: everything already waiting rides in the same transaction.
        while batch.len() < 512 {
            match rx.try_recv() {
                Ok(next) => batch.push(next),
                Err(_) => break,
            }
        }
        let result = commit(&mut conn, batch.iter().map(|(w, _)| w));
        if result.is_ok() || batch.len() == 1 {
            for (_, reply) in batch {
                let _ = reply.send(result.clone());
            }
            continue;
        }
        // One bad write must not sink the others: commit each on its own.
        for (write, reply) in batch {
            let _ = reply.send(commit(&mut conn, std::iter::once(&write)));
        }
    }
}

fn commit<'a>(
    conn: &mut Connection,
    writes: impl Iterator<Item = &'a Write>,
) -> Result<(), StoreError> {
    let tx = conn.transaction()?;
    for w in writes {
        apply(&tx, w)?;
    }
    tx.commit()?;
    Ok(())
}

fn apply(tx: &rusqlite::Transaction<'_>, write: &Write) -> Result<(), StoreError> {
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
                .map_or(0, |d| d.as_secs());
            tx.execute(
                "INSERT INTO tables (id, ruleset, title, setup, seed, created_at, secret, chance) VALUES (?1, ?2, ?3, ?4, 0, ?5, ?6, 'clash-chance-v1')",
                params![id, ruleset, title, setup.to_string(), now as i64, hex(secret)],
            )?;
            for l in links {
                insert_link(tx, id, l)?;
            }
            insert_log(tx, id, log)?;
        }
        Write::Append {
            table_id,
            log,
            command,
            links,
        } => {
            if let Some(c) = command {
                tx.execute(
                    "INSERT INTO commands (table_id, n, seat, command, command_id) VALUES (?1, ?2, ?3, ?4, ?5)",
                    params![table_id, c.n as i64, c.seat, c.command.to_string(), c.id],
                )?;
            }
            for change in links {
                change_link(tx, table_id, change)?;
            }
            insert_log(tx, table_id, log)?;
        }
        Write::DeleteTable { id } => {
            for table in ["log", "commands", "events", "links"] {
                tx.execute(&format!("DELETE FROM {table} WHERE table_id = ?1"), [id])?;
            }
            tx.execute("DELETE FROM tables WHERE id = ?1", [id])?;
        }
        Write::Restore(rows) => restore_table(tx, rows)?,
        Write::Ping => {
            tx.query_row("SELECT 1", [], |r| r.get::<_, i64>(0))?;
        }
    }
    Ok(())
}

fn insert_log(
    tx: &rusqlite::Transaction<'_>,
    table_id: &str,
    log: &[(u64, Value, Hash)],
) -> Result<(), StoreError> {
    let mut stmt =
        tx.prepare_cached("INSERT INTO log (table_id, pos, entry, hash) VALUES (?1, ?2, ?3, ?4)")?;
    for (pos, entry, hash) in log {
        stmt.execute(params![table_id, *pos as i64, entry.to_string(), hex(hash)])?;
    }
    Ok(())
}

fn change_link(
    tx: &rusqlite::Transaction<'_>,
    table_id: &str,
    change: &LinkChange,
) -> Result<(), StoreError> {
    match change {
        LinkChange::RemoveRole(role) => {
            tx.execute(
                "DELETE FROM links WHERE table_id = ?1 AND role = ?2",
                params![table_id, role],
            )?;
        }
        LinkChange::Remove(key) => {
            tx.execute(
                "DELETE FROM links WHERE table_id = ?1 AND key = ?2",
                params![table_id, key],
            )?;
        }
        LinkChange::Add(link) => insert_link(tx, table_id, link)?,
        LinkChange::SetStatus { key, status } => {
            tx.execute(
                "UPDATE links SET status = ?1, npc = ?2 WHERE table_id = ?3 AND key = ?4",
                params![status.as_str(), *status == LinkStatus::Npc, table_id, key],
            )?;
        }
    }
    Ok(())
}

fn insert_link(
    tx: &rusqlite::Transaction<'_>,
    table_id: &str,
    l: &StoredLink,
) -> Result<(), StoreError> {
    tx.execute(
        "INSERT INTO links (key, table_id, role, npc, status) VALUES (?1, ?2, ?3, ?4, ?5)",
        params![
            l.key,
            table_id,
            l.role,
            l.status == LinkStatus::Npc,
            l.status.as_str()
        ],
    )?;
    Ok(())
}

fn parse_json(text: &str, what: &str) -> Result<Value, StoreError> {
    serde_json::from_str(text)
        .map_err(|e| StoreError::new(format!("stored {what} is not JSON: {e}")))
}

fn load_table(conn: &Connection, id: &str) -> Result<Option<StoredTable>, StoreError> {
    let row = conn
        .prepare_cached(
            "SELECT ruleset, title, setup, seed, secret, chance FROM tables WHERE id = ?1",
        )?
        .query_row([id], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, String>(2)?,
                r.get::<_, i64>(3)?,
                r.get::<_, Option<String>>(4)?,
                r.get::<_, String>(5)?,
            ))
        })
        .optional()?;
    let Some((ruleset, title, setup, seed, secret, chance)) = row else {
        return Ok(None);
    };
    let setup = parse_json(&setup, "setup")?;
    let secret = secret
        .as_deref()
        .and_then(unhex)
        .ok_or_else(|| StoreError::new(format!("table {id} has no secret")))?;
    let chance = match chance.as_str() {
        "clash-chance-v1" => Chance::V1,
        _ => Chance::Legacy,
    };
    let commands: i64 = conn
        .prepare_cached("SELECT MAX(n) + 1 FROM commands WHERE table_id = ?1")?
        .query_row([id], |r| r.get::<_, Option<i64>>(0))
        .optional()?
        .flatten()
        .unwrap_or(0);
    Ok(Some(StoredTable {
        id: id.to_string(),
        ruleset,
        title,
        setup,
        seed: seed as u64,
        secret,
        chance,
        links: load_links(conn, id)?,
        commands: commands as u64,
        log: load_log(conn, id, 0)?,
    }))
}

fn load_links(conn: &Connection, id: &str) -> Result<Vec<StoredLink>, StoreError> {
    let mut stmt = conn
        .prepare_cached("SELECT key, role, status FROM links WHERE table_id = ?1 ORDER BY rowid")?;
    let rows = stmt.query_map([id], |r| {
        Ok((
            r.get::<_, String>(0)?,
            r.get::<_, String>(1)?,
            r.get::<_, String>(2)?,
        ))
    })?;
    rows.map(|row| {
        let (key, role, status) = row?;
        Ok(StoredLink {
            key,
            role,
            status: LinkStatus::parse(&status)?,
        })
    })
    .collect()
}

fn load_log(conn: &Connection, id: &str, from: u64) -> Result<Vec<(Entry, Hash)>, StoreError> {
    let mut stmt = conn.prepare_cached(
        "SELECT entry, hash FROM log WHERE table_id = ?1 AND pos >= ?2 ORDER BY pos",
    )?;
    let rows = stmt.query_map(params![id, from as i64], |r| {
        Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?))
    })?;
    rows.map(|row| {
        let (entry, hash) = row?;
        read_entry(id, &entry, &hash)
    })
    .collect()
}

/// A stored log entry and its hash, read back.
pub(crate) fn read_entry(id: &str, entry: &str, hash: &str) -> Result<(Entry, Hash), StoreError> {
    let entry: Entry = serde_json::from_str(entry)
        .map_err(|e| StoreError::new(format!("table {id}: a log entry is unreadable: {e}")))?;
    let hash = unhex_hash(hash)
        .ok_or_else(|| StoreError::new(format!("table {id}: a log hash is unreadable")))?;
    Ok((entry, hash))
}

fn dump_table(conn: &Connection, id: &str) -> Result<Option<TableRows>, StoreError> {
    let row = conn
        .query_row(
            "SELECT ruleset, title, setup, seed, created_at, secret, chance FROM tables WHERE id = ?1",
            [id],
            |r| {
                Ok(TableRows {
                    id: id.to_string(),
                    ruleset: r.get(0)?,
                    title: r.get(1)?,
                    setup: r.get(2)?,
                    seed: r.get(3)?,
                    created_at: r.get(4)?,
                    secret: r.get(5)?,
                    chance: r.get(6)?,
                    links: Vec::new(),
                    commands: Vec::new(),
                    log: Vec::new(),
                })
            },
        )
        .optional()?;
    let Some(mut rows) = row else {
        return Ok(None);
    };
    rows.links = conn
        .prepare("SELECT key, role, status FROM links WHERE table_id = ?1 ORDER BY rowid")?
        .query_map([id], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
        .collect::<Result<_, _>>()?;
    rows.commands = conn
        .prepare(
            "SELECT n, seat, command, command_id FROM commands WHERE table_id = ?1 ORDER BY n",
        )?
        .query_map([id], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))?
        .collect::<Result<_, _>>()?;
    rows.log = conn
        .prepare("SELECT pos, entry, hash FROM log WHERE table_id = ?1 ORDER BY pos")?
        .query_map([id], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
        .collect::<Result<_, _>>()?;
    Ok(Some(rows))
}

fn restore_table(tx: &rusqlite::Transaction<'_>, t: &TableRows) -> Result<(), StoreError> {
    tx.execute(
        "INSERT INTO tables (id, ruleset, title, setup, seed, created_at, secret, chance) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
        params![t.id, t.ruleset, t.title, t.setup, t.seed, t.created_at, t.secret, t.chance],
    )?;
    for (key, role, status) in &t.links {
        tx.execute(
            "INSERT INTO links (key, table_id, role, npc, status) VALUES (?1, ?2, ?3, ?4, ?5)",
            params![key, t.id, role, status == "npc", status],
        )?;
    }
    for (n, seat, command, id) in &t.commands {
        tx.execute(
            "INSERT INTO commands (table_id, n, seat, command, command_id) VALUES (?1, ?2, ?3, ?4, ?5)",
            params![t.id, n, seat, command, id],
        )?;
    }
    for (pos, entry, hash) in &t.log {
        tx.execute(
            "INSERT INTO log (table_id, pos, entry, hash) VALUES (?1, ?2, ?3, ?4)",
            params![t.id, pos, entry, hash],
        )?;
    }
    Ok(())
}
