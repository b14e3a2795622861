//! The review of a finished table: its chances agree with `clash odds wicked-age conflict`, the
//! luck of a roll is its chance after less the average over every result (checked by hand),
//! and a whole bot conflict is reviewed.

use std::time::{Duration, Instant};

use clash_analysis::review::hook;
use clash_analysis::review::play::play;
use clash_core::review::{Record, Step};
use clash_core::{Game, Recorder, ScriptedRandomness, Seat, Strength};
use serde_json::{Value, json};
use wicked_age::analysis::review::Duel;
use wicked_age::odds::{self, Pool};
use wicked_age::{Command, Setup, WickedAge};

fn review(record: &Record) -> clash_core::Review {
    let mut r = hook::<WickedAge>(record).expect("the record replays");
    while !r.work(Instant::now() + Duration::from_millis(200)) {}
    r.review()
}

/// WA-21 … WA-23 (P10): a whole two-party conflict from its start, as the review's exact model
/// values it, is `clash odds wicked-age conflict` with the same dice.
#[test]
fn a_whole_conflict_agrees_with_clash_odds() {
    let pairs = [
        (vec![12, 8], vec![10, 6]),
        (vec![10, 6], vec![12, 8]),
        (vec![6, 4], vec![12, 10]),
        (vec![12, 10], vec![12, 10]),
    ];
    for (x, y) in pairs {
        let (px, py) = (Pool::new(x.clone()), Pool::new(y.clone()));
        let exact = odds::conflict(&px, &py).unwrap().x_wins.to_f64();
        let model = Duel::new([&px, &py]).unwrap().round_start(1, None);
        assert!(
            (exact - model).abs() < 1e-12,
            "{x:?} vs {y:?}: {exact} vs {model}"
        );
    }
    // With a bonus die (a strength d8) and the Advantage held from round 2 on.
    let (px, py) = (Pool::new([10, 6]).with_bonus([8]), Pool::new([12, 8]));
    let exact = odds::conflict(&px, &py).unwrap().x_wins.to_f64();
    let model = Duel::new([&px, &py]).unwrap().round_start(1, None);
    assert!((exact - model).abs() < 1e-12, "{exact} vs {model}");
}

/// Round 3 with the Khan's challenge of (8, 3) waiting for Ysolde's answer (WA-23: in round 3
/// an answer at least the challenge knocks the challenger out, else the answerer is out).
fn round_three() -> Value {
    json!({
        "characters": [
            {"name": "Ysolde", "kind": "pc", "seat": "p1",
             "forms": {"covertly": 6, "directly": 4, "for_myself": 8, "for_others": 6, "with_love": 12, "with_violence": 10},
             "best_interests": ["Find the child of the river", "Make the Khan pay"]},
            {"name": "The Khan", "kind": "npc",
             "forms": {"action": [12, 8], "maneuvering": [10, 6], "self_protection": [6, 4]}}
        ],
        "conflict": {
            "action": "The ferry", "round": 3, "stage": "turns",
            "participants": [
                {"name": "The Khan", "turn_used": true, "round_one_dice": [12, 8]},
                {"name": "Ysolde", "round_one_dice": [12, 10]}
            ],
            "order": ["The Khan", "Ysolde"],
            "pending": {"challenger": "The Khan", "target": "Ysolde", "roll": {
                "dice": [{"kind": "npc_form", "form": "action", "sides": 12, "face": 8},
                         {"kind": "npc_form", "form": "action", "sides": 8, "face": 3}],
                "value": {"p": 8, "t": 3}}},
            "round_one_pairs": [["The Khan", "Ysolde"]]
        }
    })
}

fn record_of(setup: Value, seat: Seat, command: Value, faces: &[u32]) -> Record {
    let s: Setup = serde_json::from_value(setup.clone()).unwrap();
    let mut game = Game::<WickedAge>::new(s).unwrap();
    let c: Command = serde_json::from_value(command.clone()).unwrap();
    let mut script = ScriptedRandomness::new(faces.iter().map(|f| clash_core::Scripted::Die(*f)));
    let mut recorder = Recorder::new(&mut script);
    let events = game.command(seat, &c, &mut recorder).unwrap().to_vec();
    Record {
        setup,
        steps: vec![Step {
            seat,
            command,
            draws: recorder.draws,
            events: events
                .iter()
                .map(|e| serde_json::to_value(e).unwrap())
                .collect(),
        }],
    }
}

