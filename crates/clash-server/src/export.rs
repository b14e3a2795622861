//! A table's record (`GET /api/tables/{id}/export`) and its verification (`clash verify`).
//!
//! # The record (`clash-table-export/1`)
//!
//! ```json
//! { "format": "clash-table-export/1", "table": "…", "ruleset": "…", "title": "…",
//!   "exported_as": "p1", "chance": "clash-chance-v1", "commitment": "<hex>",
//!   "secret": "<hex, only once revealed>", "head": "<hex>",
//!   "entries": [ { "pos": 0, "hash": "<hex>", "entry": { … } }, … ] }
//! ```
//!
//! Once the table has ended and its secret is revealed, every entry is given in full, to
//! everyone: commands with their rolls and draws, events, table events. Before that, a record is
//! cut to what its key may see, exactly as the live views are: an entry that key may read whole
//! is given as `entry`; one it sees only in part as `seen` (another seat's secret stance shows as
//! "ready"; a command's draws are never shown, even to its sender, since a shuffle's order is
//! secret from everyone); one it may not see at all as `"hidden": true`. Each then also carries
//! its `digest`, so the chain can be followed without the secret. There is no secret in it.
//!
//! # Verification
//!
//! [`verify`] checks, in this order: the secret against the commitment; the chain (every
//! entry's digest recomputed from its content and the secret, every hash from the one before,
//! up to the head); then it replays the log through the ruleset from the catalogue: each
//! command's chance is derived again from the secret, the client seeds in force and the
//! command's number, every draw is compared with the recorded one, and every event the command
//! produces with the events that follow it in the log. It reports what it checked, or each
//! entry, draw or event that differs.

use clash_core::{
    AnyGame, ChanceInputs, DerivedRandomness, Draw, Recorder, RulesetEntry, SeenEvent, Viewer,
};
use serde_json::{Value, json};

use crate::log::{
    Chance, Entry, Hash, Reader, TableEvent, canonical, chain, commitment, digest, hex, unhex,
    unhex_hash,
};

/// The format name of a record.
pub const FORMAT: &str = "clash-table-export/1";

/// What the server knows when building a record for one key.
pub struct Source<'a> {
    pub table: &'a str,
    pub secret: &'a [u8],
    pub commitment: &'a str,
    pub chance: Chance,
    pub viewer: Viewer,
    /// Who reads it as table talk: a whisper is given only to the GM and the player it is from
    /// or to, even once the secret is revealed.
    pub reader: Reader,
    pub revealed: bool,
    /// The log position of each game event.
    pub game_pos: &'a [usize],
    /// The game events as the viewer sees them (indices into the game's own log).
    pub seen: &'a [SeenEvent],
}

/// Build the record from the stored log (`(entry, hash)` in order).
pub fn build(source: &Source<'_>, stored: &[(Value, String)]) -> Value {
    let created = stored
        .first()
        .and_then(|(e, _)| serde_json::from_value::<Entry>(e.clone()).ok());
    let (ruleset, title) = match created {
        Some(Entry::Table {
            event: TableEvent::Created { ruleset, title, .. },
        }) => (ruleset, title),
        _ => (String::new(), String::new()),
    };
    let entries: Vec<Value> = stored
        .iter()
        .enumerate()
        .map(|(pos, (body, hash))| entry_for(source, pos, body, hash))
        .collect();
    let mut doc = json!({
        "format": FORMAT,
        "table": source.table,
        "ruleset": ruleset,
        "title": title,
        "exported_as": source.viewer.to_string(),
        "chance": source.chance,
        "commitment": source.commitment,
        "head": stored.last().map(|(_, h)| h.clone()).unwrap_or_default(),
        "entries": entries,
    });
    if source.revealed {
        doc["secret"] = Value::String(hex(source.secret));
    }
    doc
}

/// Whether the entry at `pos` is private talk this reader may not read (a whisper between the
/// GM and another player): it is left out of the reader's record but for its place in the
/// chain, before and after the end alike.
fn private(source: &Source<'_>, pos: usize, body: &Value) -> bool {
    match serde_json::from_value::<Entry>(body.clone()) {
        Ok(Entry::Table { event }) => !event.readable_by(&source.reader, pos),
        _ => false,
    }
}

fn entry_for(source: &Source<'_>, pos: usize, body: &Value, hash: &str) -> Value {
    if private(source, pos, body) {
        // Chained by its digest alone, like any entry this reader may not see: no author, no
        // kind, no text.
        return json!({ "pos": pos, "hash": hash, "hidden": true,
            "digest": hex(&digest(source.secret, source.table, pos as u64, body)) });
    }
    if source.revealed {
        return json!({ "pos": pos, "hash": hash, "entry": body });
    }
    let mut out = json!({ "pos": pos, "hash": hash, "digest": hex(&digest(source.secret, source.table, pos as u64, body)) });
    match seen_form(source, pos, body) {
        Some(seen) if &seen == body => out["entry"] = seen,
        Some(seen) => out["seen"] = seen,
        None => out["hidden"] = Value::Bool(true),
    }
    out
}

