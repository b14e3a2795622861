//! Load benchmark of `clash serve` on loopback, with the real rulesets.
//!
//! The benchmark starts the server as a child process (itself, re-run with `--serve`) with its
//! default limits, on a free port with a throw-away database. Then:
//!
//! * **Play** (the default): N tables of one ruleset (or a mix) are created, each with the GM and
//!   four players, all five with a live stream (`?changes=patch`, as the pages use). Each table
//!   plays its seats' legal commands, favouring what the game is about (Iron Triangle conflicts,
//!   Tourists rounds, Wicked Age exchanges, Triforce turns), at a total pace of `--rate`
//!   commands/s (0: each table as fast as it can). It measures commands/s acknowledged (after
//!   their commit), the time from sending a command to every one of its table's five seats
//!   holding the update (p50/p99), the server's CPU and its resident memory. Clients connect
//!   from many loopback addresses (ten tables to an address), like groups on their own
//!   connections.
//! * **Play under attack** (`--attack setups|connections|streams`): the same, while a hostile
//!   client (its own process) sends 590-NPC setups or holds 20,000 idle connections from
//!   127.0.0.2, or opens as many live streams as the server allows (5,120: 20 tables at their
//!   cap of 256, from 21 addresses) and never reads them, reporting the server's resident
//!   memory per stream; `/healthz` is timed every 50 ms on a new connection from a third
//!   address.
//! * **Stored tables** (`--stored N`): N tables are written to a database, then a server is
//!   started on it: the time until it answers, its memory idle, and the first reads of tables it
//!   had not loaded.
//!
//! * **Several nodes** (`--postgres URL --nodes 2`): the play benchmark against that many server
//!   nodes on one PostgreSQL database, each table's five seats spread across the nodes (the GM
//!   on one, the players alternating), so every command reaches seats on other nodes through the
//!   database's news; then, in the same run, the same load against one node on SQLite to compare.
//!
//! Every play run ends with what one command cost over the measured window, from the servers'
//! own metrics: database round trips (`clash_db_round_trips`), server CPU (and, on PostgreSQL,
//! the CPU of the database cluster, when it runs on this machine), and the time 99% of the
//! durable commits took at most (`clash_db_commit_seconds`).
//!
//! Every run is bounded by `--seconds`.
//!
//! ```text
//! cargo run --release -p clash-load -- [--ruleset iron-triangle|nd-tourists|triforce|wicked-age|sealed-duel|mix]
//!     [--tables 1000] [--rate 800] [--seconds 60] [--warmup 10] [--attack setups|connections|streams]
//!     [--postgres postgres://… --nodes 2]
//! cargo run --release -p clash-load -- --stored 100000
//! ```

#[path = "../../../crates/server-tests/tests/it/common/mod.rs"]
mod sealed;

mod attack;
mod cost;
mod counting;
mod games;
mod play;
mod stored;
mod wire;

use std::net::{Ipv4Addr, SocketAddr};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use clash_core::RulesetEntry;

use crate::attack::Attack;
use crate::games::Game;
use crate::play::{Pace, Tally};
use crate::wire::{Error, Http};

/// mimalloc instead of the system allocator, as `clash` itself uses (glibc's allocator spent
/// about 40% of the server's CPU under this benchmark), with every allocation counted so that a
/// run can say what one command allocates.
#[global_allocator]
static ALLOCATOR: counting::Counting = counting::Counting;

struct Options {
    games: Vec<Game>,
    tables: usize,
    /// Commands per second over all tables (0: as fast as each table can).
    rate: f64,
    seconds: u64,
    warmup: u64,
    attack: Option<Attack>,
    stored: Option<usize>,
    /// A PostgreSQL database for `nodes` nodes (then one node on SQLite, to compare).
    postgres: Option<String>,
    nodes: usize,
}

