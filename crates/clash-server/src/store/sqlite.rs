//! The embedded SQLite backend: one file, one writer thread, a few reader connections.
//!
//! Writes go through one dedicated writer thread, which takes every write waiting in its queue
//! and commits them together in one transaction (group commit), then answers each caller;
//! SQLite serializes writers anyway, so one thread costs no parallelism. Reads use a small pool
//! of connections on the blocking thread pool. The schema version is SQLite's `user_version`.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, mpsc};
use std::time::Instant;

use futures_util::future::BoxFuture;
use rusqlite::{Connection, OptionalExtension, params};
use serde_json::Value;
use tokio::sync::oneshot;

use super::rows::{Param, Statement};
use super::side::{Arg, Cell, Query, Row};
use super::{
    SideCache, Storage, StoreError, StoredLink, StoredTable, TableRow, TableRows, Tail, Write,
    parse_json, read_entry,
};
use crate::log::{Entry, Hash};
use crate::metrics::DATABASE;

mod upgrade;
pub use upgrade::migrate;

impl From<rusqlite::Error> for StoreError {
    fn from(e: rusqlite::Error) -> Self {
        let raced = e.sqlite_error_code() == Some(rusqlite::ErrorCode::ConstraintViolation);
        StoreError {
            message: e.to_string(),
            raced,
        }
    }
}

type Reply = oneshot::Sender<Result<(), StoreError>>;

/// The embedded SQLite backend (see the module's description).
pub struct SqliteStore {
    queue: mpsc::Sender<(Write, Reply, Instant)>,
    readers: Arc<Readers>,
    /// Only this process writes the file, so it may keep the notifier's rows in memory.
    side: SideCache,
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
        DATABASE.round_trips.inc();
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

impl SqliteStore {
    /// Open (creating if needed) the database at `path`, bring its schema up to date and start
    /// the writer. No table is read.
    pub fn open(path: &Path) -> Result<SqliteStore, StoreError> {
        migrate(path)?;
        let writer = open(path)?;
        let (queue, rx) = mpsc::channel();
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
            side: SideCache::default(),
        })
    }

    /// Run `read` on a pooled connection on the blocking thread pool.
    fn read<T: Send + 'static>(
        &self,
        read: impl FnOnce(&Connection) -> Result<T, StoreError> + Send + 'static,
    ) -> BoxFuture<'static, Result<T, StoreError>> {
        let readers = self.readers.clone();
        Box::pin(async move {
            crate::metrics::COST.handoffs.inc();
            tokio::task::spawn_blocking(move || readers.with(read))
                .await
                .map_err(|e| StoreError::new(e.to_string()))?
        })
    }

    fn send(&self, write: Write) -> BoxFuture<'static, Result<(), StoreError>> {
        let (tx, rx) = oneshot::channel();
        crate::metrics::COST.handoffs.inc();
        let sent = self.queue.send((write, tx, Instant::now()));
        Box::pin(async move {
            sent.map_err(|_| StoreError::new("the database writer has stopped"))?;
            rx.await
                .map_err(|_| StoreError::new("the database writer has stopped"))?
        })
    }
}

impl Storage for SqliteStore {
    fn write(&self, write: Write) -> BoxFuture<'_, Result<(), StoreError>> {
        let touched = Touched::by(&write);
        let sent = self.send(write);
        Box::pin(async move {
            let result = sent.await;
            touched.tell(&self.side);
            result
        })
    }

    fn side_cache(&self) -> Option<&SideCache> {
        Some(&self.side)
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
        self.read(move |conn| load_tail(conn, &id, from))
    }

    fn load_tails<'a>(
        &'a self,
        asks: &'a [(String, u64)],
    ) -> BoxFuture<'a, Result<Vec<Option<Tail>>, StoreError>> {
        let asks = asks.to_vec();
        self.read(move |conn| {
            let tails = asks.iter().map(|(id, from)| load_tail(conn, id, *from));
            tails.collect()
        })
    }

    fn head(&self, id: &str) -> BoxFuture<'_, Result<Option<u64>, StoreError>> {
        let id = id.to_string();
        self.read(move |conn| head(conn, &id))
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

    fn select(&self, query: Query) -> BoxFuture<'_, Result<Vec<Row>, StoreError>> {
        self.read(move |conn| select(conn, &query))
    }

    fn healthy(&self) -> BoxFuture<'_, bool> {
        let ping = self.send(Write::Ping);
        Box::pin(async move { ping.await.is_ok() })
    }
}

