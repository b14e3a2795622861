//! The notification rows kept beside each table (see `crate::notify`), typed: the targets each
//! key set, the GM's delivery log, each seat's wait and the timers claimed. Their statements
//! are written here, in the SQL both backends run unchanged, so nothing outside the store
//! writes SQL.

use std::collections::HashMap;

use super::cache::Cached;
use super::side::{Arg, Cell, Query, Row};
use super::{Store, StoreError, Write};

/// A notification target as stored: its kind and format by name.
#[derive(Debug, Clone, PartialEq)]
pub struct TargetRow {
    pub id: String,
    pub key: String,
    pub kind: &'static str,
    pub format: &'static str,
    pub address: String,
    pub secret: String,
}

/// A stored target with how its deliveries went.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredTarget {
    pub id: String,
    pub key: String,
    pub kind: String,
    pub format: String,
    pub address: String,
    pub secret: String,
    pub failures: i64,
    pub last_error: Option<String>,
    pub last_error_at: Option<i64>,
    pub last_ok_at: Option<i64>,
}

/// One seat's stored wait.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Wait {
    pub since_pos: i64,
    pub since_at: Option<i64>,
    pub spent_ms: i64,
    pub remind_at: Option<i64>,
    pub expire_at: Option<i64>,
    pub warn_at: Option<i64>,
}

/// A seat's timers, each claimed once (`notify_fired`) before it acts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Timer {
    Remind,
    Warn,
    Expire,
}

/// A wait with a timer due: its table, seat, the log position the wait began at, and its times.
#[derive(Debug, Clone, PartialEq)]
pub struct DueWait {
    pub table: String,
    pub seat: String,
    pub since_pos: i64,
    pub remind_at: Option<i64>,
    pub warn_at: Option<i64>,
    pub expire_at: Option<i64>,
}

/// A line of the GM's delivery log.
#[derive(Debug, Clone, PartialEq)]
pub struct LoggedDelivery {
    pub at: i64,
    /// The target, described without its address.
    pub target: String,
    pub seat: String,
    /// The kinds of news sent, comma-separated.
    pub kinds: String,
    pub outcome: String,
    pub detail: String,
}

fn text(row: &Row, i: usize) -> String {
    row.get(i).map(Cell::text).unwrap_or_default()
}

fn int(row: &Row, i: usize) -> Option<i64> {
    row.get(i).and_then(Cell::int)
}

/// Write rows of a table's targets (and its delivery log): what is kept of them in memory goes.
async fn write(store: &Store, table: &str, statements: Vec<Query>) -> Result<(), StoreError> {
    if statements.is_empty() {
        return Ok(());
    }
    let write = Write::Side {
        table_id: table.to_string(),
        statements,
    };
    let written = store.write(write).await;
    if let Some(cache) = store.side_cache() {
        cache.targets_written(table);
    }
    written
}

/// Every target of a table, oldest first.
pub async fn targets(store: &Store, table: &str) -> Result<Vec<StoredTarget>, StoreError> {
    through_cache(store, table, read_targets(store, table)).await
}

/// Rows kept in memory by a store only this process writes ([`super::SideCache`]), or `read`
/// (which runs only when they are not) and kept unless a write came meanwhile.
async fn through_cache<T: Cached>(
    store: &Store,
    table: &str,
    read: impl Future<Output = Result<T, StoreError>>,
) -> Result<T, StoreError> {
    let cache = store.side_cache();
    let generation = match cache.map(|c| c.get::<T>(table)) {
        Some(Ok(kept)) => return Ok(kept),
        other => other.and_then(Result::err),
    };
    let rows = read.await?;
    if let Some((cache, generation)) = cache.zip(generation) {
        cache.keep(table, generation, &rows);
    }
    Ok(rows)
}

