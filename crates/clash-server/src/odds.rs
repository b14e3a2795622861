//! Odds in play: a per-table switch the GM turns on, and each seat's odds for its next choice.
//!
//! * `GET /api/tables/{id}/odds` — whether odds are on at this table and, when they are, the
//!   odds for the caller's seat: the catalogue's odds hook run on the seat's own view (the same
//!   JSON its page receives), so no odds can tell a seat what its view hides.
//! * `PUT /api/tables/{id}/odds` `{"enabled": bool}` — the GM (owner) switches odds on or off.
//!
//! The switch is off by default and kept in the table's database, so it survives a restart.
//! Odds are computed off the async runtime and remembered per table, seat and log length.

use std::collections::{HashMap, HashSet};
use std::path::{Path as FsPath, PathBuf};
use std::sync::{Arc, Mutex};

use axum::body::Bytes;
use axum::extract::{Path, Query, State};
use axum::http::HeaderMap;
use axum::routing::get;
use axum::{Json, Router};
use clash_core::Seat;
use rusqlite::Connection;
use serde_json::{Value, json};

use crate::api::{access_from, key_of, parse_as};
use crate::error::ApiError;
use crate::links::Role;
use crate::tables::Tables;

/// How many computed odds are remembered before the memory is cleared.
const REMEMBERED: usize = 512;

/// Which tables show odds, as stored in the database.
pub struct Switches {
    db: PathBuf,
    on: Mutex<HashSet<String>>,
    computed: Mutex<HashMap<(String, Seat, usize), Option<Value>>>,
}

fn connect(db: &FsPath) -> Result<Connection, rusqlite::Error> {
    let conn = Connection::open(db)?;
    conn.execute_batch(
        "PRAGMA busy_timeout=5000; CREATE TABLE IF NOT EXISTS odds_switches (table_id TEXT PRIMARY KEY);",
    )?;
    Ok(conn)
}

impl Switches {
    /// Read the switches stored in the database at `db` (none are on in a new database).
    pub fn open(db: &FsPath) -> Result<Switches, ApiError> {
        let conn = connect(db).map_err(|e| ApiError::storage(e.to_string()))?;
        let mut stmt = conn
            .prepare("SELECT table_id FROM odds_switches")
            .map_err(|e| ApiError::storage(e.to_string()))?;
        let on = stmt
            .query_map([], |row| row.get::<_, String>(0))
            .and_then(|rows| rows.collect::<Result<HashSet<String>, _>>())
            .map_err(|e| ApiError::storage(e.to_string()))?;
        Ok(Switches {
            db: db.to_path_buf(),
            on: Mutex::new(on),
            computed: Mutex::new(HashMap::new()),
        })
    }

    pub fn is_on(&self, table: &str) -> bool {
        self.on.lock().is_ok_and(|on| on.contains(table))
    }

    /// Store the switch, then apply it.
    async fn set(&self, table: &str, enabled: bool) -> Result<(), ApiError> {
        let db = self.db.clone();
        let id = table.to_string();
        tokio::task::spawn_blocking(move || {
            let conn = connect(&db)?;
            if enabled {
                conn.execute(
                    "INSERT OR IGNORE INTO odds_switches (table_id) VALUES (?1)",
                    [&id],
                )?;
            } else {
                conn.execute("DELETE FROM odds_switches WHERE table_id = ?1", [&id])?;
            }
            Ok::<(), rusqlite::Error>(())
        })
        .await
        .map_err(|e| ApiError::storage(e.to_string()))?
        .map_err(|e| ApiError::storage(e.to_string()))?;
        if let Ok(mut on) = self.on.lock() {
            if enabled {
                on.insert(table.to_string());
            } else {
                on.remove(table);
            }
        }
        Ok(())
    }
}

type OddsState = State<(Arc<Tables>, Arc<Switches>)>;

/// The odds routes, sharing the tables with the rest of the API.
pub fn router(tables: Arc<Tables>) -> Router {
    let switches = match Switches::open(tables.store().path()) {
        Ok(s) => s,
        Err(e) => {
            // Odds are an extra: without their table the switch starts off and says why on use.
            eprintln!("odds switches unavailable: {}", e.message);
            Switches {
                db: tables.store().path().to_path_buf(),
                on: Mutex::new(HashSet::new()),
                computed: Mutex::new(HashMap::new()),
            }
        }
    };
    Router::new()
        .route("/api/tables/{id}/odds", get(odds).put(switch))
        .with_state((tables, Arc::new(switches)))
}

async fn odds(
    State((tables, switches)): OddsState,
    Path(id): Path<String>,
    headers: HeaderMap,
    Query(params): Query<HashMap<String, String>>,
) -> Result<Json<Value>, ApiError> {
    let key = key_of(&headers, &params)?;
    let as_seat = parse_as(params.get("as").map(String::as_str))?;
    let table = tables.get(&id)?;
    let (access, update) = table.update_for(&key, as_seat, usize::MAX).await?;
    let enabled = switches.is_on(&id);
    let seat = access.seat.filter(|_| !access.suspended);
    let (Some(seat), true) = (seat, enabled) else {
        return Ok(Json(json!({ "enabled": enabled, "odds": null })));
    };
    let Some(hook) = tables.entry(table.ruleset).and_then(|e| e.odds) else {
        return Ok(Json(json!({ "enabled": enabled, "odds": null })));
    };
    let key = (id.clone(), seat, update.event_count);
    let known = switches
        .computed
        .lock()
        .ok()
        .and_then(|c| c.get(&key).cloned());
    let computed = match known {
        Some(v) => v,
        None => {
            let view = update.view;
            let v = tokio::task::spawn_blocking(move || hook(&view, seat))
                .await
                .map_err(|e| ApiError::storage(format!("the odds could not be computed: {e}")))?;
            if let Ok(mut c) = switches.computed.lock() {
                if c.len() >= REMEMBERED {
                    c.clear();
                }
                c.insert(key, v.clone());
            }
            v
        }
    };
    Ok(Json(json!({
        "enabled": true,
        "event_count": update.event_count,
        "odds": computed,
    })))
}

async fn switch(
    State((tables, switches)): OddsState,
    Path(id): Path<String>,
    headers: HeaderMap,
    Query(params): Query<HashMap<String, String>>,
    body: Bytes,
) -> Result<Json<Value>, ApiError> {
    let access = access_from(&tables, &id, &headers, &params).await?;
    if access.rights.role != Role::Owner {
        return Err(ApiError::forbidden(
            "only the GM (the table's owner) can switch odds on or off",
        ));
    }
    let body: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
    let enabled = body
        .get("enabled")
        .and_then(Value::as_bool)
        .ok_or_else(|| ApiError::malformed("send {\"enabled\": true} or {\"enabled\": false}"))?;
    switches.set(&id, enabled).await?;
    Ok(Json(json!({ "enabled": enabled })))
}
