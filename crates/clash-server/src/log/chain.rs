//! The hash chain: canonical JSON, each entry's salt and digest, the chain from one entry to
//! the next, the commitment to the server secret, and hex. docs/verification.md specifies each
//! byte for byte.

use std::fmt::Write as _;

use hmac::{Hmac, KeyInit, Mac};
use serde_json::Value;
use sha2::{Digest, Sha256};

use super::Entry;

/// 32 bytes of hash.
pub type Hash = [u8; 32];

/// Compact JSON with object keys sorted: the form entries are hashed in.
pub fn canonical(value: &Value) -> String {
    let mut out = String::new();
    write_canonical(value, &mut out);
    out
}

fn write_canonical(value: &Value, out: &mut String) {
    match value {
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            out.push('{');
            for (i, k) in keys.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&Value::String((*k).clone()).to_string());
                out.push(':');
                write_canonical(&map[k.as_str()], out);
            }
            out.push('}');
        }
        Value::Array(items) => {
            out.push('[');
            for (i, v) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_canonical(v, out);
            }
            out.push(']');
        }
        scalar => out.push_str(&scalar.to_string()),
    }
}

/// The salt of the entry at `pos` (see the module docs).
pub fn salt(secret: &[u8], table: &str, pos: u64) -> Hash {
    let mut mac =
        <Hmac<Sha256> as KeyInit>::new_from_slice(secret).expect("HMAC accepts any key length");
    mac.update(b"clash-entry-salt-v1\0");
    mac.update(table.as_bytes());
    mac.update(b"\0");
    mac.update(&pos.to_be_bytes());
    mac.finalize().into_bytes().into()
}

/// The digest of an entry's JSON at `pos`.
pub fn digest(secret: &[u8], table: &str, pos: u64, entry: &Value) -> Hash {
    let mut h = Sha256::new();
    h.update(b"clash-entry-v1\0");
    h.update(salt(secret, table, pos));
    h.update(canonical(entry).as_bytes());
    h.finalize().into()
}

/// The chain hash of an entry with digest `digest` following `previous`.
pub fn chain(previous: &Hash, digest: &Hash) -> Hash {
    let mut h = Sha256::new();
    h.update(b"clash-chain-v1\0");
    h.update(previous);
    h.update(digest);
    h.finalize().into()
}

/// The commitment to a secret: its SHA-256.
pub fn commitment(secret: &[u8]) -> Hash {
    Sha256::digest(secret).into()
}

pub fn hex(bytes: &[u8]) -> String {
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        let _ = write!(s, "{b:02x}");
    }
    s
}

/// Bytes from lowercase or uppercase hex; `None` if it is not hex.
pub fn unhex(text: &str) -> Option<Vec<u8>> {
    if !text.len().is_multiple_of(2) {
        return None;
    }
    (0..text.len())
        .step_by(2)
        .map(|i| {
            text.get(i..i + 2)
                .and_then(|b| u8::from_str_radix(b, 16).ok())
        })
        .collect()
}

/// A hash from its hex form.
pub fn unhex_hash(text: &str) -> Option<Hash> {
    unhex(text).and_then(|b| b.try_into().ok())
}

/// Append entries to a chain: each entry's JSON with its hash, the new head last.
pub struct Chainer<'a> {
    pub secret: &'a [u8],
    pub table: &'a str,
    pub head: Hash,
    pub next: u64,
}

impl Chainer<'_> {
    /// Hash `entry` as the next entry; returns its position, JSON and hash.
    pub fn push(&mut self, entry: &Entry) -> (u64, Value, Hash) {
        let body = serde_json::to_value(entry).unwrap_or(Value::Null);
        let pos = self.next;
        self.head = chain(&self.head, &digest(self.secret, self.table, pos, &body));
        self.next += 1;
        (pos, body, self.head)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn canonical_json_sorts_keys_at_every_level() {
        let a: Value =
            serde_json::from_str(r#"{"b": 1, "a": {"d": [1, {"z": 0, "y": "é"}], "c": null}}"#)
                .unwrap();
        assert_eq!(
            canonical(&a),
            r#"{"a":{"c":null,"d":[1,{"y":"é","z":0}]},"b":1}"#
        );
    }

    #[test]
    fn a_chain_changes_with_any_entry_and_any_salt() {
        let e = json!({"kind": "event", "event": {"roll": 4}});
        let d = digest(b"s", "t", 0, &e);
        assert_ne!(d, digest(b"s", "t", 1, &e), "position");
        assert_ne!(d, digest(b"S", "t", 0, &e), "secret");
        assert_ne!(
            d,
            digest(
                b"s",
                "t",
                0,
                &json!({"kind": "event", "event": {"roll": 5}})
            ),
            "content"
        );
        let zero = [0u8; 32];
        assert_ne!(chain(&zero, &d), chain(&[1u8; 32], &d), "the previous hash");
    }

    #[test]
    fn hex_round_trips() {
        assert_eq!(unhex(&hex(&[0, 15, 255])), Some(vec![0, 15, 255]));
        assert_eq!(unhex("zz"), None);
        assert_eq!(unhex("abc"), None);
    }
}
