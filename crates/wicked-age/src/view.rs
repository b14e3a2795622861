//! What every viewer sees ([`View`]): the whole table, with the names people know the seats by.

use clash_core::Seat;
use serde::Serialize;

use crate::state::State;

/// What every viewer sees: the whole table (nothing is hidden), with the names people know
/// the seats by and who the table waits on, in words.
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "wicked-age/"))]
#[derive(Debug, Clone, Serialize)]
pub struct View {
    #[serde(flatten)]
    pub table: State,
    /// Each seat and the name it goes by ("the GM", "Ysolde and Oren").
    pub players: Vec<SeatName>,
    /// "Waiting for Ysolde to answer the Khan's challenge".
    pub waiting: String,
}

/// A seat and the name people know it by.
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "wicked-age/"))]
#[derive(Debug, Clone, Serialize)]
pub struct SeatName {
    pub seat: Seat,
    pub name: String,
}

/// The name people know `seat` by: "the GM", or its PCs' names ("Ysolde and Oren").
pub fn seat_name(state: &State, seat: Seat) -> String {
    let names: Vec<&str> = state
        .characters
        .iter()
        .filter(|c| c.controller == seat && c.is_pc())
        .map(|c| c.name.as_str())
        .collect();
    match (seat, names.as_slice()) {
        (Seat::Gm, _) => "the GM".into(),
        (Seat::Player(n), []) => format!("Player {n}"),
        (Seat::Player(_), [one]) => (*one).to_string(),
        (Seat::Player(_), [rest @ .., last]) => format!("{} and {last}", rest.join(", ")),
    }
}
