//! Odds in play ([`SeatOdds`]): each crowded stack's chance of losing for every player in it,
//! and in a sword or shield window the same with and without the swap, computed from the
//! seat's own view (Triforce hides nothing, so that is the whole board).

use std::collections::BTreeSet;

use clash_analysis::exact::Probability;
use clash_core::{Seat, SeatOdds};
use serde::Serialize;

use crate::analysis::combat_odds;
use crate::pieces::seat;
use crate::variant::Dice;
use crate::view::{PositionView, View};
use crate::{Exchange, Gear, Pos, Pyramid, Triforce};

/// A seat's odds: every crowded stack's fight, and the open swap when it is the seat's to make.
#[derive(Debug, Clone, Serialize)]
pub struct Odds {
    pub fights: Vec<Fight>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub swap: Option<Swap>,
}

/// The fight a contested stack would see.
#[derive(Debug, Clone, Serialize)]
pub struct Fight {
    pub at: Pos,
    pub fighters: Vec<Fighter>,
}

/// One player in a fight: its gear and its chance of losing.
#[derive(Debug, Clone, Serialize)]
pub struct Fighter {
    pub seat: Seat,
    pub gear: Gear,
    pub loses: Probability,
}

/// The swap open to this seat: the fight if it takes the sword or shield, and if it declines.
#[derive(Debug, Clone, Serialize)]
pub struct Swap {
    pub at: Pos,
    pub kind: Exchange,
    pub take: Vec<Fighter>,
    pub decline: Vec<Fighter>,
}

/// Who fights in a stack and with what (TF-21, TF-23): every owner of a piece, the top player
/// with the sword and the bottom player with the shield; one player who is both uses only the
/// shield. Returns the seats in seat order with their gear.
fn stack_fighters(stack: &[Pyramid], sword: bool, shield: bool) -> Vec<(Seat, Gear)> {
    let owners: Vec<Seat> = stack.iter().filter_map(|p| p.owner()).map(seat).collect();
    let (Some(bottom), Some(top)) = (owners.first().copied(), owners.last().copied()) else {
        return Vec::new();
    };
    let seats: BTreeSet<Seat> = owners.iter().copied().collect();
    seats
        .into_iter()
        .map(|s| {
            let gear = if s == bottom && shield {
                Gear::Shield
            } else if s == top && sword && !(s == bottom && shield) {
                Gear::Sword
            } else {
                Gear::None
            };
            (s, gear)
        })
        .collect()
}

fn fight_odds(fighters: &[(Seat, Gear)], dice: Dice) -> Option<Vec<Fighter>> {
    let gears: Vec<Gear> = fighters.iter().map(|(_, g)| *g).collect();
    let report = combat_odds::combat_with(&gears, dice).ok()?;
    Some(
        fighters
            .iter()
            .zip(report.loses)
            .map(|((seat, gear), loses)| Fighter {
                seat: *seat,
                gear: *gear,
                loses,
            })
            .collect(),
    )
}

fn has_sword(stack: &[Pyramid]) -> bool {
    stack.iter().any(|p| p.is_sword())
}

fn has_shield(stack: &[Pyramid]) -> bool {
    stack.iter().any(|p| p.is_shield())
}

/// The swap of the open exchange window, when it is this seat's to make.
fn swap(view: &View, me: Seat) -> Option<Option<Swap>> {
    let Some(exchange) = view
        .legal
        .exchange
        .as_ref()
        .filter(|_| view.awaiting == Some(me))
    else {
        return Some(None);
    };
    let stack: &[Pyramid] = &position(view, exchange.at)?.stack;
    let (sword, shield) = (has_sword(stack), has_shield(stack));
    let with = match exchange.kind {
        Exchange::Sword => stack_fighters(stack, true, shield),
        Exchange::Shield => stack_fighters(stack, sword, true),
    };
    let without = stack_fighters(stack, sword, shield);
    Some(Some(Swap {
        at: exchange.at,
        kind: exchange.kind,
        take: fight_odds(&with, view.table.rules.dice())?,
        decline: fight_odds(&without, view.table.rules.dice())?,
    }))
}

fn position(view: &View, at: Pos) -> Option<&PositionView> {
    view.positions.iter().find(|p| p.n == at.n())
}

impl SeatOdds for Triforce {
    type Odds = Odds;

    /// The chance of losing for every player in each crowded stack, and the effect of the open
    /// swap when it is this seat's to make.
    fn odds(view: &View, seat: Seat) -> Option<Odds> {
        let fights: Vec<Fight> = view
            .positions
            .iter()
            .filter(|p| p.contested)
            .filter_map(|p| {
                let fighters = stack_fighters(&p.stack, has_sword(&p.stack), has_shield(&p.stack));
                Some(Fight {
                    at: Pos::number(p.n)?,
                    fighters: fight_odds(&fighters, view.table.rules.dice())?,
                })
            })
            .collect();
        let swap = swap(view, seat)?;
        if fights.is_empty() && swap.is_none() {
            return None;
        }
        Some(Odds { fights, swap })
    }
}
