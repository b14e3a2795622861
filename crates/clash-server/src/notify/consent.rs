//! Email only to people who asked for it, across every table of this server.
//!
//! * **Double opt-in.** An address a key adds receives one message asking its owner to confirm,
//!   and nothing else until they follow its link (a page with a button: a link scanner that
//!   opens the link confirms nothing). A confirmation not followed is sent again at most once in
//!   [`RENEW`].
//! * **Unsubscribing** stops all mail to the address from this server, whatever table asked for
//!   it: every message carries a one-click link (`List-Unsubscribe` and
//!   `List-Unsubscribe-Post`, RFC 8058). An address that unsubscribed receives nothing, not even a
//!   confirmation, unless its owner asks again from the same link.
//! * **A cap per address per day** ([`super::Settings::mail_per_day`]), across all tables,
//!   confirmations included.
//!
//! Each address has one token, sent only to it, in its confirmation and unsubscribe links.

use std::time::Duration;

use crate::links::new_key;
use crate::store::side::{Arg, Cell, Query};
use crate::store::{Store, StoreError, Write};

/// How long an unanswered confirmation waits before another may be sent.
pub const RENEW: Duration = Duration::from_secs(30 * 24 * 3600);

/// Where an address stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Consent {
    /// Its owner confirmed it: mail may go there.
    Confirmed { token: String },
    /// A confirmation was asked for and not followed yet.
    Waiting,
    /// A confirmation is to be sent now (this caller claimed it), with this token.
    Ask { token: String },
    /// Its owner asked for no more mail from this server.
    Refused,
}

/// An address as consent is kept for it: the same whatever its letters' case.
pub fn normal(address: &str) -> String {
    address.trim().to_lowercase()
}

async fn row(store: &Store, address: &str) -> Result<Option<(String, String, i64)>, StoreError> {
    const SQL: &str = "SELECT state, token, asked_at FROM mail_consent WHERE address = $1";
    let rows = store
        .select(Query::new(SQL, vec![Arg::Text(address.into())]))
        .await?;
    Ok(rows.first().map(|r| {
        let text = |i: usize| r.get(i).map(Cell::text).unwrap_or_default();
        (text(0), text(1), r.get(2).and_then(Cell::int).unwrap_or(0))
    }))
}

async fn write(store: &Store, statements: Vec<Query>) -> Result<(), StoreError> {
    let write = Write::Side {
        table_id: String::new(),
        statements,
    };
    store.write(write).await
}

/// Where `address` stands, `now` (ms since the epoch); a confirmation due is claimed for the
/// caller to send ([`Consent::Ask`]).
pub async fn ask(store: &Store, address: &str, now: i64) -> Result<Consent, StoreError> {
    let address = normal(address);
    const NEW: &str = "INSERT INTO mail_consent (address, state, token, asked_at) VALUES ($1, 'asked', $2, $3) ON CONFLICT (address) DO NOTHING";
    let fresh = new_key();
    let args = vec![
        Arg::Text(address.clone()),
        Arg::Text(fresh.clone()),
        Arg::Int(now),
    ];
    write(store, vec![Query::new(NEW, args)]).await?;
    let Some((state, token, asked_at)) = row(store, &address).await? else {
        return Ok(Consent::Waiting);
    };
    match state.as_str() {
        "confirmed" => Ok(Consent::Confirmed { token }),
        "unsubscribed" => Ok(Consent::Refused),
        // Just made by this caller: its confirmation is this caller's to send.
        _ if token == fresh => Ok(Consent::Ask { token }),
        _ if now - asked_at >= RENEW.as_millis() as i64 => {
            const AGAIN: &str = "UPDATE mail_consent SET asked_at = $1 WHERE address = $2";
            let args = vec![Arg::Int(now), Arg::Text(address)];
            write(store, vec![Query::new(AGAIN, args)]).await?;
            Ok(Consent::Ask { token })
        }
        _ => Ok(Consent::Waiting),
    }
}

/// A confirmation could not be sent: the next request may send one at once.
pub async fn unsent(store: &Store, address: &str) -> Result<(), StoreError> {
    const SQL: &str = "UPDATE mail_consent SET asked_at = 0 WHERE address = $1 AND state = 'asked'";
    write(
        store,
        vec![Query::new(SQL, vec![Arg::Text(normal(address))])],
    )
    .await
}

/// What a link's token does to its address.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Answer {
    Confirm,
    Unsubscribe,
}

/// Answer for the address whose token is `token`: its address, or `None` for an unknown token.
pub async fn answer(
    store: &Store,
    token: &str,
    answer: Answer,
    now: i64,
) -> Result<Option<String>, StoreError> {
    const SQL: &str = "SELECT address FROM mail_consent WHERE token = $1";
    let rows = store
        .select(Query::new(SQL, vec![Arg::Text(token.into())]))
        .await?;
    let Some(address) = rows.first().and_then(|r| r.first()).map(Cell::text) else {
        return Ok(None);
    };
    let state = match answer {
        Answer::Confirm => "confirmed",
        Answer::Unsubscribe => "unsubscribed",
    };
    const SET: &str = "UPDATE mail_consent SET state = $1, answered_at = $2 WHERE token = $3";
    let args = vec![
        Arg::Text(state.into()),
        Arg::Int(now),
        Arg::Text(token.into()),
    ];
    write(store, vec![Query::new(SET, args)]).await?;
    Ok(Some(address))
}

/// The address a token stands for, and whether mail goes there now.
pub async fn lookup(store: &Store, token: &str) -> Result<Option<(String, bool)>, StoreError> {
    const SQL: &str = "SELECT address, state FROM mail_consent WHERE token = $1";
    let rows = store
        .select(Query::new(SQL, vec![Arg::Text(token.into())]))
        .await?;
    Ok(rows.first().map(|r| {
        let text = |i: usize| r.get(i).map(Cell::text).unwrap_or_default();
        (text(0), text(1) == "confirmed")
    }))
}

/// Count one more message to `address` today; false when it has had `per_day` already (the
/// message is then not sent). Days are UTC days since the epoch.
pub async fn count(
    store: &Store,
    address: &str,
    now: i64,
    per_day: usize,
) -> Result<bool, StoreError> {
    let address = normal(address);
    let day = now / 86_400_000;
    const UP: &str = "INSERT INTO mail_sent (address, day, count) VALUES ($1, $2, 1) ON CONFLICT (address, day) DO UPDATE SET count = mail_sent.count + 1";
    const OLD: &str = "DELETE FROM mail_sent WHERE address = $1 AND day < $2";
    let statements = vec![
        Query::new(UP, vec![Arg::Text(address.clone()), Arg::Int(day)]),
        Query::new(OLD, vec![Arg::Text(address.clone()), Arg::Int(day - 7)]),
    ];
    write(store, statements).await?;
    const SQL: &str = "SELECT count FROM mail_sent WHERE address = $1 AND day = $2";
    let rows = store
        .select(Query::new(SQL, vec![Arg::Text(address), Arg::Int(day)]))
        .await?;
    let sent = rows.first().and_then(|r| r.first()).and_then(Cell::int);
    Ok(sent.unwrap_or(0) as usize <= per_day)
}

/// Whether mail goes to `address` now (`None`: nobody asked for it yet).
pub async fn lookup_address(store: &Store, address: &str) -> Result<Option<bool>, StoreError> {
    const SQL: &str = "SELECT state FROM mail_consent WHERE address = $1";
    let rows = store
        .select(Query::new(SQL, vec![Arg::Text(normal(address))]))
        .await?;
    Ok(rows
        .first()
        .and_then(|r| r.first())
        .map(|c| c.text() == "confirmed"))
}
