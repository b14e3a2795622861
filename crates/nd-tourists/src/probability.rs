//! Exact odds for the decisions S1's players reason about (§10.2): will my next card beat that
//! one, and how likely are k more draws to bring n reversed cards?
//!
//! Answers are reduced fractions. The draw odds take the asker's knowledge: cards *seen* out of
//! the deck (discards, bid lines, Loss lines, the asker's own Reserve) and a count of cards out of
//! the deck but *unseen* (other parties' Reserves). An unseen card is equally likely to be any
//! card the asker has not seen, so by symmetry the chance that the next draw qualifies is the
//! share of qualifying cards among all unseen-by-me cards; the unseen count only bounds what is
//! possible (the deck must still hold a card).

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::cards::{Card, CardSet, beats};
use crate::state::{PartyId, State};

/// A non-negative fraction in lowest terms.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fraction {
    pub numerator: u128,
    pub denominator: u128,
}

fn gcd(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

impl Fraction {
    /// `n/d` reduced; `None` when `d` is 0.
    pub fn new(n: u128, d: u128) -> Option<Fraction> {
        if d == 0 {
            return None;
        }
        let g = gcd(n, d).max(1);
        Some(Fraction {
            numerator: n / g,
            denominator: d / g,
        })
    }

    pub fn to_f64(self) -> f64 {
        self.numerator as f64 / self.denominator as f64
    }
}

impl fmt::Display for Fraction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.numerator, self.denominator)
    }
}

/// What the asker knows about where the cards are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Knowledge {
    /// Cards the asker has seen leave the deck.
    pub seen_out: CardSet,
    /// How many further cards are out of the deck without the asker knowing which.
    pub unseen_out: usize,
    /// Whether the 10 suit blanks are in the deck (D-1).
    pub blanks: bool,
    /// Printed cards the table's variant leaves out of the deck ([`crate::variant::Rules::left_out`]).
    pub left_out: CardSet,
}

impl Knowledge {
    /// Every card in play at this table (ND-1, D-1 and the variant's deck).
    pub fn deck(&self) -> CardSet {
        CardSet::full_deck(self.blanks).minus(self.left_out)
    }

    /// Cards that may still be drawn as far as the asker can tell.
    fn candidates(&self) -> CardSet {
        self.deck().minus(self.seen_out)
    }

    /// Probability that the next draw satisfies `qualifies`; `None` if the deck must be empty.
    pub fn next_draw(&self, qualifies: impl Fn(Card) -> bool) -> Option<Fraction> {
        let pool = self.candidates();
        if pool.len() <= self.unseen_out {
            return None;
        }
        Fraction::new(pool.count(qualifies) as u128, pool.len() as u128)
    }

    /// ND-3: probability that the next draw beats `target`.
    pub fn next_draw_beats(&self, target: Card) -> Option<Fraction> {
        self.next_draw(|c| beats(c, target))
    }

    /// What `party` knows in `state`: everything on the table and its own Reserve are seen,
    /// the other parties' Reserves are only counted.
    pub fn of_party(state: &State, party: PartyId) -> Knowledge {
        let mut seen = state.discard;
        let mut unseen = 0;
        for (i, p) in state.parties.iter().enumerate() {
            seen = seen.union(p.cards_on_table());
            for ch in &p.characters {
                if i == party as usize {
                    seen = seen.union(ch.reserve.iter().map(|r| r.card).collect());
                } else {
                    unseen += ch.reserve.len();
                }
            }
        }
        Knowledge {
            seen_out: seen,
            unseen_out: unseen,
            blanks: state.table.blanks,
            left_out: state.table.rules.left_out(),
        }
    }
}