async fn read_targets(store: &Store, table: &str) -> Result<Vec<StoredTarget>, StoreError> {
    const SQL: &str = "SELECT id, key, kind, format, address, secret, failures, last_error, last_error_at, last_ok_at FROM notify_targets WHERE table_id = $1 ORDER BY created_at, id";
    let rows = store
        .select(Query::new(SQL, vec![Arg::Text(table.into())]))
        .await?;
    Ok(rows
        .iter()
        .map(|row| StoredTarget {
            id: text(row, 0),
            key: text(row, 1),
            kind: text(row, 2),
            format: text(row, 3),
            address: text(row, 4),
            secret: text(row, 5),
            failures: int(row, 6).unwrap_or(0),
            last_error: row.get(7).and_then(Cell::maybe_text),
            last_error_at: int(row, 8),
            last_ok_at: int(row, 9),
        })
        .collect())
}

/// Store a new target, only while its key still works at the table (a key revoked meanwhile
/// stores nothing).
fn insert(table: &str, t: &TargetRow, now: i64) -> Query {
    const SQL: &str = "INSERT INTO notify_targets (table_id, id, key, kind, format, address, secret, created_at) SELECT $1, $2, $3, $4, $5, $6, $7, CAST($8 AS BIGINT) WHERE EXISTS (SELECT 1 FROM links WHERE table_id = $1 AND key = $3)";
    let args = vec![
        Arg::Text(table.into()),
        Arg::Text(t.id.clone()),
        Arg::Text(t.key.clone()),
        Arg::Text(t.kind.into()),
        Arg::Text(t.format.into()),
        Arg::Text(t.address.clone()),
        Arg::Text(t.secret.clone()),
        Arg::Int(now),
    ];
    Query::new(SQL, args)
}

fn delete_kind(table: &str, key: &str, kind: &str) -> Query {
    const SQL: &str = "DELETE FROM notify_targets WHERE table_id = $1 AND key = $2 AND kind = $3";
    let args = vec![
        Arg::Text(table.into()),
        Arg::Text(key.into()),
        Arg::Text(kind.into()),
    ];
    Query::new(SQL, args)
}

/// Add a target of `key`.
pub async fn add_target(
    store: &Store,
    table: &str,
    target: &TargetRow,
    now: i64,
) -> Result<(), StoreError> {
    write(store, table, vec![insert(table, target, now)]).await
}

/// Replace every target of one kind of `key` (a new handle or channel replaces the old) with
/// `by`, or with nothing, in one write.
pub async fn replace_targets(
    store: &Store,
    table: &str,
    key: &str,
    kind: &'static str,
    by: Option<&TargetRow>,
    now: i64,
) -> Result<(), StoreError> {
    let mut statements = vec![delete_kind(table, key, kind)];
    statements.extend(by.map(|t| insert(table, t, now)));
    write(store, table, statements).await
}

/// Remove one target of `key` (one that is not there: nothing happens).
pub async fn remove_target(
    store: &Store,
    table: &str,
    key: &str,
    id: &str,
) -> Result<(), StoreError> {
    const SQL: &str = "DELETE FROM notify_targets WHERE table_id = $1 AND key = $2 AND id = $3";
    let args = vec![
        Arg::Text(table.into()),
        Arg::Text(key.into()),
        Arg::Text(id.into()),
    ];
    write(store, table, vec![Query::new(SQL, args)]).await
}

/// How a delivery to a target went. (Parameters are numbered in the order they first appear:
/// SQLite binds them so.)
fn outcome(table: &str, id: &str, error: Option<&str>, now: i64) -> Query {
    let at = [Arg::Text(table.into()), Arg::Text(id.into())];
    match error {
        None => Query::new(
            "UPDATE notify_targets SET failures = 0, last_ok_at = $1 WHERE table_id = $2 AND id = $3",
            [Arg::Int(now)].into_iter().chain(at).collect(),
        ),
        Some(e) => Query::new(
            "UPDATE notify_targets SET failures = failures + 1, last_error = $1, last_error_at = $2 WHERE table_id = $3 AND id = $4",
            [Arg::Text(e.into()), Arg::Int(now)]
                .into_iter()
                .chain(at)
                .collect(),
        ),
    }
}

