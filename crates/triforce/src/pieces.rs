//! The pyramids (TF-1 to TF-3): sizes, colours, and counts per size for stashes and supplies.

use std::fmt;
use std::str::FromStr;

use clash_core::Seat;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// The most players a table can seat (TF-5).
pub const MAX_PLAYERS: usize = 6;

/// TF-1: a pyramid's size in pips. Written `"S"`, `"M"`, `"L"` in JSON.
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "triforce/"))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Size {
    S = 1,
    M = 2,
    L = 3,
}

impl Size {
    pub const ALL: [Size; 3] = [Size::S, Size::M, Size::L];

    /// 0, 1 or 2: the slot of this size in per-size arrays.
    pub fn index(self) -> usize {
        self as usize - 1
    }

    pub fn from_index(i: usize) -> Size {
        match i {
            0 => Size::S,
            1 => Size::M,
            _ => Size::L,
        }
    }

    /// Bit of this size in a 3-bit set of sizes.
    pub fn bit(self) -> u8 {
        1 << self.index()
    }

    pub fn letter(self) -> char {
        match self {
            Size::S => 'S',
            Size::M => 'M',
            Size::L => 'L',
        }
    }
}

/// Whose a non-white pyramid is: a player's piece, a sword (black) or a shield (clear).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Colour {
    /// A piece of the player at this seat index (0 = `p1`).
    Player(u8),
    Sword,
    Shield,
}

/// One non-white pyramid, packed into a byte: colour in the high bits, size in the low two.
///
/// Byte 0 is never a real pyramid; it fills the unused slots of a [`crate::board::Stack`] so
/// that comparing stacks compares contents only (TF-17 board equality).
#[cfg_attr(
    feature = "ts",
    derive(ts_rs::TS),
    ts(export_to = "triforce/", type = "string")
)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Pyramid(u8);

const SWORD: u8 = 6;
const SHIELD: u8 = 7;

impl Pyramid {
    pub fn piece(seat: u8, size: Size) -> Pyramid {
        Pyramid((seat << 2) | size as u8)
    }

    pub fn sword(size: Size) -> Pyramid {
        Pyramid((SWORD << 2) | size as u8)
    }

    pub fn shield(size: Size) -> Pyramid {
        Pyramid((SHIELD << 2) | size as u8)
    }

    pub fn size(self) -> Size {
        Size::from_index(usize::from(self.0 & 3).saturating_sub(1))
    }

    pub fn colour(self) -> Colour {
        match self.0 >> 2 {
            SWORD => Colour::Sword,
            SHIELD => Colour::Shield,
            seat => Colour::Player(seat),
        }
    }

    /// TF-9: the seat index owning this pyramid if it is a piece (swords and shields have none).
    pub fn owner(self) -> Option<u8> {
        match self.colour() {
            Colour::Player(seat) => Some(seat),
            _ => None,
        }
    }

    pub fn is_sword(self) -> bool {
        self.0 >> 2 == SWORD
    }

    pub fn is_shield(self) -> bool {
        self.0 >> 2 == SHIELD
    }
}

/// `"p1-S"` for a piece, `"K-M"` for a sword, `"C-L"` for a shield (the spec's letters).
impl fmt::Display for Pyramid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.colour() {
            Colour::Player(seat) => write!(f, "p{}-{}", seat + 1, self.size().letter()),
            Colour::Sword => write!(f, "K-{}", self.size().letter()),
            Colour::Shield => write!(f, "C-{}", self.size().letter()),
        }
    }
}

impl FromStr for Pyramid {
    type Err = String;
    fn from_str(text: &str) -> Result<Self, String> {
        let bad = || format!("{text:?} is not a pyramid (write \"p1-S\", \"K-M\" or \"C-L\")");
        let (colour, size) = text.split_once('-').ok_or_else(bad)?;
        let size = match size {
            "S" => Size::S,
            "M" => Size::M,
            "L" => Size::L,
            _ => return Err(bad()),
        };
        match colour {
            "K" => Ok(Pyramid::sword(size)),
            "C" => Ok(Pyramid::shield(size)),
            _ => match colour.parse::<Seat>() {
                Ok(Seat::Player(n)) if usize::from(n) <= MAX_PLAYERS => {
                    Ok(Pyramid::piece(n - 1, size))
                }
                _ => Err(bad()),
            },
        }
    }
}

impl Serialize for Pyramid {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Pyramid {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        String::deserialize(d)?
            .parse()
            .map_err(serde::de::Error::custom)
    }
}

