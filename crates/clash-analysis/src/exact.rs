//! How an exact probability is reported: a reduced fraction and its decimal value.

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Zero};
use serde::{Deserialize, Serialize};

/// An exact probability as printed and serialised: `{"fraction": "63/640", "decimal": 0.0984375}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Probability {
    /// Reduced, always written `n/d` (so `0/1` and `1/1` for the extremes).
    pub fraction: String,
    pub decimal: f64,
}

impl Probability {
    pub fn of(q: &BigRational) -> Probability {
        Probability {
            fraction: format!("{}/{}", q.numer(), q.denom()),
            decimal: crate::matrix_game::Scalar::to_f64(q),
        }
    }

    /// Parse the fraction back into an exact rational.
    pub fn exact(&self) -> Option<BigRational> {
        parse_fraction(&self.fraction)
    }
}

impl From<&BigRational> for Probability {
    fn from(q: &BigRational) -> Self {
        Probability::of(q)
    }
}

/// `n/d` as an exact rational (reduced); a zero denominator reads as 0.
pub fn ratio(n: impl Into<BigInt>, d: impl Into<BigInt>) -> BigRational {
    let d: BigInt = d.into();
    if d.is_zero() {
        BigRational::zero()
    } else {
        BigRational::new(n.into(), d)
    }
}

/// Read `"n/d"` or `"n"`.
pub fn parse_fraction(text: &str) -> Option<BigRational> {
    let (n, d) = text.split_once('/').unwrap_or((text, "1"));
    let n: BigInt = n.trim().parse().ok()?;
    let d: BigInt = d.trim().parse().ok()?;
    (!d.is_zero()).then(|| BigRational::new(n, d))
}

/// Sum of exact probabilities (for the "exhaustive outcomes sum to 1" checks).
pub fn total<'a>(ps: impl IntoIterator<Item = &'a BigRational>) -> BigRational {
    ps.into_iter().fold(BigRational::zero(), |acc, p| acc + p)
}

/// True when `ps` are non-negative and add up to exactly 1.
pub fn is_distribution<'a>(ps: impl IntoIterator<Item = &'a BigRational> + Clone) -> bool {
    ps.clone().into_iter().all(|p| *p >= BigRational::zero()) && total(ps) == BigRational::one()
}
