//! Plain-text telling of events and pictures of the table.

use std::fmt::Write;

use crate::character::{Character, NpcForm, PcForm, Sheet, Status};
use crate::conflict::{EndReason, KnockoutCause, Stage};
use crate::roll::{DieSource, Roll};
use crate::seat_name;
use crate::state::{Event, State};

fn dice_text(roll: &Roll) -> String {
    let faces: Vec<String> = roll
        .dice
        .iter()
        .map(|d| {
            let what = match &d.source {
                DieSource::PcForm { form } => form.label().to_string(),
                DieSource::NpcForm { form } => form.label().to_string(),
                DieSource::Advantage => "Advantage".to_string(),
                DieSource::Owe => "Owe".to_string(),
                DieSource::Strength { name } => name.clone(),
            };
            format!("{what} d{}={}", d.sides, d.face)
        })
        .collect();
    format!("{} → {}", faces.join(", "), roll.value.words())
}

/// One line per event, naming characters and players (`state` only to look names up).
pub fn narrate(state: &State, event: &Event) -> String {
    match event {
        Event::ConflictStarted {
            participants,
            action,
        } => format!("Conflict: {} ({action})", participants.join(" vs ")),
        Event::OweCashedIn { pc, entry, .. } => format!(
            "{pc} gains an Owe d6, crossing {} off the Owe List",
            entry.character
        ),
        Event::InitiativeRolled {
            character, roll, ..
        } => format!("{character} rolls initiative: {}", dice_text(roll)),
        Event::InitiativeTieRerolled { character, roll } => {
            format!("{character} rerolls a tie: {}", dice_text(roll))
        }
        Event::InitiativeOrdered { order, standing } => format!(
            "Initiative order: {}; {} stands",
            order.join(", "),
            standing.value.words()
        ),
        Event::Challenged {
            challenger,
            target,
            roll,
            standing,
        } => {
            let how = if *standing {
                "with the standing roll"
            } else {
                "rolling"
            };
            format!(
                "{challenger} challenges {target} {how}: {}",
                dice_text(roll)
            )
        }
        Event::Answered {
            answerer,
            roll,
            outcome,
            ..
        } => format!(
            "{answerer} answers: {}; {}",
            dice_text(roll),
            outcome.describe()
        ),
        Event::AdvantageTaken { by, from } => match from {
            Some(f) => format!("{by} takes the Advantage die from {f}"),
            None => format!("{by} takes the Advantage die"),
        },
        Event::AdvantageDropped { from } => format!("The Advantage die falls from {from}'s hands"),
        Event::KnockedOut {
            loser,
            winner,
            cause,
        } => match cause {
            KnockoutCause::Exchange => format!("{loser} is knocked out by {winner}"),
            KnockoutCause::Concession => format!("{loser} concedes to {winner}"),
        },
        Event::EndProposed { character, terms } => {
            format!("{character} proposes to end the conflict: {terms}")
        }
        Event::EndAgreed { character } => format!("{character} agrees"),
        Event::RoundEnded { round } => format!("Round {round} ends"),
        Event::OweEntryAdded { entry, bigger_dice } => {
            format!(
                "{} survived round 1 against {bigger_dice}'s bigger dice and goes on the Owe List",
                entry.character
            )
        }
        Event::RoundStarted { round } => format!("Round {round} begins"),
        Event::ConflictEnded { reason } => match reason {
            EndReason::Knockouts {} => "The conflict ends: fewer than two remain".to_string(),
            EndReason::RoundThreeOver {} => {
                format!("The conflict ends after round {}", state.rules.rounds)
            }
            EndReason::Agreement { terms } => format!("The conflict ends by agreement: {terms}"),
        },
        Event::ConsequenceChosen {
            winner,
            loser,
            consequence,
        } => format!("{winner} leaves {loser} {}", consequence.label()),
        Event::AlternativeProposed {
            winner,
            loser,
            alternative,
        } => format!("{winner} offers {loser}: {}", alternative.terms),
        Event::AlternativeRefused { loser } => {
            format!("{loser} refuses; a default consequence it is")
        }
        Event::AlternativeAccepted { loser } => format!("{loser} accepts"),
        Event::FormLost {
            character,
            form,
            to,
            ..
        } => {
            format!(
                "{character}'s {} drops to {}",
                form.label(),
                crate::dice::dice_words(to)
            )
        }
        Event::StrengthLost {
            character,
            strength,
            to,
            ..
        } => format!("{character}'s {strength} drops to {to}"),
        Event::Died { character } => format!("{character} dies"),
        Event::OutOfChapter { character } => {
            format!("{character} is out for the rest of the chapter")
        }
        Event::PairSettled { winner, loser } => format!("{winner} and {loser} have settled"),
        Event::ConflictClosed => "The conflict is closed".to_string(),
        Event::ChapterEnded { chapter } => format!("Chapter {chapter} begins"),
        Event::OracleClaimed { entry, .. } => format!(
            "{} returns; {} picks the Oracle",
            entry.character,
            seat_name(state, entry.player)
        ),
        Event::OracleChosen {
            player,
            oracle,
            story_element,
        } => format!(
            "{} picks the Oracle {oracle}: {story_element}",
            seat_name(state, *player)
        ),
        Event::BroughtBack { character, by, .. } => format!(
            "{} crosses {character} off the Owe List to bring them back later",
            seat_name(state, *by)
        ),
    }
}

