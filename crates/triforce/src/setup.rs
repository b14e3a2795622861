//! Setting up a table: players, layout, homes, starting seat, and optionally a position to
//! start from (board, stashes, supplies, whose turn and how far it has gone), which is also the
//! form a running game is exported in ([`crate::position`]).

use std::collections::BTreeMap;

use clash_core::{Randomness, RandomnessError, RuleError, Seat};
use serde::{Deserialize, Serialize};

use crate::actions::Surface;
use crate::board::{CAPACITY, DEFAULT_LAYOUT, POSITIONS, Pos, Stack, default_homes};
use crate::combat;
use crate::pieces::{MAX_PLAYERS, Pyramid, Size, SizeCounts, seat_index};
use crate::players::{PlayerNames, check_name, pyramid_words, seat_name, size_words};
use crate::state::{Phase, State};
use crate::turn::{self, Event};
use crate::variant::Rules;

pub use crate::position::position;

/// Where the starting seat's turn stands as the game begins.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StartIn {
    /// TF-12.3: the action phase. With no action taken yet (the default), the turn begins
    /// normally: the win checks run and a pinned seat passes (TF-12.1, TF-12.2), as the
    /// game's opening events. With `turn.actions_taken` 1 or 2, the seat is part-way through
    /// its actions and the checks are behind it.
    #[default]
    Actions,
    /// TF-12.4: the starting seat's actions are already over and its combat phase begins, so a
    /// set-up position may hold contested stacks (used to replay combat test vectors).
    Combat,
}

/// An open exchange window of a position in the combat phase (TF-22): the stack at this
/// position number is being fought and its top player (sword) or bottom player (shield) must
/// answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum OpenWindow {
    Sword(u8),
    Shield(u8),
}

/// The turn in progress, for a setup that starts from a position part-way through a game.
/// Every field is optional; the default is the start of turn 1.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct TurnSetup {
    /// The turn's number, from 1 (passes count as turns, TF-12).
    pub number: u32,
    /// Actions already taken this turn (0 to 2; a third ends the actions by itself, TF-12).
    #[serde(skip_serializing_if = "is_zero")]
    pub actions_taken: u8,
    /// Sizes already placed this turn (at most one placement per size, TF-14).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub placed: Vec<Size>,
    /// The board as this turn began, written like `board` (TF-17: the turn may not end on it).
    /// Needed once an action has been taken.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub began_with: Option<BTreeMap<u8, Vec<Pyramid>>>,
    /// In the combat phase: who took a sword at which stack this turn (TF-22.2).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub swords_taken: BTreeMap<u8, Vec<Seat>>,
    /// In the combat phase: the exchange window open at the stack being fought (TF-22).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub window: Option<OpenWindow>,
}

impl Default for TurnSetup {
    fn default() -> Self {
        TurnSetup {
            number: 1,
            actions_taken: 0,
            placed: Vec::new(),
            began_with: None,
            swords_taken: BTreeMap::new(),
            window: None,
        }
    }
}

impl TurnSetup {
    fn is_default(&self) -> bool {
        *self == TurnSetup::default()
    }
}

fn is_zero(n: &u8) -> bool {
    *n == 0
}

