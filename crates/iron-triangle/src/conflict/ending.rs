//! Surrender (IT-36, D-10, D-11), going out and dying (IT-27, IT-28, IT-52), minor conflicts
//! (IT-29, D-12) and the end of a conflict.

use clash_core::{RuleError, Seat};

use super::losses::Energies;
use super::{
    Conflict, ConflictEvent, FighterId, Outcome, Phase, Picker, Side, Status, Step, Turn,
    TurnOutcome, combo, controller, disadvantage, running,
};
use crate::Table;

/// What the finished turn means for who picks next.
#[derive(Debug, Clone, Copy)]
pub enum After {
    Win {
        winner: FighterId,
        capped: Option<FighterId>,
    },
    Tie,
    /// The participant that did not surrender, if any (D-10).
    Surrender {
        other: Option<FighterId>,
    },
}

/// A participant surrendered: out at once, no winner check, no energy change (IT-36, D-10).
pub(crate) fn surrender(
    table: &Table,
    c: &Conflict,
    turn: &mut Turn,
    events: &mut Vec<ConflictEvent>,
) {
    let surrendered: Vec<_> = (0..2)
        .filter(|s| turn.moves[*s] == Some(super::MoveChoice::Surrender))
        .filter_map(|s| turn.participant(s))
        .map(|f| c.f(f).name.clone())
        .collect();
    events.push(ConflictEvent::Surrendered {
        characters: surrendered.clone(),
    });
    let outcome = TurnOutcome::Surrender { surrendered };
    events.push(ConflictEvent::TurnResolved {
        outcome: outcome.clone(),
        breakdown: Vec::new(),
        losses: Vec::new(),
        gains: Vec::new(),
    });
    turn.outcome = Some(outcome);
    turn.step = Step::Settling;
    finish_turn(table, turn, &mut Energies::default(), events);
}

/// After losses and gains: piles, chain, outs, deaths, and the next step (IT-40, IT-45, IT-52,
/// IT-27, D-35's last stage).
pub(crate) fn finish_turn(
    table: &Table,
    turn: &Turn,
    energies: &mut Energies,
    events: &mut Vec<ConflictEvent>,
) {
    let Some(c) = table.conflict.as_ref() else {
        return;
    };
    let (Some(b), Some(outcome)) = (turn.opponent, turn.outcome.as_ref()) else {
        return;
    };
    let a = turn.active;
    let mut piles = Vec::with_capacity(2);
    let mut chain = None;
    let mut surrendered: Vec<FighterId> = Vec::new();
    let mut winner = None;
    match outcome {
        TurnOutcome::Win {
            winner: wn,
            losing_move,
            winning_move,
            combo: comboed,
            ..
        } => {
            let (w, l) = if c.f(a).name == *wn { (a, b) } else { (b, a) };
            piles.push((
                c.f(l).name.clone(),
                disadvantage::after_turn(&c.f(l).pile, *losing_move, true),
            ));
            piles.push((c.f(w).name.clone(), Vec::new()));
            chain = Some(combo::after_win(c, w, l, *winning_move, *comboed));
            winner = Some(w);
        }
        TurnOutcome::Tie { .. } => {
            piles.push((c.f(a).name.clone(), Vec::new()));
            piles.push((c.f(b).name.clone(), Vec::new()));
        }
        TurnOutcome::Surrender { surrendered: names } => {
            surrendered = [a, b]
                .into_iter()
                .filter(|f| names.contains(&c.f(*f).name))
                .collect();
            piles.push((c.f(a).name.clone(), Vec::new()));
            piles.push((c.f(b).name.clone(), Vec::new()));
        }
    }
    // Out: surrendered, or 0 in every type (IT-36, IT-52); a Samurai cannot be removed.
    let zero = |f: FighterId| energies.get(table, c.f(f).character).total() == 0 && !c.f(f).samurai;
    let out: Vec<FighterId> = c
        .ids()
        .filter(|f| c.is_in(*f) && (surrendered.contains(f) || zero(*f)))
        .collect();
    let dead: Vec<FighterId> = if c.lethal {
        out.iter()
            .copied()
            .filter(|f| !surrendered.contains(f))
            .collect()
    } else {
        Vec::new()
    };
    let is_in = |f: FighterId| c.is_in(f) && !out.contains(&f);
    // A chain whose loser went out stays live: it ends only once the next opponent is picked
    // (necessarily someone else) or the active character ends it (IT-43), so its cards stay
    // unavailable until then and the three-win cap below still applies (IT-46).
    let mut capped = None;
    if let (Some(w), Some(ch)) = (winner, chain.as_ref())
        && ch.run_of(w) >= table.rules.chain_wins
    {
        let teammate = c
            .ids()
            .any(|f| f != w && c.f(f).side == c.f(w).side && is_in(f));
        // Three wins: pass to a teammate; without one the chain ends (IT-46, D-7).
        if teammate {
            capped = Some(w)
        } else {
            chain = None
        }
    }
    let names = |ids: &[FighterId]| ids.iter().map(|f| c.f(*f).name.clone()).collect::<Vec<_>>();
    let (out_names, dead_names) = (names(&out), names(&dead));
    let after = match winner {
        Some(w) => After::Win { winner: w, capped },
        None if surrendered.is_empty() => After::Tie,
        None => After::Surrender {
            other: [a, b].into_iter().find(|f| !surrendered.contains(f)),
        },
    };
    if let (true, [s], After::Surrender { other: Some(o) }) =
        (c.lethal, surrendered.as_slice(), after)
    {
        let next = Phase::Mercy {
            surrendered: *s,
            opponent: o,
            decider: controller(table, c, o),
        };
        events.push(ConflictEvent::TurnEnded {
            piles,
            chain,
            out: out_names,
            dead: dead_names,
            next: Some(next),
        });
        return;
    }
    match conclude(table, c, &is_in, after) {
        Ok(next) => events.push(ConflictEvent::TurnEnded {
            piles,
            chain,
            out: out_names,
            dead: dead_names,
            next: Some(next),
        }),
        Err(end) => {
            // Chains end with the conflict (IT-45).
            events.push(ConflictEvent::TurnEnded {
                piles,
                chain: None,
                out: out_names,
                dead: dead_names,
                next: None,
            });
            events.push(ConflictEvent::ConflictEnded { outcome: end });
        }
    }
}

