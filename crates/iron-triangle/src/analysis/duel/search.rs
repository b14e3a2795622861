//! The duel's search: memoised backward induction over conflict states, each turn resolved by
//! [`crate::analysis::resolution`] and each stage game solved in `f64` (see the parent module's notes).

use crate::character::Combo;
use crate::conflict::{Stance, disadvantage};
use crate::{Action, Move};
use rustc_hash::FxHashMap;

use super::table::Graph;
use super::{DuelError, DuelSolution, FirstMoves, Progress, Weighted};
use crate::analysis::resolution::{Board, Resolved};
use crate::analysis::turn_game::{FighterSpec, TurnSpec};
use clash_analysis::matrix_game::{self, Solution};

/// The most energy states (ways both characters' energies can stand) a duel may have: two
/// level-0 characters have at most 36 × 36 = 1,296... far fewer than this; 10 energy each gives
/// at most about 80 × 80 = 6,400. The bound keeps memory and time finite for any input.
pub const MAX_STATES: u64 = 250_000;

/// Most distinct piles or chains the search numbers (a state stores each in 16 bits).
const MAX_INTERNED: usize = u16::MAX as usize;

pub(super) type Energy = [u8; 3];

/// What the rest of the duel depends on (side 0 is the PC, side 1 the NPC).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct State {
    pub(super) energy: [Energy; 2],
    /// Interned disadvantage piles (0 = empty).
    pub(super) piles: [u16; 2],
    /// The active side.
    pub(super) active: u8,
    /// The active side's interned live chain (0 = none or nothing to continue).
    pub(super) chain: u16,
}

impl State {
    pub(super) fn key(&self) -> u128 {
        let mut k = 0u128;
        for side in self.energy {
            for x in side {
                k = k << 4 | u128::from(x);
            }
        }
        k = k << 16 | u128::from(self.piles[0]);
        k = k << 16 | u128::from(self.piles[1]);
        k = k << 1 | u128::from(self.active);
        k << 16 | u128::from(self.chain)
    }
}

pub(super) fn total(e: Energy) -> u32 {
    e.iter().map(|x| u32::from(*x)).sum()
}

/// A move choice of one side in one state.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Choice {
    mv: Move,
    /// Played to continue the live chain (IT-44).
    combo: bool,
    /// The live chain is ended first (IT-43), so the move does not continue it.
    ends_chain: bool,
}

impl Choice {
    fn label(&self) -> String {
        if self.ends_chain {
            format!("{} (ending the chain first)", self.mv)
        } else {
            self.mv.to_string()
        }
    }
}

/// Numbered move lists (piles, chains), so that a state is a few integers.
#[derive(Default)]
struct Interner {
    lists: Vec<Vec<Move>>,
    ids: FxHashMap<Vec<Move>, u16>,
}

impl Interner {
    fn new() -> Interner {
        let mut i = Interner::default();
        i.lists.push(Vec::new());
        i.ids.insert(Vec::new(), 0);
        i
    }

    fn id(&mut self, list: Vec<Move>) -> Result<u16, DuelError> {
        if let Some(id) = self.ids.get(&list) {
            return Ok(*id);
        }
        if self.lists.len() >= MAX_INTERNED {
            return Err(DuelError::TooLarge {
                states: MAX_INTERNED as u64,
                first: 0,
                second: 0,
            });
        }
        let id = self.lists.len() as u16;
        self.lists.push(list.clone());
        self.ids.insert(list, id);
        Ok(id)
    }

    fn get(&self, id: u16) -> &[Move] {
        &self.lists[usize::from(id)]
    }
}

/// Where one entry of a stage game leads: `side` keeps `keep` of its energy in `next`, placed
/// as it likes best (IT-51), then `leaf` decides the state after the turn.
#[derive(Debug, Clone, Copy)]
pub(super) struct Outcome {
    pub(super) next: State,
    pub(super) side: usize,
    pub(super) keep: u32,
    pub(super) leaf: Leaf,
}

