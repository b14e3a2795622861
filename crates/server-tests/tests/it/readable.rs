//! Nothing a person reads at a table shows a raw token: every game of the catalogue is played
//! from each of its ready-made setups through the HTTP API by its seats in turn (the commands
//! the rules offer), and after every command everything each viewer may read — the log's lines,
//! whose move it is, the names of the people, the text picture — is checked for seat ids,
//! indices, bracketed lists and Rust debug text.

use std::collections::BTreeMap;

use axum::Router;
use axum::http::StatusCode;
use serde_json::{Value, json};

use crate::client::*;

/// The first raw token in `text`, if any: a seat id (`p1`), `party 0`, an index list (`[3]`),
/// Rust's `Some(` / `None`, an enum in parentheses (`(Npc)`), `type:` or JSON's `null`.
fn raw_token(text: &str) -> Option<String> {
    for needle in [
        "Some(",
        "type:",
        "(Npc)",
        "(Players)",
        "(LastPartyStanding)",
    ] {
        if text.contains(needle) {
            return Some(needle.into());
        }
    }
    let bytes = text.as_bytes();
    for (i, b) in bytes.iter().enumerate() {
        if *b == b'[' && bytes.get(i + 1).is_some_and(u8::is_ascii_digit) {
            return Some(text[i..].chars().take(4).collect());
        }
    }
    let words: Vec<&str> = text
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    for (i, w) in words.iter().enumerate() {
        let seat_id =
            w.len() >= 2 && w.starts_with('p') && w[1..].chars().all(|c| c.is_ascii_digit());
        let party_index = *w == "party"
            && words
                .get(i + 1)
                .is_some_and(|n| n.chars().all(|c| c.is_ascii_digit()));
        if seat_id || party_index || *w == "None" || *w == "null" {
            return Some(w.to_string());
        }
    }
    None
}

#[test]
fn the_checker_finds_every_kind_of_raw_token_and_passes_plain_text() {
    for bad in [
        "party 0 passes",
        "winners [3], losers [0, 1, 2]",
        "over: Some(Players)",
        "Waiting for: gm, p1",
        "Brute (Npc) recovers",
        "type: concede",
        "breather used: None",
    ] {
        assert!(raw_token(bad).is_some(), "{bad}");
    }
    for good in [
        "Levinulon passes",
        "Waiting for Ada and the GM",
        "Ysolde rolls initiative: With Love d12=8 → (8,4)",
        "Round 2 begins",
    ] {
        assert_eq!(raw_token(good), None, "{good}");
    }
}

struct Seated {
    id: String,
    /// The key of each seat (`gm` is the GM's own link) and of a spectator.
    keys: BTreeMap<String, String>,
}

async fn seat_everyone(app: &Router, ruleset: &str, setup: &Value) -> Seated {
    let (status, created) = api(
        app,
        routes::CREATE_TABLE.at([]).json(&CreateTable {
            ruleset: Some(String::from(ruleset)),
            setup: Some(json!(setup)),
            title: Some(String::from("Readable")),
        }),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    let id = created["table"].as_str().unwrap().to_string();
    let owner = created["owner_key"].as_str().unwrap().to_string();
    let mut keys = BTreeMap::new();
    for seat in created["seats"].as_array().unwrap() {
        let seat = seat["seat"].as_str().unwrap();
        if seat != "gm" {
            let key = claim(app, &id, &invite(app, &id, &owner, seat).await).await;
            keys.insert(seat.to_string(), key);
        }
    }
    keys.insert("gm".into(), owner);
    keys.insert(
        "spectator".into(),
        created["spectator_key"].as_str().unwrap().into(),
    );
    Seated { id, keys }
}

async fn view(app: &Router, id: &str, key: &str) -> Value {
    let (status, update) = api(app, routes::VIEW.at([id]).key(key).query("after", "0")).await;
    assert_eq!(status, StatusCode::OK, "{update}");
    update
}

/// Everything in `update` that a person reads, each with where it is shown.
fn readable(update: &Value) -> Vec<(String, String)> {
    let mut out = vec![
        (
            "the banner".to_string(),
            update["room"]["turn"]["text"].to_string(),
        ),
        (
            "the name you go by".into(),
            update["room"]["me"].to_string(),
        ),
        (
            "the text picture".into(),
            update["render"].as_str().unwrap_or("").into(),
        ),
    ];
    for p in update["room"]["people"].as_array().into_iter().flatten() {
        out.push(("the people at the table".into(), p["name"].to_string()));
    }
    for e in update["events"].as_array().into_iter().flatten() {
        out.push(("the log".into(), e["text"].as_str().unwrap_or("").into()));
    }
    out
}

#[tokio::test]
async fn every_game_reads_in_names_from_every_seat() {
    let dir = tempfile::tempdir().unwrap();
    let app = clash_server::app(
        clash_server::open(&dir.path().join("readable.db"), clash_catalogue::rulesets()).unwrap(),
    );
    let (_, list) = api(&app, routes::RULESETS.at([])).await;
    // The first problem of each game in each place, so one failure tells all that is wrong.
    let mut problems = BTreeMap::new();
    for ruleset in list["rulesets"].as_array().unwrap() {
        let id = ruleset["id"].as_str().unwrap();
        for preset in ruleset["presets"].as_array().unwrap() {
            let table = seat_everyone(&app, id, &preset["setup"]).await;
            for step in 0..40 {
                let gm = view(&app, &table.id, &table.keys["gm"]).await;
                for (viewer, key) in &table.keys {
                    for (where_, text) in readable(&view(&app, &table.id, key).await) {
                        if let Some(bad) = raw_token(&text) {
                            problems
                                .entry(format!("{id}, {where_}"))
                                .or_insert_with(|| {
                                    format!(
                                        "{} at step {step}, {viewer} sees {bad:?}: {text}",
                                        preset["name"]
                                    )
                                });
                        }
                    }
                }
                let Some(seat) = gm["room"]["turn"]["waiting"][0]["seat"].as_str() else {
                    break;
                };
                let mine = view(&app, &table.id, &table.keys[seat]).await;
                let legal = mine["legal"].as_array().unwrap();
                if legal.is_empty() {
                    break;
                }
                let command = &legal[step % legal.len()]["command"];
                let (status, body) = api(
                    &app,
                    routes::COMMAND
                        .at([&table.id])
                        .key(&table.keys[seat])
                        .json(&CommandBody::of(json!(command))),
                )
                .await;
                assert_eq!(status, StatusCode::OK, "{id}: {command} → {body}");
            }
        }
    }
    assert!(
        problems.is_empty(),
        "raw tokens where people read:\n{}",
        problems
            .iter()
            .map(|(place, first)| format!("{place}: {first}"))
            .collect::<Vec<_>>()
            .join("\n")
    );
}
