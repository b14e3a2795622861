//! One round of Morra as a two-player zero-sum game: the row player's points minus the column
//! player's for every pair of hands (MO-9 to MO-11), solved exactly with the generic matrix-game
//! solver. The game is symmetric, so its value is 0 and either player may use the same mix.

use std::sync::OnceLock;

use clash_analysis::exact::{Probability, ratio};
use clash_analysis::matrix_game::{GameError, Scalar, Solution, solve_exact};
use num_rational::BigRational;
use serde::Serialize;

use crate::{Hand, reveal};

/// What one hand does against every hand of the other player.
#[derive(Debug, Clone, Serialize)]
pub struct HandOdds {
    pub hand: Hand,
    /// The chance that this hand alone is right, if the other player chooses any hand with
    /// equal chance.
    pub scores: Probability,
    /// The chance that the other player alone is right, under the same assumption.
    pub concedes: Probability,
    /// The points this hand gains minus those it gives away, on average, under the same
    /// assumption.
    pub edge: Probability,
    /// How often the equilibrium mix shows this hand.
    pub equilibrium: Probability,
}

/// The round's payoffs to the row player: the row hand's points minus the column hand's.
pub fn payoffs() -> Vec<Vec<i64>> {
    let hands = Hand::all();
    hands
        .iter()
        .map(|a| {
            hands
                .iter()
                .map(|b| {
                    let r = reveal(1, [*a, *b]);
                    match r.scorer {
                        Some(0) => i64::from(r.total),
                        Some(_) => -i64::from(r.total),
                        None => 0,
                    }
                })
                .collect()
        })
        .collect()
}

/// The round's exact equilibrium (computed once).
pub fn equilibrium() -> Result<&'static Solution<BigRational>, GameError> {
    static SOLVED: OnceLock<Result<Solution<BigRational>, GameError>> = OnceLock::new();
    SOLVED
        .get_or_init(|| solve_exact(&payoffs()))
        .as_ref()
        .map_err(Clone::clone)
}

/// Every hand's odds against a uniformly random hand of the other player, with the equilibrium
/// mix beside them.
pub fn hand_odds() -> Result<Vec<HandOdds>, GameError> {
    let solution = equilibrium()?;
    let hands = Hand::all();
    let n = hands.len() as i64;
    Ok(hands
        .iter()
        .zip(&solution.row)
        .map(|(a, mix)| {
            let (mut scores, mut concedes, mut edge) = (0i64, 0i64, 0i64);
            for b in &hands {
                let r = reveal(1, [*a, *b]);
                match r.scorer {
                    Some(0) => {
                        scores += 1;
                        edge += i64::from(r.total);
                    }
                    Some(_) => {
                        concedes += 1;
                        edge -= i64::from(r.total);
                    }
                    None => {}
                }
            }
            HandOdds {
                hand: *a,
                scores: Probability::of(&ratio(scores, n)),
                concedes: Probability::of(&ratio(concedes, n)),
                edge: Probability::of(&ratio(edge, n)),
                equilibrium: Probability::of(mix),
            }
        })
        .collect())
}

/// The equilibrium mix as weights for sampling, by [`Hand::all`]'s order.
pub fn mix() -> Result<Vec<f64>, GameError> {
    Ok(equilibrium()?.row.iter().map(Scalar::to_f64).collect())
}