/// The luck of Ysolde's answer, by hand: d12 and d10 give High ≥ 9 in 56 of 120 throws, and
/// High 8 with Low at least 3 in 11 more (8 with 3…8, and 3…7 with 8), so she beats (8, 3) in
/// 67 of 120. Answering 9 and 2 she wins (chance 1): her luck is 1 − 67/120 = 53/120, the
/// Khan's the opposite, and her choice of her two biggest forms was the best there was.
#[test]
fn the_luck_of_a_round_three_answer_is_checked_by_hand() {
    let command =
        json!({"type": "answer", "character": "Ysolde", "forms": ["with_love", "with_violence"]});
    let record = record_of(round_three(), Seat::Player(1), command, &[9, 2]);
    let review = review(&record);
    let c = &review.conflicts[0];
    let m = &c.moments[0];
    let luck = m.luck.as_ref().expect("the answer's luck");
    let ysolde = c.sides.iter().position(|s| s.name == "Ysolde").unwrap();
    assert!(
        (luck.luck[ysolde] - 53.0 / 120.0).abs() < 1e-12,
        "{:?}",
        luck
    );
    assert!((luck.luck[1 - ysolde] + 53.0 / 120.0).abs() < 1e-12);
    assert!((luck.average[ysolde] - 67.0 / 120.0).abs() < 1e-12);
    let v = m.decision.as_ref().expect("a verdict on the forms");
    assert!((v.played - 67.0 / 120.0).abs() < 1e-12, "{v:?}");
    assert_eq!(v.grade, clash_core::review::Grade::Best);
    assert_eq!(c.result.as_deref(), Some(&[0.0, 1.0][..]));
    let player = review
        .players
        .iter()
        .find(|p| p.seat == Seat::Player(1))
        .unwrap();
    assert!((player.luck - 53.0 / 120.0).abs() < 1e-12);
    assert!((player.adjusted.unwrap() - 67.0 / 120.0).abs() < 1e-12);
}

/// A weaker choice is graded by what it gave away: answering with d6 and d4 (Covertly and
/// Directly) wins only when High ≥ 9 … never; High 8 is impossible too, so she gives away all
/// of the 67/120 her best forms had.
#[test]
fn a_weak_answer_is_a_blunder() {
    let command =
        json!({"type": "answer", "character": "Ysolde", "forms": ["covertly", "directly"]});
    let record = record_of(round_three(), Seat::Player(1), command, &[5, 2]);
    let review = review(&record);
    let v = review.conflicts[0].moments[0].decision.clone().unwrap();
    assert_eq!(v.played, 0.0);
    assert!((v.loss - 67.0 / 120.0).abs() < 1e-12, "{v:?}");
    assert_eq!(v.grade, clash_core::review::Grade::Blunder);
    let best = v.best_choice.unwrap();
    assert!(
        best.contains("With Love") && best.contains("With Violence"),
        "{best}"
    );
}

/// A whole conflict of two bots: every step looked at, and luck adds up to nothing between
/// the two sides (what one gains by chance the other loses).
#[test]
fn a_bot_duel_is_reviewed_whole() {
    let setup: Setup = serde_json::from_value(json!({
        "characters": [
            {"name": "Ysolde", "kind": "pc", "seat": "p1",
             "forms": {"covertly": 6, "directly": 4, "for_myself": 8, "for_others": 6, "with_love": 12, "with_violence": 10},
             "best_interests": ["Find the child of the river", "Make the Khan pay"]},
            {"name": "The Khan", "kind": "npc",
             "forms": {"action": [12, 8], "maneuvering": [10, 6], "self_protection": [6, 4]}}
        ],
        "conflict": {"action": "The ferry", "participants": [{"name": "Ysolde"}, {"name": "The Khan"}]}
    }))
    .unwrap();
    let record = play::<WickedAge>(&setup, &[], Strength::Strong, 200, 9, 60).unwrap();
    let review = review(&record);
    assert!(review.progress.done);
    let c = &review.conflicts[0];
    assert!(c.result.is_some(), "the conflict ended: {:?}", c.summary);
    let luck: f64 = review.players.iter().map(|p| p.luck).sum();
    assert!(luck.abs() < 1e-9, "{luck}");
    assert!(c.moments.iter().any(|m| m.luck.is_some()));
    assert!(review.unevaluated.is_empty(), "{:?}", review.unevaluated);
}
