//! In A Wicked Age's simulated games: [`WickedContest`] for `clash simulate wicked-age` (odds or
//! random bots reading the whole state) and [`WickedConflict`] for measuring the table bots
//! ([`clash_analysis::bot_strength`]).

use clash_analysis::bot_strength::Table;
use clash_analysis::bots::{Bot, RandomBot};
use clash_analysis::contests::BotKind;
use clash_analysis::simulate::{Contest, GameResult, drive};
use clash_core::{Game, Randomness, Ruleset, Seat, SeededRandomness, execute};
use serde_json::{Value, json};

use crate::analysis::odds_bot::OddsBot;

fn parse<T: serde::de::DeserializeOwned>(v: Value) -> Option<T> {
    serde_json::from_value(v).ok()
}

/// In A Wicked Age: one two-party conflict between a PC (`p1`) and an NPC (`gm`).
#[derive(Debug, Clone)]
pub struct WickedContest {
    pub setup: crate::Setup,
    pub participants: [String; 2],
    pub bots: [BotKind; 2],
}

impl WickedContest {
    /// A PC with the creation dice against an NPC with the standard pairs.
    pub fn duel() -> WickedContest {
        let setup =
            serde_json::from_value(default_wicked_setup()).unwrap_or_else(|_| crate::Setup {
                characters: vec![],
                owe_list: vec![],
                chapter: 1,
                conflict: None,
                oracle: None,
                returning: vec![],
                variant: None,
            });
        WickedContest {
            setup,
            participants: ["Ash".into(), "The Ogre".into()],
            bots: [BotKind::Smart; 2],
        }
    }
}

/// The default duel's setup (also documented in docs/analysis.md).
pub fn default_wicked_setup() -> Value {
    json!({
        "characters": [
            {"name": "Ash", "kind": "pc", "seat": "p1",
             "best_interests": ["Get home before dark", "Never back down"],
             "forms": {"covertly": 12, "directly": 10, "for_myself": 8, "for_others": 6, "with_love": 6, "with_violence": 4}},
            {"name": "The Ogre", "kind": "npc",
             "forms": {"action": [12, 8], "maneuvering": [10, 6], "self_protection": [6, 4]}}
        ]
    })
}

impl Contest for WickedContest {
    fn contestants(&self) -> Vec<String> {
        self.participants.to_vec()
    }

    fn length_unit(&self) -> &'static str {
        "exchanges"
    }

    fn play(&self, rng: &mut SeededRandomness) -> GameResult {
        use crate::{Command, WickedAge};
        let fail = GameResult {
            winners: vec![],
            length: 0,
            commands: 0,
            cut_off: true,
        };
        let Ok(mut state) = WickedAge::setup(&self.setup) else {
            return fail;
        };
        let start = Command::StartConflict {
            participants: self.participants.to_vec(),
            action: "interferes".into(),
        };
        if execute::<WickedAge>(&mut state, Seat::Gm, &start, rng).is_err() {
            return fail;
        }
        let seats: Vec<Seat> = self
            .participants
            .iter()
            .filter_map(|n| state.character(n).map(|c| c.controller))
            .collect();
        let mut bots: Vec<(Seat, Box<dyn Bot<WickedAge>>)> = seats
            .iter()
            .zip(self.bots)
            .map(|(seat, kind)| {
                let bot: Box<dyn Bot<WickedAge>> = match kind {
                    BotKind::Smart => Box::new(OddsBot::default()),
                    BotKind::Random => Box::new(RandomBot::default()),
                };
                (*seat, bot)
            })
            .collect();
        let over = |s: &crate::State| s.conflict.as_ref().is_none_or(|c| c.ended.is_some());
        let (commands, cut_off) = drive(&mut state, &mut bots, rng, 400, over);
        let conflict = state.conflict.as_ref().or(state.last_conflict.as_ref());
        let winners = conflict
            .and_then(|c| c.knockouts.first())
            .map(|k| vec![k.winner.clone()])
            .unwrap_or_default();
        let length = conflict.map_or(0, |c| c.exchanges.len() as u32);
        GameResult {
            winners,
            length,
            commands,
            cut_off,
        }
    }
}

