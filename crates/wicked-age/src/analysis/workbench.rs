//! In A Wicked Age on the designer's workbench: its rule parameters
//! ([`crate::variant::PARAMS`]), the conflicts its bots play to measure a variant, and how a
//! conflict is scored (who holds the Advantage, what the strong bot chose, how lucky each
//! character's dice were).

use clash_analysis::bot_strength::Table;
use clash_analysis::workbench::run::{self, Bench};
use clash_core::variant::Variant;
use clash_core::workbench::{BenchTable, Ending, Suggested, Workbench};
use clash_core::{Game, Randomness, RuleError, Ruleset, Seat};
use serde_json::Value;

use crate::conflict::EndReason;
use crate::roll::{Roll, RollChoice};
use crate::variant::PARAMS;
use crate::{Command, Event, Setup, State, WickedAge};

/// The tables.
pub const TABLES: &[BenchTable] = &[
    BenchTable {
        key: "duel",
        about: "One conflict: the PC Ash (Covertly d12, Directly d10, For Myself d8, For Others d6, With Love d6, With Violence d4) against the GM's Ogre (d12+d8, d10+d6, d6+d4).",
        seats: &["Ash", "The Ogre"],
        unit: "exchanges",
        lead: "holding the Advantage die",
    },
    BenchTable {
        key: "brawl",
        about: "The lobby's three-way brawl: the PCs Ysolde and Oren, each with a Particular Strength, and the GM's Khan.",
        seats: &["Ysolde", "Oren", "The Khan"],
        unit: "exchanges",
        lead: "holding the Advantage die",
    },
];

/// Variants worth trying first.
pub const SUGGESTED: &[Suggested] = &[
    Suggested {
        name: "short conflicts",
        changes: "rounds=2",
        why: "Two rounds, the second final (WA-21, WA-23): fewer conflicts end with everyone standing?",
    },
    Suggested {
        name: "big advantage",
        changes: "advantage=d10",
        why: "A d10 Advantage die (WA-20): does holding it decide more?",
    },
    Suggested {
        name: "no advantage die",
        changes: "advantage=none",
        why: "The Advantage changes hands but adds nothing: how much does the die matter?",
    },
];

/// The workbench the catalogue offers.
pub fn workbench() -> Workbench {
    run::workbench::<WickedBench>(PARAMS, TABLES, SUGGESTED)
}

impl run::ForTrial for WickedBench {
    fn for_trial(table: usize, variant: Option<&Variant>) -> Result<Self, RuleError> {
        WickedBench::new(table, variant)
    }
}

/// One of the workbench's conflicts under one variant.
#[derive(Debug, Clone)]
pub struct WickedBench {
    pub setup: Setup,
    /// The participants, in the order of the table's names, and the seat each is played from.
    participants: Vec<(String, Seat)>,
}

impl WickedBench {
    /// Table `table` of [`TABLES`] under `variant`, or the rule the variant breaks.
    pub fn new(table: usize, variant: Option<&Variant>) -> Result<WickedBench, RuleError> {
        use clash_core::Listed;
        let mut setup: Value = match table {
            0 => crate::analysis::contests::default_wicked_setup(),
            1 => WickedAge::PRESETS
                .first()
                .and_then(|p| serde_json::from_str(p.setup).ok())
                .unwrap_or(Value::Null),
            _ => Value::Null,
        };
        if setup.is_null() {
            return Err(RuleError::setup(
                "WA-variant",
                "this game has no such table",
            ));
        }
        if let Some(v) = variant {
            setup["variant"] = serde_json::to_value(v).unwrap_or(Value::Null);
        }
        let setup: Setup =
            serde_json::from_value(setup).map_err(|e| RuleError::setup("WA-19", e.to_string()))?;
        let state = WickedAge::setup(&setup)?;
        let participants = TABLES[table]
            .seats
            .iter()
            .filter_map(|n| Some((n.to_string(), state.character(n)?.controller)))
            .collect();
        Ok(WickedBench {
            setup,
            participants,
        })
    }

    fn seat_of(&self, name: &str) -> Option<usize> {
        self.participants.iter().position(|(n, _)| n == name)
    }

    fn conflict<'a>(&self, s: &'a State) -> Option<&'a crate::conflict::Conflict> {
        s.conflict.as_ref().or(s.last_conflict.as_ref())
    }
}

impl Table for WickedBench {
    type R = WickedAge;

    fn start(&self, rng: &mut dyn Randomness) -> Option<Game<WickedAge>> {
        let mut game = Game::<WickedAge>::new(self.setup.clone()).ok()?;
        let start = Command::StartConflict {
            participants: self.participants.iter().map(|(n, _)| n.clone()).collect(),
            action: "blocks the road".into(),
        };
        game.command(Seat::Gm, &start, rng).ok()?;
        Some(game)
    }

    fn seats(&self) -> Vec<Seat> {
        self.participants.iter().map(|(_, s)| *s).collect()
    }

    fn business(&self, _game: &Game<WickedAge>) -> Option<(Seat, Command)> {
        None
    }

    /// Over once the conflict has ended and every consequence is settled.
    fn finished(&self, game: &Game<WickedAge>) -> bool {
        game.state()
            .conflict
            .as_ref()
            .is_none_or(|c| c.ended.is_some() && c.open_knockouts().next().is_none())
    }

