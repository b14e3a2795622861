//! Triforce bot: Monte-Carlo tree search (UCT) over the engine's own commands.
//!
//! Each iteration (one *playout*) walks down a tree from the current position, adds one node,
//! finishes the game with the engine's random player, and credits the result to every node it
//! passed:
//!
//! 1. **Selection.** At each node the seat the engine awaits picks the child with the best
//!    UCB1 score *for that seat*: `mean reward of the seat + c·√(ln available / visits)`.
//!    Triforce seats 3 to 6 players, so every node keeps a reward vector with one entry per seat
//!    and each seat maximises its own entry (the "max^n" reading of UCT).
//! 2. **Expansion.** When a command legal at the node has no child yet, one such command (drawn
//!    at random) gets a child and selection stops.
//! 3. **Playout.** [`RandomPlayer`] (the engine's by-kind random player) plays on with
//!    [`turn::step`] until the game ends or the horizon is reached.
//! 4. **Backpropagation.** Every node on the path adds the playout's reward vector and a visit.
//!
//! ## Dice: open-loop search
//!
//! Combat dice are rolled inside [`turn::step`] (TF-24), so one command can lead to many
//! positions. The tree is *open-loop*: a node stands for the sequence of commands from the
//! root, not for one position, and every iteration replays that sequence from the root with
//! fresh dice. Between combats nothing is random, so there a node is exactly one position;
//! after a combat the same node averages over the dice, which is what the commands are worth
//! to a player who cannot see the dice in advance. Because the dice can change what is legal
//! (a lost piece cannot move), selection only considers children whose command is legal in
//! this iteration's position, and the exploration term counts how often a child was
//! *available* rather than how often its parent was visited (the subset-armed bandit rule of
//! information-set MCTS), so a child that is rarely legal is not over-explored.
//!
//! ## Horizon and scores
//!
//! Random games last hundreds of turns, so a playout stops once `playout_turns` turns after
//! the root's turn have been played. A playout is scored by the spec's own end rules:
//!
//! * a finished game: the winners share 1 (TF-28, TF-29: one winner scores 1; a TF-30 draw
//!   among k seats scores 1/k each);
//! * a game cut off at the horizon: scored as TF-30 scores a game that reaches its turn limit:
//!   the seats that are bottom player of the most stacks share 1.
//!
//! ## Budget and reproducibility
//!
//! The budget is `playouts` iterations, optionally cut short by `time_limit` (at least one
//! iteration always runs). Every random choice (dice, expansion order, playout commands) comes
//! from generators seeded from the `Randomness` passed to [`Bot::choose`], so for a given seed
//! and playout budget, without a time limit, the choice is always the same. The command played
//! is the root child with the most visits (ties: the better mean for the bot's seat, then the
//! engine's order).

use std::time::{Duration, Instant};

use crate::random::RandomPlayer;
use crate::turn::{self, Discard};
use crate::{Command, Pos, State, Triforce};
use clash_core::{Randomness, Seat, SeededRandomness};

use clash_analysis::bots::Bot;

/// Most seats at a Triforce table (TF-5).
const SEATS: usize = 6;

/// A reward per seat (index 0 is `p1`).
pub type Rewards = [f64; SEATS];

/// Monte-Carlo tree search bot.
#[derive(Debug, Clone)]
pub struct MctsBot {
    /// Iterations (tree walk + playout) per decision; at least one runs.
    pub playouts: u32,
    /// Turns played after the root's turn before a playout is scored by territory (TF-30).
    pub playout_turns: u32,
    /// Optional wall-clock budget per decision (play then depends on machine speed).
    pub time_limit: Option<Duration>,
    /// UCB1 exploration constant `c`.
    pub exploration: f64,
}

impl Default for MctsBot {
    /// 200 playouts, a horizon of 6 turns (two rounds at three players), `c = 0.7`.
    fn default() -> Self {
        MctsBot {
            playouts: 200,
            playout_turns: 6,
            time_limit: None,
            exploration: 0.7,
        }
    }
}

impl MctsBot {
    pub fn with_playouts(playouts: u32) -> Self {
        MctsBot {
            playouts: playouts.max(1),
            ..Self::default()
        }
    }
}

