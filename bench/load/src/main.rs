//! Load benchmark: N tables × 5 connected seats on loopback.
//!
//! The benchmark starts the server as a child process (itself, re-run with `--serve`) on a free
//! loopback port with a throw-away database, creates N tables, gives each table's five seats a
//! live SSE connection, then has every table play simultaneous-choice rounds at once: four
//! players commit a secret choice each, and the last commit reveals them all. It measures
//!
//! * commands per second accepted by the server (each acknowledged after its SQLite commit),
//! * the time from sending the last commit of a round until every one of the table's five seats
//!   has received the update carrying the reveal (p50 / p99),
//! * the server's resident memory (VmRSS and peak VmHWM from /proc/<pid>/status).
//!
//! It is bounded: `--rounds` rounds per table and `--seconds` of wall time at most.
//!
//! The round is played with the "sealed duel" test ruleset shared with the server's tests
//! (`crates/clash-server/tests/common/mod.rs`): it is the smallest game with a secret
//! simultaneous choice and a reveal, so the figures measure the server and not a rules engine.
//!
//! Usage: `cargo run --release -p clash-load -- [--tables 1000] [--rounds 5] [--seconds 120] [--every-ms 0]`
//!
//! `--every-ms P` paces each table to one round every P ms (players think between rounds);
//! the default 0 plays rounds back to back, which measures the server saturated.

#[path = "../../../crates/clash-server/tests/common/mod.rs"]
mod sealed;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use clash_core::RulesetEntry;
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;
use tokio::sync::watch;

type Error = Box<dyn std::error::Error + Send + Sync>;

const PLAYERS: u8 = 4;

struct Options {
    tables: usize,
    rounds: usize,
    seconds: u64,
    /// Start a table's rounds this often (0: as fast as the server allows).
    every_ms: u64,
}

fn options() -> Result<Options, Error> {
    let mut o = Options {
        tables: 1000,
        rounds: 5,
        seconds: 120,
        every_ms: 0,
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < args.len() {
        let value = args.get(i + 1).ok_or("every option takes a value")?;
        match args[i].as_str() {
            "--tables" => o.tables = value.parse()?,
            "--rounds" => o.rounds = value.parse()?,
            "--seconds" => o.seconds = value.parse()?,
            "--every-ms" => o.every_ms = value.parse()?,
            other => return Err(format!("unknown option {other}").into()),
        }
        i += 2;
    }
    Ok(o)
}

fn main() -> Result<(), Error> {
    let args: Vec<String> = std::env::args().collect();
    raise_file_limit();
    if args.get(1).map(String::as_str) == Some("--serve") {
        // Child mode: the server under test, with the benchmark's ruleset added.
        let addr: SocketAddr = args.get(2).ok_or("--serve ADDR DB")?.parse()?;
        let db = PathBuf::from(args.get(3).ok_or("--serve ADDR DB")?);
        let mut catalogue = clash_catalogue::rulesets();
        catalogue.push(RulesetEntry::of::<sealed::SealedDuel>());
        return clash_server::serve_blocking_rulesets(addr, &db, catalogue);
    }
    let options = options()?;
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?
        .block_on(run(options))
}

/// 5 sockets per table on each side: lift the soft limit on open files to the hard one.
fn raise_file_limit() {
    // SAFETY: getrlimit/setrlimit only read and write the struct we pass.
    unsafe {
        let mut lim = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut lim) == 0 {
            lim.rlim_cur = lim.rlim_max;
            libc::setrlimit(libc::RLIMIT_NOFILE, &lim);
        }
    }
}

fn free_port() -> Result<u16, Error> {
    Ok(std::net::TcpListener::bind("127.0.0.1:0")?
        .local_addr()?
        .port())
}

/// One keep-alive HTTP/1.1 connection for JSON requests.
struct Http {
    addr: SocketAddr,
    stream: BufReader<TcpStream>,
}

impl Http {
    async fn connect(addr: SocketAddr) -> Result<Http, Error> {
        let stream = TcpStream::connect(addr).await?;
        stream.set_nodelay(true)?;
        Ok(Http {
            addr,
            stream: BufReader::new(stream),
        })
    }

