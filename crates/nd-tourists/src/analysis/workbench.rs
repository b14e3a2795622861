//! N-Dimensional Tourists on the designer's workbench: its rule parameters
//! ([`crate::variant::PARAMS`]), the tables its bots play to measure a variant, and how a
//! game is scored (who is ahead, what the strong bot chose, how lucky each party's draws were).

use clash_analysis::bot_strength::Table;
use clash_analysis::workbench::run::{self, Bench};
use clash_core::variant::Variant;
use clash_core::workbench::{BenchTable, Ending, Suggested, Workbench};
use clash_core::{Game, Randomness, RuleError, Ruleset, Seat};
use serde_json::{Value, json};

use crate::cards::{CardSet, beats};
use crate::state::{EndReason, Phase, Status};
use crate::variant::{PARAMS, Rules};
use crate::{Command, Event, NdTourists, Setup, State};

/// Rounds after which a Conflict is cut off (D-16: Control never wins by itself, so a Conflict
/// without a Wipe Out or a concession need never end).
pub const MAX_ROUNDS: u16 = 30;

/// The tables.
pub const TABLES: &[BenchTable] = &[
    BenchTable {
        key: "kaiju",
        about: "The Kaiju Conflict of TV-4: the GM's Levinulon (total 8, Dominant with Control 1) against TMDF (total 7, a player's party, its sheet's Reserve dealt at the start); cut off after 30 rounds.",
        seats: &["Levinulon", "TMDF"],
        unit: "rounds",
        lead: "holding Control, then fewer Losses",
    },
    BenchTable {
        key: "four-sides",
        about: "The four-sided Conflict of TV-1 (TMDF, US, Levinulon, ANN; the top totals tie, so it opens Balanced), every player sheet's Reserve dealt at the start; cut off after 30 rounds.",
        seats: &["Levinulon", "TMDF", "US", "ANN"],
        unit: "rounds",
        lead: "holding Control, then fewer Losses",
    },
];

/// Variants worth trying first.
pub const SUGGESTED: &[Suggested] = &[
    Suggested {
        name: "short fuse",
        changes: "wipe_out=4",
        why: "A Wipe Out is the only way a Conflict ends by itself; make it come sooner.",
    },
    Suggested {
        name: "control wins",
        changes: "control_victory=4",
        why: "Let a Dominant that holds Control long enough win, so a Conflict need not wait for a Wipe Out.",
    },
    Suggested {
        name: "thin reserve",
        changes: "reserve=1",
        why: "Fewer Reserve cards to cover with: do reversals bite more?",
    },
];

/// The workbench the catalogue offers.
pub fn workbench() -> Workbench {
    run::workbench::<TouristsBench>(PARAMS, TABLES, SUGGESTED)
}

impl run::ForTrial for TouristsBench {
    fn for_trial(table: usize, variant: Option<&Variant>) -> Result<Self, RuleError> {
        TouristsBench::new(table, variant)
    }
}

/// One of the workbench's tables under one variant.
#[derive(Debug, Clone)]
pub struct TouristsBench {
    pub setup: Setup,
    /// The seats in the order of the table's names.
    seats: Vec<Seat>,
    /// Each card's share of the deck it beats, less the deck's average (ND-3): its luck.
    power: Vec<f64>,
}

fn parties(table: usize) -> Option<Value> {
    let kaiju = crate::analysis::contests::default_tourists_setup();
    match table {
        0 => Some(kaiju),
        1 => serde_json::from_str(include_str!("../../presets/four-sides.json")).ok(),
        _ => None,
    }
}

