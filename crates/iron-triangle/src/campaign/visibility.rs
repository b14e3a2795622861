//! What each viewer sees of the campaign. Everything is public except (IT-2) a problem pick
//! committed but not yet revealed, which only its owner sees (others see "ready"), and (IT-24)
//! an NPC's moves, combos and specials, which only the GM sees.

use std::collections::BTreeMap;
use std::fmt::Write;

use clash_core::{Seat, Viewer};
use serde::Serialize;

use super::{CampaignEvent, Countdown, Decider, DeclaredVeto, Pick, Replacement, Rests, Stage};
use crate::Table;

#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "iron-triangle/"))]
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CampaignView {
    pub session: u32,
    pub session_ending: bool,
    pub levelled_this_session: Vec<String>,
    pub countdowns: Vec<Countdown>,
    pub problems_opened: u32,
    pub problem: Option<ProblemView>,
    pub last_decided: BTreeMap<Seat, u32>,
    pub rests: Rests,
    pub replacements: Vec<Replacement>,
    /// Players' characters handed in during play, waiting for the GM (public, as a PC's sheet
    /// is once it plays).
    pub handed_in: Vec<super::HandedIn>,
}

#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "iron-triangle/"))]
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ProblemView {
    pub number: u32,
    pub description: String,
    pub revealed: bool,
    pub choosers: Vec<ChooserView>,
    /// Seats whose pick the reveal still waits for.
    pub waiting_for: Vec<Seat>,
    pub stage: Stage,
    pub rejected: Vec<Seat>,
    pub vetoed: Option<Decider>,
    pub vetoes: Vec<DeclaredVeto>,
    /// The GM's view only: a closed problem had the same description (names compared as in
    /// [`crate::names::same`]). A hint for the GM, who judges whether this is a retry (IT-20,
    /// narrative); nothing is refused for it. Left out when false and for everyone else.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub like_closed: bool,
}

/// A committed pick as one viewer sees it: `pick` is absent for others until the reveal.
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "iron-triangle/"))]
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ChooserView {
    pub seat: Seat,
    pub character: String,
    pub status: ChooserStatus,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pick: Option<Pick>,
}

#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "iron-triangle/"))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ChooserStatus {
    Ready,
    Revealed,
}

pub fn view(table: &Table, viewer: Viewer) -> CampaignView {
    let c = &table.campaign;
    CampaignView {
        session: c.session,
        session_ending: c.session_ending,
        levelled_this_session: c.levelled_this_session.clone(),
        countdowns: c.countdowns.clone(),
        problems_opened: c.problems_opened,
        problem: c.problem.as_ref().map(|p| ProblemView {
            number: p.number,
            description: p.description.clone(),
            revealed: p.revealed,
            choosers: p
                .commitments
                .iter()
                .map(|k| ChooserView {
                    seat: k.seat,
                    character: k.character.clone(),
                    status: if p.revealed {
                        ChooserStatus::Revealed
                    } else {
                        ChooserStatus::Ready
                    },
                    pick: (p.revealed || viewer.is(k.seat)).then_some(k.pick),
                })
                .collect(),
            waiting_for: if p.revealed {
                Vec::new()
            } else {
                super::problems::choosers(table)
                    .into_iter()
                    .filter(|s| !p.commitments.iter().any(|k| k.seat == *s))
                    .collect()
            },
            stage: p.stage.clone(),
            rejected: p.rejected.clone(),
            vetoed: p.vetoed.clone(),
            vetoes: p.vetoes.clone(),
            like_closed: viewer.is(Seat::Gm) && like_closed(table, &p.description),
        }),
        last_decided: c.last_decided.clone(),
        rests: c.rests,
        replacements: c.replacements.clone(),
        handed_in: c.handed_in.clone(),
    }
}

/// A closed problem had this description (IT-20: the GM's note, see [`ProblemView`]).
fn like_closed(table: &Table, description: &str) -> bool {
    table
        .campaign
        .closed_problems
        .iter()
        .any(|d| crate::names::same(d, description))
}

