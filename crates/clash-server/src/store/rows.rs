//! What each [`Write`] stores, as statements both backends run unchanged: the SQL uses `$n`
//! parameters, which PostgreSQL numbers and SQLite reads as named parameters (`$1` is one name,
//! so a repeated `$1` is one value), in the order they first appear.

use std::borrow::Cow;
use std::sync::LazyLock;

use super::side::{self, Arg, Query};
use super::{LinkChange, LinkStatus, StoredCommand, StoredLink, TableRows, Write};
use crate::log::{Hash, hex};

/// A statement's parameter, bound by each backend as its own type.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Param<'a> {
    Text(Cow<'a, str>),
    MaybeText(Option<Cow<'a, str>>),
    Int(i64),
    MaybeInt(Option<i64>),
    Bool(bool),
}

/// One statement of a write.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Statement<'a> {
    pub sql: &'static str,
    pub params: Vec<Param<'a>>,
}

const INSERT_TABLE: &str = "INSERT INTO tables (id, ruleset, title, setup, seed, created_at, secret, chance) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)";
const INSERT_LINK: &str =
    "INSERT INTO links (key, table_id, role, npc, status) VALUES ($1, $2, $3, $4, $5)";
const INSERT_COMMAND: &str =
    "INSERT INTO commands (table_id, n, seat, command, command_id) VALUES ($1, $2, $3, $4, $5)";
const REMOVE_ROLE: &str = "DELETE FROM links WHERE table_id = $1 AND role = $2";
const REMOVE_LINK: &str = "DELETE FROM links WHERE table_id = $1 AND key = $2";
const SET_STATUS: &str = "UPDATE links SET status = $1, npc = $2 WHERE table_id = $3 AND key = $4";
const DELETE_TABLE: [&str; 5] = [
    "DELETE FROM log WHERE table_id = $1",
    "DELETE FROM commands WHERE table_id = $1",
    "DELETE FROM events WHERE table_id = $1",
    "DELETE FROM links WHERE table_id = $1",
    "DELETE FROM tables WHERE id = $1",
];
const PING: &str = "SELECT 1";
const FOLLOW: &str = "UPDATE notify_targets SET key = $1 WHERE table_id = $2 AND key = $3";
const CLAIMED: &str = "INSERT INTO seat_claims (table_id, proof, key) VALUES ($1, $2, $3)";
const KEEP: &str = "INSERT INTO table_keeping (table_id, title, archived) VALUES ($1, $2, $3) ON CONFLICT (table_id) DO UPDATE SET title = COALESCE(excluded.title, table_keeping.title), archived = COALESCE(excluded.archived, table_keeping.archived)";

/// Log rows one statement inserts at most (both databases cap a statement's parameters).
const LOG_ROWS: usize = 64;

/// `INSERT_LOG[k - 1]` inserts k log rows of one table.
static INSERT_LOG: LazyLock<Vec<String>> = LazyLock::new(|| {
    (1..=LOG_ROWS)
        .map(|k| {
            let rows: Vec<String> = (0..k)
                .map(|i| format!("($1, ${}, ${}, ${})", 3 * i + 2, 3 * i + 3, 3 * i + 4))
                .collect();
            format!(
                "INSERT INTO log (table_id, pos, entry, hash) VALUES {}",
                rows.join(", ")
            )
        })
        .collect()
});

fn text(s: &str) -> Param<'_> {
    Param::Text(Cow::Borrowed(s))
}

fn owned<'a>(s: String) -> Param<'a> {
    Param::Text(Cow::Owned(s))
}

