//! Setting up a table: players, layout, homes, starting seat, and optionally a position.

use std::collections::BTreeMap;

use clash_core::{Randomness, RandomnessError, RuleError, Seat};
use serde::{Deserialize, Serialize};

use crate::actions::Surface;
use crate::board::{CAPACITY, DEFAULT_LAYOUT, POSITIONS, Pos, Stack, default_homes};
use crate::combat;
use crate::pieces::{MAX_PLAYERS, Pyramid, Size, SizeCounts, seat_index};
use crate::state::{Phase, State};
use crate::turn::{self, Discard};
use crate::winning;

/// Where the starting seat's first turn begins.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StartIn {
    /// TF-12.1: an ordinary turn start (win checks, then actions).
    #[default]
    Actions,
    /// TF-12.4: the starting seat's actions are already over and its combat phase begins, so a
    /// set-up position may hold contested stacks (used to replay combat test vectors).
    Combat,
}

/// A table's setup. Only `players` is required: `{"players": 3}` is the standard opening.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Setup {
    /// TF-5: 3 to 6.
    pub players: u8,
    /// TF-8: white sizes for positions 1..15; the default layout when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub layout: Option<Vec<Size>>,
    /// TF-8: accept a layout without 5 whites of each size.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub free_layout: bool,
    /// TF-10: home position of each seat in order; the table's default when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub homes: Option<Vec<u8>>,
    /// TF-11: who plays first (default `p1`).
    #[serde(default = "first_seat")]
    pub starting_seat: Seat,
    /// TF-30: optional limit on the number of turns.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn_limit: Option<u32>,
    /// A position to start from: position number → pyramids above the white, bottom first
    /// (`{"8": ["p3-M", "p1-L"]}`). Stashes and supplies hold whatever is not on the board.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub board: BTreeMap<u8, Vec<Pyramid>>,
    #[serde(default, skip_serializing_if = "is_default")]
    pub start_in: StartIn,
}

fn first_seat() -> Seat {
    Seat::Player(1)
}

fn is_default(s: &StartIn) -> bool {
    *s == StartIn::Actions
}

impl Setup {
    /// The standard opening for `players` players.
    pub fn new(players: u8) -> Setup {
        Setup {
            players,
            layout: None,
            free_layout: false,
            homes: None,
            starting_seat: first_seat(),
            turn_limit: None,
            board: BTreeMap::new(),
            start_in: StartIn::Actions,
        }
    }
}

/// Setup never rolls: a turn start needs no dice.
struct NoDice;

impl Randomness for NoDice {
    fn roll(&mut self, _: u32) -> Result<u32, RandomnessError> {
        Err(RandomnessError::NoSides)
    }
    fn choose(&mut self, _: usize, _: &dyn Fn(usize) -> String) -> Result<usize, RandomnessError> {
        Err(RandomnessError::NothingToChoose)
    }
}

/// Validate `setup` and build the state at the first decision of the game.
pub fn build(setup: &Setup) -> Result<State, RuleError> {
    let players = setup.players;
    if !(3..=MAX_PLAYERS as u8).contains(&players) {
        return Err(RuleError::setup(
            "TF-5",
            format!("{players} players: Triforce takes 3 to 6"),
        ));
    }
    let layout = layout(setup)?;
    let homes = homes(setup)?;
    let start = seat_index(setup.starting_seat, players).ok_or_else(|| {
        RuleError::setup("TF-11", format!("{} does not play", setup.starting_seat))
    })?;
    let (stacks, stashes, swords, shields) = position(setup)?;
    let mut state = State {
        players,
        layout,
        homes,
        stacks,
        stashes,
        swords,
        shields,
        turn: 1,
        turn_limit: setup.turn_limit,
        active: start,
        phase: Phase::TurnOver,
        actions_taken: 0,
        placed: 0,
        start: stacks,
        sword_takers: [0; POSITIONS],
        last_battle: None,
        outcome: None,
        surface: Surface::read(&stacks, &layout),
    };
    let contested = combat::contested_mask(&state);
    match setup.start_in {
        StartIn::Actions if contested != 0 => {
            return Err(RuleError::setup(
                "TF-20",
                "no stack may be contested when a turn begins",
            ));
        }
        StartIn::Actions => {
            let first = winning::begin(&state, start, 1);
            turn::apply(&mut state, &first);
        }
        StartIn::Combat => {
            state.phase = if contested != 0 {
                Phase::ChooseStack
            } else {
                Phase::TurnOver
            }
        }
    }
    turn::advance(&mut state, &mut NoDice, &mut Discard)?;
    Ok(state)
}

