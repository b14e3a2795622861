//! Property tests: conservation, the fast path, exact legal commands, views, and random games
//! that always end with a winner. (The kernel's laws, replay among them, are in `laws.rs`.)

use clash_core::{Randomness, Ruleset, Seat, SeededRandomness, Viewer, execute};
use proptest::prelude::*;
use triforce::board::DEFAULT_LAYOUT;
use triforce::random::{self, Policy, RandomPlayer};
use triforce::{Command, EndRule, Event, Phase, Pos, Setup, Size, State, Triforce, winning};

/// Every pyramid is somewhere: 5 per size of every colour on the board plus stash/supply (TF-2,
/// TF-3), and the whites never move (TF-8).
fn conserved(state: &State) -> Result<(), TestCaseError> {
    let mut on_board = [[0u8; 3]; 8];
    for p in Pos::all() {
        for pyramid in state.stack(p).as_slice() {
            let colour = match pyramid.owner() {
                Some(s) => usize::from(s),
                None if pyramid.is_sword() => 6,
                None => 7,
            };
            on_board[colour][pyramid.size().index()] += 1;
        }
        prop_assert_eq!(state.white(p), DEFAULT_LAYOUT[p.index()]);
    }
    for size in Size::ALL {
        let i = size.index();
        for s in 0..state.players() {
            prop_assert_eq!(
                on_board[usize::from(s)][i] + state.stash(s).get(size),
                5,
                "TF-2 p{} {:?}",
                s + 1,
                size
            );
        }
        prop_assert_eq!(on_board[6][i] + state.swords().get(size), 5, "TF-3 swords");
        prop_assert_eq!(
            on_board[7][i] + state.shields().get(size),
            5,
            "TF-3 shields"
        );
    }
    Ok(())
}

/// TF-20: no stack is contested when a turn begins.
fn quiet_at_turn_start(state: &State) -> Result<(), TestCaseError> {
    if state.phase() == Phase::Actions && state.actions_taken() == 0 {
        prop_assert_eq!(triforce::combat::contested_mask(state), 0);
    }
    Ok(())
}

/// Any command at all, including nonsense positions and levels.
fn any_command() -> impl Strategy<Value = Command> {
    prop_oneof![
        prop::sample::select(Size::ALL.to_vec()).prop_map(|size| Command::Place { size }),
        (0u8..18, 0u8..18).prop_map(|(from, to)| Command::Move { from, to }),
        Just(Command::EndTurn),
        (0u8..18).prop_map(|at| Command::Resolve { at }),
        (0u8..22).prop_map(|level| Command::TakeSword { level }),
        (0u8..22).prop_map(|level| Command::TakeShield { level }),
        Just(Command::Decline),
    ]
}

