//! `clash serve`: run the table server (see docs/server.md).

use std::net::SocketAddr;
use std::process::ExitCode;

use clash_server::config::Origin;
use clash_server::store::Db;
use clash_server::{LogFormat, Options};

/// The limits an operator is most likely to change; the rest keep their defaults
/// (docs/server.md lists them all).
#[derive(clap::Args)]
pub struct LimitArgs {
    /// Log lines as text or as one JSON object per line.
    #[arg(long, env = "CLASH_LOG_FORMAT", value_enum, default_value = "text")]
    log_format: Format,
    /// Open connections allowed from one client address (behind a reverse proxy every client
    /// shares its address: raise this, or limit at the proxy).
    #[arg(long, env = "CLASH_CONNECTIONS_PER_ADDRESS")]
    connections_per_address: Option<usize>,
    /// Tables one client address may create per minute, after a first burst.
    #[arg(long, env = "CLASH_CREATES_PER_MINUTE")]
    creates_per_minute: Option<u32>,
    /// Tables one client address may create at once before the per-minute rate applies.
    #[arg(long, env = "CLASH_CREATE_BURST")]
    create_burst: Option<u32>,
    /// Seconds an unused table stays in memory before it is read back from its log on demand.
    #[arg(long, env = "CLASH_IDLE_UNLOAD_SECONDS")]
    idle_unload_seconds: Option<u64>,
    /// Milliseconds a seated bot takes at least before it acts, thinking included (default 1200).
    #[arg(long, env = "CLASH_BOT_PAUSE_MS", value_parser = clap::value_parser!(u64).range(0..=60_000))]
    bot_pause_ms: Option<u64>,
    /// Milliseconds a seated bot may think about one command (default 2000); past that (and
    /// half a second's grace) it sends a casual move instead.
    #[arg(long, env = "CLASH_BOT_THINK_MS", value_parser = clap::value_parser!(u64).range(1..=60_000))]
    bot_think_ms: Option<u64>,
    /// The address people open the server at (https://clash.example.org), when a proxy in
    /// front passes the server another Host: pages' changes must come from it.
    #[arg(long, env = "CLASH_PUBLIC_URL", value_parser = Origin::parse)]
    public_url: Option<Origin>,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum Format {
    Text,
    Json,
}

pub fn serve(addr: SocketAddr, db: &str, args: LimitArgs) -> ExitCode {
    let mut options = Options::new(addr, Db::parse(db));
    options.log = match args.log_format {
        Format::Text => LogFormat::Text,
        Format::Json => LogFormat::Json,
    };
    let limits = &mut options.limits;
    if let Some(n) = args.connections_per_address {
        limits.connections_per_address = n;
    }
    if let Some(n) = args.creates_per_minute {
        limits.creates_per_minute = n;
    }
    if let Some(n) = args.create_burst {
        limits.create_burst = n;
    }
    if let Some(s) = args.idle_unload_seconds {
        limits.idle_unload = std::time::Duration::from_secs(s);
    }
    if let Some(ms) = args.bot_pause_ms {
        limits.bot_pause = std::time::Duration::from_millis(ms);
    }
    if let Some(ms) = args.bot_think_ms {
        limits.bot_think = std::time::Duration::from_millis(ms);
    }
    limits.public_origin = args.public_url;
    match clash_server::serve_blocking_with(options, clash_catalogue::rulesets()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("clash serve: {e}");
            ExitCode::FAILURE
        }
    }
}
