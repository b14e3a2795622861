//! Positions: a campaign where it stands, written as a setup (issue 18), so that a table or a
//! scenario can start in the middle of play.
//!
//! A position is an ordinary [`Setup`]. Each character is written as created (its creation
//! dice, WA-2 and WA-6) with the sizes it has lost since (`losses`, a strength's `die`) and,
//! if an agreed consequence killed it, `"status": "dead"`; being out of the chapter follows
//! from the dice. The Owe List and the chapter are as they stand. A conflict under way (or
//! ended with consequences to settle) is written as the table holds it under `conflict`: the
//! round and stage, each participant's standing, the Advantage die, initiative rolls and
//! order, the challenge awaiting its answer, the exchanges so far, the knockouts and how far
//! their consequences are settled, and any ending proposed. `oracle` and `returning` carry the
//! Oracle claimed for this chapter and the characters due back.
//!
//! Nothing in this game is hidden, so every viewer gets the whole position. The last closed
//! conflict, kept only for reading back, is not part of a position.

use std::collections::HashSet;

use clash_core::{RuleError, Seat};

use crate::character::{CharacterSpec, Status};
use crate::conflict::{Conflict, Stage};
use crate::dice::Die;
use crate::limits;
use crate::roll::Roll;
use crate::state::{Setup, State};

fn bad(rule: &'static str, why: impl Into<String>) -> RuleError {
    RuleError::setup(rule, why)
}

/// The campaign where it stands, as a setup that starts a new table exactly here.
pub fn export(state: &State) -> Setup {
    Setup {
        characters: state.characters.iter().map(CharacterSpec::of).collect(),
        owe_list: state.owe_list.clone(),
        chapter: state.chapter,
        conflict: state.conflict.clone(),
        oracle: state.oracle.clone(),
        returning: state.returning.clone(),
        variant: state.rules.variant(),
    }
}

/// Put the conflict, the Oracle claim and the returning characters of `setup` on `state`
/// (built from its sheets), checking them against the rules.
pub fn resume(state: &mut State, setup: &Setup) -> Result<(), RuleError> {
    if let Some(claim) = &setup.oracle {
        if !matches!(claim.entry.player, Seat::Player(_)) {
            return Err(bad("WA-14", "an Owe List entry is a player's"));
        }
        limits::TABLE.setup_name("an Oracle", claim.oracle.as_deref().unwrap_or(""))?;
        limits::TABLE.setup_name(
            "a story element",
            claim.story_element.as_deref().unwrap_or(""),
        )?;
    }
    limits::TABLE.setup_count(
        "characters due back",
        setup.returning.len(),
        limits::MAX_CHARACTERS,
    )?;
    for r in &setup.returning {
        if state.character(&r.character).is_none() {
            return Err(bad(
                "WA-17",
                format!("{} is due back but has no sheet", r.character),
            ));
        }
    }
    state.oracle = setup.oracle.clone();
    state.returning = setup.returning.clone();
    if let Some(conflict) = &setup.conflict {
        check_conflict(state, conflict)?;
        state.conflict = Some(conflict.clone());
    }
    Ok(())
}

fn check_conflict(st: &State, c: &Conflict) -> Result<(), RuleError> {
    limits::TABLE.setup_text("the action", &c.action)?;
    check_participants(st, c)?;
    if !(1..=st.rules.rounds).contains(&c.round) {
        return Err(bad(
            "WA-21",
            format!("a conflict lasts at most {} rounds", st.rules.rounds),
        ));
    }
    let remaining = c.remaining().count();
    match (&c.ended, c.stage) {
        (Some(_), Stage::Over) if c.open_knockouts().next().is_none() => {
            return Err(bad(
                "WA-26",
                "an ended conflict with every consequence settled is closed",
            ));
        }
        (Some(_), Stage::Over) => {}
        (None, Stage::Over) | (Some(_), _) => {
            return Err(bad("WA-24", "a conflict is over exactly when it has ended"));
        }
        (None, _) if remaining < 2 => {
            return Err(bad(
                "WA-24",
                "a conflict ends when fewer than two participants remain",
            ));
        }
        _ => {}
    }
    check_advantage(c)?;
    check_turns(c)?;
    check_knockouts(c)?;
    check_rolls(c)?;
    Ok(())
}

/// WA-19, WA-4, WA-8, WA-18: who takes part, and whether they may.
fn check_participants(st: &State, c: &Conflict) -> Result<(), RuleError> {
    if c.participants.len() < 2 {
        return Err(bad("WA-19", "a conflict needs at least two characters"));
    }
    limits::TABLE.setup_count(
        "participants in a conflict",
        c.participants.len(),
        limits::MAX_PARTICIPANTS,
    )?;
    let mut seen = HashSet::new();
    for p in &c.participants {
        if !seen.insert(p.name.as_str()) {
            return Err(bad("WA-19", format!("{} takes part twice", p.name)));
        }
        let ch = st
            .character(&p.name)
            .ok_or_else(|| bad("WA-19", format!("{} takes part but has no sheet", p.name)))?;
        if p.in_conflict && ch.status != Status::Active {
            let rule = if ch.is_pc() { "WA-4" } else { "WA-8" };
            return Err(bad(
                rule,
                format!(
                    "{} is out of the chapter or dead and cannot be in a conflict",
                    p.name
                ),
            ));
        }
        if p.owe_die && !ch.is_pc() {
            return Err(bad("WA-18", format!("{} is an NPC: no Owe d6", p.name)));
        }
    }
    let known = |n: &str| seen.contains(n);
    let names = c
        .round_one_pairs
        .iter()
        .flatten()
        .chain(
            c.exchanges
                .iter()
                .flat_map(|e| [&e.challenger, &e.answerer]),
        )
        .chain(c.order.iter())
        .chain(c.proposal.iter().flat_map(|p| &p.agreed));
    for n in names {
        if !known(n) {
            return Err(bad(
                "WA-19",
                format!("{n} does not take part in this conflict"),
            ));
        }
    }
    Ok(())
}

