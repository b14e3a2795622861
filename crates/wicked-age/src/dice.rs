//! The die chain (WA-1): d12 → d10 → d8 → d6 → d4 → 0.

use serde::{Deserialize, Serialize};

/// One place on the die chain. `Zero` means "no die": a form or strength that has lost its last
/// size. Written in JSON as the number of sides (`12`, `10`, `8`, `6`, `4`, `0`).
#[cfg_attr(
    feature = "ts",
    derive(ts_rs::TS),
    ts(export_to = "wicked-age/", type = "0 | 4 | 6 | 8 | 10 | 12")
)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(try_from = "u8", into = "u8")]
pub enum Die {
    Zero,
    D4,
    D6,
    D8,
    D10,
    D12,
}

impl Die {
    /// Every place on the chain, largest first.
    pub const CHAIN: [Die; 6] = [Die::D12, Die::D10, Die::D8, Die::D6, Die::D4, Die::Zero];

    /// Faces on the die (0 for no die).
    pub fn sides(self) -> u32 {
        match self {
            Die::Zero => 0,
            Die::D4 => 4,
            Die::D6 => 6,
            Die::D8 => 8,
            Die::D10 => 10,
            Die::D12 => 12,
        }
    }

    /// WA-1: one place to the right on the chain; 0 stays 0.
    pub fn step_down(self) -> Die {
        match self {
            Die::D12 => Die::D10,
            Die::D10 => Die::D8,
            Die::D8 => Die::D6,
            Die::D6 => Die::D4,
            Die::D4 | Die::Zero => Die::Zero,
        }
    }

    pub fn is_zero(self) -> bool {
        self == Die::Zero
    }
}

/// A number of sides that is not on the chain.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0} is not on the die chain d12, d10, d8, d6, d4, 0")]
pub struct NotOnChain(pub u8);

impl TryFrom<u8> for Die {
    type Error = NotOnChain;
    fn try_from(sides: u8) -> Result<Self, NotOnChain> {
        match sides {
            0 => Ok(Die::Zero),
            4 => Ok(Die::D4),
            6 => Ok(Die::D6),
            8 => Ok(Die::D8),
            10 => Ok(Die::D10),
            12 => Ok(Die::D12),
            other => Err(NotOnChain(other)),
        }
    }
}

impl From<Die> for u8 {
    fn from(d: Die) -> u8 {
        // sides() is at most 12.
        d.sides() as u8
    }
}

impl std::fmt::Display for Die {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Die::Zero => f.write_str("0"),
            d => write!(f, "d{}", d.sides()),
        }
    }
}

/// Dice as a player reads them: the dice left, a die at 0 left out (WA-8: it is not rolled),
/// "d6 and d4", "d4", or "no die" when every one is at 0.
pub fn dice_words(dice: &[Die]) -> String {
    let left: Vec<String> = dice
        .iter()
        .filter(|d| **d != Die::Zero)
        .map(|d| d.to_string())
        .collect();
    match left.as_slice() {
        [] => "no die".to_string(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wa_8_dice_read_without_the_zeros() {
        assert_eq!(dice_words(&[Die::D4, Die::Zero]), "d4");
        assert_eq!(dice_words(&[Die::D6, Die::D4]), "d6 and d4");
        assert_eq!(dice_words(&[Die::Zero, Die::Zero]), "no die");
    }

    #[test]
    fn wa_1_chain_steps_one_place_right_and_zero_stays_zero() {
        let mut d = Die::D12;
        let mut seen = vec![d];
        for _ in 0..6 {
            d = d.step_down();
            seen.push(d);
        }
        // WA-1
        assert_eq!(
            seen,
            [
                Die::D12,
                Die::D10,
                Die::D8,
                Die::D6,
                Die::D4,
                Die::Zero,
                Die::Zero
            ]
        );
    }

    #[test]
    fn wa_1_json_is_the_number_of_sides() {
        assert_eq!(serde_json::to_string(&Die::D10).unwrap(), "10");
        assert_eq!(serde_json::from_str::<Die>("0").unwrap(), Die::Zero);
        assert!(serde_json::from_str::<Die>("20").is_err());
    }
}
