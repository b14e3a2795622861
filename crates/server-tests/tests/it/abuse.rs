//! The abuse suite: a real server on a loopback port, with small limits so each one is reached
//! in a moment, and clients that misbehave. Every test is bounded in requests and in time (each
//! waits at most a few seconds for what it expects) and stops its server.
//!
//! What it proves: oversize and unknown-field inputs are refused and change nothing; table
//! creation is rate-limited per address; connections are capped per address; silent
//! connections, half-sent headers and idle keep-alive connections are closed; a request head
//! longer than the connection's buffer is refused; a request refused
//! before its body is read leaves its keep-alive connection fit for the next request, or
//! announces that it closes it; a live stream that does not read is dropped; streams are capped
//! per key and per table; a table that left memory comes back from its log identical; start-up
//! reads no table.

use std::net::SocketAddr;
use std::time::Duration;

use crate::client::{CommandBody, CreateTable, LinkBody, SeedBody, WithBody, routes};
use crate::wire::*;
use clash_server::Limits;
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::{TcpSocket, TcpStream};

/// Limits small enough to reach in a test, generous where a test does not aim at them.
fn limits() -> Limits {
    Limits {
        connections_per_address: 64,
        header_timeout: Duration::from_secs(5),
        request_timeout: Duration::from_secs(5),
        stall_timeout: Duration::from_secs(5),
        body_limit: 16 * 1024,
        creates_per_minute: 600,
        create_burst: 100,
        streams_per_key: 8,
        streams_per_table: 32,
        stream_keep_alive: Duration::from_secs(5),
        ..Limits::default()
    }
}

/// A sealed-duel table with claimed keys for p1 and p2.
struct Table {
    id: String,
    owner: String,
    spectator: String,
    p1: String,
    p2: String,
}

async fn table(addr: SocketAddr) -> Table {
    let created = send(
        addr,
        routes::CREATE_TABLE.at([]).json(&CreateTable {
            ruleset: Some(String::from("sealed-duel")),
            title: Some(String::from("Abuse")),
            ..CreateTable::default()
        }),
    )
    .await;
    assert_eq!(created.status, 201, "{}", created.body);
    let c = created.json();
    let (id, owner) = (
        c["table"].as_str().unwrap(),
        c["owner_key"].as_str().unwrap(),
    );
    let mut keys = Vec::new();
    for seat in ["p1", "p2"] {
        let link = send(addr, routes::ISSUE_LINK.at([id, seat]).key(owner))
            .await
            .json();
        let invite = link["invite"].as_str().unwrap();
        let claimed = send(addr, routes::CLAIM.at([id]).key(invite)).await.json();
        keys.push(claimed["key"].as_str().unwrap().to_string());
    }
    Table {
        id: id.into(),
        owner: owner.into(),
        spectator: c["spectator_key"].as_str().unwrap().into(),
        p1: keys[0].clone(),
        p2: keys[1].clone(),
    }
}

async fn command(addr: SocketAddr, t: &Table, key: &str, command: Value) -> Answer {
    send(
        addr,
        routes::COMMAND
            .at([&t.id])
            .key(key)
            .json(&CommandBody::of(json!(command))),
    )
    .await
}

/// Everything a key can read of a table: its view and its record.
async fn reading(addr: SocketAddr, t: &Table, key: &str) -> (Value, Value) {
    let view = send(addr, routes::VIEW.at([&t.id]).key(key).query("after", "0")).await;
    assert_eq!(view.status, 200, "{}", view.body);
    let record = send(addr, routes::EXPORT.at([&t.id]).key(key)).await;
    assert_eq!(record.status, 200, "{}", record.body);
    (view.json(), record.json())
}

/// A bad request: method, path, headers, body, and the status and code it must get.
type Bad<'a> = (
    &'a str,
    String,
    Vec<(&'a str, &'a str)>,
    String,
    u16,
    &'a str,
);

