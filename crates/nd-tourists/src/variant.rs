//! The numbers and switches the Conflict rules fix, as a designer may change them ([`PARAMS`]),
//! and their values for one Conflict ([`Rules`], held in the table's sheet so every rule, the
//! bots and the odds read them). A setup's `variant` names the changes; without one, every
//! value is the rules' own and the Conflict plays exactly as written.

use clash_core::RuleError;
use clash_core::variant::{ParamKind, ParamSpec, Params, Variant};
use serde::{Deserialize, Serialize};

use crate::cards::{Card, CardSet};

/// Every parameter, with the rule it comes from.
pub const PARAMS: Params = Params {
    rule: "ND-variant",
    specs: &[
        ParamSpec {
            key: "reserve",
            name: "Reserve size",
            rule: "ND-10",
            help: "Reserve cards a player character's sheet holds when the sheet does not say (the Playing Mat's 3); the GM's usual draw follows it.",
            default: 3,
            kind: ParamKind::Number { min: 0, max: 10 },
        },
        ParamSpec {
            key: "tokens",
            name: "Tokens per point of Control",
            rule: "ND-9",
            help: "Control tokens the Dominant starts each Unbalanced round with, per point of Control.",
            default: 1,
            kind: ParamKind::Number { min: 0, max: 3 },
        },
        ParamSpec {
            key: "triumphs",
            name: "Triumphs in the deck",
            rule: "ND-1",
            help: "The Triumphs in play are I up to this number; the higher ones stay out of the deck.",
            default: 21,
            kind: ParamKind::Number { min: 0, max: 21 },
        },
        ParamSpec {
            key: "excuse",
            name: "The Excuse in the deck",
            rule: "ND-1",
            help: "Whether the Excuse is in the deck (drawn, it ends an Unbalanced round unevaluated, ND-16a).",
            default: 1,
            kind: ParamKind::Switch,
        },
        ParamSpec {
            key: "blanks",
            name: "Suit blanks in the deck",
            rule: "D-1",
            help: "Whether the 10 suit blanks play as figureless suit cards.",
            default: 0,
            kind: ParamKind::Switch,
        },
        ParamSpec {
            key: "lasting",
            name: "Reversed cards for a Lasting Loss",
            rule: "ND-21",
            help: "From this many reversed cards in a round a Loss is Lasting (fewer: Temporary); below the Wipe Out.",
            default: 3,
            kind: ParamKind::Number { min: 2, max: 9 },
        },
        ParamSpec {
            key: "wipe_out",
            name: "Reversed cards for a Wipe Out",
            rule: "ND-16",
            help: "A party with this many reversed cards in its bid line is Wiped Out and leaves the Conflict.",
            default: 5,
            kind: ParamKind::Number { min: 3, max: 10 },
        },
        ParamSpec {
            key: "control_victory",
            name: "Control that wins",
            rule: "D-16",
            help: "A Dominant ending a round with at least this much Control wins the Conflict; 0: Control never wins by itself, as written.",
            default: 0,
            kind: ParamKind::Number { min: 0, max: 20 },
        },
    ],
};

