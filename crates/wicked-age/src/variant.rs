//! The numbers a conflict's rules fix, as a designer may change them ([`PARAMS`]), and their
//! values at one table ([`Rules`], held in the state so the engine, its bots and the odds in
//! play read them). A setup's `variant` names the changes; without one the table plays as
//! written.

use clash_core::RuleError;
use clash_core::variant::{ParamKind, ParamSpec, ParamValue, Params, Variant};
use serde::{Deserialize, Serialize};

/// Every parameter, with the rule it comes from.
pub const PARAMS: Params = Params {
    rule: "WA-variant",
    specs: &[
        ParamSpec {
            key: "rounds",
            name: "Rounds in a conflict",
            rule: "WA-21",
            help: "A conflict lasts at most this many rounds; the last has no middle ground (WA-23).",
            default: 3,
            kind: ParamKind::Number { min: 1, max: 6 },
        },
        ParamSpec {
            key: "advantage",
            name: "The Advantage die",
            rule: "WA-20",
            help: "The die its holder adds to every roll; none: holding the Advantage adds nothing.",
            default: 6,
            kind: ParamKind::Die {
                sides: &[0, 4, 6, 8, 10, 12],
            },
        },
        ParamSpec {
            key: "owe",
            name: "The Owe die",
            rule: "WA-18",
            help: "The die a PC adds to every roll of a conflict after crossing off an Owe List entry.",
            default: 6,
            kind: ParamKind::Die {
                sides: &[4, 6, 8, 10, 12],
            },
        },
    ],
};

/// The values one table plays with.
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "wicked-age/"))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rules {
    /// WA-21: rounds in a conflict, the last one final.
    pub rounds: u8,
    /// WA-20: the Advantage die's sides (0: no die).
    pub advantage: u8,
    /// WA-18: the Owe die's sides.
    pub owe: u8,
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            rounds: 3,
            advantage: 6,
            owe: 6,
        }
    }
}

fn small(n: i64) -> u8 {
    u8::try_from(n).unwrap_or(u8::MAX)
}

impl Rules {
    /// The values under `variant` (none: the rules as written), or the rule a value breaks.
    pub fn of(variant: Option<&Variant>) -> Result<Rules, RuleError> {
        let v = PARAMS.resolve(variant)?;
        Ok(Rules {
            rounds: small(v.get("rounds")),
            advantage: small(v.get("advantage")),
            owe: small(v.get("owe")),
        })
    }

    pub fn is_default(&self) -> bool {
        *self == Rules::default()
    }

    /// These values as a variant (none for the rules as written), for a position: the state
    /// keeps the numbers, not the name they were given.
    pub fn variant(&self) -> Option<Variant> {
        if self.is_default() {
            return None;
        }
        let d = Rules::default();
        let changes = [
            ("rounds", self.rounds, d.rounds),
            ("advantage", self.advantage, d.advantage),
            ("owe", self.owe, d.owe),
        ]
        .into_iter()
        .filter(|(_, v, d)| v != d)
        .map(|(k, v, _)| (k.to_string(), ParamValue::Number(i64::from(v))))
        .collect();
        Some(Variant::new("this table's rules", changes))
    }

    /// The bonus dice a participant holding the Advantage (`advantage`) and a cashed Owe
    /// (`owe`) adds (WA-18, WA-20), by sides.
    pub fn bonus_dice(&self, advantage: bool, owe: bool) -> Vec<u32> {
        let mut out = Vec::new();
        if advantage && self.advantage > 0 {
            out.push(u32::from(self.advantage));
        }
        if owe {
            out.push(u32::from(self.owe));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clash_core::variant::parse_changes;

    #[test]
    fn the_defaults_are_the_rules_as_written() {
        let r = Rules::of(None).unwrap();
        assert!(r.is_default() && r.variant().is_none());
        assert_eq!(r.bonus_dice(true, true), vec![6, 6]); // WA-18, WA-20
        let v = Variant::new("v", parse_changes("rounds=2,advantage=none").unwrap());
        let changed = Rules::of(Some(&v)).unwrap();
        assert_eq!(changed.bonus_dice(true, false), Vec::<u32>::new());
        assert_eq!(Rules::of(changed.variant().as_ref()).unwrap(), changed);
        let bad = Variant::new("v", parse_changes("owe=none").unwrap());
        assert_eq!(Rules::of(Some(&bad)).unwrap_err().rule(), Some("WA-18"));
    }
}
