//! A random legal-move player: drives conflicts for benchmarks, property tests and bots.
//!
//! It lists the legal plays of every seat in one pass, in compact form ([`Plays`]:
//! [`legal::Play`]s, with a character's stances and moves counted rather than written out), then
//! orders them by seat (the GM first, then the players in table order), picks one uniformly
//! with the injected randomness, and sends it through the whole ruleset
//! ([`IronTriangle::decide`] and [`IronTriangle::apply`]), so campaign hooks run too.

use clash_core::{Randomness, RuleError, Ruleset, Seat};

use super::choice::MoveSet;
use super::legal::{self, Play, PlaySink};
use super::{ConflictCommand, ConflictEvent, FighterId, MoveChoice};
use crate::character::PerAction;
use crate::{Command, Event, IronTriangle, Table};

/// One step the driver took.
#[derive(Debug, Clone)]
pub struct Step {
    pub seat: Seat,
    pub command: Command,
    pub events: Vec<Event>,
}

/// Every legal play (no GM administration) of every seat, into `out`. Without `surrender`, a
/// character surrenders only when it has no move left (IT-35).
pub fn plays(table: &Table, surrender: bool, out: &mut Vec<(Seat, Play)>) {
    let mut listed = Plays::default();
    listed.list(table, surrender);
    out.clear();
    out.extend((0..listed.len()).map(|i| listed.get(i)));
}

/// Every seat's legal plays in compact form: a seat's stances are one entry (the fighter and
/// its energy) rather than one play per stance, so listing costs the same whatever the energy.
/// Play `i` is the same as `plays(..)[i]`, so a uniform pick over `0..len()` is a uniform pick
/// over the listed plays.
#[derive(Debug, Clone, Default)]
pub struct Plays {
    /// Each entry with its seat's place at the table and the seat.
    entries: Vec<(usize, Seat, Entry)>,
    len: usize,
    /// A Surrender play was listed.
    surrenders: bool,
}

#[derive(Debug, Clone, Copy)]
enum Entry {
    /// Any play but a move: moves always come as [`Entry::Moves`] (the listing hands a fighter's
    /// moves over together, [`PlaySink::add_moves`]).
    One(Play),
    Stances(FighterId, PerAction<u32>),
    /// A fighter's available moves, then Surrender if `surrender`.
    Moves {
        f: FighterId,
        moves: MoveSet,
        surrender: bool,
    },
}

impl Entry {
    fn len(self) -> usize {
        match self {
            Entry::One(_) => 1,
            Entry::Stances(_, energy) => legal::stance_count(energy),
            Entry::Moves {
                moves, surrender, ..
            } => moves.len() + usize::from(surrender),
        }
    }

    fn has_move(self) -> bool {
        matches!(self, Entry::Moves { moves, .. } if !moves.is_empty())
    }

    /// Drop this entry's Surrender play, if it has one; returns how many plays went.
    fn drop_surrender(&mut self) -> usize {
        match self {
            Entry::Moves {
                surrender: surrender @ true,
                ..
            } => {
                *surrender = false;
                1
            }
            _ => 0,
        }
    }

    /// Play `i` (below [`Entry::len`]) of this entry.
    fn get(self, i: usize) -> Play {
        match self {
            Entry::One(play) => play,
            Entry::Stances(f, energy) => legal::stance_play(f, energy, i),
            Entry::Moves { f, moves, .. } => Play::Move(
                f,
                moves.nth(i).map_or(MoveChoice::Surrender, MoveChoice::Play),
            ),
        }
    }
}

impl Plays {
    /// List every legal play (no GM administration) of every seat, replacing what was listed.
    /// Without `surrender`, a character surrenders only when it has no move left (IT-35).
    pub fn list(&mut self, table: &Table, surrender: bool) {
        self.entries.clear();
        self.len = 0;
        self.surrenders = false;
        legal::plays_into(
            table,
            None,
            &mut Lister {
                plays: self,
                players: &table.players,
            },
        );
        // Seats in table order, the GM first; a sort by place keeps each seat's own order.
        if !self.entries.is_sorted_by_key(|(place, ..)| *place) {
            self.entries.sort_by_key(|(place, ..)| *place);
        }
        if !surrender && self.surrenders {
            self.drop_surrenders_beside_moves();
        }
    }

    /// How many plays are listed.
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Play `i` (below [`Plays::len`]) and the seat that plays it.
    pub fn get(&self, mut i: usize) -> (Seat, Play) {
        for &(_, seat, entry) in &self.entries {
            let len = entry.len();
            if i < len {
                return (seat, entry.get(i));
            }
            i -= len;
        }
        panic!("play {i} past the end of the list")
    }

    /// A seat that has a move to play does not surrender: drop its Surrender plays.
    fn drop_surrenders_beside_moves(&mut self) {
        for group in self.entries.chunk_by_mut(|a, b| a.0 == b.0) {
            if group.iter().any(|(.., e)| e.has_move()) {
                for (.., entry) in group {
                    self.len -= entry.drop_surrender();
                }
            }
        }
    }
}

