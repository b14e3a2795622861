//! The kernel exercised through a toy ruleset: "odd or even", where two players secretly show
//! one or two fingers and a die decides the bonus. Small enough to check every kernel promise.

use clash_core::scenario::{self, Scenario, ScenarioError};
use clash_core::{
    AnyGame, Game, GameError, Listed, Preset, Randomness, RuleError, Ruleset, RulesetEntry, Seat,
    SeededRandomness, Status, Viewer, replay,
};
use proptest::prelude::*;
use serde::{Deserialize, Serialize};

struct OddEven;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct State {
    shown: [Option<u8>; 2],
    score: [u32; 2],
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum Command {
    Show { fingers: u8 },
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum Event {
    Shown { seat: Seat, fingers: Option<u8> },
    Revealed { fingers: [u8; 2], bonus: u32 },
}

fn slot(seat: Seat) -> Option<usize> {
    match seat {
        Seat::Player(1) => Some(0),
        Seat::Player(2) => Some(1),
        _ => None,
    }
}

impl Ruleset for OddEven {
    const ID: &'static str = "odd-even";
    type Setup = ();
    type State = State;
    type Command = Command;
    type Event = Event;
    type View = State;

    fn setup(_: &()) -> Result<State, RuleError> {
        Ok(State {
            shown: [None, None],
            score: [0, 0],
        })
    }

    fn opening(_: &State) -> Vec<Event> {
        Vec::new()
    }

    fn seats(_: &State) -> Vec<Seat> {
        vec![Seat::Player(1), Seat::Player(2)]
    }

    fn seat_name(_: &State, seat: Seat) -> String {
        format!("Player {}", slot(seat).map_or(0, |i| i + 1))
    }

    fn status(state: &State) -> Status {
        Status::waiting(
            Self::seats(state)
                .into_iter()
                .filter(|s| slot(*s).is_some_and(|i| state.shown[i].is_none())),
        )
    }

    fn decide(
        state: &State,
        seat: Seat,
        command: &Command,
        rng: &mut dyn Randomness,
    ) -> Result<Vec<Event>, RuleError> {
        let Command::Show { fingers } = *command;
        let me = slot(seat)
            .ok_or_else(|| RuleError::not_your_call("OE-1", seat, "only p1 and p2 play"))?;
        clash_core::ensure((1..=2).contains(&fingers), "OE-2", || {
            format!("show 1 or 2 fingers, not {fingers}")
        })?;
        clash_core::ensure(state.shown[me].is_none(), "OE-3", || {
            "you have already shown".into()
        })?;
        let mut events = vec![Event::Shown {
            seat,
            fingers: Some(fingers),
        }];
        if let Some(other) = state.shown[1 - me] {
            let mut fingers_by_slot = [other, other];
            fingers_by_slot[me] = fingers;
            events.push(Event::Revealed {
                fingers: fingers_by_slot,
                bonus: rng.roll(6)?,
            });
        }
        Ok(events)
    }

    fn apply(state: &mut State, event: &Event) {
        match event {
            Event::Shown { seat, fingers } => {
                if let Some(i) = slot(*seat) {
                    state.shown[i] = *fingers;
                }
            }
            Event::Revealed { fingers, bonus } => {
                let winner = usize::from((fingers[0] + fingers[1]) % 2 == 1);
                state.score[winner] += bonus;
                state.shown = [None, None];
            }
        }
    }

    fn view(state: &State, viewer: Viewer) -> State {
        let mut v = state.clone();
        for (i, seat) in [Seat::Player(1), Seat::Player(2)].into_iter().enumerate() {
            if !viewer.is(seat) {
                v.shown[i] = v.shown[i].map(|_| 0);
            }
        }
        v
    }

    fn event_view(event: &Event, viewer: Viewer) -> Option<Event> {
        match event {
            Event::Shown { seat, .. } if !viewer.is(*seat) => Some(Event::Shown {
                seat: *seat,
                fingers: None,
            }),
            e => Some(e.clone()),
        }
    }

    fn narrate(_: &State, event: &Event) -> String {
        match event {
            Event::Shown {
                seat,
                fingers: Some(f),
            } => format!("{seat} shows {f}"),
            Event::Shown {
                seat,
                fingers: None,
            } => format!("{seat} is ready"),
            Event::Revealed { fingers, bonus } => format!("revealed {fingers:?}, bonus {bonus}"),
        }
    }

    fn render(state: &State, _: Viewer) -> String {
        format!("score {:?}", state.score)
    }

    fn legal_commands(state: &State, seat: Seat) -> Vec<Command> {
        match slot(seat) {
            Some(i) if state.shown[i].is_none() => {
                vec![Command::Show { fingers: 1 }, Command::Show { fingers: 2 }]
            }
            _ => vec![],
        }
    }

    fn position(state: &State, _: Viewer) -> Option<()> {
        // Scores are not part of a setup, so only a fresh game is a position.
        (state.score == [0, 0] && state.shown == [None, None]).then_some(())
    }
}

impl Listed for OddEven {
    const NAME: &'static str = "Odd or even";
    const BLURB: &'static str = "Show one or two fingers at once; a die decides the bonus.";
    const PRESETS: &'static [Preset] = &[Preset {
        name: "Two players",
        setup: "null",
    }];
}

fn entries() -> Vec<RulesetEntry> {
    vec![RulesetEntry::of::<OddEven>()]
}

