//! What people read (issue 15): seats are named by colour (and their player's name), and no
//! narration, picture, status or refusal shows a seat id, an index or debug text. Also: input
//! is bounded and checked (issue 19), and no command is accepted that changes nothing.

use crate::common;

use clash_core::text::raw_tokens;
use clash_core::{
    RuleError, Ruleset, RulesetEntry, Seat, SeededRandomness, Status, Viewer, execute,
};
use common::*;
use proptest::prelude::*;
use triforce::random::RandomPlayer;
use triforce::{Command, Setup, State, Triforce};

fn assert_clean(what: &str, text: &str) {
    let found = raw_tokens(text);
    assert!(found.is_empty(), "{what} shows raw text {found:?}: {text}");
}

/// Every line a person reads about `state`: its picture, its status, each seat's name.
fn check_state(state: &State) {
    assert_clean("render", &Triforce::render(state, Viewer::Spectator));
    let status = Triforce::status(state);
    if let Some(over) = &status.over {
        assert_clean("status", over);
    }
    for seat in Triforce::seats(state) {
        assert_clean("seat name", &Triforce::seat_name(state, seat));
    }
}

/// Every refusal `state` gives to a spread of commands, from every seat.
fn check_refusals(state: &State) {
    let tries = [
        Command::Place {
            size: triforce::Size::M,
        },
        Command::Move { from: 1, to: 16 },
        Command::Move { from: 8, to: 9 },
        Command::EndTurn,
        Command::Resolve { at: 3 },
        Command::TakeSword { level: 9 },
        Command::TakeShield { level: 1 },
        Command::Decline,
    ];
    for seat in [Seat::Gm, R, G, B] {
        for command in &tries {
            if let Err(e) = Triforce::decide(state, seat, command, &mut SeededRandomness::new(0)) {
                assert_clean("refusal", &reason(&e));
            }
        }
    }
}

fn reason(e: &RuleError) -> String {
    match e {
        RuleError::IllegalMove { reason, .. }
        | RuleError::NotYourCall { reason, .. }
        | RuleError::InvalidSetup { reason, .. } => reason.clone(),
        RuleError::Randomness(r) => r.to_string(),
    }
}

#[test]
fn seats_are_named_by_colour_and_given_name() {
    let mut s = Setup::new(4);
    s.names.insert(Seat::Player(2), "Ada".into());
    let state = triforce::start(&s).unwrap();
    let names: Vec<String> = Triforce::seats(&state)
        .into_iter()
        .map(|seat| Triforce::seat_name(&state, seat))
        .collect();
    assert_eq!(names, ["Red", "Ada (Green)", "Blue", "Yellow"]);
    assert_eq!(Triforce::status(&state), Status::waiting([R]));
}

#[test]
fn tf_28_status_names_the_winner_once_over() {
    let singles: Vec<(u8, String)> = [2u8, 3, 4, 5, 6, 7, 8, 9]
        .iter()
        .enumerate()
        .map(|(i, n)| (*n, format!("p1-{}", ["S", "M", "L"][i % 3])))
        .collect();
    let refs: Vec<(u8, &str)> = singles.iter().map(|(n, p)| (*n, p.as_str())).collect();
    let state = start(&setup(3, &refs));
    let status = Triforce::status(&state);
    assert!(status.waiting_for.is_empty());
    assert_eq!(
        status.over.as_deref(),
        Some("Red wins, as bottom player of enough stacks"),
        "the banner says how in words; the rule's number is for the log"
    );
    // The log line names the rule, which the page turns into a link.
    let over = triforce::Event::GameOver {
        outcome: *state.outcome().unwrap(),
    };
    assert_eq!(
        triforce::view::narrate(&state, &over),
        "Game over: Red wins, as bottom player of enough stacks (TF-28)."
    );
}

#[test]
fn every_example_reads_cleanly() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/triforce");
    let mut files = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "json") {
            continue;
        }
        files += 1;
        let json = std::fs::read_to_string(&path).unwrap();
        let report = clash_core::scenario::run_str(&[RulesetEntry::of::<Triforce>()], &json)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        for step in &report.steps {
            assert_clean(&path.display().to_string(), &step.rendered);
            for event in &step.events {
                assert_clean(&path.display().to_string(), &event.text);
            }
        }
        for event in &report.log {
            assert_clean(&path.display().to_string(), &event.text);
        }
        let scenario: clash_core::scenario::Scenario = serde_json::from_str(&json).unwrap();
        let setup: Setup = serde_json::from_value(scenario.setup).unwrap();
        let state = triforce::start(&setup).unwrap();
        check_state(&state);
        check_refusals(&state);
    }
    assert!(files >= 13);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Issue 15: the rules accept no command that changes nothing (so no repeat writes a second
    /// identical log line), and a refused command changes nothing.
    #[test]
    fn accepted_commands_change_the_state_and_refused_ones_do_not(seed: u64, steps in 0usize..300) {
        let mut state = triforce::start(&Setup::new(3)).unwrap();
        let mut player = RandomPlayer::new(seed);
        let mut dice = SeededRandomness::new(seed);
        for _ in 0..steps {
            let Some((seat, command)) = player.pick(&state) else { break };
            let before = state;
            execute::<Triforce>(&mut state, seat, &command, &mut dice).unwrap();
            prop_assert_ne!(before, state);
            // The same command again is either a new legal action or refused unchanged.
            let again = state;
            if execute::<Triforce>(&mut state, seat, &command, &mut dice).is_err() {
                prop_assert_eq!(again, state);
            } else {
                prop_assert_ne!(again, state);
            }
        }
    }
}

#[test]
fn unknown_command_fields_are_refused() {
    for text in [
        r#"{"type": "place", "size": "S", "junk": 1}"#,
        r#"{"type": "end_turn", "junk": "x"}"#,
        r#"{"type": "decline", "level": 2}"#,
    ] {
        assert!(
            serde_json::from_str::<Command>(text).is_err(),
            "{text} should be refused"
        );
    }
    assert!(serde_json::from_str::<Command>(r#"{"type": "end_turn"}"#).is_ok());
    // Setups too.
    assert!(serde_json::from_str::<Setup>(r#"{"players": 3, "junk": 1}"#).is_err());
    assert!(
        serde_json::from_str::<Setup>(r#"{"players": 3, "turn": {"number": 2, "junk": 1}}"#)
            .is_err()
    );
}

#[test]
fn names_are_bounded() {
    let mut s = Setup::new(3);
    s.names.insert(R, "x".repeat(200));
    assert_eq!(
        triforce::start(&s).unwrap_err().rule(),
        Some("TF-5"),
        "a 200-letter name is refused"
    );
    let mut s = Setup::new(3);
    s.names.insert(R, "Ada".into());
    s.names.insert(G, "ada".into());
    assert_eq!(triforce::start(&s).unwrap_err().rule(), Some("TF-5"));
}

#[test]
fn the_view_names_the_seats_and_whose_call_it_is() {
    let mut s = Setup::new(3);
    s.names.insert(R, "Ada".into());
    let state = triforce::start(&s).unwrap();
    let view = serde_json::to_value(Triforce::view(&state, Viewer::Spectator)).unwrap();
    assert_eq!(view["awaiting_name"], "Ada (Red)");
    assert_eq!(view["seats"][1]["name"], "Green");
    assert_eq!(view["seats"][2]["colour"], "Blue");
}
