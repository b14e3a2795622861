//! Table limits: how much a setup or a command may hold, so that no input costs unbounded work
//! or memory. These are not rules of the game; a refusal for going past one names the rule
//! [`LIMIT`].

use clash_core::TableLimits;

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

/// Names and texts bounded by [`MAX_NAME`] and [`MAX_TEXT`], refused under [`LIMIT`].
pub const TABLE: TableLimits = TableLimits {
    rule: LIMIT,
    max_name: MAX_NAME,
    max_text: MAX_TEXT,
};
