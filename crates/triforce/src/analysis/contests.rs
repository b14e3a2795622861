//! Triforce's simulated games: [`TriforceContest`] for `clash simulate triforce` (MCTS or random
//! bots reading the whole state) and [`TriforceGame`] for measuring the table bots
//! ([`clash_analysis::bot_strength`]).

use clash_analysis::bot_strength::Table;
use clash_analysis::bots::{Bot, RandomBot};
use clash_analysis::contests::BotKind;
use clash_analysis::simulate::{Contest, GameResult, drive};
use clash_core::{Game, Randomness, Seat, SeededRandomness};

use crate::analysis::mcts::MctsBot;

fn seat_label(seat: Seat) -> String {
    seat.to_string()
}

/// Triforce: `players` seats, each an MCTS bot (or a random one), with a turn limit.
#[derive(Debug, Clone)]
pub struct TriforceContest {
    pub players: u8,
    pub bots: Vec<BotKind>,
    pub playouts: u32,
    /// MCTS horizon: turns played after the current one before a playout is scored (TF-30).
    pub playout_turns: u32,
    pub turn_limit: u32,
}

impl Contest for TriforceContest {
    fn contestants(&self) -> Vec<String> {
        (1..=self.players)
            .map(|p| seat_label(Seat::Player(p)))
            .collect()
    }

    fn length_unit(&self) -> &'static str {
        "turns"
    }

    fn play(&self, rng: &mut SeededRandomness) -> GameResult {
        let mut setup = crate::Setup::new(self.players);
        setup.turn_limit = Some(self.turn_limit);
        let Ok(mut state) = crate::start(&setup) else {
            return GameResult {
                winners: vec![],
                length: 0,
                commands: 0,
                cut_off: true,
            };
        };
        let mut bots: Vec<(Seat, Box<dyn Bot<crate::Triforce>>)> = (1..=self.players)
            .map(|p| {
                let kind = self
                    .bots
                    .get(usize::from(p - 1))
                    .copied()
                    .unwrap_or(BotKind::Smart);
                let bot: Box<dyn Bot<crate::Triforce>> = match kind {
                    BotKind::Smart => Box::new(MctsBot {
                        playout_turns: self.playout_turns,
                        ..MctsBot::with_playouts(self.playouts)
                    }),
                    BotKind::Random => Box::new(RandomBot::default()),
                };
                (Seat::Player(p), bot)
            })
            .collect();
        let cap = self.turn_limit.saturating_mul(40).max(100);
        let (commands, stalled) = drive(&mut state, &mut bots, rng, cap, |s| s.outcome().is_some());
        // A game ended by TF-30's optional turn limit was cut off, even though the engine scores
        // it (most stacks wins); so was one the command cap stopped.
        let limited = state
            .outcome()
            .is_some_and(|o| o.by == crate::EndRule::TurnLimit);
        let cut_off = stalled || limited;
        let winners = state
            .outcome()
            .map(|o| {
                o.winners
                    .as_slice()
                    .iter()
                    .map(|s| seat_label(*s))
                    .collect()
            })
            .unwrap_or_default();
        GameResult {
            winners,
            length: state.turn(),
            commands,
            cut_off,
        }
    }
}

/// Triforce: `players` seats from the standard opening, with a turn limit (TF-30).
#[derive(Debug, Clone)]
pub struct TriforceGame {
    pub players: u8,
    pub turn_limit: u32,
}

impl Table for TriforceGame {
    type R = crate::Triforce;

    fn start(&self, _rng: &mut dyn Randomness) -> Option<Game<Self::R>> {
        let mut setup = crate::Setup::new(self.players);
        setup.turn_limit = Some(self.turn_limit);
        Game::<Self::R>::new(setup).ok()
    }

    fn seats(&self) -> Vec<Seat> {
        (1..=self.players).map(Seat::Player).collect()
    }

    fn business(&self, _game: &Game<Self::R>) -> Option<(Seat, crate::Command)> {
        None
    }

    fn finished(&self, game: &Game<Self::R>) -> bool {
        game.state().outcome().is_some()
    }

    fn winners(&self, game: &Game<Self::R>) -> Vec<Seat> {
        game.state()
            .outcome()
            .map(|o| o.winners.as_slice().to_vec())
            .unwrap_or_default()
    }

    fn length(&self, game: &Game<Self::R>) -> u32 {
        game.state().turn()
    }

    fn length_unit(&self) -> &'static str {
        "turns"
    }

    fn max_commands(&self) -> u32 {
        self.turn_limit.saturating_mul(40).max(100)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clash_analysis::simulate::simulate;
    use clash_analysis::testing::finishes;
    use clash_core::Budget;

    #[test]
    fn smart_bots_play_a_whole_game() {
        let tf = TriforceContest {
            players: 3,
            bots: vec![BotKind::Smart, BotKind::Random, BotKind::Random],
            playouts: 4,
            playout_turns: 3,
            turn_limit: 12,
        };
        let r = tf.play(&mut SeededRandomness::new(1));
        // TF-30: the turn limit ends the game and scores it, and the game counts as cut off.
        assert!(
            !r.winners.is_empty() && (r.cut_off || r.length < 12),
            "{r:?}"
        );
    }

    #[test]
    fn tf_30_games_ended_by_the_turn_limit_count_as_cut_off() {
        // Random players do not win a 3-player game in 4 turns: every game reaches the limit.
        let tf = TriforceContest {
            players: 3,
            bots: vec![BotKind::Random; 3],
            playouts: 1,
            playout_turns: 1,
            turn_limit: 4,
        };
        let s = simulate(&tf, 6, 3, Some(1), &|| {});
        assert_eq!(s.cut_off, 6, "{s:?}");
        assert!(s.lengths.iter().all(|l| *l == 4), "{:?}", s.lengths);
        assert!(s.rates.iter().map(|r| r.wins).sum::<u64>() >= 6); // TF-30 still names winners
        // With a generous limit, games that end by territory or a last free player are not.
        let long = TriforceContest {
            turn_limit: 400,
            ..tf
        };
        let r = long.play(&mut SeededRandomness::new(2));
        assert!(!r.cut_off || r.length == 400, "{r:?}");
    }

    #[test]
    fn bots_play_the_table_to_its_end() {
        finishes(
            &TriforceGame {
                players: 3,
                turn_limit: 10,
            },
            Budget::work(8),
        );
    }
}
