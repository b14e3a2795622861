//! Iron Triangle on the designer's workbench: its rule parameters ([`crate::variant::PARAMS`]),
//! the duels its bots play to measure a variant, how a duel is scored (energy left, what the
//! strong bot chose), and the exact balance table of level-0 builds where the duel solver
//! answers ([`crate::analysis::balance`]).
//!
//! Iron Triangle has no dice: the only chance in a duel is the players' own mixed choices, so
//! no luck is measured.

use std::sync::atomic::{AtomicBool, Ordering};

use clash_analysis::bot_strength::Table as Played;
use clash_analysis::workbench::run::{self, Bench};
use clash_core::variant::Variant;
use clash_core::workbench::{BenchTable, Ending, ExactRequest, ExactTable, Suggested, Workbench};
use clash_core::{Game, Randomness, RuleError, Seat};
use serde_json::{Value, json};

use crate::analysis::balance::{self, Build, builds_of};
use crate::conflict::{ConflictCommand, Side};
use crate::variant::{PARAMS, Rules};
use crate::{Command, IronTriangle, Setup, Table};

/// The tables.
pub const TABLES: &[BenchTable] = &[
    BenchTable {
        key: "level-0",
        about: "A lesser conflict between a level-0 PC and the GM's level-0 NPC, both knowing the starting moves (IT-12), each game with builds drawn at random from every way to spread the energy total (IT-9); the PC acts first (D-13).",
        seats: &["the PC", "the NPC"],
        unit: "turns",
        lead: "more energy left",
    },
    BenchTable {
        key: "seasoned",
        about: "A lesser conflict between two level-4 fighters who know all nine Low/Mid/High moves and combos from A-L, G-H and D-M (as many followups as the variant allows), the energy total split evenly; the PC acts first (D-13).",
        seats: &["the PC", "the NPC"],
        unit: "turns",
        lead: "more energy left",
    },
];

/// Variants worth trying first.
pub const SUGGESTED: &[Suggested] = &[
    Suggested {
        name: "more energy",
        changes: "energy=14",
        why: "Longer duels: does acting first still cost the PC?",
    },
    Suggested {
        name: "short chains",
        changes: "chain_wins=2",
        why: "Combos end sooner (IT-46): do seasoned duels turn less on one run?",
    },
    Suggested {
        name: "harsh disadvantage",
        changes: "disadvantage=2",
        why: "Losing twice hurts more (IT-39): more decisive duels?",
    },
];

/// The workbench the catalogue offers.
pub fn workbench() -> Workbench {
    Workbench {
        exact: Some(exact),
        ..run::workbench::<IronBench>(PARAMS, TABLES, SUGGESTED)
    }
}

impl run::ForTrial for IronBench {
    fn for_trial(table: usize, variant: Option<&Variant>) -> Result<Self, RuleError> {
        IronBench::new(table, variant)
    }
}

/// One of the workbench's duels under one variant.
#[derive(Debug, Clone)]
pub struct IronBench {
    table: usize,
    variant: Option<Variant>,
    rules: Rules,
}

const BASIC: [&str; 9] = [
    "D-L", "D-M", "D-H", "G-L", "G-M", "G-H", "A-L", "A-M", "A-H",
];

fn sheet(name: &str, seat: &str, build: Build, level: u32, combos: Value) -> Value {
    let moves: Vec<&str> = if level == 0 {
        vec!["D-M", "G-L", "A-H"]
    } else {
        BASIC.to_vec()
    };
    json!({"name": name, "controller": seat, "established": level > 0, "level": level,
        "energy": {"defend": build.defend, "grapple": build.grapple, "attack": build.attack},
        "backgrounds": [{"name": "Street", "points": 2}, {"name": "School", "points": 1}],
        "belief": "Practice wins fights", "flaw": "Stubborn", "goal": "Win this fight",
        "moves": moves.iter().map(|m| json!({"move": m, "name": m})).collect::<Vec<_>>(),
        "combos": combos})
}

/// Combos from A-L, G-H and D-M, each with as many followups as `cap` allows.
fn combos(cap: u32) -> Value {
    let lines: [(&str, [&str; 4]); 3] = [
        ("A-L", ["G-H", "A-H", "D-H", "G-M"]),
        ("G-H", ["D-H", "A-H", "A-L", "D-L"]),
        ("D-M", ["G-L", "A-M", "G-H", "A-L"]),
    ];
    let take = cap.clamp(1, 4) as usize;
    Value::Array(
        lines
            .iter()
            .map(|(from, f)| json!({"from": from, "followups": &f[..take]}))
            .collect(),
    )
}

