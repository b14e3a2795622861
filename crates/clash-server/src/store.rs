//! Durable storage in an embedded SQLite file.
//!
//! The event log is the source of truth: a table is its ruleset, setup JSON, secret seed, the
//! commands it accepted and the events they produced. Everything in memory is rebuilt from this
//! on start.
//!
//! Writes go through one dedicated writer thread. It takes every write waiting in its queue and
//! commits them together in one transaction (group commit), then answers each caller; a command
//! is acknowledged only after that commit. Each write is all-or-nothing because it sits inside
//! one transaction, and SQLite serializes writers anyway, so one thread costs no parallelism.

use std::path::Path;
use std::sync::mpsc;

use rusqlite::{Connection, OptionalExtension, params};
use serde_json::Value;
use tokio::sync::oneshot;

/// A storage failure, told in words.
#[derive(Debug, Clone, thiserror::Error)]
#[error("database error: {0}")]
pub struct StoreError(pub String);

impl From<rusqlite::Error> for StoreError {
    fn from(e: rusqlite::Error) -> Self {
        StoreError(e.to_string())
    }
}

const SCHEMA: &str = "
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

/// A table as stored.
#[derive(Debug, Clone)]
pub struct StoredTable {
    pub id: String,
    pub ruleset: String,
    pub title: String,
    pub setup: Value,
    pub seed: u64,
    pub links: Vec<StoredLink>,
    pub commands: u64,
    pub events: Vec<Value>,
}

/// One link key and what it may do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredLink {
    pub key: String,
    /// `owner`, `spectator`, or a seat (`gm`, `p1`, …).
    pub role: String,
    /// A seat the owner plays as an NPC.
    pub npc: bool,
}

/// One write: applied in a single transaction together with whatever else is queued.
#[derive(Debug)]
pub enum Write {
    CreateTable {
        id: String,
        ruleset: String,
        title: String,
        setup: Value,
        seed: u64,
        links: Vec<StoredLink>,
    },
    /// Remove every link of `role` on the table, then add `link` if given.
    ReplaceLink {
        table_id: String,
        role: String,
        link: Option<StoredLink>,
    },
    Command {
        table_id: String,
        n: u64,
        seat: String,
        command: Value,
        first_index: usize,
        events: Vec<Value>,
    },
    /// Touch the database without changing it (health checks).
    Ping,
}

type Reply = oneshot::Sender<Result<(), StoreError>>;

/// Handle to the writer thread; cheap to clone.
#[derive(Clone)]
pub struct Store {
    queue: mpsc::Sender<(Write, Reply)>,
    path: std::path::PathBuf,
}

fn open(path: &Path) -> Result<Connection, StoreError> {
    let conn = Connection::open(path)?;
    // WAL lets readers and the writer proceed together; FULL syncs the log on every commit so an
    // acknowledged command survives a power cut, not only a crash of this process.
    conn.execute_batch("PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL; PRAGMA foreign_keys=ON; PRAGMA busy_timeout=5000;")?;
    conn.execute_batch(SCHEMA)?;
    Ok(conn)
}

impl Store {
    /// Open (creating if needed) the database at `path`, start the writer and read back every table.
    pub fn open(path: &Path) -> Result<(Store, Vec<StoredTable>), StoreError> {
        let reader = open(path)?;
        let tables = load_all(&reader)?;
        drop(reader);
        let writer = open(path)?;
        let (queue, rx) = mpsc::channel::<(Write, Reply)>();
        std::thread::Builder::new()
            .name("clash-db-writer".into())
            .spawn(move || writer_loop(writer, rx))
            .map_err(|e| StoreError(e.to_string()))?;
        Ok((
            Store {
                queue,
                path: path.to_path_buf(),
            },
            tables,
        ))
    }

    /// Commit `write`; returns once it is on disk.
    pub async fn write(&self, write: Write) -> Result<(), StoreError> {
        let (tx, rx) = oneshot::channel();
        self.queue
            .send((write, tx))
            .map_err(|_| StoreError("the database writer has stopped".into()))?;
        rx.await
            .map_err(|_| StoreError("the database writer has stopped".into()))?
    }

    /// Where the database file is (other parts of the server keep small tables of their own in it).
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Read one table back (after a failed write, to drop whatever memory holds beyond the disk).
    pub async fn load_table(&self, id: &str) -> Result<Option<StoredTable>, StoreError> {
        let path = self.path.clone();
        let id = id.to_string();
        tokio::task::spawn_blocking(move || {
            let conn = open(&path)?;
            Ok(load_all(&conn)?.into_iter().find(|t| t.id == id))
        })
        .await
        .map_err(|e| StoreError(e.to_string()))?
    }