impl TouristsBench {
    /// Table `table` of [`TABLES`] under `variant`, or the rule the variant breaks.
    pub fn new(table: usize, variant: Option<&Variant>) -> Result<TouristsBench, RuleError> {
        let rules = Rules::of(variant)?;
        let mut setup = parties(table)
            .ok_or_else(|| RuleError::setup("ND-variant", "this game has no such table"))?;
        // S4: a player's sheet holds its Reserve from the session's start, dealt by `start`.
        for p in setup["parties"].as_array_mut().into_iter().flatten() {
            if p["seat"] != json!("gm") {
                for c in p["characters"].as_array_mut().into_iter().flatten() {
                    c["reserve_unseen"] = json!(rules.reserve);
                }
            }
        }
        if let Some(v) = variant {
            setup["variant"] = serde_json::to_value(v).unwrap_or(Value::Null);
        }
        let setup: Setup =
            serde_json::from_value(setup).map_err(|e| RuleError::setup("ND-5", e.to_string()))?;
        let state = NdTourists::setup(&setup)?;
        let seats = TABLES[table]
            .seats
            .iter()
            .filter_map(|name| state.table.find_party(name))
            .map(|p| state.table.parties[p as usize].seat)
            .collect();
        let deck = rules.deck(state.table.blanks);
        let strength = |c| deck.count(|d| beats(c, d)) as f64 / deck.len().max(1) as f64;
        let mean = deck.iter().map(strength).sum::<f64>() / deck.len().max(1) as f64;
        let power = (0..77u8)
            .map(|id| crate::Card::from_id(id).map_or(0.0, |c| strength(c) - mean))
            .collect();
        Ok(TouristsBench {
            setup,
            seats,
            power,
        })
    }

    fn seat_of(&self, state: &State, party: u8) -> Option<usize> {
        let seat = state.table.parties.get(usize::from(party))?.seat;
        self.seats.iter().position(|s| *s == seat)
    }
}

impl Table for TouristsBench {
    type R = NdTourists;

    fn start(&self, rng: &mut dyn Randomness) -> Option<Game<NdTourists>> {
        let mut game = Game::<NdTourists>::new(self.setup.clone()).ok()?;
        game.command(Seat::Gm, &Command::Start {}, rng).ok()?;
        Some(game)
    }

    fn seats(&self) -> Vec<Seat> {
        self.seats.clone()
    }

    fn business(&self, game: &Game<NdTourists>) -> Option<(Seat, Command)> {
        (game.state().phase == Phase::Aftermath).then_some((Seat::Gm, Command::NextRound {}))
    }

    fn finished(&self, game: &Game<NdTourists>) -> bool {
        let s = game.state();
        s.phase == Phase::Ended || s.round.number > MAX_ROUNDS
    }

    fn winners(&self, game: &Game<NdTourists>) -> Vec<Seat> {
        let s = game.state();
        s.victor
            .and_then(|v| s.table.parties.get(usize::from(v)))
            .map(|p| vec![p.seat])
            .unwrap_or_default()
    }

    fn length(&self, game: &Game<NdTourists>) -> u32 {
        u32::from(game.state().round.number.min(MAX_ROUNDS))
    }

    fn length_unit(&self) -> &'static str {
        "rounds"
    }

    fn max_commands(&self) -> u32 {
        u32::from(MAX_ROUNDS) * 400
    }
}

impl Bench for TouristsBench {
    fn ending(&self, game: &Game<NdTourists>) -> Ending {
        let s = game.state();
        match (s.phase, s.victor, s.ended) {
            (Phase::Ended, Some(_), _) => Ending::Won,
            (Phase::Ended, None, Some(EndReason::Reframed)) | (Phase::Ended, None, _) => {
                Ending::NoWinner
            }
            _ => Ending::Limit,
        }
    }

    /// The Dominant of the first round (ND-7), else the first to draw in its Balance Breaker.
    fn first(&self, game: &Game<NdTourists>) -> Option<Seat> {
        let s = game.state();
        let dominant = game.log().iter().find_map(|e| match e {
            Event::RoundStarted { dominant, .. } => Some(*dominant),
            _ => None,
        })?;
        let party = dominant.unwrap_or(0);
        Some(s.table.parties.get(usize::from(party))?.seat)
    }