#[tokio::test]
async fn oversize_and_unknown_field_inputs_are_refused_and_change_nothing() {
    let live = Live::start(limits()).await;
    let addr = live.addr;
    let t = table(addr).await;
    command(addr, &t, &t.p1, json!({"type": "commit", "word": "apple"})).await;
    let before = reading(addr, &t, &t.owner).await;
    let stored = live.server.store().count_tables().await.unwrap();
    let commands = routes::COMMAND.at([&t.id]).key(&t.p2);
    let json_type = [("Content-Type", "application/json")];
    let huge = format!(
        r#"{{"command": {{"type": "commit", "word": "{}"}}}}"#,
        "x".repeat(20_000)
    );
    let long_id = "i".repeat(101);
    let long_title = "t".repeat(121);
    let long_seed = "s".repeat(65);
    let cases: Vec<Bad> = vec![
        (
            "POST",
            commands.to_string(),
            json_type.to_vec(),
            huge,
            413,
            "too_large",
        ),
        (
            "POST",
            commands.to_string(),
            vec![("Content-Type", "text/plain")],
            r#"{"command": {"type": "commit", "word": "pear"}}"#.into(),
            415,
            "not_json",
        ),
        (
            "POST",
            commands.to_string(),
            json_type.to_vec(),
            r#"{"command": {"type": "commit", "word": "pear"}, "junk": 1}"#.into(),
            400,
            "malformed",
        ),
        (
            "POST",
            commands.to_string(),
            json_type.to_vec(),
            r#"{"command": {"type": "commit", "word": "pear", "junk": "x"}}"#.into(),
            400,
            "malformed",
        ),
        (
            "POST",
            commands.to_string(),
            json_type.to_vec(),
            r#"{"command": {"type": "commit", "word": 7}}"#.into(),
            400,
            "malformed",
        ),
        (
            "POST",
            commands.to_string(),
            json_type.to_vec(),
            format!(r#"{{"command": {{"type": "commit", "word": "pear"}}, "id": "{long_id}"}}"#),
            400,
            "malformed",
        ),
        (
            "POST",
            commands.to_string(),
            json_type.to_vec(),
            r#"{"command": {"type": "commit", "word": "pear"}, "as": "p7"}"#.into(),
            404,
            "unknown_seat",
        ),
        (
            "POST",
            routes::ISSUE_LINK
                .at([&t.id, "p1"])
                .key(&t.owner)
                .into_uri(),
            json_type.to_vec(),
            r#"{"npc": "yes"}"#.into(),
            400,
            "malformed",
        ),
        (
            "DELETE",
            routes::ISSUE_LINK
                .at([&t.id, "p9"])
                .key(&t.owner)
                .into_uri(),
            vec![],
            String::new(),
            404,
            "unknown_seat",
        ),
        (
            "POST",
            routes::HAND_BACK.at([&t.id, "zz"]).key(&t.owner).into_uri(),
            vec![],
            String::new(),
            404,
            "unknown_seat",
        ),
        (
            "POST",
            routes::SEED.at([&t.id]).key(&t.p1).into_uri(),
            json_type.to_vec(),
            format!(r#"{{"seed": "{long_seed}"}}"#),
            400,
            "malformed",
        ),
        (
            "POST",
            routes::REPLACE_LINK
                .at([&t.id, "everyone"])
                .key(&t.owner)
                .into_uri(),
            vec![],
            String::new(),
            400,
            "malformed",
        ),
        (
            "POST",
            routes::CREATE_TABLE.at([]).into_uri(),
            json_type.to_vec(),
            format!(r#"{{"ruleset": "sealed-duel", "title": "{long_title}"}}"#),
            400,
            "malformed",
        ),
        (
            "POST",
            routes::CREATE_TABLE.at([]).into_uri(),
            json_type.to_vec(),
            r#"{"ruleset": "sealed-duel", "setup": {"players": 2, "junk": true}}"#.into(),
            400,
            "malformed",
        ),
        (
            "POST",
            routes::CREATE_TABLE.at([]).into_uri(),
            json_type.to_vec(),
            r#"{"ruleset": "sealed-duel", "setup": {"players": "two"}}"#.into(),
            400,
            "malformed",
        ),
    ];
    for (method, path, headers, body, status, code) in cases {
        let answer =
            request_from(addr, "127.0.0.1", method, &path, &headers, body.as_bytes()).await;
        assert_eq!(answer.status, status, "{method} {path}: {}", answer.body);
        assert_eq!(answer.json()["error"]["code"], code, "{}", answer.body);
    }
    assert_eq!(reading(addr, &t, &t.owner).await, before, "nothing changed");
    assert_eq!(live.server.store().count_tables().await.unwrap(), stored);
    live.stop().await;
}

/// Every catalogue ruleset refuses a setup with a field it does not know, and a command (one
/// its rules would accept) with an extra field, and the table is as it was.
#[tokio::test]
async fn every_ruleset_refuses_unknown_setup_and_command_fields() {
    let live = Live::start(limits()).await;
    let addr = live.addr;
    for entry in clash_catalogue::rulesets() {
        let mut setup: Value = serde_json::from_str(entry.presets[0].setup).unwrap();
        setup["no_such_field"] = json!("junk");
        let refused = send(
            addr,
            routes::CREATE_TABLE.at([]).json(&CreateTable {
                ruleset: Some(String::from(entry.id)),
                setup: Some(json!(setup)),
                ..CreateTable::default()
            }),
        )
        .await;
        assert_eq!(refused.status, 400, "{}: {}", entry.id, refused.body);
        let created = send(
            addr,
            routes::CREATE_TABLE.at([]).json(&CreateTable {
                ruleset: Some(String::from(entry.id)),
                ..CreateTable::default()
            }),
        )
        .await
        .json();
        let (id, owner) = (
            created["table"].as_str().unwrap(),
            created["owner_key"].as_str().unwrap(),
        );
        // The GM plays every seat, so some seat has a legal command.
        let mut tried = false;
        for seat in created["seats"].as_array().unwrap() {
            let seat = seat["seat"].as_str().unwrap();
            if seat != "gm" {
                let npc = send(
                    addr,
                    routes::ISSUE_LINK
                        .at([id, seat])
                        .key(owner)
                        .json(&LinkBody { npc: true }),
                )
                .await;
                assert_eq!(npc.status, 201, "{}", npc.body);
            }
            let view = send(addr, routes::VIEW.at([id]).key(owner).query("as", seat))
                .await
                .json();
            let Some(legal) = view["legal"].as_array().and_then(|l| l.first()) else {
                continue;
            };
            let before = view["event_count"].clone();
            let mut junk = legal["command"].clone();
            junk["no_such_field"] = json!("x".repeat(1000));
            let answer = send(
                addr,
                routes::COMMAND.at([id]).key(owner).json(&CommandBody {
                    command: Some(json!(junk)),
                    as_seat: Some(String::from(seat)),
                    ..CommandBody::default()
                }),
            )
            .await;
            assert_eq!(answer.status, 400, "{} {seat}: {}", entry.id, answer.body);
            let after = send(addr, routes::VIEW.at([id]).key(owner).query("as", seat))
                .await
                .json();
            assert_eq!(after["event_count"], before);
            tried = true;
            break;
        }
        assert!(tried, "{}: no seat had a legal command", entry.id);
    }
    // A setup that means nothing is no setup (IT-1: a table needs at least one player).
    for empty in [json!([]), json!({})] {
        let refused = send(
            addr,
            routes::CREATE_TABLE.at([]).json(&CreateTable {
                ruleset: Some(String::from("iron-triangle")),
                setup: Some(json!(empty)),
                ..CreateTable::default()
            }),
        )
        .await;
        assert!(
            (400..500).contains(&refused.status),
            "{empty}: {}",
            refused.body
        );
    }
    live.stop().await;
}

#[tokio::test]
async fn table_creation_is_rate_limited_per_address() {
    let live = Live::start(Limits {
        create_burst: 3,
        creates_per_minute: 1,
        ..limits()
    })
    .await;
    let addr = live.addr;
    let create = |from: &'static str| async move {
        request_from(
            addr,
            from,
            "POST",
            &routes::CREATE_TABLE.at([]),
            &[("Content-Type", "application/json")],
            br#"{"ruleset": "sealed-duel"}"#,
        )
        .await
    };
    for _ in 0..3 {
        assert_eq!(create("127.0.0.4").await.status, 201);
    }
    let refused = create("127.0.0.4").await;
    assert_eq!(refused.status, 429, "{}", refused.body);
    assert_eq!(refused.json()["error"]["code"], "rate_limited");
    let wait: u64 = refused.header("retry-after").unwrap().parse().unwrap();
    assert!((30..=60).contains(&wait), "{wait}");
    // The lobby's form is held to the same allowance, and says so on the page.
    let form = request_from(
        addr,
        "127.0.0.4",
        "POST",
        &routes::LOBBY_CREATE.at([]),
        &[("Content-Type", "application/x-www-form-urlencoded")],
        b"preset=sealed-duel%230",
    )
    .await;
    assert_eq!(form.status, 429);
    assert!(form.body.contains("too many new tables"), "{}", form.body);
    // Another address has its own allowance.
    assert_eq!(create("127.0.0.5").await.status, 201);
    assert_eq!(live.server.store().count_tables().await.unwrap(), 4);
    live.stop().await;
}

#[tokio::test]
async fn connections_beyond_the_cap_per_address_are_turned_away_at_once() {
    let live = Live::start(Limits {
        connections_per_address: 4,
        ..limits()
    })
    .await;
    let addr = live.addr;
    let mut held = Vec::new();
    for _ in 0..4 {
        held.push(connect_from(addr, "127.0.0.6").await);
    }
    // Wait until the server has counted them.
    for _ in 0..50 {
        if metric(addr, "clash_connections_open").await >= 5.0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let extra = tokio::time::timeout(
        Duration::from_secs(2),
        request_from(addr, "127.0.0.6", "GET", &routes::HEALTHZ.at([]), &[], b""),
    )
    .await
    .expect("turned away at once, not left waiting");
    assert_eq!(extra.status, 503);
    assert!(
        extra.body.contains("too many connections"),
        "{}",
        extra.body
    );
    let other = request_from(addr, "127.0.0.7", "GET", &routes::HEALTHZ.at([]), &[], b"").await;
    assert_eq!(other.status, 200, "other addresses are served");
    assert!(
        metric(
            addr,
            "clash_refused_total{reason=\"connections_per_address\"}"
        )
        .await
            >= 1.0
    );
    drop(held);
    live.stop().await;
}

#[tokio::test]
async fn silent_connections_half_sent_headers_and_idle_keep_alives_are_closed() {
    let live = Live::start(Limits {
        header_timeout: Duration::from_millis(400),
        ..limits()
    })
    .await;
    let addr = live.addr;
    let mut silent = connect_from(addr, "127.0.0.1").await;
    assert!(
        closed_within(&mut silent, Duration::from_secs(3)).await,
        "silent"
    );
    let mut half = connect_from(addr, "127.0.0.1").await;
    let healthz = head(&routes::HEALTHZ.at([]), "x");
    half.write_all(format!("{healthz}\r\nX-Slow: ").as_bytes())
        .await
        .unwrap();
    assert!(
        closed_within(&mut half, Duration::from_secs(3)).await,
        "half a header"
    );
    // A keep-alive connection is served while it keeps asking, then closed once idle.
    let mut busy = BufReader::new(connect_from(addr, "127.0.0.1").await);
    for _ in 0..3 {
        busy.get_mut()
            .write_all(format!("{healthz}\r\n\r\n").as_bytes())
            .await
            .unwrap();
        assert_eq!(read_answer(&mut busy).await.status, 200);
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    assert!(
        closed_within(busy.get_mut(), Duration::from_secs(3)).await,
        "idle keep-alive"
    );
    live.stop().await;
}

/// One request on a kept-alive connection: its head (without the blank line), then its body.
async fn exchange(conn: &mut BufReader<TcpStream>, head: &str, body: &[u8]) -> Answer {
    let w = conn.get_mut();
    w.write_all(format!("{head}\r\n\r\n").as_bytes())
        .await
        .unwrap();
    w.write_all(body).await.unwrap();
    tokio::time::timeout(Duration::from_secs(5), read_answer(conn))
        .await
        .unwrap_or_else(|_| panic!("no answer to {head}"))
}

#[tokio::test]
async fn a_refusal_before_the_body_is_read_leaves_the_connection_usable() {
    let live = Live::start(Limits {
        create_burst: 1,
        creates_per_minute: 1,
        ..limits()
    })
    .await;
    let addr = live.addr;
    let mut conn = BufReader::new(connect_from(addr, "127.0.0.8").await);
    let create = |length: usize| {
        format!(
            "{}\r\nContent-Type: application/json\r\nContent-Length: {length}",
            head(&routes::CREATE_TABLE.at([]), addr)
        )
    };
    let padded = format!(
        r#"{{"ruleset": "sealed-duel", "title": "{}"}}"#,
        "x".repeat(100)
    );
    let created = exchange(&mut conn, &create(padded.len()), padded.as_bytes()).await;
    assert_eq!(created.status, 201, "{}", created.body);
    let (id, owner) = (
        created.json()["table"].clone(),
        created.json()["owner_key"].clone(),
    );
    let (id, owner) = (id.as_str().unwrap(), owner.as_str().unwrap());
    let healthz = head(&routes::HEALTHZ.at([]), addr);
    // Bodies of several reads' worth, refused before a byte of them is read.
    let big = format!(
        r#"{{"ruleset": "sealed-duel", "title": "{}"}}"#,
        "y".repeat(12_000)
    );
    let chunked = format!("{:x}\r\n{big}\r\n0\r\n\r\n", big.len());
    let commands = head(&routes::COMMAND.at([id]).key(owner), addr);
    let refused: Vec<(String, &[u8], u16, &str)> = vec![
        (create(big.len()), big.as_bytes(), 429, "rate_limited"),
        (
            format!(
                "{commands}\r\nContent-Type: text/plain\r\nContent-Length: {}",
                big.len()
            ),
            big.as_bytes(),
            415,
            "not_json",
        ),
        (
            format!("{commands}\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked"),
            chunked.as_bytes(),
            415,
            "not_json",
        ),
        (
            format!(
                "{}\r\nOrigin: https://evil.example\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: {}",
                head(&routes::CLOSE.at([id]).key(owner), addr),
                big.len()
            ),
            big.as_bytes(),
            403,
            "cross_site",
        ),
    ];
    for (head, body, status, code) in refused {
        let answer = exchange(&mut conn, &head, body).await;
        assert_eq!(answer.status, status, "{head}: {}", answer.body);
        assert_eq!(answer.json()["error"]["code"], code);
        assert_eq!(answer.header("connection"), None, "{head}");
        let next = exchange(&mut conn, &healthz, b"").await;
        assert_eq!(
            next.status, 200,
            "the next request on the connection, after {head}"
        );
    }
    // A body too large to wait for, or one that does not come: the answer says the connection
    // ends, and it does.
    let huge = "z".repeat(40_000);
    for (head, body) in [(create(huge.len()), huge.as_bytes()), (create(5000), b"{")] {
        let mut conn = BufReader::new(connect_from(addr, "127.0.0.9").await);
        let answer = exchange(&mut conn, &head, body).await;
        assert!(matches!(answer.status, 413 | 429), "{}", answer.body);
        assert_eq!(answer.header("connection"), Some("close"), "{head}");
        assert!(closed_within(conn.get_mut(), Duration::from_secs(3)).await);
    }
    live.stop().await;
}

#[tokio::test]
async fn a_request_head_longer_than_the_connection_buffer_is_refused() {
    let live = Live::start(limits()).await;
    let addr = live.addr;
    let long = "v".repeat(Limits::default().connection_buffer);
    let refused = request_from(
        addr,
        "127.0.0.1",
        "GET",
        &routes::HEALTHZ.at([]),
        &[("X-Long", &long)],
        b"",
    )
    .await;
    assert_eq!(refused.status, 431);
    let usual = "v".repeat(2000);
    let served = request_from(
        addr,
        "127.0.0.1",
        "GET",
        &routes::HEALTHZ.at([]),
        &[("X-Long", &usual)],
        b"",
    )
    .await;
    assert_eq!(served.status, 200);
    live.stop().await;
}

/// Open a live stream on a socket with a tiny receive buffer and never read it.
async fn unread_stream(addr: SocketAddr, path: &str) -> TcpStream {
    let socket = TcpSocket::new_v4().unwrap();
    socket.set_recv_buffer_size(2048).unwrap();
    let mut stream = socket.connect(addr).await.unwrap();
    let head = format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nAccept: text/event-stream\r\n\r\n");
    stream.write_all(head.as_bytes()).await.unwrap();
    stream
}

#[tokio::test]
async fn a_stream_that_does_not_read_is_dropped() {
    let live = Live::start(Limits {
        stall_timeout: Duration::from_millis(400),
        send_buffer: 4096,
        connection_buffer: 8192,
        ..limits()
    })
    .await;
    let addr = live.addr;
    let t = table(addr).await;
    let path = routes::STREAM.at([&t.id]).key(&t.owner);
    let _unread = unread_stream(addr, &path).await;
    for _ in 0..50 {
        if metric(addr, "clash_streams_open").await >= 1.0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(metric(addr, "clash_streams_open").await, 1.0);
    // Every shuffle is an update for the GM's stream; the stream's buffers fill and stay full.
    let mut dropped = false;
    for _ in 0..200 {
        let answer = command(addr, &t, &t.owner, json!({"type": "shuffle"})).await;
        assert_eq!(answer.status, 200, "{}", answer.body);
        if metric(addr, "clash_streams_open").await == 0.0 {
            dropped = true;
            break;
        }
    }
    if !dropped {
        for _ in 0..100 {
            if metric(addr, "clash_streams_open").await == 0.0 {
                dropped = true;
                break;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
    assert!(dropped, "the stream that does not read was not dropped");
    assert!(metric(addr, "clash_refused_total{reason=\"stalled\"}").await >= 1.0);
    // The table plays on for everyone else.
    let answer = command(addr, &t, &t.p1, json!({"type": "commit", "word": "apple"})).await;
    assert_eq!(answer.status, 200);
    live.stop().await;
}

/// Open a stream and read its first message's event name (or the refusal's status).
async fn open_stream(addr: SocketAddr, path: &str) -> Result<BufReader<TcpStream>, u16> {
    let stream = TcpStream::connect(addr).await.unwrap();
    let mut stream = BufReader::new(stream);
    let head = format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\n\r\n");
    stream.get_mut().write_all(head.as_bytes()).await.unwrap();
    let mut line = String::new();
    stream.read_line(&mut line).await.unwrap();
    let status: u16 = line.split_whitespace().nth(1).unwrap().parse().unwrap();
    if status != 200 {
        return Err(status);
    }
    loop {
        line.clear();
        stream.read_line(&mut line).await.unwrap();
        if line.trim().is_empty() {
            return Ok(stream);
        }
    }
}

/// The next SSE event name on a chunked stream (skipping keep-alive comments).
async fn next_event(stream: &mut BufReader<TcpStream>) -> Option<String> {
    let mut line = String::new();
    let read = async {
        loop {
            line.clear();
            if stream.read_line(&mut line).await.ok()? == 0 {
                return None;
            }
            let size = usize::from_str_radix(line.trim(), 16).ok()?;
            if size == 0 {
                return None;
            }
            let mut chunk = vec![0; size + 2];
            stream.read_exact(&mut chunk).await.ok()?;
            let text = String::from_utf8_lossy(&chunk);
            if let Some(name) = text
                .lines()
                .find_map(|l| l.strip_prefix("event:").map(|n| n.trim().to_string()))
            {
                return Some(name);
            }
        }
    };
    tokio::time::timeout(Duration::from_secs(3), read)
        .await
        .ok()
        .flatten()
}

#[tokio::test]
async fn streams_are_capped_per_key_and_per_table() {
    let live = Live::start(Limits {
        streams_per_key: 2,
        streams_per_table: 3,
        ..limits()
    })
    .await;
    let addr = live.addr;
    let t = table(addr).await;
    let path = |key: &str| routes::STREAM.at([&t.id]).key(key);
    let mut a = open_stream(addr, &path(&t.p1)).await.unwrap();
    let _b = open_stream(addr, &path(&t.p1)).await.unwrap();
    assert_eq!(next_event(&mut a).await.as_deref(), Some("update"));
    assert_eq!(
        open_stream(addr, &path(&t.p1)).await.err(),
        Some(429),
        "per key"
    );
    let _c = open_stream(addr, &path(&t.spectator)).await.unwrap();
    assert_eq!(
        open_stream(addr, &path(&t.p2)).await.err(),
        Some(429),
        "per table"
    );
    drop(a);
    // Its place is freed once the server sees it closed.
    let mut reopened = Err(0);
    for _ in 0..50 {
        reopened = open_stream(addr, &path(&t.p2)).await;
        if reopened.is_ok() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(40)).await;
    }
    assert!(reopened.is_ok(), "a closed stream frees its place");
    live.stop().await;
}

#[tokio::test]
async fn a_table_read_back_from_its_log_is_the_table_it_was() {
    let live = Live::start(limits()).await;
    let addr = live.addr;
    let t = table(addr).await;
    send(
        addr,
        routes::SEED.at([&t.id]).key(&t.p1).json(&SeedBody {
            seed: String::from("ada-seed"),
        }),
    )
    .await;
    command(addr, &t, &t.p1, json!({"type": "commit", "word": "apple"})).await;
    command(addr, &t, &t.p2, json!({"type": "commit", "word": "pear"})).await;
    command(addr, &t, &t.owner, json!({"type": "shuffle"})).await;
    let keys = [&t.owner, &t.p1, &t.p2, &t.spectator];
    let mut before = Vec::new();
    for key in keys {
        before.push(reading(addr, &t, key).await);
    }
    assert!(live.server.tables().unload_idle(Duration::ZERO) >= 1);
    assert_eq!(
        live.server.tables().loaded(),
        0,
        "nothing is left in memory"
    );
    for (key, was) in keys.into_iter().zip(&before) {
        assert_eq!(&reading(addr, &t, key).await, was, "read back for {key}");
    }
    // It plays on where it was: the reveal rolls from the same chance as before.
    let reveal = command(addr, &t, &t.owner, json!({"type": "reveal"})).await;
    assert_eq!(reveal.status, 200, "{}", reveal.body);
    assert_eq!(reveal.json()["command"]["n"], 3);
    // A table with an open stream stays in memory.
    let _watching = open_stream(addr, &routes::STREAM.at([&t.id]).key(&t.p1))
        .await
        .unwrap();
    assert_eq!(live.server.tables().unload_idle(Duration::ZERO), 0);
    live.stop().await;
}

#[tokio::test]
async fn start_up_reads_no_table_and_a_request_reads_only_its_own() {
    let live = Live::start(limits()).await;
    let mut ids = Vec::new();
    for _ in 0..5 {
        ids.push(table(live.addr).await);
    }
    let path = live.path.clone();
    let _dir = live.stop().await;
    let tables = clash_server::open_with(&path, catalogue_all(), limits()).unwrap();
    assert_eq!(tables.store().count_tables().await.unwrap(), 5);
    assert_eq!(tables.tables().loaded(), 0);
    let t = tables.table(&ids[2].id).await.unwrap();
    assert_eq!(t.id, ids[2].id);
    assert_eq!(tables.tables().loaded(), 1);
    assert!(matches!(
        tables.table("0123456789ab").await,
        Err(clash_server::TableError::UnknownTable(_))
    ));
    assert_eq!(
        tables.tables().loaded(),
        1,
        "an unknown id leaves nothing behind"
    );
}