/// What the viewer may see of one entry before the reveal; `None` for nothing at all.
fn seen_form(source: &Source<'_>, pos: usize, body: &Value) -> Option<Value> {
    let entry: Entry = serde_json::from_value(body.clone()).ok()?;
    match entry {
        Entry::Command(c) => {
            let mut seen = json!({ "kind": "command", "n": c.n, "seat": c.seat, "by": c.by });
            if source.viewer.is(c.seat) {
                seen["command"] = c.command;
            }
            Some(seen)
        }
        Entry::Event { .. } => {
            let game_index = source.game_pos.binary_search(&pos).ok()?;
            let seen = source.seen.iter().find(|s| s.index == game_index)?;
            Some(json!({ "kind": "event", "event": seen.event }))
        }
        Entry::Table { event } => serde_json::to_value(Entry::Table {
            event: event.public(),
        })
        .ok(),
    }
}

/// The outcome of checking a record.
#[derive(Debug, Default)]
pub struct Report {
    /// What was checked and held, in words.
    pub verified: Vec<String>,
    /// Each thing that did not hold, naming the entry, draw or event.
    pub failures: Vec<String>,
    /// What could not be checked (a record taken before the reveal; a legacy table).
    pub unchecked: Vec<String>,
}

impl Report {
    pub fn ok(&self) -> bool {
        self.failures.is_empty()
    }
}

/// One entry of a record, as read back.
struct Item {
    pos: usize,
    hash: Option<Hash>,
    digest: Option<Hash>,
    entry: Option<Value>,
    /// The part a key may see of an entry it may not read whole.
    seen: Option<Value>,
    /// A whisper between a player and the GM, given by its digest only, with its author (as
    /// records made before whispers were left out entirely gave it).
    withheld: bool,
    /// Given by its digest alone: after the end, only talk between the GM and another player.
    hidden: bool,
}

/// Check a record. `seen_heads` are head hashes a player noted during play: each must be one
/// of the record's hashes.
pub fn verify(doc: &Value, catalogue: &[RulesetEntry], seen_heads: &[String]) -> Report {
    let mut report = Report::default();
    if doc.get("format").and_then(Value::as_str) != Some(FORMAT) {
        report.failures.push(format!(
            "this is not a Clash table record (expected \"format\": \"{FORMAT}\")"
        ));
        return report;
    }
    let table = doc["table"].as_str().unwrap_or_default().to_string();
    let items = match read_items(doc) {
        Ok(items) => items,
        Err(e) => {
            report.failures.push(e);
            return report;
        }
    };
    let secret = check_secret(doc, &items, &mut report);
    check_chain(doc, &table, secret.as_deref(), &items, &mut report);
    check_heads(&items, seen_heads, &mut report);
    match &secret {
        Some(secret) => replay(&table, secret, &items, catalogue, &mut report),
        None => report.unchecked.push(
            "rolls, draws and events: this record was taken before the table ended, so it holds no secret; \
             export it again once the table has ended"
                .into(),
        ),
    }
    report
}

fn read_items(doc: &Value) -> Result<Vec<Item>, String> {
    let list = doc["entries"]
        .as_array()
        .ok_or("the record has no \"entries\" list")?;
    let mut items = Vec::with_capacity(list.len());
    for (i, e) in list.iter().enumerate() {
        let pos = e["pos"]
            .as_u64()
            .ok_or(format!("entry {i} has no position"))? as usize;
        if pos != i {
            return Err(format!(
                "entry {i} says it is at position {pos}: entries are missing or out of order"
            ));
        }
        let hash = e["hash"].as_str().and_then(unhex_hash);
        let digest = e["digest"].as_str().and_then(unhex_hash);
        items.push(Item {
            pos,
            hash,
            digest,
            entry: e.get("entry").cloned(),
            seen: e.get("seen").cloned(),
            withheld: e.get("withheld").and_then(Value::as_bool) == Some(true),
            hidden: e.get("hidden").and_then(Value::as_bool) == Some(true),
        });
    }
    if items.is_empty() {
        return Err("the record has no entries".into());
    }
    Ok(items)
}

/// The secret, if revealed and matching the commitment (else a failure is reported).
fn check_secret(doc: &Value, items: &[Item], report: &mut Report) -> Option<Vec<u8>> {
    let commitment_text = doc["commitment"].as_str().unwrap_or_default();
    let first = items[0].entry.as_ref().or(items[0].seen.as_ref());
    let created = first.and_then(|e| serde_json::from_value::<Entry>(e.clone()).ok());
    match &created {
        Some(Entry::Table { event: TableEvent::Created { commitment: c, .. } }) if c == commitment_text => {
            if doc.get("secret").is_none() {
                report.verified.push(format!("the table's creation sealed the secret as {c}, the commitment this record gives"));
            }
        }
        Some(Entry::Table { event: TableEvent::Created { .. } }) => report
            .failures
            .push("entry 0 (the table's creation): its commitment differs from the record's \"commitment\"".into()),
        _ => report.failures.push("entry 0 is not the table's creation".into()),
    }
    let text = doc.get("secret")?.as_str().unwrap_or_default();
    let Some(secret) = unhex(text) else {
        report.failures.push("the secret is not hex".into());
        return None;
    };
    if hex(&commitment(&secret)) != commitment_text {
        report.failures.push(format!(
            "the secret does not match the commitment: SHA-256 of the revealed secret is {}, the table committed to {commitment_text}",
            hex(&commitment(&secret))
        ));
        return None;
    }
    report.verified.push(format!("the revealed secret matches the commitment made when the table was created ({commitment_text})"));
    Some(secret)
}

