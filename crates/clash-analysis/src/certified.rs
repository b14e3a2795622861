//! Exact equilibria at floating-point speed: solve in `f64`, then prove the answer exactly.
//!
//! A pair of mixed strategies `p` (rows) and `q` (columns) with a number `v` is an exact
//! equilibrium of the zero-sum game `A` when `p` earns at least `v` against every column and `q`
//! concedes at most `v` against every row (the minimax theorem); `v` is then the game's value,
//! which is unique. Checking that takes one pass over the matrix in exact arithmetic, far less
//! than an exact simplex. So:
//!
//! 1. **Float.** The `f64` simplex (same code, same Bland's rule as the exact one) finds a basis
//!    and strategies accurate to about 1e-14.
//! 2. **Rounded and checked** (integer games). Each probability is read back as the simplest
//!    fraction within 1e-12 of the float (continued fractions, denominators up to 2^26), and the
//!    pair is checked in 128-bit integers: `min_j (pA)_j ≥ max_i (Aq)_i`. If it holds, both are
//!    equal to the value and the equilibrium is proved.
//! 3. **Basis.** Otherwise the float simplex's final basis is solved exactly: on its tight rows
//!    `T` and basic columns `C` (a square system), `(A + c)_{TC} y = 1` and
//!    `(A + c)_{TC}ᵀ w = 1` in rationals give the vertex the exact simplex would reach from that
//!    basis; it is checked like step 2 ([`crate::matrix_game::certifies`]).
//! 4. **Exact simplex**, only when neither can be proved (float trouble picked a wrong basis).
//!
//! Every answer is therefore checked exactly before it is returned; which step proved it is
//! reported as a [`Proof`].

use num_bigint::BigInt;
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, Signed, ToPrimitive, Zero};

use crate::matrix_game::{self, GameError, Solution};

/// Which step proved an equilibrium.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Proof {
    /// The float strategies, rounded to simple fractions, passed the exact check.
    Rounded,
    /// The float simplex's basis, solved in integers (determinant and adjugate read off a float
    /// elimination and checked), passed the integer check.
    IntegerBasis,
    /// The float simplex's basis, solved in rationals, passed the exact check.
    Basis,
    /// Neither did: the exact simplex solved the game.
    Simplex,
}

/// Largest denominator tried when rounding a float probability to a fraction.
const MAX_DENOMINATOR: u64 = 1 << 26;
/// How close the fraction must be to the float.
const ROUNDING: f64 = 1e-12;

/// Solve an integer game exactly (see the module notes).
pub fn solve_integer(a: &[Vec<i64>]) -> Result<(Solution<BigRational>, Proof), GameError> {
    matrix_game::check_shape(a)?;
    let floats: Vec<Vec<f64>> = a
        .iter()
        .map(|r| r.iter().map(|&x| x as f64).collect())
        .collect();
    let (float, basis) = matrix_game::simplex(&floats)?;
    if let Some(s) = rounded(a, &float) {
        return Ok((s, Proof::Rounded));
    }
    if let Some(s) = integer_basis(a, &basis) {
        return Ok((s, Proof::IntegerBasis));
    }
    let exact = matrix_game::to_rational(a);
    finish(&exact, &basis)
}

/// Solve a rational game exactly: steps 1, 3 and 4 (rounding is for integer games).
pub fn solve_rational(a: &[Vec<BigRational>]) -> Result<(Solution<BigRational>, Proof), GameError> {
    matrix_game::check_shape(a)?;
    let floats: Vec<Vec<f64>> = a
        .iter()
        .map(|r| r.iter().map(crate::matrix_game::Scalar::to_f64).collect())
        .collect();
    if floats.iter().flatten().any(|x| !x.is_finite()) {
        // Beyond f64's range: nothing to be gained from floats.
        return Ok((matrix_game::solve(a)?, Proof::Simplex));
    }
    let (_, basis) = matrix_game::simplex(&floats)?;
    finish(a, &basis)
}

