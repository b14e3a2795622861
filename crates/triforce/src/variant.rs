//! The numbers the Triforce rules fix, as a designer may change them ([`PARAMS`]), and their
//! values for one game ([`Rules`], held in the state so the engine, its bots and the combat odds
//! read them). A setup's `variant` names the changes; without one the game plays as written.

use clash_core::RuleError;
use clash_core::variant::{ParamKind, ParamSpec, ParamValue, Params, Variant};
use serde::{Deserialize, Serialize};

/// Dice a variant may use: the common polyhedra.
const DICE: &[i64] = &[4, 6, 8, 10, 12, 20];

/// Every parameter, with the rule it comes from.
pub const PARAMS: Params = Params {
    rule: "TF-variant",
    specs: &[
        ParamSpec {
            key: "pieces",
            name: "Pyramids of each size per player",
            rule: "TF-2",
            help: "Each player's stash starts with this many small, medium and large pyramids.",
            default: 5,
            kind: ParamKind::Number { min: 1, max: 5 },
        },
        ParamSpec {
            key: "swords",
            name: "Swords of each size",
            rule: "TF-3",
            help: "The black sword supply holds this many of each size (0: no swords).",
            default: 5,
            kind: ParamKind::Number { min: 0, max: 5 },
        },
        ParamSpec {
            key: "shields",
            name: "Shields of each size",
            rule: "TF-3",
            help: "The clear shield supply holds this many of each size (0: no shields).",
            default: 5,
            kind: ParamKind::Number { min: 0, max: 5 },
        },
        ParamSpec {
            key: "player_die",
            name: "Each player's die",
            rule: "TF-24",
            help: "The die a player without sword or shield rolls in combat (the sword user rolls it too).",
            default: 12,
            kind: ParamKind::Die { sides: DICE },
        },
        ParamSpec {
            key: "sword_die",
            name: "The sword's die",
            rule: "TF-24",
            help: "The black die the sword user adds to their own.",
            default: 12,
            kind: ParamKind::Die { sides: DICE },
        },
        ParamSpec {
            key: "shield_die",
            name: "The shield's die",
            rule: "TF-24",
            help: "The clear die the shield user rolls instead of their own.",
            default: 20,
            kind: ParamKind::Die { sides: DICE },
        },
        ParamSpec {
            key: "territory",
            name: "Territory to win, plus the number of players",
            rule: "TF-28",
            help: "A player wins as bottom player of this many stacks less the number of players (the rules' 11: 8 with 3 players).",
            default: 11,
            kind: ParamKind::Number { min: 5, max: 18 },
        },
        ParamSpec {
            key: "turn_limit",
            name: "Turn limit",
            rule: "TF-30",
            help: "The game ends after this many turns, won by the most stacks; 0: no limit, as written (a setup's own limit comes first).",
            default: 0,
            kind: ParamKind::Number { min: 0, max: 2000 },
        },
    ],
};

/// The values one game plays with.
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "triforce/"))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rules {
    /// TF-2: pyramids of each size per player.
    pub pieces: u8,
    /// TF-3: swords and shields of each size.
    pub swords: u8,
    pub shields: u8,
    /// TF-24: the dice.
    pub player_die: u8,
    pub sword_die: u8,
    pub shield_die: u8,
    /// TF-28: stacks to win, plus the number of players.
    pub territory: u8,
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            pieces: 5,
            swords: 5,
            shields: 5,
            player_die: 12,
            sword_die: 12,
            shield_die: 20,
            territory: 11,
        }
    }
}

fn small(n: i64) -> u8 {
    u8::try_from(n).unwrap_or(u8::MAX)
}

/// The dice of a combat (TF-24).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Dice {
    pub player: u32,
    pub sword: u32,
    pub shield: u32,
}

impl Default for Dice {
    fn default() -> Self {
        Rules::default().dice()
    }
}

impl Rules {
    /// The values under `variant` (none: the rules as written) and the variant's turn limit
    /// (none when it keeps the rules' "no limit"), or the rule a value breaks.
    pub fn of(variant: Option<&Variant>) -> Result<(Rules, Option<u32>), RuleError> {
        let v = PARAMS.resolve(variant)?;
        let rules = Rules {
            pieces: small(v.get("pieces")),
            swords: small(v.get("swords")),
            shields: small(v.get("shields")),
            player_die: small(v.get("player_die")),
            sword_die: small(v.get("sword_die")),
            shield_die: small(v.get("shield_die")),
            territory: small(v.get("territory")),
        };
        let limit = u32::try_from(v.get("turn_limit")).ok().filter(|l| *l > 0);
        Ok((rules, limit))
    }

    pub fn is_default(&self) -> bool {
        *self == Rules::default()
    }

    /// These values as a variant (none for the rules as written), for a position: the state
    /// keeps the numbers, not the name they were given, and its turn limit on its own.
    pub fn variant(&self) -> Option<Variant> {
        if self.is_default() {
            return None;
        }
        let d = Rules::default();
        let pairs = [
            ("pieces", self.pieces, d.pieces),
            ("swords", self.swords, d.swords),
            ("shields", self.shields, d.shields),
            ("player_die", self.player_die, d.player_die),
            ("sword_die", self.sword_die, d.sword_die),
            ("shield_die", self.shield_die, d.shield_die),
            ("territory", self.territory, d.territory),
        ];
        let changes = pairs
            .into_iter()
            .filter(|(_, v, d)| v != d)
            .map(|(k, v, _)| (k.to_string(), ParamValue::Number(i64::from(v))))
            .collect();
        Some(Variant::new("this table's rules", changes))
    }

    pub fn dice(&self) -> Dice {
        Dice {
            player: u32::from(self.player_die),
            sword: u32::from(self.sword_die),
            shield: u32::from(self.shield_die),
        }
    }

    /// TF-28: stacks needed to win by territory with `players` players.
    pub fn territory_target(&self, players: u8) -> u8 {
        self.territory.saturating_sub(players).max(1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clash_core::variant::parse_changes;

    fn rules(text: &str) -> Result<(Rules, Option<u32>), RuleError> {
        Rules::of(Some(&Variant::new("v", parse_changes(text).unwrap())))
    }

    #[test]
    fn the_defaults_are_the_rules_as_written() {
        let (r, limit) = Rules::of(None).unwrap();
        assert!(r.is_default() && limit.is_none());
        for spec in PARAMS.specs {
            let (same, _) = rules(&format!("{}={}", spec.key, spec.default)).unwrap();
            assert_eq!(same, r, "{}", spec.key);
        }
        assert_eq!(
            (3..=6).map(|n| r.territory_target(n)).collect::<Vec<_>>(),
            vec![8, 7, 6, 5]
        ); // TF-28
        assert_eq!(
            r.dice(),
            Dice {
                player: 12,
                sword: 12,
                shield: 20
            }
        ); // TF-4, TF-24
    }

    #[test]
    fn changed_numbers_and_their_bounds() {
        let (r, limit) = rules("shield_die=d12,territory=10,turn_limit=80").unwrap();
        assert_eq!(
            (r.dice().shield, r.territory_target(3), limit),
            (12, 7, Some(80))
        );
        assert_eq!(rules("player_die=d7").unwrap_err().rule(), Some("TF-24"));
        assert_eq!(rules("pieces=6").unwrap_err().rule(), Some("TF-2"));
    }
}
