//! Rows kept beside a table's log but outside it: what is private to one key or to this host
//! (notification targets, deliveries, the clocks' stored times; see [`crate::notify`]), the
//! proofs of claims made with a request id, and a finished table's housekeeping (its name and
//! whether it is archived, once its record is final). They are never hash-chained nor exported
//! with the table's record.
//!
//! Their statements are written in the store, in the SQL both backends run unchanged (`$n`
//! parameters, as in [`super::rows`]): here, in [`super::notify`] and in [`super::consent`].
//! A backend runs them: a write as [`super::Write::Side`] (one transaction, like any other
//! write), a read through [`super::Storage::select`]. Only the store makes a [`Query`]; the
//! rest of the server calls its typed functions.

use super::{Store, StoreError, Write};

/// A statement's parameter.
#[derive(Debug, Clone, PartialEq)]
pub enum Arg {
    Text(String),
    MaybeText(Option<String>),
    Int(i64),
    MaybeInt(Option<i64>),
}

/// One statement of a side write, or a read. Only the store makes one: what is outside it
/// reads and writes side rows through the store's typed functions ([`super::notify`],
/// [`super::consent`], [`active_keys`], [`claimed`]), never through SQL of its own.
#[derive(Debug, Clone)]
pub struct Query {
    pub(super) sql: &'static str,
    pub(super) args: Vec<Arg>,
}

impl Query {
    pub(super) fn new(sql: &'static str, args: Vec<Arg>) -> Query {
        Query { sql, args }
    }
}

/// One cell of a row read back: every side column is text or a whole number.
#[derive(Debug, Clone, PartialEq)]
pub enum Cell {
    Text(Option<String>),
    Int(Option<i64>),
}

impl Cell {
    /// The cell as text (empty when it is a number or null).
    pub fn text(&self) -> String {
        match self {
            Cell::Text(Some(t)) => t.clone(),
            _ => String::new(),
        }
    }

    pub fn maybe_text(&self) -> Option<String> {
        match self {
            Cell::Text(t) => t.clone(),
            Cell::Int(n) => n.map(|n| n.to_string()),
        }
    }

    pub fn int(&self) -> Option<i64> {
        match self {
            Cell::Int(n) => *n,
            Cell::Text(t) => t.as_deref().and_then(|t| t.parse().ok()),
        }
    }
}

/// A row read back.
pub type Row = Vec<Cell>;

/// Rows a side table keeps with the table they belong to: removed with its keys, and with it.
///
/// Run after every change of a table's links, in the same transaction: a key that no longer
/// works (revoked, replaced by a new invite, a seat claimed by someone new) takes its targets
/// with it; a key the GM suspends keeps them (its player comes back).
pub(crate) const PRUNE_TARGETS: &str = "DELETE FROM notify_targets WHERE table_id = $1 AND key NOT IN (SELECT key FROM links WHERE table_id = $1)";

/// Run before a table's own rows go.
pub(crate) const DELETE_TABLE: [&str; 6] = [
    "DELETE FROM notify_targets WHERE table_id = $1",
    "DELETE FROM notify_log WHERE table_id = $1",
    "DELETE FROM notify_waits WHERE table_id = $1",
    "DELETE FROM notify_fired WHERE table_id = $1",
    "DELETE FROM table_keeping WHERE table_id = $1",
    "DELETE FROM seat_claims WHERE table_id = $1",
];

/// A side table that `clash db copy` carries with its table: its columns, in order. The delivery
/// log and fired claims stay behind (a copy is made while no server runs, so nothing is due
/// that has not fired).
struct Copied {
    select: &'static str,
    insert: &'static str,
    /// The whole-number columns (a null read back from SQLite has no type of its own).
    ints: &'static [usize],
}

const COPIED: [Copied; 4] = [
    Copied {
        select: "SELECT table_id, id, key, kind, format, address, secret, created_at, failures, last_error, last_error_at, last_ok_at FROM notify_targets WHERE table_id = $1",
        insert: "INSERT INTO notify_targets (table_id, id, key, kind, format, address, secret, created_at, failures, last_error, last_error_at, last_ok_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)",
        ints: &[7, 8, 10, 11],
    },
    Copied {
        select: "SELECT table_id, seat, since_pos, since_at, spent_ms, remind_at, expire_at, warn_at FROM notify_waits WHERE table_id = $1",
        insert: "INSERT INTO notify_waits (table_id, seat, since_pos, since_at, spent_ms, remind_at, expire_at, warn_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
        ints: &[2, 3, 4, 5, 6, 7],
    },
    Copied {
        select: "SELECT table_id, title, archived FROM table_keeping WHERE table_id = $1",
        insert: "INSERT INTO table_keeping (table_id, title, archived) VALUES ($1, $2, $3)",
        ints: &[2],
    },
    Copied {
        select: "SELECT table_id, proof, key FROM seat_claims WHERE table_id = $1",
        insert: "INSERT INTO seat_claims (table_id, proof, key) VALUES ($1, $2, $3)",
        ints: &[],
    },
];

/// Copy table `id`'s side rows from `from` to `to`, in one write.
pub(crate) async fn copy(from: &Store, to: &Store, id: &str) -> Result<(), StoreError> {
    let mut statements = Vec::new();
    for side in &COPIED {
        let rows = from
            .select(Query::new(side.select, vec![Arg::Text(id.into())]))
            .await?;
        for row in rows {
            let args = row
                .into_iter()
                .enumerate()
                .map(|(i, cell)| match side.ints.contains(&i) {
                    true => Arg::MaybeInt(cell.int()),
                    false => Arg::MaybeText(cell.maybe_text()),
                })
                .collect();
            statements.push(Query::new(side.insert, args));
        }
    }
    if statements.is_empty() {
        return Ok(());
    }
    let write = Write::Side {
        table_id: id.to_string(),
        statements,
    };
    to.write(write).await
}

/// The keys of the active links of `role` at table `id` (read even when the table itself
/// cannot be: its ruleset not offered here).
pub async fn active_keys(store: &Store, id: &str, role: &str) -> Result<Vec<String>, StoreError> {
    const SQL: &str =
        "SELECT key FROM links WHERE table_id = $1 AND role = $2 AND status = 'active'";
    let args = vec![Arg::Text(id.into()), Arg::Text(role.into())];
    let rows = store.select(Query::new(SQL, args)).await?;
    Ok(rows
        .iter()
        .filter_map(|row| row.first().map(Cell::text))
        .collect())
}

/// The key a seat claim with this `proof` (a request id's hash) gave at table `id`.
pub async fn claimed(store: &Store, id: &str, proof: &str) -> Result<Option<String>, StoreError> {
    const SQL: &str = "SELECT key FROM seat_claims WHERE table_id = $1 AND proof = $2";
    let args = vec![Arg::Text(id.into()), Arg::Text(proof.into())];
    let rows = store.select(Query::new(SQL, args)).await?;
    Ok(rows.first().and_then(|r| r.first()).map(Cell::text))
}
