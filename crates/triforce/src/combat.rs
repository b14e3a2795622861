//! Combat (TF-19 to TF-27): contested stacks, sword and shield exchanges, dice and losses.

use clash_core::{Randomness, RandomnessError, RuleError, Seat};
use serde::{Deserialize, Serialize};

use crate::board::{Pos, Stack};
use crate::pieces::{Blank, List, MAX_PLAYERS, Pyramid, seat, seat_index};
use crate::state::{Phase, State};

/// TF-4: faces of a player's die, the sword die and the shield die.
pub const PLAYER_DIE: u32 = 12;
pub const SWORD_DIE: u32 = 12;
pub const SHIELD_DIE: u32 = 20;

/// Which neutral pyramid an exchange takes.
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "triforce/"))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Exchange {
    Sword,
    Shield,
}

/// TF-23: what a participant fights with.
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "triforce/"))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Gear {
    None,
    Sword,
    Shield,
}

impl Gear {
    /// TF-25: the tie-break rank (sword 2, plain 1, shield 0).
    pub fn rank(self) -> u8 {
        match self {
            Gear::Sword => 2,
            Gear::None => 1,
            Gear::Shield => 0,
        }
    }
}

/// TF-24: one participant's dice in one combat.
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "triforce/"))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Roll {
    pub seat: Seat,
    pub gear: Gear,
    /// The player's own d12 (absent for a shield user).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub own: Option<u8>,
    /// The black d12 (sword user only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sword: Option<u8>,
    /// The clear d20 (shield user only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shield: Option<u8>,
    pub total: u8,
}

impl Roll {
    /// TF-25: the key whose smallest value loses.
    fn key(&self) -> (u8, u8) {
        (self.total, self.gear.rank())
    }
}

impl Blank for Roll {
    const BLANK: Roll = Roll {
        seat: Seat::Gm,
        gear: Gear::None,
        own: None,
        sword: None,
        shield: None,
        total: 0,
    };
}

/// TF-26: what one loser gives back: their bottom-most piece, or the sword or shield they used.
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "triforce/"))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Loss {
    pub seat: Seat,
    pub returned: Pyramid,
}

impl Blank for Loss {
    const BLANK: Loss = Loss {
        seat: Seat::Gm,
        returned: Pyramid::BLANK,
    };
}

/// One combat: the dice of every participant and what the losers gave back.
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "triforce/"))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Battle {
    pub at: Pos,
    pub rolls: List<Roll, MAX_PLAYERS>,
    pub losses: List<Loss, MAX_PLAYERS>,
}

/// TF-19: at least 4 non-white pyramids and pieces of at least 2 players.
pub fn contested(stack: &Stack) -> bool {
    stack.len() >= 4 && stack.players().count_ones() >= 2
}

/// TF-19: mask of contested positions.
pub fn contested_mask(state: &State) -> u16 {
    state.surface.contested
}

/// TF-22.1: levels (bits, 0 = lowest) the top player may exchange for a sword.
pub fn sword_levels(state: &State, at: Pos) -> u32 {
    let stack = state.stack(at);
    let (Some(top), Some(bottom)) = (stack.top_player(), stack.bottom_player()) else {
        return 0;
    };
    if stack.pieces_of(top) < 2
        || stack.sword_level().is_some()
        || (top == bottom && stack.shield_level().is_some())
    {
        return 0;
    }
    let keep = stack.uppermost_of(top);
    exchangeable(stack, top, keep, |p| state.swords.has(p.size()))
}

/// TF-22.2: levels (bits, 0 = lowest) the bottom player may exchange for a shield.
pub fn shield_levels(state: &State, at: Pos) -> u32 {
    let stack = state.stack(at);
    let (Some(top), Some(bottom)) = (stack.top_player(), stack.bottom_player()) else {
        return 0;
    };
    if stack.pieces_of(bottom) < 2 || stack.shield_level().is_some() {
        return 0;
    }
    let took_sword = state.sword_takers[at.index()] & 1 << bottom != 0;
    if bottom == top && (stack.sword_level().is_some() || took_sword) {
        return 0;
    }
    let keep = stack.lowest_of(bottom);
    exchangeable(stack, bottom, keep, |p| state.shields.has(p.size()))
}

fn exchangeable(
    stack: &Stack,
    owner: u8,
    keep: Option<usize>,
    in_supply: impl Fn(Pyramid) -> bool,
) -> u32 {
    stack
        .as_slice()
        .iter()
        .enumerate()
        .filter(|(level, p)| p.owner() == Some(owner) && Some(*level) != keep && in_supply(**p))
        .fold(0, |m, (level, _)| m | 1 << level)
}

/// TF-22: check an exchange of the piece at `level` (1 = lowest) by `by`.
pub fn check_exchange(
    state: &State,
    by: Seat,
    at: Pos,
    kind: Exchange,
    level: u8,
) -> Result<(), RuleError> {
    let (levels, what) = match kind {
        Exchange::Sword => (sword_levels(state, at), "a sword"),
        Exchange::Shield => (shield_levels(state, at), "a shield"),
    };
    let bit = u32::from(level)
        .checked_sub(1)
        .and_then(|l| 1u32.checked_shl(l))
        .unwrap_or(0);
    if levels & bit == 0 {
        let piece = state.stack(at).get(usize::from(level).wrapping_sub(1));
        let piece = piece.map_or("nothing".to_string(), crate::players::pyramid_words);
        return Err(RuleError::illegal(
            "TF-22",
            format!(
                "{} may not give up {piece} there for {what}",
                state.name_of(by)
            ),
        ));
    }
    Ok(())
}

