//! Who wins a turn (IT-48, D-1).

use serde::{Deserialize, Serialize};

use super::Name;
use crate::moves::Move;

/// Why the winner won (IT-48 checks 1 to 3).
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "iron-triangle/"))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WinReason {
    /// Check 1: the winner's action beats the loser's.
    Action,
    /// Check 2: same or neutral actions, the winner's element beats the loser's.
    Element,
    /// Check 3: otherwise a tie, but only the loser's move was disadvantaged.
    Disadvantage,
}

/// How a turn came out.
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "iron-triangle/"))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "result", rename_all = "snake_case")]
pub enum TurnOutcome {
    Win {
        winner: Name,
        loser: Name,
        by: WinReason,
        winning_move: Move,
        losing_move: Move,
        combo: bool,
    },
    Tie {
        moves: (Move, Move),
    },
    /// One or both participants surrendered: no winner check, no energy change (D-10).
    Surrender {
        surrendered: Vec<Name>,
    },
}

/// The IT-48 checks in order. `Some((true, reason))` = the first move wins; `None` = tie (D-1).
pub fn judge(
    first: Move,
    first_disadvantaged: bool,
    second: Move,
    second_disadvantaged: bool,
) -> Option<(bool, WinReason)> {
    if first.action.beats(second.action) {
        return Some((true, WinReason::Action));
    }
    if second.action.beats(first.action) {
        return Some((false, WinReason::Action));
    }
    if first.element.beats(second.element) {
        return Some((true, WinReason::Element));
    }
    if second.element.beats(first.element) {
        return Some((false, WinReason::Element));
    }
    match (first_disadvantaged, second_disadvantaged) {
        (true, false) => Some((false, WinReason::Disadvantage)),
        (false, true) => Some((true, WinReason::Disadvantage)),
        _ => None,
    }
}
