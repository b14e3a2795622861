//! A whole Iron Triangle duel between two level-0 characters, solved by backward induction
//! over conflict states.
//!
//! The first character is a PC (the players' side), the second the GM's NPC, in a lesser
//! conflict with no one else (IT-22, IT-23). The PC is the first active character (IT-25,
//! D-13). Every turn is the two-stage game of [`crate::analysis::turn_game`] (stances revealed, then
//! moves), but each entry is now what the rest of the duel is worth after that turn, not what
//! the turn itself costs.
//!
//! ## Payoff
//!
//! +1 when the PC's side wins the conflict, −1 when the GM's side does (IT-27: a side wins when
//! the other is all out, by 0 energy in every type, IT-52, or by surrendering, IT-36). The value
//! is therefore P(PC wins) − P(NPC wins) under optimal play. When both go out in the same turn
//! (a tie can cost both their last energy) the GM's side wins (IT-27), so the duel is not
//! symmetric even between identical characters: ties favour the NPC.
//!
//! ## States and transitions
//!
//! Every transition is played on a real [`crate::Table`] through the ruleset's own
//! commands: stances, moves, any windows passed, the loss split, the next active character,
//! the opponent pick and the chain, until the next turn waits for stances or the conflict ends
//! (the engine's outcome says who won). A state is what the next turn depends on: both
//! characters' current energy per type, both disadvantage piles, and the live chain with the
//! active character (without a chain, which of two characters is active changes nothing: the
//! turn is symmetric, IT-32). Turn counts (D-8) only restrict picks among several PCs.
//!
//! ## Why one sweep is exact
//!
//! Every resolved turn lowers the two characters' total energy by at least 1: a win costs the
//! loser at least the winner's base (2 to 4), a tie costs each side the other's base (IT-49,
//! IT-50), floored only at the energy held (D-35), and a character at 0 in every type is out.
//! A surrender ends the duel. So the states form an acyclic graph ordered by total energy and
//! value iteration converges in one sweep in that order, which is backward induction: each
//! state's stage game is solved once its successors' values are known. The solver checks the
//! claim on every transition and stops with [`DuelError::NoProgress`] if it ever fails.
//!
//! ## Choices outside the stance and move games
//!
//! * **Loss split** (IT-51, D-35): the loser's controller splits the free part of a loss over
//!   the types; the solver lets the loser pick the split that is best for itself (the highest
//!   continuation value for the PC, the lowest for the NPC). Every split the engine accepts is
//!   tried, not just a few typical ones. After a tie both sides split, one after the other in
//!   the engine's order, each seeing the earlier split.
//! * **Next active character after a tie** (IT-26): the GM picks, and is scored as the NPC's
//!   controller (the pick that is worst for the PC). In a duel the pick is moot: a tie clears
//!   both piles and the chain, and the turn is symmetric.
//! * **The chain** (IT-42, IT-43): after a win the winner is active again against the loser and
//!   its winning card is locked in the chain. Without combos the chain only takes that card
//!   away from its owner, so the active character ends it (IT-43 allows it before any move) by
//!   default; [`ChainPolicy::Choose`] also solves the kept chain and lets the active character
//!   take the better one (a test checks both give the same value).
//! * **Surrender** (IT-35, IT-36) is worth −1 to the surrenderer, the worst any play can give, so
//!   it is only played when the engine leaves nothing else (every known move face up).
//!
//! ## Size
//!
//! A state's stage game has (1 + ΣE₁)(1 + ΣE₂) stance pairs, each a move game of up to 3 × 3
//! engine-resolved turns and every loss split of each, so energies must stay small: at most
//! [`MAX_PER_TYPE`] per type and [`MAX_TOTAL`] in all per character; larger duels are refused.

use std::collections::{HashMap, HashSet};

use crate::character::PerAction;
use crate::conflict::{
    ConflictCommand, MoveChoice, Phase, Picker, Side, Stance, Step, legal, losses,
};
use crate::{Move, Table};
use clash_core::Seat;
use serde::Serialize;

use crate::analysis::turn_game::{A_SEAT, B_SEAT, TurnError, TurnPosition, TurnSpec, run};
use clash_analysis::matrix_game::{self, Solution};