/// True while `seat` has committed a problem pick that is not revealed yet (IT-2).
pub fn secret_pending(table: &Table, seat: Seat) -> bool {
    table
        .campaign
        .problem
        .as_ref()
        .is_some_and(|p| !p.revealed && p.commitments.iter().any(|k| k.seat == seat))
}

pub fn event_view(event: &CampaignEvent, viewer: Viewer) -> Option<CampaignEvent> {
    match event {
        CampaignEvent::OptionCommitted {
            problem,
            seat,
            character,
            ..
        } if !viewer.is(*seat) => Some(CampaignEvent::OptionCommitted {
            problem: *problem,
            seat: *seat,
            character: character.clone(),
            pick: None,
        }),
        CampaignEvent::CharacterCreated { character }
            if character.controller == Seat::Gm && !viewer.is(Seat::Gm) =>
        {
            let mut shown = character.clone();
            shown.moves.clear();
            shown.combos.clear();
            shown.specials.clear();
            Some(CampaignEvent::CharacterCreated { character: shown })
        }
        CampaignEvent::MoveRenamed {
            controller: Seat::Gm,
            ..
        } if !viewer.is(Seat::Gm) => None,
        other => Some(other.clone()),
    }
}

pub fn render(table: &Table, viewer: Viewer) -> String {
    let v = view(table, viewer);
    let mut out = String::new();
    let phase = if v.session_ending {
        " (ended: level-ups and rewrites)"
    } else {
        ""
    };
    let _ = writeln!(out, "Session {}{phase}", v.session);
    for c in &v.countdowns {
        let boxes: String = (0..c.boxes)
            .map(|i| if i < c.marked { '■' } else { '□' })
            .collect();
        let _ = writeln!(
            out,
            "Countdown {}: {boxes} {}/{}",
            c.name, c.marked, c.boxes
        );
        if let Some(text) = &c.consequences {
            let _ = writeln!(out, "  consequences: {text}");
        }
    }
    if let Some(p) = &v.problem {
        let _ = writeln!(out, "Problem: {}", p.description);
        if p.like_closed {
            let _ = writeln!(
                out,
                "  note for the GM: a closed problem had the same description; whether this is a retry is yours to judge (IT-20)"
            );
        }
        for k in &p.choosers {
            let pick = match k.pick {
                None => "ready".to_string(),
                Some(Pick::Pass) => "pass".to_string(),
                Some(Pick::Choose { option, which }) => match which {
                    Some(t) => format!("option {} (paid with the {})", option.number(), t.words()),
                    None => format!("option {}", option.number()),
                },
            };
            let _ = writeln!(out, "  {}: {pick}", k.character);
        }
        if !p.waiting_for.is_empty() {
            let _ = writeln!(out, "  waiting for {}", table.seat_names(&p.waiting_for));
        }
        let _ = writeln!(out, "  {}", stage_line(table, &p.stage));
    }
    let r = v.rests;
    if r.due {
        let open: Vec<&str> = [
            (!r.breather_used).then_some("a breather"),
            (!r.short_rest_used).then_some("a short rest"),
            Some("a full rest"),
        ]
        .into_iter()
        .flatten()
        .collect();
        let _ = writeln!(
            out,
            "The party may rest: {}",
            crate::names::list(&open).replace(" and ", " or ")
        );
    }
    for rep in &v.replacements {
        let _ = writeln!(
            out,
            "{} (replacing {}) has {} level-ups to resolve",
            rep.character, rep.replaces, rep.levels_left
        );
    }
    out
}

fn stage_line(table: &Table, stage: &Stage) -> String {
    match stage {
        Stage::Choosing => "choosing".into(),
        Stage::DeciderTied { candidates } => format!(
            "tied: the GM picks the decider among {}",
            table.seat_names(candidates)
        ),
        Stage::Narrating { decider } => format!("{} narrates the outcome", decider_name(decider)),
        Stage::Narrated { decider, text, .. } => format!("{}: {text}", decider_name(decider)),
    }
}

pub(crate) fn decider_name(d: &Decider) -> String {
    match &d.character {
        Some(name) => name.clone(),
        None => "the GM".to_string(),
    }
}