fn options(args: &[String]) -> Result<Options, Error> {
    let mut o = Options {
        games: vec![Game::IronTriangle],
        tables: 1000,
        rate: 800.0,
        seconds: 60,
        warmup: 10,
        attack: None,
        stored: None,
        postgres: None,
        nodes: 2,
    };
    let mut i = 0;
    while i < args.len() {
        let value = args.get(i + 1).ok_or("every option takes a value")?;
        match args[i].as_str() {
            "--ruleset" => o.games = Game::parse(value).ok_or("unknown ruleset")?,
            "--tables" => o.tables = value.parse()?,
            "--rate" => o.rate = value.parse()?,
            "--seconds" => o.seconds = value.parse()?,
            "--warmup" => o.warmup = value.parse()?,
            "--attack" => o.attack = Some(Attack::parse(value).ok_or("unknown attack")?),
            "--stored" => o.stored = Some(value.parse()?),
            "--postgres" => o.postgres = Some(value.clone()),
            "--nodes" => o.nodes = value.parse::<usize>()?.max(1),
            other => return Err(format!("unknown option {other}").into()),
        }
        i += 2;
    }
    Ok(o)
}

fn main() -> Result<(), Error> {
    // mimalloc reads MIMALLOC_PURGE_DELAY when it first gives memory back to the system; at 0 it
    // gives it back at once, which keeps a busy server's resident memory about a fifth lower
    // (measured with the load benchmark) for no measurable CPU.
    if std::env::var_os("MIMALLOC_PURGE_DELAY").is_none() {
        // SAFETY: this runs first thing in `main`, before any other thread exists.
        unsafe { std::env::set_var("MIMALLOC_PURGE_DELAY", "0") };
    }
    let args: Vec<String> = std::env::args().skip(1).collect();
    raise_file_limit();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    match args.first().map(String::as_str) {
        Some("--serve") => serve(&args),
        Some("--attacker") => {
            const USAGE: &str = "--attacker KIND ADDR PID SECONDS";
            let attack = Attack::parse(args.get(1).ok_or(USAGE)?).ok_or("unknown attack")?;
            let addr: SocketAddr = args.get(2).ok_or(USAGE)?.parse()?;
            let pid: u32 = args.get(3).ok_or(USAGE)?.parse()?;
            let seconds: u64 = args.get(4).ok_or(USAGE)?.parse()?;
            runtime.block_on(attack::run(attack, addr, pid, seconds))
        }
        _ => runtime.block_on(run(options(&args)?)),
    }
}

/// Child mode: the server under test, with its default limits and the test ruleset added.
fn serve(args: &[String]) -> Result<(), Error> {
    counting::report();
    let addr: SocketAddr = args.get(1).ok_or("--serve ADDR DB")?.parse()?;
    let db = clash_server::store::Db::parse(args.get(2).ok_or("--serve ADDR DB")?);
    let mut catalogue = clash_catalogue::rulesets();
    catalogue.push(RulesetEntry::of::<sealed::SealedDuel>());
    clash_server::serve_blocking_with(clash_server::Options::new(addr, db), catalogue)
}

/// Many sockets on each side: lift the soft limit on open files to the hard one.
fn raise_file_limit() {
    let _ = rlimit::increase_nofile_limit(u64::MAX);
}

fn free_port() -> Result<u16, Error> {
    Ok(std::net::TcpListener::bind("127.0.0.1:0")?
        .local_addr()?
        .port())
}

/// A server child on a fresh port with the database at `db`.
struct Server {
    child: tokio::process::Child,
    pid: u32,
    addr: SocketAddr,
    /// Where the child writes its allocation and context-switch counts.
    cost: PathBuf,
}