/// How many pyramids of each size a stash or supply holds. JSON: `{"S": 5, "M": 5, "L": 5}`.
#[cfg_attr(
    feature = "ts",
    derive(ts_rs::TS),
    ts(export_to = "triforce/", as = "CountsRepr")
)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(from = "CountsRepr", into = "CountsRepr")]
pub struct SizeCounts(pub [u8; 3]);

impl SizeCounts {
    /// TF-2/TF-3: a full set, five of each size.
    pub const FULL: SizeCounts = SizeCounts([5, 5, 5]);

    pub fn get(self, size: Size) -> u8 {
        self.0[size.index()]
    }

    pub fn has(self, size: Size) -> bool {
        self.get(size) > 0
    }

    pub fn add(&mut self, size: Size) {
        self.0[size.index()] = self.0[size.index()].saturating_add(1);
    }

    pub fn take(&mut self, size: Size) {
        self.0[size.index()] = self.0[size.index()].saturating_sub(1);
    }

    pub fn total(self) -> u8 {
        self.0.iter().sum()
    }
}

#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "triforce/"))]
#[derive(Serialize, Deserialize)]
#[allow(non_snake_case)]
struct CountsRepr {
    S: u8,
    M: u8,
    L: u8,
}

impl From<CountsRepr> for SizeCounts {
    fn from(c: CountsRepr) -> Self {
        SizeCounts([c.S, c.M, c.L])
    }
}

impl From<SizeCounts> for CountsRepr {
    fn from(c: SizeCounts) -> Self {
        CountsRepr {
            S: c.0[0],
            M: c.0[1],
            L: c.0[2],
        }
    }
}

/// The seat playing seat index `i` (0 = `p1`).
pub fn seat(i: u8) -> Seat {
    Seat::Player(i + 1)
}

/// The seat index of `seat` at a table of `players`, if it plays.
pub fn seat_index(seat: Seat, players: u8) -> Option<u8> {
    match seat {
        Seat::Player(n) if n >= 1 && n <= players => Some(n - 1),
        _ => None,
    }
}

/// A list of at most `N` small values held inline (no allocation), written as a JSON array.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct List<T: Blank, const N: usize> {
    len: u8,
    items: [T; N],
}

impl<T: Blank, const N: usize> Default for List<T, N> {
    fn default() -> Self {
        List {
            len: 0,
            items: [T::BLANK; N],
        }
    }
}

/// A filler value for the unused slots of a [`List`].
pub trait Blank: Copy {
    const BLANK: Self;
}

impl Blank for Seat {
    const BLANK: Seat = Seat::Gm;
}

impl Blank for Pyramid {
    const BLANK: Pyramid = Pyramid(0);
}

impl<T: Blank, const N: usize> List<T, N> {
    /// Adds `item`; a full list ignores it (callers size `N` so that never happens).
    pub fn push(&mut self, item: T) {
        if let Some(slot) = self.items.get_mut(usize::from(self.len)) {
            *slot = item;
            self.len += 1;
        }
    }

    pub fn as_slice(&self) -> &[T] {
        &self.items[..usize::from(self.len)]
    }

    pub fn len(&self) -> usize {
        usize::from(self.len)
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

impl<T: Blank, const N: usize> FromIterator<T> for List<T, N> {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        let mut list = List::default();
        iter.into_iter().for_each(|x| list.push(x));
        list
    }
}

impl<T: Blank + Serialize, const N: usize> Serialize for List<T, N> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.as_slice().serialize(s)
    }
}

/// In TypeScript a [`List`] is the array it is written as.
#[cfg(feature = "ts")]
impl<T: Blank + ts_rs::TS, const N: usize> ts_rs::TS for List<T, N> {
    type WithoutGenerics = Vec<ts_rs::Dummy>;
    type OptionInnerType = Self;

    fn name(cfg: &ts_rs::Config) -> String {
        <Vec<T> as ts_rs::TS>::name(cfg)
    }

    fn inline(cfg: &ts_rs::Config) -> String {
        <Vec<T> as ts_rs::TS>::inline(cfg)
    }

    fn visit_dependencies(v: &mut impl ts_rs::TypeVisitor)
    where
        Self: 'static,
    {
        <Vec<T> as ts_rs::TS>::visit_dependencies(v);
    }

    fn visit_generics(v: &mut impl ts_rs::TypeVisitor)
    where
        Self: 'static,
    {
        <Vec<T> as ts_rs::TS>::visit_generics(v);
    }
}

impl<'de, T: Blank + Deserialize<'de>, const N: usize> Deserialize<'de> for List<T, N> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let items = Vec::<T>::deserialize(d)?;
        if items.len() > N {
            return Err(serde::de::Error::custom(format!("at most {N} entries")));
        }
        Ok(items.into_iter().collect())
    }
}
