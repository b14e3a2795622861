//! Rests after a conflict (IT-31, D-14, D-15). The players jointly pick at most one rest for
//! every living PC: a breather (+1 energy in a type each player picks), a short rest (refill the
//! type with the lowest max; its player picks on a tie) or a full rest (refill everything and
//! refresh spent specials; the GM may then mark a countdown with the usual command). The party
//! takes no second breather and no second short rest until a full rest. NPC recovery is the
//! GM's call (D-15).

use std::collections::BTreeMap;

use clash_core::{RuleError, Seat};
use serde::{Deserialize, Serialize};

use super::{CampaignCommand, CampaignEvent, controlled, require_gm, require_player};
use crate::Table;
use crate::character::{Character, PerAction};
use crate::moves::Action;

#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "iron-triangle/"))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RestKind {
    Breather,
    ShortRest,
    FullRest,
}

/// The party's rest state (IT-31, D-15).
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "iron-triangle/"))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Rests {
    /// A conflict has ended and the party has not rested since.
    pub due: bool,
    pub breather_used: bool,
    pub short_rest_used: bool,
}

/// What one PC got from a rest.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RestEffect {
    pub character: String,
    pub gained: PerAction<u32>,
    pub refreshed_specials: bool,
}

pub fn rest(
    table: &Table,
    seat: Seat,
    kind: RestKind,
    picks: &BTreeMap<String, Action>,
) -> Result<Vec<CampaignEvent>, RuleError> {
    require_player(table, seat, "IT-31")?;
    let rests = table.campaign.rests;
    if !rests.due || table.conflict.as_ref().is_some_and(|c| c.is_running()) {
        return Err(RuleError::illegal(
            "IT-31",
            "the party rests after a conflict, at most once",
        ));
    }
    match kind {
        RestKind::Breather if rests.breather_used => {
            return Err(RuleError::illegal(
                "D-15",
                "no second breather until a full rest",
            ));
        }
        RestKind::ShortRest if rests.short_rest_used => {
            return Err(RuleError::illegal(
                "D-15",
                "no second short rest until a full rest",
            ));
        }
        _ => {}
    }
    let pcs: Vec<&Character> = table
        .characters
        .iter()
        .filter(|c| c.is_pc() && !c.dead)
        .collect();
    if picks.len() > pcs.len() {
        return Err(RuleError::illegal(
            "IT-31",
            "one pick at most for each living PC",
        ));
    }
    if let Some(name) = picks.keys().find(|n| !pcs.iter().any(|c| c.name == **n)) {
        return Err(RuleError::illegal(
            "IT-31",
            format!("{} is not a living PC", crate::limits::shown(name)),
        ));
    }
    let effects = pcs
        .iter()
        .map(|c| effect(c, kind, picks.get(&c.name).copied()))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(vec![CampaignEvent::Rested { kind, effects }])
}

fn effect(c: &Character, kind: RestKind, pick: Option<Action>) -> Result<RestEffect, RuleError> {
    let missing = c.energy.max.sub(&c.energy.current);
    let mut gained = PerAction::default();
    match kind {
        RestKind::Breather => {
            let a = pick.ok_or_else(|| {
                RuleError::illegal(
                    "D-14",
                    format!("pick the type {}'s breather restores", c.name),
                )
            })?;
            *gained.get_mut(a) = missing.get(a).min(1);
        }
        RestKind::ShortRest => {
            let lowest = Action::ALL
                .iter()
                .map(|a| c.energy.max.get(*a))
                .min()
                .unwrap_or(0);
            let tied: Vec<Action> = Action::ALL
                .into_iter()
                .filter(|a| c.energy.max.get(*a) == lowest)
                .collect();
            let a = match (tied.as_slice(), pick) {
                ([only], None) => *only,
                (_, Some(p)) if tied.contains(&p) => p,
                (_, Some(p)) => {
                    return Err(RuleError::illegal(
                        "IT-31",
                        format!("{p} is not {}'s lowest-max type", c.name),
                    ));
                }
                (_, None) => {
                    return Err(RuleError::illegal(
                        "IT-31",
                        format!(
                            "{}'s lowest maxes tie: pick one of {}",
                            c.name,
                            crate::names::list(
                                &tied.iter().map(|a| a.to_string()).collect::<Vec<_>>()
                            )
                        ),
                    ));
                }
            };
            *gained.get_mut(a) = missing.get(a);
        }
        RestKind::FullRest => {
            if pick.is_some() {
                return Err(RuleError::illegal(
                    "IT-31",
                    "a full rest refills every type: there is nothing to pick",
                ));
            }
            gained = missing;
        }
    }
    let refreshed = kind == RestKind::FullRest && c.specials.iter().any(|s| s.spent);
    Ok(RestEffect {
        character: c.name.clone(),
        gained,
        refreshed_specials: refreshed,
    })
}

