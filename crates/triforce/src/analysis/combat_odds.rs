//! Triforce combat odds (TF-23 … TF-26): for one combat among 2–6 participants, each fighting
//! plain, with the sword or with the shield, the exact chance that each participant loses (a
//! piece, or the sword or shield it used) and the distribution of the set of losers.
//!
//! The dice are the engine's ([`crate::combat`]: a d12 each, the sword user adds the black
//! d12, the shield user rolls only the d20). Losers are the participants whose key
//! (total, rank) is the smallest, rank being sword 2 > plain 1 > shield 0 (TF-25). The engine
//! keeps that key private, so it is restated here as [`rank`]; the test
//! `matches_the_engine_on_every_face` rolls every face combination through the engine's own
//! [`crate::combat::fight`] and checks the two agree exactly.
//!
//! The distribution is computed by convolution over each participant's totals, never by listing
//! throws: `P(set S loses) = Σ_k Π_{i∈S} P(key_i = k) · Π_{j∉S} P(key_j > k)`.

use crate::Gear;
use crate::variant::Dice;
use num_bigint::BigInt;
use num_rational::BigRational;
use serde::Serialize;

use clash_analysis::exact::{Probability, ratio};

/// Why a combat cannot be analysed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CombatError {
    #[error(
        "a combat has 2 to 6 participants (TF-5: 3 to 6 players; TF-21: two or more of them in a contested stack), not {0}"
    )]
    Participants(usize),
    #[error("a stack holds at most one sword and one shield (TF-22)")]
    TooMuchGear,
    #[error("{0:?} is not a participant: write plain, sword or shield")]
    BadGear(String),
}

/// Read `plain`, `sword` or `shield` (also `p`, `k`/`sword`, `c`/`shield` as in the spec's
/// stack notation).
pub fn parse_gear(text: &str) -> Result<Gear, CombatError> {
    match text.trim().to_ascii_lowercase().as_str() {
        "plain" | "p" | "none" | "d12" => Ok(Gear::None),
        "sword" | "k" | "black" => Ok(Gear::Sword),
        "shield" | "c" | "clear" => Ok(Gear::Shield),
        other => Err(CombatError::BadGear(other.to_string())),
    }
}

/// Ways to roll each total (index = total) and the number of equally likely throws.
fn totals(gear: Gear, dice: Dice) -> (Vec<u64>, u64) {
    let die = |sides: u32| -> Vec<u64> { (0..=sides).map(|t| u64::from(t > 0)).collect() };
    match gear {
        Gear::None => (die(dice.player), u64::from(dice.player)),
        Gear::Shield => (die(dice.shield), u64::from(dice.shield)),
        Gear::Sword => {
            let mut sums = vec![0u64; (dice.player + dice.sword + 1) as usize];
            for a in 1..=dice.player {
                for b in 1..=dice.sword {
                    sums[(a + b) as usize] += 1;
                }
            }
            (sums, u64::from(dice.player * dice.sword))
        }
    }
}

/// One participant's key distribution: counts of each total, with its fixed rank.
struct Fighter {
    rank: u8,
    counts: Vec<u64>,
    throws: u64,
}

impl Fighter {
    fn new(gear: Gear, dice: Dice) -> Fighter {
        let (counts, throws) = totals(gear, dice);
        Fighter {
            rank: gear.rank(),
            counts,
            throws,
        }
    }

    /// Throws whose key is exactly (total, rank).
    fn equal(&self, total: usize, rank: u8) -> u64 {
        if rank == self.rank {
            self.counts.get(total).copied().unwrap_or(0)
        } else {
            0
        }
    }

    /// Throws whose key is strictly greater than (total, rank).
    fn above(&self, total: usize, rank: u8) -> u64 {
        let higher: u64 = self.counts.iter().skip(total + 1).sum();
        let same = if self.rank > rank {
            self.counts.get(total).copied().unwrap_or(0)
        } else {
            0
        };
        higher + same
    }
}

/// The result of one combat's dice.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CombatReport {
    pub participants: Vec<Gear>,
    /// Chance that participant `i` is among the losers (TF-25).
    pub loses: Vec<Probability>,
    /// Every possible set of losers (indices into `participants`) with its chance; these add up
    /// to exactly 1.
    pub loser_sets: Vec<LoserSet>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LoserSet {
    pub losers: Vec<usize>,
    pub probability: Probability,
}

/// Exact loss odds of one combat with the rules' dice (TF-4: d12s and the shield's d20).
pub fn combat(participants: &[Gear]) -> Result<CombatReport, CombatError> {
    combat_with(participants, Dice::default())
}

