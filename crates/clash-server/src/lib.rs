//! The Clash table server.
//!
//! A table plays one game of any ruleset in the catalogue, driven through
//! [`clash_core::AnyGame`]: the server knows no rules. Its pieces:
//!
//! The source folders follow what they hold:
//!
//! * [`server`]: one running server, the HTTP layer's state: the registry of tables
//!   ([`tables`]: loaded on demand, unloaded when idle) and the services that work on them.
//! * [`table`]: one table behind its lock, so commands to a table are serialized while
//!   different tables never wait for each other; what the lock guards ([`table::play`]), who a
//!   key is ([`table::seats`], [`table::access`], [`table::links`]: unguessable 128-bit keys
//!   for the GM, each seat — handed out as an invite the player's first visit exchanges for a
//!   key only they hold — and spectators), who is here ([`table::presence`]), talk
//!   ([`table::chat`]), when the GM may take back a command ([`table::undo`]), how much the
//!   log may hold and how fast it may grow ([`table::caps`]), and that a revealed record is final
//!   ([`table::keeping`]). Chance is verifiable: command `n` draws from
//!   `clash_core::DerivedRandomness` keyed by the table's server secret (committed to at
//!   creation, revealed when the table ends) and the client seeds the pages contribute.
//! * [`ops`]: the closed set of table operations (a command, talk, an invite, a takeover, a bot
//!   seated, an undo, the end, …), each deciding what it changes from the table and the actor;
//!   [`executor`]: the one place they all run through — the table's lock, the key resolved to
//!   an actor, ended and archived tables, retries and stale views, the secret guard on every
//!   change of a seat's holder, the commit (decided again after a race lost to another node),
//!   and waking the streams. Refusals are [`TableError`]s.
//! * [`log`]: the table log, whose entries are commands, game events and table events (seat
//!   changes, client seeds, talk, undo, the end of the table), each hash-chained to the one before.
//! * [`store`]: storage behind one interface ([`store::Storage`]) with two backends and the
//!   same versioned migrations: the SQLite file (the default) and PostgreSQL, which any number
//!   of nodes share (each table's log stays one gap-free order across them; other nodes' changes
//!   arrive as news and are caught up from the log). The table log is the source of truth; a
//!   command is acknowledged only once it and its events are committed. Nothing is read at
//!   start: a table is read back from its log when it is first asked for.
//! * [`view`]: what each viewer sees: the table after each change ([`view::snapshot`]), from
//!   which every viewer's picture is computed outside the lock, once per revision and viewer
//!   ([`view::frames`]: the picture's text and the JSON Patch from the last one a stream got);
//!   the table around the game for each viewer ([`view::room`]: whose move, who is here); the
//!   live stream ([`view::stream`]); readable command labels ([`view::labels`]).
//! * [`http`]: the JSON API with typed bodies, its OpenAPI document generated from the same
//!   annotations that route it (`/api/openapi.json`), read through typed extractors
//!   ([`http::extract`]); every HTTP refusal is an [`ApiError`], whose status and code come
//!   from one catalogue ([`error::Refusal`]). Every path the server answers is one of
//!   [`http::routes`]; each operation's contract ([`http::contract`]: whose key, which
//!   refusals) finishes its part of the document. The front door is there too:
//!   [`http::net`] (connections within caps per address and in total, with header, idle and
//!   stall timeouts), [`http::rate`] (the table-creation rate limit) and [`http::layers`]
//!   (request ids, logs, [`metrics`] and security headers on every answer); [`config`]: the
//!   limits.
//! * [`pages`]: the web UI, server-rendered HTML with a little JavaScript; [`pages::embed`]: the
//!   one way start-up data goes into a page. [`rules`]: each game's rules and charts;
//!   [`http::forms`]: tables made by form and the players' own characters in session zero.
//! * [`export`]: a table's record, and `clash verify`'s check of it (see docs/verification.md);
//!   [`review`]: once a table has ended, its replay and its review (queued work, like bots').
//! * [`workbench`]: the designer's workbench: studies of a game's rule variants, queued off
//!   the play path and kept for sharing.
//! * [`notify`]: notifications to where people already are (webhooks, email, a table channel),
//!   reminders and clocks, so a table can be played across a week.
//! * [`bots`]: the runner that plays the seats the GM gave to bots, from each seat's own view,
//!   off the request path, like any other client; [`work`]: the rules' work off the request
//!   threads.
//!
//! See `docs/server.md` for running it and the API summary, `docs/security.md` for what it
//! protects against whom.