/// In A Wicked Age: one conflict among the characters of a setup, each seat played by a bot.
/// A seat wins when its character is still standing as the conflict ends (WA-24: never
/// knocked out, nor conceding).
#[derive(Debug, Clone)]
pub struct WickedConflict {
    pub setup: crate::Setup,
    pub participants: Vec<String>,
}

impl WickedConflict {
    /// The duel of `clash simulate wicked-age`: Ash (`p1`) against the GM's Ogre
    /// ([`default_wicked_setup`]): both roll their two biggest dice, so no
    /// choice matters.
    pub fn duel() -> Option<WickedConflict> {
        Some(WickedConflict {
            setup: parse(default_wicked_setup())?,
            participants: vec!["Ash".into(), "The Ogre".into()],
        })
    }

    /// The catalogue's three-way brawl: Ysolde (`p1`) and Oren (`p2`), each with a
    /// Particular Strength, and the GM's Khan.
    pub fn brawl() -> Option<WickedConflict> {
        use clash_core::Listed;
        let preset = crate::WickedAge::PRESETS.first()?;
        let setup: crate::Setup = serde_json::from_str(preset.setup).ok()?;
        let participants = setup.characters.iter().map(|c| c.name.clone()).collect();
        Some(WickedConflict {
            setup,
            participants,
        })
    }
}

impl Table for WickedConflict {
    type R = crate::WickedAge;

    fn start(&self, rng: &mut dyn Randomness) -> Option<Game<Self::R>> {
        let mut game = Game::<Self::R>::new(self.setup.clone()).ok()?;
        let start = crate::Command::StartConflict {
            participants: self.participants.clone(),
            action: "blocks the road".into(),
        };
        game.command(Seat::Gm, &start, rng).ok()?;
        Some(game)
    }

    fn seats(&self) -> Vec<Seat> {
        let Ok(state) = <Self::R as Ruleset>::setup(&self.setup) else {
            return Vec::new();
        };
        let mut seats: Vec<Seat> = self
            .participants
            .iter()
            .filter_map(|n| state.character(n).map(|c| c.controller))
            .collect();
        seats.sort();
        seats.dedup();
        seats
    }

    fn business(&self, _game: &Game<Self::R>) -> Option<(Seat, crate::Command)> {
        None
    }

    /// Over once the conflict has ended and every consequence is settled.
    fn finished(&self, game: &Game<Self::R>) -> bool {
        game.state()
            .conflict
            .as_ref()
            .is_none_or(|c| c.ended.is_some() && c.open_knockouts().next().is_none())
    }

    fn winners(&self, game: &Game<Self::R>) -> Vec<Seat> {
        let s = game.state();
        let Some(c) = s.conflict.as_ref().or(s.last_conflict.as_ref()) else {
            return Vec::new();
        };
        let mut seats: Vec<Seat> = self
            .participants
            .iter()
            .filter(|n| !c.knockouts.iter().any(|k| &k.loser == *n))
            .filter_map(|n| s.character(n).map(|ch| ch.controller))
            .collect();
        seats.dedup();
        seats
    }

    fn length(&self, game: &Game<Self::R>) -> u32 {
        let s = game.state();
        s.conflict
            .as_ref()
            .or(s.last_conflict.as_ref())
            .map_or(0, |c| c.exchanges.len() as u32)
    }

    fn length_unit(&self) -> &'static str {
        "exchanges"
    }

    fn max_commands(&self) -> u32 {
        400
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clash_analysis::simulate::simulate;
    use clash_analysis::testing::finishes;
    use clash_core::Budget;

    #[test]
    fn a_seed_gives_the_same_run_on_any_number_of_threads() {
        let c = WickedContest::duel();
        let one = simulate(&c, 12, 5, Some(1), &|| {});
        let two = simulate(&c, 12, 5, Some(2), &|| {});
        assert_eq!(one, two);
        assert_eq!(one.games, 12);
        // Every conflict between two parties ends with a knockout by round 3 (WA-23, WA-24).
        assert_eq!(one.rates.iter().map(|r| r.wins).sum::<u64>(), 12);
        assert!(one.length_max <= 3 && one.length_min >= 1);
    }

    #[test]
    fn bots_play_every_table_to_its_end() {
        finishes(&WickedConflict::duel().unwrap(), Budget::work(8));
        finishes(&WickedConflict::brawl().unwrap(), Budget::work(8));
    }
}
