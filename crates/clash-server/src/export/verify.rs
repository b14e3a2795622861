//! Checking a record: its fields against the table's creation, the secret against its
//! commitment, the hash chain, the heads a participant saw ([`super::seen`]), the reader it
//! names and its end ([`super::whole`]), and (through [`super::replay`]) every roll, draw and
//! event.

use clash_core::RulesetEntry;
use serde_json::Value;

use super::FORMAT;
use super::replay::replay;
use super::report::{RecordEntry, Report};
use super::seen::{Witness, check_seen};
use super::whole::{check_end, check_fields, check_reader, entry};
use crate::log::{Entry, Hash, TableEvent, chain, commitment, digest, hex, unhex, unhex_hash};

/// Check a record. `seen_heads` are head hashes a player noted during play: each must be one
/// of the record's hashes.
pub fn verify(doc: &Value, catalogue: &[RulesetEntry], seen_heads: &[String]) -> Report {
    let seen: Vec<Witness> = seen_heads.iter().map(|h| Witness::hash(h)).collect();
    verify_seen(doc, catalogue, &seen)
}

/// Check a record against the heads participants witnessed (see [`super::seen`]), in the order
/// docs/verification.md gives, reporting every failure found (the page's verifier stops at the
/// first).
pub fn verify_seen(doc: &Value, catalogue: &[RulesetEntry], seen: &[Witness]) -> Report {
    let mut report = Report::default();
    if doc.get("format").and_then(Value::as_str) != Some(FORMAT) {
        report.failures.push(format!(
            "this is not a Clash table record (expected \"format\": \"{FORMAT}\")"
        ));
        return report;
    }
    let table = doc["table"].as_str().unwrap_or_default().to_string();
    let items = match read_items(doc) {
        Ok(items) => items,
        Err(e) => {
            report.failures.push(e);
            return report;
        }
    };
    check_fields(doc, entry(&items[0]).as_ref(), &mut report);
    let secret = check_secret(doc, &items, &mut report);
    check_chain(doc, &table, secret.as_deref(), &items, &mut report);
    check_seen(doc, &items, seen, &mut report);
    // What follows depends on the secret alone: a broken chain does not stop the replay, which
    // then names the draw or event that was changed.
    match &secret {
        Some(secret) => {
            check_end(&items, secret, &mut report);
            replay(&table, secret, &items, catalogue, &mut report)
        }
        None => report.unchecked.push(
            "rolls, draws and events, the table's id and the end of the table: this record was taken before \
             the table ended, so it holds no secret; export it again once the table has ended"
                .into(),
        ),
    }
    if report.ok() {
        check_reader(doc, &items, secret.is_some(), &mut report);
    }
    report
}

fn read_items(doc: &Value) -> Result<Vec<RecordEntry>, String> {
    let list = doc["entries"]
        .as_array()
        .ok_or("the record has no \"entries\" list")?;
    let mut items = Vec::with_capacity(list.len());
    for (i, e) in list.iter().enumerate() {
        let pos = e["pos"]
            .as_u64()
            .ok_or(format!("entry {i} has no position"))? as usize;
        if pos != i {
            return Err(format!(
                "entry {i} says it is at position {pos}: entries are missing or out of order"
            ));
        }
        let hash = e["hash"].as_str().and_then(unhex_hash);
        let digest = e["digest"].as_str().and_then(unhex_hash);
        items.push(RecordEntry {
            pos,
            hash,
            digest,
            entry: e.get("entry").cloned(),
            seen: e.get("seen").cloned(),
            withheld: e.get("withheld").and_then(Value::as_bool) == Some(true),
            hidden: e.get("hidden").and_then(Value::as_bool) == Some(true),
        });
    }
    if items.is_empty() {
        return Err("the record has no entries".into());
    }
    Ok(items)
}

