//! Bounds on what a Morra setup or hand may hold (MO-1 to MO-4): a setup or a command beyond
//! them is refused naming the rule, so no input costs unbounded work.

/// Fingers a hand may show (MO-3).
pub const FINGERS: std::ops::RangeInclusive<u8> = 1..=3;
/// Calls a hand may make (MO-4).
pub const CALLS: std::ops::RangeInclusive<u8> = 2..=6;
/// Targets a table may play to (MO-2).
pub const TARGETS: std::ops::RangeInclusive<u32> = 1..=99;
/// Round limits a table may set (MO-2).
pub const ROUND_LIMITS: std::ops::RangeInclusive<u32> = 1..=200;
/// The longest name a player may be given, in characters.
pub const NAME_LIMIT: usize = 24;
