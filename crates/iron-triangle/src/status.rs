//! Whose move it is (the kernel's `status`): the seats whose command the table waits on now,
//! read straight off the state (no legal-command search), so pages can say "your move".
//!
//! - In a running conflict: the players whose PCs have not answered the call (forming; the GM
//!   once every PC has sat out, as only settling moves it on); the picker of the next active
//!   character (the players together for the first pick); the active character's controller
//!   picking an opponent; the participants' controllers who have not yet committed a stance or
//!   a move; the characters' controllers still to act or pass in an open W4 or W5 window; the
//!   seat splitting a loss or a gain; the surrenderer's opponent deciding mercy.
//! - Outside a conflict: the players who have not committed a problem pick; the decider who
//!   must narrate; at session end, the players whose PCs must level up before the next session
//!   (then the GM); the players of replacement PCs still levelling up; otherwise the GM, who
//!   moves the story on. Optional commands (a rest, a veto, renaming a move, narrating a won
//!   conflict) never make the table wait.
//!
//! [`asked`] says the same in words, for a message to a player away from the table.

use clash_core::{Seat, Status};

use crate::Table;
use crate::campaign::Stage;
use crate::conflict::{Conflict, Phase, Picker, Side, Status as FighterStatus, Step, losses};

/// The kernel's status: the seats below, as alternatives while the players together pick the
/// next active character (the first of them to pick decides, IT-26).
pub fn status(table: &Table) -> Status {
    let together = table.conflict.as_ref().is_some_and(|c| {
        c.is_running()
            && matches!(
                c.phase,
                Phase::PickActive {
                    picker: Picker::Players,
                    ..
                }
            )
    });
    match together {
        true => Status::any_of(waiting_for(table)),
        false => Status::waiting(waiting_for(table)),
    }
}

/// The seats the table waits on, in no particular order (the kernel sorts them).
pub fn waiting_for(table: &Table) -> Vec<Seat> {
    match table.conflict.as_ref().filter(|c| c.is_running()) {
        Some(c) => in_conflict(table, c),
        None => in_campaign(table),
    }
}

fn controller(table: &Table, c: &Conflict, f: u8) -> Seat {
    crate::conflict::controller(table, c, f)
}

fn in_conflict(table: &Table, c: &Conflict) -> Vec<Seat> {
    match &c.phase {
        Phase::Forming => {
            let pending: Vec<Seat> = c
                .ids()
                .filter(|f| c.f(*f).status == FighterStatus::Pending)
                .map(|f| controller(table, c, f))
                .collect();
            // Everyone sat out or refused: only the GM's settling moves it on (IT-23).
            if pending.is_empty() {
                vec![Seat::Gm]
            } else {
                pending
            }
        }
        Phase::PickActive {
            picker: Picker::Players,
            ..
        } => c
            .in_on(Side::Players)
            .map(|f| controller(table, c, f))
            .collect(),
        Phase::PickActive {
            picker: Picker::Seat { seat },
            ..
        } => vec![*seat],
        Phase::Mercy { decider, .. } => vec![*decider],
        Phase::Turn => in_turn(table, c),
        Phase::Ended => in_campaign(table),
    }
}

fn in_turn(table: &Table, c: &Conflict) -> Vec<Seat> {
    let Some(t) = c.turn.as_ref() else {
        return Vec::new();
    };
    let participants = [Some(t.active), t.opponent];
    let slots = participants
        .into_iter()
        .enumerate()
        .filter_map(|(slot, f)| f.map(|f| (slot, f)));
    match t.step {
        Step::PickOpponent => vec![controller(table, c, t.active)],
        Step::Stances => slots
            .filter(|(slot, _)| t.stances[*slot].is_none())
            .map(|(_, f)| controller(table, c, f))
            .collect(),
        Step::Moves => slots
            .filter(|(slot, _)| t.moves[*slot].is_none())
            .map(|(_, f)| controller(table, c, f))
            .collect(),
        Step::AfterReveal | Step::BeforeResolution => t
            .asked
            .iter()
            .filter(|f| !t.done.contains(f))
            .map(|f| controller(table, c, *f))
            .collect(),
        Step::Settling => losses::waiting_splitter(c).into_iter().collect(),
    }
}

