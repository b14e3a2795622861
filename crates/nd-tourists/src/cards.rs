//! The Space·Time Deck (ND-1), card comparison (ND-3) and compact card sets.
//!
//! A card is one byte: 0 is the Excuse, 1–21 the Triumphs by number, 22–66 the suit cards
//! (suit × 9 + figure) and 67–76 the optional suit blanks (D-1). A set of cards is one `u128`
//! bitset, so deck, discards and "cards seen" cost nothing to copy.

use std::fmt;
use std::str::FromStr;
use std::sync::LazyLock;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// The five suits, in the Rock-Paper-Scissors-Lizard-Spock circle (ND-3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Suit {
    Rock,
    Paper,
    Blades,
    Serpent,
    Unknown,
}

pub const SUITS: [Suit; 5] = [
    Suit::Rock,
    Suit::Paper,
    Suit::Blades,
    Suit::Serpent,
    Suit::Unknown,
];

/// The nine unnumbered figures of each suit; figures have no rank (ND-3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Figure {
    Ruler,
    Dragon,
    Treasure,
    Soldier,
    Builder,
    Seeker,
    Lover,
    Servant,
    Home,
}

pub const FIGURES: [Figure; 9] = [
    Figure::Ruler,
    Figure::Dragon,
    Figure::Treasure,
    Figure::Soldier,
    Figure::Builder,
    Figure::Seeker,
    Figure::Lover,
    Figure::Servant,
    Figure::Home,
];

impl Suit {
    fn index(self) -> u8 {
        self as u8
    }

    /// The suit-against-suit table of ND-3.
    pub fn beats(self, other: Suit) -> bool {
        use Suit::*;
        matches!(
            (self, other),
            (Rock, Blades)
                | (Rock, Serpent)
                | (Paper, Rock)
                | (Paper, Unknown)
                | (Blades, Paper)
                | (Blades, Serpent)
                | (Serpent, Paper)
                | (Serpent, Unknown)
                | (Unknown, Rock)
                | (Unknown, Blades)
        )
    }

    fn name(self) -> &'static str {
        match self {
            Suit::Rock => "Rock",
            Suit::Paper => "Paper",
            Suit::Blades => "Blades",
            Suit::Serpent => "Serpent",
            Suit::Unknown => "Unknown",
        }
    }

    /// Suit names as the sources write them, including the aliases of ND-1 and §1.
    fn parse(s: &str) -> Option<Suit> {
        let s = s.to_ascii_lowercase();
        Some(match s.as_str() {
            "rock" | "stone" => Suit::Rock,
            "paper" => Suit::Paper,
            "blades" | "scissors" => Suit::Blades,
            "serpent" | "lizard" => Suit::Serpent,
            "unknown" | "out there" | "spock" => Suit::Unknown,
            _ => return None,
        })
    }
}

/// What is printed on a card.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Face {
    Excuse,
    /// Triumph I–XXI.
    Triumph(u8),
    Suited(Suit, Figure),
    /// A customisable suit blank (copy 1 or 2), in play only with the blanks option (D-1).
    Blank(Suit, u8),
}

/// One card of the Space·Time Deck.
#[cfg_attr(
    feature = "ts",
    derive(ts_rs::TS),
    ts(export_to = "nd-tourists/", type = "string")
)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Card(u8);

/// The Excuse.
pub const EXCUSE: Card = Card(0);
/// Cards in the standard deck (ND-1).
pub const STANDARD_DECK: u8 = 67;
/// Cards with the 10 suit blanks of D-1.
pub const DECK_WITH_BLANKS: u8 = 77;

const FIRST_SUITED: u8 = 22;
const FIRST_BLANK: u8 = 67;

impl Card {
    /// The card with this compact id, if there is one.
    pub fn from_id(id: u8) -> Option<Card> {
        (id < DECK_WITH_BLANKS).then_some(Card(id))
    }

    pub fn id(self) -> u8 {
        self.0
    }

    /// Triumph `n` (1–21).
    pub fn triumph(n: u8) -> Option<Card> {
        (1..=21).contains(&n).then_some(Card(n))
    }