    async fn request(
        &mut self,
        method: &str,
        path: &str,
        body: Option<&Value>,
    ) -> Result<(u16, Value), Error> {
        let body = body.map(Value::to_string).unwrap_or_default();
        let request = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            self.addr,
            body.len()
        );
        self.stream.get_mut().write_all(request.as_bytes()).await?;
        let (status, length) = read_head(&mut self.stream).await?;
        let length = length.ok_or("response without Content-Length")?;
        let mut buf = vec![0; length];
        self.stream.read_exact(&mut buf).await?;
        Ok((status, serde_json::from_slice(&buf).unwrap_or(Value::Null)))
    }

    async fn ok(&mut self, method: &str, path: &str, body: Option<&Value>) -> Result<Value, Error> {
        let (status, answer) = self.request(method, path, body).await?;
        if !(200..300).contains(&status) {
            return Err(format!("{method} {path}: {status} {answer}").into());
        }
        Ok(answer)
    }
}

/// Read a response's status line and headers; returns the status and any Content-Length.
async fn read_head(stream: &mut BufReader<TcpStream>) -> Result<(u16, Option<usize>), Error> {
    let mut line = String::new();
    stream.read_line(&mut line).await?;
    let status: u16 = line
        .split_whitespace()
        .nth(1)
        .ok_or("no status line")?
        .parse()?;
    let mut length = None;
    loop {
        line.clear();
        if stream.read_line(&mut line).await? == 0 {
            return Err("connection closed".into());
        }
        let l = line.trim_end();
        if l.is_empty() {
            return Ok((status, length));
        }
        if let Some((name, value)) = l.split_once(':')
            && name.eq_ignore_ascii_case("content-length")
        {
            length = Some(value.trim().parse()?);
        }
    }
}

/// The log length each seat has seen (-1 before its stream's first update), and when.
type Seen = watch::Sender<(i64, Instant)>;

/// Follow one seat's SSE stream, publishing the `id` (log length) of every update.
async fn follow(
    addr: SocketAddr,
    stream: TcpStream,
    path: String,
    seen: Arc<Seen>,
) -> Result<(), Error> {
    let mut stream = BufReader::new(stream);
    let head = format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nAccept: text/event-stream\r\n\r\n");
    stream.get_mut().write_all(head.as_bytes()).await?;
    let (status, _) = read_head(&mut stream).await?;
    if status != 200 {
        return Err(format!("stream {path}: {status}").into());
    }
    // The body is chunked; SSE lines are reassembled across chunks.
    let mut pending = String::new();
    let mut line = String::new();
    loop {
        line.clear();
        if stream.read_line(&mut line).await? == 0 {
            return Ok(());
        }
        let size = usize::from_str_radix(line.trim(), 16)?;
        if size == 0 {
            return Ok(());
        }
        let mut chunk = vec![0; size + 2];
        stream.read_exact(&mut chunk).await?;
        pending.push_str(&String::from_utf8_lossy(&chunk[..size]));
        while let Some(end) = pending.find('\n') {
            let l: String = pending.drain(..=end).collect();
            if let Some(id) = l.strip_prefix("id:") {
                let n: i64 = id.trim().parse()?;
                seen.send_if_modified(|s| {
                    let newer = n > s.0;
                    if newer {
                        *s = (n, Instant::now());
                    }
                    newer
                });
            }
        }
    }
}

struct Seat {
    key: String,
    seen: Arc<Seen>,
}

struct TableLinks {
    id: String,
    /// The GM (owner) first, then p1..p4.
    seats: Vec<Seat>,
}

async fn create_table(addr: SocketAddr) -> Result<TableLinks, Error> {
    let mut http = Http::connect(addr).await?;
    let setup =
        json!({ "ruleset": "sealed-duel", "setup": { "players": PLAYERS, "auto_reveal": true } });
    let created = http.ok("POST", "/api/tables", Some(&setup)).await?;
    let id = created["table"].as_str().ok_or("no table id")?.to_string();
    let owner = created["owner_key"]
        .as_str()
        .ok_or("no owner key")?
        .to_string();
    let new_seat = |key: String| Seat {
        key,
        seen: Arc::new(watch::Sender::new((-1, Instant::now()))),
    };
    let mut seats = vec![new_seat(owner.clone())];
    for p in 1..=PLAYERS {
        let link = http
            .ok(
                "POST",
                &format!("/api/tables/{id}/seats/p{p}/link?key={owner}"),
                None,
            )
            .await?;
        // The GM's link is an invite: the player's first visit exchanges it for their own key.
        let invite = link["invite"].as_str().ok_or("no invite")?;
        let claimed = http
            .ok(
                "POST",
                &format!("/api/tables/{id}/claim?key={invite}"),
                None,
            )
            .await?;
        seats.push(new_seat(
            claimed["key"].as_str().ok_or("no seat key")?.to_string(),
        ));
    }
    Ok(TableLinks { id, seats })
}

