//! Whose turn it is (IT-25, IT-26, D-8, D-9, D-13) and picking the opponent (IT-32 step 1).

use clash_core::{RuleError, Seat};

use super::{
    ChainEnd, Conflict, ConflictEvent, FighterId, Phase, Picker, Side, Status, Step, Turn, Window,
    controller, current_turn, running,
};
use crate::Table;

/// Whether `seat` may make the pick `picker` calls for.
fn may_pick(table: &Table, c: &Conflict, picker: Picker, seat: Seat) -> bool {
    match picker {
        // The players pick the first active character; the GM steps in if they stall (D-13).
        Picker::Players => {
            seat == Seat::Gm
                || c.ids()
                    .any(|f| c.f(f).status == Status::In && controller(table, c, f) == seat)
        }
        Picker::Seat { seat: s } => s == seat,
    }
}

/// Players must pick an in-conflict PC with the fewest turns (IT-26); continuing as the active
/// character of the previous turn adds no turn (D-8), so it is always allowed. The GM's side is
/// exempt, and the GM's own picks are not bound by it.
pub fn respects_equal_turns(
    c: &Conflict,
    seat: Seat,
    candidate: FighterId,
    capped: Option<FighterId>,
) -> bool {
    if seat == Seat::Gm || c.f(candidate).side == Side::Gm || c.last_active == Some(candidate) {
        return true;
    }
    let fewest = c
        .in_on(Side::Players)
        .filter(|f| Some(*f) != capped)
        .map(|f| c.f(f).turns)
        .min();
    fewest.is_none_or(|min| c.f(candidate).turns <= min)
}

/// Why a pick of the next active character is refused: the rule it breaks, without the
/// message, so that listing the legal picks builds no text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PickRefusal {
    NotPicking,
    NotYourCall(Picker),
    NotIn,
    FirstIsPc,
    WinnersSide,
    Capped,
    EqualTurns,
}

impl PickRefusal {
    pub fn error(self, c: &Conflict, seat: Seat, candidate: FighterId) -> RuleError {
        let name = &c.f(candidate).name;
        match self {
            PickRefusal::NotPicking => {
                RuleError::illegal("IT-26", "the active character is not being picked now")
            }
            PickRefusal::NotYourCall(picker) => {
                let who = match picker {
                    Picker::Players => "the players pick".to_string(),
                    Picker::Seat { seat: Seat::Gm } => "the GM picks".to_string(),
                    Picker::Seat { .. } => "the winner's player picks".to_string(),
                };
                RuleError::not_your_call("IT-26", seat, format!("{who} the next active character"))
            }
            PickRefusal::NotIn => {
                RuleError::illegal("IT-26", format!("{name} is not in the conflict"))
            }
            PickRefusal::FirstIsPc => {
                RuleError::illegal("D-13", "the first active character is a PC")
            }
            PickRefusal::WinnersSide => RuleError::illegal(
                "D-9",
                "the next active character comes from the winner's side",
            ),
            PickRefusal::Capped => RuleError::illegal(
                "IT-46",
                format!("{name} has won three times in this chain and must pass to a teammate"),
            ),
            PickRefusal::EqualTurns => RuleError::illegal(
                "IT-26",
                "players must pick an in-conflict PC with the fewest turns",
            ),
        }
    }
}

/// The first rule a pick of the next active character breaks, if any (IT-25, IT-26, IT-46,
/// D-9, D-13).
pub fn pick_refusal(
    table: &Table,
    c: &Conflict,
    seat: Seat,
    candidate: FighterId,
) -> Option<PickRefusal> {
    let Phase::PickActive {
        picker,
        side,
        capped,
    } = c.phase
    else {
        return Some(PickRefusal::NotPicking);
    };
    let refusal = if !may_pick(table, c, picker, seat) {
        PickRefusal::NotYourCall(picker)
    } else if !c.is_in(candidate) {
        PickRefusal::NotIn
    } else if picker == Picker::Players && c.f(candidate).side != Side::Players {
        PickRefusal::FirstIsPc
    } else if side.is_some_and(|s| s != c.f(candidate).side) {
        PickRefusal::WinnersSide
    } else if capped == Some(candidate) {
        PickRefusal::Capped
    } else if !respects_equal_turns(c, seat, candidate, capped) {
        PickRefusal::EqualTurns
    } else {
        return None;
    };
    Some(refusal)
}

/// Check a pick of the next active character; the reason is the rule it breaks.
pub fn check_pick(
    table: &Table,
    c: &Conflict,
    seat: Seat,
    candidate: FighterId,
) -> Result<(), RuleError> {
    match pick_refusal(table, c, seat, candidate) {
        None => Ok(()),
        Some(refusal) => Err(refusal.error(c, seat, candidate)),
    }
}

