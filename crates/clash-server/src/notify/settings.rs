//! How the host lets the server notify: its public address, its SMTP relay and the pace of
//! deliveries. Read with the rest of the server's configuration ([`crate::config`]).

use std::time::Duration;

/// The host's SMTP relay.
#[derive(Debug, Clone)]
pub struct Smtp {
    /// `smtps://user:password@host:465`, `smtp://host:587?tls=required`, or `smtp://host:25`.
    pub url: String,
    /// The sender's address.
    pub from: String,
}

/// How the host lets the server notify.
#[derive(Debug, Clone)]
pub struct Settings {
    /// The server's public address (`https://clash.example.org`), for the links in messages.
    pub public_url: Option<String>,
    /// Webhooks may reach loopback and private addresses, and use `http` (a LAN host).
    pub allow_private: bool,
    pub smtp: Option<Smtp>,
    /// How long the first event waits for others to go with it.
    pub gather: Duration,
    /// The least time between two messages to one target.
    pub throttle: Duration,
    /// The first retry's wait; each next one waits twice as long.
    pub retry_base: Duration,
    /// Retries after a first failed attempt.
    pub retries: u32,
    /// The longest a webhook request or a mail may take.
    pub timeout: Duration,
    /// How often due reminders and clocks are looked for.
    pub tick: Duration,
    /// Messages one email address receives from this server in a day at most, across all
    /// tables (see [`super::consent`]).
    pub mail_per_day: usize,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            public_url: None,
            allow_private: false,
            smtp: None,
            gather: Duration::from_secs(5),
            throttle: Duration::from_secs(60),
            retry_base: Duration::from_secs(5),
            retries: 4,
            timeout: Duration::from_secs(10),
            tick: Duration::from_secs(15),
            mail_per_day: 20,
        }
    }
}