/// The largest current energy of one type a duel may start with.
pub const MAX_PER_TYPE: u32 = 3;
/// The largest total current energy one character may start a duel with.
pub const MAX_TOTAL: u32 = 6;

/// What the active character does with a live chain.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ChainPolicy {
    /// End it before stances (never worse without combos: it only locks the owner's card).
    #[default]
    End,
    /// Solve both keeping and ending it; the active character takes the better.
    Choose,
}

/// Why a duel cannot be solved.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DuelError {
    #[error(
        "{name} starts with {total} energy ({per_type} at most in one type): the duel solver takes at most {MAX_PER_TYPE} per type and {MAX_TOTAL} in all, since each state costs (1+ΣE)² stance pairs of engine-resolved move games"
    )]
    TooLarge {
        name: String,
        total: u32,
        per_type: u32,
    },
    #[error(
        "{0} knows combos; a level-0 character has none (IT-9), and the duel solver models only level-0 characters"
    )]
    Combos(String),
    #[error("{0} has no energy and cannot enter a conflict (IT-23)")]
    NoEnergy(String),
    #[error("{0}")]
    Turn(#[from] TurnError),
    #[error("a turn did not lower the total energy ({0} before, {1} after): the duel could loop")]
    NoProgress(u32, u32),
    #[error("the engine waits for something a duel does not have: {0}")]
    Unexpected(String),
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
    pub first: Vec<Weighted<MoveChoice>>,
    pub second: Vec<Weighted<MoveChoice>>,
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

/// What the next turn depends on (see the module notes).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct Key {
    energy: [[u32; 3]; 2],
    piles: [Vec<Move>; 2],
    /// With a live chain: the active side (0 first, 1 second) and the chain's cards.
    chain: Option<(u8, Vec<(u8, Move)>)>,
}

/// Solve the duel between `spec.active` (the PC, active first) and `spec.opponent` (the NPC),
/// from the piles and chain given, reporting progress as states are met and solved.
pub fn solve_duel(
    spec: &TurnSpec,
    policy: ChainPolicy,
    progress: &mut dyn FnMut(Progress),
) -> Result<DuelSolution, DuelError> {
    check(spec)?;
    let position = TurnPosition::new(spec)?;
    let mut solver = Solver {
        names: [spec.active.name.clone(), spec.opponent.name.clone()],
        policy,
        memo: HashMap::new(),
        open: HashSet::new(),
        discovered: 0,
        progress,
    };
    let kept = position.table().clone();
    let chained = kept.conflict.as_ref().is_some_and(|c| c.chain.is_some());
    let mut ended = kept.clone();
    if chained {
        // The PC is active first, so the chain given is its own (IT-43: it may end it).
        run(&mut ended, A_SEAT, ConflictCommand::EndChain {})?;
    }
    let mut stage = solver.root(&ended)?;
    if chained && policy == ChainPolicy::Choose {
        let keep = solver.root(&kept)?;
        if keep.value > stage.value {
            stage = keep;
        }
    }
    Ok(solver.solution(stage))
}

fn check(spec: &TurnSpec) -> Result<(), DuelError> {
    for f in [&spec.active, &spec.opponent] {
        let e = [f.energy.defend, f.energy.grapple, f.energy.attack];
        let (total, per_type) = (e.iter().sum::<u32>(), e.iter().copied().max().unwrap_or(0));
        if total > MAX_TOTAL || per_type > MAX_PER_TYPE {
            return Err(DuelError::TooLarge {
                name: f.name.clone(),
                total,
                per_type,
            });
        }
        if total == 0 {
            return Err(DuelError::NoEnergy(f.name.clone()));
        }
        if !f.combos.is_empty() {
            return Err(DuelError::Combos(f.name.clone()));
        }
    }
    Ok(())
}

/// One state's stage game, kept in full for the first turn's report.
struct Stage {
    value: f64,
    stances: [Vec<Stance>; 2],
    solution: Solution<f64>,
    /// Per stance pair, the move game.
    moves: Vec<Vec<MoveStage>>,
}

/// One move game: both sides' move choices and its solution.
struct MoveStage {
    first: Vec<MoveChoice>,
    second: Vec<MoveChoice>,
    solution: Solution<f64>,
}