impl Server {
    fn start(db: impl AsRef<std::ffi::OsStr>) -> Result<Server, Error> {
        let addr: SocketAddr = format!("127.0.0.1:{}", free_port()?).parse()?;
        let cost = std::env::temp_dir().join(format!("clash-load-{}.cost", addr.port()));
        let child = tokio::process::Command::new(std::env::current_exe()?)
            .arg("--serve")
            .arg(addr.to_string())
            .arg(db)
            .env(counting::COST_FILE, &cost)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .kill_on_drop(true)
            .spawn()?;
        let pid = child.id().ok_or("the server exited at once")?;
        Ok(Server {
            child,
            pid,
            addr,
            cost,
        })
    }

    fn counts(&self) -> counting::Counts {
        counting::Counts::read(&self.cost)
    }

    /// Wait until it answers `/healthz`; returns how long that took.
    async fn ready(&self, started: Instant) -> Result<Duration, Error> {
        loop {
            if let Ok(mut http) = Http::connect(self.addr, Ipv4Addr::LOCALHOST).await
                && http.ok("GET", "/healthz", None).await.is_ok()
            {
                return Ok(started.elapsed());
            }
            if started.elapsed() > Duration::from_secs(120) {
                return Err("the server did not start".into());
            }
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    }

    async fn stop(mut self) {
        let _ = self.child.start_kill();
        let _ = self.child.wait().await;
        let _ = std::fs::remove_file(&self.cost);
    }
}

fn scratch() -> Result<PathBuf, Error> {
    let dir = std::env::temp_dir().join(format!("clash-load-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    Ok(dir)
}

async fn run(o: Options) -> Result<(), Error> {
    let dir = scratch()?;
    let result = match o.stored {
        Some(n) => stored_run(&dir, n).await,
        None => match &o.postgres {
            None => load_run(&[dir.join("load.db").into()], None, &o).await,
            Some(url) => {
                println!("== {} nodes on PostgreSQL", o.nodes);
                let nodes: Vec<std::ffi::OsString> = vec![url.into(); o.nodes];
                load_run(&nodes, Some(url), &o).await?;
                println!("== 1 node on SQLite, the same load");
                load_run(&[dir.join("load.db").into()], None, &o).await
            }
        },
    };
    let _ = std::fs::remove_dir_all(&dir);
    result
}

fn memory(pid: u32) -> (String, String) {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let field = |name: &str| {
        status
            .lines()
            .find(|l| l.starts_with(name))
            .map(|l| l[name.len()..].trim().to_string())
            .unwrap_or_else(|| "?".into())
    };
    (field("VmRSS:"), field("VmHWM:"))
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

fn spread(sorted: &[Duration]) -> String {
    format!(
        "p50 {:.1?}, p99 {:.1?}, max {:.1?} (n = {})",
        percentile(sorted, 0.5),
        percentile(sorted, 0.99),
        sorted.last().copied().unwrap_or_default(),
        sorted.len()
    )
}

async fn stored_run(dir: &std::path::Path, count: usize) -> Result<(), Error> {
    let db = dir.join("stored.db");
    let tables = stored::fill(&db, count).await?;
    let size = std::fs::metadata(&db).map(|m| m.len()).unwrap_or(0);
    println!("database: {:.0} MB", size as f64 / 1e6);
    let started = Instant::now();
    let server = Server::start(&db)?;
    let ready = server.ready(started).await?;
    tokio::time::sleep(Duration::from_millis(200)).await;
    let (rss, _) = memory(server.pid);
    println!(
        "start-up on {count} stored tables: answering /healthz after {ready:.2?}; idle VmRSS {rss}"
    );
    let reads = stored::first_reads(server.addr, &tables, 200).await?;
    let (rss, peak) = memory(server.pid);
    println!(
        "first view of 200 tables never loaded before: {}",
        spread(&reads)
    );
    println!("after those reads: VmRSS {rss} (peak VmHWM {peak})");
    server.stop().await;
    Ok(())
}

/// The play benchmark against one node per entry of `dbs` (each the database it serves;
/// `postgres` when that is the PostgreSQL database at this URL).
async fn load_run(
    dbs: &[std::ffi::OsString],
    postgres: Option<&str>,
    o: &Options,
) -> Result<(), Error> {
    let mut servers = Vec::new();
    for db in dbs {
        let server = Server::start(db)?;
        server.ready(Instant::now()).await?;
        let (rss, _) = memory(server.pid);
        println!(
            "server pid {} at {}; idle VmRSS {rss}",
            server.pid, server.addr
        );
        servers.push(server);
    }
    let nodes: Vec<SocketAddr> = servers.iter().map(|s| s.addr).collect();
    let addr = nodes[0];
    let tables = create_tables(&nodes, o).await?;
    let mut streams = tokio::task::JoinSet::new();
    for t in &tables {
        play::watch(t, &mut streams).await?;
    }
    for t in &tables {
        for s in &t.seats {
            let mut rx = s.seen.subscribe();
            tokio::time::timeout(Duration::from_secs(60), rx.wait_for(|s| s.revision >= 0))
                .await??;
        }
    }
    let rss: Vec<String> = servers.iter().map(|s| memory(s.pid).0).collect();
    println!(
        "{} live streams open; VmRSS {}",
        streams.len(),
        rss.join(" + ")
    );

    let attacker = match o.attack {
        Some(a) => Some(start_attacker(a, &servers[0], o.seconds)?),
        None => None,
    };
    let probe = tokio::spawn(probe_health(
        addr,
        Instant::now() + Duration::from_secs(o.seconds),
    ));
    let cluster = match postgres {
        Some(url) => cost::Cluster::find(url)
            .await
            .inspect_err(|e| println!("PostgreSQL's own CPU is not measured: {e}"))
            .ok(),
        None => None,
    };
    let report = play_tables(&servers, cluster.as_ref(), tables, o).await?;
    let health = probe.await?;
    println!(
        "/healthz on a new connection every 50 ms: {}",
        spread(&health)
    );
    if let Some(child) = attacker {
        let out = child.wait_with_output().await?;
        print!("{}", String::from_utf8_lossy(&out.stdout));
    }
    streams.abort_all();
    println!("{report}");
    for server in servers {
        println!("{}", server_metrics(server.addr).await);
        server.stop().await;
    }
    Ok(())
}

/// What the server's own metrics say about the run: pictures computed and their cost, and the
/// time from a command's arrival to its acknowledgement.
async fn server_metrics(addr: SocketAddr) -> String {
    let Ok(mut http) = Http::connect(addr, Ipv4Addr::LOCALHOST).await else {
        return String::new();
    };
    let Ok((_, text)) = http.text("GET", "/metrics").await else {
        return String::new();
    };
    let value = |name: &str| cost::value(&text, name);
    let mean_ms = |metric: &str| {
        1000.0 * value(&format!("{metric}_sum")) / value(&format!("{metric}_count")).max(1.0)
    };
    let refused: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("clash_refused_total"))
        .collect();
    format!(
        "  server metrics: {} pictures computed (mean {:.2} ms each), command arrival → commit and answer mean {:.2} ms, tables in memory {}; {}",
        value("clash_updates_computed_total"),
        mean_ms("clash_update_seconds"),
        mean_ms("clash_command_seconds"),
        value("clash_tables_loaded"),
        if refused.is_empty() {
            "nothing refused by a limit".to_string()
        } else {
            format!("refused by limits: {}", refused.join(", "))
        }
    )
}

async fn create_tables(nodes: &[SocketAddr], o: &Options) -> Result<Vec<Arc<play::Table>>, Error> {
    let started = Instant::now();
    let mut tables = Vec::with_capacity(o.tables);
    let mut pending = tokio::task::JoinSet::new();
    for i in 0..o.tables {
        if pending.len() >= 64
            && let Some(done) = pending.join_next().await
        {
            tables.push(Arc::new(done??));
        }
        let game = o.games[i % o.games.len()];
        pending.spawn(play::create(nodes.to_vec(), i, game));
    }
    while let Some(done) = pending.join_next().await {
        tables.push(Arc::new(done??));
    }
    let names: Vec<&str> = o.games.iter().map(|g| g.id()).collect();
    println!(
        "created {} tables ({}) with the GM and 4 players each in {:.1?}",
        tables.len(),
        names.join(", "),
        started.elapsed()
    );
    Ok(tables)
}

fn start_attacker(
    attack: Attack,
    server: &Server,
    seconds: u64,
) -> Result<tokio::process::Child, Error> {
    println!("attack: {attack:?} from {}", attack::ATTACKER);
    Ok(tokio::process::Command::new(std::env::current_exe()?)
        .arg("--attacker")
        .arg(match attack {
            Attack::BigSetups => "setups",
            Attack::Connections => "connections",
            Attack::Streams => "streams",
        })
        .arg(server.addr.to_string())
        .arg(server.pid.to_string())
        .arg(seconds.to_string())
        .stdout(std::process::Stdio::piped())
        .kill_on_drop(true)
        .spawn()?)
}

/// Time `/healthz` on a new connection every 50 ms until `until`.
async fn probe_health(addr: SocketAddr, until: Instant) -> Vec<Duration> {
    let mut took = Vec::new();
    let from = Ipv4Addr::new(127, 0, 0, 3);
    while Instant::now() < until {
        let started = Instant::now();
        let answered = async {
            let mut http = Http::connect(addr, from).await?;
            http.ok("GET", "/healthz", None).await
        };
        // A probe that gets no answer within 5 s counts as 5 s.
        let _ = tokio::time::timeout(Duration::from_secs(5), answered).await;
        took.push(started.elapsed());
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    took.sort();
    took
}

async fn play_tables(
    servers: &[Server],
    cluster: Option<&cost::Cluster>,
    tables: Vec<Arc<play::Table>>,
    o: &Options,
) -> Result<String, Error> {
    let tally = Arc::new(Tally::default());
    let start = tokio::time::Instant::now();
    let until = Instant::now() + Duration::from_secs(o.seconds);
    let measure_from = Instant::now() + Duration::from_secs(o.warmup.min(o.seconds / 2));
    let every = (o.rate > 0.0).then(|| Duration::from_secs_f64(tables.len() as f64 / o.rate));
    let mut players = tokio::task::JoinSet::new();
    for (i, table) in tables.iter().enumerate() {
        // Paced tables start spread evenly over one period, as real tables would be.
        let offset = every.map_or(Duration::ZERO, |e| e * i as u32 / tables.len() as u32);
        let pace = Pace {
            start: start + offset,
            every,
            until,
            measure_from,
        };
        players.spawn(play::play(table.clone(), pace, tally.clone()));
    }
    tokio::time::sleep_until(measure_from.into()).await;
    let counted_before = tally.acknowledged.load(Ordering::Relaxed);
    let server_cpu = || {
        servers
            .iter()
            .map(|s| cost::cpu_seconds(s.pid, false))
            .sum::<f64>()
    };
    let database_cpu = || cluster.map_or(0.0, cost::Cluster::cpu_seconds);
    let nodes: Vec<SocketAddr> = servers.iter().map(|s| s.addr).collect();
    let counted = cost::Counters::read(&nodes).await;
    let counts_before: Vec<counting::Counts> = servers.iter().map(Server::counts).collect();
    let cpu_before = (
        server_cpu(),
        cost::cpu_seconds(std::process::id(), false),
        database_cpu(),
    );
    let window = Instant::now();
    let mut latencies = Vec::new();
    let mut failures = 0;
    while let Some(done) = players.join_next().await {
        match done? {
            Ok(l) => latencies.extend(l),
            Err(_) => failures += 1,
        }
    }
    let elapsed = window.elapsed().max(Duration::from_millis(1));
    let cpu = (
        server_cpu() - cpu_before.0,
        cost::cpu_seconds(std::process::id(), false) - cpu_before.1,
        database_cpu() - cpu_before.2,
    );
    let counted_after = cost::Counters::read(&nodes).await;
    let per_command = per_command(&counted, &counted_after, cpu, cluster);
    let process = servers
        .iter()
        .zip(&counts_before)
        .map(|(s, before)| before.since(&s.counts()))
        .fold(counting::Counts::default(), |a, b| counting::Counts {
            allocations: a.allocations + b.allocations,
            allocated_bytes: a.allocated_bytes + b.allocated_bytes,
            switches: a.switches + b.switches,
        });
    let parts = parts(&counted, &counted_after, &process);
    let (rss, peak): (Vec<String>, Vec<String>) = servers.iter().map(|s| memory(s.pid)).unzip();
    let (rss, peak) = (rss.join(" + "), peak.join(" + "));
    let done = tally.acknowledged.load(Ordering::Relaxed) - counted_before;
    latencies.sort();
    let pace = match every {
        Some(_) => format!("paced at {} commands/s", o.rate),
        None => "as fast as each table can (saturated)".into(),
    };
    let names: Vec<&str> = o.games.iter().map(|g| g.id()).collect();
    Ok(format!(
        "{} × {} tables × 5 seats, {pace}, measured over {:.1?} after {} s of warm-up:\n\
         \x20 {done} commands acknowledged = {:.0} commands/s ({} refused, {} tables ended, {} stuck, {failures} failed)\n\
         \x20 command sent → all 5 seats have the update: {}\n\
         \x20 server CPU {:.1} s ({:.0}% of one core), benchmark clients {:.1} s; server VmRSS {rss} (peak VmHWM {peak})\n\
         \x20 {per_command}\n\
         \x20 {parts}",
        names.join("+"),
        tables.len(),
        elapsed,
        o.warmup,
        done as f64 / elapsed.as_secs_f64(),
        tally.refused.load(Ordering::Relaxed),
        tally.ended.load(Ordering::Relaxed),
        tally.stuck.load(Ordering::Relaxed),
        spread(&latencies),
        cpu.0,
        100.0 * cpu.0 / elapsed.as_secs_f64(),
        cpu.1,
    ))
}

/// What one command's cost is made of, over the measured window: viewers' pictures computed,
/// bytes of updates serialized, allocations, handoffs between threads or tasks, and the
/// servers' context switches.
fn parts(before: &cost::Counters, after: &cost::Counters, process: &counting::Counts) -> String {
    let (commands, ..) = before.since(after);
    let commands = commands.max(1.0);
    let (pictures, bytes, handoffs) = before.parts(after);
    format!(
        "per command, its parts: {pictures:.2} pictures computed, {:.1} KB of updates serialized, {:.0} allocations ({:.1} KB), {handoffs:.1} handoffs between threads or tasks, {:.1} context switches",
        bytes / 1000.0,
        process.allocations as f64 / commands,
        process.allocated_bytes as f64 / commands / 1000.0,
        process.switches as f64 / commands,
    )
}

/// The cost of one command, from what the servers committed in the measured window: database
/// round trips, server CPU (and the database cluster's, when it is measured), and how long 99%
/// of the commits took at most.
fn per_command(
    before: &cost::Counters,
    after: &cost::Counters,
    (server, _, database): (f64, f64, f64),
    cluster: Option<&cost::Cluster>,
) -> String {
    let (commands, trips, p99, commits) = before.since(after);
    let ms = |seconds: f64| 1000.0 * seconds / commands.max(1.0);
    let database = match cluster {
        Some(_) => format!(" + PostgreSQL {:.2} ms", ms(database)),
        None => String::new(),
    };
    let p99 = p99.map_or("?".into(), |s| format!("{:.1} ms", 1000.0 * s));
    format!(
        "per command ({commands} committed): {trips:.2} database round trips, server CPU {:.2} ms{database}; database commit p99 <= {p99} ({commits} writes)",
        ms(server)
    )
}
