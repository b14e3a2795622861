//! Exact odds for fair dice (spec §10): single exchanges, initiative, the opening exchange and
//! a whole two-party conflict, as reduced fractions.
//!
//! Pure and public. A [`Pool`] is the form dice rolled (High and Low are the two highest faces;
//! one die gives Low 0) plus any bonus dice added to P (Advantage d6, Owe d6, strength die).
//! A pool's value distribution is built by convolution over face counts (never by listing
//! every throw), kept as exact integer counts (`u128`), and only the final ratios become
//! big-integer fractions.
//!
//! ```
//! use wicked_age::odds::{Pool, exchange, Fraction};
//! let odds = exchange(&Pool::new([10, 6]), &Pool::new([12, 8])).unwrap();
//! assert_eq!(odds.challenger_knocked_out, Fraction::new(63, 640));
//! ```

use std::fmt;

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{ToPrimitive, Zero};
use serde::{Deserialize, Serialize};

use crate::roll::{Outcome, Table};

/// Largest die a pool may hold.
pub const MAX_SIDES: u32 = 100;
/// Largest number of equally likely throws a pool may have (2^40), so that products of three
/// pools' counts stay exact in `u128`.
pub const MAX_THROWS: u128 = 1 << 40;

/// An exact probability, always reduced.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Fraction(BigRational);

impl Fraction {
    pub fn new(numer: u128, denom: u128) -> Fraction {
        Fraction(BigRational::new(
            BigInt::from(numer),
            BigInt::from(denom.max(1)),
        ))
    }

    pub fn zero() -> Fraction {
        Fraction(BigRational::zero())
    }

    pub fn one() -> Fraction {
        Fraction::new(1, 1)
    }

    /// Parse `"n/d"` or `"n"`.
    pub fn parse(text: &str) -> Option<Fraction> {
        let (n, d) = match text.split_once('/') {
            Some((n, d)) => (n.trim(), d.trim()),
            None => (text.trim(), "1"),
        };
        let n: BigInt = n.parse().ok()?;
        let d: BigInt = d.parse().ok()?;
        (!d.is_zero()).then(|| Fraction(BigRational::new(n, d)))
    }

    pub fn numer(&self) -> String {
        self.0.numer().to_string()
    }

    pub fn denom(&self) -> String {
        self.0.denom().to_string()
    }

    pub fn to_f64(&self) -> f64 {
        self.0.to_f64().unwrap_or(f64::NAN)
    }
}

impl std::ops::Add for &Fraction {
    type Output = Fraction;
    fn add(self, rhs: &Fraction) -> Fraction {
        Fraction(&self.0 + &rhs.0)
    }
}

impl std::ops::Mul for &Fraction {
    type Output = Fraction;
    fn mul(self, rhs: &Fraction) -> Fraction {
        Fraction(&self.0 * &rhs.0)
    }
}

impl std::ops::Sub for &Fraction {
    type Output = Fraction;
    fn sub(self, rhs: &Fraction) -> Fraction {
        Fraction(&self.0 - &rhs.0)
    }
}

impl fmt::Display for Fraction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.0.numer(), self.0.denom())
    }
}

impl Serialize for Fraction {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Fraction {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        Fraction::parse(&text)
            .ok_or_else(|| serde::de::Error::custom(format!("not a fraction: {text:?}")))
    }
}

/// Why a pool cannot be analysed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, thiserror::Error)]
pub enum OddsError {
    #[error("a pool needs at least one form die")]
    NoFormDie,
    #[error("a d{0} is not a die this module handles (1 to {MAX_SIDES} sides)")]
    BadDie(u32),
    #[error("the pool has more than 2^40 equally likely throws")]
    TooManyThrows,
}

/// Dice rolled together: form dice (High and Low) and bonus dice (added to P).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Pool {
    pub form: Vec<u32>,
    #[serde(default)]
    pub bonus: Vec<u32>,
}

impl Pool {
    /// Form dice only, by number of sides: `Pool::new([12, 8])` is a d12 and a d8. Zero-sided
    /// entries (forms at 0) are left out.
    pub fn new(form: impl IntoIterator<Item = u32>) -> Pool {
        Pool {
            form: form.into_iter().filter(|s| *s > 0).collect(),
            bonus: Vec::new(),
        }
    }

    /// Add bonus dice (Advantage d6, Owe d6, a strength d8/d10).
    pub fn with_bonus(mut self, bonus: impl IntoIterator<Item = u32>) -> Pool {
        self.bonus.extend(bonus.into_iter().filter(|s| *s > 0));
        self
    }

