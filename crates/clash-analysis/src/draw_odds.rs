//! N-Dimensional Tourists draw odds, from the asking party's knowledge (§10.2).
//!
//! * **Breaking a set** (ND-17): the chance that the next `k` draws break a given set of cards,
//!   i.e. every target card is beaten (ND-3, the engine's [`nd_tourists::beats`]) by at least
//!   one drawn card. As in the engine's probability helper, cards out of the deck but unseen
//!   are, by symmetry, as likely to be any unseen card as the deck is, so the `k` draws are a
//!   uniformly random `k`-subset of the cards the asker has not seen. Inclusion–exclusion over
//!   the targets gives the exact answer:
//!   `P = Σ_{S ⊆ targets} (−1)^|S| · C(N − |beats(S)|, k) / C(N, k)`, where `N` counts unseen
//!   cards and `beats(S)` those among them beating some card of `S`. For `k = 1` and one target
//!   it is the engine's [`Knowledge::next_draw_beats`] (checked in the tests).
//! * **Reversed cards** (ND-2, ND-21): starting from `r` reversed cards in the bid line, the
//!   distribution of the reversed count after `k` more draws (a fair coin each, through the
//!   engine's [`at_least_reversed`]), capped at 5 (Wiped Out), and the Loss it means.

use nd_tourists::probability::{Knowledge, at_least_reversed};
use nd_tourists::{Card, CardSet, beats};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Zero};
use serde::Serialize;

use crate::exact::{Probability, ratio};

/// Why a draw question has no answer.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DrawError {
    #[error("{0}")]
    UnknownCard(String),
    #[error(
        "the deck holds only {available} cards the asker has not seen ({unseen} more are out unseen): {draws} draws are impossible"
    )]
    NotEnoughCards {
        available: usize,
        unseen: usize,
        draws: usize,
    },
    #[error("give at most 20 target cards")]
    TooManyTargets,
    #[error("a bid line holds at most 5 reversed cards")]
    TooManyReversed,
}

/// Read a comma-separated list of card names (`"XIV, Paper Servant"`).
pub fn parse_cards(text: &str) -> Result<Vec<Card>, DrawError> {
    text.split(',')
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map(|t| {
            t.parse::<Card>()
                .map_err(|e| DrawError::UnknownCard(e.to_string()))
        })
        .collect()
}

fn choose(n: usize, k: usize) -> BigInt {
    if k > n {
        return BigInt::zero();
    }
    (0..k).fold(BigInt::one(), |acc, i| {
        acc * BigInt::from(n - i) / BigInt::from(i + 1)
    })
}

/// The chance that `draws` more cards break `targets` (each target beaten by some drawn card).
pub fn break_probability(
    knowledge: &Knowledge,
    targets: &[Card],
    draws: usize,
) -> Result<BigRational, DrawError> {
    if targets.len() > 20 {
        return Err(DrawError::TooManyTargets);
    }
    let pool = CardSet::full_deck(knowledge.blanks).minus(knowledge.seen_out);
    let n = pool.len();
    if n < knowledge.unseen_out + draws {
        return Err(DrawError::NotEnoughCards {
            available: n,
            unseen: knowledge.unseen_out,
            draws,
        });
    }
    // A vacuous set is broken by nothing at all (D-7).
    let mut sum = BigInt::zero();
    for subset in 0u32..(1 << targets.len()) {
        let chosen: Vec<Card> = (0..targets.len())
            .filter(|i| subset & (1 << i) != 0)
            .map(|i| targets[i])
            .collect();
        let beaters = pool.count(|c| chosen.iter().any(|t| beats(c, *t)));
        let avoid = choose(n - beaters, draws);
        if chosen.len().is_multiple_of(2) {
            sum += avoid
        } else {
            sum -= avoid
        }
    }
    Ok(BigRational::new(sum, choose(n, draws)))
}

/// The Loss a reversed count means at the end of the round (ND-21).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    None,
    Temporary,
    Lasting,
    WipedOut,
}

impl Severity {
    pub fn of(reversed: u32) -> Severity {
        match reversed {
            0 => Severity::None,
            1..=2 => Severity::Temporary,
            3..=4 => Severity::Lasting,
            _ => Severity::WipedOut,
        }
    }
}

/// One possible reversed count with its chance.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ReversedCount {
    pub reversed: u32,
    pub severity: Severity,
    pub probability: Probability,
}

