//! Morra's rules, command by command: a round scored each way (MO-9 to MO-11), refusals naming
//! their rule with nothing changed, the hand kept secret until the reveal (MO-8), the two ends
//! of the game (MO-12, MO-13) and setups checked.

use clash_core::{Game, GameError, RuleError, Ruleset, Seat, SeededRandomness, Status, Viewer};
use morra::{Command, Event, Morra, Outcome, Setup};

const ADA: Seat = Seat::Player(1);
const BO: Seat = Seat::Player(2);

fn show(fingers: u8, call: u8) -> Command {
    Command::Show { fingers, call }
}

fn game(setup: Setup) -> Game<Morra> {
    Game::new(setup).expect("the setup is legal")
}

fn play(g: &mut Game<Morra>, seat: Seat, c: Command) -> Vec<Event> {
    g.command(seat, &c, &mut SeededRandomness::new(0))
        .unwrap_or_else(|e| panic!("{c:?} by {seat}: {e}"))
        .to_vec()
}

fn refused(g: &mut Game<Morra>, seat: Seat, c: Command) -> RuleError {
    let before = g.state().clone();
    let e = g
        .command(seat, &c, &mut SeededRandomness::new(0))
        .expect_err("the rules refuse it");
    assert_eq!(g.state(), &before, "a refusal changes nothing");
    e
}

#[test]
fn a_player_alone_right_scores_the_total() {
    let mut g = game(Setup::default());
    assert_eq!(Morra::status(g.state()), Status::waiting([ADA, BO]));
    play(&mut g, BO, show(1, 4));
    assert_eq!(Morra::status(g.state()), Status::waiting([ADA]));
    let events = play(&mut g, ADA, show(2, 3));
    // 2 + 1 = 3: Ada called 3, Bo called 4.
    let Event::Revealed { reveal } = &events[1] else {
        panic!("the second hand reveals the round: {events:?}");
    };
    assert_eq!(reveal.total, 3);
    assert_eq!(reveal.scorer, Some(0));
    assert_eq!(g.state().scores, [3, 0]);
    assert_eq!(g.state().round, 2);
    assert_eq!(g.state().hands, [None, None]);
    assert_eq!(
        Morra::narrate(g.state(), &events[1]),
        "Round 1: Ada shows two fingers and calls 3; Bo shows one finger and calls 4. \
         The total is 3: Ada alone is right and scores 3 points."
    );
    assert_eq!(Morra::status(g.state()), Status::waiting([ADA, BO]));
}

#[test]
fn both_right_or_neither_scores_nothing() {
    let mut g = game(Setup::default());
    play(&mut g, ADA, show(2, 4));
    let events = play(&mut g, BO, show(2, 4));
    assert!(Morra::narrate(g.state(), &events[1]).ends_with("both are right, so nobody scores."));
    play(&mut g, ADA, show(1, 4));
    let events = play(&mut g, BO, show(1, 3));
    assert!(Morra::narrate(g.state(), &events[1]).ends_with("The total is 2: nobody is right."));
    assert_eq!(g.state().scores, [0, 0]);
    assert_eq!(g.state().round, 3);
}

#[test]
fn refusals_name_their_rule_and_change_nothing() {
    let mut g = game(Setup::default());
    assert_eq!(refused(&mut g, ADA, show(0, 2)).rule(), Some("MO-3"));
    assert_eq!(refused(&mut g, ADA, show(4, 6)).rule(), Some("MO-3"));
    assert_eq!(refused(&mut g, ADA, show(1, 7)).rule(), Some("MO-4"));
    let e = refused(&mut g, ADA, show(3, 3));
    assert_eq!(e.rule(), Some("MO-5"));
    assert_eq!(
        e.reason(),
        "showing three fingers, the total can only be 4 to 6: a call of 3 cannot be right"
    );
    let e = refused(&mut g, Seat::Gm, show(1, 2));
    assert!(
        matches!(e, RuleError::NotYourCall { rule: "MO-7", .. }),
        "{e:?}"
    );
    assert_eq!(
        refused(&mut g, Seat::Player(3), show(1, 2)).rule(),
        Some("MO-7")
    );
    play(&mut g, ADA, show(1, 2));
    assert_eq!(refused(&mut g, ADA, show(2, 3)).rule(), Some("MO-6"));
    assert!(Morra::legal_commands(g.state(), ADA).is_empty());
    assert_eq!(Morra::legal_commands(g.state(), BO).len(), 9);
}

#[test]
fn malformed_commands_are_refused_as_json() {
    let entry = morra::entry();
    let mut g = (entry.new_game)(&serde_json::json!({})).expect("the default setup");
    let e = g
        .command(
            ADA,
            &serde_json::json!({ "type": "shout", "fingers": 1 }),
            &mut SeededRandomness::new(0),
        )
        .expect_err("not a command");
    assert!(
        matches!(
            e,
            GameError::Malformed {
                what: "command",
                ..
            }
        ),
        "{e:?}"
    );
    let extra = serde_json::json!({ "type": "show", "fingers": 1, "call": 2, "peek": true });
    let e = g
        .command(ADA, &extra, &mut SeededRandomness::new(0))
        .expect_err("a field the command does not have");
    assert!(e.to_string().contains("unknown field `peek`"), "{e}");
    assert_eq!(g.event_count(), 0);
}