/// ND-2: probability that `draws` more cards bring at least `needed` reversed ones, each draw
/// reversed with probability 1/2 independently of the deck.
pub fn at_least_reversed(draws: u32, needed: u32) -> Fraction {
    let draws = draws.min(100);
    if needed == 0 {
        return Fraction {
            numerator: 1,
            denominator: 1,
        };
    }
    let mut ways: u128 = 0;
    let mut binom: u128 = 1; // C(draws, i)
    for i in 0..=draws {
        if i >= needed {
            ways += binom;
        }
        binom = binom * u128::from(draws - i) / u128::from(i + 1);
    }
    Fraction::new(ways, 1u128 << draws).unwrap_or(Fraction {
        numerator: 0,
        denominator: 1,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(name: &str) -> Card {
        name.parse().unwrap()
    }

    fn set(names: &[&str]) -> CardSet {
        names.iter().map(|n| c(n)).collect()
    }

    /// The 13 cards on the table when TMDF reasons in TV-4 (after L's `XVI↓`).
    const KAIJU_DRAWN: [&str; 13] = [
        "Paper Servant",
        "Blades Dragon",
        "Serpent Soldier",
        "XIV",
        "IV",
        "Unknown Seeker",
        "VIII",
        "Serpent Ruler",
        "VII",
        "Blades Seeker",
        "X",
        "VI",
        "XVI",
    ];

    #[test]
    fn tv_kaiju_round_one_claim_is_5_in_53_with_the_reserve_known() {
        // §10.2: Levinulon's Reserve card (not a high Triumph) known and out: 5/53.
        let mut seen = set(&KAIJU_DRAWN);
        seen.insert(c("Rock Lover"));
        let k = Knowledge {
            seen_out: seen,
            unseen_out: 0,
            blanks: false,
            left_out: CardSet::EMPTY,
        };
        assert_eq!(k.next_draw_beats(c("XVI")).unwrap().to_string(), "5/53");
        // Unknown Reserve: 5/54, as a party that cannot see it reckons.
        let k = Knowledge {
            seen_out: set(&KAIJU_DRAWN),
            unseen_out: 1,
            blanks: false,
            left_out: CardSet::EMPTY,
        };
        assert_eq!(k.next_draw_beats(c("XVI")).unwrap().to_string(), "5/54");
        // With the 10 suit blanks of D-1: 5/63.
        let mut seen = set(&KAIJU_DRAWN);
        seen.insert(c("Rock Lover"));
        let k = Knowledge {
            seen_out: seen,
            unseen_out: 0,
            blanks: true,
            left_out: CardSet::EMPTY,
        };
        assert_eq!(k.next_draw_beats(c("XVI")).unwrap().to_string(), "5/63");
    }

    /// The round-2 state of the new-challenger Conflict: 9 drawn this round, 3 Loss cards.
    fn challenger_seen() -> CardSet {
        set(&[
            "XV",
            "Paper Home",
            "IX",
            "Serpent Treasure",
            "Blades Treasure",
            "Rock Seeker",
            "Unknown Soldier",
            "Serpent Home",
            "Rock Home",
            // Temporary Loss cards from round 1 (XVI was reshuffled).
            "XIV",
            "IV",
            "Serpent Soldier",
        ])
    }

    #[test]
    fn tv_challenger_round_two_claims() {
        // §10.2: 3 known non-qualifying Reserve cards out: 6/52.
        let mut seen = challenger_seen();
        for r in ["Rock Ruler", "Paper Lover", "Blades Builder"] {
            seen.insert(c(r));
        }
        let k = Knowledge {
            seen_out: seen,
            unseen_out: 0,
            blanks: false,
            left_out: CardSet::EMPTY,
        };
        assert_eq!(k.next_draw_beats(c("XV")).unwrap().to_string(), "3/26"); // = 6/52
        assert_eq!(
            k.next_draw_beats(c("XV")).unwrap(),
            Fraction::new(6, 52).unwrap()
        );
        // Unknown Reserves: 6/55.
        let k = Knowledge {
            seen_out: challenger_seen(),
            unseen_out: 3,
            blanks: false,
            left_out: CardSet::EMPTY,
        };
        assert_eq!(
            k.next_draw_beats(c("XV")).unwrap(),
            Fraction::new(6, 55).unwrap()
        );
        // Counting only this round: 6/58.
        let only_round = challenger_seen().minus(set(&["XIV", "IV", "Serpent Soldier"]));
        let k = Knowledge {
            seen_out: only_round,
            unseen_out: 0,
            blanks: false,
            left_out: CardSet::EMPTY,
        };
        assert_eq!(
            k.next_draw_beats(c("XV")).unwrap(),
            Fraction::new(6, 58).unwrap()
        );
        // Blanks in (10 suit blanks): 6/62.
        let mut seen = challenger_seen();
        for r in ["Rock Ruler", "Paper Lover", "Blades Builder"] {
            seen.insert(c(r));
        }
        let k = Knowledge {
            seen_out: seen,
            unseen_out: 0,
            blanks: true,
            left_out: CardSet::EMPTY,
        };
        assert_eq!(
            k.next_draw_beats(c("XV")).unwrap(),
            Fraction::new(6, 62).unwrap()
        );
    }

    #[test]
    fn nd2_lasting_loss_on_the_next_draw_is_one_half() {
        // §10.2: ANN holds 2 reversed; one more reversed card makes 3 (ND-21 Lasting).
        assert_eq!(at_least_reversed(1, 1).to_string(), "1/2"); // ND-2
        assert_eq!(at_least_reversed(2, 1).to_string(), "3/4");
        assert_eq!(at_least_reversed(5, 5).to_string(), "1/32");
        assert_eq!(at_least_reversed(3, 0).to_string(), "1/1");
        assert_eq!(at_least_reversed(2, 3).to_string(), "0/1");
    }

    #[test]
    fn an_exhausted_deck_has_no_odds() {
        let k = Knowledge {
            seen_out: CardSet::full_deck(false),
            unseen_out: 0,
            blanks: false,
            left_out: CardSet::EMPTY,
        };
        assert_eq!(k.next_draw_beats(c("I")), None);
        let k = Knowledge {
            seen_out: CardSet::EMPTY,
            unseen_out: 67,
            blanks: false,
            left_out: CardSet::EMPTY,
        };
        assert_eq!(k.next_draw_beats(c("I")), None);
    }
}
