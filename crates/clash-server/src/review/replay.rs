//! An ended table stepped through from its log, as one seat saw it at each step: the board
//! (the seat's view then), what the step's events told it, and, marked as revealed later, what
//! they hid from it at the time (another seat's secret choice, a card drawn face down), told as
//! the seat that saw it whole was told.

use clash_core::review::Record;
use clash_core::{AnyGame, RulesetEntry, Seat, Viewer};
use serde::Serialize;
use serde_json::Value;

/// One step of a replay.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ReplayFrame {
    /// The step shown: 0 is the table as it began, `k` the table after its `k`-th command.
    pub step: u32,
    /// Commands in the game: the last step.
    pub steps: u32,
    /// Who sent this step's command, by name (none at step 0).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub actor: Option<String>,
    /// The seat's view of the table after the step, as its board draws it.
    #[cfg_attr(feature = "ts", ts(type = "any"))]
    pub view: Value,
    /// The same as text.
    pub render: String,
    /// What the step's events told the seat, and what they hid from it then.
    pub lines: Vec<ReplayLine>,
    /// Whose move it was after the step, or how the game ended, in words.
    pub status: String,
}

/// A line of the replay's log.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ReplayLine {
    pub text: String,
    /// Hidden from this seat at the time: shown now that the table has ended.
    pub later: bool,
}

/// Why a step cannot be shown.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FrameError {
    /// The seat asked for does not play at this table.
    #[error("seat {0} does not play at this table")]
    NoSuchSeat(Seat),
    /// The record does not replay through the rules.
    #[error("{0}")]
    Unreadable(String),
}

/// The frame of `step` (0 to the record's length) as `viewer` saw it.
pub fn frame(
    entry: &RulesetEntry,
    record: &Record,
    viewer: Viewer,
    step: usize,
) -> Result<ReplayFrame, FrameError> {
    let step = step.min(record.steps.len());
    let mut game =
        (entry.new_game)(&record.setup).map_err(|e| FrameError::Unreadable(e.to_string()))?;
    if let Viewer::Seat(s) = viewer
        && s != Seat::Gm
        && !game.seats().contains(&s)
    {
        return Err(FrameError::NoSuchSeat(s));
    }
    let mut from = 0;
    for s in &record.steps[..step] {
        from = game.event_count();
        for e in &s.events {
            game.restore(e)
                .map_err(|e| FrameError::Unreadable(e.to_string()))?;
        }
    }
    let actor = step
        .checked_sub(1)
        .map(|k| game.seat_name(record.steps[k].seat));
    Ok(ReplayFrame {
        step: step as u32,
        steps: record.steps.len() as u32,
        actor,
        view: game.view(viewer),
        render: game.render(viewer),
        lines: lines(game.as_ref(), viewer, from),
        status: status(game.as_ref()),
    })
}

/// The events from `from` on as `viewer` saw them, each followed by what it hid, if anything.
fn lines(game: &dyn AnyGame, viewer: Viewer, from: usize) -> Vec<ReplayLine> {
    let seen = game.events_for(viewer, from);
    let raw = game.events_json(from);
    let mut out = Vec::new();
    for (i, full) in raw.iter().enumerate() {
        let index = from + i;
        let mine = seen.iter().find(|s| s.index == index);
        if let Some(m) = mine {
            out.push(ReplayLine {
                text: m.text.clone(),
                later: false,
            });
        }
        if mine.is_some_and(|m| &m.event == full) {
            continue;
        }
        out.push(ReplayLine {
            text: whole(game, index, full).unwrap_or_else(|| {
                "Something happened that no seat saw at the time (a shuffle, say).".into()
            }),
            later: true,
        });
    }
    out
}

/// Event `index` told as a seat that saw it whole was told.
fn whole(game: &dyn AnyGame, index: usize, full: &Value) -> Option<String> {
    let mut seats = game.seats();
    if !seats.contains(&Seat::Gm) {
        seats.push(Seat::Gm);
    }
    seats.into_iter().find_map(|s| {
        game.events_for(Viewer::Seat(s), index)
            .into_iter()
            .find(|e| e.index == index && &e.event == full)
            .map(|e| e.text)
    })
}

fn status(game: &dyn AnyGame) -> String {
    let status = game.status();
    if let Some(over) = status.over {
        return over;
    }
    let names: Vec<String> = status
        .waiting_for
        .iter()
        .map(|s| game.seat_name(*s))
        .collect();
    match names.as_slice() {
        [] => "Nobody's move: the table waited on the GM's business.".into(),
        [one] => format!("Waiting for {one}."),
        [init @ .., last] => format!("Waiting for {} and {last}.", init.join(", ")),
    }
}
