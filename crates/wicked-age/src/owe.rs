//! The Owe List (WA-14 to WA-18) and the end of a chapter.

use clash_core::{RuleError, Seat, ensure};
use serde::{Deserialize, Serialize};

use crate::conflict::Conflict;
use crate::roll::bigger_dice;
use crate::state::{Draft, Event, State};

/// One line of the Owe List: a PC and the player controlling it (WA-14).
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "wicked-age/"))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OweEntry {
    pub character: String,
    pub player: Seat,
}

/// The oldest entry crossed off at a chapter's end: its player picks the next Oracle (WA-17.1).
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "wicked-age/"))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OracleClaim {
    /// The chapter the claim is for.
    pub chapter: u32,
    pub entry: OweEntry,
    #[serde(default)]
    pub oracle: Option<String>,
    #[serde(default)]
    pub story_element: Option<String>,
}

/// A character who will come back in a later chapter, and why.
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "wicked-age/"))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Return {
    pub character: String,
    /// The chapter that was current when the entry was crossed off.
    pub crossed_off_in_chapter: u32,
    pub by: Seat,
}

/// WA-15 / WA-16: the entries owed when round 1 ends, in participant order.
pub fn round_one_entries(state: &State, conflict: &Conflict) -> Vec<(OweEntry, String)> {
    let mut owed = Vec::new();
    for p in conflict.participants.iter().filter(|p| p.in_conflict) {
        let Some(ch) = state.character(&p.name) else {
            continue;
        };
        if !ch.is_pc() {
            continue; // WA-14: never NPCs.
        }
        let bigger = conflict
            .round_one_opponents_of(&p.name)
            .into_iter()
            .find(|o| {
                conflict
                    .participant(o)
                    .is_some_and(|op| bigger_dice(&op.round_one_dice, &p.round_one_dice))
            });
        if let Some(opponent) = bigger {
            owed.push((
                OweEntry {
                    character: p.name.clone(),
                    player: ch.controller,
                },
                opponent,
            ));
        }
    }
    owed
}

/// WA-17.3 / WA-18: a player crosses off an entry of a character they control for an Owe d6.
pub fn cash_in(
    d: &mut Draft,
    seat: Seat,
    pc: &str,
    entry_character: &str,
) -> Result<(), RuleError> {
    let conflict = d.state.conflict.as_ref().filter(|c| c.ended.is_none());
    let conflict = conflict
        .ok_or_else(|| RuleError::illegal("WA-18", "an Owe d6 is cashed in during a conflict"))?;
    let participant = conflict
        .participant(pc)
        .filter(|p| p.in_conflict)
        .ok_or_else(|| RuleError::illegal("WA-18", format!("{pc} is not in the conflict")))?;
    let ch = d
        .state
        .character(pc)
        .ok_or_else(|| RuleError::illegal("WA-18", format!("no character {pc}")))?;
    ensure(ch.is_pc(), "WA-17", || {
        format!("{pc} is an NPC; the Owe d6 goes to a PC")
    })?;
    if ch.controller != seat {
        return Err(RuleError::not_your_call(
            "WA-17",
            seat,
            format!("{pc} is not your PC"),
        ));
    }
    ensure(!participant.owe_die, "WA-18", || {
        format!("{pc} already has an Owe d6 in this conflict")
    })?;
    let position = d
        .state
        .owe_list
        .iter()
        .position(|e| e.character == entry_character && e.player == seat)
        .ok_or_else(|| {
            RuleError::illegal(
                "WA-17",
                format!("you have no Owe List entry for {entry_character}"),
            )
        })?;
    let entry = d.state.owe_list[position].clone();
    d.emit(Event::OweCashedIn {
        pc: pc.to_string(),
        entry,
        position,
    });
    Ok(())
}

/// WA-17.1: the chapter ends; the oldest entry's player picks the Oracle and the entry is
/// crossed off.
pub fn end_chapter(d: &mut Draft, seat: Seat) -> Result<(), RuleError> {
    if seat != Seat::Gm {
        return Err(RuleError::not_your_call(
            "WA-17",
            seat,
            "the GM ends the chapter",
        ));
    }
    ensure(d.state.conflict.is_none(), "WA-17", || {
        "a conflict is still open".to_string()
    })?;
    if let Some(claim) = d.state.oracle.as_ref().filter(|c| c.oracle.is_none()) {
        return Err(RuleError::illegal(
            "WA-17",
            format!(
                "{} has not yet picked the Oracle for chapter {}",
                crate::seat_name(&d.state, claim.entry.player),
                claim.chapter
            ),
        ));
    }
    ensure(
        d.state.chapter < crate::limits::MAX_CHAPTER,
        crate::limits::LIMIT,
        || {
            format!(
                "chapters go up to {} (a table limit)",
                crate::limits::MAX_CHAPTER
            )
        },
    )?;
    let chapter = d.state.chapter + 1;
    d.emit(Event::ChapterEnded { chapter });
    if let Some(entry) = d.state.owe_list.first().cloned() {
        d.emit(Event::OracleClaimed { chapter, entry });
    }
    Ok(())
}

/// WA-17.1: the claiming player names the Oracle and one of its story elements.
pub fn choose_oracle(
    d: &mut Draft,
    seat: Seat,
    oracle: &str,
    story_element: &str,
) -> Result<(), RuleError> {
    let claim = d
        .state
        .oracle
        .as_ref()
        .filter(|c| c.oracle.is_none())
        .ok_or_else(|| RuleError::illegal("WA-17", "no Oracle choice is owed"))?;
    if claim.entry.player != seat {
        return Err(RuleError::not_your_call(
            "WA-17",
            seat,
            format!(
                "{} picks the Oracle",
                crate::seat_name(&d.state, claim.entry.player)
            ),
        ));
    }
    ensure(
        !oracle.trim().is_empty() && !story_element.trim().is_empty(),
        "WA-17",
        || "name the Oracle and one of its story elements".to_string(),
    )?;
    crate::limits::TABLE.name("an Oracle", oracle)?;
    crate::limits::TABLE.name("a story element", story_element)?;
    d.emit(Event::OracleChosen {
        player: seat,
        oracle: oracle.to_string(),
        story_element: story_element.to_string(),
    });
    Ok(())
}

/// WA-17.2: any player crosses off one entry of a character to bring it back later.
pub fn bring_back(d: &mut Draft, seat: Seat, character: &str) -> Result<(), RuleError> {
    if !matches!(seat, Seat::Player(_)) {
        return Err(RuleError::not_your_call(
            "WA-17",
            seat,
            "players cross entries off the Owe List",
        ));
    }
    let position = d
        .state
        .owe_list
        .iter()
        .position(|e| e.character == character)
        .ok_or_else(|| {
            RuleError::illegal("WA-17", format!("{character} is not on the Owe List"))
        })?;
    d.emit(Event::BroughtBack {
        character: character.to_string(),
        by: seat,
        position,
    });
    Ok(())
}