/// Play `rounds` rounds at one table; returns the reveal latency of each round.
///
/// With a `pace`, round `r` starts at `start + r × pace` (players who think between rounds);
/// without one, each round starts as soon as the last one is revealed (the server saturated).
async fn play(
    mut http: Http,
    table: Arc<TableLinks>,
    rounds: usize,
    pace: Option<(tokio::time::Instant, Duration)>,
    commands: Arc<AtomicU64>,
) -> Result<Vec<Duration>, Error> {
    let mut latencies = Vec::with_capacity(rounds);
    for round in 0..rounds {
        if let Some((start, every)) = pace {
            tokio::time::sleep_until(start + every * round as u32).await;
        }
        let mut last = (Instant::now(), 0);
        for p in 1..=PLAYERS as usize {
            let key = &table.seats[p].key;
            let body =
                json!({ "command": { "type": "commit", "word": format!("secret-{round}-{p}") } });
            let sent = Instant::now();
            let update = http
                .ok(
                    "POST",
                    &format!("/api/tables/{}/commands?key={key}", table.id),
                    Some(&body),
                )
                .await?;
            commands.fetch_add(1, Ordering::Relaxed);
            last = (
                sent,
                update["event_count"].as_i64().ok_or("no event_count")?,
            );
        }
        let (sent, count) = last;
        let mut arrived = sent;
        for seat in &table.seats {
            let mut rx = seat.seen.subscribe();
            let (_, at) = *rx.wait_for(|(n, _)| *n >= count).await?;
            arrived = arrived.max(at);
        }
        latencies.push(arrived - sent);
    }
    Ok(latencies)
}

fn memory(pid: u32) -> String {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let field = |name: &str| {
        status
            .lines()
            .find(|l| l.starts_with(name))
            .map(|l| l[name.len()..].trim().to_string())
            .unwrap_or_else(|| "?".into())
    };
    format!("VmRSS {} (peak VmHWM {})", field("VmRSS:"), field("VmHWM:"))
}

/// CPU seconds (user + system) the process has used so far.
fn cpu_seconds(pid: u32) -> f64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    // Fields after the command name (which ends with ')'): utime and stime are the 12th and 13th.
    let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks: f64 = [11, 12]
        .iter()
        .filter_map(|&i| fields.get(i)?.parse::<f64>().ok())
        .sum();
    // SAFETY: sysconf only reads a configuration value.
    let hz = unsafe { libc::sysconf(libc::_SC_CLK_TCK) } as f64;
    ticks / hz.max(1.0)
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