/// A delivery log row (with a fresh `id`), and the statement that keeps only the latest `kept`.
fn log_rows(table: &str, id: String, line: &LoggedDelivery, kept: i64) -> [Query; 2] {
    const INSERT: &str = "INSERT INTO notify_log (table_id, id, at, target, seat, kinds, outcome, detail) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)";
    const TRIM: &str = "DELETE FROM notify_log WHERE table_id = $1 AND at < (SELECT at FROM notify_log WHERE table_id = $1 ORDER BY at DESC LIMIT 1 OFFSET $2)";
    let args = vec![
        Arg::Text(table.into()),
        Arg::Text(id),
        Arg::Int(line.at),
        Arg::Text(line.target.clone()),
        Arg::Text(line.seat.clone()),
        Arg::Text(line.kinds.clone()),
        Arg::Text(line.outcome.clone()),
        Arg::Text(line.detail.clone()),
    ];
    [
        Query::new(INSERT, args),
        Query::new(TRIM, vec![Arg::Text(table.into()), Arg::Int(kept - 1)]),
    ]
}

/// What became of a delivery: the target's own state (`Some((id, error))`), and a line of the
/// delivery log (with a fresh id, keeping the latest `kept`), in one write.
pub async fn record_delivery(
    store: &Store,
    table: &str,
    target: Option<(&str, Option<&str>, i64)>,
    logged: Option<(String, &LoggedDelivery, i64)>,
) -> Result<(), StoreError> {
    let mut statements = Vec::new();
    if let Some((id, error, now)) = target {
        statements.push(outcome(table, id, error, now));
    }
    if let Some((id, line, kept)) = logged {
        statements.extend(log_rows(table, id, line, kept));
    }
    write(store, table, statements).await
}

/// The latest deliveries of a table's notifications, newest first.
pub async fn deliveries(store: &Store, table: &str) -> Result<Vec<LoggedDelivery>, StoreError> {
    const SQL: &str = "SELECT at, target, seat, kinds, outcome, detail FROM notify_log WHERE table_id = $1 ORDER BY at DESC LIMIT 200";
    let rows = store
        .select(Query::new(SQL, vec![Arg::Text(table.into())]))
        .await?;
    Ok(rows
        .iter()
        .map(|r| LoggedDelivery {
            at: int(r, 0).unwrap_or(0),
            target: text(r, 1),
            seat: text(r, 2),
            kinds: text(r, 3),
            outcome: text(r, 4),
            detail: text(r, 5),
        })
        .collect())
}

/// Each seat's stored wait at `table`.
pub async fn waits(store: &Store, table: &str) -> Result<HashMap<String, Wait>, StoreError> {
    through_cache(store, table, read_waits(store, table)).await
}

async fn read_waits(store: &Store, table: &str) -> Result<HashMap<String, Wait>, StoreError> {
    const SQL: &str = "SELECT seat, since_pos, since_at, spent_ms, remind_at, expire_at, warn_at FROM notify_waits WHERE table_id = $1";
    let rows = store
        .select(Query::new(SQL, vec![Arg::Text(table.into())]))
        .await?;
    Ok(rows
        .iter()
        .map(|r| {
            let wait = Wait {
                since_pos: int(r, 1).unwrap_or(0),
                since_at: int(r, 2),
                spent_ms: int(r, 3).unwrap_or(0),
                remind_at: int(r, 4),
                expire_at: int(r, 5),
                warn_at: int(r, 6),
            };
            (text(r, 0), wait)
        })
        .collect())
}

fn upsert(table: &str, seat: &str, w: &Wait) -> Query {
    const SQL: &str = "INSERT INTO notify_waits (table_id, seat, since_pos, since_at, spent_ms, remind_at, expire_at, warn_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (table_id, seat) DO UPDATE SET since_pos = $3, since_at = $4, spent_ms = $5, remind_at = $6, expire_at = $7, warn_at = $8";
    let args = vec![
        Arg::Text(table.into()),
        Arg::Text(seat.into()),
        Arg::Int(w.since_pos),
        Arg::MaybeInt(w.since_at),
        Arg::Int(w.spent_ms),
        Arg::MaybeInt(w.remind_at),
        Arg::MaybeInt(w.expire_at),
        Arg::MaybeInt(w.warn_at),
    ];
    Query::new(SQL, args)
}