/// Which of a table's rows kept in memory a write may change. Rows beside the log
/// ([`Write::Side`]) are told by the typed functions that write them (`super::notify`).
enum Touched {
    Nothing,
    /// Link changes take targets with their keys, or move them to a new key.
    Targets(String),
    Everything(String),
}

impl Touched {
    fn by(write: &Write) -> Touched {
        match write {
            Write::Append {
                table_id, links, ..
            }
            | Write::Keep {
                table_id, links, ..
            } if !links.is_empty() => Touched::Targets(table_id.clone()),
            Write::CreateTable { id, .. } | Write::DeleteTable { id } => {
                Touched::Everything(id.clone())
            }
            Write::Restore(rows) => Touched::Everything(rows.id.clone()),
            _ => Touched::Nothing,
        }
    }

    /// Once the write is done (or failed: it may have been applied before the answer was lost).
    fn tell(self, side: &SideCache) {
        match self {
            Touched::Nothing => {}
            Touched::Targets(table) => side.targets_written(&table),
            Touched::Everything(table) => side.forget(&table),
        }
    }
}

fn writer_loop(mut conn: Connection, rx: mpsc::Receiver<(Write, Reply, Instant)>) {
    while let Ok(first) = rx.recv() {
        let mut batch = vec![first];
        // Group commit: everything already waiting rides in the same transaction.
        while batch.len() < 512 {
            match rx.try_recv() {
                Ok(next) => batch.push(next),
                Err(_) => break,
            }
        }
        let result = commit(&mut conn, batch.iter().map(|(w, _, _)| w));
        if result.is_ok() || batch.len() == 1 {
            for (_, reply, arrived) in batch {
                DATABASE
                    .commit_seconds
                    .observe(arrived.elapsed().as_secs_f64());
                let _ = reply.send(result.clone());
            }
            continue;
        }
        // One bad write must not sink the others: commit each on its own.
        for (write, reply, arrived) in batch {
            let result = commit(&mut conn, std::iter::once(&write));
            DATABASE
                .commit_seconds
                .observe(arrived.elapsed().as_secs_f64());
            let _ = reply.send(result);
        }
    }
}

fn commit<'a>(
    conn: &mut Connection,
    writes: impl Iterator<Item = &'a Write>,
) -> Result<(), StoreError> {
    DATABASE.round_trips.inc();
    let tx = conn.transaction()?;
    for w in writes {
        for statement in w.statements() {
            run(&tx, &statement)?;
        }
    }
    tx.commit()?;
    Ok(())
}

fn run(tx: &rusqlite::Transaction<'_>, statement: &Statement<'_>) -> Result<(), StoreError> {
    let mut stmt = tx.prepare_cached(statement.sql)?;
    let params = statement.params.iter().map(|p| match p {
        Param::Text(t) => t as &dyn rusqlite::ToSql,
        Param::MaybeText(t) => t,
        Param::Int(n) => n,
        Param::MaybeInt(n) => n,
        Param::Bool(b) => b,
    });
    // A statement's rows (the ping's) are not wanted: stepping through them runs it.
    stmt.query(rusqlite::params_from_iter(params))?.next()?;
    Ok(())
}

/// The length of a table's log, or `None` when there is no such table.
fn head(conn: &Connection, id: &str) -> Result<Option<u64>, StoreError> {
    let found: Option<i64> = conn
        .prepare_cached(
            "SELECT (SELECT COUNT(*) FROM log WHERE table_id = ?1) FROM tables WHERE id = ?1",
        )?
        .query_row([id], |r| r.get(0))
        .optional()?;
    Ok(found.map(|n| n as u64))
}

fn load_tail(conn: &Connection, id: &str, from: u64) -> Result<Option<Tail>, StoreError> {
    if head(conn, id)?.is_none() {
        return Ok(None);
    }
    Ok(Some(Tail {
        links: load_links(conn, id)?,
        log: load_log(conn, id, from)?,
        kept: load_kept(conn, id)?,
    }))
}

