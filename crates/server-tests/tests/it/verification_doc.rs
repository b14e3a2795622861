//! The test vectors of docs/verification.md, recomputed with the server's own code (the log's
//! salts, digests and chain; clash-core's chance), so the spec cannot drift from what the server
//! does. Each block of vectors is rebuilt here and must appear in the spec exactly; on a
//! mismatch the test prints the block as it should read. e2e/tests/verify-doc.test.mjs rebuilds
//! the same blocks with the page's verifier (verify.js), which shares no code with this one.

use std::fmt::Write as _;

use clash_core::{ChanceInputs, DerivedRandomness, Randomness, command_seed};
use clash_server::log::{canonical, chain, commitment, digest, hex, salt, unhex};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha20Rng;
use serde_json::Value;

const SPEC: &str = include_str!("../../../../docs/verification.md");
const EXAMPLE: &str = include_str!("../../../../docs/verification-example.json");

/// The canonical-JSON vector's input (the spec shows it, and its canonical form).
const CANONICAL_INPUT: &str = r#"{"b":[1.0,1e2,-0,0.5,1e21,1.5e-7,1e-5,1e15,1e16,123.456,18446744073709551615,18446744073709551616,-9223372036854775808,-9223372036854775809,3E-10,2.5e+3],"a":"é\u00e9\u0001\t/\\\"","B":null,"é":true,"z":{"y":[],"x":{}}}"#;

/// The key of the ChaCha20 and rejection vectors: the bytes 0, 1, …, 31.
fn key() -> [u8; 32] {
    std::array::from_fn(|i| i as u8)
}

/// A pick among `n` from `rng`, as the spec says: every number drawn, and the result.
fn below(rng: &mut ChaCha20Rng, n: u64) -> (Vec<u64>, u64) {
    let limit = u128::from(u64::MAX) + 1 - (u128::from(u64::MAX) + 1) % u128::from(n);
    let mut drawn = Vec::new();
    loop {
        let x = rng.next_u64();
        drawn.push(x);
        if u128::from(x) < limit {
            return (drawn, x % n);
        }
    }
}

fn assert_in_spec(name: &str, block: &str) {
    assert!(
        SPEC.contains(block),
        "docs/verification.md should hold the {name} block exactly as:\n{block}"
    );
}

fn record() -> Value {
    serde_json::from_str(EXAMPLE).expect("the example record is JSON")
}

fn secret(record: &Value) -> Vec<u8> {
    unhex(record["secret"].as_str().expect("revealed")).expect("hex")
}

/// How the vectors name an entry: `table created`, `event rolled`, `command 2 by p1`.
fn kind(entry: &Value) -> String {
    match entry["kind"].as_str() {
        Some("command") => format!(
            "command {} by {}",
            entry["n"],
            entry["seat"].as_str().unwrap_or("?")
        ),
        Some("event") => format!("event {}", entry["event"]["type"].as_str().unwrap_or("?")),
        Some(other) => format!("{other} {}", entry["event"]["type"].as_str().unwrap_or("?")),
        None => "?".into(),
    }
}

fn chain_block(record: &Value) -> String {
    let table = record["table"].as_str().unwrap();
    let secret = secret(record);
    let mut out = String::new();
    let _ = writeln!(out, "table       {table}");
    let _ = writeln!(out, "secret      {}", hex(&secret));
    let _ = writeln!(out, "commitment  {}", hex(&commitment(&secret)));
    let mut head = [0u8; 32];
    for (pos, item) in record["entries"].as_array().unwrap().iter().enumerate() {
        let entry = &item["entry"];
        let d = digest(&secret, table, pos as u64, entry);
        head = chain(&head, &d);
        assert_eq!(
            item["hash"].as_str(),
            Some(hex(&head).as_str()),
            "entry {pos}"
        );
        let _ = writeln!(out, "entry {pos}: {}", kind(entry));
        let _ = writeln!(out, "  json    {}", canonical(entry));
        let _ = writeln!(out, "  salt    {}", hex(&salt(&secret, table, pos as u64)));
        let _ = writeln!(out, "  digest  {}", hex(&d));
        let _ = writeln!(out, "  hash    {}", hex(&head));
    }
    assert_eq!(record["head"].as_str(), Some(hex(&head).as_str()));
    let _ = write!(out, "head        {}", hex(&head));
    out
}

/// The HMAC message of a command's seed, as the spec lays it out.
fn message(table: &str, n: u64, seeds: &[(String, String)]) -> Vec<u8> {
    let mut m = b"clash-chance-v1\0".to_vec();
    m.extend_from_slice(table.as_bytes());
    m.push(0);
    m.extend_from_slice(&n.to_be_bytes());
    for (who, seed) in seeds {
        m.extend_from_slice(who.as_bytes());
        m.push(0);
        m.extend_from_slice(seed.as_bytes());
        m.push(0);
    }
    m
}

