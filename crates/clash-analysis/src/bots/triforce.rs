//! Triforce bot: Monte-Carlo search over the seat's legal commands.
//!
//! The search is a one-level UCT tree (UCB1 bandit at the root): each playout picks a root
//! command by UCB1, applies it with fresh dice, then lets the engine's own random player
//! ([`triforce::random::play`]) finish the game or run `playout_depth` commands. A playout is
//! scored for the searching seat: 1 for a win, ½ for a shared draw, 0 for a loss; a cut-off
//! playout scores its share of stacks as bottom player (TF-28's measure), squashed into (0, 1).
//! The command with the most visits is played. The budget is a number of playouts, so results
//! are reproducible for a given seed; a wall-clock limit may be added on top.
//!
//! The Triforce state is a small `Copy` record, so a playout allocates nothing.

use std::time::{Duration, Instant};

use clash_core::{Randomness, Seat, SeededRandomness};
use triforce::random::{RandomPlayer, play};
use triforce::turn::{self, Discard};
use triforce::{Command, Pos, State, Triforce};

use super::Bot;

/// Monte-Carlo search bot.
#[derive(Debug, Clone)]
pub struct MctsBot {
    /// Playouts per decision.
    pub playouts: u32,
    /// Commands per playout before it is scored by territory.
    pub playout_depth: u32,
    /// Optional wall-clock budget per decision (makes play depend on machine speed).
    pub time_limit: Option<Duration>,
    /// UCB1 exploration constant.
    pub exploration: f64,
}

impl Default for MctsBot {
    fn default() -> Self {
        MctsBot { playouts: 200, playout_depth: 60, time_limit: None, exploration: 1.0 }
    }
}

impl MctsBot {
    pub fn with_playouts(playouts: u32) -> Self {
        MctsBot { playouts: playouts.max(1), ..Self::default() }
    }
}

/// The score of a finished or cut-off playout for seat index `me`.
pub fn evaluate(state: &State, me: u8) -> f64 {
    if let Some(outcome) = state.outcome() {
        let winners = outcome.winners.as_slice();
        let mine = winners.iter().any(|s| *s == Seat::Player(me + 1));
        return match (mine, winners.len()) {
            (false, _) => 0.0,
            (true, 1) => 1.0,
            (true, n) => 1.0 / n as f64,
        };
    }
    let mut counts = [0i32; 6];
    for at in Pos::all() {
        if let Some(b) = state.stack(at).bottom_player() {
            counts[usize::from(b) % 6] += 1;
        }
    }
    let mine = counts[usize::from(me) % 6];
    let best_other = (0..state.players()).filter(|s| *s != me).map(|s| counts[usize::from(s) % 6]).max().unwrap_or(0);
    // Leading by a few stacks is good, never as good as a win.
    0.5 + 0.4 * f64::from(mine - best_other).clamp(-5.0, 5.0) / 5.0
}

struct Arm {
    command: Command,
    visits: u32,
    total: f64,
}

impl Bot<Triforce> for MctsBot {
    fn choose(&mut self, state: &State, seat: Seat, rng: &mut dyn Randomness) -> Option<Command> {
        if state.awaiting() != Some(seat) {
            return None;
        }
        let Seat::Player(n) = seat else { return None };
        let me = n.checked_sub(1)?;
        let legal = turn::legal(state, seat);
        let mut arms: Vec<Arm> = legal.as_slice().iter().map(|c| Arm { command: *c, visits: 0, total: 0.0 }).collect();
        if arms.len() <= 1 {
            return arms.pop().map(|a| a.command);
        }
        // One generator seeded from the caller's randomness drives every playout.
        let seed = u64::from(rng.roll(u32::MAX).unwrap_or(1)) << 32 | u64::from(rng.roll(u32::MAX).unwrap_or(2));
        let mut dice = SeededRandomness::new(seed);
        let mut players = RandomPlayer::new(seed ^ 0x9e37_79b9_7f4a_7c15);
        let start = Instant::now();
        for i in 0..self.playouts {
            if self.time_limit.is_some_and(|t| start.elapsed() > t) && i >= arms.len() as u32 {
                break;
            }
            let pick = select(&arms, i, self.exploration);
            let mut s = *state;
            if turn::step(&mut s, seat, &arms[pick].command, &mut dice, &mut Discard).is_err() {
                // Never chosen again: a command the engine refuses scores nothing.
                arms[pick].visits += 1_000_000;
                continue;
            }
            let end = play(s, &mut players, &mut dice, self.playout_depth).map(|g| g.state).unwrap_or(s);
            arms[pick].visits += 1;
            arms[pick].total += evaluate(&end, me);
        }
        arms.iter().filter(|a| a.visits < 1_000_000).max_by(|a, b| a.visits.cmp(&b.visits).then(mean(a).total_cmp(&mean(b)))).map(|a| a.command)
    }
}

fn mean(a: &Arm) -> f64 {
    if a.visits == 0 { 0.0 } else { a.total / f64::from(a.visits) }
}

/// UCB1: unvisited arms first (in order), then the best upper confidence bound.
fn select(arms: &[Arm], played: u32, c: f64) -> usize {
    if let Some(i) = arms.iter().position(|a| a.visits == 0) {
        return i;
    }
    let ln = f64::from(played.max(1)).ln();
    let ucb = |a: &Arm| mean(a) + c * (ln / f64::from(a.visits)).sqrt();
    (0..arms.len()).max_by(|i, j| ucb(&arms[*i]).total_cmp(&ucb(&arms[*j]))).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use clash_core::Ruleset;

    #[test]
    fn plays_only_legal_commands_and_is_reproducible() {
        let mut state = Triforce::setup(&triforce::Setup::new(3)).unwrap();
        let mut bot = MctsBot::with_playouts(30);
        let mut first = Vec::new();
        for _ in 0..12 {
            let seat = state.awaiting().unwrap();
            let mut rng = SeededRandomness::new(7);
            let c = bot.choose(&state, seat, &mut rng).unwrap();
            first.push(c);
            clash_core::execute::<Triforce>(&mut state, seat, &c, &mut rng).expect("legal");
        }
        let mut state = Triforce::setup(&triforce::Setup::new(3)).unwrap();
        for c in first {
            let seat = state.awaiting().unwrap();
            let mut rng = SeededRandomness::new(7);
            assert_eq!(bot.choose(&state, seat, &mut rng), Some(c));
            clash_core::execute::<Triforce>(&mut state, seat, &c, &mut rng).unwrap();
        }
    }

    #[test]
    fn a_seat_not_awaited_has_nothing_to_do() {
        let state = Triforce::setup(&triforce::Setup::new(3)).unwrap();
        assert_eq!(MctsBot::default().choose(&state, Seat::Player(2), &mut SeededRandomness::new(1)), None);
        assert_eq!(MctsBot::default().choose(&state, Seat::Gm, &mut SeededRandomness::new(1)), None);
    }

    #[test]
    fn evaluation_is_a_probability() {
        let state = Triforce::setup(&triforce::Setup::new(4)).unwrap();
        for me in 0..4 {
            let v = evaluate(&state, me);
            assert!((0.0..=1.0).contains(&v));
        }
    }
}
