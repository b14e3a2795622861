//! N-Dimensional Tourists draw odds, from the asking party's knowledge (§10.2).
//!
//! * **Breaking a set** (ND-17): the chance that the next `k` draws break a given set of cards,
//!   i.e. every target card is beaten (ND-3, the engine's [`crate::beats`]) by at least
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

use crate::probability::{Knowledge, at_least_reversed};
use crate::{Card, CardSet, beats};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Zero};
use serde::Serialize;

use clash_analysis::exact::{Probability, ratio};

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
    #[error("a bid line holds at most 5 reversed cards: at 5 the party is Wiped Out (ND-16)")]
    TooManyReversed,
    #[error(
        "a party with 5 reversed cards is Wiped Out and leaves the Conflict: it draws no more (ND-16)"
    )]
    WipedOut,
    #[error("the deck holds {deck} cards (ND-1{blanks}) and {already} of them are already in the bid line: at most {most} more draws, not {draws}", blanks = if *deck == u32::from(crate::cards::STANDARD_DECK) { "" } else { ", with the blanks of D-1" }, most = deck - already)]
    DeckExhausted { deck: u32, already: u32, draws: u32 },
    #[error(
        "{0} is a blank, and blanks are in play only when the table adds them (D-1): give --blanks"
    )]
    BlankNotInPlay(Card),
    #[error("{0} is listed twice, but the deck holds each card once (ND-1)")]
    Repeated(Card),
}

/// Read a comma-separated list of distinct cards (`"XIV, Paper Servant"`).
pub fn parse_card_set(text: &str) -> Result<CardSet, DrawError> {
    let mut set = CardSet::EMPTY;
    for card in parse_cards(text)? {
        if set.contains(card) {
            return Err(DrawError::Repeated(card));
        }
        set.insert(card);
    }
    Ok(set)
}

/// The cards of a question are cards in play: a blank only when the table added them (D-1).
fn check_in_play<'a>(
    cards: impl IntoIterator<Item = &'a Card>,
    blanks: bool,
) -> Result<(), DrawError> {
    match cards.into_iter().find(|c| c.is_blank() && !blanks) {
        Some(c) => Err(DrawError::BlankNotInPlay(*c)),
        None => Ok(()),
    }
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
    let pool = knowledge.deck().minus(knowledge.seen_out);
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
    /// The Loss as players call it.
    pub fn name(self) -> &'static str {
        match self {
            Severity::None => "no Loss",
            Severity::Temporary => "Temporary Loss",
            Severity::Lasting => "Lasting Loss",
            Severity::WipedOut => "Wiped Out",
        }
    }

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