pub mod bots;
pub mod config;
pub mod error;
pub mod executor;
pub mod export;
pub mod http;
pub mod log;
pub mod metrics;
pub mod notify;
pub mod ops;
pub mod pages;
pub mod review;
pub mod rules;
pub mod server;
pub mod setups;
pub mod store;
pub mod table;
pub mod tables;
pub mod view;
pub mod work;
pub mod workbench;

use std::net::SocketAddr;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use clash_core::RulesetEntry;

pub use config::Limits;
pub use error::{ApiError, TableError};
pub use server::Server;
pub use tables::Tables;

/// Open (or create) the database at `path` with the default limits. No table is read until it
/// is asked for.
pub fn open(path: &Path, catalogue: Vec<RulesetEntry>) -> Result<Arc<Server>, store::StoreError> {
    open_with(path, catalogue, Limits::default())
}

/// [`open`] with chosen limits.
pub fn open_with(
    path: &Path,
    catalogue: Vec<RulesetEntry>,
    limits: Limits,
) -> Result<Arc<Server>, store::StoreError> {
    let store: store::Store = Arc::new(store::SqliteStore::open(path)?);
    Ok(Arc::new(Server::new(store, catalogue, limits)))
}

/// The whole HTTP application for these tables, with a table-creation allowance of its own.
pub fn app(server: Arc<Server>) -> axum::Router {
    let creation = Arc::new(http::rate::CreationLimit::new(server.limits()));
    http::router(server, creation)
}

/// Open the database `db` (a SQLite file or a PostgreSQL URL) with chosen limits, bringing
/// its schema up to date. No table is read until it is asked for.
pub async fn open_db(
    db: &store::Db,
    catalogue: Vec<RulesetEntry>,
    limits: Limits,
) -> Result<Arc<Server>, store::StoreError> {
    let store = db.open().await?;
    Ok(Arc::new(Server::new(store, catalogue, limits)))
}

/// A boxed error for the top level.
pub type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// How the log is written (to standard error).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum LogFormat {
    /// One readable line per event.
    #[default]
    Text,
    /// One JSON object per line, for log collectors.
    Json,
}

/// Start logging to standard error, filtered by `RUST_LOG` (default `info`). Does nothing if
/// logging is already set up.
pub fn init_logging(format: LogFormat) {
    use std::io::IsTerminal;
    use tracing_subscriber::EnvFilter;
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(std::io::stderr().is_terminal())
        .with_writer(std::io::stderr);
    let _ = match format {
        LogFormat::Text => builder.try_init(),
        LogFormat::Json => builder.json().flatten_event(true).try_init(),
    };
}

/// Everything `clash serve` needs to know.
#[derive(Debug, Clone)]
pub struct Options {
    pub addr: SocketAddr,
    pub db: store::Db,
    pub limits: Limits,
    pub log: LogFormat,
}

impl Options {
    pub fn new(addr: SocketAddr, db: impl Into<store::Db>) -> Options {
        Options {
            addr,
            db: db.into(),
            limits: Limits::default(),
            log: LogFormat::default(),
        }
    }
}

/// A line for whoever reads standard output; a closed pipe (`clash serve | head -1`) must not
/// stop the server, so a failed write is ignored (`println!` would panic).
fn say(line: std::fmt::Arguments) {
    use std::io::Write;
    let _ = writeln!(std::io::stdout().lock(), "{line}");
}

