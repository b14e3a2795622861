//! What makes a record the whole game, and vouches for every field it has: the top-level
//! fields checked against the table's creation (entry 0), the reader the record names checked
//! against what it gives, and its end: a finished table's record ends with the table's close
//! and the reveal of its secret, the secret the record gives. A record that holds the secret
//! but not that end was cut short (or comes from an older server, which went on logging talk
//! after the end): what it holds is checked, but it is not the whole game.

use clash_core::{Seat, Viewer};
use serde_json::Value;

use super::report::{RecordEntry, Report};
use crate::log::{Entry, TableEvent, unhex};

/// Every top-level field a record may have; any other is vouched for by nothing.
pub(super) const FIELDS: [&str; 10] = [
    "format",
    "table",
    "ruleset",
    "title",
    "exported_as",
    "chance",
    "commitment",
    "secret",
    "head",
    "entries",
];

/// An item's entry, read whole or in the part its reader sees.
pub(super) fn entry(item: &RecordEntry) -> Option<Entry> {
    let value = item.entry.as_ref().or(item.seen.as_ref())?;
    serde_json::from_value(value.clone()).ok()
}

/// The top-level fields: none unknown; `ruleset`, `title` and `chance` as the table was
/// created (entry 0, whose commitment [`super::verify`] compares).
pub(super) fn check_fields(doc: &Value, created: Option<&Entry>, report: &mut Report) {
    let unknown: Vec<&String> = doc
        .as_object()
        .map(|o| o.keys().filter(|k| !FIELDS.contains(&k.as_str())).collect())
        .unwrap_or_default();
    for field in unknown {
        report.unchecked.push(format!(
            "the record's field {field:?}: no Clash record has it, and nothing here vouches for it"
        ));
    }
    let Some(Entry::Table {
        event:
            TableEvent::Created {
                ruleset,
                title,
                chance,
                ..
            },
    }) = created
    else {
        return;
    };
    let chance = serde_json::to_value(chance).unwrap_or(Value::Null);
    let mut differ = Vec::new();
    for (field, created) in [
        ("ruleset", Value::from(ruleset.as_str())),
        ("title", Value::from(title.as_str())),
        ("chance", chance),
    ] {
        if doc.get(field) != Some(&created) {
            differ.push(format!(
                "the record's {field:?} is {}, but the table was created with {created}",
                doc.get(field).map_or("missing".into(), Value::to_string)
            ));
        }
    }
    if differ.is_empty() {
        report.verified.push(
            "the record's ruleset, title and chance are those the table was created with (entry 0)"
                .into(),
        );
    }
    report.failures.extend(differ);
}

/// `exported_as` names who the record was made for; what it gives must fit that reader: a
/// spectator is given no whisper, a player only their own, and once the secret is out the GM is
/// given every entry.
pub(super) fn check_reader(
    doc: &Value,
    items: &[RecordEntry],
    revealed: bool,
    report: &mut Report,
) {
    let named = doc["exported_as"].as_str().unwrap_or_default();
    let Ok(viewer) = named.parse::<Viewer>() else {
        report.failures.push(format!(
            "the record's \"exported_as\" ({named:?}) names no reader: it is gm, a seat (p1, p2, …) or spectator"
        ));
        return;
    };
    let own = |by: &str, to: Option<Seat>| match viewer {
        Viewer::Seat(Seat::Gm) => true,
        Viewer::Seat(seat) => by == seat.to_string() || to == Some(seat),
        Viewer::Spectator => false,
    };
    for item in items.iter().filter(|i| i.entry.is_some()) {
        if let Some(Entry::Table {
            event: TableEvent::Whispered { by, to, .. },
        }) = entry(item)
            && !own(&by, to)
        {
            report.failures.push(format!(
                "entry {}: a whisper between others, given whole in a record made for {named}: this record was not made for {named}",
                item.pos
            ));
            return;
        }
    }
    let gm = viewer == Viewer::Seat(Seat::Gm);
    if gm
        && revealed
        && let Some(item) = items.iter().find(|i| i.entry.is_none())
    {
        report.failures.push(format!(
            "entry {}: withheld in a revealed record made for the GM, who reads every entry",
            item.pos
        ));
        return;
    }
    report.verified.push(format!(
        "the record was made for {named}: it gives no talk that reader may not read"
    ));
}

/// The end of a revealed record: the first close (or end of the game), directly followed by the
/// reveal of the secret this record gives, and nothing after them.
pub(super) fn check_end(items: &[RecordEntry], secret: &[u8], report: &mut Report) {
    let entries: Vec<Option<Entry>> = items.iter().map(entry).collect();
    let ended = entries.iter().position(|e| {
        matches!(
            e,
            Some(Entry::Table {
                event: TableEvent::Closed | TableEvent::GameOver { .. }
            })
        )
    });
    let Some(close) = ended else {
        report.unchecked.push(
            "the end of the table: this record holds the secret but does not end with the table's close \
             and the reveal of its secret, so entries may be missing from its end (a record of a finished \
             table always ends so)"
                .into(),
        );
        return;
    };
    for (pos, e) in entries.iter().enumerate().skip(close + 1) {
        if let Some(Entry::Command(_) | Entry::Event { .. }) = e {
            report.failures.push(format!(
                "entry {pos}: a command or game event after the table ended (entry {close})"
            ));
            return;
        }
    }
    let reveal = close + 1;
    match entries.get(reveal) {
        None => {
            report.unchecked.push(format!(
                "the end of the table: the record ends with the table's close (entry {close}) but not the reveal \
                 of its secret, which always follows it: the record was cut short"
            ));
            return;
        }
        Some(Some(Entry::Table {
            event: TableEvent::SecretRevealed { secret: shown },
        })) => {
            if unhex(shown).as_deref() != Some(secret) {
                report.failures.push(format!(
                    "entry {reveal} (the reveal of the secret): it reveals {shown}, not the secret this record gives"
                ));
                return;
            }
        }
        Some(_) => {
            report.failures.push(format!(
                "entry {reveal}: the table's close (entry {close}) is not followed by the reveal of its secret"
            ));
            return;
        }
    }
    let after = items.len() - reveal - 1;
    if after > 0 {
        report.unchecked.push(format!(
            "the end of the table: {after} entries follow the reveal of the secret (an older server logged talk \
             and housekeeping there); they are chained, but this record does not end with the end of the game"
        ));
        return;
    }
    report.verified.push(format!(
        "the record is the whole game: it ends with the table's close (entry {close}) and the reveal of the secret it gives (entry {reveal})"
    ));
}