impl Write {
    /// The statements that carry out this write, in order. An append inserts its log rows
    /// first: on a database shared by several nodes, a node that is behind then waits on the
    /// winner's row and fails there, before it touches anything else.
    pub(crate) fn statements(&self) -> Vec<Statement<'_>> {
        let mut plan = Plan(Vec::new());
        match self {
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
                plan.push(
                    INSERT_TABLE,
                    vec![
                        text(id),
                        text(ruleset),
                        text(title),
                        owned(setup.to_string()),
                        Param::Int(0),
                        Param::Int(now),
                        Param::MaybeText(Some(Cow::Owned(hex(secret)))),
                        text("clash-chance-v1"),
                    ],
                );
                for l in links {
                    plan.link(id, &l.key, &l.role, l.status.as_str());
                }
                plan.log(id, log.iter().map(log_row));
            }
            Write::Append {
                table_id,
                log,
                command,
                links,
            } => {
                plan.log(table_id, log.iter().map(log_row));
                if let Some(c) = command {
                    plan.command(table_id, c);
                }
                plan.links(table_id, links);
            }
            Write::Keep {
                table_id,
                title,
                archived,
                links,
            } => {
                if title.is_some() || archived.is_some() {
                    let title = Param::MaybeText(title.as_deref().map(Cow::Borrowed));
                    let archived = Param::MaybeInt(archived.map(i64::from));
                    plan.push(KEEP, vec![text(table_id), title, archived]);
                }
                plan.links(table_id, links);
            }
            Write::DeleteTable { id } => {
                for sql in side::DELETE_TABLE.into_iter().chain(DELETE_TABLE) {
                    plan.push(sql, vec![text(id)]);
                }
            }
            Write::Restore(rows) => plan.restore(rows),
            Write::Side { statements, .. } => {
                for Query { sql, args } in statements {
                    plan.push(sql, args.iter().map(arg).collect());
                }
            }
            Write::Ping => plan.push(PING, Vec::new()),
        }
        plan.0
    }

    /// The table this write changes (none for a ping).
    pub(crate) fn table(&self) -> &str {
        match self {
            Write::CreateTable { id, .. } | Write::DeleteTable { id } => id,
            Write::Append { table_id, .. } | Write::Keep { table_id, .. } => table_id,
            Write::Restore(rows) => &rows.id,
            Write::Side { table_id, .. } => table_id,
            Write::Ping => "",
        }
    }

    /// The table other nodes holding it in memory must hear of: one that changed or went
    /// (a new or copied table is read when first used, so there is nothing to hear).
    pub(crate) fn announces(&self) -> Option<&str> {
        match self {
            Write::Append { table_id, .. } | Write::Keep { table_id, .. } => Some(table_id),
            Write::DeleteTable { id } => Some(id),
            _ => None,
        }
    }
}

fn arg(a: &Arg) -> Param<'_> {
    match a {
        Arg::Text(t) => text(t),
        Arg::MaybeText(t) => Param::MaybeText(t.as_deref().map(Cow::Borrowed)),
        Arg::Int(n) => Param::Int(*n),
        Arg::MaybeInt(n) => Param::MaybeInt(*n),
    }
}

fn log_row((pos, entry, hash): &(u64, serde_json::Value, Hash)) -> (i64, Param<'_>, Param<'_>) {
    (*pos as i64, owned(entry.to_string()), owned(hex(hash)))
}

/// The statements of one write, in the making.
struct Plan<'a>(Vec<Statement<'a>>);

impl<'a> Plan<'a> {
    fn push(&mut self, sql: &'static str, params: Vec<Param<'a>>) {
        self.0.push(Statement { sql, params });
    }

    fn log(&mut self, table_id: &'a str, rows: impl Iterator<Item = (i64, Param<'a>, Param<'a>)>) {
        let mut rows = rows.peekable();
        while rows.peek().is_some() {
            let mut params = vec![text(table_id)];
            for (pos, entry, hash) in rows.by_ref().take(LOG_ROWS) {
                params.extend([Param::Int(pos), entry, hash]);
            }
            let count = params.len() / 3;
            self.push(&INSERT_LOG[count - 1], params);
        }
    }

    fn link(&mut self, table_id: &'a str, key: &'a str, role: &'a str, status: &'a str) {
        let npc = Param::Bool(status == LinkStatus::Npc.as_str());
        let params = vec![text(key), text(table_id), text(role), npc, text(status)];
        self.push(INSERT_LINK, params);
    }

    fn command(&mut self, table_id: &'a str, c: &'a StoredCommand) {
        let id = Param::MaybeText(c.id.as_deref().map(Cow::Borrowed));
        let params = vec![
            text(table_id),
            Param::Int(c.n as i64),
            text(&c.seat),
            owned(c.command.to_string()),
            id,
        ];
        self.push(INSERT_COMMAND, params);
    }