fn finish(
    a: &[Vec<BigRational>],
    basis: &[usize],
) -> Result<(Solution<BigRational>, Proof), GameError> {
    if let Some(s) = from_basis(a, basis)
        && matrix_game::certifies(a, &s)
    {
        return Ok((s, Proof::Basis));
    }
    Ok((matrix_game::solve(a)?, Proof::Simplex))
}

/// The simplest fraction `n/d` (`d ≤ MAX_DENOMINATOR`) within [`ROUNDING`] of `x` in `[0, 1]`.
fn fraction(x: f64) -> Option<(u64, u64)> {
    if !(-ROUNDING..=1.0 + ROUNDING).contains(&x) {
        return None;
    }
    let x = x.clamp(0.0, 1.0);
    // Convergents h/k of the continued fraction of x.
    let (mut h0, mut h1, mut k0, mut k1) = (0u64, 1u64, 1u64, 0u64);
    let mut rest = x;
    for _ in 0..64 {
        let whole = rest.floor();
        let a = whole as u64;
        let (h2, k2) = (
            a.checked_mul(h1)?.checked_add(h0)?,
            a.checked_mul(k1)?.checked_add(k0)?,
        );
        if k2 > MAX_DENOMINATOR {
            return None;
        }
        (h0, h1, k0, k1) = (h1, h2, k1, k2);
        if (x - h1 as f64 / k1 as f64).abs() <= ROUNDING {
            return Some((h1, k1));
        }
        let frac = rest - whole;
        if frac <= 0.0 {
            return None;
        }
        rest = 1.0 / frac;
    }
    None
}

/// Probabilities as integers over one common denominator: `(numerators, denominator)`.
fn common(ps: &[f64]) -> Option<(Vec<i128>, i128)> {
    let fractions: Vec<(u64, u64)> = ps.iter().map(|p| fraction(*p)).collect::<Option<_>>()?;
    let mut d: u64 = 1;
    for (_, k) in &fractions {
        d = d.lcm(k);
        if d > 1 << 40 {
            return None;
        }
    }
    let nums: Vec<i128> = fractions
        .iter()
        .map(|(h, k)| i128::from(*h) * i128::from(d / k))
        .collect();
    (nums.iter().sum::<i128>() == i128::from(d)).then_some((nums, i128::from(d)))
}

/// Step 2: round both float strategies to fractions and check them in integers.
fn rounded(a: &[Vec<i64>], float: &Solution<f64>) -> Option<Solution<BigRational>> {
    let (p, _) = common(&float.row)?;
    let (q, _) = common(&float.col)?;
    check_integer(a, p, q)
}

/// The float simplex's basis as a square system: its basic columns `C` and tight rows `T` (rows
/// whose slack is not basic).
fn basis_system(m: usize, n: usize, basis: &[usize]) -> Option<(Vec<usize>, Vec<usize>)> {
    let columns: Vec<usize> = basis.iter().copied().filter(|b| *b < n).collect();
    let tight: Vec<usize> = (0..m).filter(|i| !basis.contains(&(n + i))).collect();
    (columns.len() == tight.len() && !columns.is_empty()).then_some((columns, tight))
}

/// Step 3 for integer games, in integers: `M = (A + c)_{TC}` has an integer determinant `d`,
/// and `d·M⁻¹·1` is an integer vector. Both are read off a float elimination (rounded) and
/// checked exactly (`M·Y = d·1`), for `M` and its transpose; then the strategies `Y/ΣY`,
/// `W/ΣW` go through the same integer check as step 2. Determinants too large to round (about
/// 2^50) fail here and are left to the rational step.
fn integer_basis(a: &[Vec<i64>], basis: &[usize]) -> Option<Solution<BigRational>> {
    let (m, n) = (a.len(), a.first().map_or(0, Vec::len));
    let (columns, tight) = basis_system(m, n, basis)?;
    let shift = 1 - a.iter().flatten().copied().min()?;
    let entry = |i: usize, j: usize| a[i][j].checked_add(shift);
    let square: Vec<Vec<i64>> = tight
        .iter()
        .map(|&i| columns.iter().map(|&j| entry(i, j)).collect::<Option<_>>())
        .collect::<Option<_>>()?;
    let transposed: Vec<Vec<i64>> = (0..columns.len())
        .map(|c| square.iter().map(|r| r[c]).collect())
        .collect();
    let y = integer_solution(&square).or_else(|| modular_solution(&square))?;
    let w = integer_solution(&transposed).or_else(|| modular_solution(&transposed))?;
    let spread = |idx: &[usize], v: &[i128], len: usize| {
        let mut out = vec![0i128; len];
        for (k, x) in idx.iter().zip(v) {
            out[*k] = *x;
        }
        out
    };
    check_integer(a, spread(&tight, &w, m), spread(&columns, &y, n))
}