/// What a playout is worth to each seat: finished games by their winners, cut-off games by
/// TF-30's count of stacks as bottom player. The entries add up to 1.
pub fn rewards(state: &State) -> Rewards {
    let mut out = [0.0; SEATS];
    let winners: Vec<usize> = match state.outcome() {
        Some(outcome) => outcome
            .winners
            .as_slice()
            .iter()
            .filter_map(|s| seat_index(*s))
            .collect(),
        None => territory_leaders(state),
    };
    let share = 1.0 / winners.len().max(1) as f64;
    for w in winners {
        if let Some(r) = out.get_mut(w) {
            *r += share;
        }
    }
    out
}

/// TF-30: the seats that are bottom player of the most stacks.
fn territory_leaders(state: &State) -> Vec<usize> {
    let mut counts = [0u32; SEATS];
    for at in Pos::all() {
        if let Some(b) = state.stack(at).bottom_player()
            && let Some(c) = counts.get_mut(usize::from(b))
        {
            *c += 1;
        }
    }
    let players = usize::from(state.players()).min(SEATS);
    let best = counts[..players].iter().copied().max().unwrap_or(0);
    (0..players).filter(|s| counts[*s] == best).collect()
}

/// `p1` → 0, …; the GM plays no Triforce seat.
fn seat_index(seat: Seat) -> Option<usize> {
    match seat {
        Seat::Player(n) if (1..=SEATS as u8).contains(&n) => Some(usize::from(n - 1)),
        _ => None,
    }
}

/// A total order on commands, so children can be found by binary search.
fn key(c: &Command) -> u16 {
    match *c {
        Command::Place { size } => size.index() as u16,
        Command::Move { from, to } => 16 + u16::from(from) * 16 + u16::from(to),
        Command::EndTurn => 300,
        Command::Resolve { at } => 320 + u16::from(at),
        Command::TakeSword { level } => 400 + u16::from(level),
        Command::TakeShield { level } => 700 + u16::from(level),
        Command::Decline => 1000,
    }
}

/// One node: the command that leads to it from its parent and what its playouts earned.
struct Node {
    command: Command,
    key: u16,
    visits: u32,
    /// Iterations in which this node's command was legal at its parent (ISMCTS availability).
    available: u32,
    reward: Rewards,
    /// Children, sorted by [`key`].
    children: Vec<usize>,
}

impl Node {
    fn new(command: Command) -> Node {
        Node {
            command,
            key: key(&command),
            visits: 0,
            available: 0,
            reward: [0.0; SEATS],
            children: Vec::new(),
        }
    }

    fn mean(&self, seat: usize) -> f64 {
        if self.visits == 0 {
            0.0
        } else {
            self.reward[seat] / f64::from(self.visits)
        }
    }
}

/// What the walk down the tree does next at one node.
enum Next {
    /// Follow an existing child.
    Child(usize),
    /// Add a child for this command and stop selecting.
    Expand(Command),
    /// Nothing to choose (game over, or nobody awaited).
    Stop,
}

/// One decision's search: the tree and the generators.
struct Search<'a> {
    bot: &'a MctsBot,
    root: State,
    horizon: u32,
    nodes: Vec<Node>,
    dice: SeededRandomness,
    choices: SeededRandomness,
    players: RandomPlayer,
}

