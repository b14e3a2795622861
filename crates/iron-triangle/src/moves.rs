//! Actions, elements and the thirteen moves (IT-3 … IT-8, IT-48 checks 1–2).

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// The three actions, which are also the three energy types and stance types (IT-3).
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "iron-triangle/"))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    Defend,
    Grapple,
    Attack,
}

impl Action {
    pub const ALL: [Action; 3] = [Action::Defend, Action::Grapple, Action::Attack];

    /// Defend beats Attack, Grapple beats Defend, Attack beats Grapple (IT-3).
    pub fn beats(self, other: Action) -> bool {
        matches!(
            (self, other),
            (Action::Defend, Action::Attack)
                | (Action::Grapple, Action::Defend)
                | (Action::Attack, Action::Grapple)
        )
    }

    /// Index into per-type arrays (energy, zero marks).
    pub fn index(self) -> usize {
        self as usize
    }

    pub fn letter(self) -> char {
        match self {
            Action::Defend => 'D',
            Action::Grapple => 'G',
            Action::Attack => 'A',
        }
    }

    fn from_letter(c: char) -> Option<Action> {
        match c.to_ascii_uppercase() {
            'D' => Some(Action::Defend),
            'G' => Some(Action::Grapple),
            'A' => Some(Action::Attack),
            _ => None,
        }
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Action::Defend => "Defend",
            Action::Grapple => "Grapple",
            Action::Attack => "Attack",
        })
    }
}

/// The five elements (IT-4). Spin was called Dash in the older draft.
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "iron-triangle/"))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Element {
    Low,
    Mid,
    High,
    Jump,
    Spin,
}

impl Element {
    pub const ALL: [Element; 5] = [
        Element::Low,
        Element::Mid,
        Element::High,
        Element::Jump,
        Element::Spin,
    ];
    /// The three basic elements every starting character draws from.
    pub const BASIC: [Element; 3] = [Element::Low, Element::Mid, Element::High];

    /// The full relation of IT-5: each element beats exactly two others.
    pub fn beats(self, other: Element) -> bool {
        use Element::*;
        matches!(
            (self, other),
            (Low, High)
                | (Low, Spin)
                | (Mid, Low)
                | (Mid, Jump)
                | (High, Mid)
                | (High, Jump)
                | (Jump, Low)
                | (Jump, Spin)
                | (Spin, High)
                | (Spin, Mid)
        )
    }

    pub fn letter(self) -> char {
        match self {
            Element::Low => 'L',
            Element::Mid => 'M',
            Element::High => 'H',
            Element::Jump => 'J',
            Element::Spin => 'S',
        }
    }

    fn from_letter(c: char) -> Option<Element> {
        match c.to_ascii_uppercase() {
            'L' => Some(Element::Low),
            'M' => Some(Element::Mid),
            'H' => Some(Element::High),
            'J' => Some(Element::Jump),
            'S' => Some(Element::Spin),
            _ => None,
        }
    }

    /// The element as players say it ("Mid").
    pub fn word(self) -> &'static str {
        match self {
            Element::Low => "Low",
            Element::Mid => "Mid",
            Element::High => "High",
            Element::Jump => "Jump",
            Element::Spin => "Spin",
        }
    }

    /// Jump and Spin are the advanced elements (IT-8).
    pub fn is_basic(self) -> bool {
        matches!(self, Element::Low | Element::Mid | Element::High)
    }
}

/// One of the thirteen moves (IT-6), written `D-M`, `G-J`, … in JSON.
#[cfg_attr(
    feature = "ts",
    derive(ts_rs::TS),
    ts(export_to = "iron-triangle/", type = "string")
)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    pub action: Action,
    pub element: Element,
}

impl Move {
    /// Every move that exists: no Defend Jump or Defend Spin (IT-6, IT-8).
    pub const ALL: [Move; 13] = [
        Move::new(Action::Defend, Element::Low),
        Move::new(Action::Defend, Element::Mid),
        Move::new(Action::Defend, Element::High),
        Move::new(Action::Grapple, Element::Low),
        Move::new(Action::Grapple, Element::Mid),
        Move::new(Action::Grapple, Element::High),
        Move::new(Action::Grapple, Element::Jump),
        Move::new(Action::Grapple, Element::Spin),
        Move::new(Action::Attack, Element::Low),
        Move::new(Action::Attack, Element::Mid),
        Move::new(Action::Attack, Element::High),
        Move::new(Action::Attack, Element::Jump),
        Move::new(Action::Attack, Element::Spin),
    ];

    pub const fn new(action: Action, element: Element) -> Move {
        Move { action, element }
    }

    /// The move as the board and the log both call it: action and element ("Defend Mid"),
    /// never its code.
    pub fn words(self) -> String {
        format!("{} {}", self.action, self.element.word())
    }

    /// Whether the move is one of the thirteen (IT-8: no Defend Jump/Spin).
    pub fn exists(self) -> bool {
        self.action != Action::Defend || self.element.is_basic()
    }

    /// The opponent's loss when this move wins (IT-6).
    pub fn base(self) -> u32 {
        match self.action {
            Action::Defend => 2,
            Action::Grapple => 4,
            Action::Attack => 3,
        }
    }

    /// The stance multiplier (IT-6).
    pub fn multiplier(self) -> u32 {
        match (self.action, self.element) {
            (Action::Defend, _) => 1,
            (_, Element::Low | Element::Mid | Element::High) => 2,
            (Action::Grapple, Element::Jump) => 3,
            (Action::Grapple, Element::Spin) => 4,
            (Action::Attack, _) => 3,
        }
    }

