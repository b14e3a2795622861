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

use crate::store::consent as rows;
use crate::store::{Store, StoreError};
use crate::table::links::new_key;

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

/// Where `address` stands, `now` (ms since the epoch); a confirmation due is claimed for the
/// caller to send ([`Consent::Ask`]).
pub async fn ask(store: &Store, address: &str, now: i64) -> Result<Consent, StoreError> {
    let address = normal(address);
    let fresh = new_key();
    rows::open(store, &address, &fresh, now).await?;
    let Some(row) = rows::by_address(store, &address).await? else {
        return Ok(Consent::Waiting);
    };
    let token = row.token;
    match row.state.as_str() {
        "confirmed" => Ok(Consent::Confirmed { token }),
        "unsubscribed" => Ok(Consent::Refused),
        // Just made by this caller: its confirmation is this caller's to send.
        _ if token == fresh => Ok(Consent::Ask { token }),
        _ if now - row.asked_at >= RENEW.as_millis() as i64 => {
            rows::asked(store, &address, Some(now)).await?;
            Ok(Consent::Ask { token })
        }
        _ => Ok(Consent::Waiting),
    }
}

/// A confirmation could not be sent: the next request may send one at once.
pub async fn unsent(store: &Store, address: &str) -> Result<(), StoreError> {
    rows::asked(store, &normal(address), None).await
}

/// What a link's token does to its address.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Choice {
    Confirm,
    Unsubscribe,
}

/// Answer for the address whose token is `token`: its address, or `None` for an unknown token.
pub async fn answer(
    store: &Store,
    token: &str,
    answer: Choice,
    now: i64,
) -> Result<Option<String>, StoreError> {
    let Some(row) = rows::by_token(store, token).await? else {
        return Ok(None);
    };
    let state = match answer {
        Choice::Confirm => "confirmed",
        Choice::Unsubscribe => "unsubscribed",
    };
    rows::answer(store, token, state, now).await?;
    Ok(Some(row.address))
}

/// The address a token stands for, and whether mail goes there now.
pub async fn lookup(store: &Store, token: &str) -> Result<Option<(String, bool)>, StoreError> {
    let row = rows::by_token(store, token).await?;
    Ok(row.map(|r| (r.address, r.state == "confirmed")))
}

/// Count one more message to `address` today; false when it has had `per_day` already (the
/// message is then not sent). Days are UTC days since the epoch.
pub async fn count(
    store: &Store,
    address: &str,
    now: i64,
    per_day: usize,
) -> Result<bool, StoreError> {
    let sent = rows::count_sent(store, &normal(address), now / 86_400_000).await?;
    Ok(sent as usize <= per_day)
}

/// Whether mail goes to `address` now (`None`: nobody asked for it yet).
pub async fn lookup_address(store: &Store, address: &str) -> Result<Option<bool>, StoreError> {
    let row = rows::by_address(store, &normal(address)).await?;
    Ok(row.map(|r| r.state == "confirmed"))
}
