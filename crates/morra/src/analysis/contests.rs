//! Simulated games of Morra ([`MorraContest`], `clash simulate morra`): both seats played by the
//! strong bot or a random one, from a setup.

use clash_analysis::bots::{Bot, RandomBot};
use clash_analysis::contests::BotKind;
use clash_analysis::simulate::{Contest, GameResult, drive};
use clash_core::{Seat, SeededRandomness, start};

use crate::analysis::seat_bots::Strong;
use crate::{Morra, Outcome, Setup, seat};

/// Morra between two bots.
#[derive(Debug, Clone)]
pub struct MorraContest {
    pub setup: Setup,
    pub bots: [BotKind; 2],
}

impl Contest for MorraContest {
    fn contestants(&self) -> Vec<String> {
        self.setup.names.to_vec()
    }

    fn length_unit(&self) -> &'static str {
        "rounds"
    }

    fn play(&self, rng: &mut SeededRandomness) -> GameResult {
        let Ok((mut state, _)) = start::<Morra>(&self.setup) else {
            return GameResult {
                winners: vec![],
                length: 0,
                commands: 0,
                cut_off: true,
            };
        };
        let first_round = state.round;
        let mut bots: Vec<(Seat, Box<dyn Bot<Morra>>)> = self
            .bots
            .iter()
            .enumerate()
            .map(|(i, kind)| {
                let bot: Box<dyn Bot<Morra>> = match kind {
                    BotKind::Smart => Box::new(Strong),
                    BotKind::Random => Box::new(RandomBot::default()),
                };
                (seat(i), bot)
            })
            .collect();
        // Two hands a round, and the round limit ends every game (MO-13).
        let cap = 2 * (self.setup.round_limit + 1);
        let (commands, cut_off) = drive(&mut state, &mut bots, rng, cap, |s| s.over.is_some());
        let winners = match state.over {
            Some(Outcome::Win { player }) => vec![state.names[player].clone()],
            _ => vec![],
        };
        GameResult {
            winners,
            length: state.round - first_round,
            commands,
            cut_off,
        }
    }
}