    /// The one participant left standing after knockouts (WA-24); a conflict that runs out of
    /// rounds with several standing has no winner.
    fn winners(&self, game: &Game<WickedAge>) -> Vec<Seat> {
        let s = game.state();
        let Some(c) = self.conflict(s) else {
            return Vec::new();
        };
        let standing: Vec<Seat> = self
            .participants
            .iter()
            .filter(|(n, _)| !c.knockouts.iter().any(|k| &k.loser == n))
            .map(|(_, seat)| *seat)
            .collect();
        if standing.len() == 1 {
            standing
        } else {
            Vec::new()
        }
    }

    fn length(&self, game: &Game<WickedAge>) -> u32 {
        self.conflict(game.state())
            .map_or(0, |c| c.exchanges.len() as u32)
    }

    fn length_unit(&self) -> &'static str {
        "exchanges"
    }

    fn max_commands(&self) -> u32 {
        400
    }
}

fn roll_luck(roll: &Roll) -> f64 {
    roll.dice
        .iter()
        .filter(|d| d.sides > 0)
        .map(|d| (f64::from(d.face) - (f64::from(d.sides) + 1.0) / 2.0) / f64::from(d.sides))
        .sum()
}

fn choice_words(choice: &RollChoice) -> String {
    let mut forms: Vec<&str> = choice.forms.iter().map(|f| f.label()).collect();
    forms.sort();
    let mut words = match (forms.as_slice(), choice.form) {
        ([a, b], _) => format!("{a} and {b}"),
        (_, Some(f)) => f.label().to_string(),
        _ => "the standing roll".to_string(),
    };
    if choice.strength.is_some() {
        words.push_str(" with a strength");
    }
    words
}

impl Bench for WickedBench {
    fn ending(&self, game: &Game<WickedAge>) -> Ending {
        let ended = self.conflict(game.state()).and_then(|c| c.ended.clone());
        match ended {
            Some(EndReason::Knockouts {}) if !self.winners(game).is_empty() => Ending::Won,
            Some(EndReason::Knockouts {}) | Some(EndReason::Agreement { .. }) => Ending::NoWinner,
            // WA-21: the rounds ran out with several standing.
            Some(EndReason::RoundThreeOver {}) | None => Ending::Limit,
        }
    }

    /// WA-22: the first in round 1's initiative order.
    fn first(&self, game: &Game<WickedAge>) -> Option<Seat> {
        game.log().iter().find_map(|e| match e {
            Event::InitiativeOrdered { order, .. } => {
                let i = self.seat_of(order.first()?)?;
                Some(self.participants[i].1)
            }
            _ => None,
        })
    }

    /// Holding the Advantage die counts; being knocked out counts against most.
    fn standing(&self, s: &State) -> Vec<f64> {
        let Some(c) = self.conflict(s) else {
            return vec![0.0; self.participants.len()];
        };
        self.participants
            .iter()
            .map(|(n, _)| {
                let out = c.knockouts.iter().any(|k| &k.loser == n);
                let holds = c.advantage.as_deref() == Some(n.as_str());
                f64::from(u8::from(holds)) - if out { 10.0 } else { 0.0 }
            })
            .collect()
    }

    fn option(&self, command: &Command) -> Option<String> {
        Some(match command {
            Command::RollInitiative { choice, .. } => {
                format!("initiative with {}", choice_words(choice))
            }
            Command::Challenge { choice, .. } => format!("challenge with {}", choice_words(choice)),
            Command::Answer { choice, .. } => format!("answer with {}", choice_words(choice)),
            Command::CashInOwe { .. } => "cross off an Owe List entry (WA-17)".into(),
            Command::ChooseConsequence { consequence, .. } => {
                format!("consequence: {consequence:?}").to_lowercase()
            }
            Command::AcceptAlternative { .. } => "accept an alternative (WA-27)".into(),
            Command::RefuseAlternative { .. } => "refuse an alternative (WA-27)".into(),
            Command::AgreeEnd { .. } => "agree to end the conflict (WA-25)".into(),
            _ => return None,
        })
    }

    /// Every die each participant threw, against its average face, as a share of its sides.
    fn luck(&self, game: &Game<WickedAge>) -> Vec<f64> {
        let mut luck = vec![0.0; self.participants.len()];
        for e in game.log() {
            let (who, roll) = match e {
                Event::InitiativeRolled {
                    character, roll, ..
                }
                | Event::InitiativeTieRerolled { character, roll } => (character, roll),
                Event::Challenged {
                    challenger,
                    roll,
                    standing: false,
                    ..
                } => (challenger, roll),
                Event::Answered { answerer, roll, .. } => (answerer, roll),
                _ => continue,
            };
            if let Some(i) = self.seat_of(who) {
                luck[i] += roll_luck(roll);
            }
        }
        luck
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clash_core::SeededRandomness;
    use clash_core::workbench::Mix;

    #[test]
    fn both_tables_play_with_every_mix() {
        for (table, info) in TABLES.iter().enumerate() {
            let bench = WickedBench::new(table, None).unwrap();
            assert_eq!(bench.seats().len(), info.seats.len());
            for mix in Mix::ALL {
                let seen = run::play_one(&bench, mix, 2, &mut SeededRandomness::new(9)).unwrap();
                assert!(seen.length >= 1, "{mix:?}: {seen:?}");
                assert!(seen.first.is_some());
                assert_ne!(seen.ending, Ending::Stall, "{mix:?}: {seen:?}");
            }
        }
    }

    #[test]
    fn a_variant_reaches_the_tables_setup() {
        let v = Variant::new(
            "short",
            clash_core::variant::parse_changes("rounds=1").unwrap(),
        );
        let bench = WickedBench::new(0, Some(&v)).unwrap();
        assert_eq!(WickedAge::setup(&bench.setup).unwrap().rules.rounds, 1);
    }
}
