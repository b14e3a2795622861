//! Whose move it is and which moves a seat has, built straight from the rules in time linear
//! in the size of the table (no command is tried out, no state copied).
//!
//! The list is compact: a roll is offered once per character and kind (initiative, challenge
//! per target, answer) with a typical choice of forms (its two biggest dice, or its NPC form
//! with the biggest dice); a page offers the other forms itself. Free texts come as one
//! typical value.

use clash_core::{Seat, Status};

use crate::character::{Character, NpcForm, PcForm, Sheet};
use crate::conflict::{Conflict, Stage};
use crate::consequence::{self, Alternative, Cost, DefaultConsequence, Knockout};
use crate::roll::RollChoice;
use crate::state::State;
use crate::{Command, Status as CharacterStatus};

/// A typical roll for `ch`: a PC's two biggest forms, an NPC's form with the biggest dice.
pub fn typical_choice(ch: &Character) -> RollChoice {
    match &ch.sheet {
        Sheet::Pc { forms } => {
            let mut usable: Vec<PcForm> = PcForm::ALL
                .into_iter()
                .filter(|f| !forms.get(*f).is_zero())
                .collect();
            usable.sort_by_key(|f| std::cmp::Reverse(forms.get(*f)));
            usable.truncate(2);
            RollChoice {
                forms: usable,
                ..RollChoice::default()
            }
        }
        Sheet::Npc { forms } => RollChoice {
            form: NpcForm::ALL
                .into_iter()
                .filter(|f| !forms.is_zero(*f))
                .max_by_key(|f| {
                    let mut dice = forms.get(*f);
                    dice.sort_by(|a, b| b.cmp(a));
                    dice
                }),
            ..RollChoice::default()
        },
    }
}

fn seat_of(st: &State, name: &str) -> Option<Seat> {
    st.character(name).map(|c| c.controller)
}

/// Who the table waits on: the players whose characters must roll initiative, the
/// challenger whose turn it is, the target who must answer, the winners who must choose a
/// consequence (or the losers who must answer an alternative) — during the conflict as well as
/// after it: a knockout's consequence does not hold the conflict up, but its chooser is still
/// waited on — the player who picks the Oracle; otherwise the GM, who starts the next conflict
/// or ends the chapter. A campaign is never over.
pub fn status(st: &State) -> Status {
    Status::waiting(waiting(st))
}

fn waiting(st: &State) -> Vec<Seat> {
    let Some(c) = &st.conflict else {
        return match st.oracle.as_ref().filter(|o| o.oracle.is_none()) {
            Some(claim) => vec![claim.entry.player],
            None => vec![Seat::Gm],
        };
    };
    let mut seats: Vec<Seat> = c
        .open_knockouts()
        .filter_map(|k| seat_of(st, consequence_actor(k)))
        .collect();
    if c.ended.is_some() {
        return seats;
    }
    match (c.stage, &c.pending, c.next_challenger()) {
        (Stage::Initiative, _, _) => seats.extend(
            c.remaining()
                .filter(|p| p.initiative.is_none())
                .filter_map(|p| seat_of(st, &p.name)),
        ),
        (_, Some(p), _) => seats.extend(seat_of(st, &p.target)),
        (_, None, Some(next)) => seats.extend(seat_of(st, next)),
        _ => {}
    }
    seats
}

/// Who must act on an open (winner, loser) pair: the loser while an alternative waits for
/// an answer, else the winner (WA-27).
pub fn consequence_actor(k: &Knockout) -> &str {
    if k.alternative().is_some() {
        &k.loser
    } else {
        &k.winner
    }
}

/// The waiting line in words: "Waiting for Ysolde to answer the Khan's challenge".
pub fn waiting_line(st: &State) -> String {
    let Some(c) = &st.conflict else {
        return match st.oracle.as_ref().filter(|o| o.oracle.is_none()) {
            Some(claim) => format!(
                "Waiting for {} to pick the Oracle for chapter {}",
                crate::seat_name(st, claim.entry.player),
                claim.chapter
            ),
            None => "No conflict: the GM may start one or end the chapter".to_string(),
        };
    };
    let settling: Vec<String> = c
        .open_knockouts()
        .map(|k| match k.alternative() {
            Some(_) => format!(
                "{} to accept or refuse {} offer",
                k.loser,
                possessive(&k.winner)
            ),
            None => format!(
                "{} to choose {} consequence",
                k.winner,
                possessive(&k.loser)
            ),
        })
        .collect();
    if c.ended.is_some() {
        return format!("Waiting for {}", join(&settling));
    }
    let line = conflict_line(c);
    match (settling.is_empty(), line.strip_prefix("Waiting for ")) {
        (true, _) => line,
        (false, Some(rest)) => format!("Waiting for {rest}, and for {}", join(&settling)),
        (false, None) => format!("Waiting for {}", join(&settling)),
    }
}

