//! Tables under load: each with its GM and four players, all five with a live stream, playing
//! the seats' legal commands at a given pace, timing each command until every seat has it.

use std::net::{Ipv4Addr, SocketAddr};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::games::{Dice, Game, choose};
use crate::wire::{Error, Http, SeenTx, connect, follow, seen_channel};

/// The loopback address the clients of table `i` connect from: ten tables to an address, like
/// ten groups sharing nothing but an internet connection.
pub fn client_address(i: usize) -> Ipv4Addr {
    let n = i / 10;
    Ipv4Addr::new(127, 1 + (n / 254) as u8, 0, 1 + (n % 254) as u8)
}

pub struct Seat {
    pub key: String,
    pub seen: Arc<SeenTx>,
    /// The server node this seat's player uses.
    pub node: SocketAddr,
}

pub struct Table {
    pub index: usize,
    pub game: Game,
    pub id: String,
    /// The GM first, then p1–p4.
    pub seats: Vec<Seat>,
}

/// Create table `index` on one of `nodes`; its seats are spread over the nodes (seat `s` of
/// table `index` on node `(index + s) % nodes`), so with several nodes every table has players
/// on more than one.
pub async fn create(nodes: Vec<SocketAddr>, index: usize, game: Game) -> Result<Table, Error> {
    let node = |seat: usize| nodes[(index + seat) % nodes.len()];
    let mut http = Http::connect(node(0), client_address(index)).await?;
    let body = json!({ "ruleset": game.id(), "setup": game.setup() });
    let created = http.ok("POST", "/api/tables", Some(&body)).await?;
    let id = created["table"].as_str().ok_or("no table id")?.to_string();
    let owner = created["owner_key"]
        .as_str()
        .ok_or("no owner key")?
        .to_string();
    let mut seats = vec![Seat {
        key: owner.clone(),
        seen: seen_channel(),
        node: node(0),
    }];
    for p in 1..=4 {
        let link = http
            .ok(
                "POST",
                &format!("/api/tables/{id}/seats/p{p}/link?key={owner}"),
                None,
            )
            .await?;
        let invite = link["invite"].as_str().ok_or("no invite")?;
        let claimed = http
            .ok(
                "POST",
                &format!("/api/tables/{id}/claim?key={invite}"),
                None,
            )
            .await?;
        seats.push(Seat {
            key: claimed["key"].as_str().ok_or("no seat key")?.to_string(),
            seen: seen_channel(),
            node: node(p),
        });
    }
    Ok(Table {
        index,
        game,
        id,
        seats,
    })
}

/// Open the five live streams of `table`.
pub async fn watch(
    table: &Table,
    streams: &mut tokio::task::JoinSet<Result<(), Error>>,
) -> Result<(), Error> {
    for seat in &table.seats {
        let path = format!(
            "/api/tables/{}/stream?key={}&changes=patch",
            table.id, seat.key
        );
        let stream = connect(seat.node, client_address(table.index)).await?;
        streams.spawn(follow(seat.node, stream, path, seat.seen.clone()));
    }
    Ok(())
}

/// Counts shared by every table.
#[derive(Default)]
pub struct Tally {
    pub acknowledged: AtomicU64,
    pub refused: AtomicU64,
    pub ended: AtomicU64,
    pub stuck: AtomicU64,
}

/// When a table acts: every `every`, from `start`; or, with no pace, as soon as the last
/// command has reached every seat.
#[derive(Clone, Copy)]
pub struct Pace {
    pub start: tokio::time::Instant,
    pub every: Option<Duration>,
    pub until: Instant,
    /// Latencies count from here on.
    pub measure_from: Instant,
}

/// Play `table` until the pace's end; returns the latency of every measured command.
pub async fn play(
    table: Arc<Table>,
    pace: Pace,
    tally: Arc<Tally>,
) -> Result<Vec<Duration>, Error> {
    // One connection to each node the table's seats use, opened when first needed and again
    // when it sat idle long enough for the server to close it.
    let mut connections: Vec<(SocketAddr, Http, Instant)> = Vec::new();
    let mut dice = Dice::new(table.index as u64 + 1);
    let mut latencies = Vec::new();
    let mut tick = 0u32;
    while Instant::now() < pace.until {
        if let Some(every) = pace.every {
            tokio::time::sleep_until(pace.start + every * tick).await;
            tick += 1;
            if Instant::now() >= pace.until {
                break;
            }
        }
        let (options, closed) = options(&table);
        if closed {
            tally.ended.fetch_add(1, Ordering::Relaxed);
            return Ok(latencies);
        }
        let Some((seat, command)) = choose(table.game, &options, &mut dice).cloned() else {
            // Nobody may act yet (a stream is behind): look again shortly.
            tokio::time::sleep(Duration::from_millis(20)).await;
            continue;
        };
        let sent = Instant::now();
        let body = json!({ "command": command });
        let path = format!(
            "/api/tables/{}/commands?key={}",
            table.id, table.seats[seat].key
        );
        let node = table.seats[seat].node;
        connections.retain(|(_, _, used)| used.elapsed() < IDLE_REUSE);
        let i = match connections.iter().position(|(a, _, _)| *a == node) {
            Some(i) => i,
            None => {
                let http = Http::connect(node, client_address(table.index)).await?;
                connections.push((node, http, Instant::now()));
                connections.len() - 1
            }
        };
        let (_, http, used) = &mut connections[i];
        *used = Instant::now();
        let (status, answer) = http.request("POST", &path, Some(&body)).await?;
        if status != 200 {
            tally.refused.fetch_add(1, Ordering::Relaxed);
            continue;
        }
        tally.acknowledged.fetch_add(1, Ordering::Relaxed);
        let revision = answer["event_count"].as_i64().ok_or("no event_count")?;
        match everyone_has(&table, revision, sent).await {
            Some(took) if sent >= pace.measure_from => latencies.push(took),
            Some(_) => {}
            None => {
                tally.stuck.fetch_add(1, Ordering::Relaxed);
                return Ok(latencies);
            }
        }
    }
    Ok(latencies)
}

/// A connection idle this long is not used again (the server closes idle connections after its
/// header timeout, 10 s by default).
const IDLE_REUSE: Duration = Duration::from_secs(5);

/// Every seat's legal commands now, and whether the table has ended.
fn options(table: &Table) -> (Vec<(usize, Value)>, bool) {
    let mut options = Vec::new();
    let mut closed = false;
    for (i, seat) in table.seats.iter().enumerate() {
        let Some(update) = seat.seen.borrow().update.clone() else {
            continue;
        };
        closed |= update["closed"] == true;
        for legal in update["legal"].as_array().into_iter().flatten() {
            options.push((i, legal["command"].clone()));
        }
    }
    (options, closed)
}

/// Wait until every seat has the update at `revision`; the time from `sent` until the last one
/// got it, or `None` after 30 s.
async fn everyone_has(table: &Table, revision: i64, sent: Instant) -> Option<Duration> {
    let mut last = sent;
    for seat in &table.seats {
        let mut rx = seat.seen.subscribe();
        let seen = tokio::time::timeout(
            Duration::from_secs(30),
            rx.wait_for(|s| s.revision >= revision),
        )
        .await
        .ok()?
        .ok()?
        .at;
        last = last.max(seen);
    }
    Some(last - sent)
}
