//! A table's record read as the game it holds ([`Record`]): its setup, then every command that
//! stands with the chance it took and its events, in log order. A command the GM took back is
//! left out with its events, as the game was rebuilt without it.

use clash_core::review::{Record, Step};
use serde_json::Value;

use crate::log::{Entry, TableEvent};

/// What a record holds for a review: its ruleset and the game.
#[derive(Debug)]
pub struct Read {
    pub ruleset: String,
    pub record: Record,
    /// Every entry was given in full: the table had ended when the record was taken.
    pub whole: bool,
}

/// Read `doc` (a `clash-table-export/1` record) as a game. A record taken before the end has
/// entries given only in part; they are read as far as they go, and `whole` says so.
pub fn read(doc: &Value) -> Result<Read, String> {
    let list = doc["entries"]
        .as_array()
        .ok_or("the record has no \"entries\" list")?;
    let mut whole = doc.get("secret").is_some();
    let mut entries = Vec::with_capacity(list.len());
    for (pos, item) in list.iter().enumerate() {
        match item.get("entry") {
            Some(e) => entries.push(
                serde_json::from_value::<Entry>(e.clone())
                    .map_err(|e| format!("entry {pos} is not a log entry: {e}"))?,
            ),
            // Talk the reader may not see, or (before the end) anything hidden: the game
            // cannot be read past it.
            None if item.get("hidden").and_then(Value::as_bool) == Some(true) && whole => {}
            None => whole = false,
        }
    }
    let (ruleset, setup) = match entries.first() {
        Some(Entry::Table {
            event: TableEvent::Created { ruleset, setup, .. },
        }) => (ruleset.clone(), setup.clone()),
        _ => return Err("the record does not begin with the table's creation".into()),
    };
    Ok(Read {
        ruleset,
        record: Record {
            setup,
            steps: steps(&entries)?,
        },
        whole,
    })
}

/// The commands that stand, each with the events that follow it.
fn steps(entries: &[Entry]) -> Result<Vec<Step>, String> {
    // (command number, step) of every command standing.
    let mut standing: Vec<(u64, Step)> = Vec::new();
    for (pos, entry) in entries.iter().enumerate() {
        match entry {
            Entry::Command(c) => standing.push((
                c.n,
                Step {
                    seat: c.seat,
                    command: c.command.clone(),
                    draws: c.draws.clone(),
                    events: Vec::new(),
                },
            )),
            // Events before any command are the game's opening: the setup makes them again.
            Entry::Event { event } => {
                if let Some((_, step)) = standing.last_mut() {
                    step.events.push(event.clone());
                }
            }
            Entry::Table {
                event: TableEvent::Undone { n, .. },
            } => match standing.last() {
                Some((last, _)) if last == n => {
                    standing.pop();
                }
                _ => {
                    return Err(format!(
                        "entry {pos} takes back command {n}, which is not the last one standing"
                    ));
                }
            },
            Entry::Table { .. } => {}
        }
    }
    Ok(standing.into_iter().map(|(_, s)| s).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn record(entries: Vec<Value>, secret: bool) -> Value {
        let entries: Vec<Value> = entries
            .into_iter()
            .enumerate()
            .map(|(pos, e)| json!({"pos": pos, "hash": "00", "entry": e}))
            .collect();
        let mut doc = json!({"format": "clash-table-export/1", "entries": entries});
        if secret {
            doc["secret"] = json!("ab");
        }
        doc
    }

    fn created() -> Value {
        json!({"kind": "table", "event": {"type": "created", "ruleset": "morra",
            "title": "", "setup": {"rounds": 1}, "commitment": "00", "chance": "clash-chance-v1"}})
    }

    fn command(n: u64) -> Value {
        json!({"kind": "command", "n": n, "seat": "p1", "by": "player", "command": {"type": "x"}})
    }

    #[test]
    fn commands_keep_their_events_and_taken_back_ones_are_left_out() {
        let doc = record(
            vec![
                created(),
                json!({"kind": "event", "event": {"type": "opening"}}),
                command(0),
                json!({"kind": "event", "event": {"type": "a"}}),
                command(1),
                json!({"kind": "event", "event": {"type": "b"}}),
                json!({"kind": "table", "event": {"type": "undone", "n": 1, "seat": "p1", "at": 4, "events": 1}}),
                command(2),
            ],
            true,
        );
        let read = read(&doc).unwrap();
        assert_eq!(read.ruleset, "morra");
        assert!(read.whole);
        assert_eq!(read.record.steps.len(), 2);
        assert_eq!(read.record.steps[0].events, vec![json!({"type": "a"})]);
        assert!(read.record.steps[1].events.is_empty());
    }

    #[test]
    fn a_record_before_the_end_is_not_whole() {
        let mut doc = record(vec![created(), command(0)], false);
        doc["entries"][1] = json!({"pos": 1, "hash": "00", "hidden": true, "digest": "00"});
        assert!(!read(&doc).unwrap().whole);
        let taken_back = record(
            vec![
                created(),
                json!({"kind": "table", "event": {"type": "undone", "n": 3, "seat": "p1", "at": 1, "events": 0}}),
            ],
            true,
        );
        assert!(read(&taken_back).is_err());
    }
}
