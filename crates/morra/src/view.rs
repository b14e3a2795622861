//! What one viewer sees of the table ([`View`]) and reads of it (narration and the text
//! board): a chosen hand stays hidden from everyone but its player until both are in (MO-8).

use clash_core::Viewer;
use serde::Serialize;

use crate::command::{Event, Hand};
use crate::state::{Outcome, Reveal, State, seat, seat_name};

/// What one viewer sees of the table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "morra/"))]
pub struct View {
    pub round: u32,
    pub target: u32,
    pub round_limit: u32,
    /// Both players, in seat order.
    pub players: Vec<PlayerView>,
    /// The round revealed last, if any.
    pub last: Option<RevealView>,
    /// How the game ended, in words, once it has.
    pub outcome: Option<String>,
}

/// A player as one viewer sees them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "morra/"))]
pub struct PlayerView {
    pub name: String,
    pub score: u32,
    /// This is the viewer's own seat.
    pub you: bool,
    /// The player has chosen a hand this round.
    pub chosen: bool,
    /// The chosen hand, shown to its own player only (MO-8).
    pub hand: Option<Hand>,
}

/// The last round as everyone saw it revealed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "morra/"))]
pub struct RevealView {
    pub round: u32,
    /// Each player's hand, in seat order.
    pub hands: Vec<Hand>,
    pub total: u8,
    /// Who alone was right and scored the total.
    pub scorer: Option<String>,
    /// The round in one sentence.
    pub text: String,
}

pub(crate) fn fingers(n: u8) -> String {
    match n {
        1 => "one finger".into(),
        2 => "two fingers".into(),
        3 => "three fingers".into(),
        n => format!("{n} fingers"),
    }
}

pub(crate) fn points(n: u32) -> String {
    if n == 1 {
        "1 point".into()
    } else {
        format!("{n} points")
    }
}

pub(crate) fn reveal_text(state: &State, r: &Reveal) -> String {
    let [a, b] = &state.names;
    let shows =
        |name: &str, h: &Hand| format!("{name} shows {} and calls {}", fingers(h.fingers), h.call);
    let result = match r.scorer {
        Some(i) => format!(
            "{} alone is right and scores {}",
            state.names[i],
            points(u32::from(r.total))
        ),
        None if r.hands.iter().all(|h| h.call == r.total) => {
            "both are right, so nobody scores".into()
        }
        None => "nobody is right".into(),
    };
    format!(
        "Round {}: {}; {}. The total is {}: {result}.",
        r.round,
        shows(a, &r.hands[0]),
        shows(b, &r.hands[1]),
        r.total
    )
}

pub(crate) fn outcome_text(state: &State, outcome: Outcome) -> String {
    let [a, b] = state.scores;
    match outcome {
        Outcome::Win { player } => format!(
            "{} wins, {} to {}.",
            state.names[player],
            a.max(b),
            a.min(b)
        ),
        Outcome::Draw => format!("A draw, {a} points each."),
    }
}

/// The table as `viewer` sees it.
pub(crate) fn view(state: &State, viewer: Viewer) -> View {
    View {
        round: state.round,
        target: state.target,
        round_limit: state.round_limit,
        players: (0..2)
            .map(|i| {
                let you = viewer.is(seat(i));
                PlayerView {
                    name: state.names[i].clone(),
                    score: state.scores[i],
                    you,
                    chosen: state.hands[i].is_some(),
                    hand: if you { state.hands[i] } else { None },
                }
            })
            .collect(),
        last: state.last.as_ref().map(|r| RevealView {
            round: r.round,
            hands: r.hands.to_vec(),
            total: r.total,
            scorer: r.scorer.map(|s| state.names[s].clone()),
            text: reveal_text(state, r),
        }),
        outcome: state.over.map(|o| outcome_text(state, o)),
    }
}

/// `event` as `viewer` may see it: another player's chosen hand is left out (MO-8).
pub(crate) fn event_view(event: &Event, viewer: Viewer) -> Option<Event> {
    Some(match event {
        Event::Chosen { seat, .. } if !viewer.is(*seat) => Event::Chosen {
            seat: *seat,
            hand: None,
        },
        other => other.clone(),
    })
}

/// `event` in one sentence.
pub(crate) fn narrate(state: &State, event: &Event) -> String {
    match event {
        Event::Chosen { seat, hand } => {
            let name = seat_name(state, *seat);
            match hand {
                Some(h) => format!(
                    "{name} shows {} and calls {}, face down.",
                    fingers(h.fingers),
                    h.call
                ),
                None => format!("{name} chooses a hand, face down."),
            }
        }
        Event::Revealed { reveal } => reveal_text(state, reveal),
        Event::GameOver { outcome } => outcome_text(state, *outcome),
    }
}

/// The table as text, for `viewer`.
pub(crate) fn render(state: &State, viewer: Viewer) -> String {
    let mut out = format!(
        "Morra, first to {} (round {} of at most {})\n",
        points(state.target),
        state.round.min(state.round_limit),
        state.round_limit
    );
    for i in 0..2 {
        let hand = match (state.hands[i], viewer.is(seat(i))) {
            (Some(h), true) => format!("shows {} and calls {}", fingers(h.fingers), h.call),
            (Some(_), false) => "has chosen a hand".into(),
            (None, _) if state.over.is_none() => "is choosing a hand".into(),
            (None, _) => String::new(),
        };
        out.push_str(&format!(
            "  {}: {} {hand}\n",
            state.names[i],
            points(state.scores[i])
        ));
    }
    if let Some(r) = &state.last {
        out.push_str(&reveal_text(state, r));
        out.push('\n');
    }
    if let Some(o) = state.over {
        out.push_str(&outcome_text(state, o));
        out.push('\n');
    }
    out
}
