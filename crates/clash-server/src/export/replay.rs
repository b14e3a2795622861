//! Replaying a revealed record through its ruleset: each command's chance derived again from
//! the secret, the seeds in force and the command's number, every draw and event compared with
//! the log, and every undo checked the way the server allows it.

use clash_core::{AnyGame, ChanceInputs, DerivedRandomness, Draw, Recorder, RulesetEntry};
use serde_json::Value;

use super::report::{RecordEntry, Report};
use crate::log::{Chance, Entry, TableEvent, canonical};

/// Replay every command and compare draws and events with the log.
pub(super) fn replay(
    table: &str,
    secret: &[u8],
    items: &[RecordEntry],
    catalogue: &[RulesetEntry],
    report: &mut Report,
) {
    let entries: Vec<Entry> = match items
        .iter()
        .map(|i| match (&i.entry, i.withheld, i.hidden) {
            (Some(entry), _, _) => serde_json::from_value(entry.clone()),
            (None, true, _) => serde_json::from_value(i.seen.clone().unwrap_or(Value::Null)),
            // Private talk in a revealed record: a table event the rules never read. Had it
            // stood for a command, an event or a seed, the replay below would not match.
            (None, false, true) => Ok(Entry::Table {
                event: TableEvent::Whispered {
                    by: String::new(),
                    text: String::new(),
                    to: None,
                },
            }),
            (None, false, false) => serde_json::from_value(Value::Null),
        })
        .collect()
    {
        Ok(e) => e,
        Err(e) => {
            report
                .failures
                .push(format!("an entry is not a log entry: {e}"));
            return;
        }
    };
    let Entry::Table {
        event:
            TableEvent::Created {
                ruleset,
                setup,
                chance,
                ..
            },
    } = &entries[0]
    else {
        return;
    };
    if *chance == Chance::Legacy {
        report.unchecked.push("rolls and draws: this table was created before verifiable chance (its chance came from a seed the host kept)".into());
        return;
    }
    let Some(entry) = catalogue.iter().find(|e| e.id == ruleset) else {
        report
            .failures
            .push(format!("this build of clash has no ruleset {ruleset:?}"));
        return;
    };
    let mut game = match (entry.new_game)(setup) {
        Ok(g) => g,
        Err(e) => {
            report
                .failures
                .push(format!("entry 0: the setup is refused: {e}"));
            return;
        }
    };
    let mut r = Replay {
        table,
        secret,
        seeds: Default::default(),
        draws: 0,
        rolls: 0,
        commands: 0,
        events: 0,
        standing: Vec::new(),
        undone: 0,
    };
    // The game's opening follows its creation.
    let opening = game.events_json(0);
    for (i, event) in opening.iter().enumerate() {
        match entries.get(1 + i) {
            Some(Entry::Event { event: logged }) if logged == event => {}
            _ => {
                report.failures.push(format!(
                    "entry {}: the game's opening event {} is not what the setup gives",
                    1 + i,
                    i + 1
                ));
                return;
            }
        }
    }
    r.events += opening.len();
    let mut pos = 1 + opening.len();
    while pos < entries.len() {
        match &entries[pos] {
            Entry::Table {
                event: TableEvent::SeedAdded { by, seed },
            } => {
                if let Err(why) = seed_as_taken(by, seed) {
                    report.failures.push(format!("entry {pos}: {why}"));
                    return;
                }
                r.seeds.insert(by.clone(), seed.clone());
                pos += 1;
            }
            Entry::Table {
                event: TableEvent::Undone { n, at, events, .. },
            } => {
                let undo = TakenBack {
                    pos,
                    n: *n,
                    at: *at as usize,
                    events: *events as usize,
                };
                if let Err(e) = r.undo(&mut game, entry.new_game, undo) {
                    report.failures.push(e);
                    return;
                }
                pos += 1;
            }
            Entry::Table { .. } => pos += 1,
            Entry::Event { .. } => {
                report
                    .failures
                    .push(format!("entry {pos}: an event that no command produced"));
                return;
            }
            Entry::Command(_) => match r.command(game.as_mut(), &entries, pos) {
                Ok(next) => pos = next,
                // A record cut inside a command's events (what the end check already says).
                Err(e) if e.starts_with(CUT) => {
                    report.unchecked.push(e);
                    return;
                }
                Err(e) => {
                    report.failures.push(e);
                    return;
                }
            },
        }
    }
    report.verified.push(format!(
        "{} commands replayed through {ruleset}: {} rolls and {} draws recomputed from the secret and the client seeds, {} events identical",
        r.commands, r.rolls, r.draws, r.events
    ));
    if r.undone > 0 {
        report.verified.push(format!(
            "{} commands taken back by the GM, each the last one standing, with no roll, draw or reveal; the game replayed without them",
            r.undone
        ));
    }
}

