//! Table limits: how much a setup or a command may hold, so that no input costs unbounded work
//! or memory. These are not rules of the game; a refusal for going past one names the rule
//! [`LIMIT`].

use clash_core::RuleError;

/// The rule ID of a refusal for going past a table limit.
pub const LIMIT: &str = "ND-limits";

/// Parties at one table.
pub const MAX_PARTIES: usize = 16;
/// Characters in one party.
pub const MAX_CHARACTERS: usize = 16;
/// Aspects, and Weaknesses, on one character sheet.
pub const MAX_TRAITS: usize = 16;
/// Reserve cards one character holds, or may be dealt, at the start.
pub const MAX_RESERVE: usize = 20;
/// Characters in a name: a party, a character, an Attribute, an Aspect or a Weakness.
pub const MAX_NAME: usize = 80;
/// Characters in a goal or a declaration of tactics.
pub const MAX_TEXT: usize = 1000;

fn too_long(what: &str, max: usize) -> String {
    format!("{what} may be at most {max} characters long (a table limit)")
}

/// A name in a command: at most [`MAX_NAME`] characters.
pub fn name(what: &str, s: &str) -> Result<(), RuleError> {
    if s.chars().count() > MAX_NAME {
        return Err(RuleError::illegal(LIMIT, too_long(what, MAX_NAME)));
    }
    Ok(())
}

/// Free text in a command: at most [`MAX_TEXT`] characters.
pub fn text(what: &str, s: &str) -> Result<(), RuleError> {
    if s.chars().count() > MAX_TEXT {
        return Err(RuleError::illegal(LIMIT, too_long(what, MAX_TEXT)));
    }
    Ok(())
}

/// A name in a setup: at most [`MAX_NAME`] characters.
pub fn setup_name(what: &str, s: &str) -> Result<(), RuleError> {
    if s.chars().count() > MAX_NAME {
        return Err(RuleError::setup(LIMIT, too_long(what, MAX_NAME)));
    }
    Ok(())
}

/// Free text in a setup: at most [`MAX_TEXT`] characters.
pub fn setup_text(what: &str, s: &str) -> Result<(), RuleError> {
    if s.chars().count() > MAX_TEXT {
        return Err(RuleError::setup(LIMIT, too_long(what, MAX_TEXT)));
    }
    Ok(())
}

/// A count in a setup: at most `max`.
pub fn setup_count(what: &str, n: usize, max: usize) -> Result<(), RuleError> {
    if n > max {
        return Err(RuleError::setup(
            LIMIT,
            format!("at most {max} {what} (a table limit)"),
        ));
    }
    Ok(())
}