/// Distribution of the reversed count after `draws` more draws from `already` reversed, from a
/// deck of 67 cards (77 with the blanks of D-1, `blanks`).
pub fn reversed_distribution(
    already: u32,
    draws: u32,
    blanks: bool,
) -> Result<Vec<(u32, BigRational)>, DrawError> {
    if already > 5 {
        return Err(DrawError::TooManyReversed);
    }
    if already == 5 && draws > 0 {
        return Err(DrawError::WipedOut);
    }
    let deck = u32::from(if blanks {
        crate::cards::DECK_WITH_BLANKS
    } else {
        crate::cards::STANDARD_DECK
    });
    if draws > deck - already {
        return Err(DrawError::DeckExhausted {
            deck,
            already,
            draws,
        });
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

pub fn reversed_report(
    already: u32,
    draws: u32,
    blanks: bool,
) -> Result<ReversedReport, DrawError> {
    let dist = reversed_distribution(already, draws, blanks)?;
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

///
/// The targets are face up in a bid line, so they are out of the deck: they count as seen
/// whether or not the question lists them (ND-4). Every card must be in play (D-1's blanks only
/// with `knowledge.blanks`).
/// The chance that the next `draws` cards break `targets`, with each target alone.
pub fn break_report(
    knowledge: &Knowledge,
    targets: &[Card],
    draws: usize,
) -> Result<BreakReport, DrawError> {
    let mut knowledge = *knowledge;
    check_in_play(targets, knowledge.blanks)?;
    check_in_play(
        &knowledge.seen_out.iter().collect::<Vec<_>>(),
        knowledge.blanks,
    )?;
    for t in targets {
        knowledge.seen_out.insert(*t);
    }
    let knowledge = &knowledge;
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
        candidates: knowledge.deck().minus(knowledge.seen_out).len(),
        breaks: Probability::of(&breaks),
        per_target,
    })
}

/// The engine's exact fractions, reported like every other probability.
impl From<crate::probability::Fraction> for Probability {
    fn from(f: crate::probability::Fraction) -> Self {
        Probability::of(&ratio(f.numerator, f.denominator))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clash_analysis::exact::is_distribution;
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
            left_out: CardSet::EMPTY,
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
            left_out: CardSet::EMPTY,
        };
        let p = break_probability(&k, &cards("XVI"), 1).unwrap();
        assert_eq!(Probability::of(&p).fraction, "5/53");
        assert_eq!(format!("{:.1}", Probability::of(&p).decimal * 100.0), "9.4");
        // With the 10 suit blanks (D-1): 5/63.
        let k = Knowledge {
            seen_out: known,
            unseen_out: 0,
            blanks: true,
            left_out: CardSet::EMPTY,
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
            left_out: CardSet::EMPTY,
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
            left_out: CardSet::EMPTY,
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
        let r = reversed_report(2, 1, false).unwrap();
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
        let d = reversed_distribution(4, 3, false).unwrap();
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
            left_out: CardSet::EMPTY,
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
            left_out: CardSet::EMPTY,
        };
        assert!(break_probability(&k, &cards("I"), 8).is_err());
    }

    #[test]
    fn nd_1_nd_16_reversed_draws_stay_within_the_deck_and_stop_at_a_wipe_out() {
        // ND-1: 67 cards; 2 are already in the bid line, so 65 more draws at most.
        assert!(reversed_distribution(2, 65, false).is_ok());
        let err = reversed_distribution(2, 66, false).unwrap_err();
        assert_eq!(
            err,
            DrawError::DeckExhausted {
                deck: 67,
                already: 2,
                draws: 66
            }
        );
        assert!(err.to_string().contains("ND-1"), "{err}");
        assert!(reversed_distribution(0, 101, false).is_err());
        // D-1: the blanks make 77.
        assert!(reversed_distribution(0, 77, true).is_ok());
        assert!(reversed_distribution(0, 78, true).is_err());
        // ND-16: at 5 reversed the party is Wiped Out and draws no more.
        assert_eq!(reversed_distribution(5, 1, false), Err(DrawError::WipedOut));
        assert_eq!(
            reversed_distribution(5, 0, false).unwrap(),
            vec![(5, ratio(1, 1))]
        );
        assert_eq!(
            reversed_distribution(6, 0, false),
            Err(DrawError::TooManyReversed)
        );
    }

    #[test]
    fn d_1_blanks_count_only_when_in_play() {
        let k = Knowledge {
            seen_out: seen("Blank Rock 1"),
            unseen_out: 0,
            blanks: false,
            left_out: CardSet::EMPTY,
        };
        let err = break_report(&k, &cards("XVI"), 1).unwrap_err();
        assert_eq!(err, DrawError::BlankNotInPlay(cards("Blank Rock 1")[0]));
        assert!(err.to_string().contains("D-1"));
        let k = Knowledge {
            seen_out: CardSet::EMPTY,
            unseen_out: 0,
            blanks: false,
            left_out: CardSet::EMPTY,
        };
        assert!(break_report(&k, &cards("Blank Paper 2"), 1).is_err());
        let k = Knowledge {
            seen_out: seen("Blank Rock 1"),
            unseen_out: 0,
            blanks: true,
            left_out: CardSet::EMPTY,
        };
        assert!(break_report(&k, &cards("XVI"), 1).is_ok());
    }

    #[test]
    fn nd_1_a_card_is_listed_once_and_nd_4_targets_are_out_of_the_deck() {
        assert_eq!(
            parse_card_set("XIV, IV, XIV"),
            Err(DrawError::Repeated(cards("XIV")[0]))
        );
        // XVI is face up in the Dominant's line, so it is not among the cards still to draw.
        let listed = Knowledge {
            seen_out: seen("XVI, XIV"),
            unseen_out: 0,
            blanks: false,
            left_out: CardSet::EMPTY,
        };
        let implied = Knowledge {
            seen_out: seen("XIV"),
            unseen_out: 0,
            blanks: false,
            left_out: CardSet::EMPTY,
        };
        let (a, b) = (
            break_report(&listed, &cards("XVI"), 2).unwrap(),
            break_report(&implied, &cards("XVI"), 2).unwrap(),
        );
        assert_eq!(a, b);
        assert_eq!(a.candidates, 65);
    }

    proptest! {
        #[test]
        fn single_draw_agrees_with_the_engine_helper(seen_ids in proptest::collection::vec(0u8..67, 0..40), target in 0u8..67, unseen in 0usize..5) {
            let seen_out: CardSet = seen_ids.iter().filter_map(|i| Card::from_id(*i)).collect();
            let k = Knowledge { seen_out, unseen_out: unseen, blanks: false, left_out: CardSet::EMPTY };
            let t = Card::from_id(target).unwrap();
            let ours = break_probability(&k, &[t], 1).ok();
            let engine = k.next_draw_beats(t).map(|f| ratio(f.numerator, f.denominator));
            prop_assert_eq!(ours, engine);
        }

        #[test]
        fn reversed_counts_are_an_exhaustive_distribution(already in 0u32..5, draws in 0u32..12) {
            let d = reversed_distribution(already, draws, false).unwrap();
            let qs: Vec<BigRational> = d.iter().map(|(_, p)| p.clone()).collect();
            prop_assert!(is_distribution(&qs));
        }

        #[test]
        fn more_draws_never_lower_the_break_chance(target in 1u8..67, draws in 1usize..6) {
            let k = Knowledge { seen_out: CardSet::EMPTY, unseen_out: 0, blanks: false, left_out: CardSet::EMPTY };
            let t = Card::from_id(target).unwrap();
            let a = break_probability(&k, &[t], draws).unwrap();
            let b = break_probability(&k, &[t], draws + 1).unwrap();
            prop_assert!(b >= a);
        }
    }
}
