//! N-Dimensional Tourists' simulated games: [`TouristsContest`] for `clash simulate nd-tourists`
//! (threshold bidders reading the whole state) and [`TouristsConflict`] for measuring the table
//! bots ([`clash_analysis::bot_strength`]).

use clash_analysis::bot_strength::Table;
use clash_analysis::bots::Bot;
use clash_analysis::simulate::{Contest, GameResult, drive};
use clash_core::{Game, Randomness, Ruleset, Seat, SeededRandomness};
use serde_json::{Value, json};

use crate::analysis::threshold_bot::ThresholdBot;

fn parse<T: serde::de::DeserializeOwned>(v: Value) -> Option<T> {
    serde_json::from_value(v).ok()
}

/// N-Dimensional Tourists: a Conflict between the given parties, capped at `max_rounds`.
#[derive(Debug, Clone)]
pub struct TouristsContest {
    pub setup: crate::Setup,
    pub max_rounds: u16,
    pub threshold: f64,
}

/// The Kaiju Conflict of TV-4 (Levinulon 8 against TMDF 7).
pub fn default_tourists_setup() -> Value {
    json!({"parties": [
        {"name": "Levinulon", "seat": "gm", "goal": "Destroy Tokyo",
         "characters": [{"name": "Levinulon", "attribute": {"name": "Destroy Everything", "value": 8}}]},
        {"name": "TMDF", "seat": "p1", "goal": "Save Tokyo",
         "characters": [{"name": "TMDF", "attribute": {"name": "Paper", "value": 5},
            "aspects": ["Well-trained team", "The most agile mechs in the world", "Excellent knowledge of Tokyo"],
            "weaknesses": ["The second-in-command is severely wounded"]}]}
    ]})
}

impl TouristsContest {
    pub fn kaiju() -> Option<TouristsContest> {
        let setup = serde_json::from_value(default_tourists_setup()).ok()?;
        Some(TouristsContest {
            setup,
            max_rounds: 30,
            threshold: 0.2,
        })
    }

    fn party_names(&self) -> Vec<String> {
        crate::NdTourists::setup(&self.setup)
            .map(|s| s.table.parties.iter().map(|p| p.name.clone()).collect())
            .unwrap_or_default()
    }
}

impl Contest for TouristsContest {
    fn contestants(&self) -> Vec<String> {
        self.party_names()
    }

    fn length_unit(&self) -> &'static str {
        "rounds"
    }

    fn play(&self, rng: &mut SeededRandomness) -> GameResult {
        use crate::NdTourists;
        let Ok(mut state) = NdTourists::setup(&self.setup) else {
            return GameResult {
                winners: vec![],
                length: 0,
                commands: 0,
                cut_off: true,
            };
        };
        let mut seats: Vec<Seat> = state.table.parties.iter().map(|p| p.seat).collect();
        seats.sort();
        seats.dedup();
        let bot = ThresholdBot {
            threshold: self.threshold,
            ..ThresholdBot::default()
        };
        let mut bots: Vec<(Seat, Box<dyn Bot<NdTourists>>)> = seats
            .into_iter()
            .map(|s| (s, Box::new(bot.clone()) as Box<dyn Bot<NdTourists>>))
            .collect();
        let max_rounds = self.max_rounds;
        let over =
            |s: &crate::State| s.phase == crate::state::Phase::Ended || s.round.number > max_rounds;
        let (commands, _) = drive(
            &mut state,
            &mut bots,
            rng,
            u32::from(max_rounds) * 200,
            over,
        );
        let cut_off = state.phase != crate::state::Phase::Ended;
        let winners = state
            .victor
            .and_then(|v| state.table.parties.get(usize::from(v)))
            .map(|p| vec![p.name.clone()])
            .unwrap_or_default();
        GameResult {
            winners,
            length: u32::from(state.round.number),
            commands,
            cut_off,
        }
    }
}

/// N-Dimensional Tourists: the Kaiju Conflict (TV-4's parties: the GM's Levinulon, Dominant
/// with Control 1, against TMDF, `p1`), with a round limit.
#[derive(Debug, Clone)]
pub struct TouristsConflict {
    pub setup: crate::Setup,
    pub max_rounds: u16,
}

impl TouristsConflict {
    pub fn kaiju(max_rounds: u16) -> Option<TouristsConflict> {
        Some(TouristsConflict {
            setup: parse(default_tourists_setup())?,
            max_rounds,
        })
    }
}

impl Table for TouristsConflict {
    type R = crate::NdTourists;

    fn start(&self, rng: &mut dyn Randomness) -> Option<Game<Self::R>> {
        let mut game = Game::<Self::R>::new(self.setup.clone()).ok()?;
        game.command(Seat::Gm, &crate::Command::Start {}, rng)
            .ok()?;
        Some(game)
    }

    fn seats(&self) -> Vec<Seat> {
        let mut seats: Vec<Seat> = self.setup.parties.iter().map(|p| p.seat).collect();
        seats.sort();
        seats.dedup();
        seats
    }

    fn business(&self, game: &Game<Self::R>) -> Option<(Seat, crate::Command)> {
        (game.state().phase == crate::state::Phase::Aftermath)
            .then_some((Seat::Gm, crate::Command::NextRound {}))
    }

    fn finished(&self, game: &Game<Self::R>) -> bool {
        let s = game.state();
        s.phase == crate::state::Phase::Ended || s.round.number > self.max_rounds
    }

    fn winners(&self, game: &Game<Self::R>) -> Vec<Seat> {
        let s = game.state();
        s.victor
            .and_then(|v| s.table.parties.get(usize::from(v)))
            .map(|p| vec![p.seat])
            .unwrap_or_default()
    }

    fn length(&self, game: &Game<Self::R>) -> u32 {
        u32::from(game.state().round.number)
    }

    fn length_unit(&self) -> &'static str {
        "rounds"
    }

    fn max_commands(&self) -> u32 {
        u32::from(self.max_rounds).saturating_mul(200)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clash_analysis::testing::finishes;
    use clash_core::Budget;

    #[test]
    fn threshold_bots_play_whole_games() {
        let nd = TouristsContest {
            max_rounds: 3,
            ..TouristsContest::kaiju().unwrap()
        }
        .play(&mut SeededRandomness::new(1));
        assert!(nd.length >= 1 && nd.commands > 0, "{nd:?}");
    }

    #[test]
    fn bots_play_the_table_to_its_end() {
        finishes(&TouristsConflict::kaiju(4).unwrap(), Budget::work(8));
    }
}