    /// Jump and Spin moves need all nine basic moves first (IT-8).
    pub fn is_advanced(self) -> bool {
        !self.element.is_basic()
    }

    /// Shares the action or the element (the disadvantage test of IT-38).
    pub fn shares_with(self, other: Move) -> bool {
        self.action == other.action || self.element == other.element
    }

    /// Checks 1 and 2 of IT-48: the action decides, else the element. `None` = neither beats.
    pub fn beats_by_kind(self, other: Move) -> Option<bool> {
        if self.action.beats(other.action) {
            Some(true)
        } else if other.action.beats(self.action) {
            Some(false)
        } else if self.element.beats(other.element) {
            Some(true)
        } else if other.element.beats(self.element) {
            Some(false)
        } else {
            None
        }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.action.letter(), self.element.letter())
    }
}

/// A move code that is not one of the thirteen.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("“{0}” is not a move: write D-L, D-M, D-H, G-L … G-S, A-L … A-S")]
pub struct BadMove(pub String);

impl FromStr for Move {
    type Err = BadMove;
    fn from_str(s: &str) -> Result<Move, BadMove> {
        let bad = || BadMove(s.to_string());
        let mut chars = s.chars().filter(|c| *c != '-');
        let action = chars.next().and_then(Action::from_letter).ok_or_else(bad)?;
        let element = chars
            .next()
            .and_then(Element::from_letter)
            .ok_or_else(bad)?;
        let mv = Move::new(action, element);
        if chars.next().is_some() || !mv.exists() {
            return Err(bad());
        }
        Ok(mv)
    }
}

impl Serialize for Move {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Move {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Move, D::Error> {
        String::deserialize(d)?
            .parse()
            .map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(s: &str) -> Move {
        s.parse().unwrap()
    }

    #[test]
    fn it_3_each_action_beats_exactly_one() {
        assert!(Action::Defend.beats(Action::Attack)); // IT-3
        assert!(Action::Grapple.beats(Action::Defend)); // IT-3
        assert!(Action::Attack.beats(Action::Grapple)); // IT-3
        for a in Action::ALL {
            assert_eq!(Action::ALL.iter().filter(|b| a.beats(**b)).count(), 1);
            assert!(!a.beats(a));
        }
    }

    #[test]
    fn it_4_basic_cycle_and_it_5_full_table() {
        use Element::*;
        assert!(Low.beats(High) && Mid.beats(Low) && High.beats(Mid)); // IT-4
        // IT-5, row vs column: W = row wins, L = row loses.
        let table = [
            (Low, "=LWLW"),
            (Mid, "W=LWL"),
            (High, "LW=WL"),
            (Jump, "WLL=W"),
            (Spin, "LWWL="),
        ];
        for (row, cells) in table {
            for (col, cell) in Element::ALL.iter().zip(cells.chars()) {
                match cell {
                    'W' => assert!(row.beats(*col) && !col.beats(row), "{row:?} vs {col:?}"),
                    'L' => assert!(!row.beats(*col) && col.beats(row), "{row:?} vs {col:?}"),
                    _ => assert!(!row.beats(*col)),
                }
            }
            assert_eq!(Element::ALL.iter().filter(|c| row.beats(**c)).count(), 2); // IT-5
        }
    }

    #[test]
    fn it_6_thirteen_moves_with_base_and_multiplier() {
        let expected = [
            ("D-L", 2, 1),
            ("D-M", 2, 1),
            ("D-H", 2, 1),
            ("G-L", 4, 2),
            ("G-M", 4, 2),
            ("G-H", 4, 2),
            ("G-J", 4, 3),
            ("G-S", 4, 4),
            ("A-L", 3, 2),
            ("A-M", 3, 2),
            ("A-H", 3, 2),
            ("A-J", 3, 3),
            ("A-S", 3, 3),
        ];
        assert_eq!(Move::ALL.len(), 13); // IT-6
        for (code, base, mult) in expected {
            assert_eq!(
                (m(code).base(), m(code).multiplier()),
                (base, mult),
                "{code}"
            ); // IT-6
        }
    }

    #[test]
    fn it_8_no_defend_jump_or_spin() {
        assert!("D-J".parse::<Move>().is_err()); // IT-8
        assert!("D-S".parse::<Move>().is_err()); // IT-8
        assert!(m("G-J").is_advanced() && m("A-S").is_advanced() && !m("A-H").is_advanced());
    }

    #[test]
    fn tv_8_element_comparisons() {
        assert_eq!(m("G-J").beats_by_kind(m("G-S")), Some(true)); // TV-8
        assert_eq!(m("A-L").beats_by_kind(m("A-S")), Some(true)); // TV-8
        assert_eq!(m("A-M").beats_by_kind(m("A-J")), Some(true)); // TV-8
        assert_eq!(m("G-J").beats_by_kind(m("D-M")), Some(true)); // TV-8
    }

    #[test]
    fn move_codes_round_trip() {
        for mv in Move::ALL {
            assert_eq!(mv.to_string().parse::<Move>(), Ok(mv));
        }
        assert_eq!("gj".parse::<Move>(), Ok(m("G-J")));
        assert!(
            "X-L".parse::<Move>().is_err()
                && "G-LL".parse::<Move>().is_err()
                && "".parse::<Move>().is_err()
        );
    }
}