/// Two primes below 2^61 whose product (about 2^122) bounds, with room to spare, every
/// determinant and adjugate entry of the games solved here (payoffs of a few dozen, at most 13
/// moves a side: Hadamard's bound is under 2^95). Answers are checked exactly anyway, so a
/// bound exceeded only means falling back to rationals.
const PRIMES: [u64; 2] = [(1 << 61) - 1, (1 << 61) - 31];

fn mul_mod(a: u64, b: u64, p: u64) -> u64 {
    (u128::from(a) * u128::from(b) % u128::from(p)) as u64
}

fn inverse_mod(a: u64, p: u64) -> Option<u64> {
    let (mut r0, mut r1, mut t0, mut t1) = (i128::from(p), i128::from(a), 0i128, 1i128);
    while r1 != 0 {
        let q = r0 / r1;
        (r0, r1) = (r1, r0 - q * r1);
        (t0, t1) = (t1, t0 - q * t1);
    }
    (r0 == 1).then(|| t0.rem_euclid(i128::from(p)) as u64)
}

/// `det M` and `det M · M⁻¹ · 1` modulo `p`, by Gaussian elimination.
fn solve_mod(mat: &[Vec<i64>], p: u64) -> Option<(u64, Vec<u64>)> {
    let k = mat.len();
    let reduce = |x: i64| i128::from(x).rem_euclid(i128::from(p)) as u64;
    let mut m: Vec<Vec<u64>> = mat
        .iter()
        .map(|r| {
            r.iter()
                .map(|x| reduce(*x))
                .chain(std::iter::once(1))
                .collect()
        })
        .collect();
    let mut det = 1u64;
    for c in 0..k {
        let pivot = (c..k).find(|r| m[*r][c] != 0)?;
        if pivot != c {
            m.swap(pivot, c);
            det = (p - det) % p;
        }
        det = mul_mod(det, m[c][c], p);
        let inv = inverse_mod(m[c][c], p)?;
        for x in &mut m[c][c..] {
            *x = mul_mod(*x, inv, p);
        }
        let pivot_row = m[c].clone();
        for (r, row) in m.iter_mut().enumerate() {
            let f = row[c];
            if r != c && f != 0 {
                for (x, y) in row[c..].iter_mut().zip(&pivot_row[c..]) {
                    *x = (*x + p - mul_mod(f, *y, p)) % p;
                }
            }
        }
    }
    Some((det, (0..k).map(|r| mul_mod(m[r][k], det, p)).collect()))
}

/// The integer congruent to `r[i]` modulo `PRIMES[i]`, in the symmetric range around 0.
fn crt(r: [u64; 2]) -> i128 {
    let [p1, p2] = PRIMES.map(u128::from);
    let inv = u128::from(inverse_mod((p1 % p2) as u64, PRIMES[1]).unwrap_or(0));
    let diff = (u128::from(r[1]) + p2 - u128::from(r[0]) % p2) % p2;
    let x = u128::from(r[0]) + p1 * (diff * inv % p2);
    let modulus = p1 * p2;
    if x > modulus / 2 {
        x as i128 - modulus as i128
    } else {
        x as i128
    }
}