/// WA-20: the Advantage die is held by at most one participant still in.
fn check_advantage(c: &Conflict) -> Result<(), RuleError> {
    match &c.advantage {
        Some(h) if !c.is_in(h) => Err(bad(
            "WA-20",
            format!("{h} cannot hold the Advantage die: only a participant still in holds it"),
        )),
        _ => Ok(()),
    }
}

/// WA-21 to WA-23, WA-25: initiative, the order, the standing roll, the challenge awaiting
/// its answer, and negotiation.
fn check_turns(c: &Conflict) -> Result<(), RuleError> {
    match c.stage {
        Stage::Initiative => {
            if !c.order.is_empty() || c.standing.is_some() || c.pending.is_some() {
                return Err(bad(
                    "WA-22",
                    "the order is set only once everyone has rolled initiative",
                ));
            }
            if c.participants.iter().any(|p| p.turn_used) {
                return Err(bad("WA-21", "turns come after initiative"));
            }
            if c.remaining().all(|p| p.initiative.is_some()) {
                return Err(bad("WA-22", "once everyone has rolled, the order is set"));
            }
        }
        Stage::Turns => {
            if let Some(p) = c.remaining().find(|p| !c.order.contains(&p.name)) {
                return Err(bad(
                    "WA-22",
                    format!(
                        "{} is still in but has no place in the initiative order",
                        p.name
                    ),
                ));
            }
            let first = c.order.first().and_then(|n| c.participant(n));
            if c.standing.is_some() && first.is_none_or(|p| p.turn_used) {
                return Err(bad(
                    "WA-22",
                    "the first participant's roll stands only until it is used as a challenge",
                ));
            }
            if let Some(p) = &c.pending {
                if p.challenger == p.target || !c.is_in(&p.challenger) || !c.is_in(&p.target) {
                    return Err(bad(
                        "WA-24",
                        "a challenge waits between two different participants still in",
                    ));
                }
            } else if c.next_challenger().is_none() && c.ended.is_none() {
                return Err(bad("WA-23", "the round ends once every turn is used"));
            }
        }
        Stage::Over => {
            if c.pending.is_some() || c.advantage.is_some() {
                return Err(bad(
                    "WA-26",
                    "when a conflict ends, challenges and the Advantage die vanish",
                ));
            }
        }
    }
    // A proposal stays on the table until the order is set (or the conflict ends by it).
    if c.proposal.is_some() && (c.round < 2 || c.stage == Stage::Turns) {
        return Err(bad(
            "WA-25",
            "an ending is proposed only at the start of rounds 2 and 3, before initiative",
        ));
    }
    Ok(())
}

/// WA-24, WA-27: each participant out was knocked out once, by another participant.
fn check_knockouts(c: &Conflict) -> Result<(), RuleError> {
    let mut losers = HashSet::new();
    for k in &c.knockouts {
        if c.participant(&k.winner).is_none() || k.winner == k.loser {
            return Err(bad(
                "WA-24",
                format!("{} was knocked out by someone not in the conflict", k.loser),
            ));
        }
        if c.is_in(&k.loser) || !losers.insert(k.loser.as_str()) {
            return Err(bad(
                "WA-24",
                format!("{} leaves the conflict when knocked out, once", k.loser),
            ));
        }
        if let Some(alt) = k.alternative() {
            limits::TABLE.setup_text("an alternative's terms", &alt.terms)?;
            limits::TABLE.setup_count(
                "costs in an alternative",
                alt.costs.len(),
                limits::MAX_COSTS,
            )?;
        }
    }
    if let Some(p) = c
        .participants
        .iter()
        .find(|p| !p.in_conflict && !losers.contains(p.name.as_str()))
    {
        return Err(bad(
            "WA-24",
            format!("{} is out of the conflict without a knockout", p.name),
        ));
    }
    Ok(())
}

/// WA-1, WA-11: every die shows a face it has, and every roll's value is what its dice make.
fn check_rolls(c: &Conflict) -> Result<(), RuleError> {
    let rolls = c
        .participants
        .iter()
        .filter_map(|p| p.initiative.as_ref())
        .flat_map(|i| std::iter::once(&i.roll).chain(&i.rerolls))
        .chain(c.standing.iter())
        .chain(c.pending.iter().map(|p| &p.roll));
    for roll in rolls {
        check_roll(roll)?;
    }
    Ok(())
}

fn check_roll(roll: &Roll) -> Result<(), RuleError> {
    limits::TABLE.setup_count("dice in a roll", roll.dice.len(), 8)?;
    for d in &roll.dice {
        let on_chain = Die::CHAIN
            .iter()
            .any(|c| c.sides() == d.sides && d.sides > 0);
        if !on_chain || d.face == 0 || d.face > d.sides {
            return Err(bad(
                "WA-1",
                format!("a d{} cannot show {}", d.sides, d.face),
            ));
        }
    }
    if Roll::from_dice(roll.dice.clone()).value != roll.value {
        return Err(bad(
            "WA-11",
            format!("those dice do not make {}", roll.value.words()),
        ));
    }
    Ok(())
}
