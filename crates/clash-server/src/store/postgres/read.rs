//! Reads on PostgreSQL, each one statement (so one moment of the database and one round trip,
//! on a pooled connection whose prepared statements are kept). Head checks and catch-up reads
//! asked at the same time are answered by one statement for all their tables ([`Heads`],
//! [`Tails`]).

use deadpool_postgres::Pool;
use serde_json::Value;
use tokio_postgres::Row;
use tokio_postgres::types::{ToSql, Type};

use super::batch::{Batch, all_failed};
use crate::log::{Entry, Hash};
use crate::metrics::DATABASE;
use crate::store::side::{Arg, Cell, Query, Row as SideRow};
use crate::store::{StoreError, StoredLink, StoredTable, TableRow, TableRows, Tail, read_entry};

/// Run `sql` on a pooled connection, prepared once per connection.
pub(super) async fn query(
    pool: &Pool,
    sql: &str,
    params: &[&(dyn ToSql + Sync)],
) -> Result<Vec<Row>, StoreError> {
    let client = pool.get().await?;
    let cached = client.statement_cache.size();
    let statement = client.prepare_cached(sql).await?;
    let prepared = client.statement_cache.size() != cached;
    DATABASE.round_trips.inc_by(1 + u64::from(prepared));
    Ok(client.query(&statement, params).await?)
}