struct Solver<'p> {
    names: [String; 2],
    policy: ChainPolicy,
    memo: HashMap<Key, f64>,
    /// States being solved: meeting one again would be a loop.
    open: HashSet<Key>,
    discovered: usize,
    progress: &'p mut dyn FnMut(Progress),
}

impl Solver<'_> {
    fn report(&mut self) {
        let p = Progress {
            discovered: self.discovered,
            solved: self.memo.len(),
        };
        (self.progress)(p);
    }

    fn energy(&self, table: &Table, side: usize) -> [u32; 3] {
        let e = table
            .character(&self.names[side])
            .map(|c| c.energy.current)
            .unwrap_or_default();
        [e.defend, e.grapple, e.attack]
    }

    fn total(&self, table: &Table) -> u32 {
        (0..2)
            .map(|s| self.energy(table, s).iter().sum::<u32>())
            .sum()
    }

    fn key(&self, table: &Table) -> Result<Key, DuelError> {
        let c = table
            .conflict
            .as_ref()
            .ok_or_else(|| DuelError::Unexpected("no conflict".into()))?;
        let id = |side: usize| {
            c.fighter_id(&self.names[side]).ok_or_else(|| {
                DuelError::Unexpected(format!("{} is not in the conflict", self.names[side]))
            })
        };
        let ids = [id(0)?, id(1)?];
        let side_of = |f: u8| u8::from(f != ids[0]);
        let chain = match (&c.chain, &c.turn) {
            (Some(ch), Some(t)) => Some((
                side_of(t.active),
                ch.cards
                    .iter()
                    .map(|card| (side_of(card.owner), card.mv))
                    .collect(),
            )),
            _ => None,
        };
        Ok(Key {
            energy: [self.energy(table, 0), self.energy(table, 1)],
            piles: [c.f(ids[0]).pile.clone(), c.f(ids[1]).pile.clone()],
            chain,
        })
    }

    /// The first state, solved with its stage game kept for the report.
    fn root(&mut self, table: &Table) -> Result<Stage, DuelError> {
        let key = self.key(table)?;
        self.discovered += 1;
        self.open.insert(key.clone());
        self.report();
        let stage = self.stage(table)?;
        self.open.remove(&key);
        self.memo.insert(key, stage.value);
        self.report();
        Ok(stage)
    }

    /// The value of a state waiting for stances, solved once.
    fn state(&mut self, table: &Table) -> Result<f64, DuelError> {
        let key = self.key(table)?;
        if let Some(v) = self.memo.get(&key) {
            return Ok(*v);
        }
        if !self.open.insert(key.clone()) {
            let total = self.total(table);
            return Err(DuelError::NoProgress(total, total));
        }
        self.discovered += 1;
        self.report();
        let value = self.stage(table)?.value;
        self.open.remove(&key);
        self.memo.insert(key, value);
        self.report();
        Ok(value)
    }

    /// The stance game of move games at a state waiting for stances.
    fn stage(&mut self, table: &Table) -> Result<Stage, DuelError> {
        let stances = [stance_options(table, A_SEAT), stance_options(table, B_SEAT)];
        let mut values = Vec::with_capacity(stances[0].len());
        let mut moves = Vec::with_capacity(stances[0].len());
        for sa in &stances[0] {
            let (mut row, mut games) = (Vec::new(), Vec::new());
            for sb in &stances[1] {
                let game = self.move_game(table, *sa, *sb)?;
                row.push(game.solution.value);
                games.push(game);
            }
            values.push(row);
            moves.push(games);
        }
        let solution = matrix_game::solve(&values)?;
        Ok(Stage {
            value: solution.value,
            stances,
            solution,
            moves,
        })
    }

    /// The move game once stances `sa` and `sb` are revealed.
    fn move_game(&mut self, table: &Table, sa: Stance, sb: Stance) -> Result<MoveStage, DuelError> {
        let mut staged = table.clone();
        run(
            &mut staged,
            A_SEAT,
            ConflictCommand::TakeStance {
                character: self.names[0].clone().into(),
                action: sa.action,
                amount: sa.amount,
            },
        )?;
        run(
            &mut staged,
            B_SEAT,
            ConflictCommand::TakeStance {
                character: self.names[1].clone().into(),
                action: sb.action,
                amount: sb.amount,
            },
        )?;
        let (ma, mb) = (move_options(&staged, A_SEAT), move_options(&staged, B_SEAT));
        let before = self.total(table);
        let mut matrix = Vec::with_capacity(ma.len());
        for a in &ma {
            let mut row = Vec::with_capacity(mb.len());
            for b in &mb {
                let mut t = staged.clone();
                run(
                    &mut t,
                    A_SEAT,
                    ConflictCommand::PlayMove {
                        character: self.names[0].clone().into(),
                        choice: *a,
                    },
                )?;
                run(
                    &mut t,
                    B_SEAT,
                    ConflictCommand::PlayMove {
                        character: self.names[1].clone().into(),
                        choice: *b,
                    },
                )?;
                row.push(self.after_moves(&t, before)?);
            }
            matrix.push(row);
        }
        let solution = matrix_game::solve(&matrix)?;
        Ok(MoveStage {
            first: ma,
            second: mb,
            solution,
        })
    }

    /// What the duel is worth from a table after the moves: every choice the engine asks for
    /// until the next turn waits for stances or the conflict ends.
    fn after_moves(&mut self, table: &Table, before: u32) -> Result<f64, DuelError> {
        let c = table
            .conflict
            .as_ref()
            .ok_or_else(|| DuelError::Unexpected("no conflict".into()))?;
        let (seat, options) = match &c.phase {
            Phase::Ended => return Ok(winner_value(c.outcome.as_ref().and_then(|o| o.winner))),
            Phase::PickActive { picker, .. } => {
                let seat = match picker {
                    Picker::Players => A_SEAT,
                    Picker::Seat { seat } => *seat,
                };
                (
                    seat,
                    commands(table, seat, |c| {
                        matches!(c, ConflictCommand::PickActive { .. })
                    }),
                )
            }
            Phase::Turn => {
                let Some(turn) = c.turn.as_ref() else {
                    return Err(DuelError::Unexpected("a turn phase with no turn".into()));
                };
                let active = if c.fighter_id(&self.names[0]) == Some(turn.active) {
                    A_SEAT
                } else {
                    B_SEAT
                };
                match turn.step {
                    Step::Stances => return self.next_state(table, active, before),
                    Step::PickOpponent => (
                        active,
                        commands(table, active, |c| {
                            matches!(c, ConflictCommand::PickOpponent { .. })
                        }),
                    ),
                    Step::AfterReveal | Step::BeforeResolution => {
                        return self.pass_window(table, before);
                    }
                    Step::Settling => self.splits(table)?,
                    Step::Moves => {
                        return Err(DuelError::Unexpected("a move after both moves".into()));
                    }
                }
            }
            other => return Err(DuelError::Unexpected(format!("{other:?}"))),
        };
        self.best_for(seat, table, options, before)
    }

    /// A new turn waits for stances: end a live chain (see [`ChainPolicy`]), or solve the state.
    fn next_state(&mut self, table: &Table, active: Seat, before: u32) -> Result<f64, DuelError> {
        let after = self.total(table);
        if after >= before {
            return Err(DuelError::NoProgress(before, after));
        }
        let chained = table.conflict.as_ref().is_some_and(|c| c.chain.is_some());
        if !chained {
            return self.state(table);
        }
        let mut ended = table.clone();
        run(&mut ended, active, ConflictCommand::EndChain {})?;
        let end = self.state(&ended)?;
        if self.policy == ChainPolicy::End {
            return Ok(end);
        }
        let keep = self.state(table)?;
        Ok(if active == A_SEAT {
            keep.max(end)
        } else {
            keep.min(end)
        })
    }

    /// Nobody has a special to play: pass the open window.
    fn pass_window(&mut self, table: &Table, before: u32) -> Result<f64, DuelError> {
        for seat in [A_SEAT, B_SEAT] {
            if let Some(pass) = commands(table, seat, |c| {
                matches!(c, ConflictCommand::PassWindow { .. })
            })
            .into_iter()
            .next()
            {
                let mut t = table.clone();
                run(&mut t, seat, pass)?;
                return self.after_moves(&t, before);
            }
        }
        Err(DuelError::Unexpected(
            "an open window nobody can pass".into(),
        ))
    }

    /// Every split of the waiting loss the engine accepts, and whose choice it is (IT-51).
    fn splits(&self, table: &Table) -> Result<(Seat, Vec<ConflictCommand>), DuelError> {
        let c = table
            .conflict
            .as_ref()
            .ok_or_else(|| DuelError::Unexpected("no conflict".into()))?;
        let Some((character, splitter, room, amount, gain)) = losses::waiting_split(table, c)
        else {
            return Err(DuelError::Unexpected(
                "settling with nothing to split".into(),
            ));
        };
        if gain {
            return Err(DuelError::Unexpected(
                "a gain to split (no specials in a level-0 duel)".into(),
            ));
        }
        let mut out = Vec::new();
        for defend in 0..=room.defend.min(amount) {
            for grapple in 0..=room.grapple.min(amount - defend) {
                let attack = amount - defend - grapple;
                if attack <= room.attack {
                    out.push(ConflictCommand::SplitLoss {
                        character: character.clone(),
                        split: PerAction {
                            defend,
                            grapple,
                            attack,
                        },
                    });
                }
            }
        }
        Ok((splitter, out))
    }

    /// The value of the option best for the seat choosing: the PC's player maximises the PC's
    /// value, the GM minimises it. Options the engine refuses are skipped.
    fn best_for(
        &mut self,
        seat: Seat,
        table: &Table,
        options: Vec<ConflictCommand>,
        before: u32,
    ) -> Result<f64, DuelError> {
        let mut best: Option<f64> = None;
        for option in options {
            let mut t = table.clone();
            if run(&mut t, seat, option).is_err() {
                continue;
            }
            let v = self.after_moves(&t, before)?;
            best = Some(match best {
                None => v,
                Some(b) if seat == A_SEAT => b.max(v),
                Some(b) => b.min(v),
            });
        }
        best.ok_or_else(|| DuelError::Unexpected(format!("{seat:?} has no accepted option")))
    }

    fn solution(&self, stage: Stage) -> DuelSolution {
        let mut moves = Vec::new();
        for (i, pi) in stage.solution.row.iter().enumerate() {
            for (j, pj) in stage.solution.col.iter().enumerate() {
                if *pi > 0.0 && *pj > 0.0 {
                    let MoveStage {
                        first: ma,
                        second: mb,
                        solution: s,
                    } = &stage.moves[i][j];
                    moves.push(FirstMoves {
                        stance_first: stage.stances[0][i],
                        stance_second: stage.stances[1][j],
                        value: s.value,
                        first: weighted(ma, &s.row),
                        second: weighted(mb, &s.col),
                    });
                }
            }
        }
        let value = stage.value.clamp(-1.0, 1.0);
        DuelSolution {
            first: self.names[0].clone(),
            second: self.names[1].clone(),
            value,
            first_wins: (1.0 + value) / 2.0,
            states: self.memo.len(),
            stances_first: weighted(&stage.stances[0], &stage.solution.row),
            stances_second: weighted(&stage.stances[1], &stage.solution.col),
            moves,
        }
    }
}

