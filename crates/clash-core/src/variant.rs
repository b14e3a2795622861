//! Rule variants: the numbers and switches a game's rules fix (a Reserve of 3 cards, 10 energy
//! to spread, a d12 for combat), as parameters a designer may change.
//!
//! A game lists its parameters once ([`ParamSpec`]: a key, the rule it comes from, the rule's
//! value as default, and bounds). A [`Variant`] is a named set of changes to them; it rides in
//! the game's setup (an optional `variant` field, absent for the rules as written), so the
//! state built from that setup holds the changed numbers, every path that reads the state (the
//! engine, its bots and odds) sees them, a table's record carries them in its setup, and replay
//! needs nothing new.
//!
//! [`resolve`] checks a variant against a game's list and answers every parameter's value, or
//! a refusal naming the rule whose number is out of bounds. [`parse_changes`] reads changes as
//! people type them (`reserve=2, excuse=off, advantage=d8`).

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Serialize};

use crate::error::RuleError;

/// What kind of value a parameter takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ParamKind {
    /// A whole number from `min` to `max`.
    Number { min: i64, max: i64 },
    /// On or off (1 or 0).
    Switch,
    /// A die, by its number of sides, one of `sides`; 0 among them means "no die".
    Die { sides: &'static [i64] },
}

/// One number or switch a game's rules fix.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct ParamSpec {
    /// How a variant names it (`reserve`), lower case with underscores.
    pub key: &'static str,
    /// Its name for people ("Reserve size").
    pub name: &'static str,
    /// The rule (or decision) the number comes from (`ND-10`).
    pub rule: &'static str,
    /// What it does, in one sentence a designer reads.
    pub help: &'static str,
    /// The value the rules as written give it (a switch: 1 on, 0 off).
    pub default: i64,
    pub kind: ParamKind,
}

impl ParamSpec {
    /// Whether `value` is one this parameter may take.
    pub fn allows(&self, value: i64) -> bool {
        match self.kind {
            ParamKind::Number { min, max } => (min..=max).contains(&value),
            ParamKind::Switch => value == 0 || value == 1,
            ParamKind::Die { sides } => sides.contains(&value),
        }
    }

    /// The values it may take, in words ("0 to 10", "on or off", "none, d4, d6 or d8").
    pub fn bounds(&self) -> String {
        match self.kind {
            ParamKind::Number { min, max } => format!("{min} to {max}"),
            ParamKind::Switch => "on or off".into(),
            ParamKind::Die { sides } => {
                let words: Vec<String> = sides.iter().map(|s| die_word(*s)).collect();
                match words.split_last() {
                    Some((last, rest)) if !rest.is_empty() => {
                        format!("{} or {last}", rest.join(", "))
                    }
                    _ => words.join(""),
                }
            }
        }
    }

    /// A value as people read it ("3", "on", "d8", "none").
    pub fn show(&self, value: i64) -> String {
        match self.kind {
            ParamKind::Number { .. } => value.to_string(),
            ParamKind::Switch => if value != 0 { "on" } else { "off" }.into(),
            ParamKind::Die { .. } => die_word(value),
        }
    }
}

fn die_word(sides: i64) -> String {
    if sides == 0 {
        "none".into()
    } else {
        format!("d{sides}")
    }
}

/// A changed value as written in a variant: a number, or `true`/`false` for a switch.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum ParamValue {
    Switch(bool),
    Number(i64),
}

impl ParamValue {
    /// The value as a number (a switch: 1 or 0).
    pub fn number(self) -> i64 {
        match self {
            ParamValue::Switch(on) => i64::from(on),
            ParamValue::Number(n) => n,
        }
    }
}

/// A named set of changes to a game's rules. In a setup, `{"name": "short fuse", "changes":
/// {"wipe_out": 4}}`; a parameter not named keeps the rules' value.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Variant {
    /// The designer's name for it (free text, shown with the numbers it changes).
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub changes: BTreeMap<String, ParamValue>,
}

/// Longest variant name accepted.
pub const MAX_NAME: usize = 60;

impl Variant {
    pub fn new(name: impl Into<String>, changes: BTreeMap<String, ParamValue>) -> Variant {
        Variant {
            name: name.into(),
            changes,
        }
    }
}

/// A game's parameters: its list, and the rule a refusal of an unknown name cites (`ND-variant`).
#[derive(Debug, Clone, Copy)]
pub struct Params {
    pub specs: &'static [ParamSpec],
    pub rule: &'static str,
}

/// Every parameter's value under a variant, in the order of the game's list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resolved {
    specs: &'static [ParamSpec],
    values: Vec<i64>,
}

impl Resolved {
    /// The value of parameter `key`; the rules' value for a key the game does not list (a
    /// game asks only for its own keys, which its tests check).
    pub fn get(&self, key: &str) -> i64 {
        self.specs
            .iter()
            .position(|s| s.key == key)
            .map_or(0, |i| self.values[i])
    }