/// A table's setup. Only `players` is required: `{"players": 3}` is the standard opening.
///
/// The other fields describe a position to start from, which is also how a running game is
/// exported ([`position`]): the board, stashes and supplies, whose turn it is and how far it
/// has gone.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Setup {
    /// TF-5: 3 to 6.
    pub players: u8,
    /// Names the players gave themselves, by seat; a seat without one is known by its colour.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub names: BTreeMap<Seat, String>,
    /// TF-8: white sizes for positions 1..15; the default layout when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub layout: Option<Vec<Size>>,
    /// TF-8: accept a layout without 5 whites of each size.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub free_layout: bool,
    /// TF-10: home position of each seat in order; the table's default when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub homes: Option<Vec<u8>>,
    /// TF-11: who plays first (default `p1`); in a position, whose turn it is.
    #[serde(default = "first_seat")]
    pub starting_seat: Seat,
    /// TF-30: optional limit on the number of turns.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn_limit: Option<u32>,
    /// A position to start from: position number → pyramids above the white, bottom first
    /// (`{"8": ["p3-M", "p1-L"]}`). Stashes and supplies hold whatever is not on the board.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub board: BTreeMap<u8, Vec<Pyramid>>,
    /// TF-2: each seat's stash, if given: checked to hold exactly what the board does not.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stashes: Option<BTreeMap<Seat, SizeCounts>>,
    /// TF-3: the sword and shield supplies, if given: checked the same way.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub swords: Option<SizeCounts>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shields: Option<SizeCounts>,
    #[serde(default, skip_serializing_if = "is_default")]
    pub start_in: StartIn,
    /// The turn in progress (a position part-way through a game).
    #[serde(default, skip_serializing_if = "TurnSetup::is_default")]
    pub turn: TurnSetup,
    /// Changes to the rules' numbers ([`crate::variant`]); absent: the rules as written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub variant: Option<clash_core::variant::Variant>,
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
            names: BTreeMap::new(),
            layout: None,
            free_layout: false,
            homes: None,
            starting_seat: first_seat(),
            turn_limit: None,
            board: BTreeMap::new(),
            stashes: None,
            swords: None,
            shields: None,
            start_in: StartIn::Actions,
            turn: TurnSetup::default(),
            variant: None,
        }
    }
}

/// Setup never rolls: a turn start needs no dice.
pub(crate) struct NoDice;

impl Randomness for NoDice {
    fn roll(&mut self, _: u32) -> Result<u32, RandomnessError> {
        Err(RandomnessError::NoSides)
    }
    fn choose(&mut self, _: usize, _: &dyn Fn(usize) -> String) -> Result<usize, RandomnessError> {
        Err(RandomnessError::NothingToChoose)
    }
}

/// Validate `setup` and build the state just before the game's opening: at a turn start the
/// win checks and any passes are left to [`opening`], so that they are logged as events.
pub fn build(setup: &Setup) -> Result<State, RuleError> {
    let (rules, variant_limit) = Rules::of(setup.variant.as_ref())?;
    let players = setup.players;
    if !(3..=MAX_PLAYERS as u8).contains(&players) {
        return Err(RuleError::setup(
            "TF-5",
            format!("{players} players: Triforce takes 3 to 6"),
        ));
    }
    let layout = layout(setup)?;
    let homes = homes(setup)?;
    let names = names(setup)?;
    let start = seat_index(setup.starting_seat, players).ok_or_else(|| {
        RuleError::setup(
            "TF-11",
            format!("the starting seat must be one of the {players} players"),
        )
    })?;
    let board = read_board(&setup.board, players)?;
    let stashes = stashes(setup, &board, rules.pieces)?;
    let swords = supply(setup.swords, board.swords, "swords", rules.swords)?;
    let shields = supply(setup.shields, board.shields, "shields", rules.shields)?;
    if setup.turn.number == 0 {
        return Err(RuleError::setup("TF-12", "turns are numbered from 1"));
    }
    let mut state = State {
        players,
        names,
        layout,
        homes,
        stacks: board.stacks,
        stashes,
        swords,
        shields,
        turn: setup.turn.number,
        turn_limit: setup.turn_limit.or(variant_limit),
        rules,
        active: start,
        phase: Phase::TurnOver,
        actions_taken: 0,
        placed: 0,
        start: board.stacks,
        sword_takers: [0; POSITIONS],
        last_battle: None,
        outcome: None,
        surface: Surface::read(&board.stacks, &layout),
    };
    match (setup.start_in, setup.turn.actions_taken) {
        (StartIn::Actions, 0) => turn_start(setup, &mut state)?,
        (StartIn::Actions, _) => mid_actions(setup, &board, &mut state)?,
        (StartIn::Combat, _) => combat_phase(setup, &mut state)?,
    }
    Ok(state)
}

