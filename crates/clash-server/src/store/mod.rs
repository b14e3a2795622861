//! Durable storage: the interface every backend offers ([`Storage`]) and what it stores, with
//! two backends: the embedded SQLite file ([`SqliteStore`], the default, one node) and
//! PostgreSQL ([`PgStore`], any number of nodes sharing one database).
//!
//! The table log is the source of truth: a table is its ruleset, setup JSON, server secret,
//! links, and the hash-chained log of its commands, events and table events (see [`crate::log`]).
//! Tables are read back one at a time, when first used ([`Storage::load_table`]); nothing reads
//! every table at start.
//!
//! What the backends share is written once here: the numbered schema versions and the runner
//! that brings a database up to date ([`schema`]), and the rows and statements each [`Write`]
//! makes ([`rows`]). A backend only runs SQL. Both commit each write all-or-nothing, answer only
//! once it is durable, and group whatever writes are waiting into one transaction (group commit),
//! then answer each caller.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use futures_util::future::BoxFuture;
use serde_json::Value;

use crate::log::{Chance, Entry, Hash, unhex, unhex_hash};

mod cache;
pub mod consent;
pub mod notify;
mod postgres;
mod rows;
mod schema;
pub mod side;
mod sqlite;
pub use cache::SideCache;
pub use postgres::PgStore;
pub use schema::SCHEMA_VERSIONS;
pub use sqlite::{SqliteStore, migrate};

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

/// Copy every table of `from` that `to` does not have yet, row for row (log hashes, secrets,
/// links and command ids unchanged, with its notification targets and clocks); answers how many were copied and how many `to` had already.
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
        side::copy(from, to, &id).await?;
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
    /// Its housekeeping since its record became final (see [`crate::table::keeping`]).
    pub kept: Keeping,
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
    /// A one-time link a seat's player made to move the seat to another device: claimed like an
    /// invite, it ends the player's old key. Shown to that player alone.
    Transfer,
    /// An invite or a move link already exchanged (a tombstone): kept so that opening it again
    /// says so, instead of "not valid".
    Used,
    /// A player's key given up when they moved the seat to another device (a tombstone).
    Moved,
}

