//! Two-player zero-sum matrix games, solved by linear programming.
//!
//! The row player picks a row and receives `a[i][j]` from the column player, who picks a
//! column. A solution is a mixed strategy for each side and the game's value `v`, such that the
//! row strategy earns at least `v` against every column and the column strategy concedes at
//! most `v` against every row (the minimax theorem).
//!
//! The game is solved as the textbook LP: shift every payoff by `c` so the matrix is strictly
//! positive (the value becomes positive), then
//!
//! ```text
//! maximise Σ y_j   subject to   Σ_j (a_ij + c) y_j ≤ 1 (every row i),   y ≥ 0.
//! ```
//!
//! At the optimum `t = Σ y`, the value is `1/t − c`, the column strategy is `y / t`, and the row
//! strategy is the LP's dual solution (read off the slack columns of the final objective row)
//! divided by `t`. The all-slack basis is feasible from the start, so there is no phase 1.
//!
//! The simplex pivots by Bland's rule (the lowest-index improving column enters; ratio-test ties
//! go to the lowest-index basic variable), which never cycles, so degenerate games (repeated
//! rows, saddle points, all-equal matrices) terminate. The same code runs over exact rationals
//! ([`BigRational`]) and over `f64` (with a small tolerance) through the [`Scalar`] trait.

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};
use serde::{Deserialize, Serialize};

/// The arithmetic the simplex needs. Exact types compare with zero exactly; `f64` uses a
/// tolerance so rounding noise is not mistaken for an improving direction.
pub trait Scalar: Clone + PartialOrd + std::fmt::Debug {
    fn zero() -> Self;
    fn one() -> Self;
    fn from_i64(v: i64) -> Self;
    fn add(&self, o: &Self) -> Self;
    fn sub(&self, o: &Self) -> Self;
    fn mul(&self, o: &Self) -> Self;
    fn div(&self, o: &Self) -> Self;
    /// Strictly above zero (beyond the tolerance for floats).
    fn is_pos(&self) -> bool;
    /// Strictly below zero (beyond the tolerance for floats).
    fn is_neg(&self) -> bool;
    fn to_f64(&self) -> f64;
}

/// Tolerance for the floating-point simplex: payoffs in this project are small integers, so
/// genuine reduced costs and pivots are far larger than this.
pub const F64_TOLERANCE: f64 = 1e-11;

impl Scalar for f64 {
    fn zero() -> Self {
        0.0
    }
    fn one() -> Self {
        1.0
    }
    fn from_i64(v: i64) -> Self {
        v as f64
    }
    fn add(&self, o: &Self) -> Self {
        self + o
    }
    fn sub(&self, o: &Self) -> Self {
        self - o
    }
    fn mul(&self, o: &Self) -> Self {
        self * o
    }
    fn div(&self, o: &Self) -> Self {
        self / o
    }
    fn is_pos(&self) -> bool {
        *self > F64_TOLERANCE
    }
    fn is_neg(&self) -> bool {
        *self < -F64_TOLERANCE
    }
    fn to_f64(&self) -> f64 {
        *self
    }
}

impl Scalar for BigRational {
    fn zero() -> Self {
        Zero::zero()
    }
    fn one() -> Self {
        One::one()
    }
    fn from_i64(v: i64) -> Self {
        BigRational::from_integer(BigInt::from(v))
    }
    fn add(&self, o: &Self) -> Self {
        self + o
    }
    fn sub(&self, o: &Self) -> Self {
        self - o
    }
    fn mul(&self, o: &Self) -> Self {
        self * o
    }
    fn div(&self, o: &Self) -> Self {
        self / o
    }
    fn is_pos(&self) -> bool {
        self.is_positive()
    }
    fn is_neg(&self) -> bool {
        self.is_negative()
    }
    fn to_f64(&self) -> f64 {
        num_traits::ToPrimitive::to_f64(self).unwrap_or(f64::NAN)
    }
}

/// Why a matrix is not a game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, thiserror::Error)]
pub enum GameError {
    #[error("a matrix game needs at least one row and one column")]
    Empty,
    #[error("row {row} has {got} entries where {want} were expected")]
    Ragged { row: usize, got: usize, want: usize },
    #[error("the payoffs are not finite numbers")]
    NotFinite,
}

/// The value of a game and an optimal mixed strategy for each player.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Solution<T> {
    /// What the row player can guarantee on average (and the column player hold them to).
    pub value: T,
    /// Probabilities of the rows.
    pub row: Vec<T>,
    /// Probabilities of the columns.
    pub col: Vec<T>,
}

