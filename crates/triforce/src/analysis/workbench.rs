//! Triforce on the designer's workbench: its rule parameters ([`crate::variant::PARAMS`]), the
//! tables its bots play to measure a variant, and how a game is scored (territory held, what
//! the strong bot chose, how lucky each player's combat dice were).

use clash_analysis::bot_strength::Table;
use clash_analysis::workbench::run::{self, Bench};
use clash_core::variant::Variant;
use clash_core::workbench::{BenchTable, Ending, Suggested, Workbench};
use clash_core::{Game, Randomness, RuleError, Seat};

use crate::pieces::seat_index;
use crate::state::EndRule;
use crate::variant::{PARAMS, Rules};
use crate::winning::bottom_counts;
use crate::{Command, Event, Gear, Setup, Size, State, Triforce};

/// Turns after which a game the rules do not end by themselves is cut off.
pub const MAX_TURNS: u32 = 150;

/// The tables.
pub const TABLES: &[BenchTable] = &[
    BenchTable {
        key: "three",
        about: "Three players from the standard opening (TF-8, TF-10), Red to start; cut off after 150 turns unless the variant sets its own turn limit (TF-30).",
        seats: &["Red", "Green", "Blue"],
        unit: "turns",
        lead: "bottom player of the most stacks",
    },
    BenchTable {
        key: "four",
        about: "Four players from the standard opening, Red to start; cut off after 150 turns unless the variant sets its own turn limit (TF-30).",
        seats: &["Red", "Green", "Blue", "Yellow"],
        unit: "turns",
        lead: "bottom player of the most stacks",
    },
];

/// Variants worth trying first.
pub const SUGGESTED: &[Suggested] = &[
    Suggested {
        name: "nearer goal",
        changes: "territory=10",
        why: "One stack fewer to win by territory (TF-28): do games end before the limit?",
    },
    Suggested {
        name: "even dice",
        changes: "shield_die=d12",
        why: "The shield's d20 against a plain d12: is the shield too strong?",
    },
    Suggested {
        name: "turn limit",
        changes: "turn_limit=60",
        why: "TF-30's optional limit, with the most stacks winning.",
    },
];

/// The workbench the catalogue offers.
pub fn workbench() -> Workbench {
    run::workbench::<TriforceBench>(PARAMS, TABLES, SUGGESTED)
}

impl run::ForTrial for TriforceBench {
    fn for_trial(table: usize, variant: Option<&Variant>) -> Result<Self, RuleError> {
        TriforceBench::new(table, variant)
    }
}

/// One of the workbench's tables under one variant.
#[derive(Debug, Clone)]
pub struct TriforceBench {
    pub setup: Setup,
}

impl TriforceBench {
    /// Table `table` of [`TABLES`] under `variant`, or the rule the variant breaks.
    pub fn new(table: usize, variant: Option<&Variant>) -> Result<TriforceBench, RuleError> {
        let players = match table {
            0 => 3,
            1 => 4,
            _ => {
                return Err(RuleError::setup(
                    "TF-variant",
                    "this game has no such table",
                ));
            }
        };
        let mut setup = Setup::new(players);
        setup.variant = variant.cloned();
        crate::start(&setup)?;
        Ok(TriforceBench { setup })
    }
}

impl Table for TriforceBench {
    type R = Triforce;

    fn start(&self, _rng: &mut dyn Randomness) -> Option<Game<Triforce>> {
        Game::<Triforce>::new(self.setup.clone()).ok()
    }

    fn seats(&self) -> Vec<Seat> {
        (1..=self.setup.players).map(Seat::Player).collect()
    }

    fn business(&self, _game: &Game<Triforce>) -> Option<(Seat, Command)> {
        None
    }

    fn finished(&self, game: &Game<Triforce>) -> bool {
        game.state().outcome().is_some() || game.state().turn() > MAX_TURNS
    }

    fn winners(&self, game: &Game<Triforce>) -> Vec<Seat> {
        game.state()
            .outcome()
            .map(|o| o.winners.as_slice().to_vec())
            .unwrap_or_default()
    }

    fn length(&self, game: &Game<Triforce>) -> u32 {
        game.state().turn().min(MAX_TURNS)
    }

    fn length_unit(&self) -> &'static str {
        "turns"
    }

    fn max_commands(&self) -> u32 {
        MAX_TURNS * 40
    }
}

