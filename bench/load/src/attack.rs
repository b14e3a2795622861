//! A hostile client from one address (its own process, so its sockets do not count against the
//! benchmark's): huge setups, a flood of idle connections, or live streams it never reads.

use std::net::{Ipv4Addr, SocketAddr};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tokio::io::AsyncWriteExt;
use tokio::net::TcpSocket;

use crate::wire::{Error, Http, connect};

/// Where the attack comes from.
pub const ATTACKER: Ipv4Addr = Ipv4Addr::new(127, 0, 0, 2);

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Attack {
    /// Create tables with a 590-NPC Wicked Age setup (60 KB) and ask for their GM views.
    BigSetups,
    /// Open 20,000 connections and send nothing.
    Connections,
    /// Open 2,000 live streams and never read them, while playing at the attacker's own tables
    /// so the streams have something to send.
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

/// Run `attack` against `addr` for `seconds`, then report what happened.
pub async fn run(attack: Attack, addr: SocketAddr, seconds: u64) -> Result<(), Error> {
    let until = Instant::now() + Duration::from_secs(seconds);
    match attack {
        Attack::BigSetups => big_setups(addr, until).await,
        Attack::Connections => connections(addr, 20_000, until).await,
        Attack::Streams => streams(addr, 2_000, until).await,
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

async fn streams(addr: SocketAddr, count: usize, until: Instant) -> Result<(), Error> {
    // The attacker's own tables (as many as its creation allowance gives).
    let mut http = Http::connect(addr, ATTACKER).await?;
    let mut keys = Vec::new();
    for _ in 0..20 {
        let (status, created) = http
            .request(
                "POST",
                "/api/tables",
                Some(&json!({"ruleset": "sealed-duel", "setup": {"players": 2}})),
            )
            .await?;
        if status != 201 {
            break;
        }
        keys.push((
            created["table"].as_str().unwrap_or_default().to_string(),
            created["owner_key"]
                .as_str()
                .unwrap_or_default()
                .to_string(),
        ));
    }
    if keys.is_empty() {
        return Err("the attacker could not create a table".into());
    }
    let (mut opened, mut refused) = (0usize, 0usize);
    let mut held = Vec::new();
    for i in 0..count {
        let (id, key) = &keys[i % keys.len()];
        let socket = TcpSocket::new_v4()?;
        socket.bind(SocketAddr::new(ATTACKER.into(), 0))?;
        socket.set_recv_buffer_size(4096)?;
        let Ok(mut stream) = socket.connect(addr).await else {
            refused += 1;
            continue;
        };
        let head =
            format!("GET /api/tables/{id}/stream?key={key} HTTP/1.1\r\nHost: {addr}\r\n\r\n");
        if stream.write_all(head.as_bytes()).await.is_ok() {
            opened += 1;
            held.push(stream);
        }
    }
    println!("attack: {opened} stream requests sent and never read ({refused} connects failed)");
    // Keep the tables busy so the unread streams have something to send.
    let mut commands = 0;
    while Instant::now() < until {
        for (id, key) in &keys {
            let (s, _) = http
                .request(
                    "POST",
                    &format!("/api/tables/{id}/commands?key={key}"),
                    Some(&json!({"command": {"type": "shuffle"}})),
                )
                .await?;
            commands += usize::from(s == 200);
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    println!("attack: {commands} commands played at the attacker's tables meanwhile");
    drop(held);
    Ok(())
}