    /// The same pool holding the Advantage d6 as well.
    pub fn with_advantage(&self) -> Pool {
        self.clone().with_bonus([6])
    }

    fn check(&self) -> Result<(), OddsError> {
        if self.form.is_empty() {
            return Err(OddsError::NoFormDie);
        }
        let mut throws: u128 = 1;
        for &s in self.form.iter().chain(&self.bonus) {
            if s == 0 || s > MAX_SIDES {
                return Err(OddsError::BadDie(s));
            }
            throws = throws.saturating_mul(u128::from(s));
        }
        if throws > MAX_THROWS {
            Err(OddsError::TooManyThrows)
        } else {
            Ok(())
        }
    }

    /// The exact distribution of this pool's values (P, T).
    pub fn distribution(&self) -> Result<Distribution, OddsError> {
        self.check()?;
        Ok(Distribution::of(self))
    }
}

/// How many of a pool's equally likely throws give each value: `count(p, t)`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Distribution {
    /// `rows[p][t]`.
    rows: Vec<Vec<u128>>,
    total: u128,
    /// `at_least_p[p]` = throws with P ≥ p (one extra slot holding 0).
    at_least_p: Vec<u128>,
    /// `row_at_least_t[p][t]` = throws with this P and T ≥ t (one extra slot holding 0).
    row_at_least_t: Vec<Vec<u128>>,
}

impl Distribution {
    fn of(pool: &Pool) -> Distribution {
        let top_two = top_two_faces(&pool.form);
        let bonus = sum_of_dice(&pool.bonus);
        let max_high = top_two.len().saturating_sub(1);
        let max_low = top_two.first().map_or(0, |r| r.len().saturating_sub(1));
        let mut rows = vec![vec![0u128; max_low + 1]; max_high + bonus.len()];
        for (high, lows) in top_two.iter().enumerate() {
            for (low, &n) in lows.iter().enumerate() {
                if n == 0 {
                    continue;
                }
                for (b, &m) in bonus.iter().enumerate() {
                    rows[high + b][low] += n * m;
                }
            }
        }
        Distribution::from_rows(rows)
    }

    fn from_rows(rows: Vec<Vec<u128>>) -> Distribution {
        let width = rows.iter().map(Vec::len).max().unwrap_or(0);
        let mut at_least_p = vec![0u128; rows.len() + 1];
        let mut row_at_least_t = Vec::with_capacity(rows.len());
        for row in &rows {
            let mut suffix = vec![0u128; width + 1];
            for t in (0..row.len()).rev() {
                suffix[t] = suffix[t + 1] + row[t];
            }
            for t in (row.len()..width).rev() {
                suffix[t] = suffix[t + 1];
            }
            row_at_least_t.push(suffix);
        }
        for p in (0..rows.len()).rev() {
            at_least_p[p] = at_least_p[p + 1] + row_at_least_t[p][0];
        }
        let total = at_least_p[0];
        Distribution {
            rows,
            total,
            at_least_p,
            row_at_least_t,
        }
    }

    /// Every throw counted once.
    pub fn total(&self) -> u128 {
        self.total
    }

    /// Throws giving exactly (p, t).
    pub fn count(&self, p: u32, t: u32) -> u128 {
        self.rows
            .get(p as usize)
            .and_then(|r| r.get(t as usize))
            .copied()
            .unwrap_or(0)
    }

    /// Every value with its count, (P, T) ascending.
    pub fn values(&self) -> impl Iterator<Item = (u32, u32, u128)> + '_ {
        self.rows.iter().enumerate().flat_map(|(p, row)| {
            row.iter()
                .enumerate()
                .filter(|(_, n)| **n > 0)
                .map(move |(t, n)| (p as u32, t as u32, *n))
        })
    }

    fn p_at_least(&self, p: u64) -> u128 {
        usize::try_from(p)
            .ok()
            .and_then(|p| self.at_least_p.get(p))
            .copied()
            .unwrap_or(0)
    }

    /// Throws with a value at least (p, t) under WA-12.
    fn value_at_least(&self, p: u32, t: u32) -> u128 {
        let same_p = self
            .row_at_least_t
            .get(p as usize)
            .map_or(0, |r| r.get(t as usize).copied().unwrap_or(0));
        self.p_at_least(u64::from(p) + 1) + same_p
    }

    /// Throws with a value strictly below (p, t).
    fn value_below(&self, p: u32, t: u32) -> u128 {
        self.total - self.value_at_least(p, t)
    }

    /// Band counts of an answer from this distribution against one challenge value.
    fn answer_bands(&self, cp: u32, ct: u32) -> [u128; 4] {
        let cp64 = u64::from(cp);
        let knocks_challenger = self.p_at_least(2 * cp64);
        let at_least = self.value_at_least(cp, ct);
        // P ≤ cp/2  ⇔  P < floor(cp/2) + 1.
        let knocked_out = self.total - self.p_at_least(cp64 / 2 + 1);
        // "at least the challenge" minus those that double it (doubling implies ≥ since cp ≥ 1).
        let takes = at_least - knocks_challenger;
        let loses_die = self.total - knocks_challenger - takes - knocked_out;
        [knocks_challenger, takes, loses_die, knocked_out]
    }
}