/// `Y` with `M·Y = d·1` for `d = |det M|`, from elimination modulo two primes and the Chinese
/// remainder theorem, checked exactly.
fn modular_solution(mat: &[Vec<i64>]) -> Option<Vec<i128>> {
    let [a, b] = [solve_mod(mat, PRIMES[0])?, solve_mod(mat, PRIMES[1])?];
    let mut d = crt([a.0, b.0]);
    let mut y: Vec<i128> = a.1.iter().zip(&b.1).map(|(x, z)| crt([*x, *z])).collect();
    if d < 0 {
        d = -d;
        y.iter_mut().for_each(|v| *v = -*v);
    }
    for r in mat {
        let dot = r.iter().zip(&y).try_fold(0i128, |acc, (a, v)| {
            acc.checked_add(i128::from(*a).checked_mul(*v)?)
        })?;
        if dot != d {
            return None;
        }
    }
    Some(y)
}

/// `Y` with `M·Y = d·1` for `d = det M` (sign chosen so `d > 0`), found in floats and checked
/// exactly.
fn integer_solution(mat: &[Vec<i64>]) -> Option<Vec<i128>> {
    let k = mat.len();
    let mut lu: Vec<Vec<f64>> = mat
        .iter()
        .map(|r| r.iter().map(|x| *x as f64).collect())
        .collect();
    let mut rhs = vec![1.0f64; k];
    let mut det = 1.0f64;
    for c in 0..k {
        let p = (c..k).max_by(|x, y| lu[*x][c].abs().total_cmp(&lu[*y][c].abs()))?;
        if lu[p][c] == 0.0 {
            return None;
        }
        if p != c {
            lu.swap(p, c);
            rhs.swap(p, c);
            det = -det;
        }
        det *= lu[c][c];
        let (top, rest) = lu.split_at_mut(c + 1);
        let pivot_row = &top[c];
        for (row, r) in rest.iter_mut().zip(c + 1..) {
            let f = row[c] / pivot_row[c];
            for (x, y) in row[c..].iter_mut().zip(&pivot_row[c..]) {
                *x -= f * y;
            }
            rhs[r] -= f * rhs[c];
        }
    }
    let mut x = vec![0.0f64; k];
    for r in (0..k).rev() {
        let tail: f64 = (r + 1..k).map(|j| lu[r][j] * x[j]).sum();
        x[r] = (rhs[r] - tail) / lu[r][r];
    }
    let d = det.abs().round();
    if !(1.0..=(1u64 << 50) as f64).contains(&d) {
        return None;
    }
    let d = d as i128;
    let big: Vec<i128> = x.iter().map(|v| (v * d as f64).round() as i128).collect();
    // Exact check: M·Y = d·1.
    for r in mat {
        let dot = r.iter().zip(&big).try_fold(0i128, |acc, (a, y)| {
            acc.checked_add(i128::from(*a).checked_mul(*y)?)
        })?;
        if dot != d {
            return None;
        }
    }
    Some(big)
}

/// Step 2's integer check for strategies given as non-negative integer weights `p` (rows) and
/// `q` (columns), each over its own sum.
fn check_integer(a: &[Vec<i64>], p: Vec<i128>, q: Vec<i128>) -> Option<Solution<BigRational>> {
    if p.iter().chain(&q).any(|x| *x < 0) {
        return None;
    }
    let reduced = |v: Vec<i128>| {
        let g = v.iter().fold(0i128, |g, x| g.gcd(x));
        if g > 1 {
            v.into_iter().map(|x| x / g).collect()
        } else {
            v
        }
    };
    let (p, q) = (reduced(p), reduced(q));
    let (dp, dq) = (p.iter().sum::<i128>(), q.iter().sum::<i128>());
    if dp <= 0 || dq <= 0 {
        return None;
    }
    let n = a.first().map_or(0, Vec::len);
    let earns = (0..n).map(|j| {
        a.iter().zip(&p).try_fold(0i128, |acc, (r, pi)| {
            acc.checked_add(pi.checked_mul(i128::from(r[j]))?)
        })
    });
    let worst = earns.collect::<Option<Vec<i128>>>()?.into_iter().min()?;
    let concedes = a.iter().map(|r| {
        r.iter().zip(&q).try_fold(0i128, |acc, (x, qj)| {
            acc.checked_add(qj.checked_mul(i128::from(*x))?)
        })
    });
    let best = concedes.collect::<Option<Vec<i128>>>()?.into_iter().max()?;
    // worst/dp ≥ best/dq proves both equal the value (the reverse always holds).
    if BigInt::from(worst) * BigInt::from(dq) < BigInt::from(best) * BigInt::from(dp) {
        return None;
    }
    Some(Solution {
        value: big(best, dq),
        row: p.iter().map(|x| big(*x, dp)).collect(),
        col: q.iter().map(|x| big(*x, dq)).collect(),
    })
}