#[test]
fn a_hand_stays_face_down_until_both_are_in() {
    let mut g = game(Setup::default());
    let events = play(&mut g, ADA, show(3, 6));
    for viewer in [Viewer::Seat(BO), Viewer::Spectator] {
        let view = Morra::view(g.state(), viewer);
        assert!(view.players[0].chosen);
        assert_eq!(view.players[0].hand, None);
        let seen = Morra::event_view(&events[0], viewer).expect("the choice is seen");
        assert_eq!(
            seen,
            Event::Chosen {
                seat: ADA,
                hand: None
            }
        );
        assert_eq!(
            Morra::narrate(g.state(), &seen),
            "Ada chooses a hand, face down."
        );
        let render = Morra::render(g.state(), viewer);
        assert!(
            render.contains("Ada: 0 points has chosen a hand"),
            "{render}"
        );
        assert!(!render.contains("calls 6"), "{render}");
    }
    let own = Morra::view(g.state(), Viewer::Seat(ADA));
    assert_eq!(own.players[0].hand, Some(morra::Hand::new(3, 6)));
    assert!(own.players[0].you && !own.players[1].you);
    assert!(Morra::secret_pending(g.state(), ADA));
    assert!(!Morra::secret_pending(g.state(), BO));
    assert!(!Morra::reveals(&events[0]));
    let events = play(&mut g, BO, show(3, 5));
    assert!(Morra::reveals(&events[1]));
    assert!(!Morra::secret_pending(g.state(), ADA));
    // Once revealed, everyone sees both hands.
    let seen = Morra::view(g.state(), Viewer::Spectator);
    let last = seen.last.expect("the last round");
    assert_eq!(
        last.hands,
        vec![morra::Hand::new(3, 6), morra::Hand::new(3, 5)]
    );
    assert_eq!(last.scorer.as_deref(), Some("Ada"));
}

#[test]
fn reaching_the_target_wins_at_once() {
    let mut g = game(Setup {
        target: 5,
        scores: [0, 2],
        round: 2,
        ..Setup::default()
    });
    play(&mut g, ADA, show(3, 6));
    let events = play(&mut g, BO, show(2, 5));
    assert_eq!(
        events.last(),
        Some(&Event::GameOver {
            outcome: Outcome::Win { player: 1 }
        })
    );
    let status = Morra::status(g.state());
    assert_eq!(status.over.as_deref(), Some("Bo wins, 7 to 0."));
    assert!(status.waiting_for.is_empty());
    assert!(Morra::legal_commands(g.state(), ADA).is_empty());
    assert_eq!(refused(&mut g, ADA, show(1, 2)).rule(), Some("MO-12"));
}

#[test]
fn the_round_limit_ends_the_game_and_equal_scores_draw() {
    let mut g = game(Setup {
        round_limit: 1,
        ..Setup::default()
    });
    play(&mut g, ADA, show(1, 2));
    let events = play(&mut g, BO, show(1, 2));
    assert_eq!(
        events.last(),
        Some(&Event::GameOver {
            outcome: Outcome::Draw
        })
    );
    assert_eq!(
        Morra::status(g.state()).over.as_deref(),
        Some("A draw, 0 points each.")
    );
    // A position after the end starts a game that is over at once.
    let position = Morra::position(g.state(), Viewer::Spectator).expect("a position");
    assert_eq!(position.round, 2);
    let (state, opening) = clash_core::start::<Morra>(&position).expect("it starts");
    assert_eq!(
        opening,
        vec![Event::GameOver {
            outcome: Outcome::Draw
        }]
    );
    assert_eq!(state.over, Some(Outcome::Draw));
}

#[test]
fn setups_are_checked_rule_by_rule() {
    let bad = |setup: Setup| Morra::setup(&setup).expect_err("refused").rule();
    let same = Setup {
        names: ["Ada".into(), " Ada ".into()],
        ..Setup::default()
    };
    assert_eq!(bad(same), Some("MO-1"));
    let empty = Setup {
        names: ["".into(), "Bo".into()],
        ..Setup::default()
    };
    assert_eq!(bad(empty), Some("MO-1"));
    let hidden = Setup {
        names: ["A\u{202E}da".into(), "Bo".into()],
        ..Setup::default()
    };
    assert_eq!(bad(hidden), Some("MO-1"));
    assert_eq!(
        bad(Setup {
            target: 0,
            ..Setup::default()
        }),
        Some("MO-2")
    );
    assert_eq!(
        bad(Setup {
            target: 100,
            ..Setup::default()
        }),
        Some("MO-2")
    );
    assert_eq!(
        bad(Setup {
            round_limit: 0,
            ..Setup::default()
        }),
        Some("MO-2")
    );
    assert_eq!(
        bad(Setup {
            round: 32,
            ..Setup::default()
        }),
        Some("MO-13")
    );
    assert_eq!(
        bad(Setup {
            round: 0,
            ..Setup::default()
        }),
        Some("MO-13")
    );
    assert_eq!(
        bad(Setup {
            round: 2,
            scores: [4, 3],
            ..Setup::default()
        }),
        Some("MO-11")
    );
    let unknown = (morra::entry().new_game)(&serde_json::json!({ "taget": 5 }));
    assert!(matches!(
        unknown,
        Err(GameError::Malformed { what: "setup", .. })
    ));
}