/// A seed as the server takes one: from `gm` or a seat, 1 to 64 of the characters
/// `A–Z a–z 0–9 - _ . :` (so no zero byte can blur the separators of a command's seed).
fn seed_as_taken(by: &str, seed: &str) -> Result<(), String> {
    if by.parse::<clash_core::Seat>().is_err() {
        return Err(format!(
            "a seed added by {by:?}, which is neither gm nor a seat"
        ));
    }
    if !crate::table::links::plain_word(seed, 64) {
        return Err(format!(
            "the seed {seed:?} is not one the server takes (1 to 64 of A-Z a-z 0-9 - _ . :)"
        ));
    }
    Ok(())
}

/// How the replay says that the record ended before a command's events did.
const CUT: &str = "the replay: the record ends";

/// An `undone` table event as the record gives it.
struct TakenBack {
    pos: usize,
    n: u64,
    at: usize,
    events: usize,
}

/// A command replayed and not (yet) taken back.
struct Standing {
    pos: usize,
    n: u64,
    events: usize,
    chance: bool,
}

struct Replay<'a> {
    table: &'a str,
    secret: &'a [u8],
    seeds: std::collections::BTreeMap<String, String>,
    rolls: usize,
    draws: usize,
    commands: usize,
    events: usize,
    /// Commands replayed and not taken back, in order.
    standing: Vec<Standing>,
    undone: usize,
}

