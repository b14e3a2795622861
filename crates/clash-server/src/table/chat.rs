//! Table talk: lines from the GM and the players, stored in the table log like everything else
//! that happens at the table (so they survive a restart, keep their order among the moves, and
//! are hash-chained), read by everyone at the table, spectators included. A player may whisper
//! to the GM, and the GM to one player (see [`crate::ops::say`]).

use crate::error::TableError;

/// The longest line of talk, in characters.
pub const MAX_LINE: usize = 500;
/// The most lines of talk one table keeps; past it the table asks to be wound down.
pub const MAX_LINES: usize = 10_000;

/// A line as it will be stored: trimmed; refused when empty, too long, or holding control
/// characters other than line breaks (which could hide text or reorder what surrounds it).
pub fn clean(text: &str) -> Result<String, TableError> {
    let text = text.trim();
    if text.is_empty() {
        return Err(TableError::malformed("say something: the line is empty"));
    }
    if text.chars().count() > MAX_LINE {
        return Err(TableError::malformed(format!(
            "a line of table talk is at most {MAX_LINE} characters; this one has {}",
            text.chars().count()
        )));
    }
    clash_core::text::plain_text("a line of table talk", text).map_err(TableError::malformed)?;
    Ok(text.to_string())
}