    /// Control held counts most; each Loss on the table less; a party out of the Conflict
    /// least of all.
    fn standing(&self, s: &State) -> Vec<f64> {
        let mut out = vec![0.0; self.seats.len()];
        for (i, p) in s.parties.iter().enumerate() {
            let Some(k) = self.seat_of(s, i as u8) else {
                continue;
            };
            let control = if s.dominant == Some(i as u8) {
                f64::from(s.control)
            } else {
                0.0
            };
            let losses = 0.25 * p.temporary.len() as f64 + 0.5 * p.lasting.len() as f64;
            let out_of_it = if p.status == Status::InPlay {
                0.0
            } else {
                100.0
            };
            out[k] += control - losses - out_of_it;
        }
        out
    }

    fn option(&self, command: &Command) -> Option<String> {
        let word = match command {
            Command::Bid { .. } => "bid",
            Command::Pass { .. } => "pass",
            Command::Reject { .. } => "reject a card (ND-19)",
            Command::Turn {} => "turn a card with a token (ND-18)",
            Command::Cover { .. } => "cover with a Reserve card (ND-20)",
            Command::LetItStand { .. } => "let a card stand",
            Command::SpendLoss { .. } => "spend a Loss card (D-14)",
            _ => return None,
        };
        Some(word.to_string())
    }

    /// Each card a party placed: how much of the deck it beats against the average card (ND-3),
    /// and half a point for landing upright, less for reversed (ND-2, ND-21).
    fn luck(&self, game: &Game<NdTourists>) -> Vec<f64> {
        let s = game.state();
        let mut luck = vec![0.0; self.seats.len()];
        for e in game.log() {
            let (party, card, reversed) = match e {
                Event::CardPlaced {
                    party,
                    card,
                    reversed,
                    narrative: false,
                    ..
                } => (*party, *card, *reversed),
                _ => continue,
            };
            if let Some(k) = self.seat_of(s, party) {
                let orientation = if reversed { -0.5 } else { 0.5 };
                luck[k] += self.power[usize::from(card.id())] + orientation;
            }
        }
        luck
    }
}

/// The cards of a variant's deck (for tests and reports).
pub fn deck_of(variant: Option<&Variant>) -> Result<CardSet, RuleError> {
    Ok(Rules::of(variant)?.deck(false))
}

#[cfg(test)]
mod tests {
    use super::*;
    use clash_core::SeededRandomness;
    use clash_core::workbench::Mix;

    #[test]
    fn both_tables_play_whole_games_with_every_mix() {
        for (table, info) in TABLES.iter().enumerate() {
            let bench = TouristsBench::new(table, None).unwrap();
            assert_eq!(bench.seats.len(), info.seats.len());
            for mix in Mix::ALL {
                let seen = run::play_one(&bench, mix, 2, &mut SeededRandomness::new(3)).unwrap();
                assert!(seen.length >= 1, "{mix:?}: {seen:?}");
                assert_eq!(seen.luck.len(), info.seats.len());
                if mix != Mix::Casual {
                    assert!(!seen.options.is_empty(), "the strong bot decided something");
                }
            }
        }
    }

    #[test]
    fn a_variant_reaches_the_tables_setup() {
        let v = Variant::new(
            "short fuse",
            clash_core::variant::parse_changes("wipe_out=4,reserve=1").unwrap(),
        );
        let bench = TouristsBench::new(0, Some(&v)).unwrap();
        let state = NdTourists::setup(&bench.setup).unwrap();
        assert_eq!(state.table.rules.wipe_out, 4);
        assert_eq!(state.parties[1].characters[0].unseen, 1); // TMDF's Reserve, dealt at start
        let bad = Variant::new(
            "x",
            clash_core::variant::parse_changes("wipe_out=1").unwrap(),
        );
        assert_eq!(
            TouristsBench::new(0, Some(&bad)).unwrap_err().rule(),
            Some("ND-16")
        );
    }
}
