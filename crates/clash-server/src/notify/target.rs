//! Where a key wants to hear of its table: a webhook (Discord, Slack, or generic JSON signed
//! with HMAC-SHA256), an email address (where the host has an SMTP relay), the GM's table
//! channel, or a player's handle there. Each is checked when it is set, so a bad one is refused
//! at once with a reason rather than failing quietly later; stored beside the table (see
//! [`crate::store::side`]), and gone with the key that set it.

use std::str::FromStr;

use serde::Serialize;

use super::guard;
use super::settings::Settings;
use crate::error::TableError;
use crate::store::notify::{StoredTarget, TargetRow};
use crate::table::links::new_key;

/// Personal targets one key may have (its handle aside).
pub const PER_KEY: usize = 3;
/// The longest webhook URL or email address.
const ADDRESS_LIMIT: usize = 500;
/// The longest handle.
pub const HANDLE_LIMIT: usize = 64;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// A key's own webhook.
    Webhook,
    /// A key's own email address.
    Email,
    /// The GM's channel for the whole table: it mentions players by their handles and never
    /// carries what one seat alone may see.
    Channel,
    /// How the table channel mentions this key's player.
    Handle,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum Format {
    Discord,
    Slack,
    /// `{"table", "title", "seat", "events", "link", "sent_at"}`, signed (see docs/server.md).
    Json,
    Email,
    Handle,
}

impl Kind {
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Webhook => "webhook",
            Kind::Email => "email",
            Kind::Channel => "channel",
            Kind::Handle => "handle",
        }
    }
}

impl FromStr for Kind {
    type Err = TableError;
    fn from_str(s: &str) -> Result<Kind, TableError> {
        [Kind::Webhook, Kind::Email, Kind::Channel, Kind::Handle]
            .into_iter()
            .find(|k| k.as_str() == s)
            .ok_or_else(|| TableError::malformed("a target's kind is webhook, email or channel"))
    }
}

impl Format {
    pub fn as_str(self) -> &'static str {
        match self {
            Format::Discord => "discord",
            Format::Slack => "slack",
            Format::Json => "json",
            Format::Email => "email",
            Format::Handle => "handle",
        }
    }
}

impl FromStr for Format {
    type Err = TableError;
    fn from_str(s: &str) -> Result<Format, TableError> {
        [
            Format::Discord,
            Format::Slack,
            Format::Json,
            Format::Email,
            Format::Handle,
        ]
        .into_iter()
        .find(|f| f.as_str() == s)
        .ok_or_else(|| TableError::malformed("a webhook's format is discord, slack or json"))
    }
}

/// One stored target and how delivering to it goes.
#[derive(Debug, Clone, PartialEq)]
pub struct Target {
    pub id: String,
    /// The key that set it (the GM's, for the channel).
    pub key: String,
    pub kind: Kind,
    pub format: Format,
    /// The webhook URL, the email address or the handle.
    pub address: String,
    /// The HMAC key of a JSON webhook (hex); empty otherwise.
    pub secret: String,
    pub failures: i64,
    pub last_error: Option<String>,
    pub last_error_at: Option<i64>,
    pub last_ok_at: Option<i64>,
}

/// The URL of a webhook as given, checked: `https` (or `http` on a LAN host), a host name or
/// address the server may send to, no user name or password in it.
pub async fn check_webhook(text: &str, settings: &Settings) -> Result<reqwest::Url, TableError> {
    let bad = |why: String| TableError::malformed(format!("this webhook cannot be used: {why}"));
    if text.len() > ADDRESS_LIMIT {
        return Err(bad(format!("a URL is at most {ADDRESS_LIMIT} characters")));
    }
    let url =
        reqwest::Url::parse(text.trim()).map_err(|e| bad(format!("it is not a URL ({e})")))?;
    match (url.scheme(), settings.allow_private) {
        ("https", _) | ("http", true) => {}
        ("http", false) => return Err(bad("only https URLs are allowed".into())),
        (other, _) => return Err(bad(format!("{other}: URLs are not webhooks"))),
    }
    if !url.username().is_empty() || url.password().is_some() {
        return Err(bad(
            "a URL with a user name or password is not allowed".into()
        ));
    }
    let host = url.host_str().ok_or_else(|| bad("it has no host".into()))?;
    let port = url.port_or_known_default().unwrap_or(443);
    guard::resolve(host, port, settings.allow_private)
        .await
        .map_err(bad)?;
    Ok(url)
}

/// An email address as given, checked (only where the host has an SMTP relay).
pub fn check_email(text: &str, settings: &Settings) -> Result<String, TableError> {
    if settings.smtp.is_none() || settings.public_url.is_none() {
        return Err(TableError::malformed(
            "this server sends no email (its host has not set up an SMTP relay and its public address, which every message links to); use a webhook",
        ));
    }
    let text = text.trim();
    if text.len() > 254 {
        return Err(TableError::malformed(
            "an email address is at most 254 characters",
        ));
    }
    lettre::Address::from_str(text)
        .map_err(|e| TableError::malformed(format!("this is not an email address: {e}")))?;
    Ok(text.to_string())
}

/// A handle as given: what the table channel writes to mention the player (`<@123456>` on
/// Discord, `<@U0123>` on Slack, or a plain `@name`). Mentions of everyone or of a role are
/// refused: a handle pings one person.
pub fn check_handle(text: &str) -> Result<String, TableError> {
    let text = text.trim();
    let allowed = |c: char| c.is_alphanumeric() || "<>@!#:_.-".contains(c);
    let lower = text.to_lowercase();
    if text.is_empty() || text.chars().count() > HANDLE_LIMIT || !text.chars().all(allowed) {
        return Err(TableError::malformed(format!(
            "a handle is 1 to {HANDLE_LIMIT} letters, digits or <>@!#:_.- (such as <@123456> or @ada)"
        )));
    }
    if lower.contains("everyone") || lower.contains("here") || text.contains("<!") {
        return Err(TableError::malformed(
            "a handle mentions one person, not everyone",
        ));
    }
    Ok(text.to_string())
}

/// A fresh signing key for a JSON webhook (hex).
pub fn new_signing_key() -> String {
    new_key()
}

/// A target read back (one that no longer parses is skipped).
pub fn read(row: StoredTarget) -> Option<Target> {
    Some(Target {
        kind: row.kind.parse().ok()?,
        format: row.format.parse().ok()?,
        id: row.id,
        key: row.key,
        address: row.address,
        secret: row.secret,
        failures: row.failures,
        last_error: row.last_error,
        last_error_at: row.last_error_at,
        last_ok_at: row.last_ok_at,
    })
}

impl Target {
    /// The target as the store keeps a new one.
    pub fn row(&self) -> TargetRow {
        TargetRow {
            id: self.id.clone(),
            key: self.key.clone(),
            kind: self.kind.as_str(),
            format: self.format.as_str(),
            address: self.address.clone(),
            secret: self.secret.clone(),
        }
    }
}

/// A fresh target's id.
pub fn new_id() -> String {
    new_key()[..12].to_string()
}
