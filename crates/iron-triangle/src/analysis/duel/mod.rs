//! A whole Iron Triangle duel between two characters, solved by backward induction over conflict
//! states.
//!
//! The first character is a PC (the players' side), the second the GM's NPC, in a lesser
//! conflict with no one else (IT-22, IT-23). The PC is the first active character (IT-25,
//! D-13). Every turn is a two-stage game (stances revealed, then moves, IT-32 … IT-35) whose
//! entries are what the rest of the duel is worth after the turn.
//!
//! ## Payoff
//!
//! +1 when the PC's side wins the conflict, −1 when the GM's side does (IT-27: a side wins when
//! the other is all out, by 0 energy in every type, IT-52, or by surrendering, IT-36). The value
//! is P(PC wins) − P(NPC wins) under optimal play, and P(PC wins) = (1 + value) / 2, since every
//! duel ends with a winner. When both go out in the same turn the GM's side wins (IT-27), so the
//! duel is not symmetric even between identical characters: a build against itself is worth
//! less than 0 to the PC (see the tests).
//!
//! ## States
//!
//! A state is what the rest of the duel depends on: both characters' current energy per type,
//! both disadvantage piles (IT-37), which character is active, and the active character's live
//! chain (IT-42) when it could still matter: when the active character knows a combo from its
//! last card (IT-44). A chain nobody can continue only locks its cards, and the active character
//! may end it before choosing a move (IT-43), so it is dropped.
//!
//! ## Choices beyond stances and moves
//!
//! * **Ending a chain** (IT-43): the active character may end its chain before choosing a move,
//!   after seeing the stances; so with a live chain its move choices are every move it knows
//!   that is not in its pile, the chain's cards played after ending it, and each followup both
//!   as a combo (chain kept) and without (chain ended first), since the chain left afterwards
//!   differs.
//! * **Loss split** (IT-51, D-35): the loser's controller puts the free part of the loss on any
//!   types, each up to the energy it holds; the solver lets the loser pick the split that is best
//!   for itself (the PC's player maximises, the GM minimises). After a tie both split, the active
//!   character first, each seeing the earlier split (the engine's order).
//! * **Next active character** (IT-26, D-9): after a win the winner; after a tie the GM picks,
//!   scored as the NPC's controller.
//! * **The chain after a win** (IT-42, IT-45, IT-46, D-7): a combo-ing win adds its card; any
//!   other win starts a new chain with the winning card; a third win in one chain ends it (no
//!   teammate to pass to).
//! * **Surrender** (IT-35, IT-36) loses the duel, the worst any choice can do, so it is played
//!   only when no move is available.
//!
//! ## Why one sweep is exact
//!
//! Every resolved turn lowers the two characters' total energy: a win costs the loser at least
//! the winner's base (2 to 4), a tie each side the other's base (IT-49, IT-50), floored only at
//! the energy held (D-35), and a character at 0 everywhere is out; a surrender ends the duel. So
//! the states form an acyclic graph and memoised recursion from the start (backward induction)
//! solves each state's stage game once, after its successors.
//!
//! ## Two solvers
//!
//! [`solve_duel`] resolves turns with [`crate::analysis::resolution`] (the engine's rule functions
//! without a table) and solves the stage games in `f64`; [`reference::solve_duel`] plays every
//! transition on a real engine table through the ruleset's commands and is kept as the
//! reference the tests compare with on small duels. [`DuelTable`] solves many duels on one
//! memo with [`solve_duel`]'s code and gives exactly its results.

pub mod reference;
mod search;
mod table;

use crate::conflict::Stance;
use serde::Serialize;

use crate::analysis::turn_game::{TurnError, TurnPosition, TurnSpec};
use clash_analysis::matrix_game;

pub use search::{DuelPosition, MAX_STATES, Solved, StageChoice, StageGames, StageView};
pub use table::DuelTable;

/// The largest current energy of one type a duel may start with (what a state stores).
pub const MAX_PER_TYPE: u32 = 15;

/// Why a duel cannot be solved.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DuelError {
    #[error(
        "{name} has {energy} energy of one type: the duel solver takes at most {MAX_PER_TYPE} per type"
    )]
    TooMuchEnergy { name: String, energy: u32 },
    #[error(
        "the duel has up to {states} energy states ({first} x {second} ways the two characters' energy can stand), more than the {MAX_STATES} the solver takes in memory and time"
    )]
    TooLarge {
        states: u64,
        first: u64,
        second: u64,
    },
    #[error("{0} has no energy and cannot enter a conflict (IT-23)")]
    NoEnergy(String),
    #[error("{0}")]
    Position(#[from] crate::analysis::position::PositionError),
    #[error("{0}")]
    Turn(#[from] TurnError),
    #[error("{0}")]
    Game(#[from] matrix_game::GameError),
}

/// How far the solver has got: states met so far, and states whose value is known.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Progress {
    pub discovered: usize,
    pub solved: usize,
}

/// An option with its probability in an optimal mixed strategy (zeros left out).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Weighted<T> {
    pub option: T,
    pub probability: f64,
}

