//! The mail consent rows (see `crate::notify::consent`), typed: where each address stands
//! (`mail_consent`) and how many messages it had each day (`mail_sent`). Addresses arrive here
//! already in their normal form.

use super::side::{Arg, Cell, Query};
use super::{Store, StoreError, Write};

/// An address's consent as stored.
#[derive(Debug, Clone, PartialEq)]
pub struct ConsentRow {
    pub address: String,
    /// `asked`, `confirmed` or `unsubscribed`.
    pub state: String,
    pub token: String,
    pub asked_at: i64,
}

async fn write(store: &Store, statements: Vec<Query>) -> Result<(), StoreError> {
    let write = Write::Side {
        table_id: String::new(),
        statements,
    };
    store.write(write).await
}

async fn one(store: &Store, sql: &'static str, by: &str) -> Result<Option<ConsentRow>, StoreError> {
    let rows = store
        .select(Query::new(sql, vec![Arg::Text(by.into())]))
        .await?;
    Ok(rows.first().map(|r| {
        let text = |i: usize| r.get(i).map(Cell::text).unwrap_or_default();
        ConsentRow {
            address: text(0),
            state: text(1),
            token: text(2),
            asked_at: r.get(3).and_then(Cell::int).unwrap_or(0),
        }
    }))
}

/// Where `address` stands, if anyone asked for mail to go there.
pub async fn by_address(store: &Store, address: &str) -> Result<Option<ConsentRow>, StoreError> {
    const SQL: &str = "SELECT address, state, token, asked_at FROM mail_consent WHERE address = $1";
    one(store, SQL, address).await
}

/// The address whose link carries `token`.
pub async fn by_token(store: &Store, token: &str) -> Result<Option<ConsentRow>, StoreError> {
    const SQL: &str = "SELECT address, state, token, asked_at FROM mail_consent WHERE token = $1";
    one(store, SQL, token).await
}

/// Ask for `address` with `token`, `now`, unless it is asked for already.
pub async fn open(store: &Store, address: &str, token: &str, now: i64) -> Result<(), StoreError> {
    const NEW: &str = "INSERT INTO mail_consent (address, state, token, asked_at) VALUES ($1, 'asked', $2, $3) ON CONFLICT (address) DO NOTHING";
    let args = vec![
        Arg::Text(address.into()),
        Arg::Text(token.into()),
        Arg::Int(now),
    ];
    write(store, vec![Query::new(NEW, args)]).await
}

/// A confirmation was (`Some(now)`) or could not be (`None`: the next request may send one at
/// once) sent to `address` while it is asked for.
pub async fn asked(store: &Store, address: &str, at: Option<i64>) -> Result<(), StoreError> {
    let query = match at {
        Some(now) => Query::new(
            "UPDATE mail_consent SET asked_at = $1 WHERE address = $2",
            vec![Arg::Int(now), Arg::Text(address.into())],
        ),
        None => Query::new(
            "UPDATE mail_consent SET asked_at = 0 WHERE address = $1 AND state = 'asked'",
            vec![Arg::Text(address.into())],
        ),
    };
    write(store, vec![query]).await
}

/// The owner of the address whose link carries `token` answered: `confirmed` or
/// `unsubscribed`.
pub async fn answer(
    store: &Store,
    token: &str,
    state: &'static str,
    now: i64,
) -> Result<(), StoreError> {
    const SET: &str = "UPDATE mail_consent SET state = $1, answered_at = $2 WHERE token = $3";
    let args = vec![
        Arg::Text(state.into()),
        Arg::Int(now),
        Arg::Text(token.into()),
    ];
    write(store, vec![Query::new(SET, args)]).await
}

/// Count one more message to `address` on `day` (forgetting days a week older): the day's
/// count.
pub async fn count_sent(store: &Store, address: &str, day: i64) -> Result<i64, StoreError> {
    const UP: &str = "INSERT INTO mail_sent (address, day, count) VALUES ($1, $2, 1) ON CONFLICT (address, day) DO UPDATE SET count = mail_sent.count + 1";
    const OLD: &str = "DELETE FROM mail_sent WHERE address = $1 AND day < $2";
    let statements = vec![
        Query::new(UP, vec![Arg::Text(address.into()), Arg::Int(day)]),
        Query::new(OLD, vec![Arg::Text(address.into()), Arg::Int(day - 7)]),
    ];
    write(store, statements).await?;
    const SQL: &str = "SELECT count FROM mail_sent WHERE address = $1 AND day = $2";
    let rows = store
        .select(Query::new(
            SQL,
            vec![Arg::Text(address.into()), Arg::Int(day)],
        ))
        .await?;
    let sent = rows.first().and_then(|r| r.first()).and_then(Cell::int);
    Ok(sent.unwrap_or(0))
}