/// Play `steps` random commands through `decide`/`apply`, keeping the log.
/// The log begins with the opening events, as every game's log does.
fn walk(setup: &Setup, seed: u64, steps: usize) -> (State, Vec<Event>) {
    let (mut state, mut log) = clash_core::start::<Triforce>(setup).unwrap();
    let mut player = RandomPlayer::new(seed);
    let mut dice = SeededRandomness::new(seed.wrapping_add(1));
    for _ in 0..steps {
        let Some((seat, command)) = player.pick(&state) else {
            break;
        };
        log.extend(execute::<Triforce>(&mut state, seat, &command, &mut dice).unwrap());
    }
    (state, log)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// The fast path (no events) reaches the same state as the logged game from the same
    /// choices and dice. (Replay and the state's JSON are the kernel's laws: see `laws.rs`.)
    #[test]
    fn the_fast_path_plays_the_logged_game(seed: u64, players in 3u8..=6, steps in 0usize..400) {
        let setup = Setup::new(players);
        let (state, _) = walk(&setup, seed, steps);
        let mut dice = SeededRandomness::new(seed.wrapping_add(1));
        let start = triforce::start(&setup).unwrap();
        let fast = random::play(start, &mut RandomPlayer::new(seed), &mut dice, steps as u32).unwrap();
        prop_assert_eq!(fast.state, state);
    }

    #[test]
    fn pyramids_are_conserved_and_whites_never_move(seed: u64, players in 3u8..=6, steps in 0usize..600) {
        let setup = Setup::new(players);
        let mut state = triforce::start(&setup).unwrap();
        let mut player = RandomPlayer::with_policy(seed, if seed % 2 == 0 { Policy::ByKind } else { Policy::Uniform });
        let mut dice = SeededRandomness::new(seed);
        for _ in 0..steps {
            let Some((seat, command)) = player.pick(&state) else { break };
            execute::<Triforce>(&mut state, seat, &command, &mut dice).unwrap();
            conserved(&state)?;
            quiet_at_turn_start(&state)?;
        }
    }

    /// Only listed commands are accepted, and refusals cite a Triforce rule. (That every listed
    /// command is accepted and a refusal changes nothing are the kernel's laws: see `laws.rs`.)
    #[test]
    fn legal_commands_are_exactly_the_accepted_ones(seed: u64, steps in 0usize..300, tries in prop::collection::vec((1u8..=4, any_command()), 40)) {
        let (state, _) = walk(&Setup::new(3), seed, steps);
        for (n, command) in tries {
            let seat = if n == 4 { Seat::Gm } else { Seat::Player(n) };
            let legal = Triforce::legal_commands(&state, seat);
            let mut after = state;
            let mut dice = SeededRandomness::new(seed);
            match execute::<Triforce>(&mut after, seat, &command, &mut dice) {
                Ok(_) => prop_assert!(legal.contains(&command), "{command:?} accepted but not listed"),
                Err(e) => {
                    prop_assert!(!legal.contains(&command), "{command:?} listed but refused: {e}");
                    prop_assert!(e.rule().is_some_and(|r| r.starts_with("TF-")), "{e:?}");
                }
            }
        }
    }

    #[test]
    fn views_show_everyone_the_same_public_state(seed: u64, steps in 0usize..200) {
        let (state, _) = walk(&Setup::new(4), seed, steps);
        let spectator = serde_json::to_value(Triforce::view(&state, Viewer::Spectator)).unwrap();
        for n in 1..=4 {
            let seen = serde_json::to_value(Triforce::view(&state, Viewer::Seat(Seat::Player(n)))).unwrap();
            prop_assert_eq!(&seen, &spectator);
        }
        let listed = state.awaiting().map(|s| Triforce::legal_commands(&state, s)).unwrap_or_default();
        prop_assert_eq!(serde_json::to_value(listed).unwrap(), spectator["legal_commands"].clone());
    }

    /// TF-28 to TF-30: random games end, and the winner really won by the rule named.
    #[test]
    fn random_full_games_end_with_a_winner(seed: u64, players in 3u8..=6) {
        let start = triforce::start(&Setup::new(players)).unwrap();
        let mut dice = SeededRandomness::new(seed);
        let game = random::play(start, &mut RandomPlayer::new(seed), &mut dice, 200_000).unwrap();
        let state = game.state;
        let outcome = *state.outcome().expect("the game ended within 200,000 commands");
        prop_assert!(!outcome.winners.is_empty());
        let first = outcome.winners.as_slice()[0];
        let index = match first { Seat::Player(n) => n - 1, Seat::Gm => unreachable!() };
        match outcome.by {
            EndRule::Territory => prop_assert!(winning::bottom_counts(&state)[usize::from(index)] >= winning::territory_target(players)),
            EndRule::LastFree => prop_assert_eq!(winning::free_players(&state), 1 << index),
            EndRule::Deadlock => prop_assert_eq!(winning::free_players(&state), 0),
            EndRule::TurnLimit => prop_assert!(false, "no turn limit was set"),
        }
        conserved(&state)?;
    }

    #[test]
    fn a_turn_limit_bounds_every_game(seed: u64, limit in 1u32..60) {
        let mut setup = Setup::new(3);
        setup.turn_limit = Some(limit);
        let start = triforce::start(&setup).unwrap();
        let mut dice = SeededRandomness::new(seed);
        let game = random::play(start, &mut RandomPlayer::new(seed), &mut dice, 100_000).unwrap();
        let outcome = game.state.outcome().expect("TF-30: the game ends at the turn limit");
        prop_assert!(game.state.turn() <= limit);
        prop_assert!(!outcome.winners.is_empty());
    }
}

/// Game lengths of random play, printed for the report (`cargo test --release -p triforce
/// --test it -- --nocapture properties::random_game_lengths`). Asserts every game ended without a limit.
#[test]
fn random_game_lengths() {
    for (players, games) in [(3u8, 40u64), (6, 40)] {
        let mut turns: Vec<u32> = (0..games)
            .map(|seed| {
                let start = triforce::start(&Setup::new(players)).unwrap();
                let mut dice: Box<dyn Randomness> = Box::new(SeededRandomness::new(seed));
                let game = random::play(
                    start,
                    &mut RandomPlayer::new(seed),
                    dice.as_mut(),
                    1_000_000,
                )
                .unwrap();
                assert!(game.state.outcome().is_some(), "seed {seed} ended");
                game.state.turn()
            })
            .collect();
        turns.sort();
        println!(
            "{players} players, {games} random games: turns min {} median {} max {}",
            turns[0],
            turns[turns.len() / 2],
            turns[turns.len() - 1]
        );
    }
}