/// Distribution of the reversed count after `draws` more draws from `already` reversed.
pub fn reversed_distribution(
    already: u32,
    draws: u32,
) -> Result<Vec<(u32, BigRational)>, DrawError> {
    if already > 5 {
        return Err(DrawError::TooManyReversed);
    }
    let at_least = |j: u32| -> BigRational {
        let f = at_least_reversed(draws, j);
        ratio(f.numerator, f.denominator)
    };
    let out = (already..=5)
        .map(|count| {
            let more = count - already;
            let p = if count == 5 {
                at_least(more)
            } else {
                at_least(more) - at_least(more + 1)
            };
            (count, p)
        })
        .filter(|(_, p)| !p.is_zero())
        .collect();
    Ok(out)
}

/// The reversed-count distribution grouped as a report, with the chance of each Loss.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ReversedReport {
    pub already: u32,
    pub draws: u32,
    pub counts: Vec<ReversedCount>,
    pub severities: Vec<(Severity, Probability)>,
}

pub fn reversed_report(already: u32, draws: u32) -> Result<ReversedReport, DrawError> {
    let dist = reversed_distribution(already, draws)?;
    let counts = dist
        .iter()
        .map(|(r, p)| ReversedCount {
            reversed: *r,
            severity: Severity::of(*r),
            probability: Probability::of(p),
        })
        .collect();
    let severities = [
        Severity::None,
        Severity::Temporary,
        Severity::Lasting,
        Severity::WipedOut,
    ]
    .into_iter()
    .filter_map(|s| {
        let p = dist
            .iter()
            .filter(|(r, _)| Severity::of(*r) == s)
            .fold(BigRational::zero(), |acc, (_, p)| acc + p);
        (!p.is_zero()).then(|| (s, Probability::of(&p)))
    })
    .collect();
    Ok(ReversedReport {
        already,
        draws,
        counts,
        severities,
    })
}

/// A break question as a report.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BreakReport {
    pub targets: Vec<Card>,
    pub draws: usize,
    pub seen_out: usize,
    pub unseen_out: usize,
    pub candidates: usize,
    pub breaks: Probability,
    /// For each target alone: the chance that some drawn card beats it.
    pub per_target: Vec<(Card, Probability)>,
}

