//! The SQLite side of the schema runner: the version is the file's `user_version` (as
//! rusqlite_migration kept it before, so every existing file reads as it did), and the data
//! steps carry older files' tables into the table log.

use std::path::Path;

use futures_util::FutureExt;
use rusqlite::{Connection, OptionalExtension, Transaction, params};
use serde_json::Value;

use super::open;
use crate::log::{Chainer, Chance, Entry, TableEvent, commitment, hex, unhex, unhex_hash};
use crate::store::StoreError;
use crate::store::schema::{Data, Schema, Step, upgrade};

/// Bring the database at `path` to the latest schema.
pub fn migrate(path: &Path) -> Result<(), StoreError> {
    let mut db = SqliteSchema(open(path)?);
    // Nothing in SQLite's runner waits (its calls block instead), so its future is done the
    // first time it is polled.
    upgrade(&mut db)
        .now_or_never()
        .unwrap_or_else(|| Err(StoreError::new("migrating the database did not finish")))
        .map(|_| ())
        .map_err(|e| StoreError::new(format!("migrating the database: {}", e.message)))
}

struct SqliteSchema(Connection);

impl Schema for SqliteSchema {
    async fn version(&mut self) -> Result<usize, StoreError> {
        let version: i64 = self.0.query_row("PRAGMA user_version", [], |r| r.get(0))?;
        Ok(usize::try_from(version).unwrap_or(0))
    }

    async fn apply(&mut self, number: usize, step: &'static Step) -> Result<(), StoreError> {
        let tx = self.0.transaction()?;
        tx.execute_batch(step.sqlite)?;
        match step.data {
            None => {}
            Some(Data::LegacyLog) => legacy_log(&tx)?,
            Some(Data::OddsSwitches) => odds_switches(&tx)?,
            Some(Data::OddsToLog) => odds_to_log(&tx)?,
            Some(Data::WarnAt) => warn_at(&tx)?,
        }
        tx.pragma_update(None, "user_version", number as i64)?;
        tx.commit()?;
        Ok(())
    }
}

/// See [`Data::WarnAt`].
fn warn_at(tx: &Transaction<'_>) -> Result<(), StoreError> {
    let has: i64 = tx.query_row(
        "SELECT COUNT(*) FROM pragma_table_info('notify_waits') WHERE name = 'warn_at'",
        [],
        |r| r.get(0),
    )?;
    if has == 0 {
        tx.execute_batch("ALTER TABLE notify_waits ADD COLUMN warn_at INTEGER;")?;
    }
    Ok(())
}

const INSERT_LOG: &str = "INSERT INTO log (table_id, pos, entry, hash) VALUES (?1, ?2, ?3, ?4)";

/// See [`Data::OddsToLog`].
fn odds_to_log(tx: &Transaction<'_>) -> Result<(), StoreError> {
    let tables: Vec<(String, Option<String>)> = tx
        .prepare("SELECT id, secret FROM tables WHERE odds = 1")?
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<Result<_, _>>()?;
    for (id, secret) in tables {
        // A table without a readable secret cannot be loaded anyway; it keeps its log as it is.
        let Some(secret) = secret.as_deref().and_then(unhex) else {
            continue;
        };
        let last: Option<(i64, String)> = tx
            .query_row(
                "SELECT pos, hash FROM log WHERE table_id = ?1 ORDER BY pos DESC LIMIT 1",
                [&id],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()?;
        let Some(head) = last.map_or(Some((0, [0; 32])), |(pos, hash)| {
            unhex_hash(&hash).map(|h| (pos as u64 + 1, h))
        }) else {
            continue;
        };
        let mut chainer = Chainer {
            secret: &secret,
            table: &id,
            head: head.1,
            next: head.0,
        };
        let entry = Entry::Table {
            event: TableEvent::OddsSwitched { enabled: true },
        };
        let (pos, body, hash) = chainer.push(&entry);
        tx.execute(
            INSERT_LOG,
            params![id, pos as i64, body.to_string(), hex(&hash)],
        )?;
    }
    tx.execute_batch("ALTER TABLE tables DROP COLUMN odds;")?;
    Ok(())
}

/// See [`Data::OddsSwitches`].
fn odds_switches(tx: &Transaction<'_>) -> Result<(), StoreError> {
    let exists: bool = tx.query_row(
        "SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'odds_switches')",
        [],
        |r| r.get(0),
    )?;
    if exists {
        tx.execute_batch(
            "UPDATE tables SET odds = 1 WHERE id IN (SELECT table_id FROM odds_switches);
             DROP TABLE odds_switches;",
        )?;
    }
    Ok(())
}

/// See [`Data::LegacyLog`].
fn legacy_log(tx: &Transaction<'_>) -> Result<(), StoreError> {
    let tables: Vec<(String, String, String, String)> = tx
        .prepare("SELECT id, ruleset, title, setup FROM tables")?
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))?
        .collect::<Result<_, _>>()?;
    for (id, ruleset, title, setup) in tables {
        let secret = crate::table::links::new_secret();
        let setup = serde_json::from_str(&setup).unwrap_or(Value::Null);
        let created = TableEvent::Created {
            ruleset,
            title,
            setup,
            commitment: hex(&commitment(&secret)),
            chance: Chance::Legacy,
        };
        let events: Vec<String> = tx
            .prepare("SELECT event FROM events WHERE table_id = ?1 ORDER BY idx")?
            .query_map([&id], |r| r.get(0))?
            .collect::<Result<_, _>>()?;
        let mut chainer = Chainer {
            secret: &secret,
            table: &id,
            head: [0; 32],
            next: 0,
        };
        let mut entries = vec![Entry::Table { event: created }];
        entries.extend(events.iter().map(|e| Entry::Event {
            event: serde_json::from_str(e).unwrap_or(Value::Null),
        }));
        for entry in &entries {
            let (pos, body, hash) = chainer.push(entry);
            tx.execute(
                INSERT_LOG,
                params![id, pos as i64, body.to_string(), hex(&hash)],
            )?;
        }
        tx.execute(
            "UPDATE tables SET secret = ?1 WHERE id = ?2",
            params![hex(&secret), id],
        )?;
    }
    Ok(())
}
