//! One readable line per campaign event.

use super::visibility::decider_name;
use super::{CampaignEvent, DeciderReason, Improvement, Payment, Pick, RestKind};
use crate::Table;
use crate::moves::Action;

pub fn narrate(table: &Table, event: &CampaignEvent) -> String {
    use CampaignEvent as E;
    match event {
        E::CharacterCreated { character } if character.is_pc() => {
            format!("{} joins the story as a PC.", character.name)
        }
        E::CharacterCreated { character } => {
            format!("The GM brings {} into the story as an NPC.", character.name)
        }
        E::CharacterHandedIn { handed_in } => crate::conflict::narration::sentence(format!(
            "{} hands in {} for the GM to keep or send back.",
            table.seat_name(handed_in.seat),
            handed_in.sheet.name.trim()
        )),
        E::CharacterSentBack {
            seat,
            name,
            comment,
        } => format!(
            "The GM sends {name} back to {}: {comment}",
            table.seat_name(*seat)
        ),
        E::ReplacementCreated {
            character,
            replaces,
            level,
            ..
        } => {
            format!(
                "{} continues {replaces}'s fighting tradition, starting towards level {level}.",
                character.name
            )
        }
        E::MoveRenamed {
            character,
            mv,
            name,
            ..
        } => format!("{character} now calls {} \"{name}\".", mv.words()),
        E::CountdownCreated { name, boxes } => {
            format!("A countdown begins: {name} ({boxes} boxes).")
        }
        E::CountdownMarked {
            name,
            marked,
            boxes,
        } if marked >= boxes => {
            format!(
                "{name} is full, all {boxes} boxes marked: the GM will narrate the consequences."
            )
        }
        E::CountdownMarked {
            name,
            marked,
            boxes,
        } => format!("{name} ticks on: {marked} of {boxes} boxes marked."),
        E::CountdownNarrated { name, consequences } => {
            format!("{name} comes to pass: {consequences}")
        }
        E::CountdownErased { name } => {
            format!("The threat of {name} is stopped; the countdown is erased.")
        }
        E::ProblemOpened { description, .. } => format!("A problem comes up: {description}"),
        E::OptionCommitted {
            character, pick, ..
        } => match pick {
            None => format!("{character} is ready."),
            Some(Pick::Pass) => format!("{character} passes (hidden until the reveal)."),
            Some(Pick::Choose { option, .. }) => format!(
                "{character} commits option {} (hidden until the reveal).",
                option.number()
            ),
        },
        E::ProblemRevealed { commitments, .. } => {
            let picks: Vec<String> = commitments
                .iter()
                .map(|k| match k.pick {
                    Pick::Pass => format!("{} passes", k.character),
                    Pick::Choose { option, .. } => {
                        format!("{} chose {}", k.character, option.number())
                    }
                })
                .collect();
            let list = if picks.is_empty() {
                "nobody chose".to_string()
            } else {
                picks.join(", ")
            };
            format!("The picks for the problem are revealed: {list}.")
        }
        E::DeciderChosen {
            decider, reason, ..
        } => {
            let why = match reason {
                DeciderReason::HighestOption => "with the highest option",
                DeciderReason::LeastRecent => "having decided least recently",
                DeciderReason::GmPicked => "picked by the GM",
                DeciderReason::NobodyChose => "since nobody chose",
            };
            format!("{} decides, {why}.", decider_name(decider))
        }
        E::DeciderTied { candidates, .. } => format!(
            "A tie between {}: the GM picks the decider.",
            table.seat_names(candidates)
        ),
        E::OutcomeNarrated {
            decider,
            text,
            payment,
            ..
        } => {
            format!("{}: \"{text}\"{}", decider_name(decider), paid(payment))
        }
        E::NarrationRejected {
            decider, reason, ..
        } => format!(
            "The GM rules {}'s outcome outside the rules: {reason}",
            decider_name(decider)
        ),
        E::VetoDeclared {
            character,
            substitute,
            stands: true,
            ..
        } => {
            format!(
                "{character} says \"veto\"! The outcome is void; {character} will narrate option {} instead.",
                substitute.number()
            )
        }
        E::VetoDeclared { character, .. } => format!(
            "{character} also says \"veto\" (spent; the first veto stands unless the GM picks)."
        ),
        E::VetoPicked { character, .. } => format!("The GM lets {character}'s veto stand."),
        E::ProblemClosed { .. } => "The problem is settled; play moves on.".to_string(),
        E::Rested { kind, effects } => {
            let what = match kind {
                RestKind::Breather => "a breather",
                RestKind::ShortRest => "a short rest",
                RestKind::FullRest => "a full rest",
            };
            let gains: Vec<String> = effects
                .iter()
                .map(|e| format!("{} gets back {}", e.character, energy_words(e.gained)))
                .collect();
            // IT-30: resting is not a meaningful change for repeating a conflict; said only
            // when the party has not just won the conflict it rests after.
            let won = table
                .conflict
                .as_ref()
                .and_then(|c| c.outcome.as_ref())
                .is_some_and(|o| o.winner == Some(crate::conflict::Side::Players));
            let note = if won {
                ""
            } else {
                " (Resting does not make a lost conflict worth repeating.)"
            };
            format!("The party takes {what}: {}.{note}", gains.join(", "))
        }
        E::NpcRecovered {
            character, current, ..
        } => {
            format!(
                "{character} recovers: Defend {}, Grapple {}, Attack {}.",
                current.defend, current.grapple, current.attack
            )
        }
        E::GoalMarked {
            character,
            achieved: true,
        } => format!("{character}'s goal is achieved."),
        E::GoalMarked { character, .. } => format!("{character}'s goal is not achieved after all."),
        E::SessionEnded { session, eligible } if eligible.is_empty() => {
            format!("Session {session} ends.")
        }
        E::SessionEnded { session, eligible } => format!(
            "Session {session} ends; level-up for {}.",
            eligible.join(", ")
        ),
        E::LevelledUp {
            character,
            level,
            improvement,
            ..
        } => format!(
            "{character} reaches level {level}: {}.",
            improved(improvement)
        ),
        E::TraitsRewritten { character, .. } => {
            format!("{character} rewrites their goal, belief or flaw.")
        }
        E::BackgroundChanged {
            character,
            background,
            new_name,
        } => {
            format!(
                "With the GM's approval, {character}'s background {background} becomes {new_name}."
            )
        }
        E::SessionStarted { session } => format!("Session {session} begins."),
    }
}