/// Collects the plays of every seat, each with its seat's place at the table (the GM 0, then
/// the players in order). A seat that is not at the table plays nothing.
struct Lister<'a> {
    plays: &'a mut Plays,
    players: &'a [Seat],
}

impl Lister<'_> {
    #[inline]
    fn push(&mut self, seat: Seat, entry: Entry) {
        let place = match seat {
            Seat::Gm => Some(0),
            _ => self.players.iter().position(|p| *p == seat).map(|i| i + 1),
        };
        if let Some(place) = place {
            self.plays.len += entry.len();
            self.plays.entries.push((place, seat, entry));
        }
    }
}

impl PlaySink for Lister<'_> {
    #[inline]
    fn add(&mut self, seat: Seat, play: Play) {
        debug_assert!(
            !matches!(play, Play::Move(..)),
            "moves are listed with add_moves"
        );
        self.push(seat, Entry::One(play));
    }

    #[inline]
    fn add_moves(&mut self, seat: Seat, f: FighterId, moves: MoveSet, surrender: bool) {
        self.plays.surrenders |= surrender;
        self.push(
            seat,
            Entry::Moves {
                f,
                moves,
                surrender,
            },
        );
    }

    #[inline]
    fn add_stances(&mut self, seat: Seat, f: FighterId, energy: PerAction<u32>) {
        self.push(seat, Entry::Stances(f, energy));
    }
}

/// The same as commands, for tests.
pub fn options(table: &Table, surrender: bool) -> Vec<(Seat, ConflictCommand)> {
    let mut out = Vec::new();
    plays(table, surrender, &mut out);
    match table.conflict.as_ref() {
        Some(c) => out.into_iter().map(|(s, p)| (s, p.command(c))).collect(),
        None => Vec::new(),
    }
}

/// Pick one legal play uniformly among all seats' options and carry it out. `None` when nobody
/// has anything to do (no conflict running). `surrender` lets it surrender at will.
pub fn random_step(
    table: &mut Table,
    rng: &mut dyn Randomness,
    surrender: bool,
) -> Result<Option<Step>, RuleError> {
    random_step_with(table, rng, surrender, &mut Plays::default())
}

/// [`random_step`] reusing a list of plays (no allocation in the hot path).
pub fn random_step_with(
    table: &mut Table,
    rng: &mut dyn Randomness,
    surrender: bool,
    buffer: &mut Plays,
) -> Result<Option<Step>, RuleError> {
    let Some((seat, command)) = pick(table, rng, surrender, buffer)? else {
        return Ok(None);
    };
    let command = Command::Conflict(command);
    let events = IronTriangle::decide(table, seat, &command, rng)?;
    for e in &events {
        IronTriangle::apply(table, e);
    }
    Ok(Some(Step {
        seat,
        command,
        events,
    }))
}

/// [`random_step_with`] for a player that keeps no log (benchmarks, simulations): the conflict
/// events go to `events`, replacing what was there, and only the seat comes back, so one list
/// serves every step and nothing large is moved per step. The same games as
/// [`random_step_with`]: the events are applied as [`IronTriangle::apply`] would.
pub fn random_play(
    table: &mut Table,
    rng: &mut dyn Randomness,
    surrender: bool,
    buffer: &mut Plays,
    events: &mut Vec<ConflictEvent>,
) -> Result<Option<Seat>, RuleError> {
    let Some((seat, command)) = pick(table, rng, surrender, buffer)? else {
        return Ok(None);
    };
    events.clear();
    super::decide_into(table, seat, &command, rng, events)?;
    for e in events.iter() {
        IronTriangle::apply_conflict(table, e);
    }
    Ok(Some(seat))
}

/// A uniformly random legal play of any seat, as a command; `None` when nobody can act.
#[inline]
fn pick(
    table: &Table,
    rng: &mut dyn Randomness,
    surrender: bool,
    buffer: &mut Plays,
) -> Result<Option<(Seat, ConflictCommand)>, RuleError> {
    buffer.list(table, surrender);
    let (Some(c), false) = (table.conflict.as_ref(), buffer.is_empty()) else {
        return Ok(None);
    };
    let (seat, play) = buffer.get(rng.choose(buffer.len(), &|i| format!("{:?}", buffer.get(i).1))?);
    Ok(Some((seat, play.command(c))))
}

/// Play the running conflict out with random legal commands, at most `max_steps` of them.
/// Returns every event, in order.
pub fn play_out(
    table: &mut Table,
    rng: &mut dyn Randomness,
    max_steps: usize,
    surrender: bool,
) -> Result<Vec<Event>, RuleError> {
    let mut log = Vec::new();
    let mut buffer = Plays::default();
    for _ in 0..max_steps {
        match random_step_with(table, rng, surrender, &mut buffer)? {
            Some(step) => log.extend(step.events),
            None => break,
        }
    }
    Ok(log)
}
