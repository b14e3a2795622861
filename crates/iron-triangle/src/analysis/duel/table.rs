//! Many duels on one memo: a state's value depends on the state and on what both characters
//! know (moves and combos), never on where the duel started. The level-0 balance table's 1,296
//! duels are all between characters who know the three starting moves, so the states one duel
//! solves recur in most others (every duel ends in the low-energy states); [`DuelTable`] solves
//! each once.
//!
//! The values are exactly those of [`super::solve_duel`]: each state's stage game is built from
//! its successors' values and solved by the same code in the same order of entries, and
//! floating-point arithmetic on the same inputs gives the same bits. A duel's `states` (the
//! states its own search would have solved) is counted on the graph of successors the shared
//! search keeps: the states reachable from the duel's start.

use rustc_hash::FxHashMap;

use super::search::{Leaf, Outcome, Search, State, total};
use super::{DuelError, DuelSolution};
use crate::analysis::turn_game::{TurnPosition, TurnSpec};

/// Duels solved on one shared memo. Duels between characters who know other moves or combos
/// than the last duel's start a fresh memo (their states' values differ).
#[derive(Default)]
pub struct DuelTable {
    search: Option<Search<'static>>,
}

impl DuelTable {
    pub fn new() -> DuelTable {
        DuelTable::default()
    }

    /// The duel of `spec`, as [`super::solve_duel`] solves it.
    pub fn solve(&mut self, spec: &TurnSpec) -> Result<DuelSolution, DuelError> {
        super::check(spec)?;
        crate::analysis::position::check(spec)?;
        // The engine validates both characters (known moves IT-7/IT-8, combos IT-41/D-5).
        TurnPosition::new(spec)?;
        let search = match &mut self.search {
            Some(search) if search.fits(spec) => search,
            slot => slot.insert(Search::shared(spec)),
        };
        let start = search.start(spec)?;
        search.solve_shared(spec, start)
    }
}

/// The states a shared search has solved, numbered in solving order, each with its successors
/// (the non-terminal states its stage game's entries lead to).
#[derive(Default)]
pub(super) struct Graph {
    ids: FxHashMap<u128, u32>,
    /// State `i`'s successors are `edges[starts[i]..starts[i + 1]]`.
    starts: Vec<u32>,
    edges: Vec<u32>,
    /// Per state, the last count that met it (so that counts need no clearing).
    marks: Vec<u32>,
    count: u32,
}

impl Graph {
    /// Record `s`, solved, whose entries lead where `outcomes` say (every successor solved
    /// before it: turns lower the total energy).
    pub(super) fn add(&mut self, s: State, outcomes: &[Outcome]) {
        if self.starts.is_empty() {
            self.starts.push(0);
        }
        // Many entries end in the same split, and splits share leaves: each walked once.
        let mut splits: Vec<(u128, u32, &Outcome)> = outcomes
            .iter()
            .map(|o| {
                (
                    o.next.key(),
                    o.side as u32 | o.keep << 1 | o.leaf.code() << 8,
                    o,
                )
            })
            .collect();
        splits.sort_unstable_by_key(|(k, c, _)| (*k, *c));
        splits.dedup_by_key(|(k, c, _)| (*k, *c));
        let mut next = Vec::new();
        for (_, _, o) in splits {
            split_leaves(o.next, o.side, o.keep, o.leaf, &mut next);
        }
        let mut keys: Vec<u128> = next
            .iter()
            .filter(|t| total(t.energy[0]) > 0 && total(t.energy[1]) > 0)
            .map(State::key)
            .collect();
        keys.sort_unstable();
        keys.dedup();
        let mut ids: Vec<u32> = keys
            .iter()
            .filter_map(|k| self.ids.get(k).copied())
            .collect();
        ids.sort_unstable();
        self.edges.extend(ids);
        self.starts.push(self.edges.len() as u32);
        self.ids.insert(s.key(), self.marks.len() as u32);
        self.marks.push(0);
    }