/// What a loss split leads to once the splitter has placed its loss.
#[derive(Debug, Clone, Copy)]
pub(super) enum Leaf {
    /// The next turn's state.
    State,
    /// After a tie: the other side splits next, then the GM picks the next active character.
    Then { side: usize, keep: u32 },
    /// After both of a tie's splits: the GM picks the next active character (IT-26).
    GmPicks,
}

impl Leaf {
    pub(super) fn code(self) -> u32 {
        match self {
            Leaf::State => 0,
            Leaf::GmPicks => 1,
            Leaf::Then { side, keep } => 2 + side as u32 + 2 * keep,
        }
    }
}

struct Fighter {
    known: Vec<Move>,
    combos: Vec<Combo>,
}

impl Fighter {
    fn followups(&self, from: Move) -> &[Move] {
        self.combos
            .iter()
            .find(|c| c.from == from)
            .map_or(&[], |c| &c.followups)
    }
}

/// One state's stage game kept in full, for the first turn's report.
struct Stage {
    value: f64,
    stances: [Vec<Stance>; 2],
    choices: [Vec<Choice>; 2],
    solution: Solution<f64>,
    /// Per stance pair, the move game's solution.
    moves: Vec<Vec<Solution<f64>>>,
    /// Per stance pair, the move game's matrix (kept with the solutions).
    matrices: Vec<Vec<Vec<Vec<f64>>>>,
}

pub(super) struct Search<'p> {
    names: [String; 2],
    fighters: [Fighter; 2],
    piles: Interner,
    chains: Interner,
    values: FxHashMap<u128, f64>,
    /// States in the order they were solved: every state after its successors.
    order: Vec<State>,
    splits: FxHashMap<(u128, u32), f64>,
    discovered: usize,
    progress: Box<dyn FnMut(Progress) + 'p>,
    /// Each solved state's successors, kept when many duels share the search (see
    /// [`super::table`]) so that each can count the states it alone would have solved.
    graph: Option<Graph>,
}

pub(super) fn solve(
    spec: &TurnSpec,
    progress: &mut dyn FnMut(Progress),
) -> Result<DuelSolution, DuelError> {
    solve_with(spec, progress, false).map(|(s, _)| s)
}

/// Every state's stage game, for peers to solve the same games: per state in solving order
/// (successors first, the start last), the move game matrices of each stance pair (payoffs to
/// the PC: the rest of the duel's value after the turn).
pub type StageGames = Vec<Vec<Vec<Vec<f64>>>>;

pub(super) fn solve_with(
    spec: &TurnSpec,
    progress: &mut dyn FnMut(Progress),
    export: bool,
) -> Result<(DuelSolution, Vec<StageGames>), DuelError> {
    let mut search = Search::new(spec, Box::new(progress), None);
    let start = search.start(spec)?;
    let value = search.value(start)?;
    let stage = search.stage(start, true)?;
    debug_assert!((stage.value - value).abs() < 1e-9);
    let mut stages = Vec::new();
    if export {
        for s in search.order.clone() {
            stages.push(search.stage(s, true)?.matrices);
        }
    }
    Ok((search.solution(stage), stages))
}

fn fighter(f: &FighterSpec) -> Fighter {
    Fighter {
        known: f
            .moves
            .clone()
            .unwrap_or_else(|| crate::character::STARTING_MOVES.to_vec()),
        combos: f.combos.clone(),
    }
}

impl<'p> Search<'p> {
    fn new(
        spec: &TurnSpec,
        progress: Box<dyn FnMut(Progress) + 'p>,
        graph: Option<Graph>,
    ) -> Search<'p> {
        Search {
            names: [spec.active.name.clone(), spec.opponent.name.clone()],
            fighters: [fighter(&spec.active), fighter(&spec.opponent)],
            piles: Interner::new(),
            chains: Interner::new(),
            values: FxHashMap::default(),
            order: Vec::new(),
            splits: FxHashMap::default(),
            discovered: 0,
            progress,
            graph,
        }
    }
}

impl Search<'static> {
    /// A search shared by many duels between characters who know the moves and combos of
    /// `spec`'s two, keeping its graph (see [`super::table`]).
    pub(super) fn shared(spec: &TurnSpec) -> Search<'static> {
        Search::new(spec, Box::new(|_| {}), Some(Graph::default()))
    }
}