/// Does the conflict go on (and who picks next), or is it over (IT-27, IT-29, D-9, D-12)?
pub fn conclude(
    table: &Table,
    c: &Conflict,
    is_in: &dyn Fn(FighterId) -> bool,
    after: After,
) -> Result<Phase, Outcome> {
    let side_in = |s: Side| c.ids().any(|f| c.f(f).side == s && is_in(f));
    let samurai_dead = || {
        c.fighters
            .iter()
            .filter(|f| f.samurai)
            .map(|f| f.name.clone())
            .collect::<Vec<_>>()
    };
    let end = |winner: Side, reason: &str| Outcome {
        winner: Some(winner),
        reason: reason.into(),
        dead: samurai_dead(),
        narration: None,
    };
    if c.minor {
        let winner = match after {
            After::Win { winner, .. } => c.f(winner).side,
            After::Surrender { other: Some(o) } => c.f(o).side,
            // A tie (or a double surrender) in a minor conflict goes to the GM's side (D-12).
            _ => Side::Gm,
        };
        return Err(end(winner, "a minor conflict lasts one turn (IT-29)"));
    }
    match (side_in(Side::Players), side_in(Side::Gm)) {
        (false, false) => {
            return Err(end(
                Side::Gm,
                "both sides' last characters went out in the same turn: the GM's side wins (IT-27)",
            ));
        }
        (false, true) => return Err(end(Side::Gm, "every PC is out (IT-27)")),
        (true, false) => return Err(end(Side::Players, "every NPC is out (IT-27)")),
        (true, true) => {}
    }
    let gm = Picker::Seat { seat: Seat::Gm };
    Ok(match after {
        After::Win { winner, capped } => Phase::PickActive {
            picker: Picker::Seat {
                seat: controller(table, c, winner),
            },
            side: Some(c.f(winner).side),
            capped,
        },
        After::Surrender { other: Some(o) } => Phase::PickActive {
            picker: Picker::Seat {
                seat: controller(table, c, o),
            },
            side: Some(c.f(o).side),
            capped: None,
        },
        After::Tie | After::Surrender { other: None } => Phase::PickActive {
            picker: gm,
            side: None,
            capped: None,
        },
    })
}

/// In a lethal conflict the surrenderer's opponent may kill them on the spot (IT-36).
pub fn mercy(
    table: &Table,
    seat: Seat,
    kill: bool,
    out: &mut Vec<ConflictEvent>,
) -> Result<(), RuleError> {
    let c = running(table, "IT-36")?;
    let Phase::Mercy {
        surrendered,
        opponent,
        decider,
    } = c.phase
    else {
        return Err(RuleError::illegal(
            "IT-36",
            "nobody has just surrendered in a lethal conflict",
        ));
    };
    if seat != decider {
        return Err(RuleError::not_your_call(
            "IT-36",
            seat,
            "the surrenderer's opponent decides",
        ));
    }
    let is_in = |f: FighterId| c.is_in(f);
    let name = c.f(surrendered).name.clone();
    let (next, end) = match conclude(
        table,
        c,
        &is_in,
        After::Surrender {
            other: Some(opponent),
        },
    ) {
        Ok(phase) => (Some(phase), None),
        Err(outcome) => (None, Some(outcome)),
    };
    out.push(if kill {
        ConflictEvent::KilledOnTheSpot {
            character: name,
            next,
        }
    } else {
        ConflictEvent::Spared {
            character: name,
            next,
        }
    });
    if let Some(outcome) = end {
        out.push(ConflictEvent::ConflictEnded { outcome });
    }
    Ok(())
}