impl IronBench {
    /// Table `table` of [`TABLES`] under `variant`, or the rule the variant breaks.
    pub fn new(table: usize, variant: Option<&Variant>) -> Result<IronBench, RuleError> {
        let rules = Rules::of(variant)?;
        if table >= TABLES.len() {
            return Err(RuleError::setup(
                "IT-variant",
                "this game has no such table",
            ));
        }
        let bench = IronBench {
            table,
            variant: variant.cloned(),
            rules,
        };
        let even = bench.even();
        <IronTriangle as clash_core::Ruleset>::setup(&bench.setup(even, even)?)?;
        Ok(bench)
    }

    /// The energy total split as evenly as it goes.
    fn even(&self) -> Build {
        let third = self.rules.energy / 3;
        Build {
            defend: third,
            grapple: third,
            attack: self.rules.energy - 2 * third,
        }
    }

    fn setup(&self, pc: Build, npc: Build) -> Result<Setup, RuleError> {
        let (level, combos) = match self.table {
            0 => (0, json!([])),
            _ => (4, combos(self.rules.followups)),
        };
        let mut setup = json!({"players": ["p1"], "characters": [
            sheet("Ada", "p1", pc, level, combos.clone()),
            sheet("Bruiser", "gm", npc, level, combos)]});
        if let Some(v) = &self.variant {
            setup["variant"] = serde_json::to_value(v).unwrap_or(Value::Null);
        }
        serde_json::from_value(setup).map_err(|e| RuleError::setup("IT-9", e.to_string()))
    }

    fn builds(&self, rng: &mut dyn Randomness) -> Option<(Build, Build)> {
        if self.table != 0 {
            return Some((self.even(), self.even()));
        }
        let all = builds_of(self.rules.energy);
        let mut draw = || {
            let i = rng.choose(all.len(), &|i| i.to_string()).ok()?;
            all.get(i).copied()
        };
        Some((draw()?, draw()?))
    }
}

impl Played for IronBench {
    type R = IronTriangle;

    fn start(&self, rng: &mut dyn Randomness) -> Option<Game<IronTriangle>> {
        let (pc, npc) = self.builds(rng)?;
        let mut game = Game::<IronTriangle>::new(self.setup(pc, npc).ok()?).ok()?;
        let start = Command::Conflict(ConflictCommand::StartConflict {
            stakes: "the bridge".into(),
            npcs: vec!["Bruiser".into()],
            lethal: false,
            minor: false,
        });
        game.command(Seat::Gm, &start, rng).ok()?;
        Some(game)
    }

    fn seats(&self) -> Vec<Seat> {
        vec![Seat::Player(1), Seat::Gm]
    }

    fn business(&self, _game: &Game<IronTriangle>) -> Option<(Seat, Command)> {
        None
    }

    fn finished(&self, game: &Game<IronTriangle>) -> bool {
        game.state()
            .conflict
            .as_ref()
            .is_none_or(|c| !c.is_running())
    }

    fn winners(&self, game: &Game<IronTriangle>) -> Vec<Seat> {
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

    fn length(&self, game: &Game<IronTriangle>) -> u32 {
        game.state().conflict.as_ref().map_or(0, |c| c.turns_played)
    }

    fn length_unit(&self) -> &'static str {
        "turns"
    }

    fn max_commands(&self) -> u32 {
        2000
    }
}

impl Bench for IronBench {
    fn ending(&self, game: &Game<IronTriangle>) -> Ending {
        if self.winners(game).is_empty() {
            Ending::NoWinner
        } else {
            Ending::Won
        }
    }

    /// D-13: the players pick the first active character, the PC.
    fn first(&self, _game: &Game<IronTriangle>) -> Option<Seat> {
        Some(Seat::Player(1))
    }

    /// Energy left on each side.
    fn standing(&self, table: &Table) -> Vec<f64> {
        let energy = |seat: Seat| {
            table
                .characters
                .iter()
                .filter(|c| c.controller == seat)
                .map(|c| f64::from(c.energy.total()))
                .sum()
        };
        vec![energy(Seat::Player(1)), energy(Seat::Gm)]
    }

    fn option(&self, command: &Command) -> Option<String> {
        let Command::Conflict(c) = command else {
            return None;
        };
        Some(match c {
            ConflictCommand::TakeStance { action, amount, .. } => match action {
                Some(a) if *amount > 0 => format!("stance {a} (IT-33)"),
                _ => "no stance (IT-33)".into(),
            },
            ConflictCommand::PlayMove { choice, .. } => format!("move {choice}"),
            ConflictCommand::EndChain {} => "end the chain (IT-43)".into(),
            _ => return None,
        })
    }