    /// Link changes, then the pruning of what keys that no longer work kept beside the table.
    fn links(&mut self, table_id: &'a str, links: &'a [LinkChange]) {
        for change in links {
            self.change_link(table_id, change);
        }
        if !links.is_empty() {
            self.push(side::PRUNE_TARGETS, vec![text(table_id)]);
        }
    }

    fn change_link(&mut self, table_id: &'a str, change: &'a LinkChange) {
        match change {
            LinkChange::RemoveRole(role) => {
                self.push(REMOVE_ROLE, vec![text(table_id), text(role)])
            }
            LinkChange::Remove(key) => self.push(REMOVE_LINK, vec![text(table_id), text(key)]),
            LinkChange::Add(StoredLink { key, role, status }) => {
                self.link(table_id, key, role, status.as_str())
            }
            LinkChange::SetStatus { key, status } => {
                let npc = Param::Bool(*status == LinkStatus::Npc);
                let params = vec![text(status.as_str()), npc, text(table_id), text(key)];
                self.push(SET_STATUS, params);
            }
            LinkChange::Follow { from, to } => {
                self.push(FOLLOW, vec![text(to), text(table_id), text(from)])
            }
            LinkChange::Claimed { key, proof } => {
                self.push(CLAIMED, vec![text(table_id), text(proof), text(key)])
            }
        }
    }

    /// Every row of a table as `clash db copy` carries it.
    fn restore(&mut self, t: &'a TableRows) {
        let secret = Param::MaybeText(t.secret.as_deref().map(Cow::Borrowed));
        let row = vec![
            text(&t.id),
            text(&t.ruleset),
            text(&t.title),
            text(&t.setup),
            Param::Int(t.seed),
            Param::Int(t.created_at),
            secret,
            text(&t.chance),
        ];
        self.push(INSERT_TABLE, row);
        for (key, role, status) in &t.links {
            self.link(&t.id, key, role, status);
        }
        for (n, seat, command, id) in &t.commands {
            let id = Param::MaybeText(id.as_deref().map(Cow::Borrowed));
            let params = vec![text(&t.id), Param::Int(*n), text(seat), text(command), id];
            self.push(INSERT_COMMAND, params);
        }
        let log = t.log.iter().map(|(pos, e, h)| (*pos, text(e), text(h)));
        self.log(&t.id, log);
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn sql(write: &Write) -> Vec<&'static str> {
        write.statements().iter().map(|s| s.sql).collect()
    }

    #[test]
    fn an_append_inserts_its_log_rows_first_in_one_statement() {
        let write = Write::Append {
            table_id: "t".into(),
            log: (4..7)
                .map(|pos| (pos, json!({"pos": pos}), [0; 32]))
                .collect(),
            command: Some(StoredCommand {
                n: 2,
                seat: "p1".into(),
                command: json!({}),
                id: None,
            }),
            links: vec![LinkChange::Remove("k".into())],
        };
        let statements = write.statements();
        assert_eq!(
            statements[0].sql,
            "INSERT INTO log (table_id, pos, entry, hash) VALUES ($1, $2, $3, $4), ($1, $5, $6, $7), ($1, $8, $9, $10)"
        );
        assert_eq!(statements[0].params.len(), 10);
        assert_eq!(statements[0].params[4], Param::Int(5));
        // A change of links takes the targets of keys that no longer work with it.
        assert_eq!(
            sql(&write)[1..],
            [INSERT_COMMAND, REMOVE_LINK, side::PRUNE_TARGETS]
        );
        assert_eq!(write.announces(), Some("t"));
    }

    #[test]
    fn a_long_log_is_inserted_in_statements_of_at_most_sixty_four_rows() {
        let write = Write::CreateTable {
            id: "t".into(),
            ruleset: "r".into(),
            title: "t".into(),
            setup: json!({}),
            secret: vec![1],
            links: Vec::new(),
            log: (0..150).map(|pos| (pos, json!({}), [0; 32])).collect(),
        };
        let rows: Vec<usize> = write.statements()[1..]
            .iter()
            .map(|s| (s.params.len() - 1) / 3)
            .collect();
        assert_eq!(rows, [64, 64, 22]);
        assert_eq!(sql(&write)[0], INSERT_TABLE);
        assert_eq!(write.announces(), None);
    }
}
