//! Actions (TF-13 to TF-18): the size rule, placing, moving along paths, and counting.

use clash_core::RuleError;

use crate::board::{NEIGHBOURS, POSITIONS, Pos, Stack, neighbours_of, positions_in};
use crate::combat;
use crate::pieces::{MAX_PLAYERS, Pyramid, Size};
use crate::players::size_words;
use crate::state::State;

/// TF-13: may a pyramid of `size` go on the stack at `at`?
pub fn accepts(state: &State, at: Pos, size: Size) -> bool {
    match state.stack(at).top() {
        None => state.white(at) == size,
        Some(top) => top.size() != size,
    }
}

/// What the tops of the stacks say, read in one pass over the board: where each size may go
/// (TF-13) and, for every seat, which stacks its pieces top, by size (TF-15).
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "triforce/"))]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Surface {
    /// By size index: the positions a pyramid of that size may go to.
    pub legal: [u16; 3],
    /// By seat index, then size index: the positions topped by that seat's piece of that size.
    pub tops: [[u16; 3]; MAX_PLAYERS],
    /// By seat index: the stacks that seat is bottom player of (TF-9, TF-28).
    pub bottoms: [u16; MAX_PLAYERS],
    /// The contested stacks (TF-19).
    pub contested: u16,
}

impl Surface {
    /// The surface of `state`, kept up to date as the stacks change.
    pub fn of(state: &State) -> Surface {
        state.surface
    }

    /// Read every stack afresh (a new or deserialized state).
    pub(crate) fn read(stacks: &[Stack; POSITIONS], layout: &[Size; POSITIONS]) -> Surface {
        let mut surface = Surface {
            legal: [0; 3],
            tops: [[0; 3]; MAX_PLAYERS],
            bottoms: [0; MAX_PLAYERS],
            contested: 0,
        };
        for at in Pos::all() {
            surface.set(at, &stacks[at.index()], layout[at.index()]);
        }
        surface
    }

    /// Re-read the one stack at `at` after it changed; `white` is its white's size.
    pub(crate) fn update(&mut self, at: Pos, stack: &Stack, white: Size) {
        let keep = !at.bit();
        self.legal.iter_mut().for_each(|m| *m &= keep);
        self.tops.iter_mut().flatten().for_each(|m| *m &= keep);
        self.bottoms.iter_mut().for_each(|m| *m &= keep);
        self.contested &= keep;
        self.set(at, stack, white);
    }

    /// TF-13, TF-15, TF-9 and TF-19 for one stack whose bits are clear.
    fn set(&mut self, at: Pos, stack: &Stack, white: Size) {
        let bit = at.bit();
        if let Some(bottom) = stack.bottom_player() {
            self.bottoms[usize::from(bottom) % MAX_PLAYERS] |= bit;
        }
        if combat::contested(stack) {
            self.contested |= bit;
        }
        let Some(top) = stack.top() else {
            self.legal[white.index()] |= bit;
            return;
        };
        let size = top.size().index();
        for (z, mask) in self.legal.iter_mut().enumerate() {
            if z != size {
                *mask |= bit;
            }
        }
        if let Some(owner) = top.owner() {
            self.tops[usize::from(owner) % MAX_PLAYERS][size] |= bit;
        }
    }

    /// TF-15: the positions topped by a piece of `seat`, by size.
    pub fn tops_of(&self, seat: u8) -> [u16; 3] {
        self.tops[usize::from(seat) % MAX_PLAYERS]
    }
}

/// TF-13 for the whole board: for each size, the mask of positions it may go to.
pub fn destinations(state: &State) -> [u16; 3] {
    Surface::of(state).legal
}

/// TF-15: positions topped by a piece of `seat`, by the piece's size.
pub fn own_tops(state: &State, seat: u8) -> [u16; 3] {
    Surface::of(state).tops_of(seat)
}

/// TF-15: every position reachable from `origin` through legal destinations (origin excluded).
pub fn reach(origin: Pos, legal: u16) -> u16 {
    let mut seen = origin.bit();
    let mut frontier = NEIGHBOURS[origin.index()] & legal & !seen;
    while frontier != 0 {
        seen |= frontier;
        frontier = neighbours_of(frontier) & legal & !seen;
    }
    seen & !origin.bit()
}

/// TF-15: the size of the piece `seat` could move from `from` (its own piece on top).
pub fn movable(state: &State, seat: u8, from: Pos) -> Option<Size> {
    state
        .stack(from)
        .top()
        .filter(|p| p.owner() == Some(seat))
        .map(Pyramid::size)
}