/// `x/d` (`d > 0`) as a reduced rational, reduced in 128-bit integers (cheaper than `BigInt`).
fn big(x: i128, d: i128) -> BigRational {
    let g = x.gcd(&d).max(1);
    BigRational::new_raw(BigInt::from(x / g), BigInt::from(d / g))
}

/// Step 3: the vertex of the float simplex's final basis, in exact arithmetic.
fn from_basis(a: &[Vec<BigRational>], basis: &[usize]) -> Option<Solution<BigRational>> {
    let (m, n) = (a.len(), a.first().map_or(0, Vec::len));
    let shift = matrix_game::shift_of(a);
    let (columns, tight) = basis_system(m, n, basis)?;
    let entry = |i: usize, j: usize| &a[i][j] + &shift;
    let square: Vec<Vec<BigRational>> = tight
        .iter()
        .map(|&i| columns.iter().map(|&j| entry(i, j)).collect())
        .collect();
    let transposed: Vec<Vec<BigRational>> = columns
        .iter()
        .map(|&j| tight.iter().map(|&i| entry(i, j)).collect())
        .collect();
    let ones = vec![BigRational::one(); columns.len()];
    let y = solve_linear(square, ones.clone())?;
    let w = solve_linear(transposed, ones)?;
    let t = y.iter().fold(BigRational::zero(), |acc, x| acc + x);
    if !t.is_positive() {
        return None;
    }
    let mut col = vec![BigRational::zero(); n];
    for (j, yj) in columns.iter().zip(&y) {
        col[*j] = yj / &t;
    }
    let mut row = vec![BigRational::zero(); m];
    for (i, wi) in tight.iter().zip(&w) {
        row[*i] = wi / &t;
    }
    Some(Solution {
        value: t.recip() - shift,
        row,
        col,
    })
}

/// Solve `m x = b` exactly by Gaussian elimination; `None` if `m` is singular.
fn solve_linear(mut m: Vec<Vec<BigRational>>, mut b: Vec<BigRational>) -> Option<Vec<BigRational>> {
    let k = b.len();
    for c in 0..k {
        let pivot = (c..k).find(|r| !m[*r][c].is_zero())?;
        m.swap(c, pivot);
        b.swap(c, pivot);
        let inv = m[c][c].recip();
        let (pivot_row, pivot_b) = (m[c].clone(), b[c].clone());
        for (r, (row, br)) in m.iter_mut().zip(b.iter_mut()).enumerate() {
            if r == c || row[c].is_zero() {
                continue;
            }
            let f = &row[c] * &inv;
            for (x, y) in row[c..].iter_mut().zip(&pivot_row[c..]) {
                *x -= &f * y;
            }
            *br -= &f * &pivot_b;
        }
    }
    Some((0..k).map(|i| &b[i] / &m[i][i]).collect())
}

