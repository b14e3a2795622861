//! A hostile client (its own process, so its sockets do not count against the benchmark's):
//! huge setups or a flood of idle connections from one address, or from a few dozen addresses
//! as many live streams as the server allows, never read.

use std::net::{Ipv4Addr, SocketAddr};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tokio::io::AsyncWriteExt;
use tokio::net::{TcpSocket, TcpStream};

use crate::wire::{Error, Http, connect};

/// Where the attack comes from.
pub const ATTACKER: Ipv4Addr = Ipv4Addr::new(127, 0, 0, 2);

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Attack {
    /// Create tables with a 590-NPC Wicked Age setup (60 KB) and ask for their GM views.
    BigSetups,
    /// Open 20,000 connections and send nothing.
    Connections,
    /// Open as many live streams as the server allows on the attacker's own tables (20 Iron
    /// Triangle tables, 256 streams each with the watch link, from 21 addresses) and never read
    /// them, while changing those tables so the streams have something to send; report the
    /// server's resident memory per stream.
    Streams,
}

impl Attack {
    pub fn parse(name: &str) -> Option<Attack> {
        match name {
            "setups" => Some(Attack::BigSetups),
            "connections" => Some(Attack::Connections),
            "streams" => Some(Attack::Streams),
            _ => None,
        }
    }
}

/// Run `attack` against `addr` (the server process `pid`, whose memory is read) for `seconds`,
/// then report what happened.
pub async fn run(attack: Attack, addr: SocketAddr, pid: u32, seconds: u64) -> Result<(), Error> {
    let until = Instant::now() + Duration::from_secs(seconds);
    match attack {
        Attack::BigSetups => big_setups(addr, until).await,
        Attack::Connections => connections(addr, 20_000, until).await,
        Attack::Streams => streams(addr, pid, until).await,
    }
}

/// A Wicked Age setup with 590 NPCs.
fn huge_setup() -> Value {
    let npc = |i: usize| {
        json!({
            "name": format!("Bandit {i}"),
            "kind": "npc",
            "forms": { "action": [12, 8], "maneuvering": [10, 6], "self_protection": [6, 4] },
        })
    };
    let mut characters = vec![json!({
        "name": "Ysolde", "kind": "pc", "seat": "p1",
        "forms": { "covertly": 6, "directly": 4, "for_myself": 8, "for_others": 6, "with_love": 12, "with_violence": 10 },
        "best_interests": ["Live"],
    })];
    characters.extend((0..590).map(npc));
    json!({ "ruleset": "wicked-age", "setup": { "characters": characters } })
}