/// "Ysolde's", but "The Smugglers'" for a name ending in s.
fn possessive(name: &str) -> String {
    if name.ends_with('s') {
        format!("{name}'")
    } else {
        format!("{name}'s")
    }
}

/// Who the conflict itself waits on, in words.
fn conflict_line(c: &Conflict) -> String {
    match (c.stage, &c.pending, c.next_challenger()) {
        (Stage::Initiative, _, _) => {
            let who: Vec<String> = c
                .remaining()
                .filter(|p| p.initiative.is_none())
                .map(|p| p.name.clone())
                .collect();
            format!("Waiting for {} to roll initiative", join(&who))
        }
        (_, Some(p), _) => format!(
            "Waiting for {} to answer {} challenge",
            p.target,
            possessive(&p.challenger)
        ),
        (_, None, Some(next)) => format!("Waiting for {next} to challenge someone"),
        _ => "The round is over".to_string(),
    }
}

/// What the table waits on `seat` for, in words for a message away from the table: the same
/// waits as [`status`], told for that seat's own characters; `None` when it waits on others.
pub fn asked(st: &State, seat: Seat) -> Option<String> {
    if !waiting(st).contains(&seat) {
        return None;
    }
    let mine = |name: &str| seat_of(st, name) == Some(seat);
    let Some(c) = &st.conflict else {
        return Some(match st.oracle.as_ref().filter(|o| o.oracle.is_none()) {
            Some(claim) => format!("pick the Oracle for chapter {}", claim.chapter),
            None => "start the next conflict or end the chapter".to_string(),
        });
    };
    let asks: Vec<String> = if c.ended.is_some() {
        c.open_knockouts()
            .filter(|k| mine(consequence_actor(k)))
            .map(|k| match k.alternative() {
                Some(_) => format!("accept or refuse {}'s offer to {}", k.winner, k.loser),
                None => format!("choose the consequence {} leaves {}", k.winner, k.loser),
            })
            .collect()
    } else {
        match (c.stage, &c.pending, c.next_challenger()) {
            (Stage::Initiative, _, _) => {
                let who: Vec<String> = c
                    .remaining()
                    .filter(|p| p.initiative.is_none() && mine(&p.name))
                    .map(|p| p.name.clone())
                    .collect();
                vec![format!("roll initiative for {}", join(&who))]
            }
            (_, Some(p), _) => vec![format!(
                "answer {}'s challenge to {}",
                p.challenger, p.target
            )],
            (_, None, Some(next)) => vec![format!("make {next}'s challenge")],
            _ => Vec::new(),
        }
    };
    (!asks.is_empty()).then(|| join(&asks))
}

