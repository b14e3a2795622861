//! The board (TF-6 to TF-10): 15 positions on a triangular lattice, each holding one stack.
//!
//! Sets of positions are `u16` bit masks (bit `i` = position `i + 1`), so flood fills and
//! neighbourhoods are a handful of bit operations.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::pieces::{Blank, Pyramid, Size};

/// TF-6: number of positions.
pub const POSITIONS: usize = 15;

/// Most non-white pyramids one stack can hold. A stack that is not contested holds at most one
/// player's 15 pieces plus one sword and one shield (17); three actions add at most 3 more.
pub const CAPACITY: usize = 20;

/// A position, held as its index 0..15 and written as its number 1..15 (TF-6) in JSON.
#[cfg_attr(
    feature = "ts",
    derive(ts_rs::TS),
    ts(export_to = "triforce/", type = "number")
)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Pos(u8);

impl Pos {
    /// The position numbered `n` (1..=15), if there is one.
    pub fn number(n: u8) -> Option<Pos> {
        (1..=POSITIONS as u8).contains(&n).then(|| Pos(n - 1))
    }

    pub fn from_index(i: usize) -> Pos {
        Pos((i % POSITIONS) as u8)
    }

    pub fn index(self) -> usize {
        usize::from(self.0)
    }

    /// The position's number, 1..=15.
    pub fn n(self) -> u8 {
        self.0 + 1
    }

    pub fn bit(self) -> u16 {
        1 << self.0
    }

    /// TF-6: (row, column), both from 1.
    pub fn row_col(self) -> (u8, u8) {
        row_col(self.index())
    }

    pub fn all() -> impl Iterator<Item = Pos> {
        (0..POSITIONS as u8).map(Pos)
    }
}

impl Blank for Pos {
    const BLANK: Pos = Pos(0);
}

impl Serialize for Pos {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u8(self.n())
    }
}

impl<'de> Deserialize<'de> for Pos {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let n = u8::deserialize(d)?;
        Pos::number(n).ok_or_else(|| {
            serde::de::Error::custom(format!("position {n} is not on the board (1..15)"))
        })
    }
}

const fn row_col(i: usize) -> (u8, u8) {
    let mut row = 1;
    let mut first = 0; // index of (row, 1)
    while first + row <= i {
        first += row;
        row += 1;
    }
    (row as u8, (i - first + 1) as u8)
}

const fn index_of(row: i32, col: i32) -> Option<usize> {
    if row < 1 || row > 5 || col < 1 || col > row {
        None
    } else {
        Some((row * (row - 1) / 2 + col - 1) as usize)
    }
}

/// TF-7: for each position, the mask of its neighbours.
const fn adjacency() -> [u16; POSITIONS] {
    let offsets: [(i32, i32); 6] = [(0, -1), (0, 1), (-1, -1), (-1, 0), (1, 0), (1, 1)];
    let mut masks = [0u16; POSITIONS];
    let mut i = 0;
    while i < POSITIONS {
        let (r, c) = row_col(i);
        let mut k = 0;
        while k < 6 {
            if let Some(j) = index_of(r as i32 + offsets[k].0, c as i32 + offsets[k].1) {
                masks[i] |= 1 << j;
            }
            k += 1;
        }
        i += 1;
    }
    masks
}

/// TF-7: neighbour masks, by position index.
pub const NEIGHBOURS: [u16; POSITIONS] = adjacency();

/// Neighbour masks of every set of positions within one block of 5 positions (TF-7), so the
/// neighbourhood of any set is three table lookups.
const fn block_table(block: usize) -> [u16; 32] {
    let mut table = [0u16; 32];
    let mut m = 0;
    while m < 32 {
        let mut bit = 0;
        while bit < 5 {
            if m & (1 << bit) != 0 {
                table[m] |= NEIGHBOURS[block * 5 + bit];
            }
            bit += 1;
        }
        m += 1;
    }
    table
}

const BLOCKS: [[u16; 32]; 3] = [block_table(0), block_table(1), block_table(2)];

/// All positions adjacent to any position of `mask`.
pub fn neighbours_of(mask: u16) -> u16 {
    let m = usize::from(mask);
    BLOCKS[0][m & 31] | BLOCKS[1][(m >> 5) & 31] | BLOCKS[2][(m >> 10) & 31]
}

/// Positions in a mask, in order.
pub fn positions_in(mask: u16) -> impl Iterator<Item = Pos> {
    let mut rest = mask & ((1 << POSITIONS) - 1);
    std::iter::from_fn(move || {
        let i = rest.trailing_zeros();
        (rest != 0).then(|| {
            rest &= rest - 1;
            Pos(i as u8)
        })
    })
}