    fn luck(&self, _game: &Game<IronTriangle>) -> Vec<f64> {
        Vec::new()
    }
}

/// Up to `n` builds of the variant's energy total, spread evenly over its list.
fn spread(total: u32, n: usize) -> Vec<Build> {
    let all = builds_of(total);
    if all.len() <= n {
        return all;
    }
    let n = n.max(1);
    (0..n)
        .map(|i| all[i * (all.len() - 1) / (n - 1).max(1)])
        .collect()
}

/// The exact balance table of level-0 builds under `variant`: each PC build (acting first)
/// against each NPC build, by the duel solver.
fn exact(
    variant: Option<&Variant>,
    request: &ExactRequest,
    progress: &(dyn Fn() + Sync),
    stop: &AtomicBool,
) -> Result<ExactTable, RuleError> {
    let rules = Rules::of(variant)?;
    let builds = spread(rules.energy, request.size.min(6));
    let pairs: Vec<(Build, Build)> = builds
        .iter()
        .flat_map(|pc| builds.iter().map(move |npc| (*pc, *npc)))
        .collect();
    let solved = std::sync::Mutex::new(Vec::new());
    balance::solve_all(
        &pairs
            .iter()
            .copied()
            .filter(|_| !stop.load(Ordering::Relaxed))
            .collect::<Vec<_>>(),
        request.threads,
        &|r| {
            if let Ok(r) = r
                && let Ok(mut s) = solved.lock()
            {
                s.push(r);
            }
            progress();
        },
    );
    let solved = solved.into_inner().unwrap_or_default();
    let values = builds
        .iter()
        .map(|pc| {
            builds
                .iter()
                .map(|npc| {
                    solved
                        .iter()
                        .find(|r| r.pc == *pc && r.npc == *npc)
                        .map(|r| r.value)
                })
                .collect()
        })
        .collect();
    Ok(ExactTable {
        title: format!(
            "Level-0 builds of {} energy, solved exactly (value to the PC)",
            rules.energy
        ),
        rows_are: "the PC, acting first".into(),
        cols_are: "the GM's NPC".into(),
        rows: builds.iter().map(ToString::to_string).collect(),
        cols: builds.iter().map(ToString::to_string).collect(),
        values,
        note: "Each cell is one whole duel solved by backward induction (P(PC wins) − P(NPC wins)). Level-0 characters know no combos and are never disadvantaged (TV-14), so of a variant's numbers only the energy total matters here.".into(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use clash_core::SeededRandomness;
    use clash_core::workbench::Mix;

    #[test]
    fn both_tables_play_with_every_mix() {
        for table in 0..TABLES.len() {
            let bench = IronBench::new(table, None).unwrap();
            for mix in Mix::ALL {
                let seen = run::play_one(&bench, mix, 2, &mut SeededRandomness::new(4)).unwrap();
                assert!(seen.length >= 1, "{mix:?}: {seen:?}");
                assert_eq!(seen.ending, Ending::Won, "IT-27: one side wins");
                assert!(seen.luck.is_empty());
            }
        }
    }

    #[test]
    fn the_variants_numbers_reach_the_duels() {
        let v = Variant::new(
            "v",
            clash_core::variant::parse_changes("energy=6,followups=3").unwrap(),
        );
        let bench = IronBench::new(1, Some(&v)).unwrap();
        let setup = bench.setup(bench.even(), bench.even()).unwrap();
        assert_eq!(setup.characters[0].combos[0].followups.len(), 3);
        let mut rng = SeededRandomness::new(2);
        let level0 = IronBench::new(0, Some(&v)).unwrap();
        let (pc, npc) = level0.builds(&mut rng).unwrap();
        assert_eq!(pc.defend + pc.grapple + pc.attack, 6); // IT-9 under the variant
        assert_eq!(npc.defend + npc.grapple + npc.attack, 6);
    }

    #[test]
    fn the_exact_table_solves_a_small_variant() {
        let v = Variant::new("v", clash_core::variant::parse_changes("energy=4").unwrap());
        let t = exact(
            Some(&v),
            &ExactRequest {
                size: 2,
                threads: Some(1),
            },
            &|| {},
            &AtomicBool::new(false),
        )
        .unwrap();
        assert_eq!(t.rows.len(), 2);
        assert!(t.values.iter().flatten().all(|v| v.is_some()));
    }
}
