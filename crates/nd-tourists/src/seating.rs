//! Who speaks for which party (ND-5) and which character acts (ND-28).

use clash_core::{RuleError, Seat};

use crate::setup::PartySheet;
use crate::state::{CharId, PartyId, State};

/// True when `seat` speaks for party `p`.
pub fn controls(state: &State, seat: Seat, p: PartyId) -> bool {
    state
        .table
        .parties
        .get(p as usize)
        .is_some_and(|s| s.seat == seat)
}

/// The party named `name`, which `seat` must control.
pub fn named_party(
    state: &State,
    seat: Seat,
    name: &str,
    rule: &'static str,
) -> Result<PartyId, RuleError> {
    crate::limits::TABLE.name("a party's name", name)?;
    let p = state
        .table
        .find_party(name)
        .ok_or_else(|| RuleError::illegal("ND-5", format!("no party is called “{name}”")))?;
    if controls(state, seat, p) {
        Ok(p)
    } else {
        Err(RuleError::not_your_call(
            rule,
            seat,
            format!("you do not speak for {name}"),
        ))
    }
}

/// The party acting for `seat`: the named one, else the only party in play it controls that
/// `eligible` accepts.
pub fn acting_party(
    state: &State,
    seat: Seat,
    name: &Option<String>,
    rule: &'static str,
    eligible: impl Fn(PartyId) -> bool,
) -> Result<PartyId, RuleError> {
    if let Some(name) = name {
        return named_party(state, seat, name, rule);
    }
    let mut mine = state
        .in_play()
        .filter(|p| controls(state, seat, *p) && eligible(*p));
    match (mine.next(), mine.next()) {
        (Some(p), None) => Ok(p),
        (None, _) => Err(RuleError::not_your_call(
            rule,
            seat,
            "none of the parties you speak for may do this now",
        )),
        (Some(_), Some(_)) => Err(RuleError::illegal(
            rule,
            "you speak for several parties: say which one acts",
        )),
    }
}

/// ND-28: the position of the character called `name` (any case) on the party's sheet.
pub fn named_character(sheet: &PartySheet, name: &str) -> Result<usize, RuleError> {
    crate::limits::TABLE.name("a character's name", name)?;
    sheet
        .characters
        .iter()
        .position(|c| c.name.eq_ignore_ascii_case(name))
        .ok_or_else(|| {
            RuleError::illegal(
                "ND-28",
                format!("{} has no character called “{name}”", sheet.name),
            )
        })
}

/// ND-28: the character who draws; the named one, else the first who has not conceded.
pub fn acting_character(
    state: &State,
    p: PartyId,
    name: &Option<String>,
) -> Result<CharId, RuleError> {
    let sheet = state
        .table
        .parties
        .get(p as usize)
        .ok_or_else(|| RuleError::illegal("ND-5", "that party is not at this table"))?;
    let party = state
        .party(p)
        .ok_or_else(|| RuleError::illegal("ND-5", "that party is not at this table"))?;
    let k = match name {
        Some(n) => named_character(sheet, n)?,
        None => party
            .characters
            .iter()
            .position(|c| !c.conceded)
            .ok_or_else(|| {
                RuleError::illegal(
                    "ND-31",
                    format!("every character of {} has conceded", sheet.name),
                )
            })?,
    };
    if party.characters.get(k).is_some_and(|c| c.conceded) {
        return Err(RuleError::illegal(
            "ND-31",
            format!("{} has conceded", sheet.characters[k].name),
        ));
    }
    Ok(k as CharId)
}