/// Serve `catalogue` (the rulesets the caller offers: `clash serve` passes Clash's catalogue, tests
/// and benchmarks their own) as `options` say, until Ctrl-C or SIGTERM. Prints the address to
/// open once the socket is listening.
pub async fn serve_with(options: Options, catalogue: Vec<RulesetEntry>) -> Result<(), BoxError> {
    init_logging(options.log);
    let server = open_db(&options.db, catalogue, options.limits.clone()).await?;
    let stored = server.store().count_tables().await?;
    let listener = listen(options.addr)?;
    let local = listener.local_addr()?;
    say(format_args!(
        "Clash is serving {stored} table(s) from {}\nOpen http://{local}/ in a browser to create a table.",
        server.store().describe()
    ));
    tracing::info!(addr = %local, server = stored, "listening");
    run(listener, server, stop_signal()).await;
    say(format_args!(
        "Stopping: every acknowledged command is already in the database."
    ));
    Ok(())
}

/// Serve `server` on `listener` until `stop` completes: the connection limits and timeouts of
/// [`http::net`], the periodic sweep of idle tables, and a graceful end (open streams are ended, open
/// requests get a few seconds to finish).
pub async fn run(
    listener: tokio::net::TcpListener,
    server: Arc<Server>,
    stop: impl std::future::Future<Output = ()>,
) {
    // Without a public address, messages link to the one `serve_with` prints.
    if let Ok(local) = listener.local_addr() {
        server
            .notifier()
            .outbox()
            .printed(format!("http://{local}"));
    }
    let creation = Arc::new(http::rate::CreationLimit::new(server.limits()));
    let sweeper = tokio::spawn(sweep(server.clone(), creation.clone()));
    // Reminders and clocks that fell due while the server was down fire now.
    server.start_notify();
    // Other nodes' changes reach the tables (and streams) of this one.
    let follower = tokio::spawn(server.tables().clone().follow());
    let closing = server.clone();
    let stop = async move {
        stop.await;
        // Live streams never end by themselves; end them so the shutdown can finish.
        closing.tables().close();
    };
    http::net::serve(
        listener,
        http::router(server.clone(), creation),
        server.limits().clone(),
        server.metrics().clone(),
        stop,
        Duration::from_secs(5),
    )
    .await;
    sweeper.abort();
    follower.abort();
}

/// Every so often: idle tables leave memory, quiet addresses leave the rate limiter.
async fn sweep(server: Arc<Server>, creation: Arc<http::rate::CreationLimit>) {
    let mut every = tokio::time::interval(server.limits().sweep_every);
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        every.tick().await;
        server.tables().sweep();
        creation.forget_idle();
    }
}

/// A listening socket with a deep accept queue, so a crowd of players connecting at once is
/// queued rather than refused.
pub fn listen(addr: SocketAddr) -> std::io::Result<tokio::net::TcpListener> {
    let socket = if addr.is_ipv4() {
        tokio::net::TcpSocket::new_v4()?
    } else {
        tokio::net::TcpSocket::new_v6()?
    };
    socket.set_reuseaddr(true)?;
    socket.bind(addr)?;
    socket.listen(4096)
}

async fn stop_signal() {
    let interrupt = tokio::signal::ctrl_c();
    #[cfg(unix)]
    {
        let mut term =
            match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
                Ok(t) => t,
                Err(_) => {
                    let _ = interrupt.await;
                    return;
                }
            };
        tokio::select! {
            _ = interrupt => {}
            _ = term.recv() => {}
        }
    }
    #[cfg(not(unix))]
    {
        let _ = interrupt.await;
    }
}

/// [`serve_with`] on a fresh multi-threaded runtime.
pub fn serve_blocking_with(options: Options, catalogue: Vec<RulesetEntry>) -> Result<(), BoxError> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?
        .block_on(serve_with(options, catalogue))
}

/// Bring the database's schema up to date (`clash db migrate`); answers its version.
pub fn migrate_blocking(db: &store::Db) -> Result<usize, BoxError> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    Ok(runtime.block_on(db.migrate())?)
}

/// Copy every table `to` lacks from `from` (`clash db copy`): how many were copied, how many
/// were there already.
pub fn copy_blocking(from: &store::Db, to: &store::Db) -> Result<(usize, usize), BoxError> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    Ok(runtime.block_on(async {
        let (from, to) = (from.open().await?, to.open().await?);
        store::copy(&from, &to).await
    })?)
}
