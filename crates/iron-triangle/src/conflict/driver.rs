//! A random legal-move player: drives conflicts for benchmarks, property tests and bots.

use clash_core::{Randomness, RuleError, Ruleset, Seat};

use super::{ConflictCommand, MoveChoice, legal};
use crate::{Command, Event, IronTriangle, Table};

/// One step the driver took.
#[derive(Debug, Clone)]
pub struct Step {
    pub seat: Seat,
    pub command: ConflictCommand,
    pub events: Vec<Event>,
}

fn is_surrender(c: &ConflictCommand) -> bool {
    matches!(c, ConflictCommand::PlayMove { choice: MoveChoice::Surrender, .. })
}

/// Every legal play command (no GM administration) of every seat.
pub fn options(table: &Table, surrender: bool) -> Vec<(Seat, ConflictCommand)> {
    let mut options: Vec<(Seat, ConflictCommand)> = Vec::new();
    for seat in std::iter::once(Seat::Gm).chain(table.players.iter().copied()) {
        let mut mine = legal::play_commands(table, seat);
        // Without `surrender`, a character surrenders only when it has no move left (IT-35).
        if !surrender && mine.iter().any(|c| matches!(c, ConflictCommand::PlayMove { choice: MoveChoice::Play(_), .. })) {
            mine.retain(|c| !is_surrender(c));
        }
        options.extend(mine.into_iter().map(|c| (seat, c)));
    }
    options
}

/// Pick one legal play command uniformly among all seats' options and carry it out. `None` when
/// nobody has anything to do (no conflict running). `surrender` lets it surrender at will.
pub fn random_step(table: &mut Table, rng: &mut dyn Randomness, surrender: bool) -> Result<Option<Step>, RuleError> {
    let mut options = options(table, surrender);
    if options.is_empty() {
        return Ok(None);
    }
    let pick = rng.choose(options.len(), &|i| format!("{:?}", options[i].1))?;
    let (seat, command) = options.swap_remove(pick);
    // Through the whole ruleset, so campaign hooks (a conflict's end opens rests) run too.
    let events = IronTriangle::decide(table, seat, &Command::Conflict(command.clone()), rng)?;
    for e in &events {
        IronTriangle::apply(table, e);
    }
    Ok(Some(Step { seat, command, events }))
}

/// Play the running conflict out with random legal commands, at most `max_steps` of them.
/// Returns every event, in order.
pub fn play_out(table: &mut Table, rng: &mut dyn Randomness, max_steps: usize, surrender: bool) -> Result<Vec<Event>, RuleError> {
    let mut log = Vec::new();
    for _ in 0..max_steps {
        match random_step(table, rng, surrender)? {
            Some(step) => log.extend(step.events),
            None => break,
        }
    }
    Ok(log)
}