/// Counts of (High, Low) over the form dice: `result[high][low]`, by folding one die at a time.
fn top_two_faces(form: &[u32]) -> Vec<Vec<u128>> {
    let size = form.iter().copied().max().unwrap_or(0) as usize + 1;
    let mut counts = vec![vec![0u128; size]; size];
    counts[0][0] = 1;
    for &sides in form {
        let mut next = vec![vec![0u128; size]; size];
        for (high, row) in counts.iter().enumerate() {
            for (low, &n) in row.iter().enumerate().take(high + 1) {
                if n == 0 {
                    continue;
                }
                for face in 1..=sides as usize {
                    let (h, l) = if face >= high {
                        (face, high)
                    } else if face > low {
                        (high, face)
                    } else {
                        (high, low)
                    };
                    next[h][l] += n;
                }
            }
        }
        counts = next;
    }
    counts
}

/// Counts of each sum of the bonus dice (index = sum), by convolution.
fn sum_of_dice(dice: &[u32]) -> Vec<u128> {
    let mut sums = vec![1u128];
    for &sides in dice {
        let mut next = vec![0u128; sums.len() + sides as usize];
        for (s, &n) in sums.iter().enumerate() {
            for face in 1..=sides as usize {
                next[s + face] += n;
            }
        }
        sums = next;
    }
    sums
}

/// The four band probabilities of an exchange in rounds 1–2 (WA-23).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExchangeOdds {
    pub challenger_knocked_out: Fraction,
    pub answerer_takes_advantage: Fraction,
    pub challenger_takes_advantage: Fraction,
    pub answerer_knocked_out: Fraction,
}

impl ExchangeOdds {
    /// The probability of one band.
    pub fn of(&self, outcome: Outcome) -> &Fraction {
        match outcome {
            Outcome::ChallengerKnockedOut => &self.challenger_knocked_out,
            Outcome::AnswererTakesAdvantage => &self.answerer_takes_advantage,
            Outcome::ChallengerTakesAdvantage => &self.challenger_takes_advantage,
            Outcome::AnswererKnockedOut => &self.answerer_knocked_out,
        }
    }

    /// Answer ≥ challenge: the first two bands together.
    pub fn answer_at_least_challenge(&self) -> Fraction {
        &self.challenger_knocked_out + &self.answerer_takes_advantage
    }

    pub fn sum(&self) -> Fraction {
        Outcome::ALL
            .iter()
            .fold(Fraction::zero(), |acc, o| &acc + self.of(*o))
    }
}

/// The two outcomes of a round-3 exchange (WA-23).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FinalOdds {
    pub challenger_knocked_out: Fraction,
    pub answerer_knocked_out: Fraction,
}

/// Initiative between two participants (WA-22).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct InitiativeOdds {
    /// X strictly higher on a single roll.
    pub x_higher: Fraction,
    /// Exactly equal rolls on a single roll.
    pub tie: Fraction,
    /// Y strictly higher on a single roll.
    pub y_higher: Fraction,
    /// X ends up first once ties are rerolled.
    pub x_first: Fraction,
}

/// A whole two-party conflict (spec P10).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConflictOdds {
    pub x_wins: Fraction,
    pub y_wins: Fraction,
}

/// Band counts summed over weighted challenges, with their common denominator.
struct BandCounts {
    ordinary: [u128; 4],
    /// Round 3: [challenger out, answerer out].
    last: [u128; 2],
    denominator: u128,
}

impl BandCounts {
    fn ordinary_odds(&self) -> ExchangeOdds {
        let f = |i: usize| Fraction::new(self.ordinary[i], self.denominator);
        ExchangeOdds {
            challenger_knocked_out: f(0),
            answerer_takes_advantage: f(1),
            challenger_takes_advantage: f(2),
            answerer_knocked_out: f(3),
        }
    }