impl<T: Scalar> Solution<T> {
    /// Expected payoff of the row strategy against column `j`.
    /// (Options played with probability 0 are skipped: exact products cost.)
    pub fn row_payoff_against(&self, a: &[Vec<T>], j: usize) -> T {
        a.iter()
            .zip(&self.row)
            .filter(|(_, p)| p.is_pos() || p.is_neg())
            .fold(T::zero(), |acc, (r, p)| acc.add(&r[j].mul(p)))
    }

    /// Expected payoff of row `i` against the column strategy.
    pub fn col_payoff_against(&self, a: &[Vec<T>], i: usize) -> T {
        a[i].iter()
            .zip(&self.col)
            .filter(|(_, q)| q.is_pos() || q.is_neg())
            .fold(T::zero(), |acc, (x, q)| acc.add(&x.mul(q)))
    }
}

pub(crate) fn check_shape<T>(a: &[Vec<T>]) -> Result<(usize, usize), GameError> {
    let m = a.len();
    let n = a.first().map_or(0, Vec::len);
    if m == 0 || n == 0 {
        return Err(GameError::Empty);
    }
    for (row, r) in a.iter().enumerate() {
        if r.len() != n {
            return Err(GameError::Ragged {
                row,
                got: r.len(),
                want: n,
            });
        }
    }
    Ok((m, n))
}

/// Solve the zero-sum game `a` (payoffs to the row player) with the simplex over `T`.
pub fn solve<T: Scalar>(a: &[Vec<T>]) -> Result<Solution<T>, GameError> {
    simplex(a).map(|(s, _)| s)
}

/// The simplex's answer and its final basis: for each constraint row, the basic variable
/// (`0..n` a game column, `n + i` the slack of row `i`).
pub(crate) fn simplex<T: Scalar>(a: &[Vec<T>]) -> Result<(Solution<T>, Vec<usize>), GameError> {
    let (m, n) = check_shape(a)?;
    if a.iter().flatten().any(|x| x.to_f64().is_nan()) {
        return Err(GameError::NotFinite);
    }
    let shift = shift_of(a);
    let mut tab = Tableau::new(a, &shift, m, n);
    tab.run();
    let solution = tab.solution(&shift);
    Ok((solution, tab.basis))
}

/// The shift that makes the smallest entry 1: every entry positive, so the LP is bounded and
/// its optimum `t` is positive.
pub(crate) fn shift_of<T: Scalar>(a: &[Vec<T>]) -> T {
    let min = a.iter().flatten().fold(
        a[0][0].clone(),
        |lo, x| if *x < lo { x.clone() } else { lo },
    );
    T::one().sub(&min)
}

/// Solve an integer game exactly: in floating point first, then certified exactly (see
/// [`crate::certified`]); the exact simplex runs only when the float answer cannot be certified.
/// The value is the exact simplex's (the value of a game is unique), and the strategies are an
/// exact equilibrium.
pub fn solve_exact(a: &[Vec<i64>]) -> Result<Solution<BigRational>, GameError> {
    crate::certified::solve_integer(a).map(|(s, _)| s)
}

/// Solve a game with rational payoffs exactly, the same way as [`solve_exact`].
pub fn solve_exact_rational(a: &[Vec<BigRational>]) -> Result<Solution<BigRational>, GameError> {
    crate::certified::solve_rational(a).map(|(s, _)| s)
}

/// Solve an integer game with the exact rational simplex alone (the reference the certified
/// solver is checked against, and its last resort).
pub fn solve_exact_simplex(a: &[Vec<i64>]) -> Result<Solution<BigRational>, GameError> {
    solve(&to_rational(a))
}

/// An integer matrix as exact rationals.
pub fn to_rational(a: &[Vec<i64>]) -> Vec<Vec<BigRational>> {
    a.iter()
        .map(|r| r.iter().map(|&x| BigRational::from_i64(x)).collect())
        .collect()
}

/// Solve an integer game in floating point (fast; for large sweeps and benchmarks).
pub fn solve_f64(a: &[Vec<i64>]) -> Result<Solution<f64>, GameError> {
    let q: Vec<Vec<f64>> = a
        .iter()
        .map(|r| r.iter().map(|&x| x as f64).collect())
        .collect();
    solve(&q)
}