/// Pick the next active character (IT-25, IT-26).
pub fn pick_active(
    table: &Table,
    seat: Seat,
    name: &str,
    out: &mut Vec<ConflictEvent>,
) -> Result<(), RuleError> {
    let c = running(table, "IT-26")?;
    let id = c.fighter_id(name).ok_or_else(|| {
        RuleError::illegal(
            "IT-26",
            format!(
                "{} is not part of this conflict",
                crate::limits::shown(name)
            ),
        )
    })?;
    check_pick(table, c, seat, id)?;
    if let Some(chain) = c.chain.as_ref().filter(|ch| ch.side != c.f(id).side) {
        out.push(ConflictEvent::ChainEnded {
            reason: ChainEnd::OtherSide,
            cards: chain.moves(),
        });
    }
    out.push(ConflictEvent::ActivePicked {
        character: c.f(id).name.clone(),
        by: seat,
        counts_as_turn: c.last_active != Some(id),
    });
    Ok(())
}

/// The opponents the active character may pick: in the conflict, on the other side, and the
/// bound one if There Can Be Only One binds them (IT-32, IT-59 #3, D-27).
pub fn may_face(c: &Conflict, active: FighterId, opponent: FighterId) -> Result<(), RuleError> {
    if !c.is_in(opponent) || c.f(opponent).side == c.f(active).side {
        return Err(RuleError::illegal(
            "IT-32",
            format!("{} is not an opponent in the conflict", c.f(opponent).name),
        ));
    }
    if let Some(bound) = c.f(active).bound_to.filter(|b| c.is_in(*b))
        && bound != opponent
    {
        return Err(RuleError::illegal(
            "IT-59",
            format!(
                "There Can Be Only One: {} must pick {}",
                c.f(active).name,
                c.f(bound).name
            ),
        ));
    }
    Ok(())
}

/// The active character picks an opponent (IT-32 step 1); W1 closes.
pub fn pick_opponent(
    table: &Table,
    seat: Seat,
    name: &str,
    out: &mut Vec<ConflictEvent>,
) -> Result<(), RuleError> {
    let c = running(table, "IT-32")?;
    let turn = current_turn(c, "IT-32")?;
    if controller(table, c, turn.active) != seat {
        return Err(RuleError::not_your_call(
            "IT-32",
            seat,
            "the active character picks the opponent",
        ));
    }
    if turn.step != Step::PickOpponent {
        return Err(RuleError::illegal(
            "IT-32",
            "the opponent is already picked",
        ));
    }
    let id = c.fighter_id(name).ok_or_else(|| {
        RuleError::illegal(
            "IT-32",
            format!(
                "{} is not part of this conflict",
                crate::limits::shown(name)
            ),
        )
    })?;
    may_face(c, turn.active, id)?;
    if let Some(chain) = c.chain.as_ref().filter(|ch| ch.against != id) {
        out.push(ConflictEvent::ChainEnded {
            reason: ChainEnd::OtherOpponent,
            cards: chain.moves(),
        });
    }
    out.push(ConflictEvent::OpponentPicked {
        active: c.f(turn.active).name.clone(),
        opponent: c.f(id).name.clone(),
    });
    Ok(())
}

pub fn apply(table: &mut Table, event: &ConflictEvent) {
    let Some(c) = table.conflict.as_mut() else {
        return;
    };
    match event {
        ConflictEvent::ActivePicked {
            character,
            counts_as_turn,
            ..
        } => {
            let Some(id) = c.fighter_id(character) else {
                return;
            };
            c.turns_played += 1;
            if *counts_as_turn {
                c.f_mut(id).turns += 1;
            }
            for f in &mut c.fighters {
                f.special_this_turn = false;
            }
            c.last_active = Some(id);
            c.turn = Some(Turn::new(c.turns_played, id));
            c.phase = Phase::Turn;
        }
        ConflictEvent::OpponentPicked { opponent, .. } => {
            let id = c.fighter_id(opponent);
            if let Some(turn) = c.turn.as_mut() {
                turn.opponent = id;
                turn.step = Step::Stances;
            }
        }
        ConflictEvent::WindowOpened { window, who } => {
            let asked: Vec<FighterId> = who.iter().filter_map(|n| c.fighter_id(n)).collect();
            if let Some(turn) = c.turn.as_mut() {
                turn.step = if *window == Window::W4 {
                    Step::AfterReveal
                } else {
                    Step::BeforeResolution
                };
                turn.done.clear();
                turn.asked = asked;
            }
        }
        ConflictEvent::WindowPassed { character, .. } => {
            let id = c.fighter_id(character);
            if let (Some(turn), Some(id)) = (c.turn.as_mut(), id) {
                turn.done.push(id);
            }
        }
        _ => {}
    }
}