/// The values one Conflict plays with.
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "nd-tourists/"))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rules {
    /// ND-10: a player character sheet's Reserve size when the sheet does not say.
    pub reserve: u8,
    /// ND-9: tokens per point of Control.
    pub tokens: u8,
    /// ND-1: Triumphs I to this number are in the deck.
    pub triumphs: u8,
    /// ND-1: the Excuse is in the deck.
    pub excuse: bool,
    /// D-1: the suit blanks are in the deck.
    pub blanks: bool,
    /// ND-21: reversed cards from which a Loss is Lasting.
    pub lasting: u8,
    /// ND-16b: reversed cards that Wipe a party Out.
    pub wipe_out: u8,
    /// D-16: Control that wins the Conflict at the end of a round (0: never).
    pub control_victory: u8,
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            reserve: 3,
            tokens: 1,
            triumphs: 21,
            excuse: true,
            blanks: false,
            lasting: 3,
            wipe_out: 5,
            control_victory: 0,
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
        let rules = Rules {
            reserve: small(v.get("reserve")),
            tokens: small(v.get("tokens")),
            triumphs: small(v.get("triumphs")),
            excuse: v.get("excuse") != 0,
            blanks: v.get("blanks") != 0,
            lasting: small(v.get("lasting")),
            wipe_out: small(v.get("wipe_out")),
            control_victory: small(v.get("control_victory")),
        };
        if rules.lasting >= rules.wipe_out {
            return Err(RuleError::setup(
                "ND-21",
                format!(
                    "a Lasting Loss at {} reversed cards must come below the Wipe Out at {} (ND-16)",
                    rules.lasting, rules.wipe_out
                ),
            ));
        }
        Ok(rules)
    }

    pub fn is_default(&self) -> bool {
        *self == Rules::default()
    }

    /// ND-1, D-1: the cards in play, the blanks too when `blanks` (the setup's own switch) or
    /// the variant's says so.
    pub fn deck(&self, blanks: bool) -> CardSet {
        let full = CardSet::full_deck(blanks || self.blanks);
        full.minus(self.left_out())
    }

    /// The printed cards this variant leaves out of the deck (Triumphs above its count, the
    /// Excuse if it is out).
    pub fn left_out(&self) -> CardSet {
        let mut out = CardSet::EMPTY;
        for n in (self.triumphs + 1)..=21 {
            if let Some(c) = Card::triumph(n) {
                out.insert(c);
            }
        }
        if !self.excuse {
            out.insert(crate::cards::EXCUSE);
        }
        out
    }

    /// ND-21: the Loss a party takes for `reversed` reversed cards, and how many cards mark it
    /// (none at the Wipe Out: D-5).
    pub fn loss_for(&self, reversed: u8) -> Option<(crate::command::LossKind, usize)> {
        use crate::command::LossKind;
        match reversed {
            0 => None,
            r if r >= self.wipe_out => None,
            r if r >= self.lasting => Some((LossKind::Lasting, 3)),
            _ => Some((LossKind::Temporary, 1)),
        }
    }

    /// ND-9: the tokens a Dominant with `control` starts an Unbalanced round with.
    pub fn tokens_for(&self, control: u8) -> u8 {
        control.saturating_mul(self.tokens)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clash_core::variant::parse_changes;

    fn rules(text: &str) -> Result<Rules, RuleError> {
        Rules::of(Some(&Variant::new("v", parse_changes(text).unwrap())))
    }

    #[test]
    fn the_defaults_are_the_rules_as_written() {
        let r = Rules::of(None).unwrap();
        assert!(r.is_default());
        for spec in PARAMS.specs {
            let changed = rules(&format!("{}={}", spec.key, spec.default)).unwrap();
            assert_eq!(changed, r, "{}", spec.key);
        }
        assert_eq!(r.deck(false), CardSet::full_deck(false)); // ND-1: 67 cards
        assert_eq!(r.deck(true), CardSet::full_deck(true)); // D-1
        // ND-21: 1–2 Temporary, 3–4 Lasting, 5 Wiped Out.
        let kinds: Vec<_> = (0..=5).map(|n| r.loss_for(n).map(|l| l.0)).collect();
        use crate::command::LossKind::*;
        assert_eq!(
            kinds,
            vec![
                None,
                Some(Temporary),
                Some(Temporary),
                Some(Lasting),
                Some(Lasting),
                None
            ]
        );
        assert_eq!(r.tokens_for(4), 4); // ND-9
    }

    #[test]
    fn nd_1_a_smaller_deck() {
        let r = rules("triumphs=10,excuse=off").unwrap();
        let deck = r.deck(false);
        assert_eq!(deck.len(), 67 - 11 - 1);
        assert!(deck.contains(Card::triumph(10).unwrap()));
        assert!(!deck.contains(Card::triumph(11).unwrap()));
        assert!(!deck.contains(crate::cards::EXCUSE));
        assert_eq!(rules("blanks=on").unwrap().deck(false).len(), 77);
    }

    #[test]
    fn nd_21_a_loss_threshold_below_the_wipe_out() {
        let r = rules("lasting=2,wipe_out=4").unwrap();
        assert_eq!(
            r.loss_for(1).unwrap().0,
            crate::command::LossKind::Temporary
        );
        assert_eq!(r.loss_for(2).unwrap().0, crate::command::LossKind::Lasting);
        assert_eq!(r.loss_for(4), None);
        let e = rules("lasting=5").unwrap_err();
        assert_eq!(e.rule(), Some("ND-21"));
        let e = rules("wipe_out=11").unwrap_err();
        assert_eq!(e.rule(), Some("ND-16"));
        assert!(e.reason().contains("3 to 10"), "{e}");
    }
}