fn join(names: &[String]) -> String {
    match names {
        [] => "nobody".to_string(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// Commands `seat` may send now.
pub fn legal(st: &State, seat: Seat) -> Vec<Command> {
    let mut out = Vec::new();
    match &st.conflict {
        None => between_conflicts(st, seat, &mut out),
        Some(c) => {
            if c.ended.is_none() {
                in_conflict(st, c, seat, &mut out);
            }
            for k in c.open_knockouts() {
                consequences(st, k, seat, &mut out);
            }
        }
    }
    out
}

fn available(c: &Character) -> bool {
    c.status == CharacterStatus::Active
}

fn between_conflicts(st: &State, seat: Seat, out: &mut Vec<Command>) {
    let mine = st
        .characters
        .iter()
        .find(|c| available(c) && (seat == Seat::Gm || c.controller == seat));
    if let Some(first) = mine
        && let Some(other) = st
            .characters
            .iter()
            .find(|c| available(c) && c.name != first.name)
    {
        out.push(Command::StartConflict {
            participants: vec![first.name.clone(), other.name.clone()],
            action: "interferes".into(),
        });
    }
    let owed = st.oracle.as_ref().filter(|o| o.oracle.is_none());
    match owed {
        None if seat == Seat::Gm => out.push(Command::EndChapter {}),
        Some(claim) if claim.entry.player == seat => out.push(Command::ChooseOracle {
            oracle: "The Unquiet Past".into(),
            story_element: "A ghost".into(),
        }),
        _ => {}
    }
    if matches!(seat, Seat::Player(_)) {
        let mut named: Vec<&str> = Vec::new();
        for e in &st.owe_list {
            if !named.contains(&e.character.as_str()) {
                named.push(&e.character);
                out.push(Command::BringBack {
                    character: e.character.clone(),
                });
            }
        }
    }
}

fn in_conflict(st: &State, c: &Conflict, seat: Seat, out: &mut Vec<Command>) {
    let mine: Vec<(&crate::conflict::Participant, &Character)> = c
        .remaining()
        .filter_map(|p| Some((p, st.character(&p.name)?)))
        .filter(|(_, ch)| ch.controller == seat)
        .collect();
    let negotiating = c.negotiation_open();
    for (p, ch) in &mine {
        if c.stage == Stage::Initiative && p.initiative.is_none() {
            out.push(Command::RollInitiative {
                character: p.name.clone(),
                choice: typical_choice(ch),
            });
        }
        if negotiating {
            negotiation(c, &p.name, out);
        }
        if ch.is_pc() && !p.owe_die {
            owe_entries(st, seat, &p.name, out);
        }
    }
    if let Some(pending) = &c.pending {
        if let Some((_, ch)) = mine.iter().find(|(p, _)| p.name == pending.target) {
            out.push(Command::Answer {
                character: pending.target.clone(),
                choice: typical_choice(ch),
            });
        }
        return;
    }
    let Some(next) = c.next_challenger() else {
        return;
    };
    let Some((_, ch)) = mine.iter().find(|(p, _)| p.name == next) else {
        return;
    };
    let standing = c.standing.is_some() && c.order.first().map(String::as_str) == Some(next);
    let choice = if standing {
        RollChoice::default()
    } else {
        typical_choice(ch)
    };
    for t in c.remaining().filter(|t| t.name != next) {
        out.push(Command::Challenge {
            character: next.to_string(),
            target: t.name.clone(),
            choice: choice.clone(),
        });
    }
}

/// WA-25: concede to each opponent, propose an ending (when none is on the table) or agree.
fn negotiation(c: &Conflict, name: &str, out: &mut Vec<Command>) {
    for t in c.remaining().filter(|t| t.name != name) {
        out.push(Command::Concede {
            character: name.to_string(),
            to: t.name.clone(),
        });
    }
    match &c.proposal {
        None => out.push(Command::ProposeEnd {
            character: name.to_string(),
            terms: "We part ways".into(),
        }),
        Some(p) if !p.agreed.iter().any(|a| a == name) => out.push(Command::AgreeEnd {
            character: name.to_string(),
        }),
        Some(_) => {}
    }
}

/// WA-17.3: one cash-in per character named by the seat's Owe List entries.
fn owe_entries(st: &State, seat: Seat, pc: &str, out: &mut Vec<Command>) {
    let mut named: Vec<&str> = Vec::new();
    for e in st.owe_list.iter().filter(|e| e.player == seat) {
        if !named.contains(&e.character.as_str()) {
            named.push(&e.character);
            out.push(Command::CashInOwe {
                pc: pc.to_string(),
                entry: e.character.clone(),
            });
        }
    }
}

/// WA-27: the winner's defaults and an alternative; the loser's answer to one.
fn consequences(st: &State, k: &Knockout, seat: Seat, out: &mut Vec<Command>) {
    let (Some(winner), Some(loser)) = (seat_of(st, &k.winner), st.character(&k.loser)) else {
        return;
    };
    if seat == winner {
        for consequence in [
            DefaultConsequence::Exhausted,
            DefaultConsequence::Injured,
            DefaultConsequence::Shamed,
        ] {
            out.push(Command::ChooseConsequence {
                loser: k.loser.clone(),
                consequence,
                waive_consequential: false,
            });
        }
        let offer = Alternative {
            terms: "loses a keepsake and a little nerve".into(),
            costs: vec![Cost::StepDown {
                form: consequence::first_form(loser),
            }],
            waive_consequential: false,
        };
        if !k.refused() && k.alternative() != Some(&offer) {
            out.push(Command::ProposeAlternative {
                loser: k.loser.clone(),
                alternative: offer,
            });
        }
    }
    if seat == loser.controller {
        if k.alternative().is_some() {
            out.push(Command::AcceptAlternative {
                loser: k.loser.clone(),
            });
        }
        if k.alternative().is_some() || !k.refused() {
            out.push(Command::RefuseAlternative {
                loser: k.loser.clone(),
            });
        }
    }
}