/// TF-22/TF-24: the phase a combat at `at` starts in: a sword window, a shield window, or dice.
pub fn open(state: &State, at: Pos) -> Phase {
    if sword_levels(state, at) != 0 {
        Phase::Sword { at }
    } else {
        after_sword(state, at)
    }
}

/// TF-22.2: after the sword window, the shield window if the bottom player has a choice.
pub fn after_sword(state: &State, at: Pos) -> Phase {
    if shield_levels(state, at) != 0 {
        Phase::Shield { at }
    } else {
        Phase::Roll { at }
    }
}

/// TF-23: the seat indices using the sword and the shield in this combat.
fn users(stack: &Stack) -> (Option<u8>, Option<u8>) {
    let shield = stack.shield_level().and(stack.bottom_player());
    let sword = stack
        .sword_level()
        .and(stack.top_player())
        .filter(|t| shield != Some(*t));
    (sword, shield)
}

/// TF-21 to TF-26: roll every participant's dice (seats in order from `p1`; a sword user's own
/// d12 before the black d12) and work out who loses what.
pub fn fight(state: &State, at: Pos, rng: &mut dyn Randomness) -> Result<Battle, RandomnessError> {
    let stack = state.stack(at);
    let (sword_user, shield_user) = users(stack);
    let participants = stack.players();
    let dice = state.rules.dice();
    let mut rolls = List::default();
    for s in state.seats().filter(|s| participants & 1 << s != 0) {
        let die = |rng: &mut dyn Randomness, sides| rng.roll(sides).map(|v| v.min(255) as u8);
        let roll = if shield_user == Some(s) {
            let d20 = die(rng, dice.shield)?;
            Roll {
                seat: seat(s),
                gear: Gear::Shield,
                own: None,
                sword: None,
                shield: Some(d20),
                total: d20,
            }
        } else if sword_user == Some(s) {
            let own = die(rng, dice.player)?;
            let black = die(rng, dice.sword)?;
            let total = own.saturating_add(black);
            Roll {
                seat: seat(s),
                gear: Gear::Sword,
                own: Some(own),
                sword: Some(black),
                shield: None,
                total,
            }
        } else {
            let own = die(rng, dice.player)?;
            Roll {
                seat: seat(s),
                gear: Gear::None,
                own: Some(own),
                sword: None,
                shield: None,
                total: own,
            }
        };
        rolls.push(roll);
    }
    let losses = losses(stack, &rolls, state.players);
    Ok(Battle { at, rolls, losses })
}

/// TF-25/TF-26: every participant with the smallest key loses their gear or bottom-most piece.
fn losses(stack: &Stack, rolls: &List<Roll, MAX_PLAYERS>, players: u8) -> List<Loss, MAX_PLAYERS> {
    let Some(lowest) = rolls.as_slice().iter().map(Roll::key).min() else {
        return List::default();
    };
    let mut out = List::default();
    for roll in rolls.as_slice().iter().filter(|r| r.key() == lowest) {
        let gear_level = match roll.gear {
            Gear::Sword => stack.sword_level(),
            Gear::Shield => stack.shield_level(),
            Gear::None => seat_index(roll.seat, players).and_then(|s| stack.lowest_of(s)),
        };
        if let Some(returned) = gear_level.and_then(|l| stack.get(l)) {
            out.push(Loss {
                seat: roll.seat,
                returned,
            });
        }
    }
    out
}

/// TF-26: take the losers' pyramids off the stack at `at` and give them back. The rest keeps
/// its order and nothing is re-checked against TF-13.
pub fn remove_losses(state: &mut State, battle: &Battle) {
    let at = battle.at.index();
    for loss in battle.losses.as_slice() {
        let p = loss.returned;
        let stack = &state.stacks[at];
        let level = if p.is_sword() {
            stack.sword_level()
        } else if p.is_shield() {
            stack.shield_level()
        } else {
            p.owner().and_then(|s| stack.lowest_of(s))
        };
        let Some(removed) = level.and_then(|l| state.restack(battle.at, |s| s.remove(l))) else {
            continue;
        };
        match removed.owner() {
            Some(s) => state.stashes[usize::from(s) % MAX_PLAYERS].add(removed.size()),
            None if removed.is_sword() => state.swords.add(removed.size()),
            None => state.shields.add(removed.size()),
        }
    }
}

/// TF-22: do the exchange: the piece at `level` (0-based) goes to its owner's stash and a
/// sword or shield of the same size takes its exact place.
pub fn exchange(state: &mut State, at: Pos, level: usize, kind: Exchange) {
    let Some(piece) = state.stacks[at.index()].get(level) else {
        return;
    };
    let Some(owner) = piece.owner() else { return };
    let size = piece.size();
    let neutral = match kind {
        Exchange::Sword => {
            state.swords.take(size);
            state.sword_takers[at.index()] |= 1 << owner;
            Pyramid::sword(size)
        }
        Exchange::Shield => {
            state.shields.take(size);
            Pyramid::shield(size)
        }
    };
    state.restack(at, |stack| stack.replace(level, neutral));
    state.stashes[usize::from(owner) % MAX_PLAYERS].add(size);
}
