//! Issue 15: every line a player reads names parties and characters. Plays every example and
//! random games, and fails on any raw token (a seat id, an index, Rust debug text) in the
//! narration, the rendered table, the status and display fields of the views, and the reasons
//! of refusals.

use crate::common;

use clash_core::scenario::Scenario;
use clash_core::{AnyGame, GameError, Ruleset, RulesetEntry, Seat, SeededRandomness, Viewer};
use common::*;
use nd_tourists::driver::RandomDriver;
use nd_tourists::{Command, NdTourists, State};
use serde_json::json;

fn viewers(seats: &[Seat]) -> Vec<Viewer> {
    let mut v = vec![Viewer::Spectator];
    v.extend(seats.iter().map(|s| Viewer::Seat(*s)));
    v
}

/// Every text of `game` a person may read now, for every viewer, from event `from` on.
fn readable(game: &dyn AnyGame, from: usize) -> Vec<String> {
    let mut out = Vec::new();
    for viewer in viewers(&game.seats()) {
        out.extend(game.events_for(viewer, from).into_iter().map(|e| e.text));
        out.push(game.render(viewer));
        let view = game.view(viewer);
        for key in ["/waiting", "/reaction/name", "/reaction/drawer"] {
            if let Some(s) = view.pointer(key).and_then(|v| v.as_str()) {
                out.push(s.to_string());
            }
        }
    }
    for seat in game.seats() {
        out.push(game.seat_name(seat));
    }
    out.extend(game.status().over);
    out
}

fn check(place: &str, texts: &[String], failures: &mut Vec<String>) {
    for t in texts {
        let raw = raw_tokens(t);
        if !raw.is_empty() {
            failures.push(format!("{place}: {raw:?} in {t:?}"));
        }
    }
}

fn refusal_reason(e: &GameError) -> Option<String> {
    match e {
        GameError::Rule(r) => Some(reason(r)),
        GameError::Malformed { .. } => None,
    }
}

#[test]
fn every_example_reads_in_names() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/nd-tourists");
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    let mut failures = Vec::new();
    let mut lines = 0;
    for f in &files {
        let scenario: Scenario =
            serde_json::from_str(&std::fs::read_to_string(f).unwrap()).unwrap();
        let entry = RulesetEntry::of::<NdTourists>();
        let mut game = (entry.new_game)(&scenario.setup).unwrap();
        let mut rng = scenario.randomness.build();
        let name = f.file_name().unwrap().to_string_lossy().to_string();
        let texts = readable(game.as_ref(), 0);
        lines += texts.len();
        check(&name, &texts, &mut failures);
        for (i, step) in scenario.steps.iter().enumerate() {
            let before = game.event_count();
            let place = format!("{name} step {i}");
            match game.command(step.seat, &step.command, rng.as_mut()) {
                Ok(_) => {
                    let texts = readable(game.as_ref(), before);
                    lines += texts.len();
                    check(&place, &texts, &mut failures);
                }
                Err(e) => check(
                    &place,
                    &refusal_reason(&e).into_iter().collect::<Vec<_>>(),
                    &mut failures,
                ),
            }
        }
    }
    assert!(lines > 500, "only {lines} lines read");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Commands of every kind from every seat: most are refused at any moment.
fn probes() -> Vec<Command> {
    let party = |n: &str| Some(n.to_string());
    let mut out: Vec<Command> = serde_json::from_value(json!([
        {"type": "start"}, {"type": "turn"}, {"type": "next_round"}, {"type": "bid"},
        {"type": "pass"}, {"type": "reject"}, {"type": "let_it_stand"},
        {"type": "concede"}, {"type": "reframe"},
        {"type": "keep_loss_cards", "cards": ["XXI"]},
        {"type": "spend_loss", "card": "XXI"},
        {"type": "cover", "card": "Rock Lover", "cite": {"aspect": "Well-trained team"}, "accepted": true},
        {"type": "cover", "card": "XIX", "accepted": true},
        {"type": "declare_tactics", "text": "We hold"},
    ]))
    .unwrap();
    for name in ["TMDF", "US", "Levinulon", "Nobody"] {
        out.push(Command::Bid {
            party: party(name),
            character: Some("Ghost".into()),
        });
        out.push(Command::Reject { party: party(name) });
        out.push(Command::LetItStand { party: party(name) });
        out.push(Command::Concede {
            party: party(name),
            character: Some("Ghost".into()),
        });
    }
    out
}

#[test]
fn random_games_read_in_names() {
    let setup: nd_tourists::Setup = serde_json::from_value(json!({"parties": [
        {"name": "TMDF", "seat": "p1", "characters": [
            {"name": "Ann", "attribute": {"name": "Paper", "value": 5}, "aspects": ["Bold"], "reserve": ["Rock Lover"]},
            {"name": "Bob", "attribute": {"name": "Rock", "value": 3}, "weaknesses": ["Slow"]}]},
        {"name": "US", "seat": "p2", "characters": [{"name": "US", "attribute": {"name": "Blades", "value": 5}, "aspects": ["Armed"]}]},
        {"name": "Levinulon", "seat": "gm", "characters": [{"name": "Levinulon", "attribute": {"name": "Destroy", "value": 8}}]}
    ]}))
    .unwrap();
    let probes = probes();
    let mut failures = Vec::new();
    for seed in 0..20u64 {
        let mut game = clash_core::Game::<NdTourists>::new(setup.clone()).unwrap();
        let mut driver = RandomDriver::new(seed);
        let mut rng = SeededRandomness::new(seed);
        for step in 0..400 {
            let place = format!("seed {seed} step {step}");
            let st: &State = game.state();
            for seat in NdTourists::seats(st) {
                for probe in probes.iter().skip(step % 7).step_by(7) {
                    if let Err(e) =
                        NdTourists::decide(st, seat, probe, &mut SeededRandomness::new(1))
                    {
                        check(&place, &[reason(&e)], &mut failures);
                    }
                }
            }
            let Some((seat, cmd)) = driver.pick(game.state()) else {
                break;
            };
            let before = game.log().len();
            game.command(seat, &cmd, &mut rng).unwrap();
            check(&place, &readable(&game, before), &mut failures);
        }
    }
    failures.truncate(30);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_checker_catches_raw_tokens() {
    for raw in [
        "party 0 passes",
        "winners [3], losers [0, 1, 2]",
        "over: Some(Players)",
        "Waiting for: gm, p1",
        "the Conflict is over (LastPartyStanding)",
        "breather used: false",
        "Reacting { step: Cover }",
    ] {
        assert!(!raw_tokens(raw).is_empty(), "{raw}");
    }
    assert!(raw_tokens("Levinulon passes; Ysolde answers: d12=6 → (6,3)").is_empty());
}
