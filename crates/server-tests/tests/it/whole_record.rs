//! A record is the whole game or says it is not (issue 37): a finished record cut short is only
//! partly verified; a reveal of another secret, a top-level field that is not the table's and a
//! reader the record was not made for fail; and the heads a participant saw during play catch a
//! chain forged whole, even at a table without chance, where a new secret rebuilds everything.

use serde_json::{Value, json};

use crate::client::*;
use clash_server::export::{Report, Witness, read_seen, verify, verify_seen};
use clash_server::log::{chain, commitment, digest, hex, unhex};

/// The verdict as `clash verify` gives it.
fn verdict(report: &Report) -> &'static str {
    match (report.ok(), report.unchecked.is_empty()) {
        (false, _) => "failed",
        (true, true) => "verified",
        (true, false) => "partly",
    }
}

fn check(doc: &Value) -> Report {
    verify(doc, &catalogue(), &[])
}

/// Every head a key was shown, with its position, as the table page keeps them.
async fn head(app: &axum::Router, t: &Table) -> Witness {
    let uri = routes::EVENTS
        .at([&t.id])
        .key(&t.spectator)
        .query("after", 0);
    let (_, events) = api(app, uri).await;
    Witness {
        table: Some(t.id.clone()),
        pos: Some(events["event_count"].as_u64().unwrap() - 1),
        hash: events["head"].as_str().unwrap().to_string(),
    }
}

/// A sealed duel played without chance (two words committed, then announced), its heads seen
/// after each step, then closed: the GM's and the spectator's records.
async fn played(app: &axum::Router) -> (Table, Vec<Witness>, Value, Value) {
    let t = table(app).await;
    let whisper = Line {
        text: "between us".into(),
        to_gm: true,
        ..Line::default()
    };
    let uri = routes::CHAT.at([&t.id]).key(&t.p1);
    assert_eq!(api(app, uri.json(&whisper)).await.0, 204);
    let mut seen = vec![head(app, &t).await];
    for (key, command) in [
        (&t.p1, json!({"type": "commit", "word": "apple"})),
        (&t.p2, json!({"type": "commit", "word": "pear"})),
        (&t.owner, json!({"type": "announce"})),
    ] {
        let (status, body) = send(app, &t, key, command).await;
        assert_eq!(status, 200, "{body}");
        seen.push(head(app, &t).await);
    }
    let close = routes::CLOSE.at([&t.id]).key(&t.owner);
    assert_eq!(api(app, close).await.0, 204);
    let record = |key: String| {
        let uri = routes::EXPORT.at([&t.id]).key(&key);
        async move { api(app, uri).await.1 }
    };
    let (gm, watcher) = (
        record(t.owner.clone()).await,
        record(t.spectator.clone()).await,
    );
    (t, seen, gm, watcher)
}

