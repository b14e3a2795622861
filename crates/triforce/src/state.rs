//! The game state: a fixed-size, copyable record (no heap), written to JSON in a readable form.

use std::collections::BTreeMap;

use clash_core::Seat;
use serde::{Deserialize, Serialize};

use crate::actions::Surface;
use crate::board::{POSITIONS, Pos, Stack};
use crate::combat::Battle;
use crate::pieces::{List, MAX_PLAYERS, Pyramid, Size, SizeCounts, seat, seat_index};
use crate::players::{PlayerNames, check_name};
use crate::variant::Rules;

/// Where the turn stands, and so who must answer (TF-12).
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "triforce/"))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Phase {
    /// TF-12.3: the active player takes actions or ends the turn.
    Actions,
    /// TF-20: the active player picks the next contested stack to resolve.
    ChooseStack,
    /// TF-22.1: the stack's top player may exchange a piece for a sword.
    Sword { at: Pos },
    /// TF-22.2: the stack's bottom player may exchange a piece for a shield.
    Shield { at: Pos },
    /// TF-24: the dice are due (only ever seen inside one command).
    Roll { at: Pos },
    /// TF-12.5: the next seat's turn is due (only ever seen inside one command).
    TurnOver,
    /// The game has ended (TF-28 to TF-30).
    Over,
}

/// Which rule ended the game.
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "triforce/"))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EndRule {
    /// TF-28: bottom player of enough stacks.
    Territory,
    /// TF-29: the only player with a legal action.
    LastFree,
    /// TF-30: nobody can act; most stacks wins.
    Deadlock,
    /// TF-30's optional turn limit was reached; most stacks wins.
    TurnLimit,
}

impl EndRule {
    pub fn rule(self) -> &'static str {
        match self {
            EndRule::Territory => "TF-28",
            EndRule::LastFree => "TF-29",
            EndRule::Deadlock | EndRule::TurnLimit => "TF-30",
        }
    }
}

/// How the game ended: one winner, or (TF-30) several sharing a draw.
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "triforce/"))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcome {
    pub winners: List<Seat, MAX_PLAYERS>,
    pub by: EndRule,
}

/// The whole game. Seat indices are 0-based (`p1` = 0); positions are [`Pos`].
#[cfg_attr(
    feature = "ts",
    derive(ts_rs::TS),
    ts(export_to = "triforce/", as = "StateRepr")
)]
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(into = "StateRepr", try_from = "StateRepr")]
pub struct State {
    pub(crate) players: u8,
    /// Names the players gave themselves (a seat without one is known by its colour).
    pub(crate) names: PlayerNames,
    /// TF-8: white sizes by position; whites never move.
    pub(crate) layout: [Size; POSITIONS],
    /// TF-10: home position of each seat.
    pub(crate) homes: [Pos; MAX_PLAYERS],
    pub(crate) stacks: [Stack; POSITIONS],
    /// TF-2: each seat's stash.
    pub(crate) stashes: [SizeCounts; MAX_PLAYERS],
    /// TF-3: the sword (black) and shield (clear) supplies.
    pub(crate) swords: SizeCounts,
    pub(crate) shields: SizeCounts,
    pub(crate) turn: u32,
    pub(crate) turn_limit: Option<u32>,
    /// The numbers this game's rules use ([`crate::variant`]).
    pub(crate) rules: Rules,
    pub(crate) active: u8,
    pub(crate) phase: Phase,
    pub(crate) actions_taken: u8,
    /// TF-14: sizes already placed this turn (bit per size).
    pub(crate) placed: u8,
    /// TF-17: the board as the turn began.
    pub(crate) start: [Stack; POSITIONS],
    /// TF-22.2: per stack, the seats (bits) that took a sword there this turn.
    pub(crate) sword_takers: [u8; POSITIONS],
    pub(crate) last_battle: Option<Battle>,
    pub(crate) outcome: Option<Outcome>,
    /// Derived from `stacks` and `layout` (not written to JSON): kept so that legal actions
    /// need no pass over the board. Every change to a stack goes through [`State::restack`].
    pub(crate) surface: Surface,
}

