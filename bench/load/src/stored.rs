//! Many stored tables: fill a database with N Iron Triangle tables (through the server's own
//! code, in process), then time a server's start on it, its memory idle, and the first read of
//! tables it has never loaded.

use std::net::SocketAddr;
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::games::{Dice, Game};
use crate::wire::{Error, Http};

/// Create `count` tables in the database at `db`; returns each table's id and GM key.
pub async fn fill(db: &Path, count: usize) -> Result<Vec<(String, String)>, Error> {
    let tables = clash_server::open(db, clash_catalogue::rulesets())?;
    let setup: Value = Game::IronTriangle.setup();
    let started = Instant::now();
    let mut made = Vec::with_capacity(count);
    let mut pending = tokio::task::JoinSet::new();
    for i in 0..count {
        // Enough in flight that each commit carries hundreds of tables.
        if pending.len() >= 512
            && let Some(done) = pending.join_next().await
        {
            made.push(done??);
        }
        let tables = Arc::clone(&tables);
        let setup = setup.clone();
        pending.spawn(async move {
            let created = tables
                .tables()
                .create("iron-triangle", &format!("Stored {i}"), setup)
                .await
                .map_err(|e| e.to_string())?;
            Ok::<_, Error>((created.table.id.clone(), created.owner_key))
        });
        if (i + 1) % 20_000 == 0 {
            println!("  {} tables stored ({:.0?})", i + 1, started.elapsed());
        }
    }
    while let Some(done) = pending.join_next().await {
        made.push(done??);
    }
    println!(
        "stored {count} Iron Triangle tables in {:.1?}",
        started.elapsed()
    );
    Ok(made)
}

/// After the server started on the filled database: read `sample` tables it has never loaded.
pub async fn first_reads(
    addr: SocketAddr,
    stored: &[(String, String)],
    sample: usize,
) -> Result<Vec<Duration>, Error> {
    let mut http = Http::connect(addr, std::net::Ipv4Addr::LOCALHOST).await?;
    let mut dice = Dice::new(7);
    let mut took = Vec::with_capacity(sample);
    for _ in 0..sample {
        let (id, key) = &stored[dice.below(stored.len() as u64) as usize];
        let started = Instant::now();
        http.ok("GET", &format!("/api/tables/{id}/view?key={key}"), None)
            .await?;
        took.push(started.elapsed());
    }
    took.sort();
    Ok(took)
}