/// Table `t`'s links (keys, roles, statuses) and its log from position `{from}` on (entries,
/// hashes): five arrays; then its housekeeping (name, archived), or nulls.
macro_rules! links_and_log {
    ($from:literal) => {
        concat!(
            "ARRAY(SELECT key FROM links WHERE table_id = t.id ORDER BY made),
            ARRAY(SELECT role FROM links WHERE table_id = t.id ORDER BY made),
            ARRAY(SELECT status FROM links WHERE table_id = t.id ORDER BY made),
            ARRAY(SELECT entry FROM log WHERE table_id = t.id AND pos >= ",
            $from,
            " ORDER BY pos),
            ARRAY(SELECT hash FROM log WHERE table_id = t.id AND pos >= ",
            $from,
            " ORDER BY pos),
            (SELECT title FROM table_keeping WHERE table_id = t.id),
            (SELECT archived FROM table_keeping WHERE table_id = t.id)"
        )
    };
}

/// The five arrays of [`links_and_log`] from column `at` on.
fn tail(id: &str, row: &Row, at: usize) -> Result<Tail, StoreError> {
    let (keys, roles, statuses): (Vec<String>, Vec<String>, Vec<String>) =
        (row.get(at), row.get(at + 1), row.get(at + 2));
    let links = keys
        .into_iter()
        .zip(roles)
        .zip(statuses)
        .map(|((key, role), status)| StoredLink::read(key, role, &status))
        .collect::<Result<_, _>>()?;
    let (entries, hashes): (Vec<String>, Vec<String>) = (row.get(at + 3), row.get(at + 4));
    let log = entries
        .iter()
        .zip(&hashes)
        .map(|(entry, hash)| read_entry(id, entry, hash))
        .collect::<Result<Vec<(Entry, Hash)>, _>>()?;
    let archived: Option<i64> = row.get(at + 6);
    let kept = crate::store::Keeping {
        title: row.get(at + 5),
        archived: archived.map(|n| n != 0),
        links: Vec::new(),
    };
    Ok(Tail { links, log, kept })
}

/// The columns of [`TableRow`], in its order, from column 0 on.
fn table_row(row: &Row) -> TableRow {
    TableRow {
        ruleset: row.get(0),
        title: row.get(1),
        setup: row.get(2),
        seed: row.get(3),
        secret: row.get(4),
        chance: row.get(5),
    }
}

const TABLE: &str = concat!(
    "SELECT t.ruleset, t.title, t.setup, t.seed, t.secret, t.chance,
        (SELECT MAX(n) + 1 FROM commands WHERE table_id = t.id), ",
    links_and_log!("0"),
    " FROM tables t WHERE t.id = $1"
);

pub(super) async fn load_table(pool: &Pool, id: &str) -> Result<Option<StoredTable>, StoreError> {
    let rows = query(pool, TABLE, &[&id]).await?;
    let Some(row) = rows.first() else {
        return Ok(None);
    };
    let Tail { links, log, kept } = tail(id, row, 7)?;
    let mut table = table_row(row).into_table(id, links, row.get(6), log)?;
    table.kept = kept;
    Ok(Some(table))
}

const TAILS: &str = concat!(
    "SELECT q.i, ",
    links_and_log!("q.pos"),
    " FROM UNNEST($1::TEXT[], $2::BIGINT[]) WITH ORDINALITY AS q(id, pos, i)
    JOIN tables t ON t.id = q.id"
);

/// What changed in each table of `asks` from its position on (`None`: the table is gone).
pub(super) async fn tails(
    pool: &Pool,
    asks: &[(String, u64)],
) -> Result<Vec<Option<Tail>>, StoreError> {
    let ids: Vec<&str> = asks.iter().map(|(id, _)| id.as_str()).collect();
    let from: Vec<i64> = asks.iter().map(|(_, from)| *from as i64).collect();
    let mut tails: Vec<Option<Tail>> = asks.iter().map(|_| None).collect();
    for row in query(pool, TAILS, &[&ids, &from]).await? {
        let i = row.get::<_, i64>(0) as usize - 1;
        tails[i] = Some(tail(&asks[i].0, &row, 1)?);
    }
    Ok(tails)
}

/// Catch-up reads asked at the same time, read together.
pub(super) struct Tails(pub Pool);

impl Batch for Tails {
    type Ask = (String, u64);
    type Answer = Option<Tail>;
    const MOST: usize = 256;

    async fn run(&mut self, asks: &[(String, u64)]) -> Vec<Result<Option<Tail>, StoreError>> {
        match tails(&self.0, asks).await {
            Ok(tails) => tails.into_iter().map(Ok).collect(),
            Err(e) => all_failed(asks.len(), e),
        }
    }
}

const HEADS: &str = "SELECT q.i, (SELECT COALESCE(MAX(pos) + 1, 0) FROM log WHERE table_id = q.id)
    FROM UNNEST($1::TEXT[]) WITH ORDINALITY AS q(id, i) JOIN tables t ON t.id = q.id";

/// Head checks asked at the same time, read together: the length of each table's log.
pub(super) struct Heads(pub Pool);

impl Batch for Heads {
    type Ask = String;
    type Answer = Option<u64>;
    const MOST: usize = 256;

    async fn run(&mut self, ids: &[String]) -> Vec<Result<Option<u64>, StoreError>> {
        let mut heads = vec![Ok(None); ids.len()];
        match query(&self.0, HEADS, &[&ids]).await {
            Ok(rows) => rows.iter().for_each(|row| {
                heads[row.get::<_, i64>(0) as usize - 1] = Ok(Some(row.get::<_, i64>(1) as u64))
            }),
            Err(e) => return all_failed(ids.len(), e),
        }
        heads
    }
}

const DUMP: &str = "SELECT ruleset, title, setup, seed, secret, chance, created_at,
    ARRAY(SELECT key FROM links WHERE table_id = t.id ORDER BY made),
    ARRAY(SELECT role FROM links WHERE table_id = t.id ORDER BY made),
    ARRAY(SELECT status FROM links WHERE table_id = t.id ORDER BY made),
    ARRAY(SELECT n FROM commands WHERE table_id = t.id ORDER BY n),
    ARRAY(SELECT seat FROM commands WHERE table_id = t.id ORDER BY n),
    ARRAY(SELECT command FROM commands WHERE table_id = t.id ORDER BY n),
    ARRAY(SELECT command_id FROM commands WHERE table_id = t.id ORDER BY n),
    ARRAY(SELECT pos FROM log WHERE table_id = t.id ORDER BY pos),
    ARRAY(SELECT entry FROM log WHERE table_id = t.id ORDER BY pos),
    ARRAY(SELECT hash FROM log WHERE table_id = t.id ORDER BY pos)
    FROM tables t WHERE t.id = $1";

pub(super) async fn dump_table(pool: &Pool, id: &str) -> Result<Option<TableRows>, StoreError> {
    let rows = query(pool, DUMP, &[&id]).await?;
    let Some(r) = rows.first() else {
        return Ok(None);
    };
    let column = |i: usize| -> Vec<String> { r.get(i) };
    let (keys, roles, statuses) = (column(7), column(8), column(9));
    let (n, seats, commands, ids): (Vec<i64>, _, _, Vec<Option<String>>) =
        (r.get(10), column(11), column(12), r.get(13));
    let (positions, entries, hashes): (Vec<i64>, _, _) = (r.get(14), column(15), column(16));
    let commands = n.into_iter().zip(zip3(seats, commands, ids));
    let commands = commands.map(|(n, (seat, command, id))| (n, seat, command, id));
    let (links, log) = (
        zip3(keys, roles, statuses),
        zip3(positions, entries, hashes),
    );
    let created_at = r.get(6);
    Ok(Some(table_row(r).into_rows(
        id,
        created_at,
        links,
        commands.collect(),
        log,
    )))
}

fn zip3<A, B, C>(a: Vec<A>, b: Vec<B>, c: Vec<C>) -> Vec<(A, B, C)> {
    a.into_iter()
        .zip(b)
        .zip(c)
        .map(|((a, b), c)| (a, b, c))
        .collect()
}

/// Every entry of a table's log with its hash, in order.
pub(super) async fn read_log(pool: &Pool, id: &str) -> Result<Vec<(Value, String)>, StoreError> {
    let sql = "SELECT entry, hash FROM log WHERE table_id = $1 ORDER BY pos";
    query(pool, sql, &[&id])
        .await?
        .iter()
        .map(|r| Ok((crate::store::parse_json(r.get(0), "log entry")?, r.get(1))))
        .collect()
}

/// The rows of a side read (see [`crate::store::side`]): text and whole-number columns.
pub(super) async fn select(pool: &Pool, q: &Query) -> Result<Vec<SideRow>, StoreError> {
    let args: Vec<&(dyn ToSql + Sync)> = q
        .args
        .iter()
        .map(|a| match a {
            Arg::Text(t) => t as &(dyn ToSql + Sync),
            Arg::MaybeText(t) => t,
            Arg::Int(n) => n,
            Arg::MaybeInt(n) => n,
        })
        .collect();
    let rows = query(pool, q.sql, &args).await?;
    // A column of another type reads as null rather than failing the read.
    let cell = |row: &Row, i: usize| match *row.columns()[i].type_() {
        Type::INT8 => Cell::Int(row.try_get(i).ok().flatten()),
        Type::INT4 => Cell::Int(
            row.try_get::<_, Option<i32>>(i)
                .ok()
                .flatten()
                .map(i64::from),
        ),
        _ => Cell::Text(row.try_get(i).ok().flatten()),
    };
    Ok(rows
        .iter()
        .map(|row| (0..row.len()).map(|i| cell(row, i)).collect())
        .collect())
}