impl<'a> Search<'a> {
    fn new(bot: &'a MctsBot, root: &State, seed: u64) -> Search<'a> {
        Search {
            bot,
            root: *root,
            horizon: root.turn().saturating_add(bot.playout_turns),
            nodes: vec![Node::new(Command::Decline)],
            dice: SeededRandomness::new(seed),
            choices: SeededRandomness::new(seed ^ 0x5851_f42d_4c95_7f2d),
            players: RandomPlayer::new(seed ^ 0x9e37_79b9_7f4a_7c15),
        }
    }

    fn over(&self, state: &State) -> bool {
        state.outcome().is_some() || state.turn() > self.horizon
    }

    /// One iteration: select, expand, play out, back up.
    fn iterate(&mut self) {
        let mut state = self.root;
        let mut path = vec![0];
        let mut node = 0;
        while !self.over(&state) {
            let next = self.next(node, &state);
            let command = match next {
                Next::Child(child) => self.nodes[child].command,
                Next::Expand(command) => command,
                Next::Stop => break,
            };
            let Some(seat) = state.awaiting() else { break };
            let before = state;
            if turn::step(&mut state, seat, &command, &mut self.dice, &mut Discard).is_err() {
                // Only a failing die could refuse a legal command; score the position before it.
                state = before;
                break;
            }
            node = match next {
                Next::Child(child) => child,
                _ => self.add_child(node, command),
            };
            path.push(node);
            if matches!(next, Next::Expand(_)) {
                break;
            }
        }
        let end = self.playout(state);
        let reward = rewards(&end);
        for id in path {
            let n = &mut self.nodes[id];
            n.visits += 1;
            n.reward.iter_mut().zip(reward).for_each(|(r, x)| *r += x);
        }
    }

    /// Selection at `node`: count availability, expand an untried command, or pick by UCB1.
    fn next(&mut self, node: usize, state: &State) -> Next {
        let Some(seat) = state.awaiting() else {
            return Next::Stop;
        };
        let Some(mover) = seat_index(seat) else {
            return Next::Stop;
        };
        let legal = turn::legal(state, seat);
        let mut tried = Vec::with_capacity(legal.len());
        let mut untried = Vec::new();
        for c in legal.as_slice() {
            match self.child(node, key(c)) {
                Some(child) => tried.push(child),
                None => untried.push(*c),
            }
        }
        for child in &tried {
            self.nodes[*child].available += 1;
        }
        if !untried.is_empty() {
            let i = self
                .choices
                .choose(untried.len(), &|_| String::new())
                .unwrap_or(0);
            return untried.get(i).map_or(Next::Stop, |c| Next::Expand(*c));
        }
        let c = self.bot.exploration;
        let ucb = |n: &Node| {
            n.mean(mover)
                + c * (f64::from(n.available.max(1)).ln() / f64::from(n.visits.max(1))).sqrt()
        };
        tried
            .into_iter()
            .max_by(|a, b| ucb(&self.nodes[*a]).total_cmp(&ucb(&self.nodes[*b])))
            .map_or(Next::Stop, Next::Child)
    }

    fn child(&self, node: usize, key: u16) -> Option<usize> {
        let children = &self.nodes[node].children;
        children
            .binary_search_by_key(&key, |c| self.nodes[*c].key)
            .ok()
            .map(|i| children[i])
    }

    fn add_child(&mut self, parent: usize, command: Command) -> usize {
        let id = self.nodes.len();
        let mut child = Node::new(command);
        child.available = 1;
        let at = self.nodes[parent]
            .children
            .partition_point(|c| self.nodes[*c].key < child.key);
        self.nodes.push(child);
        self.nodes[parent].children.insert(at, id);
        id
    }

    /// The engine's random player plays on until the game ends or the horizon is reached.
    fn playout(&mut self, mut state: State) -> State {
        // A turn takes a few dozen commands at most; this only guards against a stuck loop.
        let mut budget = (self.bot.playout_turns.saturating_add(1)).saturating_mul(200);
        while !self.over(&state) && budget > 0 {
            let Some((seat, command)) = self.players.pick(&state) else {
                break;
            };
            if turn::step(&mut state, seat, &command, &mut self.dice, &mut Discard).is_err() {
                break;
            }
            budget -= 1;
        }
        state
    }

    /// The root's most visited command (ties: the better mean for `me`, then engine order).
    fn best(&self, me: usize) -> Option<Command> {
        let root = &self.nodes[0];
        root.children
            .iter()
            .map(|c| &self.nodes[*c])
            .max_by(|a, b| {
                a.visits
                    .cmp(&b.visits)
                    .then(a.mean(me).total_cmp(&b.mean(me)))
                    .then(b.key.cmp(&a.key))
            })
            .map(|n| n.command)
    }
}

/// How each of the root's commands fared in one search.
#[derive(Debug, Clone, PartialEq)]
pub struct RootStat {
    pub command: Command,
    pub visits: u32,
    /// Mean reward for the searching seat.
    pub mean: f64,
}

impl MctsBot {
    /// Search from `state` for the awaited seat with generators seeded by `seed`; the root's
    /// children in the engine's command order. Empty when nobody is awaited.
    pub fn search(&self, state: &State, seed: u64) -> Vec<RootStat> {
        let Some(me) = state.awaiting().and_then(seat_index) else {
            return Vec::new();
        };
        let search = self.run(state, seed);
        search.nodes[0]
            .children
            .iter()
            .map(|c| &search.nodes[*c])
            .map(|n| RootStat {
                command: n.command,
                visits: n.visits,
                mean: n.mean(me),
            })
            .collect()
    }

    /// What `state` is worth to every seat: the mean reward of a search's playouts from it
    /// (each seat's share of the wins, under the search's own play), or the result of a
    /// finished game. The entries add up to 1.
    pub fn value(&self, state: &State, seed: u64) -> Rewards {
        if state.outcome().is_some() || state.awaiting().is_none() {
            return rewards(state);
        }
        let search = self.run(state, seed);
        let root = &search.nodes[0];
        let visits = f64::from(root.visits.max(1));
        root.reward.map(|r| r / visits)
    }