/// One command's derivation: its seed, then each draw from the numbers it takes.
fn command_lines(
    out: &mut String,
    table: &str,
    secret: &[u8],
    seeds: &[(String, String)],
    pos: usize,
    c: &Value,
) {
    let n = c["n"].as_u64().unwrap();
    let inputs = ChanceInputs {
        secret,
        table,
        command: n,
        seeds,
    };
    let seed = command_seed(&inputs);
    let in_force: Vec<String> = seeds.iter().map(|(who, s)| format!("{who}={s}")).collect();
    let _ = writeln!(
        out,
        "command {n} (entry {pos}, {}), seeds in force: {}",
        c["seat"].as_str().unwrap(),
        in_force.join(" ")
    );
    let _ = writeln!(out, "  message {}", hex(&message(table, n, seeds)));
    let _ = writeln!(out, "  seed    {}", hex(&seed));
    let mut words = ChaCha20Rng::from_seed(seed);
    let mut server = DerivedRandomness::new(&inputs);
    for (i, d) in c["draws"].as_array().unwrap().iter().enumerate() {
        let roll = d["kind"] == "roll";
        let k = if roll {
            d["sides"].as_u64()
        } else {
            d["count"].as_u64()
        }
        .unwrap();
        let (drawn, r) = below(&mut words, k);
        let numbers: Vec<String> = drawn.iter().map(|x| format!("{x:016x}")).collect();
        let x = numbers.join(" (rejected) ");
        if roll {
            assert_eq!(server.roll(k as u32), Ok(1 + r as u32));
            assert_eq!(
                d["face"].as_u64(),
                Some(1 + r),
                "entry {pos}, draw {}",
                i + 1
            );
            let _ = writeln!(
                out,
                "  draw {}: roll d{k}: x = {x}; 1 + x mod {k} = {}",
                i + 1,
                1 + r
            );
        } else {
            assert_eq!(
                server.choose(k as usize, &|_| String::new()),
                Ok(r as usize)
            );
            assert_eq!(d["index"].as_u64(), Some(r), "entry {pos}, draw {}", i + 1);
            let label = d["label"].as_str().unwrap();
            let _ = writeln!(
                out,
                "  draw {}: pick among {k}: x = {x}; x mod {k} = {r} {label:?}",
                i + 1
            );
        }
    }
}

fn chance_block(record: &Value) -> String {
    let table = record["table"].as_str().unwrap();
    let secret = secret(record);
    let mut seeds = std::collections::BTreeMap::<String, String>::new();
    let mut out = String::new();
    for (pos, item) in record["entries"].as_array().unwrap().iter().enumerate() {
        let entry = &item["entry"];
        match (entry["kind"].as_str(), entry["event"]["type"].as_str()) {
            (Some("table"), Some("seed_added")) => {
                let by = entry["event"]["by"].as_str().unwrap().to_string();
                seeds.insert(by, entry["event"]["seed"].as_str().unwrap().to_string());
            }
            (Some("command"), _) => {
                let in_force: Vec<(String, String)> = seeds.clone().into_iter().collect();
                command_lines(&mut out, table, &secret, &in_force, pos, entry);
            }
            _ => {}
        }
    }
    out.trim_end().to_string()
}

fn stream_block() -> String {
    let mut out = String::new();
    let mut rng = ChaCha20Rng::from_seed(key());
    let xs: Vec<String> = (0..8).map(|_| format!("{:016x}", rng.next_u64())).collect();
    let _ = writeln!(out, "key     {}", hex(&key()));
    let _ = writeln!(out, "x0..x3  {}", xs[..4].join(" "));
    let _ = writeln!(out, "x4..x7  {}", xs[4..].join(" "));
    // One pick after another, from the start of the stream; the large ones reject a number.
    let mut rng = ChaCha20Rng::from_seed(key());
    for n in [6u64, 1 << 63 | 1, 3 << 62 | 1, 1 << 63 | 1] {
        let (drawn, r) = below(&mut rng, n);
        let numbers: Vec<String> = drawn.iter().map(|x| format!("{x:016x}")).collect();
        let _ = writeln!(
            out,
            "pick among {n}: x = {}; x mod {n} = {r}",
            numbers.join(" (rejected) ")
        );
    }
    out.trim_end().to_string()
}

#[test]
fn the_spec_holds_the_example_tables_chain() {
    assert_in_spec("chain", &chain_block(&record()));
}

#[test]
fn the_spec_holds_the_example_tables_chance() {
    assert_in_spec("chance", &chance_block(&record()));
}

#[test]
fn the_spec_holds_the_chacha20_and_rejection_vectors() {
    assert_in_spec("stream", &stream_block());
}