    /// True when the database answers a trivial query.
    pub async fn healthy(&self) -> bool {
        let (tx, rx) = oneshot::channel();
        if self.queue.send((Write::Ping, tx)).is_err() {
            return false;
        }
        matches!(rx.await, Ok(Ok(())))
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
        for (_, reply) in batch {
            let _ = reply.send(result.clone());
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
            seed,
            links,
        } => {
            let now = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_secs());
            tx.execute(
                "INSERT INTO tables (id, ruleset, title, setup, seed, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                // SQLite integers are signed: the seed is stored bit-for-bit as an i64.
                params![id, ruleset, title, setup.to_string(), *seed as i64, now as i64],
            )?;
            for l in links {
                insert_link(tx, id, l)?;
            }
        }
        Write::ReplaceLink {
            table_id,
            role,
            link,
        } => {
            tx.execute(
                "DELETE FROM links WHERE table_id = ?1 AND role = ?2",
                params![table_id, role],
            )?;
            if let Some(l) = link {
                insert_link(tx, table_id, l)?;
            }
        }
        Write::Command {
            table_id,
            n,
            seat,
            command,
            first_index,
            events,
        } => {
            tx.execute(
                "INSERT INTO commands (table_id, n, seat, command) VALUES (?1, ?2, ?3, ?4)",
                params![table_id, *n as i64, seat, command.to_string()],
            )?;
            let mut stmt =
                tx.prepare_cached("INSERT INTO events (table_id, idx, event) VALUES (?1, ?2, ?3)")?;
            for (i, e) in events.iter().enumerate() {
                stmt.execute(params![table_id, (first_index + i) as i64, e.to_string()])?;
            }
        }
        Write::Ping => {
            tx.query_row("SELECT 1", [], |r| r.get::<_, i64>(0))?;
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
        "INSERT INTO links (key, table_id, role, npc) VALUES (?1, ?2, ?3, ?4)",
        params![l.key, table_id, l.role, l.npc],
    )?;
    Ok(())
}

fn parse_json(text: &str, what: &str) -> Result<Value, StoreError> {
    serde_json::from_str(text).map_err(|e| StoreError(format!("stored {what} is not JSON: {e}")))
}

fn load_all(conn: &Connection) -> Result<Vec<StoredTable>, StoreError> {
    let mut stmt =
        conn.prepare("SELECT id, ruleset, title, setup, seed FROM tables ORDER BY created_at, id")?;
    let rows = stmt.query_map([], |r| {
        Ok((
            r.get::<_, String>(0)?,
            r.get::<_, String>(1)?,
            r.get::<_, String>(2)?,
            r.get::<_, String>(3)?,
            r.get::<_, i64>(4)?,
        ))
    })?;
    let mut tables = Vec::new();
    for row in rows {
        let (id, ruleset, title, setup, seed) = row?;
        let setup = parse_json(&setup, "setup")?;
        let links = load_links(conn, &id)?;
        let commands: i64 = conn
            .query_row(
                "SELECT MAX(n) + 1 FROM commands WHERE table_id = ?1",
                [&id],
                |r| r.get::<_, Option<i64>>(0),
            )
            .optional()?
            .flatten()
            .unwrap_or(0);
        let events = load_events(conn, &id)?;
        tables.push(StoredTable {
            id,
            ruleset,
            title,
            setup,
            seed: seed as u64,
            links,
            commands: commands as u64,
            events,
        });
    }
    Ok(tables)
}

fn load_links(conn: &Connection, id: &str) -> Result<Vec<StoredLink>, StoreError> {
    let mut stmt =
        conn.prepare("SELECT key, role, npc FROM links WHERE table_id = ?1 ORDER BY rowid")?;
    let links = stmt
        .query_map([id], |r| {
            Ok(StoredLink {
                key: r.get(0)?,
                role: r.get(1)?,
                npc: r.get(2)?,
            })
        })?
        .collect::<Result<Vec<_>, _>>()?;
    Ok(links)
}

fn load_events(conn: &Connection, id: &str) -> Result<Vec<Value>, StoreError> {
    let mut stmt = conn.prepare("SELECT event FROM events WHERE table_id = ?1 ORDER BY idx")?;
    let texts = stmt
        .query_map([id], |r| r.get::<_, String>(0))?
        .collect::<Result<Vec<_>, _>>()?;
    texts.iter().map(|t| parse_json(t, "event")).collect()
}