/// TF-8: the default white layout, row by row: S / S L / S L M / M M S M / L L L S M.
pub const DEFAULT_LAYOUT: [Size; POSITIONS] = {
    use Size::*;
    [S, S, L, S, L, M, M, M, S, M, L, L, L, S, M]
};

/// TF-10: default home positions (numbers) for 3..=6 players, by seat.
pub fn default_homes(players: u8) -> &'static [u8] {
    match players {
        3 => &[1, 15, 11],
        4 => &[1, 15, 13, 11],
        5 => &[1, 6, 15, 13, 11],
        _ => &[1, 6, 15, 13, 11, 4],
    }
}

/// TF-9: the pyramids above one white, bottom first, held inline. Two stacks are equal when
/// they hold the same pyramids in the same order (TF-17).
#[cfg_attr(
    feature = "ts",
    derive(ts_rs::TS),
    ts(export_to = "triforce/", type = "Array<string>")
)]
#[derive(Debug, Clone, Copy, Eq, Default)]
pub struct Stack {
    len: u8,
    items: [Pyramid; CAPACITY],
}

impl Stack {
    pub fn as_slice(&self) -> &[Pyramid] {
        &self.items[..usize::from(self.len)]
    }

    /// Number of non-white pyramids (pieces, swords and shields).
    pub fn len(&self) -> usize {
        usize::from(self.len)
    }

    /// TF-9: a bare stack has nothing above its white.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The uppermost non-white pyramid (`None` when the white is the top).
    pub fn top(&self) -> Option<Pyramid> {
        self.as_slice().last().copied()
    }

    /// Puts `p` on top. A full stack ignores it; [`CAPACITY`] is chosen so play never fills one.
    pub fn push(&mut self, p: Pyramid) {
        if let Some(slot) = self.items.get_mut(usize::from(self.len)) {
            *slot = p;
            self.len += 1;
        }
    }

    pub fn pop(&mut self) -> Option<Pyramid> {
        let top = self.top()?;
        self.len -= 1;
        self.items[usize::from(self.len)] = Pyramid::BLANK;
        Some(top)
    }

    pub fn get(&self, level: usize) -> Option<Pyramid> {
        self.as_slice().get(level).copied()
    }

    /// Replaces the pyramid at `level` (0 = lowest) in place, keeping the order (TF-22).
    pub fn replace(&mut self, level: usize, p: Pyramid) {
        if level < self.len() {
            self.items[level] = p;
        }
    }

    /// Takes out the pyramid at `level`; everything above drops by one (TF-26).
    pub fn remove(&mut self, level: usize) -> Option<Pyramid> {
        let p = self.get(level)?;
        let len = self.len();
        self.items.copy_within(level + 1..len, level);
        self.items[len - 1] = Pyramid::BLANK;
        self.len -= 1;
        Some(p)
    }

    /// Bit `s` set for every seat index `s` owning a piece here.
    pub fn players(&self) -> u8 {
        self.as_slice()
            .iter()
            .filter_map(|p| p.owner())
            .fold(0, |m, s| m | 1 << s)
    }

    /// TF-9: level of the lowest piece of `seat`, if any.
    pub fn lowest_of(&self, seat: u8) -> Option<usize> {
        self.as_slice().iter().position(|p| p.owner() == Some(seat))
    }

    /// TF-9: level of the uppermost piece of `seat`, if any.
    pub fn uppermost_of(&self, seat: u8) -> Option<usize> {
        self.as_slice()
            .iter()
            .rposition(|p| p.owner() == Some(seat))
    }

    /// TF-9: the bottom player (owner of the lowest piece; swords and shields skipped).
    pub fn bottom_player(&self) -> Option<u8> {
        self.as_slice().iter().find_map(|p| p.owner())
    }

    /// TF-9: the top player (owner of the uppermost piece; swords and shields skipped).
    pub fn top_player(&self) -> Option<u8> {
        self.as_slice().iter().rev().find_map(|p| p.owner())
    }

    pub fn pieces_of(&self, seat: u8) -> usize {
        self.as_slice()
            .iter()
            .filter(|p| p.owner() == Some(seat))
            .count()
    }

    pub fn sword_level(&self) -> Option<usize> {
        self.as_slice().iter().position(|p| p.is_sword())
    }

    pub fn shield_level(&self) -> Option<usize> {
        self.as_slice().iter().position(|p| p.is_shield())
    }
}

impl PartialEq for Stack {
    fn eq(&self, other: &Stack) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl Serialize for Stack {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.as_slice().serialize(s)
    }
}

