//! Table limits: how much a setup or a command may hold, so that no input costs unbounded work
//! or memory. These are not rules of the game; a refusal for going past one names the rule
//! [`LIMIT`].

use clash_core::TableLimits;

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

/// Names and texts bounded by [`MAX_NAME`] and [`MAX_TEXT`], refused under [`LIMIT`].
pub const TABLE: TableLimits = TableLimits {
    rule: LIMIT,
    max_name: MAX_NAME,
    max_text: MAX_TEXT,
};