/// IT-27: once a side has won, a player with a character on that side narrates the outcome
/// within the stakes; the GM, who settles disputes, may narrate as well. A conflict the GM
/// settled without a winner (IT-23) already has the GM's outcome.
pub fn narrate(
    table: &Table,
    seat: Seat,
    text: &str,
    out: &mut Vec<ConflictEvent>,
) -> Result<(), RuleError> {
    let c = table
        .conflict
        .as_ref()
        .ok_or_else(|| RuleError::illegal("IT-27", "there is no conflict to narrate"))?;
    let Some(outcome) = c.outcome.as_ref() else {
        return Err(RuleError::illegal(
            "IT-27",
            "the conflict is not over: winners narrate once a side has won",
        ));
    };
    let Some(side) = outcome.winner else {
        return Err(RuleError::illegal(
            "IT-27",
            "the GM settled this conflict; there are no winners to narrate",
        ));
    };
    let on_winning_side = c
        .ids()
        .any(|f| c.f(f).side == side && controller(table, c, f) == seat);
    if seat != Seat::Gm && !on_winning_side {
        return Err(RuleError::not_your_call(
            "IT-27",
            seat,
            "the winners narrate the outcome (the GM settles disputes)",
        ));
    }
    if text.trim().is_empty() {
        return Err(RuleError::illegal(
            "IT-27",
            "say what happens within the stakes",
        ));
    }
    crate::limits::text(text, "IT-27", "the narration")?;
    if outcome.narration.as_deref() == Some(text) {
        return Err(RuleError::illegal(
            "IT-27",
            "that is already the narration that stands",
        ));
    }
    out.push(ConflictEvent::ConflictNarrated {
        by: seat,
        text: text.into(),
    });
    Ok(())
}

/// Close the conflict: piles and chains clear (IT-40, IT-45), the dead die, and Drunken Monkey
/// bans that kept someone out of this conflict are lifted (IT-59 #11).
fn close(table: &mut Table, outcome: Outcome) {
    let Some(c) = table.conflict.as_mut() else {
        return;
    };
    for f in &mut c.fighters {
        f.pile.clear();
        let ch = &mut table.characters[f.character];
        if f.status == Status::Barred && ch.drunken_monkey_ban {
            ch.drunken_monkey_ban = false;
        }
        if outcome.dead.contains(&f.name) {
            ch.dead = true;
        }
    }
    c.chain = None;
    c.turn = None;
    c.phase = Phase::Ended;
    c.outcome = Some(outcome);
}

pub fn apply(table: &mut Table, event: &ConflictEvent) {
    match event {
        ConflictEvent::ConflictEnded { outcome } => close(table, outcome.clone()),
        ConflictEvent::ConflictSettled { outcome, dead } => {
            close(
                table,
                Outcome {
                    winner: None,
                    reason: outcome.clone(),
                    dead: dead.clone(),
                    narration: None,
                },
            );
        }
        ConflictEvent::ConflictNarrated { text, .. } => {
            if let Some(outcome) = table.conflict.as_mut().and_then(|c| c.outcome.as_mut()) {
                outcome.narration = Some(text.clone());
            }
        }
        ConflictEvent::Surrendered { characters } => {
            let Some(c) = table.conflict.as_mut() else {
                return;
            };
            for name in characters {
                if let Some(id) = c.fighter_id(name) {
                    c.f_mut(id).status = Status::Out;
                    c.f_mut(id).surrendered = true;
                }
            }
        }
        ConflictEvent::KilledOnTheSpot { character, next }
        | ConflictEvent::Spared { character, next } => {
            if matches!(event, ConflictEvent::KilledOnTheSpot { .. })
                && let Some(ch) = table.characters.iter_mut().find(|ch| &ch.name == character)
            {
                ch.dead = true;
            }
            if let (Some(c), Some(next)) = (table.conflict.as_mut(), next) {
                c.phase = next.clone();
            }
        }
        _ => {}
    }
}
