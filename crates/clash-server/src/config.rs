//! How much the server lets any one client, key or table have: connections, streams, table
//! creations, time to send a request, and how long an idle table stays in memory; and the
//! address people open it at, when a proxy in front hides it.
//!
//! Every limit has a default that suits a server for a few hundred groups on a small machine;
//! `clash serve` exposes the ones an operator is likely to change (see docs/server.md).

use std::time::Duration;

/// The server's limits and timeouts.
#[derive(Debug, Clone)]
pub struct Limits {
    /// Open connections at once, from everyone. `None`: derived from the open-file limit.
    pub max_connections: Option<usize>,
    /// Open connections at once from one client address (an IPv6 client counts by its /64).
    pub connections_per_address: usize,
    /// A connection must deliver a whole request head within this long of opening, and of its
    /// previous answer: it bounds both a half-sent header and an idle keep-alive connection.
    pub header_timeout: Duration,
    /// The longest a request other than a live stream may take, body included.
    pub request_timeout: Duration,
    /// A connection whose peer takes none of what the server writes for this long is dropped
    /// (a live stream that does not keep up).
    pub stall_timeout: Duration,
    /// The kernel's send buffer per connection (bounds what a peer that does not read holds in
    /// the kernel, outside the server's memory).
    pub send_buffer: usize,
    /// The server's own read and write buffer per connection (at least 8 KiB, hyper's least):
    /// the longest request head, and what is queued for a peer that does not read beyond the
    /// message being written. Small, because every open live stream has one.
    pub connection_buffer: usize,
    /// Largest request body.
    pub body_limit: usize,
    /// Tables one client address may create per minute, after a first burst.
    pub creates_per_minute: u32,
    /// Tables one client address may create at once before the per-minute rate applies.
    pub create_burst: u32,
    /// Live streams open at once for one key (the spectator key counts per table only: it is
    /// shared by every spectator).
    pub streams_per_key: usize,
    /// Live streams open at once for one table.
    pub streams_per_table: usize,
    /// A comment on every quiet live stream this often, so proxies keep it open.
    pub stream_keep_alive: Duration,
    /// A table nobody has used for this long, with no open stream, leaves memory (it is read
    /// back from its log when next used).
    pub idle_unload: Duration,
    /// How often idle tables are looked for.
    pub sweep_every: Duration,
    /// Above this many tables in memory, the least recently used idle ones leave first.
    pub max_loaded: usize,
    /// A seated bot takes at least this long to act, thinking included: a human-like moment,
    /// so people see what happens.
    pub bot_pause: Duration,
    /// The longest a bot may think about one command; a bot still thinking a little after
    /// that is given up on and a casual move is sent instead.
    pub bot_think: Duration,
    /// Notifications, reminders and clocks (see [`crate::notify`]).
    pub notify: crate::notify::settings::Settings,
    /// What one table's log may hold, and how fast it may grow (see [`crate::table::caps`]).
    pub caps: crate::table::caps::Caps,
    /// The most work one table's review may take (see [`crate::review`]).
    pub review_time: Duration,
    /// The origin people open the server at (`--public-url`). Unset, a browser's request that
    /// changes something must come from the origin its own `Host` header names; set, from this
    /// one only (for a proxy in front that passes another `Host`). See [`crate::http::layers`].
    pub public_origin: Option<Origin>,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_connections: None,
            connections_per_address: 256,
            header_timeout: Duration::from_secs(10),
            request_timeout: Duration::from_secs(15),
            stall_timeout: Duration::from_secs(20),
            send_buffer: 128 * 1024,
            connection_buffer: 8 * 1024,
            body_limit: 64 * 1024,
            creates_per_minute: 30,
            create_burst: 20,
            streams_per_key: 16,
            streams_per_table: 256,
            // Short, so a page that went away is noticed soon and presence stays current.
            stream_keep_alive: Duration::from_secs(5),
            idle_unload: Duration::from_secs(300),
            sweep_every: Duration::from_secs(30),
            max_loaded: 5000,
            bot_pause: Duration::from_millis(1200),
            bot_think: clash_core::Budget::TABLE.time,
            notify: crate::notify::settings::Settings::default(),
            caps: crate::table::caps::Caps::default(),
            review_time: Duration::from_secs(90),
            public_origin: None,
        }
    }
}