/// The optimal moves of the first turn once a pair of stances is revealed.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FirstMoves {
    pub stance_first: Stance,
    pub stance_second: Stance,
    /// The duel's value to the first character once these stances are revealed.
    pub value: f64,
    /// Moves as players write them (`D-M`); with a live chain, `G-J (ending the chain first)`.
    pub first: Vec<Weighted<String>>,
    pub second: Vec<Weighted<String>>,
}

/// A solved duel.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DuelSolution {
    /// The PC, active first.
    pub first: String,
    /// The GM's NPC.
    pub second: String,
    /// P(first wins) − P(second wins) under optimal play, in [−1, 1].
    pub value: f64,
    /// P(first wins) = (1 + value) / 2 (a duel always ends with a winner).
    pub first_wins: f64,
    /// Conflict states solved (each a stance game of move games).
    pub states: usize,
    pub stances_first: Vec<Weighted<Stance>>,
    pub stances_second: Vec<Weighted<Stance>>,
    /// First-turn move equilibria for every stance pair both play with positive probability.
    pub moves: Vec<FirstMoves>,
}

/// Solve the duel between `spec.active` (the PC, active first) and `spec.opponent` (the NPC),
/// from the energies, piles and chain given, reporting progress as states are met and solved.
pub fn solve_duel(
    spec: &TurnSpec,
    progress: &mut dyn FnMut(Progress),
) -> Result<DuelSolution, DuelError> {
    check(spec)?;
    crate::analysis::position::check(spec)?;
    // The engine validates both characters (known moves IT-7/IT-8, combos IT-41/D-5).
    TurnPosition::new(spec)?;
    search::solve(spec, progress)
}

/// [`solve_duel`], also giving every state's stage game in solving order (successors first, the
/// start last), for comparisons with other solvers.
pub fn solve_duel_with_games(
    spec: &TurnSpec,
) -> Result<(DuelSolution, Vec<StageGames>), DuelError> {
    check(spec)?;
    crate::analysis::position::check(spec)?;
    TurnPosition::new(spec)?;
    search::solve_with(spec, &mut |_| {}, true)
}

