//! A random legal-move player: drives conflicts for benchmarks, property tests and bots.
//!
//! It lists the legal plays of every seat in compact form ([`legal::Play`]), picks one
//! uniformly with the injected randomness, and sends it through the whole ruleset
//! ([`IronTriangle::decide`] and [`IronTriangle::apply`]), so campaign hooks run too.

use clash_core::{Randomness, RuleError, Ruleset, Seat};

use super::legal::{self, Play, PlaySink};
use super::MoveChoice;
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
    out.clear();
    for seat in std::iter::once(Seat::Gm).chain(table.players.iter().copied()) {
        let first = out.len();
        legal::plays_into(table, seat, &mut Seated { seat, out });
        if !surrender {
            drop_surrender_while_fighting(out, first);
        }
    }
}

/// Lists one seat's plays straight into the driver's list of every seat's plays.
struct Seated<'a> {
    seat: Seat,
    out: &'a mut Vec<(Seat, Play)>,
}

impl PlaySink for Seated<'_> {
    #[inline]
    fn add(&mut self, play: Play) {
        self.out.push((self.seat, play));
    }

    fn expect(&mut self, n: usize) {
        self.out.reserve(n);
    }
}

/// A seat that has a move to play does not surrender: drop its Surrender plays, which are
/// `out[first..]`.
fn drop_surrender_while_fighting(out: &mut Vec<(Seat, Play)>, first: usize) {
    let surrenders = |p: &Play| matches!(p, Play::Move(_, MoveChoice::Surrender));
    let mine = &out[first..];
    if !mine.iter().any(|(_, p)| matches!(p, Play::Move(_, MoveChoice::Play(_)))) || !mine.iter().any(|(_, p)| surrenders(p)) {
        return;
    }
    let mut kept = first;
    for i in first..out.len() {
        if !surrenders(&out[i].1) {
            out[kept] = out[i];
            kept += 1;
        }
    }
    out.truncate(kept);
}

/// The same as commands, for tests.
pub fn options(table: &Table, surrender: bool) -> Vec<(Seat, super::ConflictCommand)> {
    let mut out = Vec::new();
    plays(table, surrender, &mut out);
    match table.conflict.as_ref() {
        Some(c) => out.into_iter().map(|(s, p)| (s, p.command(c))).collect(),
        None => Vec::new(),
    }
}

/// Pick one legal play uniformly among all seats' options and carry it out. `None` when nobody
/// has anything to do (no conflict running). `surrender` lets it surrender at will.
pub fn random_step(table: &mut Table, rng: &mut dyn Randomness, surrender: bool) -> Result<Option<Step>, RuleError> {
    let mut buffer = Vec::new();
    random_step_with(table, rng, surrender, &mut buffer)
}

/// [`random_step`] reusing a buffer for the list of plays (no allocation in the hot path).
pub fn random_step_with(
    table: &mut Table,
    rng: &mut dyn Randomness,
    surrender: bool,
    buffer: &mut Vec<(Seat, Play)>,
) -> Result<Option<Step>, RuleError> {
    plays(table, surrender, buffer);
    let (Some(c), false) = (table.conflict.as_ref(), buffer.is_empty()) else { return Ok(None) };
    let pick = rng.choose(buffer.len(), &|i| format!("{:?}", buffer[i].1))?;
    let (seat, play) = buffer[pick];
    let command = Command::Conflict(play.command(c));
    let events = IronTriangle::decide(table, seat, &command, rng)?;
    for e in &events {
        IronTriangle::apply(table, e);
    }
    Ok(Some(Step { seat, command, events }))
}

/// Play the running conflict out with random legal commands, at most `max_steps` of them.
/// Returns every event, in order.
pub fn play_out(table: &mut Table, rng: &mut dyn Randomness, max_steps: usize, surrender: bool) -> Result<Vec<Event>, RuleError> {
    let mut log = Vec::new();
    let mut buffer = Vec::new();
    for _ in 0..max_steps {
        match random_step_with(table, rng, surrender, &mut buffer)? {
            Some(step) => log.extend(step.events),
            None => break,
        }
    }
    Ok(log)
}