impl State {
    pub fn players(&self) -> u8 {
        self.players
    }

    /// How people at the table know seat index `s`: its colour, with its player's name if given.
    pub fn seat_name(&self, s: u8) -> String {
        crate::players::seat_name(&self.names, s)
    }

    /// The name of `seat` at the table ("Red", "Ada (Red)"); "nobody" for a seat that does
    /// not play.
    pub fn name_of(&self, seat: Seat) -> String {
        seat_index(seat, self.players).map_or_else(|| "nobody".to_string(), |s| self.seat_name(s))
    }

    pub fn stack(&self, at: Pos) -> &Stack {
        &self.stacks[at.index()]
    }

    pub fn white(&self, at: Pos) -> Size {
        self.layout[at.index()]
    }

    pub fn home(&self, seat: u8) -> Pos {
        self.homes[usize::from(seat) % MAX_PLAYERS]
    }

    pub fn stash(&self, seat: u8) -> SizeCounts {
        self.stashes[usize::from(seat) % MAX_PLAYERS]
    }

    pub fn swords(&self) -> SizeCounts {
        self.swords
    }

    pub fn shields(&self) -> SizeCounts {
        self.shields
    }

    pub fn phase(&self) -> Phase {
        self.phase
    }

    pub fn turn(&self) -> u32 {
        self.turn
    }

    pub fn active(&self) -> Seat {
        seat(self.active)
    }

    pub fn outcome(&self) -> Option<&Outcome> {
        self.outcome.as_ref()
    }

    pub fn actions_taken(&self) -> u8 {
        self.actions_taken
    }

    pub fn last_battle(&self) -> Option<&Battle> {
        self.last_battle.as_ref()
    }

    /// Change the stack at `at`, keeping the derived surface true.
    pub(crate) fn restack<T>(&mut self, at: Pos, change: impl FnOnce(&mut Stack) -> T) -> T {
        let i = at.index();
        let out = change(&mut self.stacks[i]);
        self.surface.update(at, &self.stacks[i], self.layout[i]);
        out
    }

    /// Seat indices in play order from `p1`.
    pub(crate) fn seats(&self) -> impl Iterator<Item = u8> + use<> {
        0..self.players
    }

    /// TF-11: the seat after `s`, clockwise.
    pub(crate) fn next_seat(&self, s: u8) -> u8 {
        (s + 1) % self.players.max(1)
    }

    /// The seat that must send the next command, if any (TF-12, TF-20, TF-22).
    pub fn awaiting(&self) -> Option<Seat> {
        let stack_role = |at: Pos, bottom: bool| {
            let stack = self.stack(at);
            if bottom {
                stack.bottom_player()
            } else {
                stack.top_player()
            }
        };
        let index = match self.phase {
            Phase::Actions | Phase::ChooseStack => Some(self.active),
            Phase::Sword { at } => stack_role(at, false),
            Phase::Shield { at } => stack_role(at, true),
            Phase::Roll { .. } | Phase::TurnOver | Phase::Over => None,
        };
        index.map(seat)
    }
}

/// The state as JSON: positions and seats by their names, counts by size.
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "triforce/"))]
#[derive(Serialize, Deserialize)]
struct StateRepr {
    players: u8,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    names: BTreeMap<Seat, String>,
    layout: Vec<Size>,
    homes: BTreeMap<Seat, Pos>,
    stacks: BTreeMap<Pos, Vec<Pyramid>>,
    stashes: BTreeMap<Seat, SizeCounts>,
    swords: SizeCounts,
    shields: SizeCounts,
    turn: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    turn_limit: Option<u32>,
    #[serde(default, skip_serializing_if = "Rules::is_default")]
    rules: Rules,
    active: Seat,
    phase: Phase,
    actions_taken: u8,
    placed: Vec<Size>,
    start: BTreeMap<Pos, Vec<Pyramid>>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    sword_takers: BTreeMap<Pos, Vec<Seat>>,
    last_battle: Option<Battle>,
    outcome: Option<Outcome>,
}

