//! Stances (IT-33, IT-34): a type and an amount, chosen in secret and revealed together (IT-2).

use clash_core::{RuleError, Seat};
use serde::{Deserialize, Serialize};

use super::{ConflictEvent, Name, Step, current_turn, own_fighter, running};
use crate::Table;
use crate::moves::{Action, Move};

/// A stance: an energy type and an amount; amount 0 is "no stance" (IT-33).
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "iron-triangle/"))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Stance {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub action: Option<Action>,
    #[serde(default)]
    pub amount: u32,
}

impl Stance {
    pub const NONE: Stance = Stance {
        action: None,
        amount: 0,
    };

    /// A stance of 0 has no type, whatever was written.
    pub fn new(action: Option<Action>, amount: u32) -> Stance {
        match action {
            Some(a) if amount > 0 => Stance {
                action: Some(a),
                amount,
            },
            _ => Stance::NONE,
        }
    }

    /// The stance matches when its type is the action of the move played (IT-34).
    pub fn matches(self, mv: Move) -> bool {
        self.amount > 0 && self.action == Some(mv.action)
    }

    /// The matched amount for `mv`, else 0 (a feint has no effect, IT-34).
    pub fn matched_amount(self, mv: Move) -> u32 {
        if self.matches(mv) { self.amount } else { 0 }
    }
}

/// Commit a stance in secret (IT-32 step 2, IT-33).
pub fn take(
    table: &Table,
    seat: Seat,
    character: &str,
    stance: Stance,
    out: &mut Vec<ConflictEvent>,
) -> Result<(), RuleError> {
    let c = running(table, "IT-32")?;
    let turn = current_turn(c, "IT-32")?;
    let id = own_fighter(table, c, seat, character, "IT-32")?;
    let slot = turn.slot(id).ok_or_else(|| {
        RuleError::illegal(
            "IT-32",
            format!("{character} is not taking part in this turn"),
        )
    })?;
    if turn.step != Step::Stances {
        return Err(RuleError::illegal(
            "IT-32",
            "this is not the moment to choose stances",
        ));
    }
    if turn.stances[slot].is_some() {
        return Err(RuleError::illegal("IT-2", "a committed stance is final"));
    }
    if let Some(a) = stance.action {
        let have = super::character(table, c, id).energy.current.get(a);
        if stance.amount > have {
            return Err(RuleError::illegal(
                "IT-33",
                format!("a stance is at most the current {a} energy ({have})"),
            ));
        }
    }
    out.push(ConflictEvent::StanceTaken {
        character: name(c, id),
        owner: seat,
        stance: Some(stance),
    });
    let other = 1 - slot;
    if let (Some(theirs), Some(opp)) = (turn.stances[other], turn.opponent) {
        let (a, b) = if slot == 0 {
            (stance, theirs)
        } else {
            (theirs, stance)
        };
        out.push(ConflictEvent::StancesRevealed {
            active: (name(c, turn.active), a),
            opponent: (name(c, opp), b),
        });
    }
    Ok(())
}

fn name(c: &super::Conflict, id: super::FighterId) -> Name {
    c.f(id).name.clone()
}

pub fn apply(table: &mut Table, event: &ConflictEvent) {
    let Some(c) = table.conflict.as_mut() else {
        return;
    };
    let Some(turn) = c.turn.as_mut() else { return };
    match event {
        ConflictEvent::StanceTaken {
            character, stance, ..
        } => {
            let slot = c
                .fighters
                .iter()
                .position(|f| f.name.is(character))
                .and_then(|i| turn.slot(i as u8));
            if let Some(slot) = slot {
                turn.stances[slot] = Some(stance.unwrap_or_default());
            }
        }
        ConflictEvent::StancesRevealed { active, opponent } => {
            turn.stances = [Some(active.1), Some(opponent.1)];
            turn.stances_revealed = true;
            turn.step = Step::Moves;
        }
        _ => {}
    }
}