/// Forget the timers of `seat` that fired.
fn unclaim(table: &str, seat: &str) -> Query {
    const SQL: &str = "DELETE FROM notify_fired WHERE table_id = $1 AND seat = $2";
    Query::new(SQL, vec![Arg::Text(table.into()), Arg::Text(seat.into())])
}

/// Store seats' waits, in one write; for a seat marked `true` its earlier claims go too (a
/// wait that begins or is re-timed may fire again).
pub async fn store_waits(
    store: &Store,
    table: &str,
    waits: &[(String, Wait, bool)],
) -> Result<(), StoreError> {
    let mut statements = Vec::new();
    for (seat, wait, fresh) in waits {
        statements.push(upsert(table, seat, wait));
        if *fresh {
            statements.push(unclaim(table, seat));
        }
    }
    // An empty write still goes through the store (as it always has): nothing changes.
    let write = Write::Side {
        table_id: table.to_string(),
        statements,
    };
    let written = store.write(write).await;
    if let Some(cache) = store.side_cache() {
        match &written {
            Ok(()) => cache.waits_written(table, waits),
            Err(_) => cache.forget(table),
        }
    }
    written
}

/// Waits with a timer due by `now` (a hundred at a time).
pub async fn due(store: &Store, now: i64) -> Result<Vec<DueWait>, StoreError> {
    const DUE: &str = "SELECT table_id, seat, since_pos, remind_at, warn_at, expire_at FROM notify_waits WHERE (remind_at IS NOT NULL AND remind_at <= $1) OR (warn_at IS NOT NULL AND warn_at <= $1) OR (expire_at IS NOT NULL AND expire_at <= $1) ORDER BY table_id LIMIT 100";
    let rows = store.select(Query::new(DUE, vec![Arg::Int(now)])).await?;
    Ok(rows
        .iter()
        .map(|r| DueWait {
            table: text(r, 0),
            seat: text(r, 1),
            since_pos: int(r, 2).unwrap_or(0),
            remind_at: int(r, 3),
            warn_at: int(r, 4),
            expire_at: int(r, 5),
        })
        .collect())
}

impl Timer {
    /// Its name in `notify_fired`, and the statement that clears it once claimed.
    fn claim(self) -> (&'static str, &'static str) {
        match self {
            Timer::Remind => (
                "remind",
                "UPDATE notify_waits SET remind_at = NULL WHERE table_id = $1 AND seat = $2 AND since_pos = $3",
            ),
            Timer::Warn => (
                "warn",
                "UPDATE notify_waits SET warn_at = NULL WHERE table_id = $1 AND seat = $2 AND since_pos = $3",
            ),
            Timer::Expire => (
                "expire",
                "UPDATE notify_waits SET expire_at = NULL WHERE table_id = $1 AND seat = $2 AND since_pos = $3",
            ),
        }
    }
}

/// Claim a due timer: true for the one node that gets it.
pub async fn claim_timer(store: &Store, table: &str, seat: &str, pos: i64, timer: Timer) -> bool {
    const CLAIM: &str =
        "INSERT INTO notify_fired (table_id, seat, since_pos, what) VALUES ($1, $2, $3, $4)";
    let (what, clear) = timer.claim();
    let args = vec![
        Arg::Text(table.into()),
        Arg::Text(seat.into()),
        Arg::Int(pos),
    ];
    let mut claim_args = args.clone();
    claim_args.push(Arg::Text(what.into()));
    let clear = Query::new(clear, args);
    let claimed = vec![Query::new(CLAIM, claim_args), clear.clone()];
    match write(store, table, claimed).await {
        Ok(()) => true,
        Err(_) => {
            // Claimed already (by another node, which cleared the time with its claim): make
            // sure the time is cleared, so a due row never stays due.
            let _ = write(store, table, vec![clear]).await;
            false
        }
    }
}
