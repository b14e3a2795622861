//! One viewer's picture of the table: everything it may know at a revision but the log lines,
//! written as compact JSON straight from typed values.

use clash_core::Seat;
use serde::Serialize;
use serde_json::Value;

use super::{Fairness, Snapshot};
use crate::log::hex;
use crate::table::play::{Access, SeatInfo, contributor};
use crate::view::labels::label;

const SUSPENDED_NOTICE: &str =
    "The GM plays your seat for now; you are watching until it is handed back.";

/// One viewer's picture, but for the game's view (see [`Snapshot::picture`]).
#[derive(Serialize)]
struct Picture<'a> {
    closed: bool,
    event_count: usize,
    fairness: Fairness,
    head: String,
    legal: Vec<LegalList>,
    #[serde(skip_serializing_if = "Option::is_none")]
    notice: Option<&'static str>,
    render: String,
    room: crate::view::room::RoomView,
    ruleset: &'static str,
    seat: Option<Seat>,
    seats: &'a [SeatInfo],
    table: &'a str,
    title: &'a str,
    viewer: String,
}

/// A command the viewer's seat may send now, with its words for a button.
#[derive(Serialize)]
struct LegalList {
    command: Value,
    label: String,
}

impl Snapshot {
    /// Everything `access` may know at this revision except the log lines, as compact JSON
    /// written straight from typed values (the game writes its view itself: no tree of JSON
    /// values is built on the way).
    pub(super) fn picture(&self, access: &Access) -> Vec<u8> {
        let (t, meta) = (&self.taken, &self.meta);
        let game = t.game.as_ref();
        let legal: Vec<LegalList> = match (access.seat, t.closed) {
            (Some(s), false) => game
                .legal_commands(s)
                .into_iter()
                .map(|command| LegalList {
                    label: label(&command),
                    command,
                })
                .collect(),
            _ => Vec::new(),
        };
        let names = t
            .seeds
            .keys()
            .filter_map(|by| {
                by.parse::<Seat>()
                    .ok()
                    .map(|s| (by.clone(), game.seat_name(s)))
            })
            .collect();
        let picture = Picture {
            closed: t.closed,
            event_count: t.revision,
            fairness: Fairness {
                chance: meta.chance,
                commitment: meta.commitment.clone(),
                seeds: t.seeds.clone(),
                names,
                contributor: contributor(access),
                secret: t.revealed.then(|| hex(&meta.secret)),
            },
            head: hex(&t.head),
            legal,
            notice: access.suspended.then_some(SUSPENDED_NOTICE),
            render: game.render(access.viewer),
            room: crate::view::room::view(self, &t.presence, access),
            ruleset: meta.ruleset,
            seat: access.seat,
            seats: &t.seats,
            table: &meta.id,
            title: &t.title,
            viewer: access.viewer.to_string(),
        };
        let mut out = Vec::with_capacity(4096);
        // Writing into a Vec cannot fail; every member is plain data.
        let _ = serde_json::to_writer(&mut out, &picture);
        // The game's view goes last, written by the game itself.
        out.pop();
        out.extend_from_slice(b",\"view\":");
        game.write_view(access.viewer, &mut out);
        out.push(b'}');
        out
    }
}