fn paid(p: &Payment) -> String {
    match p {
        Payment::Nothing => String::new(),
        Payment::Point { background, .. } => format!(" (spends a point of {background})"),
        Payment::Trait { which, .. } => format!(" (marks the {})", which.words()),
    }
}

fn improved(i: &Improvement) -> String {
    match i {
        Improvement::LearnMove { mv, name } => format!("learns {} \"{name}\"", mv.words()),
        Improvement::ComboEdits { edits } => {
            let list: Vec<String> = edits
                .iter()
                .map(|e| format!("{} → {}", e.from.words(), e.followup.words()))
                .collect();
            format!("combo edits {}", list.join(", "))
        }
        Improvement::Energy { action } => format!("+1 max {}", action_name(*action)),
        Improvement::LearnSpecial { special } => format!("learns {special}"),
    }
}

/// Energy regained, type by type ("2 Defend and 1 Attack"; "nothing").
fn energy_words(p: crate::character::PerAction<u32>) -> String {
    let parts: Vec<String> = Action::ALL
        .iter()
        .filter(|a| p.get(**a) > 0)
        .map(|a| format!("{} {}", p.get(*a), action_name(*a)))
        .collect();
    match parts.as_slice() {
        [] => "nothing".to_string(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

fn action_name(a: Action) -> &'static str {
    match a {
        Action::Defend => "Defend",
        Action::Grapple => "Grapple",
        Action::Attack => "Attack",
    }
}