fn check(spec: &TurnSpec) -> Result<(), DuelError> {
    let mut sizes = [0u64; 2];
    for (size, f) in sizes.iter_mut().zip([&spec.active, &spec.opponent]) {
        let e = [f.energy.defend, f.energy.grapple, f.energy.attack];
        if let Some(big) = e.iter().find(|x| **x > MAX_PER_TYPE) {
            return Err(DuelError::TooMuchEnergy {
                name: f.name.clone(),
                energy: *big,
            });
        }
        if e.iter().sum::<u32>() == 0 {
            return Err(DuelError::NoEnergy(f.name.clone()));
        }
        *size = e.iter().map(|x| u64::from(*x) + 1).product();
    }
    let states = sizes[0] * sizes[1];
    if states > MAX_STATES {
        return Err(DuelError::TooLarge {
            states,
            first: sizes[0],
            second: sizes[1],
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Move;
    use crate::analysis::turn_game::FighterSpec;
    use crate::character::{Combo, PerAction};

    fn fighter(name: &str, d: u32, g: u32, a: u32) -> FighterSpec {
        FighterSpec {
            name: name.into(),
            energy: PerAction {
                defend: d,
                grapple: g,
                attack: a,
            },
            max: None,
            moves: None,
            combos: vec![],
            pile: vec![],
            level: 0,
            specials: vec![],
        }
    }

    fn spec(a: FighterSpec, b: FighterSpec) -> TurnSpec {
        TurnSpec {
            active: a,
            opponent: b,
            chain: vec![],
        }
    }

    fn value(s: &TurnSpec) -> f64 {
        solve_duel(s, &mut |_| {}).unwrap().value
    }

    fn mv(s: &str) -> Move {
        s.parse().unwrap()
    }

    #[test]
    fn it_27_one_energy_each_is_worth_minus_a_third() {
        // A win takes the loser's last energy; a tie (same move) takes both and the GM's side
        // wins a double knockout (IT-27): one win in three for the PC.
        let s = solve_duel(
            &spec(fighter("Ada", 1, 0, 0), fighter("Bruiser", 0, 0, 1)),
            &mut |_| {},
        )
        .unwrap();
        assert!((s.value + 1.0 / 3.0).abs() < 1e-9, "{}", s.value);
        assert!((s.first_wins - 1.0 / 3.0).abs() < 1e-9);
        assert!(s.moves.iter().all(|m| m.first.len() == 3));
    }

    /// The duel solver equals the engine-driven reference on small duels.
    #[test]
    fn small_duels_equal_the_reference_solver() {
        let builds = [
            (1, 0, 0),
            (1, 1, 0),
            (0, 1, 1),
            (2, 1, 0),
            (1, 1, 1),
            (2, 0, 2),
            (1, 2, 2),
        ];
        for (i, x) in builds.iter().enumerate() {
            for y in builds.iter().skip(i) {
                let s = spec(fighter("X", x.0, x.1, x.2), fighter("Y", y.0, y.1, y.2));
                let fast = value(&s);
                let reference = reference::solve_duel(&s, reference::ChainPolicy::End, &mut |_| {})
                    .unwrap()
                    .value;
                assert!(
                    (fast - reference).abs() < 1e-9,
                    "{x:?} vs {y:?}: {fast} vs reference {reference}"
                );
            }
        }
    }

    #[test]
    fn more_moves_piles_and_a_cornered_fighter_equal_the_reference() {
        let mut wide = fighter("Wide", 1, 2, 1);
        wide.moves = Some(["D-L", "D-M", "G-L", "G-H", "A-M", "A-H"].map(mv).to_vec());
        wide.pile = vec![mv("G-H")];
        let mut cornered = fighter("Cornered", 2, 1, 1);
        cornered.moves = Some(vec![mv("D-M"), mv("A-H")]);
        cornered.pile = vec![mv("A-H")];
        for s in [
            spec(wide.clone(), fighter("Plain", 1, 1, 2)),
            spec(fighter("Plain", 2, 1, 1), wide.clone()),
            spec(cornered.clone(), wide.clone()),
            spec(wide, cornered),
        ] {
            let fast = value(&s);
            let reference = reference::solve_duel(&s, reference::ChainPolicy::End, &mut |_| {})
                .unwrap()
                .value;
            assert!(
                (fast - reference).abs() < 1e-9,
                "{fast} vs reference {reference}"
            );
        }
    }

    #[test]
    fn it_27_a_build_against_itself_favours_the_gm() {
        // The rules are symmetric (IT-32) but for the GM's side: it wins a double knockout
        // (IT-27) and picks the active character after a tie (IT-26). Without those the duel
        // would be worth 0; with them the PC can only lose outcomes, so a build against itself
        // is worth less than 0 whenever a tie can knock both out, as it can at level 0.
        for (d, g, a) in [(1, 1, 1), (2, 1, 1), (2, 2, 2)] {
            let v = value(&spec(fighter("PC", d, g, a), fighter("NPC", d, g, a)));
            assert!(v < -1e-6 && v > -1.0, "{d}/{g}/{a}: {v}");
        }
        // Swapping the roles cannot help both: v(X, Y) + v(Y, X) ≤ 0.
        let (x, y) = (fighter("X", 2, 0, 1), fighter("Y", 1, 1, 1));
        assert!(value(&spec(x.clone(), y.clone())) + value(&spec(y, x)) <= 1e-9);
    }

    #[test]
    fn it_44_combos_never_hurt_their_owner() {
        // IT-43 lets the active character end its chain before moving, so knowing combos only
        // adds choices: the value to their owner cannot drop.
        let mut combo = fighter("Combo", 2, 2, 1);
        combo.combos = vec![
            Combo {
                from: mv("A-H"),
                followups: vec![mv("G-L")],
            },
            Combo {
                from: mv("G-L"),
                followups: vec![mv("D-M")],
            },
        ];
        let plain = fighter("Combo", 2, 2, 1);
        let other = fighter("Other", 2, 1, 2);
        let (with, without) = (
            value(&spec(combo.clone(), other.clone())),
            value(&spec(plain.clone(), other.clone())),
        );
        assert!(with >= without - 1e-9, "{with} < {without}");
        let (with, without) = (
            value(&spec(other.clone(), combo)),
            value(&spec(other, plain)),
        );
        assert!(with <= without + 1e-9, "{with} > {without}");
    }

    #[test]
    fn strategies_are_distributions_and_sizes_are_bounded() {
        let s = solve_duel(
            &spec(fighter("Ada", 1, 2, 2), fighter("Bruiser", 2, 2, 1)),
            &mut |_| {},
        )
        .unwrap();
        let sums = |w: &[Weighted<Stance>]| w.iter().map(|x| x.probability).sum::<f64>();
        assert!(
            (sums(&s.stances_first) - 1.0).abs() < 1e-9
                && (sums(&s.stances_second) - 1.0).abs() < 1e-9
        );
        assert!((-1.0..=1.0).contains(&s.value));
        let big = spec(fighter("Big", 15, 15, 15), fighter("B", 15, 15, 15));
        assert!(matches!(
            solve_duel(&big, &mut |_| {}),
            Err(DuelError::TooLarge { .. })
        ));
        let huge = spec(fighter("Huge", 16, 1, 1), fighter("B", 1, 1, 1));
        assert!(matches!(
            solve_duel(&huge, &mut |_| {}),
            Err(DuelError::TooMuchEnergy { .. })
        ));
        let empty = spec(fighter("Ada", 1, 1, 1), fighter("B", 0, 0, 0));
        assert!(matches!(
            solve_duel(&empty, &mut |_| {}),
            Err(DuelError::NoEnergy(_))
        ));
    }
}