trait Sub {
    fn sub(&self, other: &Self) -> Self;
}

impl Sub for PerAction<u32> {
    fn sub(&self, other: &Self) -> Self {
        PerAction {
            defend: self.defend.saturating_sub(other.defend),
            grapple: self.grapple.saturating_sub(other.grapple),
            attack: self.attack.saturating_sub(other.attack),
        }
    }
}

/// NPC recovery is up to the GM (D-15).
pub fn recover_npc(
    table: &Table,
    seat: Seat,
    name: &str,
    current: PerAction<u32>,
    refresh: bool,
) -> Result<Vec<CampaignEvent>, RuleError> {
    require_gm(seat, "D-15", "decides NPC recovery")?;
    let c = controlled(table, seat, name, "D-15")?;
    if Action::ALL
        .iter()
        .any(|a| current.get(*a) > c.energy.max.get(*a))
    {
        return Err(RuleError::illegal(
            "IT-9",
            "current energy cannot exceed max",
        ));
    }
    let refreshes = refresh && c.specials.iter().any(|s| s.spent);
    if current == c.energy.current && !refreshes {
        return Err(RuleError::illegal(
            "D-15",
            format!("{name} already stands like that: nothing to recover"),
        ));
    }
    Ok(vec![CampaignEvent::NpcRecovered {
        character: c.name.clone(),
        current,
        refresh_specials: refresh,
    }])
}

pub fn apply(table: &mut Table, event: &CampaignEvent) {
    match event {
        CampaignEvent::Rested { kind, effects } => {
            for e in effects {
                if let Some(c) = table.character_mut(&e.character) {
                    for a in Action::ALL {
                        c.energy.gain(a, e.gained.get(a));
                    }
                    if *kind == RestKind::FullRest {
                        c.specials.iter_mut().for_each(|s| s.spent = false); // IT-53
                    }
                }
            }
            let rests = &mut table.campaign.rests;
            rests.due = false;
            match kind {
                RestKind::Breather => rests.breather_used = true,
                RestKind::ShortRest => rests.short_rest_used = true,
                RestKind::FullRest => {
                    rests.breather_used = false;
                    rests.short_rest_used = false;
                }
            }
        }
        CampaignEvent::NpcRecovered {
            character,
            current,
            refresh_specials,
        } => {
            if let Some(c) = table.character_mut(character) {
                for a in Action::ALL {
                    *c.energy.current.get_mut(a) = current.get(a).min(c.energy.max.get(a));
                }
                if *refresh_specials {
                    c.specials.iter_mut().for_each(|s| s.spent = false);
                }
            }
        }
        _ => {}
    }
}

pub fn candidates(table: &Table, seat: Seat, out: &mut Vec<CampaignCommand>) {
    if seat == Seat::Gm {
        for c in table.characters.iter().filter(|c| !c.is_pc()) {
            out.push(CampaignCommand::RecoverNpc {
                character: c.name.clone(),
                current: c.energy.max,
                refresh_specials: true,
            });
        }
        return;
    }
    // IT-31: the party rests only after a conflict, at most once.
    let rests = table.campaign.rests;
    if !rests.due || table.conflict.as_ref().is_some_and(|c| c.is_running()) {
        return;
    }
    let pcs: Vec<&Character> = table
        .characters
        .iter()
        .filter(|c| c.is_pc() && !c.dead)
        .collect();
    let all = |a: Action| {
        pcs.iter()
            .map(|c| (c.name.clone(), a))
            .collect::<BTreeMap<_, _>>()
    };
    out.push(CampaignCommand::Rest {
        kind: RestKind::FullRest,
        picks: BTreeMap::new(),
    });
    out.push(CampaignCommand::Rest {
        kind: RestKind::ShortRest,
        picks: BTreeMap::new(),
    });
    for a in Action::ALL {
        out.push(CampaignCommand::Rest {
            kind: RestKind::Breather,
            picks: all(a),
        });
        out.push(CampaignCommand::Rest {
            kind: RestKind::ShortRest,
            picks: all(a),
        });
    }
}
