//! Actions (TF-13 to TF-18): the size rule, placing, moving along paths, and counting.

use clash_core::RuleError;

use crate::board::{NEIGHBOURS, POSITIONS, Pos, neighbours_of, positions_in};
use crate::pieces::{MAX_PLAYERS, Pyramid, Size};
use crate::state::State;

/// TF-13: may a pyramid of `size` go on the stack at `at`?
pub fn accepts(state: &State, at: Pos, size: Size) -> bool {
    match state.stack(at).top() {
        None => state.white(at) == size,
        Some(top) => top.size() != size,
    }
}

/// TF-13 for the whole board: for each size, the mask of positions it may go to.
pub fn destinations(state: &State) -> [u16; 3] {
    let mut masks = [0u16; 3];
    for i in 0..POSITIONS {
        // Sizes accepted (bit per size): the white's own size on a bare stack, else the others.
        let accepted = match state.stacks[i].top() {
            None => state.layout[i].bit(),
            Some(top) => 0b111 & !top.size().bit(),
        };
        for (s, mask) in masks.iter_mut().enumerate() {
            *mask |= u16::from(accepted >> s & 1) << i;
        }
    }
    masks
}

/// TF-15: positions topped by a piece of `seat`, by the piece's size.
pub fn own_tops(state: &State, seat: u8) -> [u16; 3] {
    let mut masks = [0u16; 3];
    for (i, stack) in state.stacks.iter().enumerate() {
        if let Some(top) = stack.top().filter(|p| p.owner() == Some(seat)) {
            masks[top.size().index()] |= 1 << i;
        }
    }
    masks
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
            format!("no {} pyramid left in the stash", size.letter()),
        ));
    }
    if placed & size.bit() != 0 {
        return Err(RuleError::illegal(
            "TF-14",
            format!("a {} pyramid was already placed this turn", size.letter()),
        ));
    }
    if !accepts(state, state.home(seat), size) {
        return Err(RuleError::illegal(
            "TF-13",
            format!("the home stack does not accept a {} pyramid", size.letter()),
        ));
    }
    Ok(())
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
                "no path of legal destinations for {} leads to {}",
                size.letter(),
                to.n()
            )
        };
        return Err(RuleError::illegal("TF-15", why));
    }
    Ok(())
}

/// TF-15: for every seat, the positions topped by one of its pieces, by the piece's size.
pub fn tops_by_seat(state: &State) -> [[u16; 3]; MAX_PLAYERS] {
    let mut masks = [[0u16; 3]; MAX_PLAYERS];
    for (i, stack) in state.stacks.iter().enumerate() {
        if let Some((seat, size)) = stack.top().and_then(|p| Some((p.owner()?, p.size()))) {
            masks[usize::from(seat) % MAX_PLAYERS][size.index()] |= 1 << i;
        }
    }
    masks
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