    fn final_odds(&self) -> FinalOdds {
        FinalOdds {
            challenger_knocked_out: Fraction::new(self.last[0], self.denominator),
            answerer_knocked_out: Fraction::new(self.last[1], self.denominator),
        }
    }
}

/// Sum the answer's bands over challenges weighted by `weight(p, t, count)`.
fn weighted_bands(
    answer: &Distribution,
    challenge: &Distribution,
    weight: impl Fn(u32, u32, u128) -> u128,
) -> BandCounts {
    let mut ordinary = [0u128; 4];
    let mut last = [0u128; 2];
    let mut total_weight = 0u128;
    for (cp, ct, n) in challenge.values() {
        let w = weight(cp, ct, n);
        if w == 0 {
            continue;
        }
        total_weight += w;
        let bands = answer.answer_bands(cp, ct);
        for (acc, b) in ordinary.iter_mut().zip(bands) {
            *acc += w * b;
        }
        let at_least = answer.value_at_least(cp, ct);
        last[0] += w * at_least;
        last[1] += w * (answer.total - at_least);
    }
    BandCounts {
        ordinary,
        last,
        denominator: total_weight * answer.total,
    }
}

/// A fresh answer against a fresh, independent challenge, in rounds 1–2 (P1, P4–P7).
pub fn exchange(answer: &Pool, challenge: &Pool) -> Result<ExchangeOdds, OddsError> {
    let (a, c) = (answer.distribution()?, challenge.distribution()?);
    Ok(weighted_bands(&a, &c, |_, _, n| n).ordinary_odds())
}

/// A fresh answer against a fresh, independent challenge, in round 3 (P3).
pub fn final_exchange(answer: &Pool, challenge: &Pool) -> Result<FinalOdds, OddsError> {
    let (a, c) = (answer.distribution()?, challenge.distribution()?);
    Ok(weighted_bands(&a, &c, |_, _, n| n).final_odds())
}

/// Single-roll initiative between X and Y, and X's chance to go first after rerolling ties (P8).
pub fn initiative(x: &Pool, y: &Pool) -> Result<InitiativeOdds, OddsError> {
    let (dx, dy) = (x.distribution()?, y.distribution()?);
    let counts = initiative_counts(&dx, &dy);
    let all = dx.total * dy.total;
    Ok(InitiativeOdds {
        x_higher: Fraction::new(counts.x_higher, all),
        tie: Fraction::new(counts.tie, all),
        y_higher: Fraction::new(counts.y_higher, all),
        x_first: Fraction::new(counts.x_higher, counts.x_higher + counts.y_higher),
    })
}

struct InitiativeCounts {
    x_higher: u128,
    tie: u128,
    y_higher: u128,
}

fn initiative_counts(dx: &Distribution, dy: &Distribution) -> InitiativeCounts {
    let mut x_higher = 0;
    let mut tie = 0;
    for (p, t, n) in dx.values() {
        x_higher += n * dy.value_below(p, t);
        tie += n * dy.count(p, t);
    }
    InitiativeCounts {
        x_higher,
        tie,
        y_higher: dx.total * dy.total - x_higher - tie,
    }
}

/// The opening exchange of a round between X and Y, given that X won initiative (ties
/// rerolled): X's winning roll stands as the challenge and Y answers with a fresh roll (P9).
pub fn opening_exchange(x: &Pool, y: &Pool) -> Result<ExchangeOdds, OddsError> {
    let (dx, dy) = (x.distribution()?, y.distribution()?);
    Ok(opening_bands(&dx, &dy).ordinary_odds())
}

/// As [`opening_exchange`], in round 3.
pub fn opening_final_exchange(x: &Pool, y: &Pool) -> Result<FinalOdds, OddsError> {
    let (dx, dy) = (x.distribution()?, y.distribution()?);
    Ok(opening_bands(&dx, &dy).final_odds())
}

/// Bands of Y's answer to X's standing initiative roll, over the rolls with which X beat Y.
fn opening_bands(dx: &Distribution, dy: &Distribution) -> BandCounts {
    weighted_bands(dy, dx, |p, t, n| n * dy.value_below(p, t))
}

/// Who holds the Advantage die at the start of a round.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Holder {
    Nobody,
    X,
    Y,
}