    pub fn suited(suit: Suit, figure: Figure) -> Card {
        Card(FIRST_SUITED + suit.index() * 9 + figure as u8)
    }

    pub fn face(self) -> Face {
        match self.0 {
            0 => Face::Excuse,
            n @ 1..=21 => Face::Triumph(n),
            n @ FIRST_SUITED..FIRST_BLANK => {
                let k = n - FIRST_SUITED;
                Face::Suited(SUITS[(k / 9) as usize], FIGURES[(k % 9) as usize])
            }
            n => {
                let k = n.saturating_sub(FIRST_BLANK);
                Face::Blank(SUITS[((k / 2) as usize).min(4)], k % 2 + 1)
            }
        }
    }

    pub fn is_excuse(self) -> bool {
        self.0 == 0
    }

    pub fn is_blank(self) -> bool {
        self.0 >= FIRST_BLANK
    }

    /// The Triumph number, for Triumphs.
    pub fn triumph_rank(self) -> Option<u8> {
        matches!(self.0, 1..=21).then_some(self.0)
    }

    pub fn suit(self) -> Option<Suit> {
        match self.face() {
            Face::Suited(s, _) | Face::Blank(s, _) => Some(s),
            _ => None,
        }
    }

    /// The card's name as the spec writes it: "Excuse", "XIV", "Paper Servant", "Blank Rock 1".
    pub fn name(self) -> &'static str {
        NAMES.get(self.0 as usize).map_or("?", String::as_str)
    }

    /// The S2 image number of §10.1 (blanks have none).
    pub fn image_number(self) -> Option<u8> {
        match self.face() {
            Face::Excuse => Some(5),
            Face::Triumph(n) => Some(5 + n),
            Face::Suited(s, f) => {
                let base = match s {
                    Suit::Paper => 32,
                    Suit::Unknown => 43,
                    Suit::Rock => 54,
                    Suit::Blades => 65,
                    Suit::Serpent => 76,
                };
                Some(base + f as u8)
            }
            Face::Blank(..) => None,
        }
    }
}

/// ND-3: `a` beats `b`. Orientation never matters (ND-2).
pub fn beats(a: Card, b: Card) -> bool {
    match (a.triumph_rank(), b.triumph_rank(), a.suit(), b.suit()) {
        (Some(x), Some(y), _, _) => x > y,
        (Some(_), None, _, Some(_)) => true,
        (None, None, Some(x), Some(y)) => x.beats(y),
        _ => false,
    }
}

const ROMAN: [&str; 22] = [
    "", "I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII", "XIII", "XIV",
    "XV", "XVI", "XVII", "XVIII", "XIX", "XX", "XXI",
];

static NAMES: LazyLock<Vec<String>> = LazyLock::new(|| {
    (0..DECK_WITH_BLANKS)
        .map(|id| match Card(id).face() {
            Face::Excuse => "Excuse".to_string(),
            Face::Triumph(n) => ROMAN[n as usize].to_string(),
            Face::Suited(s, f) => format!("{} {f:?}", s.name()),
            Face::Blank(s, k) => format!("Blank {} {k}", s.name()),
        })
        .collect()
});

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A card name that names no card.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownCard(pub String);

impl fmt::Display for UnknownCard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "no card is called {:?} (write \"Excuse\", \"XIV\", \"Paper Servant\", \"Blank Rock 1\")",
            self.0
        )
    }
}

