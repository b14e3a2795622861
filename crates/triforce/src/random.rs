//! A player that picks uniformly among the legal commands, for tests and benchmarks, and a
//! fast loop that plays whole games with it.

use clash_core::{Randomness, RuleError, Seat, SeededRandomness};

use crate::state::State;
use crate::turn::{self, Command, Discard};

/// Picks one of the awaited seat's legal commands uniformly at random.
#[derive(Debug, Clone)]
pub struct RandomPlayer {
    rng: SeededRandomness,
}

impl RandomPlayer {
    pub fn new(seed: u64) -> Self {
        RandomPlayer { rng: SeededRandomness::new(seed) }
    }

    /// The seat whose call it is and a random legal command for it; `None` once the game is over.
    pub fn pick(&mut self, state: &State) -> Option<(Seat, Command)> {
        let seat = state.awaiting()?;
        let commands = turn::legal(state, seat);
        let i = self.rng.choose(commands.len(), &|_| String::new()).ok()?;
        commands.as_slice().get(i).map(|c| (seat, *c))
    }
}

/// How a random game went.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RandomGame {
    pub state: State,
    /// Commands sent.
    pub commands: u32,
}

/// Play from `state` with `player` choosing every command and `dice` rolling, until the game
/// ends or `max_commands` commands were sent. No events are kept and nothing is allocated.
pub fn play(state: State, player: &mut RandomPlayer, dice: &mut dyn Randomness, max_commands: u32) -> Result<RandomGame, RuleError> {
    let mut state = state;
    let mut commands = 0;
    while commands < max_commands {
        let Some((seat, command)) = player.pick(&state) else { break };
        turn::step(&mut state, seat, &command, dice, &mut Discard)?;
        commands += 1;
    }
    Ok(RandomGame { state, commands })
}