/// A finished table's housekeeping (see [`crate::table::keeping`]).
fn load_kept(conn: &Connection, id: &str) -> Result<super::Keeping, StoreError> {
    let sql = "SELECT title, archived FROM table_keeping WHERE table_id = ?1";
    let row: Option<(Option<String>, Option<i64>)> = conn
        .prepare_cached(sql)?
        .query_row([id], |r| Ok((r.get(0)?, r.get(1)?)))
        .optional()?;
    let (title, archived) = row.unwrap_or_default();
    Ok(super::Keeping {
        title,
        archived: archived.map(|n| n != 0),
        links: Vec::new(),
    })
}

/// A table's row (and when it was made), or `None` when there is no such table.
fn table_row(conn: &Connection, id: &str) -> Result<Option<(TableRow, i64)>, StoreError> {
    let sql =
        "SELECT ruleset, title, setup, seed, secret, chance, created_at FROM tables WHERE id = ?1";
    let row = conn.prepare_cached(sql)?.query_row([id], |r| {
        let columns = TableRow {
            ruleset: r.get(0)?,
            title: r.get(1)?,
            setup: r.get(2)?,
            seed: r.get(3)?,
            secret: r.get(4)?,
            chance: r.get(5)?,
        };
        Ok((columns, r.get(6)?))
    });
    Ok(row.optional()?)
}

fn load_table(conn: &Connection, id: &str) -> Result<Option<StoredTable>, StoreError> {
    let Some((row, _)) = table_row(conn, id)? else {
        return Ok(None);
    };
    let commands: Option<i64> = conn
        .prepare_cached("SELECT MAX(n) + 1 FROM commands WHERE table_id = ?1")?
        .query_row([id], |r| r.get(0))?;
    let links = load_links(conn, id)?;
    let log = load_log(conn, id, 0)?;
    let mut table = row.into_table(id, links, commands, log)?;
    table.kept = load_kept(conn, id)?;
    Ok(Some(table))
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
        StoredLink::read(key, role, &status)
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

fn dump_table(conn: &Connection, id: &str) -> Result<Option<TableRows>, StoreError> {
    let Some((row, created_at)) = table_row(conn, id)? else {
        return Ok(None);
    };
    let links = conn
        .prepare("SELECT key, role, status FROM links WHERE table_id = ?1 ORDER BY rowid")?
        .query_map([id], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
        .collect::<Result<_, _>>()?;
    let commands = conn
        .prepare(
            "SELECT n, seat, command, command_id FROM commands WHERE table_id = ?1 ORDER BY n",
        )?
        .query_map([id], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))?
        .collect::<Result<_, _>>()?;
    let log = conn
        .prepare("SELECT pos, entry, hash FROM log WHERE table_id = ?1 ORDER BY pos")?
        .query_map([id], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
        .collect::<Result<_, _>>()?;
    Ok(Some(row.into_rows(id, created_at, links, commands, log)))
}

/// The rows of a side read (see [`super::side`]).
fn select(conn: &Connection, query: &Query) -> Result<Vec<Row>, StoreError> {
    use rusqlite::types::ValueRef;
    let mut stmt = conn.prepare_cached(query.sql)?;
    let args = query.args.iter().map(|a| match a {
        Arg::Text(t) => t as &dyn rusqlite::ToSql,
        Arg::MaybeText(t) => t,
        Arg::Int(n) => n,
        Arg::MaybeInt(n) => n,
    });
    let columns = stmt.column_count();
    let mut rows = stmt.query(rusqlite::params_from_iter(args))?;
    let mut out = Vec::new();
    while let Some(row) = rows.next()? {
        let cells = (0..columns).map(|i| {
            Ok(match row.get_ref(i)? {
                ValueRef::Integer(n) => Cell::Int(Some(n)),
                ValueRef::Null => Cell::Text(None),
                ValueRef::Text(t) => Cell::Text(Some(String::from_utf8_lossy(t).into_owned())),
                ValueRef::Real(r) => Cell::Int(Some(r as i64)),
                ValueRef::Blob(_) => Cell::Text(None),
            })
        });
        out.push(cells.collect::<Result<Row, StoreError>>()?);
    }
    Ok(out)
}