impl<'de> Deserialize<'de> for Stack {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let items = Vec::<Pyramid>::deserialize(d)?;
        if items.len() > CAPACITY {
            return Err(serde::de::Error::custom(format!(
                "a stack holds at most {CAPACITY} pyramids"
            )));
        }
        let mut stack = Stack::default();
        items.into_iter().for_each(|p| stack.push(p));
        Ok(stack)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn numbers(mask: u16) -> Vec<u8> {
        positions_in(mask).map(Pos::n).collect()
    }

    #[test]
    fn tf_6_positions_are_numbered_row_by_row() {
        assert_eq!(Pos::number(1).map(Pos::row_col), Some((1, 1)));
        assert_eq!(Pos::number(11).map(Pos::row_col), Some((5, 1)));
        assert_eq!(Pos::number(13).map(Pos::row_col), Some((5, 3)));
        assert_eq!(Pos::number(15).map(Pos::row_col), Some((5, 5)));
        assert_eq!(Pos::number(0), None);
        assert_eq!(Pos::number(16), None);
    }

    #[test]
    fn tf_7_adjacency_matches_the_table() {
        let table: [&[u8]; 15] = [
            &[2, 3],
            &[1, 3, 4, 5],
            &[1, 2, 5, 6],
            &[2, 5, 7, 8],
            &[2, 3, 4, 6, 8, 9],
            &[3, 5, 9, 10],
            &[4, 8, 11, 12],
            &[4, 5, 7, 9, 12, 13],
            &[5, 6, 8, 10, 13, 14],
            &[6, 9, 14, 15],
            &[7, 12],
            &[7, 8, 11, 13],
            &[8, 9, 12, 14],
            &[9, 10, 13, 15],
            &[10, 14],
        ];
        for (i, expected) in table.iter().enumerate() {
            assert_eq!(
                numbers(NEIGHBOURS[i]),
                expected.to_vec(),
                "position {}",
                i + 1
            );
        }
        let degree_sum: u32 = NEIGHBOURS.iter().map(|m| m.count_ones()).sum();
        assert_eq!(degree_sum, 60, "TF-7: 30 adjacent pairs");
    }

    #[test]
    fn tf_8_default_layout_turns_onto_itself_with_sizes_cycled() {
        let turn = [15u8, 10, 14, 6, 9, 13, 3, 5, 8, 12, 1, 2, 4, 7, 11];
        let cycle = |s: Size| match s {
            Size::S => Size::M,
            Size::M => Size::L,
            Size::L => Size::S,
        };
        for (i, to) in turn.iter().enumerate() {
            assert_eq!(
                DEFAULT_LAYOUT[usize::from(*to) - 1],
                cycle(DEFAULT_LAYOUT[i]),
                "TF-8 at {}",
                i + 1
            );
        }
        let same: u32 = (0..15)
            .map(|i| {
                positions_in(NEIGHBOURS[i])
                    .filter(|p| DEFAULT_LAYOUT[p.index()] == DEFAULT_LAYOUT[i])
                    .count() as u32
            })
            .sum();
        assert_eq!(same / 2, 9, "TF-8: 9 of 30 adjacent pairs share a size");
        for size in Size::ALL {
            assert_eq!(
                DEFAULT_LAYOUT.iter().filter(|s| **s == size).count(),
                5,
                "TF-8"
            );
        }
    }

    #[test]
    fn tf_9_stacks_know_their_top_and_bottom_players() {
        let mut stack = Stack::default();
        assert!(stack.is_empty() && stack.top().is_none() && stack.bottom_player().is_none());
        stack.push(Pyramid::shield(Size::M));
        stack.push(Pyramid::piece(2, Size::S));
        stack.push(Pyramid::piece(0, Size::L));
        stack.push(Pyramid::sword(Size::S));
        // TF-9: swords and shields are skipped when finding players.
        assert_eq!(stack.bottom_player(), Some(2));
        assert_eq!(stack.top_player(), Some(0));
        assert_eq!(stack.top(), Some(Pyramid::sword(Size::S)));
        assert_eq!(stack.remove(1), Some(Pyramid::piece(2, Size::S)));
        assert_eq!(stack.bottom_player(), Some(0));
        assert_eq!(stack.len(), 3);
    }

    #[test]
    fn tf_10_default_homes_are_never_adjacent() {
        for players in 3..=6u8 {
            let homes = default_homes(players);
            assert_eq!(homes.len(), usize::from(players));
            for a in homes {
                for b in homes {
                    let (pa, pb) = (Pos::number(*a).unwrap(), Pos::number(*b).unwrap());
                    assert_eq!(NEIGHBOURS[pa.index()] & pb.bit(), 0, "TF-10: {a} and {b}");
                }
            }
        }
    }
}