impl Search<'_> {
    /// Whether `spec`'s characters know the moves and combos this search was made for (a state's
    /// value depends on nothing else of theirs).
    pub(super) fn fits(&self, spec: &TurnSpec) -> bool {
        [&spec.active, &spec.opponent]
            .iter()
            .zip(&self.fighters)
            .all(|(f, mine)| {
                let theirs = fighter(f);
                theirs.known == mine.known && theirs.combos == mine.combos
            })
    }

    /// The duel's first state: `spec`'s energies and piles, the PC active first (IT-25, D-13)
    /// with the chain given, its own.
    pub(super) fn start(&mut self, spec: &TurnSpec) -> Result<State, DuelError> {
        let energy =
            |f: &FighterSpec| [f.energy.defend, f.energy.grapple, f.energy.attack].map(|x| x as u8);
        let piles = [
            self.piles.id(spec.active.pile.clone())?,
            self.piles.id(spec.opponent.pile.clone())?,
        ];
        let chain = self.chain_id(0, spec.chain.iter().map(|c| c.mv()).collect())?;
        Ok(State {
            energy: [energy(&spec.active), energy(&spec.opponent)],
            piles,
            active: 0,
            chain,
        })
    }

    /// The duel from `start`, solved on this search's memo; `states` counts the states solved
    /// from `start` alone (what a search of its own would hold).
    pub(super) fn solve_shared(
        &mut self,
        spec: &TurnSpec,
        start: State,
    ) -> Result<DuelSolution, DuelError> {
        self.names = [spec.active.name.clone(), spec.opponent.name.clone()];
        self.value(start)?;
        let stage = self.stage(start, true)?;
        let mut solution = self.solution(stage);
        if let Some(graph) = &mut self.graph {
            solution.states = graph.reachable(start).max(1);
        }
        Ok(solution)
    }
}

/// Stances a fighter may take: none, or 1 to its current energy of a type (IT-33).
fn stance_options(e: Energy) -> Vec<Stance> {
    let mut out = vec![Stance::NONE];
    for (action, amount) in Action::ALL.into_iter().zip(e) {
        out.extend((1..=u32::from(amount)).map(|a| Stance::new(Some(action), a)));
    }
    out
}

/// The matched amount of a stance for a move (IT-34), as an index.
fn matched(s: Stance, mv: Move) -> usize {
    s.matched_amount(mv) as usize
}

/// The value of a move game (`f64`): a saddle point or a 2×2 game directly, else the simplex.
fn game_value(m: &[Vec<f64>]) -> Result<f64, DuelError> {
    let cols = m.first().map_or(0, Vec::len);
    let maximin = m
        .iter()
        .map(|r| r.iter().copied().fold(f64::INFINITY, f64::min))
        .fold(f64::NEG_INFINITY, f64::max);
    let minimax = (0..cols)
        .map(|j| m.iter().map(|r| r[j]).fold(f64::NEG_INFINITY, f64::max))
        .fold(f64::INFINITY, f64::min);
    if maximin >= minimax - 1e-12 {
        return Ok(maximin);
    }
    if let [[a, b], [c, d]] = [
        [m[0][0], m[0].get(1).copied().unwrap_or(0.0)],
        [
            m.get(1).map_or(0.0, |r| r[0]),
            m.get(1).and_then(|r| r.get(1)).copied().unwrap_or(0.0),
        ],
    ] && m.len() == 2
        && cols == 2
    {
        // No saddle point: both mix, and the value is (ad − bc) / (a + d − b − c).
        return Ok((a * d - b * c) / (a + d - b - c));
    }
    Ok(matrix_game::solve(m)?.value)
}

