//! The one error type every ruleset returns: what was wrong, and which rule says so.

use serde::Serialize;

use crate::randomness::RandomnessError;
use crate::seat::Seat;

/// Why a command or setup was refused. A refused command never changes the state.
///
/// `rule` is the spec's rule ID (`"IT-35"`, `"TF-9"`, …) or decision ID (`"IT D-27"` style IDs
/// are written `"D-27"` with the ruleset implied). Messages are safe to show to the seat that
/// sent the command: they never reveal another seat's hidden information.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, thiserror::Error)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum RuleError {
    /// The command breaks a rule of the game.
    #[error("illegal under {rule}: {reason}")]
    IllegalMove { rule: &'static str, reason: String },
    /// The command is legal for someone, but not for the seat that sent it.
    /// (`seat` is kept as data; the message a player reads names no seat id.)
    #[error("not your call under {rule}: {reason}")]
    NotYourCall {
        rule: &'static str,
        seat: Seat,
        reason: String,
    },
    /// The setup itself breaks a rule (character creation, board layout, …).
    #[error("invalid setup under {rule}: {reason}")]
    InvalidSetup { rule: &'static str, reason: String },
    /// The command needed chance that could not be supplied (a script ran out or disagreed).
    #[error("randomness: {0}")]
    Randomness(#[from] RandomnessError),
}

impl RuleError {
    pub fn illegal(rule: &'static str, reason: impl Into<String>) -> Self {
        RuleError::IllegalMove {
            rule,
            reason: reason.into(),
        }
    }

    pub fn not_your_call(rule: &'static str, seat: Seat, reason: impl Into<String>) -> Self {
        RuleError::NotYourCall {
            rule,
            seat,
            reason: reason.into(),
        }
    }

    pub fn setup(rule: &'static str, reason: impl Into<String>) -> Self {
        RuleError::InvalidSetup {
            rule,
            reason: reason.into(),
        }
    }

    /// Why, in words, without the rule's name.
    pub fn reason(&self) -> String {
        match self {
            RuleError::IllegalMove { reason, .. }
            | RuleError::NotYourCall { reason, .. }
            | RuleError::InvalidSetup { reason, .. } => reason.clone(),
            RuleError::Randomness(e) => e.to_string(),
        }
    }

    /// The rule the command breaks, if it broke one.
    pub fn rule(&self) -> Option<&'static str> {
        match self {
            RuleError::IllegalMove { rule, .. }
            | RuleError::NotYourCall { rule, .. }
            | RuleError::InvalidSetup { rule, .. } => Some(rule),
            RuleError::Randomness(_) => None,
        }
    }
}

/// Shorthand for `Err(RuleError::illegal(rule, reason))`, to keep rule checks on one line.
pub fn ensure(
    ok: bool,
    rule: &'static str,
    reason: impl FnOnce() -> String,
) -> Result<(), RuleError> {
    if ok {
        Ok(())
    } else {
        Err(RuleError::illegal(rule, reason()))
    }
}
