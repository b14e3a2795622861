//! The Clash table server.
//!
//! A table plays one game of any ruleset in the catalogue, driven through
//! [`clash_core::AnyGame`]: the server knows no rules. Its pieces:
//!
//! * [`store`]: the SQLite file (versioned migrations). The table log is the source of truth; a
//!   command is acknowledged only once it and its events are committed, and every table is
//!   rebuilt on start from its log.
//! * [`log`]: the table log, whose entries are commands, game events and table events (seat
//!   changes, client seeds, the end of the table), each hash-chained to the one before.
//! * [`tables`]: tables in memory, one lock each, so commands to a table are serialized while
//!   different tables never wait for each other. Who a key is and what it may see is decided
//!   under that lock on every request and every push. Chance is verifiable: command `n` draws
//!   from `clash_core::DerivedRandomness` keyed by the table's server secret (committed to at
//!   creation, revealed when the table ends) and the client seeds the pages contribute.
//! * [`export`]: a table's record, and `clash verify`'s check of it.
//! * [`links`]: unguessable keys (128 bits) for the owner (the GM), each seat (handed out as an
//!   invite that the player's first visit exchanges for a key only they hold), and spectators.
//! * [`api`]: the JSON API (documented at `/api/openapi.json`) and the live stream (SSE), where
//!   every viewer receives its own redacted view and events after each change.
//! * [`pages`]: the web UI, server-rendered HTML with a little vanilla JavaScript.
//! * [`odds`]: odds in play, switched on per table by the GM, from each seat's own view.
//! * [`room`]: the table around the game for each viewer (whose move, who is here), from the
//!   ruleset's status and seat names; [`presence`]: who has the table open; [`chat`]: table
//!   talk and whispers to the GM; [`undo`]: the GM takes back the last command, as a table
//!   event; [`manage`]: rename, archive, delete; [`rules`]: each game's rules and charts;
//!   [`forms`]: tables made by form and the players' own characters in session zero.
//!
//! See `docs/server.md` for running it and the API summary, `docs/security.md` for what it
//! protects against whom.

pub mod api;
pub mod chat;
pub mod error;
pub mod export;
pub mod forms;
pub mod labels;
pub mod links;
pub mod log;
pub mod manage;
pub mod odds;
pub mod pages;
pub mod presence;
pub mod room;
pub mod rules;
pub mod setups;
pub mod store;
pub mod tables;
pub mod undo;

use std::net::SocketAddr;
use std::path::Path;
use std::sync::Arc;

use clash_core::RulesetEntry;

pub use error::ApiError;
pub use tables::Tables;

/// Open (or create) the database at `path` and restore every table in it.
pub fn open(path: &Path, catalogue: Vec<RulesetEntry>) -> Result<Arc<Tables>, store::StoreError> {
    let (store, stored) = store::Store::open(path)?;
    Ok(Arc::new(Tables::restore(store, catalogue, stored)))
}

/// The whole HTTP application for these tables.
pub fn app(tables: Arc<Tables>) -> axum::Router {
    api::router(tables.clone())
        .merge(odds::router(tables.clone()))
        .merge(chat::router(tables.clone()))
        .merge(undo::router(tables.clone()))
        .merge(manage::router(tables.clone()))
        .merge(forms::router(tables.clone()))
        .merge(rules::router(tables))
}

/// A boxed error for the top level.
pub type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// Serve the catalogue's rulesets at `addr` with the database at `db` until Ctrl-C or SIGTERM.
///
/// Prints the address to open once the socket is listening.
pub async fn serve(addr: SocketAddr, db: &Path) -> Result<(), BoxError> {
    serve_rulesets(addr, db, clash_catalogue::rulesets()).await
}

/// A line for whoever reads standard output; a closed pipe (`clash serve | head -1`) must not
/// stop the server, so a failed write is ignored (`println!` would panic).
fn say(line: std::fmt::Arguments) {
    use std::io::Write;
    let _ = writeln!(std::io::stdout().lock(), "{line}");
}

/// [`serve`] with a chosen list of rulesets (tests and benchmarks add their own).
pub async fn serve_rulesets(
    addr: SocketAddr,
    db: &Path,
    catalogue: Vec<RulesetEntry>,
) -> Result<(), BoxError> {
    let tables = open(db, catalogue)?;
    let restored = tables.count();
    let listener = listen(addr)?;
    let local = listener.local_addr()?;
    say(format_args!(
        "Clash is serving {} table(s) from {}\nOpen http://{local}/ in a browser to create a table.",
        restored,
        db.display()
    ));
    let closing = tables.clone();
    // Live updates are small writes: send each at once instead of letting Nagle hold it back.
    let listener = axum::serve::ListenerExt::tap_io(listener, |tcp| {
        let _ = tcp.set_nodelay(true);
    });
    axum::serve(listener, app(tables))
        .with_graceful_shutdown(async move {
            stop_signal().await;
            say(format_args!(
                "Stopping: every acknowledged command is already in the database."
            ));
            // Live streams never end by themselves; end them so the shutdown can finish.
            closing.close();
        })
        .await?;
    Ok(())
}

/// A listening socket with a deep accept queue, so a crowd of players connecting at once is
/// queued rather than refused.
fn listen(addr: SocketAddr) -> std::io::Result<tokio::net::TcpListener> {
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

/// [`serve`] on a fresh multi-threaded runtime, for callers without one (the CLI).
pub fn serve_blocking(addr: SocketAddr, db: &Path) -> Result<(), BoxError> {
    serve_blocking_rulesets(addr, db, clash_catalogue::rulesets())
}

/// [`serve_rulesets`] on a fresh multi-threaded runtime.
pub fn serve_blocking_rulesets(
    addr: SocketAddr,
    db: &Path,
    catalogue: Vec<RulesetEntry>,
) -> Result<(), BoxError> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?
        .block_on(serve_rulesets(addr, db, catalogue))
}
