//! Starting a conflict and entering it (IT-22, IT-23).

use clash_core::{RuleError, Seat};

use super::{
    BarReason, Conflict, ConflictEvent, Fighter, Name, Phase, Picker, Side, Status, running,
};
use crate::Table;
use crate::character::Character;

/// Why a character may not enter a conflict, if it may not (IT-23).
pub fn barred(ch: &Character) -> Option<BarReason> {
    if ch.energy.total() == 0 {
        Some(BarReason::NoEnergy)
    } else if ch.drunken_monkey_ban {
        Some(BarReason::DrunkenMonkey)
    } else {
        None
    }
}

/// The GM escalates to a conflict (IT-22) and picks the NPCs (IT-23).
pub fn start(
    table: &Table,
    seat: Seat,
    stakes: &str,
    npcs: &[Name],
    lethal: bool,
    minor: bool,
    out: &mut Vec<ConflictEvent>,
) -> Result<(), RuleError> {
    if seat != Seat::Gm {
        return Err(RuleError::not_your_call(
            "IT-22",
            seat,
            "only the GM escalates to a conflict",
        ));
    }
    if table.conflict.as_ref().is_some_and(Conflict::is_running) {
        return Err(RuleError::illegal("IT-22", "a conflict is already running"));
    }
    if stakes.trim().is_empty() {
        return Err(RuleError::illegal(
            "IT-22",
            "the GM sets the stakes: what winning and losing mean",
        ));
    }
    crate::limits::text(stakes, "IT-22", "the stakes")?;
    if npcs.is_empty() {
        return Err(RuleError::illegal("IT-23", "the GM picks at least one NPC"));
    }
    if npcs.len() > table.characters.len() {
        return Err(RuleError::illegal(
            "IT-23",
            "more NPCs are named than there are characters",
        ));
    }
    for (i, name) in npcs.iter().enumerate() {
        let ch = table.find(name, "IT-23")?;
        if ch.is_pc() {
            return Err(RuleError::illegal(
                "IT-23",
                format!("{name} is a PC; the GM picks NPCs"),
            ));
        }
        if ch.dead || npcs[..i].contains(name) {
            return Err(RuleError::illegal(
                "IT-23",
                format!("{name} cannot be picked (dead or listed twice)"),
            ));
        }
        if let Some(reason) = barred(ch) {
            return Err(RuleError::illegal(
                "IT-23",
                format!("{name} cannot enter: {}", reason.words()),
            ));
        }
    }
    let mut pcs = Vec::new();
    let mut bars = Vec::new();
    for ch in table.characters.iter().filter(|c| c.is_pc() && !c.dead) {
        match barred(ch) {
            Some(reason) => bars.push((Name::from(&ch.name), reason)),
            None => pcs.push(Name::from(&ch.name)),
        }
    }
    if pcs.is_empty() {
        return Err(RuleError::illegal(
            "IT-23",
            "no PC can enter a conflict now",
        ));
    }
    out.push(ConflictEvent::ConflictStarted {
        stakes: stakes.into(),
        lethal,
        minor,
        npcs: npcs.to_vec(),
        pcs,
        barred: bars,
    });
    Ok(())
}

/// A player answers for their PC: join, or sit out a lesser conflict (IT-23).
pub fn respond(
    table: &Table,
    seat: Seat,
    name: &str,
    join: bool,
    out: &mut Vec<ConflictEvent>,
) -> Result<(), RuleError> {
    let c = running(table, "IT-23")?;
    if c.phase != Phase::Forming {
        return Err(RuleError::illegal(
            "IT-23",
            "the fight has begun; nobody enters or sits out now",
        ));
    }
    let id = super::own_fighter(table, c, seat, name, "IT-23")?;
    if c.f(id).status != Status::Pending {
        return Err(RuleError::illegal(
            "IT-23",
            format!("{name} has already answered or cannot enter"),
        ));
    }
    if !join && c.lethal {
        return Err(RuleError::illegal(
            "IT-23",
            "in a lethal conflict every PC is in",
        ));
    }
    out.push(if join {
        ConflictEvent::JoinedConflict {
            character: c.f(id).name.clone(),
        }
    } else {
        ConflictEvent::SatOut {
            character: c.f(id).name.clone(),
        }
    });
    let others_pending = c.ids().any(|f| f != id && c.f(f).status == Status::Pending);
    let someone_in = join || c.in_on(Side::Players).next().is_some();
    if !others_pending && someone_in {
        out.push(ConflictEvent::FightBegan { lethal: c.lethal });
    }
    Ok(())
}