fn in_campaign(table: &Table) -> Vec<Seat> {
    let campaign = &table.campaign;
    if let Some(p) = &campaign.problem {
        return match &p.stage {
            Stage::Choosing => crate::campaign::problem_choosers(table)
                .into_iter()
                .filter(|s| !p.commitments.iter().any(|k| k.seat == *s))
                .collect(),
            Stage::DeciderTied { .. } | Stage::Narrated { .. } => vec![Seat::Gm],
            Stage::Narrating { decider } => vec![decider.seat],
        };
    }
    let mut seats: Vec<Seat> = campaign
        .replacements
        .iter()
        .filter_map(|r| table.character(&r.character).map(|c| c.controller))
        .collect();
    if campaign.session_ending {
        seats.extend(
            crate::campaign::level_up_due(table)
                .iter()
                .filter_map(|name| table.character(name).map(|c| c.controller)),
        );
    }
    if seats.is_empty() {
        seats.push(Seat::Gm);
    }
    seats
}

/// What the table waits on `seat` for, in a few words ("choose your stance"); `None` when it
/// does not wait on that seat.
pub fn asked(table: &Table, seat: Seat) -> Option<String> {
    if !waiting_for(table).contains(&seat) {
        return None;
    }
    let words = match table.conflict.as_ref().filter(|c| c.is_running()) {
        Some(c) => conflict_asked(c, seat),
        None => campaign_asked(table, seat),
    };
    Some(words.into())
}

fn conflict_asked(c: &Conflict, seat: Seat) -> &'static str {
    match &c.phase {
        Phase::Forming if seat == Seat::Gm => "settle the conflict: every PC sat out",
        Phase::Forming => "say whether your character joins the conflict (IT-23)",
        Phase::PickActive {
            picker: Picker::Players,
            ..
        } => "pick who acts next (any one of you may)",
        Phase::PickActive { .. } => "pick who acts next",
        Phase::Mercy { .. } => "decide the fate of the character who surrendered",
        Phase::Ended => "move the story on",
        Phase::Turn => match c.turn.as_ref().map(|t| t.step) {
            Some(Step::PickOpponent) => "pick an opponent",
            Some(Step::Stances) => "choose your stance",
            Some(Step::Moves) => "choose your move",
            Some(Step::AfterReveal | Step::BeforeResolution) => "play a special or pass",
            Some(Step::Settling) => {
                match c.turn.as_ref().is_some_and(|t| t.pending_losses.is_empty()) {
                    true => "place the energy gained",
                    false => "split the energy lost",
                }
            }
            None => "move the story on",
        },
    }
}

fn campaign_asked(table: &Table, seat: Seat) -> &'static str {
    let campaign = &table.campaign;
    if let Some(p) = &campaign.problem {
        return match &p.stage {
            Stage::Choosing => "commit your pick for the problem",
            Stage::Narrating { .. } => "narrate how the problem turns out",
            Stage::DeciderTied { .. } => "break the tie: pick who decides the problem",
            Stage::Narrated { .. } => "close the problem",
        };
    }
    let replacing = campaign.replacements.iter().any(|r| {
        table
            .character(&r.character)
            .is_some_and(|c| c.controller == seat)
    });
    match () {
        _ if replacing => "level up your replacement character",
        _ if seat != Seat::Gm => "level up your character before the next session",
        _ if !campaign.handed_in.is_empty() => {
            "keep the character a player handed in, or send it back"
        }
        _ if campaign.session_ending => "start the next session",
        _ => "move the story on: a conflict, a problem or a rest",
    }
}
