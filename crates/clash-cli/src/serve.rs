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
    /// Also offer the example rulesets (games that show how a ruleset plugs in, not games for
    /// an evening): in the lobby, the API and new tables. Without it the server knows nothing
    /// of them. As a variable, CLASH_EXAMPLES=1 (0, false, no, off or empty leave them out).
    #[arg(long, env = "CLASH_EXAMPLES", value_parser = clap::builder::FalseyValueParser::new())]
    examples: bool,
    #[command(flatten)]
    notify: NotifyArgs,
}

/// Notifications (docs/server.md, "Playing across a week").
#[derive(clap::Args)]
pub struct NotifyArgs {
    /// Let webhooks reach loopback and private (LAN) addresses, and use plain http: only for a
    /// server on a trusted LAN.
    #[arg(long, env = "CLASH_NOTIFY_ALLOW_PRIVATE")]
    notify_allow_private: bool,
    /// The SMTP relay that sends email notifications: smtps://user:password@host:465,
    /// smtp://user:password@host:587?tls=required, or smtp://host:25 (no email without it).
    #[arg(long, env = "CLASH_SMTP_URL", requires = "smtp_from")]
    smtp_url: Option<String>,
    /// The address email notifications come from.
    #[arg(long, env = "CLASH_SMTP_FROM")]
    smtp_from: Option<String>,
    /// Seconds between two messages to one target at least; what happens meanwhile goes as one
    /// digest (default 60).
    #[arg(long, env = "CLASH_NOTIFY_THROTTLE_SECONDS", value_parser = clap::value_parser!(u64).range(1..=86_400))]
    notify_throttle_seconds: Option<u64>,
    /// Seconds between two looks for reminders and clocks that are due (default 15); a clock
    /// is told at the first look after it is due.
    #[arg(long, env = "CLASH_NOTIFY_TICK_SECONDS", value_parser = clap::value_parser!(u64).range(1..=3_600))]
    notify_tick_seconds: Option<u64>,
    /// Messages one email address receives from this server in a day at most, across all
    /// tables, confirmations included (default 20).
    #[arg(long, env = "CLASH_MAIL_PER_DAY", value_parser = clap::value_parser!(u64).range(1..=1_000))]
    mail_per_day: Option<u64>,
}

impl NotifyArgs {
    fn apply(self, notify: &mut clash_server::notify::Settings) {
        notify.allow_private = self.notify_allow_private;
        if let (Some(url), Some(from)) = (self.smtp_url, self.smtp_from) {
            notify.smtp = Some(clash_server::notify::Smtp { url, from });
        }
        if let Some(s) = self.notify_throttle_seconds {
            notify.throttle = std::time::Duration::from_secs(s);
        }
        if let Some(s) = self.notify_tick_seconds {
            notify.tick = std::time::Duration::from_secs(s);
        }
        if let Some(n) = self.mail_per_day {
            notify.mail_per_day = n as usize;
        }
    }
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
    // Notifications link to the pages at the same public address.
    limits.notify.public_url = limits.public_origin.as_ref().map(ToString::to_string);
    args.notify.apply(&mut limits.notify);
    match clash_server::serve_blocking_with(options, clash_catalogue::served(args.examples)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("clash serve: {e}");
            ExitCode::FAILURE
        }
    }
}