    /// How many states are reachable from `start` (itself included).
    pub(super) fn reachable(&mut self, start: State) -> usize {
        let Some(first) = self.ids.get(&start.key()).copied() else {
            return 0;
        };
        self.count += 1;
        let mark = self.count;
        let mut stack = vec![first];
        self.marks[first as usize] = mark;
        let mut seen = 0;
        while let Some(i) = stack.pop() {
            seen += 1;
            let (from, to) = (self.starts[i as usize], self.starts[i as usize + 1]);
            for &j in &self.edges[from as usize..to as usize] {
                if self.marks[j as usize] != mark {
                    self.marks[j as usize] = mark;
                    stack.push(j);
                }
            }
        }
        seen
    }
}

/// The states a loss split can end in, as [`Search`]'s split walks them: `side` gives up
/// energy one at a time from any type that holds some until it keeps `keep`, so every energy
/// at or below its own with that total; then `leaf`.
fn split_leaves(s: State, side: usize, keep: u32, leaf: Leaf, out: &mut Vec<State>) {
    let e = s.energy[side];
    if total(e) <= keep {
        return leaf_states(s, leaf, out);
    }
    for d in 0..=e[0] {
        for g in 0..=e[1] {
            let Some(a) = keep.checked_sub(u32::from(d) + u32::from(g)) else {
                continue;
            };
            if a <= u32::from(e[2]) {
                let mut t = s;
                t.energy[side] = [d, g, a as u8];
                leaf_states(t, leaf, out);
            }
        }
    }
}

fn leaf_states(s: State, leaf: Leaf, out: &mut Vec<State>) {
    match leaf {
        Leaf::State => out.push(s),
        Leaf::Then { side, keep } => split_leaves(s, side, keep, Leaf::GmPicks, out),
        Leaf::GmPicks => out.extend([State { active: 0, ..s }, State { active: 1, ..s }]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Move;
    use crate::analysis::turn_game::FighterSpec;
    use crate::character::{Combo, PerAction};

    fn fighter(name: &str, d: u32, g: u32, a: u32) -> FighterSpec {
        FighterSpec::new(
            name,
            PerAction {
                defend: d,
                grapple: g,
                attack: a,
            },
        )
    }

    fn spec(active: FighterSpec, opponent: FighterSpec) -> TurnSpec {
        TurnSpec {
            active,
            opponent,
            chain: vec![],
        }
    }

    /// Every duel solved on one shared memo is exactly (to the bit, states counted alike) the
    /// duel solved alone, in any order, and a duel between characters who know other moves or
    /// combos starts a fresh memo.
    #[test]
    fn shared_duels_equal_each_duel_alone() {
        let mv = |s: &str| s.parse::<Move>().unwrap();
        let mut combo = fighter("Combo", 2, 2, 1);
        combo.combos = vec![Combo {
            from: mv("A-H"),
            followups: vec![mv("G-L")],
        }];
        let mut piled = fighter("Piled", 2, 1, 2);
        piled.pile = vec![mv("G-L")];
        let builds = [(2, 1, 2), (1, 2, 1), (3, 1, 1), (1, 1, 1), (2, 2, 2)];
        let mut specs = Vec::new();
        for x in builds {
            for y in builds {
                specs.push(spec(
                    fighter("X", x.0, x.1, x.2),
                    fighter("Y", y.0, y.1, y.2),
                ));
            }
        }
        // A new memo for the combo, then back to the plain one; a pile shares the plain memo.
        specs.insert(7, spec(combo.clone(), fighter("Y", 2, 1, 2)));
        specs.insert(12, spec(piled, fighter("Y", 1, 2, 2)));
        specs.push(spec(fighter("Y", 2, 2, 1), combo));
        let mut table = DuelTable::new();
        for s in &specs {
            let alone = super::super::solve_duel(s, &mut |_| {}).unwrap();
            assert_eq!(table.solve(s).unwrap(), alone);
        }
    }

    #[test]
    fn it_23_a_shared_table_refuses_what_a_duel_alone_refuses() {
        let mut table = DuelTable::new();
        let empty = spec(fighter("Ada", 1, 1, 1), fighter("B", 0, 0, 0));
        assert!(matches!(table.solve(&empty), Err(DuelError::NoEnergy(_))));
        let huge = spec(fighter("Huge", 16, 1, 1), fighter("B", 1, 1, 1));
        assert!(matches!(
            table.solve(&huge),
            Err(DuelError::TooMuchEnergy { .. })
        ));
    }
}