/// The secret, if revealed and matching the commitment (else a failure is reported).
fn check_secret(doc: &Value, items: &[RecordEntry], report: &mut Report) -> Option<Vec<u8>> {
    let commitment_text = doc["commitment"].as_str().unwrap_or_default();
    let first = items[0].entry.as_ref().or(items[0].seen.as_ref());
    let created = first.and_then(|e| serde_json::from_value::<Entry>(e.clone()).ok());
    match &created {
        Some(Entry::Table { event: TableEvent::Created { commitment: c, .. } }) if c == commitment_text => {
            if doc.get("secret").is_none() {
                report.verified.push(format!("the table's creation sealed the secret as {c}, the commitment this record gives"));
            }
        }
        Some(Entry::Table { event: TableEvent::Created { .. } }) => report
            .failures
            .push("entry 0 (the table's creation): its commitment differs from the record's \"commitment\"".into()),
        _ => report.failures.push("entry 0 is not the table's creation".into()),
    }
    let text = doc.get("secret")?.as_str().unwrap_or_default();
    let Some(secret) = unhex(text) else {
        report.failures.push("the secret is not hex".into());
        return None;
    };
    if hex(&commitment(&secret)) != commitment_text {
        report.failures.push(format!(
            "the secret does not match the commitment: SHA-256 of the revealed secret is {}, the table committed to {commitment_text}",
            hex(&commitment(&secret))
        ));
        return None;
    }
    report.verified.push(format!("the revealed secret matches the commitment made when the table was created ({commitment_text})"));
    Some(secret)
}

fn check_chain(
    doc: &Value,
    table: &str,
    secret: Option<&[u8]>,
    items: &[RecordEntry],
    report: &mut Report,
) {
    let mut head: Hash = [0; 32];
    let mut private = 0;
    for item in items {
        let digest = match (secret, &item.entry, item.digest) {
            (Some(secret), Some(entry), _) => digest(secret, table, item.pos as u64, entry),
            (Some(_), None, Some(d)) if item.withheld && is_whisper(item.seen.as_ref()) => d,
            // Not this reader's to read (talk between the GM and another player); the replay
            // shows it stood for nothing the rules or the dice depend on.
            (Some(_), None, Some(d)) if item.hidden => {
                private += 1;
                d
            }
            (Some(_), None, _) => {
                report.failures.push(format!(
                    "entry {}: hidden in a record that reveals the secret",
                    item.pos
                ));
                return;
            }
            (None, _, Some(d)) => d,
            (None, _, None) => {
                report
                    .failures
                    .push(format!("entry {}: has no digest", item.pos));
                return;
            }
        };
        head = chain(&head, &digest);
        if item.hash != Some(head) {
            report.failures.push(format!(
                "entry {} ({}): its hash does not follow from its content and the entries before it: this entry was changed",
                item.pos,
                describe(item.entry.as_ref())
            ));
            return;
        }
    }
    if doc["head"].as_str() != Some(hex(&head).as_str()) {
        report.failures.push(format!(
            "the record's head is not the hash of its last entry ({})",
            hex(&head)
        ));
        return;
    }
    let how = if secret.is_some() {
        "each recomputed from its content"
    } else {
        "following the digests given"
    };
    report.verified.push(format!(
        "{} entries chain, {how}, to the head {}",
        items.len(),
        hex(&head)
    ));
    if private > 0 {
        report.verified.push(format!(
            "{private} entries are not given to this record's reader (private talk between the GM and another player): they are followed by their digest alone"
        ));
    }
}

/// Whether `seen` is a whisper (the only kind of entry a revealed record may withhold).
fn is_whisper(seen: Option<&Value>) -> bool {
    matches!(
        seen.and_then(|e| serde_json::from_value::<Entry>(e.clone()).ok()),
        Some(Entry::Table {
            event: TableEvent::Whispered { .. }
        })
    )
}

/// A short description of an entry for messages.
fn describe(entry: Option<&Value>) -> String {
    match entry.and_then(|e| serde_json::from_value::<Entry>(e.clone()).ok()) {
        Some(Entry::Command(c)) => format!("command {} by {}", c.n, c.seat),
        Some(Entry::Event { event }) => format!(
            "event {}",
            event
                .get("type")
                .and_then(Value::as_str)
                .unwrap_or("of the game")
        ),
        Some(Entry::Table { event }) => format!(
            "table event {}",
            serde_json::to_value(&event)
                .ok()
                .and_then(|v| v["type"].as_str().map(str::to_string))
                .unwrap_or_default()
        ),
        None => "unreadable".into(),
    }
}
