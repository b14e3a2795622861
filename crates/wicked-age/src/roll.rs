//! Roll values and how a challenge and an answer compare (WA-11 to WA-13, WA-23).

use serde::{Deserialize, Serialize};

use crate::character::{NpcForm, PcForm};

/// A roll's value (WA-11): `p` = High + bonus dice, `t` = Low (the tie-breaker).
///
/// The derived order compares `p` first and `t` only when the `p`s are equal (WA-12).
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "wicked-age/"))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RollValue {
    pub p: u32,
    pub t: u32,
}

impl RollValue {
    pub fn new(p: u32, t: u32) -> Self {
        RollValue { p, t }
    }

    /// WA-11: High and Low from the form-die faces (one face only: Low 0), plus the bonus.
    pub fn from_faces(form_faces: &[u32], bonus: u32) -> Self {
        let mut faces = form_faces.to_vec();
        faces.sort_unstable_by(|a, b| b.cmp(a));
        let high = faces.first().copied().unwrap_or(0);
        let low = faces.get(1).copied().unwrap_or(0);
        RollValue {
            p: high + bonus,
            t: low,
        }
    }
}

impl RollValue {
    /// The value as a player reads it: the total, then the lower form die that breaks a tie
    /// between equal totals (WA-11, WA-12), "18, tie-break 1"; a roll without a second form
    /// die has no tie-break to tell.
    pub fn words(self) -> String {
        match self.t {
            0 => format!("{}", self.p),
            t => format!("{}, tie-break {t}", self.p),
        }
    }
}

impl std::fmt::Display for RollValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "({},{})", self.p, self.t)
    }
}

/// Which round's table applies (WA-23).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Table {
    /// Rounds 1 and 2: four bands.
    Ordinary,
    /// The last round (round 3 as written): no middle ground.
    Final,
}

impl Table {
    /// The table of round `round` of a conflict of `rounds` rounds (the rules: 3, WA-21).
    pub fn for_round(round: u8, rounds: u8) -> Table {
        if round >= rounds {
            Table::Final
        } else {
            Table::Ordinary
        }
    }
}

/// The result of answering a challenge (WA-23), in the spec's band order.
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "wicked-age/"))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    ChallengerKnockedOut,
    AnswererTakesAdvantage,
    ChallengerTakesAdvantage,
    AnswererKnockedOut,
}

impl Outcome {
    pub const ALL: [Outcome; 4] = [
        Outcome::ChallengerKnockedOut,
        Outcome::AnswererTakesAdvantage,
        Outcome::ChallengerTakesAdvantage,
        Outcome::AnswererKnockedOut,
    ];

    pub fn describe(self) -> &'static str {
        match self {
            Outcome::ChallengerKnockedOut => "the challenger is knocked out",
            Outcome::AnswererTakesAdvantage => "the answerer takes the Advantage die",
            Outcome::ChallengerTakesAdvantage => "the challenger takes the Advantage die",
            Outcome::AnswererKnockedOut => "the answerer is knocked out",
        }
    }
}

/// Compare an answer `a` with a challenge `c` under `table` (WA-12, WA-13, WA-23).
pub fn judge(a: RollValue, c: RollValue, table: Table) -> Outcome {
    match table {
        Table::Ordinary => {
            if a.p >= 2 * c.p {
                Outcome::ChallengerKnockedOut
            } else if a >= c {
                Outcome::AnswererTakesAdvantage
            } else if 2 * a.p > c.p {
                Outcome::ChallengerTakesAdvantage
            } else {
                Outcome::AnswererKnockedOut
            }
        }
        // Full equality knocks the challenger out in round 3 ([Decision]).
        Table::Final => {
            if a >= c {
                Outcome::ChallengerKnockedOut
            } else {
                Outcome::AnswererKnockedOut
            }
        }
    }
}

/// What a character rolls with: two PC forms (WA-3) or one NPC form (WA-7), and optionally a
/// Particular Strength the table agrees the action involves (WA-10).
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "wicked-age/"))]
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RollChoice {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub forms: Vec<PcForm>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub form: Option<NpcForm>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub strength: Option<String>,
}

impl RollChoice {
    pub fn is_empty(&self) -> bool {
        self.forms.is_empty() && self.form.is_none() && self.strength.is_none()
    }
}

/// Where a rolled die came from.
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "wicked-age/"))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum DieSource {
    PcForm {
        form: PcForm,
    },
    NpcForm {
        form: NpcForm,
    },
    /// The conflict's Advantage d6 (WA-20).
    Advantage,
    /// A cashed Owe d6 (WA-18).
    Owe,
    /// A Particular Strength's bonus die (WA-10).
    Strength {
        name: String,
    },
}

impl DieSource {
    pub fn is_form(&self) -> bool {
        matches!(self, DieSource::PcForm { .. } | DieSource::NpcForm { .. })
    }
}

/// One die thrown, with its face.
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "wicked-age/"))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(from = "DieRecord")]
pub struct RolledDie {
    #[serde(flatten)]
    pub source: DieSource,
    pub sides: u32,
    pub face: u32,
}

/// A rolled die as read back, refusing unknown fields (which a flattened source would hide).
#[derive(Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
enum DieRecord {
    PcForm {
        form: PcForm,
        sides: u32,
        face: u32,
    },
    NpcForm {
        form: NpcForm,
        sides: u32,
        face: u32,
    },
    Advantage {
        sides: u32,
        face: u32,
    },
    Owe {
        sides: u32,
        face: u32,
    },
    Strength {
        name: String,
        sides: u32,
        face: u32,
    },
}