/// The events that happen by themselves as the game starts: at a turn start, the win checks
/// and passes (TF-12.1, TF-12.2, TF-18, TF-28 to TF-30); after a combat phase set up with no
/// contested stack, the next seat's turn start. Never any dice.
pub fn opening(state: &State) -> Vec<Event> {
    let mut scratch = *state;
    let mut events = Vec::new();
    // Only combats roll, and no combat is due before a seat chooses a stack: nothing fails.
    let _ = turn::advance(&mut scratch, &mut NoDice, &mut events);
    events
}

/// A turn start: the seat before the starting seat has just finished turn `number - 1`, so the
/// opening begins the starting seat's turn with its checks.
fn turn_start(setup: &Setup, state: &mut State) -> Result<(), RuleError> {
    if combat::contested_mask(state) != 0 {
        return Err(RuleError::setup(
            "TF-20",
            "no stack may be contested when a turn begins",
        ));
    }
    refuse_combat_fields(setup, "at the start of a turn")?;
    if !setup.turn.placed.is_empty() {
        return Err(RuleError::setup(
            "TF-14",
            "nothing is placed before the first action of a turn",
        ));
    }
    if setup
        .turn
        .began_with
        .as_ref()
        .is_some_and(|b| *b != setup.board)
    {
        return Err(RuleError::setup(
            "TF-17",
            "before any action the board is the board the turn began with",
        ));
    }
    state.active = (state.active + state.players - 1) % state.players;
    state.turn = setup.turn.number - 1;
    state.phase = Phase::TurnOver;
    Ok(())
}

/// Part-way through the starting seat's actions.
fn mid_actions(setup: &Setup, board: &Board, state: &mut State) -> Result<(), RuleError> {
    let t = &setup.turn;
    past_limit(setup)?;
    refuse_combat_fields(setup, "during the actions")?;
    if t.actions_taken >= turn::ACTIONS_PER_TURN {
        return Err(RuleError::setup(
            "TF-12",
            "a third action ends the actions by itself: at most 2 may have been taken",
        ));
    }
    let mut placed = 0u8;
    for size in &t.placed {
        if placed & size.bit() != 0 {
            return Err(RuleError::setup(
                "TF-14",
                format!(
                    "at most one {} pyramid is placed per turn",
                    size_words(*size)
                ),
            ));
        }
        placed |= size.bit();
    }
    if t.placed.len() > usize::from(t.actions_taken) {
        return Err(RuleError::setup(
            "TF-14",
            "more placements than actions taken this turn",
        ));
    }
    let Some(began) = &t.began_with else {
        return Err(RuleError::setup(
            "TF-17",
            "once an action is taken, say how the board looked as the turn began (began_with)",
        ));
    };
    let began = read_board(began, state.players)?;
    let before = Surface::read(&began.stacks, &state.layout);
    if before.contested != 0 {
        return Err(RuleError::setup(
            "TF-20",
            "no stack may be contested when a turn begins (began_with)",
        ));
    }
    let s = usize::from(state.active);
    for (seat, (now, then)) in board.pieces.iter().zip(&began.pieces).enumerate() {
        let mut expected = *then;
        if seat == s {
            t.placed.iter().for_each(|z| expected.add(*z));
        }
        if *now != expected {
            return Err(RuleError::setup(
                "TF-15",
                format!(
                    "{}'s pyramids on the board differ from the board the turn began with by more than this turn's placements",
                    seat_name(&state.names, seat as u8)
                ),
            ));
        }
    }
    if board.swords != began.swords || board.shields != began.shields {
        return Err(RuleError::setup(
            "TF-15",
            "swords and shields change only in combat, never during the actions",
        ));
    }
    let changed = (0..POSITIONS)
        .filter(|i| board.stacks[*i] != began.stacks[*i])
        .count();
    if changed > 2 * usize::from(t.actions_taken) {
        return Err(RuleError::setup(
            "TF-15",
            format!(
                "{changed} stacks differ from the board the turn began with: {} actions change at most {}",
                t.actions_taken,
                2 * t.actions_taken
            ),
        ));
    }
    state.phase = Phase::Actions;
    state.actions_taken = t.actions_taken;
    state.placed = placed;
    state.start = began.stacks;
    Ok(())
}