fn winner_value(winner: Option<Side>) -> f64 {
    match winner {
        Some(Side::Players) => 1.0,
        Some(Side::Gm) => -1.0,
        None => 0.0,
    }
}

/// The seat's legal commands (as the engine lists them) that pass `keep`.
fn commands(
    table: &Table,
    seat: Seat,
    keep: impl Fn(&ConflictCommand) -> bool,
) -> Vec<ConflictCommand> {
    legal::play_commands(table, seat)
        .into_iter()
        .filter(|c| keep(c))
        .collect()
}

/// The stances the engine lists for the seat's fighter (IT-33).
fn stance_options(table: &Table, seat: Seat) -> Vec<Stance> {
    commands(table, seat, |c| {
        matches!(c, ConflictCommand::TakeStance { .. })
    })
    .into_iter()
    .filter_map(|c| match c {
        ConflictCommand::TakeStance { action, amount, .. } => Some(Stance::new(action, amount)),
        _ => None,
    })
    .collect()
}

/// The seat's available moves; Surrender only when nothing else is available (IT-35), since a
/// surrender loses the duel, the worst any move can do.
fn move_options(table: &Table, seat: Seat) -> Vec<MoveChoice> {
    let listed: Vec<MoveChoice> = commands(table, seat, |c| {
        matches!(c, ConflictCommand::PlayMove { .. })
    })
    .into_iter()
    .filter_map(|c| match c {
        ConflictCommand::PlayMove { choice, .. } => Some(choice),
        _ => None,
    })
    .collect();
    let plays: Vec<MoveChoice> = listed
        .iter()
        .copied()
        .filter(|m| *m != MoveChoice::Surrender)
        .collect();
    if plays.is_empty() { listed } else { plays }
}

