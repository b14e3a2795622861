//! Bounds on what a table may hold and on the texts it is given (issue 19): a setup or a
//! command beyond them is refused with the rule the text or count belongs to, and the message
//! says the limit. They are far above anything a real table needs.
//!
//! | what | limit |
//! |---|---|
//! | characters on a table (setup and created) | [`MAX_CHARACTERS`] |
//! | countdowns | [`MAX_COUNTDOWNS`] |
//! | names (characters, moves, backgrounds, countdowns) | [`MAX_NAME`] characters |
//! | texts (stakes, outcomes, narration, problems, beliefs, flaws, goals, reasons) | [`MAX_TEXT`] characters |
//! | energy maximum of one type | [`MAX_ENERGY`] |
//! | level | [`MAX_LEVEL`] |
//! | backgrounds on one sheet | [`MAX_BACKGROUNDS`] |
//! | resolved problems remembered in a setup | [`MAX_CLOSED_PROBLEMS`] |

use clash_core::RuleError;

pub const MAX_CHARACTERS: usize = 64;
pub const MAX_COUNTDOWNS: usize = 32;
pub const MAX_NAME: usize = 60;
pub const MAX_TEXT: usize = 2000;
pub const MAX_ENERGY: u32 = 100;
pub const MAX_LEVEL: u32 = 100;
pub const MAX_BACKGROUNDS: usize = 3;
pub const MAX_CLOSED_PROBLEMS: usize = 500;

/// Refuse a name longer than [`MAX_NAME`] characters, or one holding control characters or
/// characters that reorder or hide text (see `clash_core::text::plain_name`).
pub fn name(text: &str, rule: &'static str, what: &str) -> Result<(), RuleError> {
    clash_core::text::plain_name(what, text).map_err(|e| RuleError::illegal(rule, e))?;
    bounded(text, MAX_NAME, rule, what)
}

/// Refuse a text longer than [`MAX_TEXT`] characters, or one holding control characters other
/// than line breaks and tabs.
pub fn text(text: &str, rule: &'static str, what: &str) -> Result<(), RuleError> {
    clash_core::text::plain_text(what, text).map_err(|e| RuleError::illegal(rule, e))?;
    bounded(text, MAX_TEXT, rule, what)
}

fn bounded(text: &str, max: usize, rule: &'static str, what: &str) -> Result<(), RuleError> {
    if text.chars().count() > max {
        return Err(RuleError::illegal(
            rule,
            format!("{what} is too long: at most {max} characters"),
        ));
    }
    Ok(())
}

/// A name someone sent, quoted for a refusal: clipped, so a huge one is not echoed back.
pub fn shown(name: &str) -> String {
    const CLIP: usize = 40;
    if name.chars().count() > CLIP {
        let clipped: String = name.chars().take(CLIP).collect();
        format!("“{clipped}…”")
    } else {
        format!("“{name}”")
    }
}
