//! Rows kept beside a table's log but outside it: what is private to one key or to this host
//! (notification targets, deliveries, the clocks' stored times; see [`crate::notify`]). They
//! are never hash-chained nor exported with the table's record.
//!
//! Their module states its own statements in the SQL both backends run unchanged (`$n`
//! parameters, as in [`super::rows`]); a backend runs them: a write as [`super::Write::Side`]
//! (one transaction, like any other write), a read through [`super::Storage::select`].

/// A statement's parameter.
#[derive(Debug, Clone, PartialEq)]
pub enum Arg {
    Text(String),
    MaybeText(Option<String>),
    Int(i64),
    MaybeInt(Option<i64>),
}

/// One statement of a side write, or a read.
#[derive(Debug, Clone)]
pub struct Query {
    pub sql: &'static str,
    pub args: Vec<Arg>,
}

impl Query {
    pub fn new(sql: &'static str, args: Vec<Arg>) -> Query {
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
pub(crate) const DELETE_TABLE: [&str; 4] = [
    "DELETE FROM notify_targets WHERE table_id = $1",
    "DELETE FROM notify_log WHERE table_id = $1",
    "DELETE FROM notify_waits WHERE table_id = $1",
    "DELETE FROM notify_fired WHERE table_id = $1",
];
