//! Issue 15: every line a player reads names characters and players. Plays every example and
//! random games, and fails on any raw token (a seat id, an index, Rust debug text) in the
//! narration, the rendered table, the status and display fields of the views, and the reasons
//! of refusals.

use crate::common;

use clash_core::scenario::Scenario;
use clash_core::{AnyGame, GameError, Ruleset, RulesetEntry, Seat, SeededRandomness, Viewer};
use common::*;
use serde_json::json;
use wicked_age::{Command, Setup, WickedAge};

/// Every text of `game` a person may read now, for every viewer, from event `from` on.
fn readable(game: &dyn AnyGame, from: usize) -> Vec<String> {
    let mut out = Vec::new();
    let mut viewers = vec![Viewer::Spectator];
    viewers.extend(game.seats().into_iter().map(Viewer::Seat));
    for viewer in viewers {
        out.extend(game.events_for(viewer, from).into_iter().map(|e| e.text));
        out.push(game.render(viewer));
        let view = game.view(viewer);
        out.extend(view["waiting"].as_str().map(str::to_string));
        for p in view["players"].as_array().into_iter().flatten() {
            out.extend(p["name"].as_str().map(str::to_string));
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
        // WA-11: a roll's value reads as its total and tie-break, never as a pair "(18,1)".
        if let Some(pair) = value_pair(t) {
            failures.push(format!("{place}: the pair {pair:?} in {t:?}"));
        }
    }
}

/// The first "(digits,digits)" in `t`.
fn value_pair(t: &str) -> Option<&str> {
    t.match_indices('(').find_map(|(i, _)| {
        let rest = &t[i + 1..];
        let close = rest.find(')')?;
        let (a, b) = rest[..close].split_once(',')?;
        let digits = |x: &str| !x.trim().is_empty() && x.trim().chars().all(|c| c.is_ascii_digit());
        (digits(a) && digits(b)).then(|| &t[i..i + close + 2])
    })
}

#[test]
fn wa_11_a_value_pair_is_caught() {
    assert_eq!(value_pair("Ysolde, Oren; (11,5) stands"), Some("(11,5)"));
    assert_eq!(
        value_pair("Conflict: Ysolde vs Oren (a duel, 2 rounds)"),
        None
    );
}

#[test]
fn every_example_reads_in_names() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/wicked-age");
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
        let entry = RulesetEntry::of::<WickedAge>();
        let mut game = (entry.new_game)(&scenario.setup).unwrap();
        let mut rng = scenario.randomness.build();
        let name = f.file_name().unwrap().to_string_lossy().to_string();
        check(&name, &readable(game.as_ref(), 0), &mut failures);
        for (i, step) in scenario.steps.iter().enumerate() {
            let before = game.event_count();
            let place = format!("{name} step {i}");
            match game.command(step.seat, &step.command, rng.as_mut()) {
                Ok(_) => {
                    let texts = readable(game.as_ref(), before);
                    lines += texts.len();
                    check(&place, &texts, &mut failures);
                }
                Err(GameError::Rule(e)) => check(&place, &[reason(&e)], &mut failures),
                Err(GameError::Malformed { .. }) => {}
            }
        }
    }
    assert!(lines > 500, "only {lines} lines read");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Commands of every kind about every character, most of them refused at any moment.
fn probes() -> Vec<Command> {
    let mut out = Vec::new();
    for (a, b) in [
        ("Ysolde", "Oren"),
        ("Oren", "The Khan"),
        ("The Khan", "Ysolde"),
        ("Nobody", "Ysolde"),
    ] {
        let list: Vec<Command> = serde_json::from_value(json!([
            {"type": "start_conflict", "participants": [a, b]},
            {"type": "roll_initiative", "character": a, "forms": ["covertly", "directly"]},
            {"type": "roll_initiative", "character": a, "form": "action", "strength": "Horde"},
            {"type": "challenge", "character": a, "target": b},
            {"type": "challenge", "character": a, "target": b, "forms": ["with_love", "with_love"]},
            {"type": "answer", "character": a, "forms": ["covertly", "for_others"], "strength": "Hidden Blade"},
            {"type": "concede", "character": a, "to": b},
            {"type": "propose_end", "character": a, "terms": "Enough"},
            {"type": "agree_end", "character": a},
            {"type": "cash_in_owe", "pc": a, "entry": b},
            {"type": "choose_consequence", "loser": a, "consequence": "injured"},
            {"type": "propose_alternative", "loser": a, "terms": "x", "costs": [{"type": "step_down", "form": "action"}]},
            {"type": "accept_alternative", "loser": a},
            {"type": "refuse_alternative", "loser": a},
            {"type": "bring_back", "character": a},
        ]))
        .unwrap();
        out.extend(list);
    }
    out.extend(
        serde_json::from_value::<Vec<Command>>(json!([
            {"type": "end_chapter"},
            {"type": "choose_oracle", "oracle": "O", "story_element": "E"},
        ]))
        .unwrap(),
    );
    out
}

#[test]
fn random_games_read_in_names() {
    let setup: Setup = serde_json::from_value(json!({"characters": [ysolde(), oren(), khan()],
        "owe_list": [{"character": "Ysolde", "player": "p1"}, {"character": "Oren", "player": "p2"}]}))
    .unwrap();
    let seats = [Seat::Gm, Seat::Player(1), Seat::Player(2)];
    let probes = probes();
    let mut failures = Vec::new();
    for seed in 0..16u64 {
        let mut game = clash_core::Game::<WickedAge>::new(setup.clone()).unwrap();
        for step in 0..150u64 {
            let place = format!("seed {seed} step {step}");
            let st = game.state();
            for seat in seats {
                for probe in probes.iter().skip(step as usize % 5).step_by(5) {
                    if let Err(e) =
                        WickedAge::decide(st, seat, probe, &mut SeededRandomness::new(step))
                    {
                        check(&place, &[reason(&e)], &mut failures);
                    }
                }
            }
            let options: Vec<(Seat, Command)> = seats
                .iter()
                .flat_map(|s| {
                    WickedAge::legal_commands(st, *s)
                        .into_iter()
                        .map(move |c| (*s, c))
                })
                .collect();
            if options.is_empty() {
                break;
            }
            let (seat, command) =
                &options[((seed * 7919 + step * 104_729) % options.len() as u64) as usize];
            let before = game.log().len();
            game.command(
                *seat,
                command,
                &mut SeededRandomness::for_command(seed, step),
            )
            .unwrap();
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