fn weighted<T: Clone>(options: &[T], probabilities: &[f64]) -> Vec<Weighted<T>> {
    options
        .iter()
        .zip(probabilities)
        .filter(|(_, p)| **p > 1e-9)
        .map(|(o, p)| Weighted {
            option: o.clone(),
            probability: *p,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::turn_game::FighterSpec;

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

    fn duel(a: FighterSpec, b: FighterSpec) -> DuelSolution {
        solve_duel(
            &TurnSpec {
                active: a,
                opponent: b,
                chain: vec![],
            },
            ChainPolicy::End,
            &mut |_| {},
        )
        .unwrap()
    }

    fn mv(s: &str) -> Move {
        s.parse().unwrap()
    }

    fn is_distribution<T>(mix: &[Weighted<T>]) -> bool {
        mix.iter()
            .all(|w| (0.0..=1.0 + 1e-9).contains(&w.probability))
            && (mix.iter().map(|w| w.probability).sum::<f64>() - 1.0).abs() < 1e-9
    }

    #[test]
    fn it_27_one_energy_each_is_worth_minus_a_third() {
        // Any win takes the loser's last energy; a tie (same move) takes both, and the GM's
        // side wins a double knockout (IT-27). The three starting moves beat each other in a
        // cycle, so each row of the move game is one win and two losses: uniform play, −1/3.
        let s = duel(fighter("Ada", 1, 0, 0), fighter("Bruiser", 0, 0, 1));
        assert!((s.value + 1.0 / 3.0).abs() < 1e-9, "{}", s.value);
        assert!((s.first_wins - 1.0 / 3.0).abs() < 1e-9);
        assert_eq!(s.states, 1);
        for m in &s.moves {
            assert_eq!(m.first.len(), 3);
            assert!(
                m.first
                    .iter()
                    .chain(&m.second)
                    .all(|w| (w.probability - 1.0 / 3.0).abs() < 1e-9)
            );
        }
    }

    #[test]
    fn it_35_a_character_with_every_move_face_up_has_lost() {
        // Its only known move is in its pile: it must surrender (IT-35), and the other side wins.
        let mut cornered = fighter("Ada", 2, 2, 2);
        cornered.moves = Some(vec![mv("D-M")]);
        cornered.pile = vec![mv("D-M")];
        let s = solve_duel(
            &TurnSpec {
                active: cornered.clone(),
                opponent: fighter("Bruiser", 1, 0, 0),
                chain: vec![],
            },
            ChainPolicy::End,
            &mut |_| {},
        )
        .unwrap();
        assert_eq!(s.value, -1.0);
        assert!(
            s.moves
                .iter()
                .all(|m| m.first.len() == 1 && m.first[0].option == MoveChoice::Surrender)
        );
        cornered.name = "Bruiser".into();
        let s = solve_duel(
            &TurnSpec {
                active: fighter("Ada", 1, 0, 0),
                opponent: cornered,
                chain: vec![],
            },
            ChainPolicy::End,
            &mut |_| {},
        )
        .unwrap();
        assert_eq!(s.value, 1.0);
    }

    #[test]
    fn it_27_identical_characters_favour_the_gm() {
        // Without IT-27's double-knockout rule the duel would be symmetric and worth 0; that
        // rule only turns some of the PC's outcomes from 0 to −1, so the value is at most 0.
        let s = duel(fighter("A", 1, 1, 0), fighter("B", 1, 1, 0));
        assert!(s.value <= 1e-9 && s.value >= -1.0, "{}", s.value);
        // For the same reason, swapping who is the PC cannot help both: v(X, Y) + v(Y, X) ≤ 0.
        let (x, y) = (fighter("X", 2, 0, 1), fighter("Y", 1, 1, 0));
        let sum = duel(x.clone(), y.clone()).value + duel(y, x).value;
        assert!(sum <= 1e-9, "{sum}");
    }

    #[test]
    fn more_energy_of_every_type_is_worth_at_least_zero() {
        let s = duel(fighter("Strong", 2, 1, 1), fighter("Weak", 1, 0, 0));
        assert!(s.value >= 0.0, "{}", s.value);
        let s = duel(fighter("Strong", 1, 1, 1), fighter("Weak", 1, 0, 0));
        assert!(s.value >= 0.0, "{}", s.value);
    }

    #[test]
    fn ending_the_chain_loses_nothing_without_combos() {
        // IT-43: solving both keeping and ending every chain gives the same value as always
        // ending it.
        let spec = TurnSpec {
            active: fighter("A", 1, 1, 1),
            opponent: fighter("B", 1, 1, 0),
            chain: vec![],
        };
        let end = solve_duel(&spec, ChainPolicy::End, &mut |_| {}).unwrap();
        let choose = solve_duel(&spec, ChainPolicy::Choose, &mut |_| {}).unwrap();
        assert!(
            (end.value - choose.value).abs() < 1e-9,
            "{} vs {}",
            end.value,
            choose.value
        );
        assert!(choose.states > end.states);
        // Starting with a live chain (Ada's D-M, won last turn) is solved by ending it.
        let chained = TurnSpec {
            chain: vec![mv("D-M").into()],
            ..spec.clone()
        };
        assert!(
            (solve_duel(&chained, ChainPolicy::End, &mut |_| {})
                .unwrap()
                .value
                - end.value)
                .abs()
                < 1e-9
        );
    }

    #[test]
    fn strategies_are_distributions_values_in_range_and_solving_is_deterministic() {
        let spec = TurnSpec {
            active: fighter("Ada", 1, 1, 1),
            opponent: fighter("Bruiser", 2, 0, 1),
            chain: vec![],
        };
        let mut seen = Vec::new();
        let s = solve_duel(&spec, ChainPolicy::End, &mut |p| seen.push(p)).unwrap();
        assert!((-1.0..=1.0).contains(&s.value));
        assert!(is_distribution(&s.stances_first) && is_distribution(&s.stances_second));
        assert!(!s.moves.is_empty());
        for m in &s.moves {
            assert!(is_distribution(&m.first) && is_distribution(&m.second));
            assert!((-1.0 - 1e-9..=1.0 + 1e-9).contains(&m.value));
        }
        // Progress ends with every state met solved, and never counts backwards.
        let last = seen.last().copied().unwrap();
        assert_eq!((last.discovered, last.solved), (s.states, s.states));
        assert!(
            seen.windows(2)
                .all(|w| w[1].solved >= w[0].solved && w[1].discovered >= w[0].discovered)
        );
        assert_eq!(solve_duel(&spec, ChainPolicy::End, &mut |_| {}).unwrap(), s);
    }

    #[test]
    fn large_duels_combos_and_empty_characters_are_refused() {
        let big = TurnSpec {
            active: fighter("Ada", 3, 2, 5),
            opponent: fighter("B", 1, 1, 1),
            chain: vec![],
        };
        assert!(matches!(
            solve_duel(&big, ChainPolicy::End, &mut |_| {}),
            Err(DuelError::TooLarge {
                total: 10,
                per_type: 5,
                ..
            })
        ));
        let mut combo = fighter("Ada", 1, 1, 1);
        combo.combos = vec![crate::character::Combo {
            from: mv("D-M"),
            followups: vec![mv("G-L")],
        }];
        let spec = TurnSpec {
            active: combo,
            opponent: fighter("B", 1, 1, 1),
            chain: vec![],
        };
        assert!(matches!(
            solve_duel(&spec, ChainPolicy::End, &mut |_| {}),
            Err(DuelError::Combos(_))
        ));
        let spec = TurnSpec {
            active: fighter("Ada", 1, 1, 1),
            opponent: fighter("B", 0, 0, 0),
            chain: vec![],
        };
        assert!(matches!(
            solve_duel(&spec, ChainPolicy::End, &mut |_| {}),
            Err(DuelError::NoEnergy(_))
        ));
    }
}