/// A dense simplex tableau: `m` constraint rows over `n` game columns and `m` slacks, plus the
/// right-hand side; `obj` is the objective row (reduced costs, then the objective value).
struct Tableau<T> {
    m: usize,
    n: usize,
    /// `rows[i]` has `n + m + 1` entries; the last is the right-hand side.
    rows: Vec<Vec<T>>,
    obj: Vec<T>,
    /// Variable basic in each row: `0..n` game columns, `n..n+m` slacks.
    basis: Vec<usize>,
}

impl<T: Scalar> Tableau<T> {
    fn new(a: &[Vec<T>], shift: &T, m: usize, n: usize) -> Self {
        let width = n + m + 1;
        let rows = (0..m)
            .map(|i| {
                let mut r = vec![T::zero(); width];
                for j in 0..n {
                    r[j] = a[i][j].add(shift);
                }
                r[n + i] = T::one();
                r[width - 1] = T::one();
                r
            })
            .collect();
        let mut obj = vec![T::zero(); width];
        for o in obj.iter_mut().take(n) {
            *o = T::zero().sub(&T::one());
        }
        Tableau {
            m,
            n,
            rows,
            obj,
            basis: (n..n + m).collect(),
        }
    }

    /// Bland's rule: the lowest-index column with a negative reduced cost.
    fn entering(&self) -> Option<usize> {
        (0..self.n + self.m).find(|&j| self.obj[j].is_neg())
    }

    /// Minimum-ratio row for `col`; ties go to the row whose basic variable has the lowest index.
    fn leaving(&self, col: usize) -> Option<usize> {
        let rhs = self.n + self.m;
        let mut best: Option<(usize, T)> = None;
        for (i, r) in self.rows.iter().enumerate() {
            if !r[col].is_pos() {
                continue;
            }
            let ratio = r[rhs].div(&r[col]);
            let better = match &best {
                None => true,
                Some((b, br)) => {
                    let d = ratio.sub(br);
                    d.is_neg() || (!d.is_pos() && self.basis[i] < self.basis[*b])
                }
            };
            if better {
                best = Some((i, ratio));
            }
        }
        best.map(|(i, _)| i)
    }

    fn pivot(&mut self, row: usize, col: usize) {
        let p = self.rows[row][col].clone();
        for x in self.rows[row].iter_mut() {
            *x = x.div(&p);
        }
        let pivot_row = self.rows[row].clone();
        let eliminate = |target: &mut Vec<T>| {
            let f = target[col].clone();
            if f.is_pos() || f.is_neg() {
                for (x, y) in target.iter_mut().zip(&pivot_row) {
                    *x = x.sub(&f.mul(y));
                }
            }
            // Exact zero in the pivot column keeps floats from drifting.
            target[col] = T::zero();
        };
        for (i, r) in self.rows.iter_mut().enumerate() {
            if i != row {
                eliminate(r);
            }
        }
        eliminate(&mut self.obj);
        self.rows[row][col] = T::one();
        self.basis[row] = col;
    }

    fn run(&mut self) {
        // Bland's rule guarantees termination; the cap only guards against float trouble.
        let cap = 50 * (self.n + self.m + 1) * (self.n + self.m + 1);
        for _ in 0..cap {
            let Some(col) = self.entering() else { return };
            let Some(row) = self.leaving(col) else { return };
            self.pivot(row, col);
        }
    }

    fn solution(&self, shift: &T) -> Solution<T> {
        let rhs = self.n + self.m;
        let t = self.obj[rhs].clone();
        let mut col = vec![T::zero(); self.n];
        for (i, &b) in self.basis.iter().enumerate() {
            if b < self.n {
                col[b] = self.rows[i][rhs].div(&t);
            }
        }
        let row = (0..self.m)
            .map(|i| clamp_nonneg(self.obj[self.n + i].div(&t)))
            .collect();
        let col = col.into_iter().map(clamp_nonneg).collect();
        Solution {
            value: T::one().div(&t).sub(shift),
            row,
            col,
        }
    }
}

/// Float noise can leave a probability at -1e-17; exact types are unaffected.
fn clamp_nonneg<T: Scalar>(x: T) -> T {
    if x.is_neg() || (!x.is_pos() && x < T::zero()) {
        T::zero()
    } else {
        x
    }
}