impl Search<'_> {
    fn report(&mut self) {
        let p = Progress {
            discovered: self.discovered,
            solved: self.values.len(),
        };
        (self.progress)(p);
    }

    /// The chain `cards` of `side` as a state stores it: dropped when `side` knows no combo from
    /// its last card (it would only lock cards the owner may free, IT-43), and after a third
    /// win in one chain (IT-46, D-7: no teammate to pass to).
    fn chain_id(&mut self, side: usize, cards: Vec<Move>) -> Result<u16, DuelError> {
        let live = cards
            .last()
            .is_some_and(|last| !self.fighters[side].followups(*last).is_empty());
        if !live || cards.len() >= crate::conflict::combo::MAX_RUN as usize {
            return Ok(0);
        }
        self.chains.id(cards)
    }

    /// The duel's value to the PC from `s`.
    fn value(&mut self, s: State) -> Result<f64, DuelError> {
        let (a, b) = (total(s.energy[0]), total(s.energy[1]));
        // IT-27, IT-52: a side at 0 in every type is out; both out: the GM's side wins.
        if a == 0 {
            return Ok(-1.0);
        }
        if b == 0 {
            return Ok(1.0);
        }
        let key = s.key();
        if let Some(v) = self.values.get(&key) {
            return Ok(*v);
        }
        self.discovered += 1;
        if self.discovered.is_multiple_of(256) {
            self.report();
        }
        let mut outcomes = Vec::new();
        let v = self.stage_into(s, false, &mut outcomes)?.value;
        self.values.insert(key, v);
        self.order.push(s);
        if let Some(graph) = &mut self.graph {
            graph.add(s, &outcomes);
        }
        Ok(v)
    }

    /// A side's move choices (IT-35; with its live chain, IT-43 and IT-44).
    fn choices(&self, s: State, side: usize) -> Vec<Choice> {
        let pile = self.piles.get(s.piles[side]);
        let f = &self.fighters[side];
        let available = f.known.iter().copied().filter(|m| !pile.contains(m));
        let chain = if usize::from(s.active) == side {
            self.chains.get(s.chain)
        } else {
            &[]
        };
        let Some(last) = chain.last() else {
            return available
                .map(|mv| Choice {
                    mv,
                    combo: false,
                    ends_chain: false,
                })
                .collect();
        };
        let followups = f.followups(*last);
        let mut out = Vec::new();
        for mv in available {
            if chain.contains(&mv) {
                out.push(Choice {
                    mv,
                    combo: false,
                    ends_chain: true,
                });
            } else if followups.contains(&mv) {
                out.push(Choice {
                    mv,
                    combo: true,
                    ends_chain: false,
                });
                out.push(Choice {
                    mv,
                    combo: false,
                    ends_chain: true,
                });
            } else {
                out.push(Choice {
                    mv,
                    combo: false,
                    ends_chain: false,
                });
            }
        }
        out
    }

    /// The stance game of move games at `s`; with `keep`, every game's strategies too.
    fn stage(&mut self, s: State, keep: bool) -> Result<Stage, DuelError> {
        self.stage_into(s, keep, &mut Vec::new())
    }

    /// [`Search::stage`], also listing where each distinct entry leads in `outcomes` when the
    /// search keeps its graph.
    fn stage_into(
        &mut self,
        s: State,
        keep: bool,
        outcomes: &mut Vec<Outcome>,
    ) -> Result<Stage, DuelError> {
        let stances = [stance_options(s.energy[0]), stance_options(s.energy[1])];
        let choices = [self.choices(s, 0), self.choices(s, 1)];
        let (k0, k1) = (choices[0].len(), choices[1].len());
        if k0 == 0 || k1 == 0 {
            // IT-35: nothing available, so Surrender, which loses (both: the GM's side wins).
            let value = if k0 == 0 { -1.0 } else { 1.0 };
            let solution = Solution {
                value,
                row: vec![1.0],
                col: vec![1.0],
            };
            return Ok(Stage {
                value,
                stances: [vec![Stance::NONE], vec![Stance::NONE]],
                choices,
                solution: solution.clone(),
                moves: vec![vec![solution]],
                matrices: vec![vec![vec![vec![value]]]],
            });
        }
        // Entries depend on the stances only through the matched amounts (IT-34).
        const AMOUNTS: usize = 16;
        let mut cache = vec![f64::NAN; k0 * k1 * AMOUNTS * AMOUNTS];
        let mut values = Vec::with_capacity(stances[0].len());
        let mut moves = Vec::new();
        let mut matrices = Vec::new();
        let mut m = vec![vec![0.0; k1]; k0];
        for s0 in &stances[0] {
            let mut row = Vec::with_capacity(stances[1].len());
            let mut kept = Vec::new();
            let mut kept_matrices = Vec::new();
            for s1 in &stances[1] {
                for (i, c0) in choices[0].iter().enumerate() {
                    for (j, c1) in choices[1].iter().enumerate() {
                        let (a0, a1) = (matched(*s0, c0.mv), matched(*s1, c1.mv));
                        let slot = ((i * k1 + j) * AMOUNTS + a0) * AMOUNTS + a1;
                        if cache[slot].is_nan() {
                            let o = self.outcome(s, [*c0, *c1], [a0 as u32, a1 as u32])?;
                            cache[slot] = self.split(o.next, o.side, o.keep, o.leaf)?;
                            if self.graph.is_some() {
                                outcomes.push(o);
                            }
                        }
                        m[i][j] = cache[slot];
                    }
                }
                if keep {
                    let solution = matrix_game::solve(&m)?;
                    row.push(solution.value);
                    kept.push(solution);
                    kept_matrices.push(m.clone());
                } else {
                    row.push(game_value(&m)?);
                }
            }
            values.push(row);
            moves.push(kept);
            matrices.push(kept_matrices);
        }
        let solution = matrix_game::solve(&values)?;
        Ok(Stage {
            value: solution.value,
            stances,
            choices,
            solution,
            moves,
            matrices,
        })
    }

    /// Where the turn leads when the sides play `choices` with `amounts` of their stances
    /// matched: the loss split that decides the next state (its value is the entry).
    fn outcome(
        &mut self,
        s: State,
        choices: [Choice; 2],
        amounts: [u32; 2],
    ) -> Result<Outcome, DuelError> {
        let act = usize::from(s.active);
        // Resolution slot 0 is the active character.
        let sides = [act, 1 - act];
        let stance = |side: usize| Stance::new(Some(choices[side].mv.action), amounts[side]);
        let chain: Vec<Move> = self.chains.get(s.chain).to_vec();
        let piles = [
            self.piles.get(s.piles[sides[0]]).to_vec(),
            self.piles.get(s.piles[sides[1]]).to_vec(),
        ];
        let board = Board {
            piles: [&piles[0], &piles[1]],
            chain: if choices[act].combo { &chain } else { &[] },
            combos: &self.fighters[act].combos,
            // The duel solver plays the rules as written; level-0 fighters know no combos
            // and are never disadvantaged (TV-14), so these bonuses never arise there.
            rules: crate::variant::Rules::default(),
        };
        let moves = [choices[sides[0]].mv, choices[sides[1]].mv];
        match board.resolve([stance(sides[0]), stance(sides[1])], moves) {
            Resolved::Win {
                winner,
                loss,
                comboed,
            } => {
                let (w, l) = (sides[winner], sides[1 - winner]);
                let (won_with, lost_with) = (moves[winner], moves[1 - winner]);
                let mut next = s;
                // IT-40: the loser's pile grows or restarts; the winner's clears.
                let pile = disadvantage::after_turn(&piles[1 - winner], lost_with, true);
                next.piles[l] = self.piles.id(pile)?;
                next.piles[w] = 0;
                // IT-42, IT-45: a combo adds its card, any other win starts a new chain.
                let cards = if comboed {
                    chain.iter().copied().chain([won_with]).collect()
                } else {
                    vec![won_with]
                };
                next.chain = self.chain_id(w, cards)?;
                next.active = w as u8;
                // IT-51: the loser's matched stance comes off its type first (floored, D-35).
                if let Some(t) = loss.fixed_type {
                    let e = &mut next.energy[l][t.index()];
                    *e -= loss.fixed.min(u32::from(*e)) as u8;
                }
                let keep = total(next.energy[l]).saturating_sub(loss.free);
                Ok(Outcome {
                    next,
                    side: l,
                    keep,
                    leaf: Leaf::State,
                })
            }
            Resolved::Tie { losses } => {
                // IT-50: piles clear and the chain ends; the active character splits first.
                let next = State {
                    energy: s.energy,
                    piles: [0, 0],
                    active: 0,
                    chain: 0,
                };
                let keep =
                    |slot: usize| total(s.energy[sides[slot]]).saturating_sub(losses[slot].free);
                let then = Leaf::Then {
                    side: sides[1],
                    keep: keep(1),
                };
                Ok(Outcome {
                    next,
                    side: sides[0],
                    keep: keep(0),
                    leaf: then,
                })
            }
        }
    }

    /// `side` keeps `keep` of its energy, placing the loss where it likes best (IT-51, D-35:
    /// each type gives up to what it holds): the best of every energy below its own with that
    /// total, for the PC the highest value, for the GM the lowest.
    fn split(&mut self, s: State, side: usize, keep: u32, leaf: Leaf) -> Result<f64, DuelError> {
        let e = s.energy[side];
        if total(e) <= keep {
            return self.leaf(s, leaf);
        }
        let key = (s.key(), side as u32 | leaf.code() << 1 | keep << 20);
        if let Some(v) = self.splits.get(&key) {
            return Ok(*v);
        }
        let mut best: Option<f64> = None;
        for (t, held) in e.into_iter().enumerate() {
            if held == 0 {
                continue;
            }
            let mut next = s;
            next.energy[side][t] -= 1;
            let v = self.split(next, side, keep, leaf)?;
            best = Some(match best {
                None => v,
                Some(b) if side == 0 => b.max(v),
                Some(b) => b.min(v),
            });
        }
        let v = best.unwrap_or(0.0);
        self.splits.insert(key, v);
        Ok(v)
    }

    fn leaf(&mut self, s: State, leaf: Leaf) -> Result<f64, DuelError> {
        match leaf {
            Leaf::State => self.value(s),
            Leaf::Then { side, keep } => self.split(s, side, keep, Leaf::GmPicks),
            Leaf::GmPicks => {
                // IT-26: after a tie the GM picks who is active, the worse for the PC.
                let first = self.value(State { active: 0, ..s })?;
                let second = self.value(State { active: 1, ..s })?;
                Ok(first.min(second))
            }
        }
    }

    fn solution(&mut self, stage: Stage) -> DuelSolution {
        self.report();
        let labels = |cs: &[Choice]| cs.iter().map(Choice::label).collect::<Vec<_>>();
        let (first_labels, second_labels) = (labels(&stage.choices[0]), labels(&stage.choices[1]));
        let mut moves = Vec::new();
        for (i, pi) in stage.solution.row.iter().enumerate() {
            for (j, pj) in stage.solution.col.iter().enumerate() {
                if *pi > 1e-9 && *pj > 1e-9 {
                    let s = &stage.moves[i][j];
                    moves.push(FirstMoves {
                        stance_first: stage.stances[0][i],
                        stance_second: stage.stances[1][j],
                        value: s.value,
                        first: weighted(&first_labels, &s.row),
                        second: weighted(&second_labels, &s.col),
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
            states: self.values.len().max(1),
            stances_first: weighted(&stage.stances[0], &stage.solution.row),
            stances_second: weighted(&stage.stances[1], &stage.solution.col),
            moves,
        }
    }
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

/// One position of a duel as [`Solved`] reads it: both characters' current energy (side 0 the
/// PC), their disadvantage piles, the active side and its live chain (oldest first).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DuelPosition {
    pub energy: [crate::PerAction<u32>; 2],
    pub piles: [Vec<Move>; 2],
    pub active: usize,
    pub chain: Vec<Move>,
}

/// A move choice of a stage, as [`Solved::stage`] lists them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StageChoice {
    pub mv: Move,
    /// Played to continue the live chain (IT-44).
    pub combo: bool,
    /// The live chain is ended first (IT-43).
    pub ends_chain: bool,
}

/// A move game: its payoffs (rows the PC's choices, columns the NPC's) and each side's
/// equilibrium mix.
pub type MoveGame = (Vec<Vec<f64>>, [Vec<f64>; 2]);

/// One position's turn, solved: the stance game of move games, every entry the rest of the
/// duel's value to the PC (P(PC wins) − P(NPC wins)).
#[derive(Debug, Clone)]
pub struct StageView {
    pub value: f64,
    /// Per side (0 the PC): the stances it may take, and its equilibrium mix over them.
    pub stances: [Vec<Stance>; 2],
    pub stance_mix: [Vec<f64>; 2],
    /// The stance game: rows the PC's stances, columns the NPC's.
    pub stance_values: Vec<Vec<f64>>,
    /// Per side: its move choices.
    pub choices: [Vec<StageChoice>; 2],
    /// Per stance pair: the move game (rows the PC's choices) and its equilibrium mixes.
    pub move_games: Vec<Vec<MoveGame>>,
}

/// A duel whose positions are solved as they are asked for, each once: every later position a
/// review reads is then already known.
pub struct Solved {
    search: Search<'static>,
}

impl Solved {
    /// The duel between `pc` and `npc` (their known moves and combos; energies and piles come
    /// with each position).
    pub fn new(
        pc: &crate::analysis::turn_game::FighterSpec,
        npc: &crate::analysis::turn_game::FighterSpec,
    ) -> Solved {
        let spec = TurnSpec {
            active: pc.clone(),
            opponent: npc.clone(),
            chain: Vec::new(),
        };
        Solved {
            search: Search::new(&spec, Box::new(|_| {}), None),
        }
    }

    fn state(&mut self, at: &DuelPosition) -> Result<State, DuelError> {
        let mut sizes = [0u64; 2];
        let mut energy = [[0u8; 3]; 2];
        for side in 0..2 {
            let e = at.energy[side];
            let e = [e.defend, e.grapple, e.attack];
            if let Some(big) = e.iter().find(|x| **x > super::MAX_PER_TYPE) {
                return Err(DuelError::TooMuchEnergy {
                    name: self.search.names[side].clone(),
                    energy: *big,
                });
            }
            sizes[side] = e.iter().map(|x| u64::from(*x) + 1).product();
            energy[side] = e.map(|x| x as u8);
        }
        if sizes[0] * sizes[1] > MAX_STATES {
            return Err(DuelError::TooLarge {
                states: sizes[0] * sizes[1],
                first: sizes[0],
                second: sizes[1],
            });
        }
        let piles = [
            self.search.piles.id(at.piles[0].clone())?,
            self.search.piles.id(at.piles[1].clone())?,
        ];
        let active = at.active.min(1);
        let chain = self.search.chain_id(active, at.chain.clone())?;
        Ok(State {
            energy,
            piles,
            active: active as u8,
            chain,
        })
    }

    /// The rest of the duel's value to the PC from `at`.
    pub fn value(&mut self, at: &DuelPosition) -> Result<f64, DuelError> {
        let s = self.state(at)?;
        self.search.value(s)
    }

    /// The turn at `at`, solved with every strategy kept.
    pub fn stage(&mut self, at: &DuelPosition) -> Result<StageView, DuelError> {
        let s = self.state(at)?;
        let stage = self.search.stage(s, true)?;
        let choice = |c: &Choice| StageChoice {
            mv: c.mv,
            combo: c.combo,
            ends_chain: c.ends_chain,
        };
        let move_games = stage
            .moves
            .iter()
            .zip(&stage.matrices)
            .map(|(sols, mats)| {
                sols.iter()
                    .zip(mats)
                    .map(|(sol, m)| (m.clone(), [sol.row.clone(), sol.col.clone()]))
                    .collect()
            })
            .collect();
        let mut stance_values = Vec::new();
        for row in &stage.moves {
            stance_values.push(row.iter().map(|sol| sol.value).collect());
        }
        Ok(StageView {
            value: stage.value,
            stance_mix: [stage.solution.row.clone(), stage.solution.col.clone()],
            stances: stage.stances.clone(),
            stance_values,
            choices: [
                stage.choices[0].iter().map(choice).collect(),
                stage.choices[1].iter().map(choice).collect(),
            ],
            move_games,
        })
    }
}