fn check_chain(
    doc: &Value,
    table: &str,
    secret: Option<&[u8]>,
    items: &[Item],
    report: &mut Report,
) {
    let mut head: Hash = [0; 32];
    let mut private = 0;
    for item in items {
        let digest = match (secret, &item.entry, item.digest) {
            (Some(secret), Some(entry), _) => digest(secret, table, item.pos as u64, entry),
            (Some(_), None, Some(d)) if item.withheld && is_whisper(item.seen.as_ref()) => d,
            // Not this reader's to read (talk between the GM and another player); the replay
            // shows it stood for nothing the rules or the dice depend on.
            (Some(_), None, Some(d)) if item.hidden => {
                private += 1;
                d
            }
            (Some(_), None, _) => {
                report.failures.push(format!(
                    "entry {}: hidden in a record that reveals the secret",
                    item.pos
                ));
                return;
            }
            (None, _, Some(d)) => d,
            (None, _, None) => {
                report
                    .failures
                    .push(format!("entry {}: has no digest", item.pos));
                return;
            }
        };
        head = chain(&head, &digest);
        if item.hash != Some(head) {
            report.failures.push(format!(
                "entry {} ({}): its hash does not follow from its content and the entries before it: this entry was changed",
                item.pos,
                describe(item.entry.as_ref())
            ));
            return;
        }
    }
    if doc["head"].as_str() != Some(hex(&head).as_str()) {
        report.failures.push(format!(
            "the record's head is not the hash of its last entry ({})",
            hex(&head)
        ));
        return;
    }
    let how = if secret.is_some() {
        "each recomputed from its content"
    } else {
        "following the digests given"
    };
    report.verified.push(format!(
        "{} entries chain, {how}, to the head {}",
        items.len(),
        hex(&head)
    ));
    if private > 0 {
        report.verified.push(format!(
            "{private} entries are not given to this record's reader (private talk between the GM and another player): they are followed by their digest alone"
        ));
    }
}

fn check_heads(items: &[Item], seen_heads: &[String], report: &mut Report) {
    for seen in seen_heads {
        match items
            .iter()
            .find(|i| i.hash.map(|h| hex(&h)) == Some(seen.to_lowercase()))
        {
            Some(i) => report.verified.push(format!(
                "the head {seen} you noted is entry {} of this record",
                i.pos
            )),
            None => report.failures.push(format!(
                "the head {seen} you noted is not in this record: its history was rewritten"
            )),
        }
    }
}

/// Whether `seen` is a whisper (the only kind of entry a revealed record may withhold).
fn is_whisper(seen: Option<&Value>) -> bool {
    matches!(
        seen.and_then(|e| serde_json::from_value::<Entry>(e.clone()).ok()),
        Some(Entry::Table {
            event: TableEvent::Whispered { .. }
        })
    )
}

/// A short description of an entry for messages.
fn describe(entry: Option<&Value>) -> String {
    match entry.and_then(|e| serde_json::from_value::<Entry>(e.clone()).ok()) {
        Some(Entry::Command(c)) => format!("command {} by {}", c.n, c.seat),
        Some(Entry::Event { event }) => format!(
            "event {}",
            event
                .get("type")
                .and_then(Value::as_str)
                .unwrap_or("of the game")
        ),
        Some(Entry::Table { event }) => format!(
            "table event {}",
            serde_json::to_value(&event)
                .ok()
                .and_then(|v| v["type"].as_str().map(str::to_string))
                .unwrap_or_default()
        ),
        None => "unreadable".into(),
    }
}

/// Replay every command and compare draws and events with the log.
fn replay(
    table: &str,
    secret: &[u8],
    items: &[Item],
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
                r.seeds.insert(by.clone(), seed.clone());
                pos += 1;
            }
            Entry::Table {
                event: TableEvent::Undone { n, at, events, .. },
            } => {
                let undo = Undo {
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

/// An `undone` table event as the record gives it.
struct Undo {
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
        undo: Undo,
    ) -> Result<(), String> {
        let Undo { pos, n, at, events } = undo;
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
        *game = crate::undo::rebuilt(game.as_ref(), new_game, events).map_err(|e| {
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

    #[test]
    fn the_first_difference_is_named_by_pointer() {
        let a = json!({"type": "rolled", "dice": [3, 4], "who": "Ada"});
        let b = json!({"type": "rolled", "dice": [3, 5], "who": "Ada"});
        assert_eq!(first_difference(&a, &b).as_deref(), Some("/dice/1"));
        assert_eq!(first_difference(&a, &a), None);
    }
}
