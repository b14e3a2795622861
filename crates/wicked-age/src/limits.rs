//! Table limits: how much a setup or a command may hold, so that no input costs unbounded work
//! or memory. These are not rules of the game; a refusal for going past one names the rule
//! [`LIMIT`].

use clash_core::RuleError;

/// The rule ID of a refusal for going past a table limit.
pub const LIMIT: &str = "WA-limits";

/// Characters at one table (PCs and NPCs together).
pub const MAX_CHARACTERS: usize = 100;
/// Participants in one conflict.
pub const MAX_PARTICIPANTS: usize = 16;
/// Particular Strengths on one sheet.
pub const MAX_STRENGTHS: usize = 8;
/// Best Interests on one sheet.
pub const MAX_BEST_INTERESTS: usize = 8;
/// Sizes lost, listed in a setup, for one character (six forms of five steps each).
pub const MAX_LOSSES: usize = 30;
/// Entries on the Owe List.
pub const MAX_OWE_LIST: usize = 200;
/// Costs in one alternative consequence.
pub const MAX_COSTS: usize = 16;
/// The highest chapter number.
pub const MAX_CHAPTER: u32 = 100_000;
/// Characters in a name: a character, a strength, an Oracle or a story element.
pub const MAX_NAME: usize = 80;
/// Characters in free text: a description, a Best Interest, an action, terms.
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