/// Whether `x` is an integer that fits `i64` (for callers scaling rational games).
pub fn as_i64(x: &BigRational) -> Option<i64> {
    x.is_integer().then(|| x.to_integer().to_i64()).flatten()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matrix_game::{certifies, solve_exact_simplex, to_rational};
    use proptest::prelude::*;

    fn q(n: i64, d: i64) -> BigRational {
        BigRational::new(BigInt::from(n), BigInt::from(d))
    }

    #[test]
    fn continued_fractions_find_simple_fractions() {
        assert_eq!(fraction(1.0 / 3.0), Some((1, 3)));
        assert_eq!(fraction(0.0), Some((0, 1)));
        assert_eq!(fraction(1.0), Some((1, 1)));
        assert_eq!(fraction(-1e-17), Some((0, 1)));
        assert_eq!(fraction(4129.0 / 70563.0), Some((4129, 70563)));
        assert_eq!(fraction(0.5 + 4e-13), Some((1, 2))); // float noise is rounded away
        assert_eq!(fraction(2.0), None); // not a probability
    }

    #[test]
    fn rock_paper_scissors_is_rounded_and_proved() {
        let (s, proof) = solve_integer(&[vec![0, -1, 2], vec![1, 0, -1], vec![-1, 1, 0]]).unwrap();
        assert_eq!(proof, Proof::Rounded);
        assert_eq!(s.value, q(1, 12));
        assert!(certifies(
            &to_rational(&[vec![0, -1, 2], vec![1, 0, -1], vec![-1, 1, 0]]),
            &s
        ));
    }

    #[test]
    fn a_rational_game_is_proved_from_its_basis() {
        let a = vec![vec![q(1, 3), q(-2, 7)], vec![q(-5, 11), q(3, 13)]];
        let (s, proof) = solve_rational(&a).unwrap();
        assert_eq!(proof, Proof::Basis);
        assert!(certifies(&a, &s));
        assert_eq!(s.value, matrix_game::solve(&a).unwrap().value);
    }

    #[test]
    fn large_denominators_fall_back_to_the_basis() {
        // Payoffs in the millions give denominators beyond 2^26: rounding cannot prove them.
        let a = vec![vec![7_654_321, -1_234_567], vec![-3_333_331, 9_876_543]];
        let (s, proof) = solve_integer(&a).unwrap();
        assert_ne!(proof, Proof::Rounded);
        assert_eq!(s.value, solve_exact_simplex(&a).unwrap().value);
        assert!(certifies(&to_rational(&a), &s));
    }

    fn game() -> impl Strategy<Value = Vec<Vec<i64>>> {
        (1usize..9, 1usize..9, -9i64..10).prop_flat_map(|(m, n, hi)| {
            proptest::collection::vec(proptest::collection::vec(-9i64..hi.max(-8), n), m)
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(400))]

        /// The certified value is the exact simplex's, and both certified strategies achieve it
        /// against every pure reply.
        #[test]
        fn certified_equals_the_exact_simplex(a in game()) {
            let (s, _) = solve_integer(&a).unwrap();
            let exact = solve_exact_simplex(&a).unwrap();
            prop_assert_eq!(&s.value, &exact.value);
            let qa = to_rational(&a);
            prop_assert!(certifies(&qa, &s));
            for j in 0..a[0].len() {
                prop_assert!(s.row_payoff_against(&qa, j) >= s.value);
            }
            for i in 0..a.len() {
                prop_assert!(s.col_payoff_against(&qa, i) <= s.value);
            }
        }

        /// Rational games (small fractions): the same, through the basis.
        #[test]
        fn certified_rational_equals_the_exact_simplex(
            cells in proptest::collection::vec((-20i64..21, 1i64..9), 1..30), n in 1usize..6,
        ) {
            let rows: Vec<Vec<BigRational>> = cells.chunks(n).filter(|c| c.len() == n).map(|c| c.iter().map(|(a, b)| q(*a, *b)).collect()).collect();
            prop_assume!(!rows.is_empty());
            let (s, _) = solve_rational(&rows).unwrap();
            prop_assert_eq!(&s.value, &matrix_game::solve(&rows).unwrap().value);
            prop_assert!(certifies(&rows, &s));
        }
    }
}
