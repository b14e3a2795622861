//! Reading a matrix game from JSON exactly: every payoff as written, however large or precise.
//!
//! The file is a JSON array of rows, each an array of payoffs to the row player. A payoff is a
//! JSON number (an integer of any size, or a decimal such as `0.25` or `1.5e3`, read exactly,
//! never through a float) or a string holding an integer, a decimal or a fraction (`"3/4"`,
//! `"-12345678901234567890/7"`). A cell that cannot be read is named by its row and column.

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Zero};
use serde_json::value::RawValue;

/// Why a matrix file cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MatrixError {
    #[error("a matrix is a JSON array of rows, each an array of payoffs: {0}")]
    Shape(String),
    #[error(
        "row {row}, column {column}: {text} is not a payoff (write an integer, a decimal or a fraction such as \"3/4\")"
    )]
    Cell {
        row: usize,
        column: usize,
        text: String,
    },
    #[error("row {row}, column {column}: {text} has a zero denominator")]
    ZeroDenominator {
        row: usize,
        column: usize,
        text: String,
    },
}

/// Read a matrix of exact payoffs.
pub fn parse_matrix(text: &str) -> Result<Vec<Vec<BigRational>>, MatrixError> {
    let rows: Vec<Vec<Box<RawValue>>> =
        serde_json::from_str(text).map_err(|e| MatrixError::Shape(e.to_string()))?;
    rows.iter()
        .enumerate()
        .map(|(i, row)| {
            row.iter()
                .enumerate()
                .map(|(j, cell)| payoff(cell.get(), i + 1, j + 1))
                .collect()
        })
        .collect()
}

/// The matrix as 64-bit integers, when every payoff is one.
pub fn as_integers(m: &[Vec<BigRational>]) -> Option<Vec<Vec<i64>>> {
    m.iter()
        .map(|r| r.iter().map(crate::certified::as_i64).collect())
        .collect()
}

fn payoff(raw: &str, row: usize, column: usize) -> Result<BigRational, MatrixError> {
    let bad = || MatrixError::Cell {
        row,
        column,
        text: raw.to_string(),
    };
    let text = if raw.starts_with('"') {
        serde_json::from_str::<String>(raw).map_err(|_| bad())?
    } else {
        raw.to_string()
    };
    let (num, den) = text.split_once('/').unwrap_or((&text, "1"));
    let (num, den) = (
        decimal(num.trim()).ok_or_else(bad)?,
        decimal(den.trim()).ok_or_else(bad)?,
    );
    if den.is_zero() {
        return Err(MatrixError::ZeroDenominator {
            row,
            column,
            text: raw.to_string(),
        });
    }
    Ok(num / den)
}

/// `-12.5e-3` and the like, exactly.
fn decimal(text: &str) -> Option<BigRational> {
    let (mantissa, exponent) = match text.split_once(['e', 'E']) {
        Some((m, e)) => (m, e.parse::<i32>().ok()?),
        None => (text, 0),
    };
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let negative = whole.starts_with('-');
    let whole = whole.strip_prefix(['-', '+']).unwrap_or(whole);
    let digits = format!("{whole}{fraction}");
    if digits.is_empty()
        || !digits.bytes().all(|b| b.is_ascii_digit())
        || exponent.unsigned_abs() > 4000
    {
        return None;
    }
    let mut value = BigRational::from_integer(digits.parse::<BigInt>().ok()?);
    let scale = exponent - fraction.len() as i32;
    let ten = BigRational::from_integer(BigInt::from(10));
    let power = (0..scale.unsigned_abs()).fold(BigRational::one(), |acc, _| acc * &ten);
    value = if scale >= 0 {
        value * power
    } else {
        value / power
    };
    Some(if negative { -value } else { value })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(n: i64, d: i64) -> BigRational {
        BigRational::new(n.into(), d.into())
    }

    #[test]
    fn integers_decimals_fractions_and_big_numbers_are_exact() {
        let m = parse_matrix(r#"[[1, -2.5, "3/4"], ["-7", 1e2, 0.125]]"#).unwrap();
        assert_eq!(
            m,
            vec![
                vec![q(1, 1), q(-5, 2), q(3, 4)],
                vec![q(-7, 1), q(100, 1), q(1, 8)]
            ]
        );
        let big =
            parse_matrix("[[1320000000000000000000000000000000000000000000000000001, 0], [0, 1]]")
                .unwrap();
        assert_eq!(
            big[0][0],
            BigRational::from_integer(
                "1320000000000000000000000000000000000000000000000000001"
                    .parse()
                    .unwrap()
            )
        );
        assert!(as_integers(&big).is_none());
        assert_eq!(
            as_integers(&parse_matrix("[[1, -2]]").unwrap()),
            Some(vec![vec![1, -2]])
        );
    }

    #[test]
    fn a_bad_cell_is_named() {
        assert_eq!(
            parse_matrix(r#"[[1, 2], [3, "x"]]"#),
            Err(MatrixError::Cell {
                row: 2,
                column: 2,
                text: "\"x\"".into()
            })
        );
        assert!(matches!(
            parse_matrix(r#"[[1, "1/0"]]"#),
            Err(MatrixError::ZeroDenominator {
                row: 1,
                column: 2,
                ..
            })
        ));
        assert!(matches!(
            parse_matrix("[[1, true]]"),
            Err(MatrixError::Cell {
                row: 1,
                column: 2,
                ..
            })
        ));
        assert!(matches!(parse_matrix("{}"), Err(MatrixError::Shape(_))));
        let msg = parse_matrix(r#"[[1, 2], [3, "x"]]"#)
            .unwrap_err()
            .to_string();
        assert!(msg.contains("row 2, column 2"), "{msg}");
    }
}
