//! The simulated games of each ruleset: setup, bots per seat, and scoring.

use clash_core::{Ruleset, Seat, SeededRandomness, execute};
use serde_json::{Value, json};

use crate::bots::iron::EquilibriumBot;
use crate::bots::{Bot, RandomBot};
use crate::simulate::{Contest, GameResult, drive};

/// Which bot takes a seat.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BotKind {
    /// The ruleset's own strong bot (equilibrium, MCTS, threshold, odds).
    Smart,
    /// Uniformly random legal commands.
    Random,
}

impl std::str::FromStr for BotKind {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "smart" | "bot" | "mcts" | "odds" | "threshold" | "equilibrium" => Ok(BotKind::Smart),
            "random" => Ok(BotKind::Random),
            other => Err(format!("{other:?} is not a bot: write smart or random")),
        }
    }
}

/// Iron Triangle: a lesser conflict between one PC (`p1`) and one NPC (`gm`), both level 0.
#[derive(Debug, Clone)]
pub struct IronContest {
    pub setup: iron_triangle::Setup,
    pub bots: [BotKind; 2],
}

/// Two level-0 characters with the starting moves: Ada (D3/G2/A5) and a Bruiser (D4/G4/A2).
pub fn default_iron_setup() -> Value {
    let sheet = |name: &str, seat: &str, d: u32, g: u32, a: u32| {
        json!({"name": name, "controller": seat, "energy": {"defend": d, "grapple": g, "attack": a},
               "backgrounds": [{"name": "Street", "points": 2}, {"name": "School", "points": 1}],
               "belief": "Practice wins fights", "flaw": "Stubborn", "goal": "Win this fight",
               "moves": [{"move": "D-M", "name": "Shell"}, {"move": "G-L", "name": "Trip"}, {"move": "A-H", "name": "Overhand"}]})
    };
    json!({"players": ["p1"], "characters": [sheet("Ada", "p1", 3, 2, 5), sheet("Bruiser", "gm", 4, 4, 2)]})
}

impl IronContest {
    pub fn duel() -> Option<IronContest> {
        Some(IronContest {
            setup: serde_json::from_value(default_iron_setup()).ok()?,
            bots: [BotKind::Smart; 2],
        })
    }
}

impl Contest for IronContest {
    fn contestants(&self) -> Vec<String> {
        vec!["players".into(), "gm".into()]
    }

    fn length_unit(&self) -> &'static str {
        "turns"
    }

    fn play(&self, rng: &mut SeededRandomness) -> GameResult {
        use iron_triangle::conflict::{ConflictCommand, Side};
        use iron_triangle::{Command, IronTriangle};
        let fail = GameResult {
            winners: vec![],
            length: 0,
            commands: 0,
            cut_off: true,
        };
        let Ok(mut state) = IronTriangle::setup(&self.setup) else {
            return fail;
        };
        let npcs: Vec<iron_triangle::Name> = state
            .characters
            .iter()
            .filter(|c| c.controller == Seat::Gm)
            .map(|c| c.name.clone().into())
            .collect();
        let start = Command::Conflict(ConflictCommand::StartConflict {
            stakes: "the bridge".into(),
            npcs,
            lethal: false,
            minor: false,
        });
        if execute::<IronTriangle>(&mut state, Seat::Gm, &start, rng).is_err() {
            return fail;
        }
        let mut bots: Vec<(Seat, Box<dyn Bot<IronTriangle>>)> = [Seat::Player(1), Seat::Gm]
            .into_iter()
            .zip(self.bots)
            .map(|(seat, kind)| {
                let bot: Box<dyn Bot<IronTriangle>> = match kind {
                    BotKind::Smart => Box::new(EquilibriumBot::default()),
                    BotKind::Random => Box::new(RandomBot::default()),
                };
                (seat, bot)
            })
            .collect();
        let over = |t: &iron_triangle::Table| t.conflict.as_ref().is_none_or(|c| !c.is_running());
        let (commands, cut_off) = drive(&mut state, &mut bots, rng, 2000, over);
        let c = state.conflict.as_ref();
        let winners = c
            .and_then(|c| c.outcome.as_ref())
            .and_then(|o| o.winner)
            .map(|s| {
                vec![if s == Side::Players {
                    "players".into()
                } else {
                    "gm".into()
                }]
            })
            .unwrap_or_default();
        let length = c.map_or(0, |c| c.turns_played);
        GameResult {
            winners,
            length,
            commands,
            cut_off,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn smart_bots_play_whole_games_of_every_ruleset() {
        let it = IronContest::duel()
            .unwrap()
            .play(&mut SeededRandomness::new(1));
        assert!(!it.cut_off && it.winners.len() == 1, "{it:?}"); // IT-27: one side wins
    }
}