fn sheet_line(c: &Character) -> String {
    let forms: Vec<String> = match &c.sheet {
        Sheet::Pc { forms } => PcForm::ALL
            .iter()
            .map(|f| format!("{} {}", f.label(), forms.get(*f)))
            .collect(),
        Sheet::Npc { forms } => NpcForm::ALL
            .iter()
            .map(|f| format!("{} {}", f.label(), crate::dice::dice_words(&forms.get(*f))))
            .collect(),
    };
    let status = match c.status {
        Status::Active => "",
        Status::OutOfChapter => " [out of the chapter]",
        Status::Dead => " [dead]",
    };
    let strengths: Vec<String> = c
        .strengths
        .iter()
        .map(|s| format!("{} {}", s.name, s.die))
        .collect();
    let strengths = if strengths.is_empty() {
        String::new()
    } else {
        format!(" | {}", strengths.join(", "))
    };
    let kind = if c.is_pc() { "PC" } else { "NPC" };
    format!(
        "{} ({kind}): {}{strengths}{status}",
        c.name,
        forms.join(", ")
    )
}

/// The table as text.
pub fn render(state: &State) -> String {
    let mut out = format!("Chapter {}\n", state.chapter);
    for c in &state.characters {
        let _ = writeln!(out, "  {}", sheet_line(c));
    }
    let owe: Vec<String> = state.owe_list.iter().map(|e| e.character.clone()).collect();
    let _ = writeln!(
        out,
        "Owe List: {}",
        if owe.is_empty() {
            "empty".to_string()
        } else {
            owe.join(", ")
        }
    );
    if let Some(c) = &state.conflict {
        let still: Vec<&str> = c.remaining().map(|p| p.name.as_str()).collect();
        let stage = match c.stage {
            Stage::Initiative => "initiative",
            Stage::Turns => "challenges and answers",
            Stage::Over => "over, consequences to settle",
        };
        let _ = writeln!(
            out,
            "Conflict, round {} ({stage}): in {}; Advantage die: {}",
            c.round,
            still.join(", "),
            c.advantage.as_deref().unwrap_or("unheld")
        );
        for k in &c.knockouts {
            let settled = if k.is_settled() {
                "settled"
            } else {
                "to settle"
            };
            let _ = writeln!(out, "  {} beat {} ({settled})", k.winner, k.loser);
        }
    }
    let _ = writeln!(out, "{}", crate::moves::waiting_line(state));
    out
}