/// The starting seat's combat phase, perhaps with an exchange window open.
fn combat_phase(setup: &Setup, state: &mut State) -> Result<(), RuleError> {
    let t = &setup.turn;
    past_limit(setup)?;
    if t.actions_taken != 0 || !t.placed.is_empty() || t.began_with.is_some() {
        return Err(RuleError::setup(
            "TF-12",
            "in the combat phase the actions are over: give no actions, placements or starting board",
        ));
    }
    for (n, seats) in &t.swords_taken {
        let at = position_number(*n)?;
        for seat in seats {
            let s = seat_index(*seat, state.players).ok_or_else(|| {
                RuleError::setup("TF-5", "a sword was taken by a seat that does not play")
            })?;
            state.sword_takers[at.index()] |= 1 << s;
        }
    }
    let contested = combat::contested_mask(state);
    state.phase = match t.window {
        None if contested != 0 => Phase::ChooseStack,
        None => Phase::TurnOver,
        Some(OpenWindow::Sword(n) | OpenWindow::Shield(n))
            if contested & position_number(n)?.bit() == 0 =>
        {
            return Err(RuleError::setup(
                "TF-19",
                format!("the stack at {n} is not contested, so nobody fights there"),
            ));
        }
        Some(OpenWindow::Sword(n)) => {
            let at = position_number(n)?;
            if combat::sword_levels(state, at) == 0 {
                return Err(RuleError::setup(
                    "TF-22",
                    format!("the top player at {n} has no exchange for a sword to make"),
                ));
            }
            Phase::Sword { at }
        }
        Some(OpenWindow::Shield(n)) => {
            let at = position_number(n)?;
            if combat::shield_levels(state, at) == 0 {
                return Err(RuleError::setup(
                    "TF-22",
                    format!("the bottom player at {n} has no exchange for a shield to make"),
                ));
            }
            Phase::Shield { at }
        }
    };
    Ok(())
}

fn refuse_combat_fields(setup: &Setup, when: &str) -> Result<(), RuleError> {
    if setup.turn.window.is_some() || !setup.turn.swords_taken.is_empty() {
        return Err(RuleError::setup(
            "TF-22",
            format!("swords are taken and windows open only in combat, not {when}"),
        ));
    }
    Ok(())
}

fn past_limit(setup: &Setup) -> Result<(), RuleError> {
    match setup.turn_limit {
        Some(limit) if setup.turn.number > limit => Err(RuleError::setup(
            "TF-30",
            format!(
                "turn {} is past the limit of {limit} turns",
                setup.turn.number
            ),
        )),
        _ => Ok(()),
    }
}

fn position_number(n: u8) -> Result<Pos, RuleError> {
    Pos::number(n).ok_or_else(|| RuleError::setup("TF-6", format!("there is no position {n}")))
}

