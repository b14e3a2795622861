//! Vetoes (IT-21, D-22). After another player's outcome is narrated and before the GM moves
//! on, a player with an unused veto may say "veto": the veto is spent, the outcome is void (its
//! point and trait mark undone) and the vetoer must substitute a success, option 1 or option 2
//! paid with their own point, which they then narrate as the recorded decider. There is no veto
//! of a veto. The first declared veto stands; a veto declared while the standing one is not yet
//! narrated counts as simultaneous: it is spent too, and the GM may pick it instead.

use clash_core::{RuleError, Seat};
use serde::{Deserialize, Serialize};

use super::problems::{Decider, ProblemOption, Stage, current, void_outcome};
use super::{CampaignCommand, CampaignEvent, pc_of, require_gm, require_player};
use crate::Table;

/// A declared veto and the success its player substitutes.
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "iron-triangle/"))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeclaredVeto {
    pub seat: Seat,
    pub character: String,
    pub substitute: ProblemOption,
}

fn vetoer(seat: Seat, character: &str, substitute: ProblemOption) -> Decider {
    Decider {
        seat,
        character: Some(character.to_string()),
        option: Some(substitute),
        which: None,
        by_veto: true,
    }
}

pub fn declare(
    table: &Table,
    seat: Seat,
    substitute: ProblemOption,
) -> Result<Vec<CampaignEvent>, RuleError> {
    let p = current(table, "IT-21")?;
    require_player(table, seat, "IT-21")?;
    let pc =
        pc_of(table, seat).ok_or_else(|| RuleError::illegal("IT-21", "you have no living PC"))?;
    if !pc.veto {
        return Err(RuleError::illegal(
            "IT-21",
            format!("{}'s veto is already used", pc.name),
        ));
    }
    if !matches!(
        substitute,
        ProblemOption::GoodIdea | ProblemOption::BackgroundPoint
    ) {
        return Err(RuleError::illegal(
            "IT-21",
            "a veto substitutes a success: option 1 or option 2",
        ));
    }
    if substitute == ProblemOption::BackgroundPoint && pc.background_points() == 0 {
        return Err(RuleError::illegal(
            "IT-21",
            format!(
                "{} has no background point of their own to pay option 2",
                pc.name
            ),
        ));
    }
    let stands = match &p.stage {
        Stage::Narrated { decider, .. } if !decider.by_veto => {
            if decider.seat == seat {
                return Err(RuleError::illegal(
                    "IT-21",
                    "a veto is against another player's outcome",
                ));
            }
            true
        }
        // A standing veto not yet narrated: a further declaration is simultaneous (D-22).
        Stage::Narrating { decider } if decider.by_veto => {
            if p.vetoed.as_ref().is_some_and(|v| v.seat == seat) {
                return Err(RuleError::illegal("IT-21", "no veto of a veto"));
            }
            false
        }
        Stage::Narrated { .. } => return Err(RuleError::illegal("IT-21", "no veto of a veto")),
        _ => {
            return Err(RuleError::illegal(
                "IT-21",
                "a veto comes after an outcome is narrated",
            ));
        }
    };
    Ok(vec![CampaignEvent::VetoDeclared {
        problem: p.number,
        seat,
        character: pc.name.clone(),
        substitute,
        stands,
    }])
}

/// The GM picks among simultaneous vetoes (IT-21).
pub fn pick(table: &Table, seat: Seat, picked: Seat) -> Result<Vec<CampaignEvent>, RuleError> {
    require_gm(seat, "IT-21", "picks among simultaneous vetoes")?;
    let p = current(table, "IT-21")?;
    let Stage::Narrating { decider } = &p.stage else {
        return Err(RuleError::illegal(
            "IT-21",
            "no veto is waiting to be narrated",
        ));
    };
    if !decider.by_veto {
        return Err(RuleError::illegal(
            "IT-21",
            "no veto is waiting to be narrated",
        ));
    }
    let v = p
        .vetoes
        .iter()
        .find(|v| v.seat == picked && v.seat != decider.seat)
        .ok_or_else(|| {
            RuleError::illegal(
                "IT-21",
                format!(
                    "{} has no other declared veto on this problem",
                    table.seat_name(picked)
                ),
            )
        })?;
    Ok(vec![CampaignEvent::VetoPicked {
        problem: p.number,
        seat: v.seat,
        character: v.character.clone(),
        substitute: v.substitute,
    }])
}

pub fn apply(table: &mut Table, event: &CampaignEvent) {
    match event {
        CampaignEvent::VetoDeclared {
            seat,
            character,
            substitute,
            stands,
            ..
        } => {
            if let Some(c) = table.character_mut(character) {
                c.veto = false; // D-22: every declared veto is spent
            }
            let Some(p) = table.campaign.problem.clone() else {
                return;
            };
            if let (
                true,
                Stage::Narrated {
                    decider,
                    payment,
                    previous,
                    ..
                },
            ) = (*stands, &p.stage)
            {
                void_outcome(table, decider, payment, *previous);
            }
            if let Some(problem) = table.campaign.problem.as_mut() {
                problem.vetoes.push(DeclaredVeto {
                    seat: *seat,
                    character: character.clone(),
                    substitute: *substitute,
                });
                if *stands {
                    if let Stage::Narrated { decider, .. } = &p.stage {
                        problem.vetoed = Some(decider.clone());
                    }
                    problem.stage = Stage::Narrating {
                        decider: vetoer(*seat, character, *substitute),
                    };
                }
            }
        }
        CampaignEvent::VetoPicked {
            seat,
            character,
            substitute,
            ..
        } => {
            if let Some(problem) = table.campaign.problem.as_mut() {
                problem.stage = Stage::Narrating {
                    decider: vetoer(*seat, character, *substitute),
                };
            }
        }
        _ => {}
    }
}

pub fn candidates(table: &Table, seat: Seat, out: &mut Vec<CampaignCommand>) {
    // A veto is declared and picked only during a problem (IT-21).
    if table.campaign.problem.is_none() {
        return;
    }
    if seat == Seat::Gm {
        for s in &table.players {
            out.push(CampaignCommand::PickVeto { seat: *s });
        }
    } else {
        out.push(CampaignCommand::Veto {
            substitute: ProblemOption::GoodIdea,
        });
        out.push(CampaignCommand::Veto {
            substitute: ProblemOption::BackgroundPoint,
        });
    }
}
