//! Iron Triangle's simulated games: [`IronContest`] for `clash simulate iron-triangle`
//! (equilibrium or random bots reading the whole state) and [`IronDuel`] for measuring the
//! table bots ([`clash_analysis::bot_strength`]).

use clash_analysis::bot_strength::Table;
use clash_analysis::bots::{Bot, RandomBot};
use clash_analysis::contests::BotKind;
use clash_analysis::simulate::{Contest, GameResult, drive};
use clash_core::{Game, Randomness, Ruleset, Seat, SeededRandomness, execute};
use serde_json::{Value, json};

use crate::analysis::equilibrium_bot::EquilibriumBot;

/// Iron Triangle: a lesser conflict between one PC (`p1`) and one NPC (`gm`), both level 0.
#[derive(Debug, Clone)]
pub struct IronContest {
    pub setup: crate::Setup,
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
        use crate::conflict::{ConflictCommand, Side};
        use crate::{Command, IronTriangle};
        let fail = GameResult {
            winners: vec![],
            length: 0,
            commands: 0,
            cut_off: true,
        };
        let Ok(mut state) = IronTriangle::setup(&self.setup) else {
            return fail;
        };
        let npcs: Vec<crate::Name> = state
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
        let over = |t: &crate::Table| t.conflict.as_ref().is_none_or(|c| !c.is_running());
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

fn parse<T: serde::de::DeserializeOwned>(v: Value) -> Option<T> {
    serde_json::from_value(v).ok()
}

/// Iron Triangle: a lesser conflict between Ada (`p1`, D3/G2/A5) and the GM's Bruiser
/// (D4/G4/A2), both level 0 with the starting moves ([`default_iron_setup`]).
#[derive(Debug, Clone)]
pub struct IronDuel {
    pub setup: crate::Setup,
}

impl IronDuel {
    pub fn new() -> Option<IronDuel> {
        Some(IronDuel {
            setup: parse(default_iron_setup())?,
        })
    }
}

impl Table for IronDuel {
    type R = crate::IronTriangle;

    fn start(&self, rng: &mut dyn Randomness) -> Option<Game<Self::R>> {
        use crate::conflict::ConflictCommand;
        let mut game = Game::<Self::R>::new(self.setup.clone()).ok()?;
        let npcs: Vec<crate::Name> = game
            .state()
            .characters
            .iter()
            .filter(|c| c.controller == Seat::Gm)
            .map(|c| c.name.clone().into())
            .collect();
        let start = crate::Command::Conflict(ConflictCommand::StartConflict {
            stakes: "the bridge".into(),
            npcs,
            lethal: false,
            minor: false,
        });
        game.command(Seat::Gm, &start, rng).ok()?;
        Some(game)
    }

    fn seats(&self) -> Vec<Seat> {
        vec![Seat::Player(1), Seat::Gm]
    }

    fn business(&self, _game: &Game<Self::R>) -> Option<(Seat, crate::Command)> {
        None
    }

    fn finished(&self, game: &Game<Self::R>) -> bool {
        game.state()
            .conflict
            .as_ref()
            .is_none_or(|c| !c.is_running())
    }

    fn winners(&self, game: &Game<Self::R>) -> Vec<Seat> {
        use crate::conflict::Side;
        let side = game
            .state()
            .conflict
            .as_ref()
            .and_then(|c| c.outcome.as_ref())
            .and_then(|o| o.winner);
        match side {
            Some(Side::Players) => vec![Seat::Player(1)],
            Some(Side::Gm) => vec![Seat::Gm],
            None => Vec::new(),
        }
    }

    fn length(&self, game: &Game<Self::R>) -> u32 {
        game.state().conflict.as_ref().map_or(0, |c| c.turns_played)
    }

    fn length_unit(&self) -> &'static str {
        "turns"
    }

    fn max_commands(&self) -> u32 {
        2000
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clash_analysis::testing::finishes;
    use clash_core::Budget;

    #[test]
    fn equilibrium_bots_play_a_whole_conflict() {
        let it = IronContest::duel()
            .unwrap()
            .play(&mut SeededRandomness::new(1));
        assert!(!it.cut_off && it.winners.len() == 1, "{it:?}"); // IT-27: one side wins
    }

    #[test]
    fn bots_play_the_table_to_its_end() {
        finishes(&IronDuel::new().unwrap(), Budget::work(16));
    }
}
