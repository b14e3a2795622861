//! Whole numbers in a JSON body, as JSON has them: `7` and `7.0` are one number (JSON has a
//! single number type, and JSON Schema's `integer` is any number without a fraction, so a
//! client generated from the API document may write either). A count sent as `7.0` is read as
//! 7; `7.5`, a negative number or one past the field's range is refused.

use serde::Deserialize;
use serde::de::{self, Deserializer, Visitor};

/// A whole number of at most 64 bits, however the JSON writes it.
struct Whole(u64);

impl<'de> Deserialize<'de> for Whole {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Whole, D::Error> {
        d.deserialize_any(WholeVisitor)
    }
}

struct WholeVisitor;

/// 2⁶⁴, the first whole number past `u64`, exactly as a float.
const PAST_U64: f64 = 18_446_744_073_709_551_616.0;

impl Visitor<'_> for WholeVisitor {
    type Value = Whole;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a whole number, 0 or more")
    }

    fn visit_u64<E: de::Error>(self, n: u64) -> Result<Whole, E> {
        Ok(Whole(n))
    }

    fn visit_i64<E: de::Error>(self, n: i64) -> Result<Whole, E> {
        u64::try_from(n)
            .map(Whole)
            .map_err(|_| E::invalid_value(de::Unexpected::Signed(n), &self))
    }

    fn visit_f64<E: de::Error>(self, x: f64) -> Result<Whole, E> {
        if x.fract() == 0.0 && (0.0..PAST_U64).contains(&x) {
            Ok(Whole(x as u64))
        } else {
            Err(E::invalid_value(de::Unexpected::Float(x), &self))
        }
    }
}

fn fit<T: TryFrom<u64>, E: de::Error>(n: u64) -> Result<T, E> {
    T::try_from(n).map_err(|_| E::custom(format!("{n} is too large here")))
}

/// A whole number field (`#[serde(deserialize_with = "whole::number")]`).
pub fn number<'de, D: Deserializer<'de>, T: TryFrom<u64>>(d: D) -> Result<T, D::Error> {
    fit(Whole::deserialize(d)?.0)
}

/// An optional whole number field, null for none (with `#[serde(default)]`).
pub fn optional<'de, D: Deserializer<'de>, T: TryFrom<u64>>(d: D) -> Result<Option<T>, D::Error> {
    Option::<Whole>::deserialize(d)?
        .map(|w| fit(w.0))
        .transpose()
}

#[cfg(test)]
mod tests {
    use serde::Deserialize;

    #[derive(Deserialize, Debug, PartialEq)]
    struct Count {
        #[serde(default, deserialize_with = "super::optional")]
        n: Option<u8>,
    }

    fn read(json: &str) -> Result<Count, String> {
        serde_json::from_str(json).map_err(|e| e.to_string())
    }

    #[test]
    fn a_whole_number_may_be_written_with_a_point_zero() {
        assert_eq!(read(r#"{"n": 7}"#), Ok(Count { n: Some(7) }));
        assert_eq!(read(r#"{"n": 7.0}"#), Ok(Count { n: Some(7) }));
        assert_eq!(read(r#"{"n": 7e0}"#), Ok(Count { n: Some(7) }));
        assert_eq!(read(r#"{"n": null}"#), Ok(Count { n: None }));
        assert_eq!(read(r#"{}"#), Ok(Count { n: None }));
        for refused in [
            r#"{"n": 7.5}"#,
            r#"{"n": -1}"#,
            r#"{"n": 256}"#,
            r#"{"n": "7"}"#,
            r#"{"n": 1e300}"#,
        ] {
            assert!(read(refused).is_err(), "{refused}");
        }
    }
}