    /// Whether every value is the rules' own.
    pub fn is_default(&self) -> bool {
        self.specs
            .iter()
            .zip(&self.values)
            .all(|(s, v)| s.default == *v)
    }
}

impl Params {
    /// The parameter called `key`.
    pub fn spec(&self, key: &str) -> Option<&'static ParamSpec> {
        self.specs.iter().find(|s| s.key == key)
    }

    /// Check `variant` (none: the rules as written) and answer every value, or a refusal that
    /// names the rule whose number is out of bounds, or an unknown name with the names there
    /// are.
    pub fn resolve(&self, variant: Option<&Variant>) -> Result<Resolved, RuleError> {
        let mut values: Vec<i64> = self.specs.iter().map(|s| s.default).collect();
        let Some(variant) = variant else {
            return Ok(Resolved {
                specs: self.specs,
                values,
            });
        };
        if variant.name.chars().count() > MAX_NAME {
            return Err(RuleError::setup(
                self.rule,
                format!("a variant's name is at most {MAX_NAME} characters"),
            ));
        }
        for (key, value) in &variant.changes {
            let Some(i) = self.specs.iter().position(|s| s.key == key) else {
                return Err(self.unknown(key));
            };
            let spec = &self.specs[i];
            let n = check_value(spec, *value)?;
            values[i] = n;
        }
        Ok(Resolved {
            specs: self.specs,
            values,
        })
    }

    fn unknown(&self, key: &str) -> RuleError {
        let keys: Vec<&str> = self.specs.iter().map(|s| s.key).collect();
        RuleError::setup(
            self.rule,
            format!(
                "this game has no rule number called {:?}; its numbers are {}",
                key.chars().take(40).collect::<String>(),
                keys.join(", ")
            ),
        )
    }

    /// The changes of `variant` in words, one per changed parameter, in the game's order
    /// ("Reserve size 2, the rules say 3 (ND-10)").
    pub fn describe(&self, variant: &Variant) -> Vec<String> {
        self.specs
            .iter()
            .filter_map(|s| {
                let v = variant.changes.get(s.key)?.number();
                Some(format!(
                    "{} {}, the rules say {} ({})",
                    s.name,
                    s.show(v),
                    s.show(s.default),
                    s.rule
                ))
            })
            .collect()
    }
}

fn check_value(spec: &ParamSpec, value: ParamValue) -> Result<i64, RuleError> {
    let n = match (spec.kind, value) {
        (ParamKind::Switch, ParamValue::Switch(on)) => i64::from(on),
        (ParamKind::Switch, ParamValue::Number(n)) if n == 0 || n == 1 => n,
        (_, ParamValue::Switch(_)) | (ParamKind::Switch, _) => {
            return Err(RuleError::setup(
                spec.rule,
                format!("{} takes {}", spec.name, spec.bounds()),
            ));
        }
        (_, ParamValue::Number(n)) => n,
    };
    if !spec.allows(n) {
        return Err(RuleError::setup(
            spec.rule,
            format!(
                "{} {} is out of bounds: it takes {} (the rules say {})",
                spec.name,
                spec.show(n),
                spec.bounds(),
                spec.show(spec.default)
            ),
        ));
    }
    Ok(n)
}

/// Why typed changes could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ChangesError {
    #[error("{0:?} is not a change: write key=value, e.g. reserve=2")]
    Syntax(String),
    #[error("{key}={value:?}: write a whole number, on or off, or a die like d8")]
    Value { key: String, value: String },
}

/// Changes as people type them: `key=value` pairs separated by commas (or spaces), values
/// whole numbers, `on`/`off` (`yes`/`no`, `true`/`false`) or dice (`d8`, `none`).
pub fn parse_changes(text: &str) -> Result<BTreeMap<String, ParamValue>, ChangesError> {
    let mut out = BTreeMap::new();
    for part in text
        .split([',', ' ', '\n', '\t'])
        .map(str::trim)
        .filter(|p| !p.is_empty())
    {
        let (key, value) = part
            .split_once('=')
            .ok_or_else(|| ChangesError::Syntax(part.into()))?;
        let key = key.trim().to_ascii_lowercase().replace('-', "_");
        if key.is_empty() {
            return Err(ChangesError::Syntax(part.into()));
        }
        let value = parse_value(value.trim()).ok_or_else(|| ChangesError::Value {
            key: key.clone(),
            value: value.trim().into(),
        })?;
        out.insert(key, value);
    }
    Ok(out)
}

fn parse_value(text: &str) -> Option<ParamValue> {
    let lower = text.to_ascii_lowercase();
    match lower.as_str() {
        "on" | "yes" | "true" => return Some(ParamValue::Switch(true)),
        "off" | "no" | "false" => return Some(ParamValue::Switch(false)),
        "none" => return Some(ParamValue::Number(0)),
        _ => {}
    }
    let digits = lower.strip_prefix('d').unwrap_or(&lower);
    digits.parse().ok().map(ParamValue::Number)
}

