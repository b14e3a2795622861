//! Witnessed heads: the log's heads a participant was shown during play, each at its position.
//! Every table page keeps those it is sent and can hand them over as a file
//! (`clash-seen-heads/1`); a record must hold each one at its place. A server that rewrote the
//! log after the fact — even a table without chance, whose whole chain it can rebuild from a new
//! secret — cannot match a head someone kept.

use serde_json::Value;

use super::report::{RecordEntry, Report};
use crate::log::hex;

/// The format name of a file of witnessed heads.
pub const SEEN_FORMAT: &str = "clash-seen-heads/1";

/// One head a participant was shown: the hash of the log's entry `pos` (when known), at the
/// table `table` (when the file says).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Witness {
    pub table: Option<String>,
    pub pos: Option<u64>,
    pub hash: String,
}

impl Witness {
    /// A head noted by hand (its position unknown).
    pub fn hash(hash: &str) -> Witness {
        Witness {
            table: None,
            pos: None,
            hash: hash.to_lowercase(),
        }
    }
}

/// Whether `text` is a head's hash (64 hex digits) rather than the name of a file.
pub fn is_hash(text: &str) -> bool {
    text.len() == 64 && text.bytes().all(|b| b.is_ascii_hexdigit())
}

/// The heads of a file a table page saved: `{"format": "clash-seen-heads/1", "table": "…",
/// "heads": [{"pos": 12, "hash": "…"}, …]}` (or that list alone).
pub fn read_seen(text: &str) -> Result<Vec<Witness>, String> {
    let doc: Value =
        serde_json::from_str(text).map_err(|e| format!("it is not a file of heads ({e})"))?;
    let (table, list) = match &doc {
        Value::Array(list) => (None, list),
        Value::Object(o) if o.get("format").and_then(Value::as_str) == Some(SEEN_FORMAT) => (
            o.get("table").and_then(Value::as_str).map(str::to_string),
            o.get("heads")
                .and_then(Value::as_array)
                .ok_or("it has no \"heads\" list")?,
        ),
        _ => {
            return Err(format!(
                "it is not a file of heads (\"format\": \"{SEEN_FORMAT}\")"
            ));
        }
    };
    list.iter()
        .enumerate()
        .map(|(i, head)| {
            let hash = head["hash"].as_str().or(head.as_str()).unwrap_or_default();
            if !is_hash(hash) {
                return Err(format!("head {} is not a hash of 64 hex digits", i + 1));
            }
            Ok(Witness {
                table: table.clone(),
                pos: head["pos"].as_u64(),
                hash: hash.to_lowercase(),
            })
        })
        .collect()
}

/// Every witnessed head must be the record's hash at its position (anywhere, for one noted
/// without a position).
pub(super) fn check_seen(
    doc: &Value,
    items: &[RecordEntry],
    seen: &[Witness],
    report: &mut Report,
) {
    let table = doc["table"].as_str().unwrap_or_default();
    let hashes: Vec<String> = items
        .iter()
        .map(|i| i.hash.map(|h| hex(&h)).unwrap_or_default())
        .collect();
    for w in seen {
        if let Some(other) = w.table.as_deref().filter(|t| *t != table) {
            report.failures.push(format!(
                "the heads given were seen at table {other}, not at this record's table {table}"
            ));
            return;
        }
        let found = match w.pos {
            Some(pos) => match hashes.get(pos as usize) {
                None => Err(format!(
                    "the head seen at entry {pos} is past the end of this record ({} entries): entries were cut from its end",
                    hashes.len()
                )),
                Some(h) if *h == w.hash => Ok(pos as usize),
                Some(_) => Err(format!(
                    "entry {pos} is not the one seen during play (the head seen there was {}): the log's history was rewritten",
                    w.hash
                )),
            },
            None => hashes.iter().position(|h| *h == w.hash).ok_or(format!(
                "the head {} you noted is not in this record: its history was rewritten",
                w.hash
            )),
        };
        if let Err(why) = found {
            report.failures.push(why);
            return;
        }
    }
    match seen {
        [] => {}
        [one] => report.verified.push(format!(
            "the head {} seen during play is in this record{}",
            one.hash,
            one.pos
                .map(|p| format!(", at entry {p}"))
                .unwrap_or_default()
        )),
        many => report.verified.push(format!(
            "the {} heads seen during play are all in this record, each at its place",
            many.len()
        )),
    }
}