impl From<DieRecord> for RolledDie {
    fn from(r: DieRecord) -> RolledDie {
        let (source, sides, face) = match r {
            DieRecord::PcForm { form, sides, face } => (DieSource::PcForm { form }, sides, face),
            DieRecord::NpcForm { form, sides, face } => (DieSource::NpcForm { form }, sides, face),
            DieRecord::Advantage { sides, face } => (DieSource::Advantage, sides, face),
            DieRecord::Owe { sides, face } => (DieSource::Owe, sides, face),
            DieRecord::Strength { name, sides, face } => {
                (DieSource::Strength { name }, sides, face)
            }
        };
        RolledDie {
            source,
            sides,
            face,
        }
    }
}

/// A complete roll: every die thrown and the value they make.
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "wicked-age/"))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Roll {
    pub dice: Vec<RolledDie>,
    pub value: RollValue,
}

impl Roll {
    /// Build the value from the dice (WA-11): bonus dice never stand in for High or Low.
    pub fn from_dice(dice: Vec<RolledDie>) -> Roll {
        let forms: Vec<u32> = dice
            .iter()
            .filter(|d| d.source.is_form())
            .map(|d| d.face)
            .collect();
        let bonus = dice
            .iter()
            .filter(|d| !d.source.is_form())
            .map(|d| d.face)
            .sum();
        let value = RollValue::from_faces(&forms, bonus);
        Roll { dice, value }
    }

    /// Sizes of the form dice, largest first (WA-16).
    pub fn form_sizes(&self) -> Vec<u32> {
        let mut sizes: Vec<u32> = self
            .dice
            .iter()
            .filter(|d| d.source.is_form())
            .map(|d| d.sides)
            .collect();
        sizes.sort_unstable_by(|a, b| b.cmp(a));
        sizes
    }

    /// The strength whose die this roll added, if any.
    pub fn strength(&self) -> Option<&str> {
        self.dice.iter().find_map(|d| match &d.source {
            DieSource::Strength { name } => Some(name.as_str()),
            _ => None,
        })
    }
}

/// WA-16: is dice set `a` bigger than `b`? Largest first, position by position; a missing die
/// counts as nothing, so the first difference decides and equal sets are not bigger.
pub fn bigger_dice(a: &[u32], b: &[u32]) -> bool {
    let mut a = a.to_vec();
    let mut b = b.to_vec();
    a.sort_unstable_by(|x, y| y.cmp(x));
    b.sort_unstable_by(|x, y| y.cmp(x));
    let n = a.len().max(b.len());
    for i in 0..n {
        let x = a.get(i).copied().unwrap_or(0);
        let y = b.get(i).copied().unwrap_or(0);
        if x != y {
            return x > y;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wa_11_a_value_reads_as_total_and_tie_break() {
        assert_eq!(RollValue::new(18, 1).words(), "18, tie-break 1");
        assert_eq!(RollValue::new(7, 0).words(), "7");
    }

    fn v(p: u32, t: u32) -> RollValue {
        RollValue::new(p, t)
    }

    #[test]
    fn wa_11_high_plus_bonus_low_breaks_ties() {
        // WA-11: equal faces give both that number; one die gives Low 0.
        assert_eq!(RollValue::from_faces(&[3, 3], 6), v(9, 3));
        assert_eq!(RollValue::from_faces(&[4], 0), v(4, 0));
        assert_eq!(RollValue::from_faces(&[2, 4], 5), v(9, 2));
    }

    #[test]
    fn wa_12_p_first_then_t() {
        // WA-12
        assert!(v(9, 1) > v(8, 8));
        assert!(v(8, 5) > v(8, 2));
        assert_eq!(v(8, 5).cmp(&v(8, 5)), std::cmp::Ordering::Equal);
    }

    #[test]
    fn wa_13_ratio_tests_use_p_alone_inclusive() {
        // WA-13: doubling is inclusive and ignores T.
        assert_eq!(
            judge(v(10, 1), v(5, 4), Table::Ordinary),
            Outcome::ChallengerKnockedOut
        );
        // half or less, inclusive.
        assert_eq!(
            judge(v(5, 9), v(10, 1), Table::Ordinary),
            Outcome::AnswererKnockedOut
        );
        // the tie-breaker only matters on equal P.
        assert_eq!(
            judge(v(8, 5), v(8, 5), Table::Ordinary),
            Outcome::AnswererTakesAdvantage
        );
        assert_eq!(
            judge(v(8, 2), v(8, 5), Table::Ordinary),
            Outcome::ChallengerTakesAdvantage
        );
    }

    #[test]
    fn wa_23_round_three_has_no_middle_ground() {
        // WA-23: equality knocks out the challenger in round 3.
        assert_eq!(
            judge(v(7, 3), v(7, 3), Table::Final),
            Outcome::ChallengerKnockedOut
        );
        assert_eq!(
            judge(v(7, 2), v(7, 3), Table::Final),
            Outcome::AnswererKnockedOut
        );
        assert_eq!(
            judge(v(20, 3), v(7, 3), Table::Final),
            Outcome::ChallengerKnockedOut
        );
    }

    #[test]
    fn wa_16_bigger_dice_compares_position_by_position() {
        // WA-16
        assert!(bigger_dice(&[12, 4], &[10, 10]));
        assert!(bigger_dice(&[10, 8], &[10, 6]));
        assert!(!bigger_dice(&[10, 6], &[10, 6]));
        assert!(bigger_dice(&[10, 6], &[8, 6]));
        assert!(bigger_dice(&[6, 4], &[6]));
    }
}
