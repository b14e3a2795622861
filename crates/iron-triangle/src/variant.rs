//! The numbers the Iron Triangle rules fix, as a designer may change them ([`PARAMS`]), and
//! their values at one table ([`Rules`], held in the table so character creation, the conflict
//! turn, the bots and the odds in play read them). A setup's `variant` names the changes;
//! without one the table plays as written.

use clash_core::RuleError;
use clash_core::variant::{ParamKind, ParamSpec, ParamValue, Params, Variant};
use serde::{Deserialize, Serialize};

/// Every parameter, with the rule it comes from.
pub const PARAMS: Params = Params {
    rule: "IT-variant",
    specs: &[
        ParamSpec {
            key: "energy",
            name: "Energy of a new character",
            rule: "IT-9",
            help: "The energy maximum a level-0 character spreads over Defend, Grapple and Attack (at least 1 in each).",
            default: 10,
            kind: ParamKind::Number { min: 3, max: 30 },
        },
        ParamSpec {
            key: "followups",
            name: "Followups per combo",
            rule: "IT-41",
            help: "The most followups one starting move may have in a combo, for sheets and for level-up edits alike (IT-63).",
            default: 2,
            kind: ParamKind::Number { min: 1, max: 4 },
        },
        ParamSpec {
            key: "chain_wins",
            name: "Wins in one chain",
            rule: "IT-46",
            help: "The most consecutive turns one character may win in one chain before passing to a teammate.",
            default: 3,
            kind: ParamKind::Number { min: 1, max: 6 },
        },
        ParamSpec {
            key: "disadvantage",
            name: "Extra loss per card in the pile",
            rule: "IT-39",
            help: "A losing disadvantaged move loses this much more per card in its pile.",
            default: 1,
            kind: ParamKind::Number { min: 0, max: 3 },
        },
        ParamSpec {
            key: "combo_bonus",
            name: "Combo bonus per card in the chain",
            rule: "IT-45",
            help: "A winning combo's loser takes this much more per card already in the chain.",
            default: 1,
            kind: ParamKind::Number { min: 0, max: 3 },
        },
    ],
};

/// The values one table plays with.
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "iron-triangle/"))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rules {
    /// IT-9: a new character's energy total.
    pub energy: u32,
    /// IT-41, IT-63: followups per combo.
    pub followups: u32,
    /// IT-46: wins in one chain.
    pub chain_wins: u32,
    /// IT-39: extra loss per pile card.
    pub disadvantage: u32,
    /// IT-45: bonus per chain card.
    pub combo_bonus: u32,
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            energy: 10,
            followups: 2,
            chain_wins: 3,
            disadvantage: 1,
            combo_bonus: 1,
        }
    }
}

fn number(n: i64) -> u32 {
    u32::try_from(n).unwrap_or(0)
}

impl Rules {
    /// The values under `variant` (none: the rules as written), or the rule a value breaks.
    pub fn of(variant: Option<&Variant>) -> Result<Rules, RuleError> {
        let v = PARAMS.resolve(variant)?;
        Ok(Rules {
            energy: number(v.get("energy")),
            followups: number(v.get("followups")),
            chain_wins: number(v.get("chain_wins")),
            disadvantage: number(v.get("disadvantage")),
            combo_bonus: number(v.get("combo_bonus")),
        })
    }

    pub fn is_default(&self) -> bool {
        *self == Rules::default()
    }

    /// These values as a variant (none for the rules as written), for a position: the table
    /// keeps the numbers, not the name they were given.
    pub fn variant(&self) -> Option<Variant> {
        if self.is_default() {
            return None;
        }
        let d = Rules::default();
        let changes = [
            ("energy", self.energy, d.energy),
            ("followups", self.followups, d.followups),
            ("chain_wins", self.chain_wins, d.chain_wins),
            ("disadvantage", self.disadvantage, d.disadvantage),
            ("combo_bonus", self.combo_bonus, d.combo_bonus),
        ]
        .into_iter()
        .filter(|(_, v, d)| v != d)
        .map(|(k, v, _)| (k.to_string(), ParamValue::Number(i64::from(v))))
        .collect();
        Some(Variant::new("this table's rules", changes))
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
        for spec in PARAMS.specs {
            let v = Variant::new(
                "v",
                parse_changes(&format!("{}={}", spec.key, spec.default)).unwrap(),
            );
            assert_eq!(Rules::of(Some(&v)).unwrap(), r, "{}", spec.key);
        }
        let v = Variant::new("v", parse_changes("energy=12,chain_wins=2").unwrap());
        let changed = Rules::of(Some(&v)).unwrap();
        assert_eq!((changed.energy, changed.chain_wins), (12, 2));
        assert_eq!(Rules::of(changed.variant().as_ref()).unwrap(), changed);
        let bad = Variant::new("v", parse_changes("energy=2").unwrap());
        assert_eq!(Rules::of(Some(&bad)).unwrap_err().rule(), Some("IT-9"));
    }
}
