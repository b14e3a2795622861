//! Countdowns (IT-13, IT-14): named tracks of 4-8 boxes the GM marks one at a time. They are
//! public. When every box is marked the GM narrates the consequences (never a PC's death); when
//! the threat is stopped the countdown is erased.

use clash_core::{RuleError, Seat};
use serde::{Deserialize, Serialize};

use super::{CampaignCommand, CampaignEvent, non_empty, require_gm};
use crate::Table;

pub const MIN_BOXES: u32 = 4;
pub const MAX_BOXES: u32 = 8;

/// A countdown on the table.
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "iron-triangle/"))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Countdown {
    pub name: String,
    pub boxes: u32,
    pub marked: u32,
    /// What the GM narrated once every box was marked (IT-14).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub consequences: Option<String>,
}

impl Countdown {
    pub fn is_full(&self) -> bool {
        self.marked >= self.boxes
    }
}

/// A countdown as written in a setup: an established one may already have marks.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CountdownSheet {
    pub name: String,
    pub boxes: u32,
    #[serde(default)]
    pub marked: u32,
    /// What the GM narrated once every box was marked (IT-14), in a position.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub consequences: Option<String>,
}

impl CountdownSheet {
    /// The sheet of a countdown as it stands.
    pub fn of(c: &Countdown) -> CountdownSheet {
        CountdownSheet {
            name: c.name.clone(),
            boxes: c.boxes,
            marked: c.marked,
            consequences: c.consequences.clone(),
        }
    }
}

impl CountdownSheet {
    pub fn build(&self) -> Result<Countdown, RuleError> {
        check_shape(self.name.trim(), self.boxes).map_err(as_setup)?;
        if self.marked > self.boxes {
            return Err(RuleError::setup(
                "IT-13",
                format!(
                    "{} has {} boxes, not {} marks",
                    self.name, self.boxes, self.marked
                ),
            ));
        }
        if let Some(text) = &self.consequences {
            if self.marked < self.boxes {
                return Err(RuleError::setup(
                    "IT-14",
                    format!(
                        "{}'s consequences come only once every box is marked",
                        self.name
                    ),
                ));
            }
            non_empty(text, "IT-14", "the consequences").map_err(as_setup)?;
            crate::limits::text(text, "IT-14", "the consequences").map_err(as_setup)?;
        }
        Ok(Countdown {
            name: self.name.trim().to_string(),
            boxes: self.boxes,
            marked: self.marked,
            consequences: self.consequences.clone(),
        })
    }
}

fn as_setup(e: RuleError) -> RuleError {
    match e {
        RuleError::IllegalMove { rule, reason } => RuleError::setup(rule, reason),
        other => other,
    }
}

fn check_shape(name: &str, boxes: u32) -> Result<(), RuleError> {
    non_empty(name, "IT-13", "a countdown's name")?;
    crate::limits::name(name, "IT-13", "a countdown's name")?;
    if !(MIN_BOXES..=MAX_BOXES).contains(&boxes) {
        return Err(RuleError::illegal(
            "IT-13",
            format!("a countdown has {MIN_BOXES}-{MAX_BOXES} boxes, not {boxes}"),
        ));
    }
    Ok(())
}

fn find<'a>(table: &'a Table, name: &str) -> Result<&'a Countdown, RuleError> {
    table
        .campaign
        .countdowns
        .iter()
        .find(|c| c.name == name)
        .ok_or_else(|| {
            RuleError::illegal(
                "IT-13",
                format!(
                    "there is no countdown called {}",
                    crate::limits::shown(name)
                ),
            )
        })
}

pub fn create(
    table: &Table,
    seat: Seat,
    name: &str,
    boxes: u32,
) -> Result<Vec<CampaignEvent>, RuleError> {
    require_gm(seat, "IT-13", "creates countdowns")?;
    let name = name.trim();
    check_shape(name, boxes)?;
    if table.campaign.countdowns.len() >= crate::limits::MAX_COUNTDOWNS {
        return Err(RuleError::illegal(
            "IT-13",
            format!(
                "a table holds at most {} countdowns",
                crate::limits::MAX_COUNTDOWNS
            ),
        ));
    }
    if table.campaign.countdowns.iter().any(|c| c.name == name) {
        return Err(RuleError::illegal(
            "IT-13",
            format!(
                "a countdown called {} already exists",
                crate::limits::shown(name)
            ),
        ));
    }
    Ok(vec![CampaignEvent::CountdownCreated {
        name: name.to_string(),
        boxes,
    }])
}