impl FromStr for Card {
    type Err = UnknownCard;
    fn from_str(s: &str) -> Result<Card, UnknownCard> {
        let t = s.trim();
        let lower = t.to_ascii_lowercase();
        if lower == "excuse" || lower == "the excuse" {
            return Ok(EXCUSE);
        }
        if let Some(n) = ROMAN
            .iter()
            .position(|r| !r.is_empty() && r.eq_ignore_ascii_case(t))
        {
            return Ok(Card(n as u8));
        }
        if let Some(rest) = lower.strip_prefix("blank ") {
            let (suit, copy) = rest
                .rsplit_once(' ')
                .ok_or_else(|| UnknownCard(s.to_string()))?;
            let suit = Suit::parse(suit).ok_or_else(|| UnknownCard(s.to_string()))?;
            return match copy {
                "1" => Ok(Card(FIRST_BLANK + suit.index() * 2)),
                "2" => Ok(Card(FIRST_BLANK + suit.index() * 2 + 1)),
                _ => Err(UnknownCard(s.to_string())),
            };
        }
        let (suit, figure) = lower
            .rsplit_once(' ')
            .ok_or_else(|| UnknownCard(s.to_string()))?;
        let suit = Suit::parse(suit).ok_or_else(|| UnknownCard(s.to_string()))?;
        let figure = FIGURES
            .iter()
            .find(|f| format!("{f:?}").eq_ignore_ascii_case(figure))
            .ok_or_else(|| UnknownCard(s.to_string()))?;
        Ok(Card::suited(suit, *figure))
    }
}

impl Serialize for Card {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for Card {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        s.parse()
            .map_err(|e: UnknownCard| serde::de::Error::custom(e.to_string()))
    }
}

/// A set of cards as a bitset over card ids.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub struct CardSet(u128);

impl CardSet {
    pub const EMPTY: CardSet = CardSet(0);

    /// Every card in play: the 67 standard cards, plus the 10 suit blanks if enabled (D-1).
    pub fn full_deck(blanks: bool) -> CardSet {
        let n = if blanks {
            DECK_WITH_BLANKS
        } else {
            STANDARD_DECK
        };
        CardSet((1u128 << n) - 1)
    }

    pub fn contains(self, c: Card) -> bool {
        self.0 >> c.0 & 1 == 1
    }

    pub fn insert(&mut self, c: Card) {
        self.0 |= 1 << c.0;
    }

    pub fn remove(&mut self, c: Card) {
        self.0 &= !(1 << c.0);
    }

    pub fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    pub fn union(self, o: CardSet) -> CardSet {
        CardSet(self.0 | o.0)
    }

    pub fn minus(self, o: CardSet) -> CardSet {
        CardSet(self.0 & !o.0)
    }

    pub fn intersection(self, o: CardSet) -> CardSet {
        CardSet(self.0 & o.0)
    }

    /// The `i`-th card in id order: what a uniform draw of index `i` takes.
    pub fn nth(self, i: usize) -> Option<Card> {
        let lo = self.0 as u64;
        let hi = (self.0 >> 64) as u64;
        let in_lo = lo.count_ones() as usize;
        let (word, base, k) = if i < in_lo {
            (lo, 0u8, i)
        } else {
            (hi, 64u8, i - in_lo)
        };
        if k >= word.count_ones() as usize {
            return None;
        }
        let mut w = word;
        for _ in 0..k {
            w &= w - 1;
        }
        Some(Card(base + w.trailing_zeros() as u8))
    }

    pub fn iter(self) -> impl Iterator<Item = Card> {
        let mut bits = self.0;
        std::iter::from_fn(move || {
            (bits != 0).then(|| {
                let id = bits.trailing_zeros() as u8;
                bits &= bits - 1;
                Card(id)
            })
        })
    }

    /// How many cards of this set satisfy `f`.
    pub fn count(self, f: impl Fn(Card) -> bool) -> usize {
        self.iter().filter(|c| f(*c)).count()
    }
}

impl FromIterator<Card> for CardSet {
    fn from_iter<I: IntoIterator<Item = Card>>(iter: I) -> Self {
        let mut s = CardSet::EMPTY;
        for c in iter {
            s.insert(c);
        }
        s
    }
}