impl LinkStatus {
    fn as_str(self) -> &'static str {
        match self {
            LinkStatus::Active => "active",
            LinkStatus::Invite => "invite",
            LinkStatus::Suspended => "suspended",
            LinkStatus::Npc => "npc",
            LinkStatus::Transfer => "transfer",
            LinkStatus::Used => "used",
            LinkStatus::Moved => "moved",
        }
    }

    /// A tombstone: a key that no longer works, kept only to say why.
    pub fn is_tombstone(self) -> bool {
        matches!(self, LinkStatus::Used | LinkStatus::Moved)
    }

    fn parse(text: &str) -> Result<LinkStatus, StoreError> {
        match text {
            "active" => Ok(LinkStatus::Active),
            "invite" => Ok(LinkStatus::Invite),
            "suspended" => Ok(LinkStatus::Suspended),
            "npc" => Ok(LinkStatus::Npc),
            "transfer" => Ok(LinkStatus::Transfer),
            "used" => Ok(LinkStatus::Used),
            "moved" => Ok(LinkStatus::Moved),
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
    /// The same person holds the seat (or the GM's link) with a new key: what they keep beside
    /// the table under the old key (notification targets, their handle) goes with them.
    Follow {
        from: String,
        to: String,
    },
    /// A claim made with a request id gave `key`: `proof` (see [`crate::ops::claim`]) lets a
    /// retry of that request find it.
    Claimed {
        key: String,
        proof: String,
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
    /// A finished table's housekeeping, beside its final log: a new name, archiving (each
    /// left as it was when `None`), and link changes.
    Keep {
        table_id: String,
        title: Option<String>,
        archived: Option<bool>,
        links: Vec<LinkChange>,
    },
    /// Remove a table and everything stored about it.
    DeleteTable { id: String },
    /// Store a table's rows as they came from [`Storage::dump_table`] (`clash db copy`).
    Restore(Box<TableRows>),
    /// Rows kept beside a table's log, outside it (see [`side`]).
    Side {
        table_id: String,
        statements: Vec<side::Query>,
    },
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
    /// [`Storage::load_tail`] for several tables at once, answered in the order asked. A
    /// backend that can read them in one go does; by default they are read one after another.
    fn load_tails<'a>(
        &'a self,
        asks: &'a [(String, u64)],
    ) -> BoxFuture<'a, Result<Vec<Option<Tail>>, StoreError>> {
        Box::pin(async move {
            let mut tails = Vec::with_capacity(asks.len());
            for (id, from) in asks {
                tails.push(self.load_tail(id, *from).await?);
            }
            Ok(tails)
        })
    }
    /// The length of a table's log as stored (`None` when the table is gone), for a backend
    /// shared with other nodes to tell whether memory is behind.
    fn head(&self, id: &str) -> BoxFuture<'_, Result<Option<u64>, StoreError>>;
    /// Other nodes may write to this database too.
    fn shared(&self) -> bool {
        false
    }
    /// The notifier's rows kept in memory, by a backend only this process writes to (every
    /// write of them then passes here); `None` where other nodes write too.
    fn side_cache(&self) -> Option<&SideCache> {
        None
    }
    /// Every stored entry of a table's log with its hash, in order (for records).
    fn read_log(&self, id: &str) -> BoxFuture<'_, Result<Vec<(Value, String)>, StoreError>>;
    /// How many tables are stored.
    fn count_tables(&self) -> BoxFuture<'_, Result<u64, StoreError>>;
    /// The ids of every stored table (for `clash db copy`).
    fn table_ids(&self) -> BoxFuture<'_, Result<Vec<String>, StoreError>>;
    /// Every stored row of one table, as stored (for `clash db copy`).
    fn dump_table(&self, id: &str) -> BoxFuture<'_, Result<Option<TableRows>, StoreError>>;
    /// The rows `query` reads (rows kept beside the log: see [`side`]). Only the store makes a
    /// query; the rest of the server reads through its typed functions.
    fn select(&self, query: side::Query) -> BoxFuture<'_, Result<Vec<side::Row>, StoreError>>;
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
    /// Its housekeeping since its record became final, as it is now.
    pub kept: Keeping,
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

fn parse_json(text: &str, what: &str) -> Result<Value, StoreError> {
    serde_json::from_str(text)
        .map_err(|e| StoreError::new(format!("stored {what} is not JSON: {e}")))
}

/// A stored log entry and its hash, read back.
pub(crate) fn read_entry(id: &str, entry: &str, hash: &str) -> Result<(Entry, Hash), StoreError> {
    let entry: Entry = serde_json::from_str(entry)
        .map_err(|e| StoreError::new(format!("table {id}: a log entry is unreadable: {e}")))?;
    let hash = unhex_hash(hash)
        .ok_or_else(|| StoreError::new(format!("table {id}: a log hash is unreadable")))?;
    Ok((entry, hash))
}

/// The columns of a `tables` row that a loaded table needs, as stored.
struct TableRow {
    ruleset: String,
    title: String,
    setup: String,
    seed: i64,
    secret: Option<String>,
    chance: String,
}

impl TableRow {
    /// The table these columns describe, with its links, command count and log.
    fn into_table(
        self,
        id: &str,
        links: Vec<StoredLink>,
        commands: Option<i64>,
        log: Vec<(Entry, Hash)>,
    ) -> Result<StoredTable, StoreError> {
        let secret = self
            .secret
            .as_deref()
            .and_then(unhex)
            .ok_or_else(|| StoreError::new(format!("table {id} has no secret")))?;
        Ok(StoredTable {
            id: id.to_string(),
            ruleset: self.ruleset,
            title: self.title,
            setup: parse_json(&self.setup, "setup")?,
            seed: self.seed as u64,
            secret,
            chance: match self.chance.as_str() {
                "clash-chance-v1" => Chance::V1,
                _ => Chance::Legacy,
            },
            links,
            commands: commands.unwrap_or(0) as u64,
            log,
            kept: Default::default(),
        })
    }
}

impl TableRow {
    /// Every row of the table, as stored, for `clash db copy`.
    fn into_rows(
        self,
        id: &str,
        created_at: i64,
        links: Vec<(String, String, String)>,
        commands: Vec<(i64, String, String, Option<String>)>,
        log: Vec<(i64, String, String)>,
    ) -> TableRows {
        TableRows {
            id: id.to_string(),
            ruleset: self.ruleset,
            title: self.title,
            setup: self.setup,
            seed: self.seed,
            created_at,
            secret: self.secret,
            chance: self.chance,
            links,
            commands,
            log,
        }
    }
}

impl StoredLink {
    /// A `links` row read back.
    fn read(key: String, role: String, status: &str) -> Result<StoredLink, StoreError> {
        Ok(StoredLink {
            key,
            role,
            status: LinkStatus::parse(status)?,
        })
    }
}

/// A finished table's housekeeping: a new name, archiving (each unchanged when `None`), and
/// link changes (see [`crate::table::keeping`]).
#[derive(Debug, Clone, Default)]
pub struct Keeping {
    pub title: Option<String>,
    pub archived: Option<bool>,
    pub links: Vec<LinkChange>,
}