    fn run(&self, state: &State, seed: u64) -> Search<'_> {
        let mut search = Search::new(self, state, seed);
        let start = Instant::now();
        for i in 0..self.playouts.max(1) {
            if i > 0 && self.time_limit.is_some_and(|t| start.elapsed() > t) {
                break;
            }
            search.iterate();
        }
        search
    }
}

impl Bot<Triforce> for MctsBot {
    fn choose(&mut self, state: &State, seat: Seat, rng: &mut dyn Randomness) -> Option<Command> {
        if state.awaiting() != Some(seat) {
            return None;
        }
        let me = seat_index(seat)?;
        let legal = turn::legal(state, seat);
        if legal.len() <= 1 {
            return legal.as_slice().first().copied();
        }
        // Two draws from the caller's randomness seed every generator of the search.
        let seed = u64::from(rng.roll(u32::MAX).unwrap_or(1)) << 32
            | u64::from(rng.roll(u32::MAX).unwrap_or(2));
        self.run(state, seed).best(me)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Size;
    use proptest::prelude::*;

    fn bot(playouts: u32) -> MctsBot {
        MctsBot::with_playouts(playouts)
    }

    /// TV-5's pin, loosened: p2 (G) has one free piece, the S at 2. p1 (R) is on its third
    /// action, and only R-L from 4 onto 2 covers it without uncovering a G or B piece; then G
    /// and B are pinned, and R wins by TF-29 as its next turn begins.
    fn pin_in_one() -> State {
        let board = serde_json::json!({
            "1": ["p1-S", "p3-L", "p1-M"], "2": ["p2-S"], "3": ["p3-L", "p1-S"],
            "4": ["p1-M", "p1-L"], "5": ["p3-L", "p1-S"], "6": ["p2-M", "p1-L"],
            "7": ["p2-M", "p1-S"], "8": ["p2-M", "p1-L"], "10": ["p2-M", "p1-L"],
            "12": ["p3-L", "p1-M"], "13": ["p3-L", "p1-M"], "14": ["p1-S", "p2-M", "p1-L"]
        });
        let setup: crate::Setup =
            serde_json::from_value(serde_json::json!({"players": 3, "board": board})).unwrap();
        let state = crate::start(&setup).unwrap();
        let mut json = serde_json::to_value(state).unwrap();
        json["actions_taken"] = 2.into();
        serde_json::from_value(json).unwrap()
    }

    fn wins_at_once(state: &State, command: &Command) -> bool {
        let mut s = *state;
        let ok = turn::step(
            &mut s,
            Seat::Player(1),
            command,
            &mut SeededRandomness::new(3),
            &mut Discard,
        )
        .is_ok();
        ok && s
            .outcome()
            .is_some_and(|o| o.winners.as_slice() == [Seat::Player(1)])
    }

    #[test]
    fn finds_the_one_command_that_wins() {
        let state = pin_in_one();
        let legal = turn::legal(&state, Seat::Player(1));
        let winning: Vec<Command> = legal
            .as_slice()
            .iter()
            .filter(|c| wins_at_once(&state, c))
            .copied()
            .collect();
        // The position is what it claims: many commands, exactly one immediate TF-29 win.
        assert_eq!(winning, vec![Command::Move { from: 4, to: 2 }]);
        assert!(legal.len() > 10, "{} legal commands", legal.len());
        let chosen = bot(400).choose(&state, Seat::Player(1), &mut SeededRandomness::new(11));
        assert_eq!(chosen, Some(Command::Move { from: 4, to: 2 }));
    }

    #[test]
    fn the_winning_command_scores_a_certain_win() {
        let stats = bot(400).search(&pin_in_one(), 5);
        let win = stats
            .iter()
            .find(|s| s.command == Command::Move { from: 4, to: 2 })
            .unwrap();
        assert_eq!(win.mean, 1.0);
        assert!(stats.iter().all(|s| s.visits <= win.visits));
    }

    #[test]
    fn plays_only_legal_commands_and_is_reproducible() {
        let mut state = crate::start(&crate::Setup::new(3)).unwrap();
        let mut first = Vec::new();
        for _ in 0..12 {
            let seat = state.awaiting().unwrap();
            let mut rng = SeededRandomness::new(7);
            let c = bot(30).choose(&state, seat, &mut rng).unwrap();
            first.push(c);
            clash_core::execute::<Triforce>(&mut state, seat, &c, &mut rng).expect("legal");
        }
        let mut state = crate::start(&crate::Setup::new(3)).unwrap();
        for c in first {
            let seat = state.awaiting().unwrap();
            let mut rng = SeededRandomness::new(7);
            assert_eq!(bot(30).choose(&state, seat, &mut rng), Some(c));
            clash_core::execute::<Triforce>(&mut state, seat, &c, &mut rng).unwrap();
        }
    }

    #[test]
    fn the_same_seed_and_budget_give_the_same_search() {
        let state = pin_in_one();
        assert_eq!(bot(60).search(&state, 9), bot(60).search(&state, 9));
    }

    #[test]
    fn one_playout_is_enough_for_a_legal_answer() {
        let state = pin_in_one();
        let c = bot(1)
            .choose(&state, Seat::Player(1), &mut SeededRandomness::new(2))
            .unwrap();
        assert!(turn::legal(&state, Seat::Player(1)).as_slice().contains(&c));
        let stats = MctsBot {
            playouts: 0,
            ..bot(1)
        }
        .search(&state, 2);
        assert_eq!(
            stats.iter().map(|s| s.visits).sum::<u32>(),
            1,
            "a zero budget still runs once"
        );
    }

    #[test]
    fn a_single_legal_command_is_played_without_search() {
        // TV-1: on the empty board R's only action is to place S on its home.
        let state = crate::start(&crate::Setup::new(3)).unwrap();
        let c = bot(1).choose(&state, Seat::Player(1), &mut SeededRandomness::new(1));
        assert_eq!(c, Some(Command::Place { size: Size::S }));
    }

    #[test]
    fn a_seat_not_awaited_has_nothing_to_do() {
        let state = crate::start(&crate::Setup::new(3)).unwrap();
        assert_eq!(
            MctsBot::default().choose(&state, Seat::Player(2), &mut SeededRandomness::new(1)),
            None
        );
        assert_eq!(
            MctsBot::default().choose(&state, Seat::Gm, &mut SeededRandomness::new(1)),
            None
        );
    }

    #[test]
    fn territory_decides_a_cut_off_playout() {
        // Bottoms: p1 1, p2 2, p3 1, nobody has won: p2 leads TF-30's count alone.
        let board =
            serde_json::json!({"1": ["p1-S"], "15": ["p2-M"], "2": ["p2-S"], "11": ["p3-L"]});
        let setup: crate::Setup =
            serde_json::from_value(serde_json::json!({"players": 3, "board": board})).unwrap();
        let state = crate::start(&setup).unwrap();
        assert!(state.outcome().is_none());
        assert_eq!(&rewards(&state)[..3], &[0.0, 1.0, 0.0]);
        // A tie for the lead is shared.
        let board = serde_json::json!({"1": ["p1-S"], "15": ["p2-M"], "11": ["p3-L"]});
        let setup: crate::Setup =
            serde_json::from_value(serde_json::json!({"players": 3, "board": board})).unwrap();
        let r = rewards(&crate::start(&setup).unwrap());
        assert!(r[..3].iter().all(|x| (x - 1.0 / 3.0).abs() < 1e-12));
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]

        #[test]
        fn always_answers_a_legal_command(players in 3u8..=6, warmup in 0u32..400, seed in any::<u64>(), playouts in 1u32..12) {
            let start = crate::start(&crate::Setup::new(players)).unwrap();
            let state = crate::random::play(start, &mut RandomPlayer::new(seed), &mut SeededRandomness::new(seed), warmup).unwrap().state;
            if let Some(seat) = state.awaiting() {
                let c = bot(playouts).choose(&state, seat, &mut SeededRandomness::new(seed));
                let c = c.expect("an awaited seat always has a command");
                prop_assert!(turn::legal(&state, seat).as_slice().contains(&c));
            }
        }

        #[test]
        fn rewards_share_one(players in 3u8..=6, warmup in 0u32..600, seed in any::<u64>()) {
            let start = crate::start(&crate::Setup::new(players)).unwrap();
            let state = crate::random::play(start, &mut RandomPlayer::new(seed), &mut SeededRandomness::new(seed), warmup).unwrap().state;
            let r = rewards(&state);
            prop_assert!((r.iter().sum::<f64>() - 1.0).abs() < 1e-12);
            prop_assert!(r[usize::from(players)..].iter().all(|x| *x == 0.0));
        }
    }
}