impl Bench for TriforceBench {
    fn ending(&self, game: &Game<Triforce>) -> Ending {
        match game.state().outcome().map(|o| o.by) {
            Some(EndRule::Territory | EndRule::LastFree) => Ending::Won,
            // TF-30: nobody can act; the most territory wins (or shares a draw).
            Some(EndRule::Deadlock) => Ending::Stall,
            Some(EndRule::TurnLimit) | None => Ending::Limit,
        }
    }

    /// TF-11: the starting seat.
    fn first(&self, _game: &Game<Triforce>) -> Option<Seat> {
        Some(self.setup.starting_seat)
    }

    /// TF-28: stacks held as bottom player.
    fn standing(&self, state: &State) -> Vec<f64> {
        let counts = bottom_counts(state);
        (0..state.players())
            .map(|s| f64::from(counts[usize::from(s)]))
            .collect()
    }

    fn option(&self, command: &Command) -> Option<String> {
        let word = match command {
            Command::Place { size: Size::S } => "place a small pyramid (TF-14)",
            Command::Place { size: Size::M } => "place a medium pyramid (TF-14)",
            Command::Place { size: Size::L } => "place a large pyramid (TF-14)",
            Command::Move { .. } => "move a pyramid (TF-15)",
            Command::EndTurn => "end the turn early (TF-17)",
            Command::Resolve { .. } => "choose the stack to fight (TF-20)",
            Command::TakeSword { .. } => "take a sword (TF-22)",
            Command::TakeShield { .. } => "take a shield (TF-22)",
            Command::Decline => "decline the exchange (TF-22)",
        };
        Some(word.to_string())
    }

    /// Every die a player threw in combat, against its average face, as a share of its sides
    /// (TF-24).
    fn luck(&self, game: &Game<Triforce>) -> Vec<f64> {
        let state = game.state();
        let dice = state.rules.dice();
        let mut luck = vec![0.0; usize::from(state.players())];
        let rel = |face: u8, sides: u32| {
            (f64::from(face) - (f64::from(sides) + 1.0) / 2.0) / f64::from(sides)
        };
        for e in game.log() {
            let Event::Battle(b) = e else { continue };
            for r in b.rolls.as_slice() {
                let Some(s) = seat_index(r.seat, state.players()) else {
                    continue;
                };
                let l = match r.gear {
                    Gear::Shield => r.shield.map_or(0.0, |f| rel(f, dice.shield)),
                    Gear::Sword => {
                        r.own.map_or(0.0, |f| rel(f, dice.player))
                            + r.sword.map_or(0.0, |f| rel(f, dice.sword))
                    }
                    Gear::None => r.own.map_or(0.0, |f| rel(f, dice.player)),
                };
                luck[usize::from(s)] += l;
            }
        }
        luck
    }
}

/// The rules a variant gives (for reports).
pub fn rules_of(variant: Option<&Variant>) -> Result<Rules, RuleError> {
    Rules::of(variant).map(|(r, _)| r)
}

#[cfg(test)]
mod tests {
    use super::*;
    use clash_core::SeededRandomness;
    use clash_core::workbench::Mix;

    #[test]
    fn both_tables_play_with_every_mix() {
        for (table, info) in TABLES.iter().enumerate() {
            let bench = TriforceBench::new(table, None).unwrap();
            assert_eq!(bench.seats().len(), info.seats.len());
            for mix in Mix::ALL {
                let seen = run::play_one(&bench, mix, 2, &mut SeededRandomness::new(5)).unwrap();
                assert!(seen.length >= 1, "{mix:?}: {seen:?}");
                assert_eq!(seen.luck.len(), info.seats.len());
            }
        }
    }

    #[test]
    fn a_turn_limit_from_the_variant_ends_games_by_the_rules() {
        let v = Variant::new(
            "short",
            clash_core::variant::parse_changes("turn_limit=6").unwrap(),
        );
        let bench = TriforceBench::new(0, Some(&v)).unwrap();
        let seen = run::play_one(
            &bench,
            clash_core::workbench::Mix::Casual,
            1,
            &mut SeededRandomness::new(1),
        )
        .unwrap();
        assert!(seen.length <= 7, "{seen:?}");
        assert_ne!(seen.ending, Ending::Stall);
    }
}