/// Changes written back as people type them, in key order (`reserve=2,excuse=off`).
pub fn show_changes(params: &Params, changes: &BTreeMap<String, ParamValue>) -> String {
    changes
        .iter()
        .map(|(k, v)| match params.spec(k) {
            Some(s) if matches!(s.kind, ParamKind::Number { .. }) => format!("{k}={}", v.number()),
            Some(s) => format!("{k}={}", s.show(v.number())),
            None => format!("{k}={}", v.number()),
        })
        .collect::<Vec<_>>()
        .join(",")
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let changes: Vec<String> = self
            .changes
            .iter()
            .map(|(k, v)| format!("{k}={}", v.number()))
            .collect();
        write!(f, "{} ({})", self.name, changes.join(","))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SPECS: &[ParamSpec] = &[
        ParamSpec {
            key: "reserve",
            name: "Reserve size",
            rule: "X-10",
            help: "cards on a sheet",
            default: 3,
            kind: ParamKind::Number { min: 0, max: 10 },
        },
        ParamSpec {
            key: "excuse",
            name: "The Excuse",
            rule: "X-1",
            help: "in the deck",
            default: 1,
            kind: ParamKind::Switch,
        },
        ParamSpec {
            key: "die",
            name: "Advantage die",
            rule: "X-20",
            help: "its size",
            default: 6,
            kind: ParamKind::Die {
                sides: &[0, 4, 6, 8],
            },
        },
    ];
    const PARAMS: Params = Params {
        specs: SPECS,
        rule: "X-variant",
    };

    fn variant(text: &str) -> Variant {
        Variant::new("v", parse_changes(text).unwrap())
    }

    #[test]
    fn the_rules_as_written_are_the_defaults() {
        let r = PARAMS.resolve(None).unwrap();
        assert!(r.is_default());
        assert_eq!((r.get("reserve"), r.get("excuse"), r.get("die")), (3, 1, 6));
        assert!(PARAMS.resolve(Some(&variant(""))).unwrap().is_default());
    }

    #[test]
    fn changes_are_read_as_people_type_them() {
        let r = PARAMS
            .resolve(Some(&variant("reserve=2, excuse=off die=d8")))
            .unwrap();
        assert_eq!((r.get("reserve"), r.get("excuse"), r.get("die")), (2, 0, 8));
        assert!(!r.is_default());
        let none = PARAMS.resolve(Some(&variant("die=none"))).unwrap();
        assert_eq!(none.get("die"), 0);
        assert_eq!(
            show_changes(&PARAMS, &variant("reserve=2,excuse=no,die=d4").changes),
            "die=d4,excuse=off,reserve=2"
        );
    }

    #[test]
    fn a_number_out_of_bounds_names_its_rule_and_bounds() {
        let e = PARAMS.resolve(Some(&variant("reserve=11"))).unwrap_err();
        assert_eq!(e.rule(), Some("X-10"));
        assert!(e.reason().contains("0 to 10"), "{e}");
        let e = PARAMS.resolve(Some(&variant("die=d5"))).unwrap_err();
        assert_eq!(e.rule(), Some("X-20"));
        assert!(e.reason().contains("none, d4, d6 or d8"), "{e}");
        let e = PARAMS.resolve(Some(&variant("excuse=2"))).unwrap_err();
        assert_eq!(e.rule(), Some("X-1"));
        let e = PARAMS.resolve(Some(&variant("reserve=on"))).unwrap_err();
        assert_eq!(e.rule(), Some("X-10"));
    }

    #[test]
    fn an_unknown_number_is_refused_with_the_names_there_are() {
        let e = PARAMS.resolve(Some(&variant("energy=12"))).unwrap_err();
        assert_eq!(e.rule(), Some("X-variant"));
        assert!(e.reason().contains("reserve, excuse, die"), "{e}");
    }

    #[test]
    fn bad_syntax_is_refused() {
        assert!(matches!(
            parse_changes("reserve"),
            Err(ChangesError::Syntax(_))
        ));
        assert!(matches!(
            parse_changes("reserve=lots"),
            Err(ChangesError::Value { .. })
        ));
    }

    #[test]
    fn variants_round_trip_through_json_with_switches_as_booleans() {
        let v = variant("reserve=2,excuse=off");
        let json = serde_json::to_value(&v).unwrap();
        assert_eq!(
            json,
            serde_json::json!({"name": "v", "changes": {"excuse": false, "reserve": 2}})
        );
        assert_eq!(serde_json::from_value::<Variant>(json).unwrap(), v);
        assert_eq!(
            PARAMS.describe(&v),
            vec![
                "Reserve size 2, the rules say 3 (X-10)",
                "The Excuse off, the rules say on (X-1)"
            ]
        );
    }
}