async fn big_setups(addr: SocketAddr, until: Instant) -> Result<(), Error> {
    let body = huge_setup();
    println!("attack: 590-NPC setups of {} bytes", body.to_string().len());
    let (mut sent, mut created, mut views) = (0, 0, 0);
    let mut statuses = std::collections::BTreeMap::new();
    while Instant::now() < until {
        let mut http = Http::connect(addr, ATTACKER).await?;
        let (status, answer) = http.request("POST", "/api/tables", Some(&body)).await?;
        sent += 1;
        *statuses.entry(status).or_insert(0) += 1;
        if status == 201 {
            created += 1;
            let (id, key) = (answer["table"].as_str(), answer["owner_key"].as_str());
            if let (Some(id), Some(key)) = (id, key) {
                let (s, _) = http
                    .request("GET", &format!("/api/tables/{id}/view?key={key}"), None)
                    .await?;
                views += usize::from(s == 200);
            }
        }
        if status == 429 {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
    println!(
        "attack: {sent} setups sent, answers by status {statuses:?}, {created} tables created, {views} GM views answered"
    );
    Ok(())
}

async fn connections(addr: SocketAddr, count: usize, until: Instant) -> Result<(), Error> {
    let mut held = Vec::with_capacity(count);
    let mut failed = 0;
    while held.len() < count && Instant::now() < until {
        match connect(addr, ATTACKER).await {
            Ok(s) => held.push(s),
            Err(_) => {
                failed += 1;
                tokio::time::sleep(Duration::from_millis(5)).await;
            }
        }
    }
    println!(
        "attack: {} connections opened ({failed} connects failed); holding them",
        held.len()
    );
    tokio::time::sleep_until(until.into()).await;
    Ok(())
}

/// The tables the streams attack watches: as many as the creation allowance gives.
const STREAM_TABLES: usize = 20;
/// Streams per table: the server's default cap.
const STREAMS_PER_TABLE: usize = 256;
/// Streams per address, under the server's default cap of connections per address (256).
const STREAMS_PER_ADDRESS: usize = 250;

/// A server process's resident memory in KiB.
fn rss_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// One sample line of the server's metrics (`name` with its labels), asked on a connection of
/// its own (the attacker's others may have idled out meanwhile).
async fn metric(addr: SocketAddr, name: &str) -> Result<f64, Error> {
    let mut http = Http::connect(addr, ATTACKER).await?;
    let (_, text) = http.text("GET", "/metrics").await?;
    Ok(text
        .lines()
        .find_map(|l| l.strip_prefix(name)?.strip_prefix(' '))
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(0.0))
}

/// The attacker's own tables, of the game whose pictures are the largest: (id, owner key,
/// watch key).
async fn own_tables(http: &mut Http) -> Result<Vec<(String, String, String)>, Error> {
    let mut tables = Vec::new();
    for _ in 0..STREAM_TABLES {
        let game = json!({"ruleset": "iron-triangle"});
        let (status, created) = http.request("POST", "/api/tables", Some(&game)).await?;
        if status != 201 {
            break;
        }
        let text = |name: &str| created[name].as_str().unwrap_or_default().to_string();
        tables.push((text("table"), text("owner_key"), text("spectator_key")));
    }
    if tables.is_empty() {
        return Err("the attacker could not create a table".into());
    }
    Ok(tables)
}

/// Ask for `path`'s live stream from `from` on a socket with a tiny receive buffer, and never
/// read it.
async fn unread_stream(addr: SocketAddr, from: Ipv4Addr, path: &str) -> Option<TcpStream> {
    let socket = TcpSocket::new_v4().ok()?;
    socket.bind(SocketAddr::new(from.into(), 0)).ok()?;
    socket.set_recv_buffer_size(4096).ok()?;
    let mut stream = socket.connect(addr).await.ok()?;
    let head = format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\n\r\n");
    stream.write_all(head.as_bytes()).await.ok()?;
    Some(stream)
}

/// How often the attacker changes each of its tables: a pace the server keeps up with, so each
/// message is one change (a flood of changes would measure the server's lag instead).
const CHANGE_EVERY: Duration = Duration::from_millis(500);

/// Add a new seed at the table every [`CHANGE_EVERY`] until `until` (each a change every
/// stream of the table is sent, whole); how many were added.
async fn keep_busy(addr: SocketAddr, id: String, owner: String, until: Instant) -> usize {
    let Ok(mut http) = Http::connect(addr, ATTACKER).await else {
        return 0;
    };
    let path = format!("/api/tables/{id}/seed?key={owner}");
    let mut added = 0;
    while Instant::now() < until {
        let seed = json!({ "seed": format!("attack-{added}") });
        if let Ok((204, _)) = http.request("POST", &path, Some(&seed)).await {
            added += 1;
        }
        tokio::time::sleep(CHANGE_EVERY).await;
    }
    added
}

/// The streams open now beyond `before`, once their number stops growing.
async fn settled_streams(addr: SocketAddr, before: f64) -> Result<f64, Error> {
    let mut open = metric(addr, "clash_streams_open").await?;
    for _ in 0..40 {
        tokio::time::sleep(Duration::from_millis(250)).await;
        let now = metric(addr, "clash_streams_open").await?;
        if now == open {
            break;
        }
        open = now;
    }
    Ok(open - before)
}

async fn streams(addr: SocketAddr, pid: u32, until: Instant) -> Result<(), Error> {
    let mut http = Http::connect(addr, ATTACKER).await?;
    let tables = own_tables(&mut http).await?;
    let (id, _, watch) = &tables[0];
    let picture = http
        .text("GET", &format!("/api/tables/{id}/view?key={watch}"))
        .await?
        .1;
    let rss_before = rss_kib(pid).unwrap_or(0);
    let open_before = metric(addr, "clash_streams_open").await?;
    let (mut asked, mut failed) = (0usize, 0usize);
    let mut held = Vec::new();
    for i in 0..tables.len() * STREAMS_PER_TABLE {
        let (id, _, watch) = &tables[i % tables.len()];
        let from = Ipv4Addr::new(127, 0, 2, 1 + (i / STREAMS_PER_ADDRESS) as u8);
        match unread_stream(addr, from, &format!("/api/tables/{id}/stream?key={watch}")).await {
            Some(s) => held.push(s),
            None => failed += 1,
        }
        asked += 1;
    }
    let opened = settled_streams(addr, open_before).await?;
    println!(
        "attack: {opened} live streams open on {} iron-triangle tables and never read ({asked} asked for, {failed} connects failed; a watcher's update is {:.1} KB); server VmRSS {} MB before",
        tables.len(),
        picture.len() as f64 / 1000.0,
        rss_before / 1024
    );
    let mut busy = tokio::task::JoinSet::new();
    for (id, owner, _) in &tables {
        busy.spawn(keep_busy(addr, id.clone(), owner.clone(), until));
    }
    let mut peak = rss_before;
    while Instant::now() < until {
        tokio::time::sleep(Duration::from_millis(250)).await;
        peak = peak.max(rss_kib(pid).unwrap_or(0));
    }
    let seeds: usize = busy.join_all().await.into_iter().sum();
    let stalled = metric(addr, "clash_refused_total{reason=\"stalled\"}").await?;
    // What the attack cost the server, shared over the streams that cost it.
    let grown = peak.saturating_sub(rss_before);
    println!(
        "attack: {seeds} changes (new seeds) at those tables meanwhile, {stalled} streams dropped for not reading; server VmRSS peak {} MB, {} MB above before: {:.1} KiB per stream",
        peak / 1024,
        grown / 1024,
        grown as f64 / opened.max(1.0)
    );
    drop(held);
    Ok(())
}