fn layout(setup: &Setup) -> Result<[Size; POSITIONS], RuleError> {
    let Some(sizes) = &setup.layout else {
        return Ok(DEFAULT_LAYOUT);
    };
    let layout: [Size; POSITIONS] = sizes.as_slice().try_into().map_err(|_| {
        RuleError::setup(
            "TF-8",
            format!("the layout lists {} whites, not 15", sizes.len()),
        )
    })?;
    for size in Size::ALL {
        let n = layout.iter().filter(|s| **s == size).count();
        if n != 5 && !setup.free_layout {
            return Err(RuleError::setup(
                "TF-8",
                format!(
                    "{n} white {} pyramids; there are 5 of each size",
                    size.letter()
                ),
            ));
        }
    }
    Ok(layout)
}

fn homes(setup: &Setup) -> Result<[Pos; MAX_PLAYERS], RuleError> {
    let numbers = setup
        .homes
        .as_deref()
        .unwrap_or_else(|| default_homes(setup.players));
    if numbers.len() != usize::from(setup.players) {
        return Err(RuleError::setup(
            "TF-10",
            format!("{} homes for {} players", numbers.len(), setup.players),
        ));
    }
    let mut homes = [Pos::from_index(0); MAX_PLAYERS];
    for (i, n) in numbers.iter().enumerate() {
        let pos = Pos::number(*n)
            .ok_or_else(|| RuleError::setup("TF-10", format!("home {n} is not a position")))?;
        if homes[..i].contains(&pos) {
            return Err(RuleError::setup(
                "TF-10",
                format!("two seats share the home {n}"),
            ));
        }
        homes[i] = pos;
    }
    Ok(homes)
}

type Position = (
    [Stack; POSITIONS],
    [SizeCounts; MAX_PLAYERS],
    SizeCounts,
    SizeCounts,
);

/// The set-up stacks, and the stashes and supplies holding everything else (TF-2, TF-3).
fn position(setup: &Setup) -> Result<Position, RuleError> {
    let mut stacks = [Stack::default(); POSITIONS];
    // Seats beyond the table own nothing.
    let mut stashes = [SizeCounts::default(); MAX_PLAYERS];
    stashes[..usize::from(setup.players)].fill(SizeCounts::FULL);
    let (mut swords, mut shields) = (SizeCounts::FULL, SizeCounts::FULL);
    for (n, pyramids) in &setup.board {
        let at = Pos::number(*n)
            .ok_or_else(|| RuleError::setup("TF-6", format!("there is no position {n}")))?;
        if pyramids.len() > CAPACITY {
            return Err(RuleError::setup(
                "TF-9",
                format!("{} pyramids on {n}; at most {CAPACITY}", pyramids.len()),
            ));
        }
        let count = |f: fn(Pyramid) -> bool| pyramids.iter().filter(|p| f(**p)).count();
        if count(Pyramid::is_sword) > 1 || count(Pyramid::is_shield) > 1 {
            return Err(RuleError::setup(
                "TF-22",
                format!("more than one sword or shield on {n}"),
            ));
        }
        for p in pyramids {
            let pool = match p.owner() {
                Some(s) if s >= setup.players => {
                    return Err(RuleError::setup(
                        "TF-5",
                        format!("{p}: that seat does not play"),
                    ));
                }
                Some(s) => &mut stashes[usize::from(s)],
                None if p.is_sword() => &mut swords,
                None => &mut shields,
            };
            if !pool.has(p.size()) {
                return Err(RuleError::setup(
                    "TF-2",
                    format!("more than 5 pyramids like {p} (TF-2, TF-3)"),
                ));
            }
            pool.take(p.size());
            stacks[at.index()].push(*p);
        }
    }
    Ok((stacks, stashes, swords, shields))
}