/// TF-15: where the piece on top of `from` may go, or 0 if `seat` cannot move it.
pub fn move_targets(state: &State, seat: u8, from: Pos, legal: &[u16; 3]) -> u16 {
    movable(state, seat, from).map_or(0, |size| reach(from, legal[size.index()]))
}

/// TF-14: may `seat` place `size` now? `placed` = sizes placed this turn.
pub fn can_place(state: &State, seat: u8, size: Size, placed: u8) -> bool {
    state.stash(seat).has(size)
        && placed & size.bit() == 0
        && accepts(state, state.home(seat), size)
}

/// TF-14: why placing `size` is illegal now, if it is. `placed` = sizes placed this turn.
pub fn check_place(state: &State, seat: u8, size: Size, placed: u8) -> Result<(), RuleError> {
    if !state.stash(seat).has(size) {
        return Err(RuleError::illegal(
            "TF-14",
            format!("no {} pyramid is left in the stash", size_words(size)),
        ));
    }
    if placed & size.bit() != 0 {
        return Err(RuleError::illegal(
            "TF-14",
            format!(
                "a {} pyramid was already placed this turn",
                size_words(size)
            ),
        ));
    }
    let home = state.home(seat);
    if !accepts(state, home, size) {
        return Err(RuleError::illegal(
            "TF-13",
            format!(
                "a {} pyramid cannot go on your home stack: {}",
                size_words(size),
                size_rule(state, home)
            ),
        ));
    }
    Ok(())
}

/// TF-13 in words, for the stack at `at`: which sizes it takes now and why.
pub fn size_rule(state: &State, at: Pos) -> String {
    let white = state.white(at);
    match state.stack(at).top() {
        None => format!(
            "stack {} shows its {} white, which takes only a {} pyramid",
            at.n(),
            size_words(white),
            size_words(white)
        ),
        Some(top) => {
            let others: Vec<&str> = Size::ALL
                .into_iter()
                .filter(|s| *s != top.size())
                .map(size_words)
                .collect();
            format!(
                "stack {} is topped by {}, which takes only a pyramid of another size ({})",
                at.n(),
                crate::players::pyramid_words(top),
                others.join(" or ")
            )
        }
    }
}

fn capital(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

/// TF-14: the sizes `seat` may place now (bit per size).
pub fn placements(state: &State, seat: u8, placed: u8) -> u8 {
    Size::ALL
        .into_iter()
        .filter(|s| can_place(state, seat, *s, placed))
        .fold(0, |m, s| m | s.bit())
}

/// TF-15: why moving `from → to` is illegal now, if it is.
pub fn check_move(state: &State, seat: u8, from: Pos, to: Pos) -> Result<(), RuleError> {
    let Some(size) = movable(state, seat, from) else {
        return Err(RuleError::illegal(
            "TF-15",
            format!("the top of {} is not one of your pieces", from.n()),
        ));
    };
    if reach(from, destinations(state)[size.index()]) & to.bit() == 0 {
        let why = if from == to {
            "the origin is never a destination".to_string()
        } else {
            format!(
                "your {} piece cannot get to {}: it goes only along neighbouring stacks that each take a {} pyramid. {}",
                size_words(size),
                to.n(),
                size_words(size),
                capital(&size_rule(state, to))
            )
        };
        return Err(RuleError::illegal("TF-15", why));
    }
    Ok(())
}

/// TF-15: can any of the pieces on top of `tops` move? A piece can as soon as one neighbour
/// accepts it (a neighbour topped by the same size never does, so the neighbourhood of all
/// same-size tops is enough).
pub fn can_move(tops: &[u16; 3], legal: &[u16; 3]) -> bool {
    (0..3).any(|s| neighbours_of(tops[s]) & legal[s] != 0)
}

/// TF-18: does `seat` have any legal action on this board (start of a turn)?
pub fn has_action(state: &State, seat: u8, legal: &[u16; 3]) -> bool {
    placements(state, seat, 0) != 0 || can_move(&own_tops(state, seat), legal)
}

/// TF-16: the number of legal actions of `seat` on the current board (start of a turn).
pub fn count(state: &State, seat: u8) -> usize {
    let legal = destinations(state);
    let moves: u32 = Pos::all()
        .map(|from| move_targets(state, seat, from, &legal).count_ones())
        .sum();
    placements(state, seat, 0).count_ones() as usize + moves as usize
}

/// Every (origin, destination) move of `seat`, in board order.
pub fn moves(state: &State, seat: u8) -> impl Iterator<Item = (Pos, Pos)> + '_ {
    let legal = destinations(state);
    Pos::all().flat_map(move |from| {
        positions_in(move_targets(state, seat, from, &legal)).map(move |to| (from, to))
    })
}