#[test]
fn hidden_choices_are_redacted_for_others() {
    let mut game = Game::<OddEven>::new(()).unwrap();
    let mut rng = SeededRandomness::new(1);
    game.command(Seat::Player(1), &Command::Show { fingers: 2 }, &mut rng)
        .unwrap();
    let seen_by_p2 = AnyGame::events_for(&game, Viewer::Seat(Seat::Player(2)), 0);
    assert_eq!(seen_by_p2[0].text, "p1 is ready");
    let seen_by_p1 = AnyGame::events_for(&game, Viewer::Seat(Seat::Player(1)), 0);
    assert_eq!(seen_by_p1[0].text, "p1 shows 2");
    assert_eq!(AnyGame::view(&game, Viewer::Spectator)["shown"][0], 0);
}

#[test]
fn refused_commands_change_nothing() {
    let mut game = Game::<OddEven>::new(()).unwrap();
    let before = game.state().clone();
    let err = game
        .command(
            Seat::Player(1),
            &Command::Show { fingers: 5 },
            &mut SeededRandomness::new(1),
        )
        .unwrap_err();
    assert_eq!(err.rule(), Some("OE-2"));
    assert_eq!(game.state(), &before);
    assert!(game.log().is_empty());
    let mut any: Box<dyn AnyGame> = Box::new(game);
    let err = any.command(
        Seat::Player(1),
        &serde_json::json!({"type": "wave"}),
        &mut SeededRandomness::new(1),
    );
    assert!(matches!(err, Err(GameError::Malformed { .. })));
    assert_eq!(any.event_count(), 0);
}

#[test]
fn scenarios_run_check_and_report_expected_refusals() {
    let json = r#"{
        "ruleset": "odd-even",
        "setup": null,
        "randomness": {"scripted": {"values": [4]}},
        "steps": [
            {"seat": "p1", "command": {"type": "show", "fingers": 1}},
            {"seat": "p1", "command": {"type": "show", "fingers": 2}, "expect_error": "OE-3"},
            {"seat": "p2", "command": {"type": "show", "fingers": 2},
             "expect": [{"pointer": "/score/1", "equals": 4}]}
        ],
        "expect": [{"pointer": "/shown/0", "absent": true}]
    }"#;
    let report = scenario::run_str(&entries(), json).unwrap();
    assert_eq!(report.steps.len(), 3);
    assert!(report.steps[1].error.as_ref().unwrap().expected);
    assert_eq!(report.log.last().unwrap().text, "revealed [1, 2], bonus 4");
}

#[test]
fn scenario_failures_say_what_went_wrong() {
    let base = |steps: &str| -> Scenario {
        serde_json::from_str(&format!(
            r#"{{"ruleset": "odd-even", "setup": null, "steps": {steps}}}"#
        ))
        .unwrap()
    };
    let (_, err) = scenario::run(
        &entries(),
        &base(r#"[{"seat": "p3", "command": {"type": "show", "fingers": 1}}]"#),
    );
    assert!(matches!(err, Some(ScenarioError::Refused { rule: Some(ref r), .. }) if r == "OE-1"));
    assert!(err.unwrap().is_unexpected_refusal());
    let (_, err) = scenario::run(
        &entries(),
        &base(
            r#"[{"seat": "p1", "command": {"type": "show", "fingers": 1}, "expect_error": "OE-2"}]"#,
        ),
    );
    assert!(matches!(err, Some(ScenarioError::NotRefused { .. })));
    let mut s = base("[]");
    s.ruleset = "chess".into();
    assert!(matches!(
        scenario::run(&entries(), &s).1,
        Some(ScenarioError::UnknownRuleset(_))
    ));
    s = base("[]");
    s.expect = vec![serde_json::from_str(r#"{"pointer": "/score/0", "equals": 9}"#).unwrap()];
    assert!(matches!(
        scenario::run(&entries(), &s).1,
        Some(ScenarioError::CheckFailed { .. })
    ));
}

proptest! {
    #[test]
    fn replaying_the_log_reproduces_the_state(seed: u64, moves in proptest::collection::vec((1u8..=2, 0u8..4), 0..40)) {
        let mut game = Game::<OddEven>::new(()).unwrap();
        for (i, (who, fingers)) in moves.into_iter().enumerate() {
            let mut rng = SeededRandomness::for_command(seed, i as u64);
            let before = game.state().clone();
            if game.command(Seat::Player(who), &Command::Show { fingers }, &mut rng).is_err() {
                prop_assert_eq!(game.state(), &before);
            }
        }
        let rebuilt = replay::<OddEven>(&(), game.log()).unwrap();
        prop_assert_eq!(&rebuilt, game.state());
    }
}

#[test]
fn status_names_the_seats_still_to_choose() {
    let mut game = Game::<OddEven>::new(()).unwrap();
    assert_eq!(
        AnyGame::status(&game).waiting_for,
        vec![Seat::Player(1), Seat::Player(2)]
    );
    Game::command(
        &mut game,
        Seat::Player(1),
        &Command::Show { fingers: 2 },
        &mut SeededRandomness::new(1),
    )
    .unwrap();
    assert_eq!(AnyGame::status(&game).waiting_for, vec![Seat::Player(2)]);
    assert_eq!(AnyGame::seat_name(&game, Seat::Player(2)), "Player 2");
}
