//! A player that picks random legal commands, for tests and benchmarks, and a fast loop that
//! plays whole games with it.

use clash_core::{Randomness, RuleError, Seat, SeededRandomness};
use serde::{Deserialize, Serialize};

use crate::actions;
use crate::board::{POSITIONS, Pos, positions_in};
use crate::pieces::Size;
use crate::state::{Phase, State};
use crate::turn::{self, Command, Discard};

/// How the random player spreads its choice over the legal commands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Policy {
    /// Every legal command equally likely. Moves far outnumber placements, so pieces wander
    /// and games run long (3 players: median about 2,700 turns).
    Uniform,
    /// First a kind (place, move, end the turn, or a combat choice) equally likely among those
    /// available, then a command of that kind. Builds stacks faster; the benchmark's player.
    #[default]
    ByKind,
}

/// Picks one of the awaited seat's legal commands at random.
#[derive(Debug, Clone)]
pub struct RandomPlayer {
    rng: SeededRandomness,
    policy: Policy,
}

fn kind(c: &Command) -> usize {
    match c {
        Command::Place { .. } => 0,
        Command::Move { .. } => 1,
        Command::EndTurn => 2,
        _ => 3,
    }
}

impl RandomPlayer {
    pub fn new(seed: u64) -> Self {
        Self::with_policy(seed, Policy::default())
    }

    pub fn with_policy(seed: u64, policy: Policy) -> Self {
        RandomPlayer {
            rng: SeededRandomness::new(seed),
            policy,
        }
    }

    fn below(&mut self, n: usize) -> Option<usize> {
        self.rng.choose(n, &|_| String::new()).ok()
    }

    /// The seat whose call it is and a random legal command for it; `None` once the game is over.
    pub fn pick(&mut self, state: &State) -> Option<(Seat, Command)> {
        let seat = state.awaiting()?;
        if self.policy == Policy::ByKind && state.phase == Phase::Actions {
            return self.pick_action(state).map(|c| (seat, c));
        }
        let commands = turn::legal(state, seat);
        let commands = commands.as_slice();
        let chosen = match self.policy {
            Policy::Uniform => commands.get(self.below(commands.len())?),
            Policy::ByKind => {
                let mut per_kind = [0usize; 4];
                commands.iter().for_each(|c| per_kind[kind(c)] += 1);
                let kinds = per_kind.iter().filter(|n| **n > 0).count();
                let k = (0..4)
                    .filter(|k| per_kind[*k] > 0)
                    .nth(self.below(kinds)?)?;
                let i = self.below(per_kind[k])?;
                commands.iter().filter(|c| kind(c) == k).nth(i)
            }
        };
        chosen.map(|c| (seat, *c))
    }
}

impl RandomPlayer {
    /// [`Policy::ByKind`] in the action phase, without listing every command. Same kinds, same
    /// order, same draws as picking from [`turn::legal`], so the choice is identical; it only
    /// skips the flood fills when placing or ending is drawn, and never builds the list.
    fn pick_action(&mut self, state: &State) -> Option<Command> {
        let s = state.active;
        let sizes = actions::placements(state, s, state.placed);
        let surface = actions::Surface::of(state);
        let (tops, legal) = (surface.tops_of(s), surface.legal);
        // With the third-move filter a move may be refused, so only a real count says whether
        // any is left; otherwise one accepting neighbour is enough.
        let filtered = turn::third_move_filtered(state);
        let mut reaches = None;
        let can_move = if filtered {
            let r = turn::move_reaches(state, &tops, &legal);
            let any = r.iter().any(|m| *m != 0);
            reaches = Some(r);
            any
        } else {
            actions::can_move(&tops, &legal)
        };
        let available = [sizes != 0, can_move, turn::can_end(state)];
        let kinds = available.iter().filter(|a| **a).count();
        let k = (0..3).filter(|k| available[*k]).nth(self.below(kinds)?)?;
        match k {
            0 => {
                let i = self.below(sizes.count_ones() as usize)?;
                Size::ALL
                    .into_iter()
                    .filter(|z| sizes & z.bit() != 0)
                    .nth(i)
                    .map(|size| Command::Place { size })
            }
            1 => {
                let reaches = reaches.unwrap_or_else(|| turn::move_reaches(state, &tops, &legal));
                self.pick_move(tops[0] | tops[1] | tops[2], &reaches)
            }
            _ => self.below(1).map(|_| Command::EndTurn),
        }
    }

    /// A move drawn uniformly from every (origin, destination) pair, in board order. `origins`
    /// is the mask of positions with a non-empty entry in `reaches`.
    fn pick_move(&mut self, origins: u16, reaches: &[u16; POSITIONS]) -> Option<Command> {
        let count = |from: Pos| reaches[from.index()].count_ones();
        let total: u32 = positions_in(origins).map(count).sum();
        let mut i = self.below(total as usize)? as u32;
        for from in positions_in(origins) {
            let n = count(from);
            if i < n {
                let to = positions_in(reaches[from.index()]).nth(i as usize)?;
                return Some(Command::Move {
                    from: from.n(),
                    to: to.n(),
                });
            }
            i -= n;
        }
        None
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
pub fn play(
    state: State,
    player: &mut RandomPlayer,
    dice: &mut dyn Randomness,
    max_commands: u32,
) -> Result<RandomGame, RuleError> {
    let mut state = state;
    let mut commands = 0;
    while commands < max_commands {
        let Some((seat, command)) = player.pick(&state) else {
            break;
        };
        turn::step(&mut state, seat, &command, dice, &mut Discard)?;
        commands += 1;
    }
    Ok(RandomGame { state, commands })
}