impl Replay<'_> {
    /// Check an undo the way the server allows it (the last command standing, with no roll,
    /// draw or reveal) and rebuild the game without that command's events.
    fn undo(
        &mut self,
        game: &mut Box<dyn AnyGame>,
        new_game: fn(&Value) -> Result<Box<dyn AnyGame>, clash_core::GameError>,
        undo: TakenBack,
    ) -> Result<(), String> {
        let TakenBack { pos, n, at, events } = undo;
        let last = self.standing.pop().ok_or_else(|| {
            format!("entry {pos}: takes back command {n}, but no command is standing")
        })?;
        if last.pos != at || last.n != n || last.events != events {
            return Err(format!(
                "entry {pos}: takes back command {n} at entry {at}, but the last command standing is {} at entry {}",
                last.n, last.pos
            ));
        }
        if last.chance {
            return Err(format!(
                "entry {pos}: takes back command {n}, which rolled dice or drew cards"
            ));
        }
        let from = game.event_count().saturating_sub(events);
        if game.events_json(from).iter().any(|e| game.reveals(e)) {
            return Err(format!(
                "entry {pos}: takes back command {n}, which revealed something hidden"
            ));
        }
        *game = crate::table::undo::rebuilt(game.as_ref(), new_game, events).map_err(|e| {
            format!("entry {pos}: the game cannot be rebuilt without command {n}: {e}")
        })?;
        self.undone += 1;
        Ok(())
    }

    /// Replay the command at `pos`; returns the position after its events.
    fn command(
        &mut self,
        game: &mut dyn AnyGame,
        entries: &[Entry],
        pos: usize,
    ) -> Result<usize, String> {
        let Entry::Command(c) = &entries[pos] else {
            return Ok(pos + 1);
        };
        // Commands are numbered in log order, taken back or not: a gap is a command left out.
        let expected = self.commands as u64;
        if c.n != expected {
            return Err(format!(
                "entry {pos}: command {} where command {expected} comes next: a command is missing from the record",
                c.n
            ));
        }
        let seeds: Vec<(String, String)> = self
            .seeds
            .iter()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        let mut chance = DerivedRandomness::new(&ChanceInputs {
            secret: self.secret,
            table: self.table,
            command: c.n,
            seeds: &seeds,
        });
        let mut recorder = Recorder::new(&mut chance);
        let produced = game
            .command(c.seat, &c.command, &mut recorder)
            .map_err(|e| {
                format!(
                    "entry {pos} (command {} by {}): the rules refuse it on replay: {e}",
                    c.n, c.seat
                )
            })?;
        compare_draws(pos, c.n, &c.draws, &recorder.draws)?;
        for d in &recorder.draws {
            match d {
                Draw::Roll { .. } => self.rolls += 1,
                Draw::Pick { .. } => self.draws += 1,
            }
        }
        for (i, event) in produced.iter().enumerate() {
            let at = pos + 1 + i;
            match entries.get(at) {
                Some(Entry::Event { event: logged }) if logged == event => {}
                Some(Entry::Event { event: logged }) => {
                    return Err(format!(
                        "entry {at} (event {} of command {} by {}): the log says {}, replaying gives {}{}",
                        i + 1,
                        c.n,
                        c.seat,
                        canonical(logged),
                        canonical(event),
                        first_difference(logged, event)
                            .map(|p| format!(" (they differ at {p})"))
                            .unwrap_or_default()
                    ));
                }
                None => {
                    return Err(format!(
                        "{CUT} inside the events of command {} by {} (entry {pos}), so the rest of the game was not replayed",
                        c.n, c.seat
                    ));
                }
                _ => {
                    return Err(format!(
                        "entry {at}: command {} by {} produces {} events on replay; the log has fewer",
                        c.n,
                        c.seat,
                        produced.len()
                    ));
                }
            }
        }
        let next = pos + 1 + produced.len();
        if let Some(Entry::Event { .. }) = entries.get(next) {
            return Err(format!(
                "entry {next}: an event command {} by {} does not produce on replay",
                c.n, c.seat
            ));
        }
        self.commands += 1;
        self.events += produced.len();
        self.standing.push(Standing {
            pos,
            n: c.n,
            events: produced.len(),
            chance: !recorder.draws.is_empty(),
        });
        Ok(next)
    }
}

fn compare_draws(pos: usize, n: u64, logged: &[Draw], derived: &[Draw]) -> Result<(), String> {
    for (i, d) in derived.iter().enumerate() {
        match logged.get(i) {
            Some(l) if l == d => {}
            Some(l) => {
                return Err(format!(
                    "entry {pos} (command {n}), draw {}: the record says {l}, the derivation gives {d}",
                    i + 1
                ));
            }
            None => {
                return Err(format!(
                    "entry {pos} (command {n}), draw {}: missing from the record (the derivation gives {d})",
                    i + 1
                ));
            }
        }
    }
    if logged.len() > derived.len() {
        return Err(format!(
            "entry {pos} (command {n}): the record lists {} draws, the command takes {}",
            logged.len(),
            derived.len()
        ));
    }
    Ok(())
}

/// The JSON pointer of the first place two values differ.
fn first_difference(a: &Value, b: &Value) -> Option<String> {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            let mut keys: Vec<&String> = x.keys().chain(y.keys()).collect();
            keys.sort();
            keys.dedup();
            keys.into_iter().find_map(|k| match (x.get(k), y.get(k)) {
                (Some(u), Some(v)) => first_difference(u, v).map(|p| format!("/{k}{p}")),
                _ => Some(format!("/{k}")),
            })
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => x
            .iter()
            .zip(y)
            .enumerate()
            .find_map(|(i, (u, v))| first_difference(u, v).map(|p| format!("/{i}{p}"))),
        _ if a == b => None,
        _ => Some(String::new()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_first_difference_is_named_by_pointer() {
        let a = json!({"type": "rolled", "dice": [3, 4], "who": "Ada"});
        let b = json!({"type": "rolled", "dice": [3, 5], "who": "Ada"});
        assert_eq!(first_difference(&a, &b).as_deref(), Some("/dice/1"));
        assert_eq!(first_difference(&a, &a), None);
    }
}