fn names(setup: &Setup) -> Result<PlayerNames, RuleError> {
    let mut names = PlayerNames::default();
    let mut given: Vec<String> = Vec::new();
    for (seat, name) in &setup.names {
        let s = seat_index(*seat, setup.players).ok_or_else(|| {
            RuleError::setup(
                "TF-5",
                format!("{name:?} is named for a seat that does not play"),
            )
        })?;
        check_name(name).map_err(|why| RuleError::setup("TF-5", why))?;
        if given.iter().any(|g| g.eq_ignore_ascii_case(name)) {
            return Err(RuleError::setup(
                "TF-5",
                format!("two players are called {name:?}"),
            ));
        }
        given.push(name.clone());
        names.set(s, name);
    }
    Ok(names)
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

/// A board read from a setup: its stacks, and what they hold of each colour.
pub(crate) struct Board {
    pub stacks: [Stack; POSITIONS],
    /// Pieces on the board, per seat index and size.
    pub pieces: [SizeCounts; MAX_PLAYERS],
    pub swords: SizeCounts,
    pub shields: SizeCounts,
}

/// Read and check a board: real positions (TF-6), at most one sword and one shield per stack
/// (as play guarantees, TF-22), at most [`CAPACITY`] pyramids, pieces of seats that play, and
/// never more than five pyramids of one colour and size (TF-2, TF-3).
pub(crate) fn read_board(
    board: &BTreeMap<u8, Vec<Pyramid>>,
    players: u8,
) -> Result<Board, RuleError> {
    let mut out = Board {
        stacks: [Stack::default(); POSITIONS],
        pieces: [SizeCounts::default(); MAX_PLAYERS],
        swords: SizeCounts::default(),
        shields: SizeCounts::default(),
    };
    for (n, pyramids) in board {
        let at = position_number(*n)?;
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
            let counts = match p.owner() {
                Some(s) if s >= players => {
                    return Err(RuleError::setup(
                        "TF-5",
                        format!(
                            "{} is on the board, but that colour does not play",
                            pyramid_words(*p)
                        ),
                    ));
                }
                Some(s) => &mut out.pieces[usize::from(s)],
                None if p.is_sword() => &mut out.swords,
                None => &mut out.shields,
            };
            if counts.get(p.size()) >= 5 {
                let rule = if p.owner().is_some() { "TF-2" } else { "TF-3" };
                return Err(RuleError::setup(
                    rule,
                    format!(
                        "more than five pyramids like {} are on the board; there are five of each",
                        pyramid_words(*p)
                    ),
                ));
            }
            counts.add(p.size());
            out.stacks[at.index()].push(*p);
        }
    }
    Ok(out)
}

/// TF-2: each stash holds the pieces its seat has not on the board; given stashes must say so.
fn stashes(
    setup: &Setup,
    board: &Board,
    pieces: u8,
) -> Result<[SizeCounts; MAX_PLAYERS], RuleError> {
    let mut stashes = [SizeCounts::default(); MAX_PLAYERS];
    for s in 0..setup.players {
        let on_board = board.pieces[usize::from(s)];
        stashes[usize::from(s)] = left(pieces, on_board).ok_or_else(|| {
            RuleError::setup(
                "TF-2",
                format!(
                    "{} has more pyramids of a size on the board than the {pieces} of each size it owns",
                    seat_name(&PlayerNames::default(), s)
                ),
            )
        })?;
    }
    let Some(given) = &setup.stashes else {
        return Ok(stashes);
    };
    for (seat, counts) in given {
        let s = seat_index(*seat, setup.players).ok_or_else(|| {
            RuleError::setup("TF-5", "a stash is given for a seat that does not play")
        })?;
        if *counts != stashes[usize::from(s)] {
            return Err(RuleError::setup(
                "TF-2",
                format!(
                    "{}'s stash and the board must account for all its pyramids, {pieces} of each size",
                    seat_name(&PlayerNames::default(), s)
                ),
            ));
        }
    }
    if given.len() != usize::from(setup.players) {
        return Err(RuleError::setup(
            "TF-2",
            "give every player's stash, or none",
        ));
    }
    Ok(stashes)
}

/// TF-3: a supply holds the swords (or shields) not on the board; a given supply must say so.
fn supply(
    given: Option<SizeCounts>,
    on_board: SizeCounts,
    what: &str,
    each: u8,
) -> Result<SizeCounts, RuleError> {
    let supply = left(each, on_board).ok_or_else(|| {
        RuleError::setup(
            "TF-3",
            format!("more {what} of a size on the board than the {each} of each size there are"),
        )
    })?;
    match given {
        Some(g) if g != supply => Err(RuleError::setup(
            "TF-3",
            format!(
                "the supply of {what} and the board must account for all of them, {each} of each size"
            ),
        )),
        _ => Ok(supply),
    }
}

/// What is left of `each` of every size once `used` are out (none if more are out).
fn left(each: u8, used: SizeCounts) -> Option<SizeCounts> {
    let mut out = SizeCounts::default();
    for i in 0..3 {
        out.0[i] = each.checked_sub(used.0[i])?;
    }
    Some(out)
}