#[test]
fn the_spec_holds_the_canonical_json_vector() {
    let value: Value = serde_json::from_str(CANONICAL_INPUT).unwrap();
    let block = format!("input   {CANONICAL_INPUT}\noutput  {}", canonical(&value));
    assert_in_spec("canonical JSON", &block);
}

#[test]
fn the_example_record_verifies_in_full() {
    let report = clash_server::export::verify(&record(), &clash_catalogue::rulesets(), &[]);
    assert!(report.ok() && report.unchecked.is_empty(), "{report:?}");
}

// ---- Records that are not the whole game (docs/verification-vectors/) ---------------------

const VERDICTS: &str = include_str!("../../../../docs/verification-vectors/verdicts.json");

fn vector(file: &str) -> Value {
    let path = format!(
        "{}/../../docs/verification-vectors/{file}",
        env!("CARGO_MANIFEST_DIR")
    );
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// Recompute the hashes from entry `from` on, with `secret`, and the head.
fn rechain(doc: &mut Value, secret: &[u8]) {
    let table = doc["table"].as_str().unwrap().to_string();
    let mut head = [0u8; 32];
    for (pos, item) in doc["entries"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .enumerate()
    {
        head = chain(&head, &digest(secret, &table, pos as u64, &item["entry"]));
        item["hash"] = Value::String(hex(&head));
    }
    doc["head"] = Value::String(hex(&head));
}

/// Each vector made from the example as verdicts.json says.
fn made(file: &str) -> Value {
    let example = record();
    let secret = secret(&example);
    let table = example["table"].as_str().unwrap().to_string();
    let mut doc = example.clone();
    match file {
        "cut.json" => {
            let entries = doc["entries"].as_array_mut().unwrap();
            entries.truncate(15);
            doc["head"] = entries[14]["hash"].clone();
        }
        "mismatched-reveal.json" => {
            doc["entries"][16]["entry"]["event"]["secret"] = Value::String("11".repeat(32));
            rechain(&mut doc, &secret);
        }
        _ => {
            doc.as_object_mut().unwrap().remove("secret");
            doc["exported_as"] = Value::String("spectator".into());
            let items: Vec<Value> = example["entries"].as_array().unwrap()[..15]
                .iter()
                .enumerate()
                .map(|(pos, item)| before_the_end(&table, &secret, pos, item))
                .collect();
            doc["head"] = items[14]["hash"].clone();
            doc["entries"] = Value::Array(items);
        }
    }
    doc
}

/// An item as a spectator's record gives it before the end.
fn before_the_end(table: &str, secret: &[u8], pos: usize, item: &Value) -> Value {
    let entry = &item["entry"];
    let mut out = serde_json::json!({"pos": pos, "hash": item["hash"],
        "digest": hex(&digest(secret, table, pos as u64, entry))});
    match (entry["kind"].as_str(), entry["event"]["type"].as_str()) {
        (Some("table"), Some("created")) => {
            let mut seen = entry.clone();
            seen["event"]["setup"] = Value::Null;
            out["seen"] = seen;
        }
        (Some("command"), _) => {
            out["seen"] = serde_json::json!({"kind": "command", "n": entry["n"],
                "seat": entry["seat"], "by": entry["by"]});
        }
        (Some("event"), _) => out["hidden"] = Value::Bool(true),
        _ => out["entry"] = entry.clone(),
    }
    out
}

#[test]
fn the_vectors_are_the_example_changed_as_the_spec_says() {
    let verdicts: Value = serde_json::from_str(VERDICTS).unwrap();
    for v in verdicts.as_array().unwrap() {
        let file = v["file"].as_str().unwrap();
        assert_eq!(vector(file), made(file), "{file}");
        assert!(
            SPEC.contains(&format!("[{file}](verification-vectors/{file})")),
            "{file}"
        );
        assert!(
            SPEC.contains(v["made"].as_str().unwrap()),
            "{file}: {}",
            v["made"]
        );
    }
}

#[test]
fn clash_verify_gives_each_vector_its_verdict() {
    let verdicts: Value = serde_json::from_str(VERDICTS).unwrap();
    for v in verdicts.as_array().unwrap() {
        let file = v["file"].as_str().unwrap();
        let report = clash_server::export::verify(&vector(file), &clash_catalogue::rulesets(), &[]);
        let verdict = match (report.ok(), report.unchecked.is_empty()) {
            (false, _) => "failed",
            (true, true) => "verified",
            (true, false) => "partly",
        };
        assert_eq!(verdict, v["verdict"], "{file}: {report:?}");
        if let Some(because) = v["because"].as_str() {
            let said = report.unchecked.join(" ").to_lowercase();
            assert!(said.contains(because), "{file}: {report:?}");
        }
        if let Some(entry) = v["entry"].as_u64() {
            assert!(
                report.failures[0].starts_with(&format!("entry {entry} ")),
                "{report:?}"
            );
        }
    }
}