/// Recompute every hash of a revealed record from its content, as someone who knows `secret`
/// would after changing an entry.
fn rechain(doc: &mut Value, secret: &[u8]) {
    let table = doc["table"].as_str().unwrap().to_string();
    let mut head = [0u8; 32];
    for (pos, item) in doc["entries"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .enumerate()
    {
        let d = digest(secret, &table, pos as u64, &item["entry"]);
        head = chain(&head, &d);
        item["hash"] = json!(hex(&head));
    }
    doc["head"] = json!(hex(&head));
}

fn secret(doc: &Value) -> Vec<u8> {
    unhex(doc["secret"].as_str().unwrap()).unwrap()
}

#[tokio::test]
async fn a_finished_record_cut_short_is_only_partly_verified() {
    let s = server();
    let (_, _, gm, _) = played(&s.app).await;
    let whole = check(&gm);
    assert_eq!(verdict(&whole), "verified", "{whole:?}");
    assert!(
        whole.verified.iter().any(|l| l.contains("the whole game")),
        "{whole:?}"
    );
    for cut in [1, 2, 5] {
        let mut doc = gm.clone();
        let entries = doc["entries"].as_array_mut().unwrap();
        entries.truncate(entries.len() - cut);
        let last = entries.last().unwrap()["hash"].clone();
        doc["head"] = last;
        let report = check(&doc);
        assert_eq!(verdict(&report), "partly", "cut {cut}: {report:?}");
        assert!(
            report
                .unchecked
                .iter()
                .any(|u| u.contains("the end of the table")),
            "cut {cut}: {report:?}"
        );
    }
}

#[tokio::test]
async fn a_reveal_of_another_secret_fails_even_with_the_chain_rebuilt() {
    let s = server();
    let (_, _, gm, _) = played(&s.app).await;
    let mut doc = gm.clone();
    let last = doc["entries"].as_array().unwrap().len() - 1;
    assert_eq!(
        doc["entries"][last]["entry"]["event"]["type"],
        "secret_revealed"
    );
    doc["entries"][last]["entry"]["event"]["secret"] = json!("11".repeat(32));
    rechain(&mut doc, &secret(&gm));
    let report = check(&doc);
    assert_eq!(verdict(&report), "failed", "{report:?}");
    assert!(
        report.failures[0].starts_with(&format!("entry {last} (the reveal of the secret)")),
        "{report:?}"
    );
}

#[tokio::test]
async fn every_top_level_field_is_the_tables_or_the_record_says_so() {
    let s = server();
    let (_, _, gm, watcher) = played(&s.app).await;
    for (field, value) in [
        ("title", json!("Another table")),
        ("ruleset", json!("triforce")),
        ("chance", json!("legacy")),
    ] {
        let mut doc = gm.clone();
        doc[field] = value;
        let report = check(&doc);
        assert_eq!(verdict(&report), "failed", "{field}: {report:?}");
        assert!(report.failures[0].contains(field), "{report:?}");
    }
    // The spectator's record withholds the whisper: it was not made for the GM, and one with
    // the whisper whole was not made for a spectator.
    let mut doc = watcher.clone();
    doc["exported_as"] = json!("gm");
    assert_eq!(verdict(&check(&doc)), "failed");
    let mut doc = gm.clone();
    doc["exported_as"] = json!("spectator");
    let report = check(&doc);
    assert!(report.failures[0].contains("whisper"), "{report:?}");
    doc["exported_as"] = json!("the host");
    assert_eq!(verdict(&check(&doc)), "failed");
    // A field no record has is vouched for by nothing.
    let mut doc = gm.clone();
    doc["winner"] = json!("Ada");
    let report = check(&doc);
    assert_eq!(verdict(&report), "partly", "{report:?}");
    assert!(report.unchecked[0].contains("\"winner\""));
    assert_eq!(verdict(&check(&watcher)), "verified");
}

#[tokio::test]
async fn heads_seen_during_play_catch_a_chain_forged_whole_without_chance() {
    let s = server();
    let (t, seen, gm, _) = played(&s.app).await;
    assert_eq!(verdict(&verify_seen(&gm, &catalogue(), &seen)), "verified");
    // The host forges the game: other words, a new secret and commitment, every hash rebuilt.
    let forged_secret = [7u8; 32];
    let mut doc = gm.clone();
    let sealed = hex(&commitment(&forged_secret));
    doc["commitment"] = json!(sealed);
    doc["secret"] = json!(hex(&forged_secret));
    let text = doc.to_string().replace("apple", "grape");
    let mut doc: Value = serde_json::from_str(&text).unwrap();
    doc["entries"][0]["entry"]["event"]["commitment"] = json!(sealed);
    let last = doc["entries"].as_array().unwrap().len() - 1;
    doc["entries"][last]["entry"]["event"]["secret"] = json!(hex(&forged_secret));
    rechain(&mut doc, &forged_secret);
    assert!(doc.to_string().contains("grape"));
    // Alone, it is a perfect record: nothing in it is out of place.
    assert_eq!(verdict(&check(&doc)), "verified", "{:?}", check(&doc));
    // Against what a participant saw, the history was rewritten.
    let report = verify_seen(&doc, &catalogue(), &seen);
    assert_eq!(verdict(&report), "failed");
    assert!(
        report.failures[0].contains("the log's history was rewritten"),
        "{report:?}"
    );
    // The page's file of heads reads back as the same witnesses.
    let file = json!({"format": "clash-seen-heads/1", "table": t.id,
        "heads": seen.iter().map(|w| json!({"pos": w.pos, "hash": w.hash})).collect::<Vec<_>>()});
    assert_eq!(read_seen(&file.to_string()).unwrap(), seen);
    // A record cut before a head that was seen fails too, and heads from another table are
    // not this record's.
    let mut cut = gm.clone();
    cut["entries"].as_array_mut().unwrap().truncate(2);
    cut["head"] = cut["entries"][1]["hash"].clone();
    let report = verify_seen(&cut, &catalogue(), &seen);
    assert!(
        report.failures[0].contains("cut from its end"),
        "{report:?}"
    );
    let mut elsewhere = seen.clone();
    elsewhere[0].table = Some("another".into());
    let report = verify_seen(&gm, &catalogue(), &elsewhere);
    assert!(report.failures[0].contains("table another"), "{report:?}");
}