async fn run(o: Options) -> Result<(), Error> {
    let deadline = Instant::now() + Duration::from_secs(o.seconds);
    let port = free_port()?;
    let addr: SocketAddr = format!("127.0.0.1:{port}").parse()?;
    let dir = std::env::temp_dir().join(format!("clash-load-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let mut server = tokio::process::Command::new(std::env::current_exe()?)
        .arg("--serve")
        .arg(addr.to_string())
        .arg(dir.join("load.db"))
        .stdout(std::process::Stdio::null())
        .kill_on_drop(true)
        .spawn()?;
    let pid = server.id().ok_or("server exited at once")?;
    let result = measure(addr, pid, &o, deadline).await;
    let _ = server.start_kill();
    let _ = server.wait().await;
    let _ = std::fs::remove_dir_all(&dir);
    result
}

async fn measure(addr: SocketAddr, pid: u32, o: &Options, deadline: Instant) -> Result<(), Error> {
    // Wait for the server to listen.
    loop {
        if let Ok(mut http) = Http::connect(addr).await
            && http.request("GET", "/api/rulesets", None).await.is_ok()
        {
            break;
        }
        if Instant::now() > deadline {
            return Err("the server did not start".into());
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    println!("server pid {pid} at {addr}; idle: {}", memory(pid));

    let started = Instant::now();
    let mut tables = Vec::with_capacity(o.tables);
    let mut pending = tokio::task::JoinSet::new();
    for _ in 0..o.tables {
        // At most 64 creations in flight, so creation itself is no stampede.
        if pending.len() >= 64
            && let Some(done) = pending.join_next().await
        {
            tables.push(Arc::new(done??));
        }
        pending.spawn(create_table(addr));
    }
    while let Some(done) = pending.join_next().await {
        tables.push(Arc::new(done??));
    }
    println!(
        "created {} tables with 5 seats each in {:.1?}",
        tables.len(),
        started.elapsed()
    );

    let mut followers = tokio::task::JoinSet::new();
    for t in &tables {
        for s in &t.seats {
            let path = format!("/api/tables/{}/stream?key={}", t.id, s.key);
            // Connect here, one at a time, so the listen queue never overflows.
            let stream = TcpStream::connect(addr).await?;
            followers.spawn(follow(addr, stream, path, s.seen.clone()));
        }
    }
    // Every stream sends its first update at once: wait until all have.
    for t in &tables {
        for s in &t.seats {
            let mut rx = s.seen.subscribe();
            tokio::time::timeout(Duration::from_secs(60), rx.wait_for(|(n, _)| *n >= 0)).await??;
        }
    }
    println!("{} live streams open; {}", followers.len(), memory(pid));

    // One command connection per table, opened before the clock starts.
    let mut connections = Vec::with_capacity(tables.len());
    for _ in &tables {
        connections.push(Http::connect(addr).await?);
    }
    let commands = Arc::new(AtomicU64::new(0));
    let cpu_before = (cpu_seconds(pid), cpu_seconds(std::process::id()));
    let play_start = Instant::now();
    let mut players = tokio::task::JoinSet::new();
    let every = Duration::from_millis(o.every_ms);
    for (i, (t, http)) in tables.iter().zip(connections).enumerate() {
        // Paced tables start spread evenly over one period, as real tables would be.
        let pace = (o.every_ms > 0).then(|| {
            (
                tokio::time::Instant::now() + every * i as u32 / tables.len() as u32,
                every,
            )
        });
        players.spawn(play(http, t.clone(), o.rounds, pace, commands.clone()));
    }
    let mut latencies = Vec::new();
    let remaining = deadline.saturating_duration_since(Instant::now());
    let finished = tokio::time::timeout(remaining, async {
        while let Some(done) = players.join_next().await {
            latencies.extend(done??);
        }
        Ok::<(), Error>(())
    })
    .await;
    let elapsed = play_start.elapsed();
    let cpu = (
        cpu_seconds(pid) - cpu_before.0,
        cpu_seconds(std::process::id()) - cpu_before.1,
    );
    let rss = memory(pid);
    followers.abort_all();
    match finished {
        Ok(r) => r?,
        Err(_) => println!(
            "stopped at the time limit ({} s); figures cover the rounds finished",
            o.seconds
        ),
    }
    latencies.sort();
    let done = commands.load(Ordering::Relaxed);
    let pacing = if o.every_ms > 0 {
        format!("a round every {} ms per table", o.every_ms)
    } else {
        "rounds back to back (saturated)".into()
    };
    println!(
        "{} tables × 5 seats, {} rounds each, {pacing}: {} commands in {:.2?} = {:.0} commands/s",
        tables.len(),
        o.rounds,
        done,
        elapsed,
        done as f64 / elapsed.as_secs_f64()
    );
    println!(
        "last commit → all 5 seats have the reveal, over {} rounds: p50 {:.1?}, p99 {:.1?}, max {:.1?}",
        latencies.len(),
        percentile(&latencies, 0.5),
        percentile(&latencies, 0.99),
        latencies.last().copied().unwrap_or_default()
    );
    println!("server memory after the run: {rss}");
    println!(
        "CPU used while playing: server {:.2} s, benchmark clients {:.2} s (2 cores shared)",
        cpu.0, cpu.1
    );
    Ok(())
}