impl Serialize for CardSet {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

impl<'de> Deserialize<'de> for CardSet {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(Vec::<Card>::deserialize(d)?.into_iter().collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(n: &str) -> Card {
        n.parse().unwrap()
    }

    #[test]
    fn nd1_the_standard_deck_has_67_cards_and_blanks_add_10() {
        let deck = CardSet::full_deck(false);
        assert_eq!(deck.len(), 67); // ND-1
        assert_eq!(deck.count(|c| c.triumph_rank().is_some()), 21);
        assert_eq!(deck.count(|c| matches!(c.face(), Face::Suited(..))), 45);
        assert_eq!(deck.count(Card::is_excuse), 1);
        assert_eq!(deck.count(Card::is_blank), 0); // D-1: out by default
        let with = CardSet::full_deck(true);
        assert_eq!(with.len(), 77);
        assert_eq!(with.count(Card::is_blank), 10); // D-1: suit blanks only
    }

    #[test]
    fn nd1_every_name_round_trips() {
        for card in CardSet::full_deck(true).iter() {
            assert_eq!(card.name().parse::<Card>(), Ok(card));
        }
        assert_eq!(c("Stone Ruler"), Card::suited(Suit::Rock, Figure::Ruler));
        assert_eq!(
            c("Out There Home"),
            Card::suited(Suit::Unknown, Figure::Home)
        );
        assert!("Paper Queen".parse::<Card>().is_err());
        assert!("XXII".parse::<Card>().is_err());
    }

    #[test]
    fn nd3_suit_table_matches_the_spec() {
        let yes = [
            ("Rock", "Blades"),
            ("Rock", "Serpent"),
            ("Paper", "Rock"),
            ("Paper", "Unknown"),
            ("Blades", "Paper"),
            ("Blades", "Serpent"),
            ("Serpent", "Paper"),
            ("Serpent", "Unknown"),
            ("Unknown", "Rock"),
            ("Unknown", "Blades"),
        ];
        for a in SUITS {
            for b in SUITS {
                let expected = yes.contains(&(a.name(), b.name()));
                let ca = Card::suited(a, Figure::Ruler);
                let cb = Card::suited(b, Figure::Home);
                assert_eq!(beats(ca, cb), expected, "{a:?} vs {b:?}"); // ND-3
            }
        }
    }

    #[test]
    fn nd3_beats_is_asymmetric_and_triumphs_rank() {
        let deck = CardSet::full_deck(true);
        for a in deck.iter() {
            for b in deck.iter() {
                assert!(!(beats(a, b) && beats(b, a)), "{a} {b}"); // ND-3 asymmetric
            }
            assert!(!beats(a, EXCUSE) && !beats(EXCUSE, a)); // Excuse: stalemate
            assert!(!beats(a, c("XXI"))); // XXI never beaten
        }
        assert!(beats(c("XVI"), c("XIV")));
        assert!(beats(c("I"), c("Rock Ruler")));
        assert!(!beats(c("Paper Home"), c("Paper Ruler"))); // figures have no rank
        assert!(beats(c("Blades Dragon"), c("Paper Servant")));
        assert!(beats(c("Blank Rock 1"), c("Blades Home"))); // D-1: blanks are suit cards
    }

    #[test]
    fn image_numbers_match_the_verified_images() {
        // §10.1: verified images 5, 21, 39, 62, 65, 66, 76, 79, 84.
        assert_eq!(EXCUSE.image_number(), Some(5));
        assert_eq!(c("XVI").image_number(), Some(21));
        assert_eq!(c("Paper Servant").image_number(), Some(39));
        assert_eq!(c("Rock Home").image_number(), Some(62));
        assert_eq!(c("Blades Ruler").image_number(), Some(65));
        assert_eq!(c("Blades Dragon").image_number(), Some(66));
        assert_eq!(c("Serpent Ruler").image_number(), Some(76));
        assert_eq!(c("Serpent Soldier").image_number(), Some(79));
        assert_eq!(c("Serpent Home").image_number(), Some(84));
    }

    #[test]
    fn nth_walks_the_set_in_id_order() {
        let deck = CardSet::full_deck(true);
        let listed: Vec<Card> = deck.iter().collect();
        for (i, card) in listed.iter().enumerate() {
            assert_eq!(deck.nth(i), Some(*card));
        }
        assert_eq!(deck.nth(77), None);
    }
}