pub fn break_report(
    knowledge: &Knowledge,
    targets: &[Card],
    draws: usize,
) -> Result<BreakReport, DrawError> {
    let breaks = break_probability(knowledge, targets, draws)?;
    let per_target = targets
        .iter()
        .map(|t| break_probability(knowledge, &[*t], draws).map(|p| (*t, Probability::of(&p))))
        .collect::<Result<_, _>>()?;
    Ok(BreakReport {
        targets: targets.to_vec(),
        draws,
        seen_out: knowledge.seen_out.len(),
        unseen_out: knowledge.unseen_out,
        candidates: CardSet::full_deck(knowledge.blanks)
            .minus(knowledge.seen_out)
            .len(),
        breaks: Probability::of(&breaks),
        per_target,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exact::is_distribution;
    use proptest::prelude::*;

    fn cards(t: &str) -> Vec<Card> {
        parse_cards(t).unwrap()
    }

    fn seen(t: &str) -> CardSet {
        cards(t).into_iter().collect()
    }

    const KAIJU: &str = "Paper Servant, Blades Dragon, Serpent Soldier, XIV, IV, Unknown Seeker, VIII, Serpent Ruler, VII, Blades Seeker, X, VI, XVI";

    #[test]
    fn spec_10_2_kaiju_claims() {
        // §10.2 Kaiju r1: 5 qualifying (XVII–XXI); the unseen NPC Reserve card: 5/54.
        let k = Knowledge {
            seen_out: seen(KAIJU),
            unseen_out: 1,
            blanks: false,
        };
        assert_eq!(
            Probability::of(&break_probability(&k, &cards("XVI"), 1).unwrap()).fraction,
            "5/54"
        );
        // Counting the Reserve as known and not qualifying: 5/53 ≈ 9.4%.
        let mut known = seen(KAIJU);
        known.insert("Rock Lover".parse().unwrap());
        let k = Knowledge {
            seen_out: known,
            unseen_out: 0,
            blanks: false,
        };
        let p = break_probability(&k, &cards("XVI"), 1).unwrap();
        assert_eq!(Probability::of(&p).fraction, "5/53");
        assert_eq!(format!("{:.1}", Probability::of(&p).decimal * 100.0), "9.4");
        // With the 10 suit blanks (D-1): 5/63.
        let k = Knowledge {
            seen_out: known,
            unseen_out: 0,
            blanks: true,
        };
        assert_eq!(
            Probability::of(&break_probability(&k, &cards("XVI"), 1).unwrap()).fraction,
            "5/63"
        );
    }

    #[test]
    fn spec_10_2_challenger_claims() {
        let round = "XV, Paper Home, IX, Serpent Treasure, Blades Treasure, Rock Seeker, Unknown Soldier, Serpent Home, Rock Home, XIV, IV, Serpent Soldier";
        // Unseen Reserves (3 cards): 6/55 ≈ 10.9%.
        let k = Knowledge {
            seen_out: seen(round),
            unseen_out: 3,
            blanks: false,
        };
        assert_eq!(
            Probability::of(&break_probability(&k, &cards("XV"), 1).unwrap()).fraction,
            "6/55"
        );
        // The table's figure, Reserves known and not qualifying: 6/52 ≈ 11.5%.
        let mut known = seen(round);
        for c in cards("Rock Ruler, Paper Lover, Blades Builder") {
            known.insert(c);
        }
        let k = Knowledge {
            seen_out: known,
            unseen_out: 0,
            blanks: false,
        };
        let p = break_probability(&k, &cards("XV"), 1).unwrap();
        assert_eq!(p, ratio(6, 52));
        assert_eq!(
            format!("{:.1}", Probability::of(&p).decimal * 100.0),
            "11.5"
        );
    }

    #[test]
    fn spec_10_2_lasting_loss_is_one_half() {
        // ANN holds 2 reversed; its next draw brings a Lasting Loss with probability exactly 1/2.
        let r = reversed_report(2, 1).unwrap();
        let lasting = r
            .severities
            .iter()
            .find(|(s, _)| *s == Severity::Lasting)
            .unwrap();
        assert_eq!(lasting.1.fraction, "1/2"); // ND-2, ND-21
    }

    #[test]
    fn nd_21_severity_bands_and_wipe_out_cap() {
        assert_eq!(Severity::of(0), Severity::None);
        assert_eq!(Severity::of(2), Severity::Temporary);
        assert_eq!(Severity::of(3), Severity::Lasting);
        assert_eq!(Severity::of(5), Severity::WipedOut);
        // 4 reversed and 3 more draws: Wiped Out unless all three are upright.
        let d = reversed_distribution(4, 3).unwrap();
        assert_eq!(d, vec![(4, ratio(1, 8)), (5, ratio(7, 8))]);
    }

    #[test]
    fn nd_17_break_needs_every_target_beaten() {
        // Fresh deck, one draw, targets {Rock Ruler, Paper Ruler}: only Triumphs beat both
        // (Paper beats Rock, Blades beats Paper, no suit beats both): 21/67.
        let k = Knowledge {
            seen_out: CardSet::EMPTY,
            unseen_out: 0,
            blanks: false,
        };
        assert_eq!(
            break_probability(&k, &cards("Rock Ruler, Paper Ruler"), 1).unwrap(),
            ratio(21, 67)
        );
        // XXI is never beaten.
        assert!(break_probability(&k, &cards("XXI"), 10).unwrap().is_zero());
        // An empty set is broken vacuously (D-7).
        assert_eq!(break_probability(&k, &[], 3).unwrap(), ratio(1, 1));
        // Too many draws.
        let k = Knowledge {
            seen_out: CardSet::EMPTY,
            unseen_out: 60,
            blanks: false,
        };
        assert!(break_probability(&k, &cards("I"), 8).is_err());
    }

    proptest! {
        #[test]
        fn single_draw_agrees_with_the_engine_helper(seen_ids in proptest::collection::vec(0u8..67, 0..40), target in 0u8..67, unseen in 0usize..5) {
            let seen_out: CardSet = seen_ids.iter().filter_map(|i| Card::from_id(*i)).collect();
            let k = Knowledge { seen_out, unseen_out: unseen, blanks: false };
            let t = Card::from_id(target).unwrap();
            let ours = break_probability(&k, &[t], 1).ok();
            let engine = k.next_draw_beats(t).map(|f| ratio(f.numerator, f.denominator));
            prop_assert_eq!(ours, engine);
        }

        #[test]
        fn reversed_counts_are_an_exhaustive_distribution(already in 0u32..6, draws in 0u32..12) {
            let d = reversed_distribution(already, draws).unwrap();
            let qs: Vec<BigRational> = d.iter().map(|(_, p)| p.clone()).collect();
            prop_assert!(is_distribution(&qs));
        }

        #[test]
        fn more_draws_never_lower_the_break_chance(target in 1u8..67, draws in 1usize..6) {
            let k = Knowledge { seen_out: CardSet::EMPTY, unseen_out: 0, blanks: false };
            let t = Card::from_id(target).unwrap();
            let a = break_probability(&k, &[t], draws).unwrap();
            let b = break_probability(&k, &[t], draws + 1).unwrap();
            prop_assert!(b >= a);
        }
    }
}