/// A player does not agree to kill: the conflict is a lesser one (IT-22, IT-23).
pub fn refuse_lethal(
    table: &Table,
    seat: Seat,
    out: &mut Vec<ConflictEvent>,
) -> Result<(), RuleError> {
    let c = running(table, "IT-23")?;
    if seat == Seat::Gm || !table.players.contains(&seat) {
        return Err(RuleError::not_your_call(
            "IT-23",
            seat,
            "lethality is the players' agreement",
        ));
    }
    if c.phase != Phase::Forming || !c.lethal {
        return Err(RuleError::illegal(
            "IT-23",
            "there is no lethal conflict being agreed",
        ));
    }
    out.push(ConflictEvent::LethalRefused { seat });
    Ok(())
}

/// The GM decides the outcome of a stalled or refused conflict (IT-23), or of one stalled by a
/// Samurai at 0 energy (D-11). Nobody dies of it, except the Samurai (IT-59 #12).
pub fn settle(
    table: &Table,
    seat: Seat,
    outcome: &str,
    out: &mut Vec<ConflictEvent>,
) -> Result<(), RuleError> {
    let c = running(table, "IT-23")?;
    if seat != Seat::Gm {
        return Err(RuleError::not_your_call(
            "IT-23",
            seat,
            "only the GM settles a stalled conflict",
        ));
    }
    crate::limits::text(outcome, "IT-23", "the outcome")?;
    let stalled_samurai = c.fighters.iter().any(|f| {
        f.samurai && f.status == Status::In && table.characters[f.character].energy.total() == 0
    });
    let before_fight = matches!(
        c.phase,
        Phase::Forming
            | Phase::PickActive {
                picker: Picker::Players,
                ..
            }
    );
    if !before_fight && !stalled_samurai {
        return Err(RuleError::illegal(
            "IT-23",
            "the GM settles only a conflict the players stall or refuse, or a Samurai stalls (D-11)",
        ));
    }
    let dead = c
        .fighters
        .iter()
        .filter(|f| f.samurai)
        .map(|f| f.name.clone())
        .collect();
    out.push(ConflictEvent::ConflictSettled {
        outcome: outcome.into(),
        dead,
    });
    Ok(())
}

fn fighter(table: &Table, name: &str, side: Side, status: Status) -> Option<Fighter> {
    let character = table.characters.iter().position(|c| c.name == name)?;
    Some(Fighter {
        name: name.into(),
        character,
        side,
        status,
        pile: Vec::new(),
        turns: 0,
        bound_to: None,
        drunken_monkey: false,
        samurai: false,
        blave_uses: 0,
        surrendered: false,
        special_this_turn: false,
    })
}

pub fn apply(table: &mut Table, event: &ConflictEvent) {
    match event {
        ConflictEvent::ConflictStarted {
            stakes,
            lethal,
            minor,
            npcs,
            pcs,
            barred,
        } => {
            let mut fighters: Vec<Fighter> = Vec::new();
            fighters.extend(
                pcs.iter()
                    .filter_map(|n| fighter(table, n, Side::Players, Status::Pending)),
            );
            fighters.extend(
                barred
                    .iter()
                    .filter_map(|(n, _)| fighter(table, n, Side::Players, Status::Barred)),
            );
            fighters.extend(
                npcs.iter()
                    .filter_map(|n| fighter(table, n, Side::Gm, Status::In)),
            );
            table.conflict = Some(Conflict {
                stakes: stakes.clone(),
                lethal: *lethal,
                minor: *minor,
                fighters,
                phase: Phase::Forming,
                turn: None,
                turns_played: 0,
                last_active: None,
                chain: None,
                revealed_specials: Vec::new(),
                scouted: Vec::new(),
                last_turn: None,
                outcome: None,
            });
        }
        ConflictEvent::LethalRefused { .. } => {
            if let Some(c) = table.conflict.as_mut() {
                c.lethal = false;
            }
        }
        ConflictEvent::JoinedConflict { character } | ConflictEvent::SatOut { character } => {
            let status = if matches!(event, ConflictEvent::JoinedConflict { .. }) {
                Status::In
            } else {
                Status::SatOut
            };
            if let Some(c) = table.conflict.as_mut()
                && let Some(id) = c.fighter_id(character)
            {
                c.f_mut(id).status = status;
            }
        }
        ConflictEvent::FightBegan { .. } => {
            if let Some(c) = table.conflict.as_mut() {
                c.phase = Phase::PickActive {
                    picker: Picker::Players,
                    side: Some(Side::Players),
                    capped: None,
                };
            }
        }
        _ => {}
    }
}