/// Check the minimax certificate exactly: both strategies are probability vectors and each
/// achieves the value against every pure reply.
pub fn certifies(a: &[Vec<BigRational>], s: &Solution<BigRational>) -> bool {
    let one = <BigRational as One>::one();
    let sums = |v: &[BigRational]| {
        v.iter()
            .fold(<BigRational as Zero>::zero(), |acc, x| acc + x)
    };
    let probability = |v: &[BigRational]| v.iter().all(|x| !x.is_negative()) && sums(v) == one;
    let (m, n) = (a.len(), a.first().map_or(0, Vec::len));
    probability(&s.row)
        && probability(&s.col)
        && s.row.len() == m
        && s.col.len() == n
        && (0..n).all(|j| s.row_payoff_against(a, j) >= s.value)
        && (0..m).all(|i| s.col_payoff_against(a, i) <= s.value)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn q(n: i64, d: i64) -> BigRational {
        BigRational::new(BigInt::from(n), BigInt::from(d))
    }

    fn exact(a: &[Vec<i64>]) -> (Vec<Vec<BigRational>>, Solution<BigRational>) {
        let qa: Vec<Vec<BigRational>> = a
            .iter()
            .map(|r| r.iter().map(|&x| BigRational::from_i64(x)).collect())
            .collect();
        let s = solve(&qa).unwrap();
        (qa, s)
    }

    #[test]
    fn matching_pennies_is_worth_zero_with_even_mixing() {
        let (a, s) = exact(&[vec![1, -1], vec![-1, 1]]);
        assert_eq!(s.value, q(0, 1));
        assert_eq!(s.row, vec![q(1, 2), q(1, 2)]);
        assert_eq!(s.col, vec![q(1, 2), q(1, 2)]);
        assert!(certifies(&a, &s));
    }

    #[test]
    fn rock_paper_scissors_with_uneven_payoffs() {
        // Winning with rock pays 2: the classic answer is (1/4, 1/2, 1/4)-style mixing.
        let (a, s) = exact(&[vec![0, -1, 2], vec![1, 0, -1], vec![-1, 1, 0]]);
        assert!(certifies(&a, &s));
        assert_eq!(s.value, q(1, 12));
    }

    #[test]
    fn saddle_points_and_dominated_rows_are_pure() {
        let (a, s) = exact(&[vec![3, 5], vec![1, 7], vec![2, 2]]);
        assert_eq!(s.value, q(3, 1));
        assert_eq!(s.row, vec![q(1, 1), q(0, 1), q(0, 1)]);
        assert!(certifies(&a, &s));
    }

    #[test]
    fn degenerate_games_terminate_and_certify() {
        for a in [
            vec![vec![0, 0], vec![0, 0]],
            vec![vec![5]],
            vec![vec![1, 1, 1], vec![1, 1, 1], vec![1, 1, 1]],
            vec![vec![2, -1, 2], vec![2, -1, 2], vec![-1, 2, -1]],
            vec![vec![0, 1, 1], vec![1, 0, 1], vec![1, 1, 0], vec![1, 1, 0]],
            vec![vec![-3, -3, -3, 7]],
        ] {
            let (qa, s) = exact(&a);
            assert!(certifies(&qa, &s), "{a:?} -> {s:?}");
        }
    }

    #[test]
    fn malformed_matrices_are_refused() {
        assert_eq!(solve_exact(&[]), Err(GameError::Empty));
        assert_eq!(solve_exact(&[vec![]]), Err(GameError::Empty));
        assert_eq!(
            solve_exact(&[vec![1, 2], vec![3]]),
            Err(GameError::Ragged {
                row: 1,
                got: 1,
                want: 2
            })
        );
        assert_eq!(solve(&[vec![f64::NAN]]), Err(GameError::NotFinite));
    }

    proptest! {
        #[test]
        fn exact_solutions_satisfy_the_minimax_theorem(
            (m, n, cells) in (1usize..7, 1usize..7).prop_flat_map(|(m, n)| (Just(m), Just(n), proptest::collection::vec(-6i64..7, m * n)))
        ) {
            let a: Vec<Vec<i64>> = cells.chunks(n).map(<[i64]>::to_vec).collect();
            prop_assert_eq!(a.len(), m);
            let (qa, s) = exact(&a);
            prop_assert!(certifies(&qa, &s), "{:?} -> {:?}", a, s);
            // The float solver agrees on the value.
            let f = solve_f64(&a).unwrap();
            prop_assert!((f.value - s.value.to_f64()).abs() < 1e-9);
        }
    }
}