impl Limits {
    /// The connection cap: the configured one, else what the open-file limit leaves after a
    /// reserve for the database and the server's own files.
    pub fn connection_cap(&self) -> usize {
        self.max_connections
            .unwrap_or_else(|| open_file_limit().saturating_sub(256).max(64))
    }
}

/// The limit on open files, first raised as far as the system allows (a server wants them all).
fn open_file_limit() -> usize {
    use std::sync::OnceLock;
    static LIMIT: OnceLock<usize> = OnceLock::new();
    *LIMIT.get_or_init(|| {
        rlimit::increase_nofile_limit(u64::MAX)
            .map_or(1024, |n| usize::try_from(n).unwrap_or(usize::MAX))
    })
}

/// A web origin as browsers send it in `Origin`: scheme, host and port, the port filled in from
/// the scheme when it is the default one, names in lower case, so equal origins compare equal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Origin {
    scheme: String,
    host: String,
    port: Option<u16>,
}

impl Origin {
    /// Read `scheme://host[:port]` (a trailing `/` allowed, nothing else after it).
    pub fn parse(text: &str) -> Result<Origin, String> {
        let wrong = || format!("{text:?} is not an origin like https://clash.example.org");
        let uri: axum::http::Uri = text.parse().map_err(|_| wrong())?;
        let (Some(scheme), Some(authority)) = (uri.scheme_str(), uri.authority()) else {
            return Err(wrong());
        };
        let bare = uri.path_and_query().is_none_or(|p| p.as_str() == "/");
        if !bare || authority.as_str().contains('@') {
            return Err(wrong());
        }
        let scheme = scheme.to_ascii_lowercase();
        Ok(Origin {
            port: authority.port_u16().or_else(|| default_port(&scheme)),
            host: authority.host().to_ascii_lowercase(),
            scheme,
        })
    }

    /// Whether a `Host` header (`host[:port]`) names this origin's host and port; a `Host`
    /// without a port means this origin's scheme's default one.
    pub fn is_at(&self, host: &str) -> bool {
        let Ok(authority) = host.parse::<axum::http::uri::Authority>() else {
            return false;
        };
        let port = authority.port_u16().or_else(|| default_port(&self.scheme));
        authority.host().eq_ignore_ascii_case(&self.host) && port == self.port
    }
}

/// `scheme://host[:port]`, the port left out when it is the scheme's default: the base of the
/// links notifications carry.
impl std::fmt::Display for Origin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}://{}", self.scheme, self.host)?;
        match self.port {
            Some(port) if Some(port) != default_port(&self.scheme) => write!(f, ":{port}"),
            _ => Ok(()),
        }
    }
}

fn default_port(scheme: &str) -> Option<u16> {
    match scheme {
        "http" => Some(80),
        "https" => Some(443),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn origins_compare_by_scheme_host_and_port() {
        let public = Origin::parse("https://Clash.Example.org/").unwrap();
        assert_eq!(
            Origin::parse("https://clash.example.org:443"),
            Ok(public.clone())
        );
        assert_ne!(
            Origin::parse("http://clash.example.org"),
            Ok(public.clone())
        );
        assert_ne!(
            Origin::parse("https://clash.example.org:8443"),
            Ok(public.clone())
        );
        for bad in [
            "null",
            "clash.example.org",
            "https://a.b/path",
            "https://u@a.b",
            "",
        ] {
            assert!(Origin::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_host_header_is_matched_with_the_origins_default_port() {
        let local = Origin::parse("http://127.0.0.1:8080").unwrap();
        assert!(local.is_at("127.0.0.1:8080"));
        assert!(!local.is_at("127.0.0.1"));
        assert!(!local.is_at("127.0.0.1:8081"));
        let public = Origin::parse("https://clash.example.org").unwrap();
        assert!(public.is_at("CLASH.example.org"));
        assert!(public.is_at("clash.example.org:443"));
        assert!(!public.is_at("clash.example.org:80"));
        assert!(!public.is_at("evil.example"));
        assert!(!public.is_at("not a host"));
    }
}