/// Exact loss odds of one combat with `dice` (a variant's, TF-24).
pub fn combat_with(participants: &[Gear], dice: Dice) -> Result<CombatReport, CombatError> {
    let sets = loser_sets(participants, dice)?;
    let n = participants.len();
    let loses = (0..n)
        .map(|i| {
            let p = sets
                .iter()
                .filter(|(mask, _)| mask & (1 << i) != 0)
                .fold(ratio(0, 1), |acc, (_, q)| acc + q);
            Probability::of(&p)
        })
        .collect();
    let loser_sets = sets
        .iter()
        .map(|(mask, q)| LoserSet {
            losers: (0..n).filter(|i| mask & (1 << i) != 0).collect(),
            probability: Probability::of(q),
        })
        .collect();
    Ok(CombatReport {
        participants: participants.to_vec(),
        loses,
        loser_sets,
    })
}

/// `(bitmask of losers, probability)` for every set with a chance above 0.
pub fn loser_sets(
    participants: &[Gear],
    dice: Dice,
) -> Result<Vec<(u32, BigRational)>, CombatError> {
    let n = participants.len();
    if !(2..=6).contains(&n) {
        return Err(CombatError::Participants(n));
    }
    let count = |g: Gear| participants.iter().filter(|p| **p == g).count();
    if count(Gear::Sword) > 1 || count(Gear::Shield) > 1 {
        return Err(CombatError::TooMuchGear);
    }
    let fighters: Vec<Fighter> = participants
        .iter()
        .map(|g| Fighter::new(*g, dice))
        .collect();
    let all: u128 = fighters.iter().map(|f| u128::from(f.throws)).product();
    let max_total = fighters.iter().map(|f| f.counts.len()).max().unwrap_or(0);
    let mut out = Vec::new();
    for mask in 1u32..(1 << n) {
        let mut ways: u128 = 0;
        for rank in 0..=2u8 {
            for total in 1..max_total {
                let w = fighters.iter().enumerate().try_fold(1u128, |acc, (i, f)| {
                    let c = if mask & (1 << i) != 0 {
                        f.equal(total, rank)
                    } else {
                        f.above(total, rank)
                    };
                    (c > 0).then_some(acc * u128::from(c))
                });
                ways += w.unwrap_or(0);
            }
        }
        if ways > 0 {
            out.push((mask, ratio(BigInt::from(ways), BigInt::from(all))));
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::combat::{PLAYER_DIE, SHIELD_DIE, SWORD_DIE};
    use crate::{Pos, Setup, StartIn};
    use clash_analysis::exact::is_distribution;
    use clash_core::{Scripted, ScriptedRandomness, Seat};
    use proptest::prelude::*;
    use std::collections::BTreeMap;

    fn p(n: i64, d: i64) -> BigRational {
        ratio(n, d)
    }

    #[test]
    fn two_plain_players_tf_25() {
        // Equal totals (1/12) make both lose; otherwise exactly the lower one.
        let r = loser_sets(&[Gear::None, Gear::None], Dice::default()).unwrap();
        let get = |m: u32| {
            r.iter()
                .find(|(k, _)| *k == m)
                .map(|(_, q)| q.clone())
                .unwrap()
        };
        assert_eq!(get(0b11), p(1, 12)); // TF-25: tied plain players all lose
        assert_eq!(get(0b01), p(11, 24));
        assert_eq!(get(0b10), p(11, 24));
    }

    #[test]
    fn sword_against_shield_tf_24_tf_25() {
        // Shield loses ties with the sword (TF-25); the two never both lose.
        let r = combat(&[Gear::Sword, Gear::Shield]).unwrap();
        assert_eq!(r.loser_sets.len(), 2);
        let sword_loses = r.loses[0].exact().unwrap();
        // P(d12+d12 < d20): count over 144 × 20 throws.
        let mut n = 0;
        for a in 1..=12 {
            for b in 1..=12 {
                for c in 1..=20 {
                    n += i64::from(a + b < c);
                }
            }
        }
        assert_eq!(sword_loses, p(n, 2880));
    }

    #[test]
    fn misuse_is_refused() {
        assert_eq!(
            combat(&[Gear::None]).unwrap_err(),
            CombatError::Participants(1)
        );
        assert_eq!(
            combat(&[Gear::None; 7]).unwrap_err(),
            CombatError::Participants(7)
        );
        assert_eq!(
            combat(&[Gear::Sword, Gear::Sword]).unwrap_err(),
            CombatError::TooMuchGear
        );
        assert!(parse_gear("axe").is_err());
        assert_eq!(parse_gear("Shield"), Ok(Gear::Shield));
    }

    /// Run every face combination of one combat through the engine's own `fight` and count
    /// the loser sets; the convolution must give exactly the same fractions.
    fn engine_counts(stack: &str) -> (Vec<Gear>, BTreeMap<u32, u64>, u64) {
        let mut setup = Setup::new(3);
        setup.board.insert(
            8,
            stack
                .split_whitespace()
                .map(|t| t.parse().unwrap())
                .collect(),
        );
        setup.start_in = StartIn::Combat;
        let state = <crate::Triforce as clash_core::Ruleset>::setup(&setup).unwrap();
        let at = Pos::number(8).unwrap();
        // Learn who rolls what from one fight with fixed dice.
        let probe =
            crate::combat::fight(&state, at, &mut ScriptedRandomness::new([]).then_seeded(1))
                .unwrap();
        let gears: Vec<Gear> = probe.rolls.as_slice().iter().map(|r| r.gear).collect();
        let dice: Vec<u32> = gears
            .iter()
            .flat_map(|g| match g {
                Gear::None => vec![PLAYER_DIE],
                Gear::Sword => vec![PLAYER_DIE, SWORD_DIE],
                Gear::Shield => vec![SHIELD_DIE],
            })
            .collect();
        let seats: Vec<Seat> = probe.rolls.as_slice().iter().map(|r| r.seat).collect();
        let mut counts = BTreeMap::new();
        let mut faces = vec![1u32; dice.len()];
        let mut total = 0;
        loop {
            let mut rng = ScriptedRandomness::new(faces.iter().map(|f| Scripted::Die(*f)));
            let battle = crate::combat::fight(&state, at, &mut rng).unwrap();
            let mask = battle.losses.as_slice().iter().fold(0u32, |m, l| {
                m | 1 << seats.iter().position(|s| *s == l.seat).unwrap()
            });
            *counts.entry(mask).or_insert(0) += 1;
            total += 1;
            // Next face combination (odometer).
            let mut k = 0;
            while k < faces.len() && faces[k] == dice[k] {
                faces[k] = 1;
                k += 1;
            }
            if k == faces.len() {
                break;
            }
            faces[k] += 1;
        }
        (gears, counts, total)
    }

    #[test]
    fn matches_the_engine_on_every_face() {
        for stack in [
            "p3-M p1-L p3-S p1-M",    // TV-6: two plain players
            "p3-M K-L p3-S p1-M",     // TV-7: sword (p1) against plain (p3)
            "p2-L K-S C-M p1-S",      // TV-8: sword (p1) against shield (p2)
            "p1-S C-M p2-S K-L p1-M", // TV-11: p1 is T and B, so only the shield counts
            "p2-S p1-M p3-S p2-L",    // TV-9: three plain players
        ] {
            let (gears, counts, total) = engine_counts(stack);
            let ours = loser_sets(&gears, Dice::default()).unwrap();
            assert_eq!(ours.len(), counts.len(), "{stack}");
            for (mask, q) in ours {
                let n = counts.get(&mask).copied().unwrap_or(0);
                assert_eq!(q, ratio(n, total), "{stack}: losers {mask:b}");
            }
        }
    }

    fn gear() -> impl Strategy<Value = Gear> {
        prop_oneof![Just(Gear::None), Just(Gear::Sword), Just(Gear::Shield)]
    }

    proptest! {
        #[test]
        fn loser_sets_are_an_exhaustive_distribution(gs in proptest::collection::vec(gear(), 2..7)) {
            let swords = gs.iter().filter(|g| **g == Gear::Sword).count();
            let shields = gs.iter().filter(|g| **g == Gear::Shield).count();
            prop_assume!(swords <= 1 && shields <= 1);
            let sets = loser_sets(&gs, Dice::default()).unwrap();
            let qs: Vec<BigRational> = sets.iter().map(|(_, q)| q.clone()).collect();
            prop_assert!(is_distribution(&qs));
            // Tied losers always share a rank, so no set mixes gear.
            for (mask, _) in &sets {
                let ranks: std::collections::BTreeSet<u8> = (0..gs.len()).filter(|i| mask & (1 << i) != 0).map(|i| gs[i].rank()).collect();
                prop_assert_eq!(ranks.len(), 1);
            }
        }
    }
}