/// The GM marks one box, at will (IT-13); a full rest is one such moment (IT-31).
pub fn mark(table: &Table, seat: Seat, name: &str) -> Result<Vec<CampaignEvent>, RuleError> {
    require_gm(seat, "IT-13", "marks countdowns")?;
    let c = find(table, name)?;
    if c.is_full() {
        return Err(RuleError::illegal(
            "IT-14",
            format!("every box of {name} is already marked"),
        ));
    }
    Ok(vec![CampaignEvent::CountdownMarked {
        name: c.name.clone(),
        marked: c.marked + 1,
        boxes: c.boxes,
    }])
}

pub fn narrate_full(
    table: &Table,
    seat: Seat,
    name: &str,
    consequences: &str,
) -> Result<Vec<CampaignEvent>, RuleError> {
    require_gm(seat, "IT-14", "narrates a countdown's consequences")?;
    let c = find(table, name)?;
    if !c.is_full() {
        return Err(RuleError::illegal(
            "IT-14",
            format!(
                "{name} has {} of {} boxes marked; consequences come when all are",
                c.marked, c.boxes
            ),
        ));
    }
    if c.consequences.is_some() {
        return Err(RuleError::illegal(
            "IT-14",
            format!("the consequences of {name} were already narrated"),
        ));
    }
    non_empty(consequences, "IT-14", "the consequences")?;
    crate::limits::text(consequences, "IT-14", "the consequences")?;
    Ok(vec![CampaignEvent::CountdownNarrated {
        name: c.name.clone(),
        consequences: consequences.to_string(),
    }])
}

/// The threat is stopped: the countdown is erased (IT-14).
pub fn erase(table: &Table, seat: Seat, name: &str) -> Result<Vec<CampaignEvent>, RuleError> {
    require_gm(seat, "IT-14", "erases countdowns")?;
    let c = find(table, name)?;
    Ok(vec![CampaignEvent::CountdownErased {
        name: c.name.clone(),
    }])
}

pub fn apply(table: &mut Table, event: &CampaignEvent) {
    let list = &mut table.campaign.countdowns;
    match event {
        CampaignEvent::CountdownCreated { name, boxes } => {
            list.push(Countdown {
                name: name.clone(),
                boxes: *boxes,
                marked: 0,
                consequences: None,
            });
        }
        CampaignEvent::CountdownMarked { name, marked, .. } => {
            if let Some(c) = list.iter_mut().find(|c| c.name == *name) {
                c.marked = (*marked).min(c.boxes);
            }
        }
        CampaignEvent::CountdownNarrated { name, consequences } => {
            if let Some(c) = list.iter_mut().find(|c| c.name == *name) {
                c.consequences = Some(consequences.clone());
            }
        }
        CampaignEvent::CountdownErased { name } => list.retain(|c| c.name != *name),
        _ => {}
    }
}

pub fn candidates(table: &Table, seat: Seat, out: &mut Vec<CampaignCommand>) {
    if seat != Seat::Gm {
        return;
    }
    let n = table.campaign.countdowns.len() + 1;
    for boxes in [MIN_BOXES, MAX_BOXES] {
        out.push(CampaignCommand::CreateCountdown {
            name: format!("Countdown number {n}"),
            boxes,
        });
    }
    for c in &table.campaign.countdowns {
        out.push(CampaignCommand::MarkCountdown {
            name: c.name.clone(),
        });
        out.push(CampaignCommand::EraseCountdown {
            name: c.name.clone(),
        });
        out.push(CampaignCommand::NarrateCountdown {
            name: c.name.clone(),
            consequences: format!("The threat of {} comes to pass.", c.name),
        });
    }
}