fn stacks_repr(stacks: &[Stack; POSITIONS]) -> BTreeMap<Pos, Vec<Pyramid>> {
    Pos::all()
        .map(|p| (p, stacks[p.index()].as_slice().to_vec()))
        .collect()
}

fn stacks_from(repr: BTreeMap<Pos, Vec<Pyramid>>) -> [Stack; POSITIONS] {
    let mut stacks = [Stack::default(); POSITIONS];
    for (pos, items) in repr {
        items.into_iter().for_each(|p| stacks[pos.index()].push(p));
    }
    stacks
}

impl From<State> for StateRepr {
    fn from(s: State) -> Self {
        let players = s.seats().map(seat);
        StateRepr {
            players: s.players,
            names: s
                .seats()
                .filter_map(|i| s.names.get(i).map(|n| (seat(i), n.to_string())))
                .collect(),
            layout: s.layout.to_vec(),
            homes: s.seats().map(|i| (seat(i), s.home(i))).collect(),
            stacks: stacks_repr(&s.stacks),
            stashes: players
                .zip(s.seats())
                .map(|(p, i)| (p, s.stash(i)))
                .collect(),
            swords: s.swords,
            shields: s.shields,
            turn: s.turn,
            turn_limit: s.turn_limit,
            rules: s.rules,
            active: seat(s.active),
            phase: s.phase,
            actions_taken: s.actions_taken,
            placed: Size::ALL
                .into_iter()
                .filter(|z| s.placed & z.bit() != 0)
                .collect(),
            start: stacks_repr(&s.start),
            sword_takers: Pos::all()
                .filter(|p| s.sword_takers[p.index()] != 0)
                .map(|p| {
                    (
                        p,
                        s.seats()
                            .filter(|i| s.sword_takers[p.index()] & 1 << i != 0)
                            .map(seat)
                            .collect(),
                    )
                })
                .collect(),
            last_battle: s.last_battle,
            outcome: s.outcome,
        }
    }
}

impl TryFrom<StateRepr> for State {
    type Error = String;
    fn try_from(r: StateRepr) -> Result<Self, String> {
        if !(3..=MAX_PLAYERS as u8).contains(&r.players) {
            return Err(format!("{} players (3 to 6)", r.players));
        }
        let layout: [Size; POSITIONS] = r
            .layout
            .try_into()
            .map_err(|_| "the layout needs 15 sizes".to_string())?;
        let index = |s: Seat| seat_index(s, r.players).ok_or_else(|| format!("{s} does not play"));
        let mut homes = [Pos::from_index(0); MAX_PLAYERS];
        for (s, pos) in r.homes {
            homes[usize::from(index(s)?)] = pos;
        }
        let mut stashes = [SizeCounts::default(); MAX_PLAYERS];
        for (s, counts) in r.stashes {
            stashes[usize::from(index(s)?)] = counts;
        }
        let mut sword_takers = [0u8; POSITIONS];
        for (pos, takers) in r.sword_takers {
            for s in takers {
                sword_takers[pos.index()] |= 1 << index(s)?;
            }
        }
        let mut names = PlayerNames::default();
        for (s, name) in &r.names {
            check_name(name)?;
            names.set(index(*s)?, name);
        }
        let stacks = stacks_from(r.stacks);
        Ok(State {
            players: r.players,
            names,
            surface: Surface::read(&stacks, &layout),
            layout,
            homes,
            stacks,
            stashes,
            swords: r.swords,
            shields: r.shields,
            turn: r.turn,
            turn_limit: r.turn_limit,
            rules: r.rules,
            active: index(r.active)?,
            phase: r.phase,
            actions_taken: r.actions_taken,
            placed: r.placed.iter().fold(0, |m, z| m | z.bit()),
            start: stacks_from(r.start),
            sword_takers,
            last_battle: r.last_battle,
            outcome: r.outcome,
        })
    }
}