/// X's chance of winning a whole two-party conflict with fixed dice (P10): no negotiation, the
/// Advantage d6 added to its holder's every roll (initiative included), ties at initiative
/// rerolled, the first participant's initiative roll standing as the only challenge of the
/// round. Each pool's own bonus dice (Owe d6, a strength die) are added to every roll.
pub fn conflict(x: &Pool, y: &Pool) -> Result<ConflictOdds, OddsError> {
    let plain = (x.distribution()?, y.distribution()?);
    let x_adv = x.with_advantage().distribution()?;
    let y_adv = y.with_advantage().distribution()?;
    let rounds = RoundOdds::new(&plain.0, &plain.1, &x_adv, &y_adv);
    let x_wins = rounds.x_wins(1, Holder::Nobody);
    let y_wins = &Fraction::one() - &x_wins;
    Ok(ConflictOdds { x_wins, y_wins })
}

/// One round's transitions for each holder of the Advantage die.
struct RoundOdds {
    /// Indexed by holder: [Nobody, X, Y].
    by_holder: [RoundTransitions; 3],
}

/// Probabilities of how a round (one exchange between two parties) ends.
struct RoundTransitions {
    /// Rounds 1–2: [X wins, X holds the die, Y holds the die, Y wins].
    ordinary: [Fraction; 4],
    /// Round 3: X's chance of winning.
    last_x_wins: Fraction,
}

impl RoundOdds {
    fn new(
        x: &Distribution,
        y: &Distribution,
        x_adv: &Distribution,
        y_adv: &Distribution,
    ) -> RoundOdds {
        RoundOdds {
            by_holder: [
                RoundTransitions::new(x, y),
                RoundTransitions::new(x_adv, y),
                RoundTransitions::new(x, y_adv),
            ],
        }
    }

    fn at(&self, holder: Holder) -> &RoundTransitions {
        match holder {
            Holder::Nobody => &self.by_holder[0],
            Holder::X => &self.by_holder[1],
            Holder::Y => &self.by_holder[2],
        }
    }

    fn x_wins(&self, round: u8, holder: Holder) -> Fraction {
        let here = self.at(holder);
        if round >= 3 {
            return here.last_x_wins.clone();
        }
        let [x_wins, x_holds, y_holds, _] = &here.ordinary;
        let then_x = &self.x_wins(round + 1, Holder::X) * x_holds;
        let then_y = &self.x_wins(round + 1, Holder::Y) * y_holds;
        &(x_wins + &then_x) + &then_y
    }
}

impl RoundTransitions {
    fn new(x: &Distribution, y: &Distribution) -> RoundTransitions {
        let init = initiative_counts(x, y);
        let decided = init.x_higher + init.y_higher;
        let x_first = opening_bands(x, y);
        let y_first = opening_bands(y, x);
        // Joint probability of (who is first, outcome): the opening bands are conditional on
        // that side going first, whose weight is its share of the decided initiatives.
        let joint = |bands: &BandCounts, count: u128, first_share: u128| -> Fraction {
            &Fraction::new(count, bands.denominator) * &Fraction::new(first_share, decided)
        };
        let xf = |i: usize| joint(&x_first, x_first.ordinary[i], init.x_higher);
        let yf = |i: usize| joint(&y_first, y_first.ordinary[i], init.y_higher);
        // X challenging: challenger out → Y wins; answerer takes → Y holds; and so on.
        let ordinary = [
            &xf(3) + &yf(0), // X wins: Y answered half or less, or X's answer doubled Y
            &xf(2) + &yf(1), // X holds the die
            &xf(1) + &yf(2), // Y holds the die
            &xf(0) + &yf(3), // Y wins
        ];
        let last_x_wins = &joint(&x_first, x_first.last[1], init.x_higher)
            + &joint(&y_first, y_first.last[0], init.y_higher);
        RoundTransitions {
            ordinary,
            last_x_wins,
        }
    }
}

/// Every outcome of an exchange with its exact probability, in one table (for reports).
pub fn exchange_table(
    answer: &Pool,
    challenge: &Pool,
    table: Table,
) -> Result<Vec<(Outcome, Fraction)>, OddsError> {
    Ok(match table {
        Table::Ordinary => {
            let odds = exchange(answer, challenge)?;
            Outcome::ALL
                .iter()
                .map(|o| (*o, odds.of(*o).clone()))
                .collect()
        }
        Table::Final => {
            let odds = final_exchange(answer, challenge)?;
            vec![
                (Outcome::ChallengerKnockedOut, odds.challenger_knocked_out),
                (Outcome::AnswererKnockedOut, odds.answerer_knocked_out),
            ]
        }
    })
}
