//! The live stream (Server-Sent Events): after every change, each open stream gets its viewer's
//! update, taken from the picture shared by every stream of that viewer at that revision.
//!
//! A stream opened with `?changes=patch` (the pages do) gets the whole update first, then each
//! push as a `patch`: a JSON Patch of the update it last got, plus the new log lines. A stream
//! that falls behind is never sent a backlog: when it can take more, it gets the table as it
//! stands now (changes in between are folded together), and a peer that takes nothing at all is
//! dropped by the connection's stall timeout (see [`crate::http::net`]).

use std::sync::Arc;

use axum::body::{Body, Bytes};
use axum::http::header;
use axum::response::Response;
use axum::response::sse::Event;
use clash_core::Seat;
use http_body_util::BodyExt;
use serde_json::json;
use tokio::sync::watch;

use crate::error::TableError;
use crate::metrics::Metrics;
use crate::server::Server;
use crate::table::links::Role;
use crate::table::play::Access;
use crate::table::{Push, Table};
use crate::view::frames::Hashes;
use crate::view::snapshot::{assemble, patch_text};

/// One open stream.
pub struct Watcher {
    pub table: Arc<Table>,
    pub key: String,
    pub as_seat: Option<Seat>,
    /// The rights the stream was opened with: it sends only while the key still has exactly these.
    pub bound: Access,
    /// The log position the client has read up to.
    pub cursor: usize,
    /// Send patches after the first update.
    pub patches: bool,
    pub changes: watch::Receiver<u64>,
    pub closing: watch::Receiver<bool>,
    pub metrics: Arc<Metrics>,
    /// The stream's place at the table, and the page counted as present, while it lives.
    pub places: (StreamTicket, Here),
    /// The revision, presence version and hashes of the picture last sent.
    sent: Option<(usize, u64, Arc<Hashes>)>,
    started: bool,
    ended: bool,
}

impl Watcher {
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        table: Arc<Table>,
        key: String,
        as_seat: Option<Seat>,
        bound: Access,
        cursor: usize,
        patches: bool,
        closing: watch::Receiver<bool>,
        metrics: Arc<Metrics>,
        places: (StreamTicket, Here),
    ) -> Watcher {
        let changes = table.watch();
        Watcher {
            table,
            key,
            as_seat,
            bound,
            cursor,
            patches,
            changes,
            closing,
            metrics,
            places,
            sent: None,
            started: false,
            ended: false,
        }
    }

    /// The next message for this viewer, or `None` once the stream should end.
    pub async fn next(&mut self) -> Option<Event> {
        loop {
            if self.ended {
                return None;
            }
            if self.started {
                tokio::select! {
                    changed = self.changes.changed() => changed.ok()?,
                    _ = self.closing.wait_for(|c| *c) => return None,
                }
            }
            self.started = true;
            let snapshot = match self.table.push(&self.key, self.as_seat, &self.bound).await {
                Push::Snapshot(s) => s,
                other => return Some(self.last_word(other)),
            };
            let revision = snapshot.revision();
            let present = snapshot.presence_version();
            if self
                .sent
                .as_ref()
                .is_some_and(|(r, p, _)| *r == revision && *p == present)
            {
                continue;
            }
            let Ok(frame) = snapshot.frame(&self.bound, &self.metrics).await else {
                self.ended = true;
                return None;
            };
            let events = snapshot.lines(&self.bound, self.cursor).await;
            let (name, data) = match (&self.sent, self.patches) {
                (Some((base, _, hashes)), true) => (
                    "patch",
                    patch_text(*base, revision, &frame.patch_since(hashes), &events),
                ),
                _ => ("update", assemble(frame.text(), &events, None)),
            };
            self.cursor = revision;
            self.sent = Some((revision, present, frame.hashes.clone()));
            crate::metrics::COST.update_bytes.inc_by(data.len() as u64);
            return Some(
                Event::default()
                    .id(revision.to_string())
                    .event(name)
                    .data(data),
            );
        }
    }

    /// The message that ends the stream.
    fn last_word(&mut self, push: Push) -> Event {
        self.ended = true;
        match push {
            Push::Changed { message } => Event::default()
                .event("access")
                .data(json!({ "message": message }).to_string()),
            Push::Revoked => Event::default()
                .event("revoked")
                .data("this link was revoked; ask the GM for a new one"),
            Push::Deleted => Event::default()
                .event("deleted")
                .data("the GM deleted this table"),
            Push::Snapshot(_) => Event::default().comment("end"),
        }
    }
}

/// A live stream's messages each in a buffer of its own size. axum builds a message in a buffer
/// that doubles as it grows (to about twice the message), and a stream whose client does not
/// read holds the messages queued for it until it is dropped. Other answers pass untouched.
pub async fn snug(response: Response) -> Response {
    let streaming = response
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(b"text/event-stream"));
    if !streaming {
        return response;
    }
    response.map(|body| {
        Body::new(body.map_frame(|frame| frame.map_data(|data| Bytes::copy_from_slice(&data))))
    })
}

/// A live stream's place at its table; dropping it frees the place.
pub struct StreamTicket {
    table: Arc<Table>,
    key: Option<String>,
    metrics: Arc<Metrics>,
}

impl Drop for StreamTicket {
    fn drop(&mut self) {
        let mut w = self.table.watching();
        w.total = w.total.saturating_sub(1);
        if let Some(key) = &self.key
            && let Some(n) = w.by_key.get_mut(key)
        {
            *n -= 1;
            if *n == 0 {
                w.by_key.remove(key);
            }
        }
        self.metrics.streams_open.dec();
    }
}

impl Server {
    pub fn open_stream(
        &self,
        table: &Arc<Table>,
        key: &str,
        access: &Access,
    ) -> Result<StreamTicket, TableError> {
        let mut w = table.watching();
        if w.total >= self.limits().streams_per_table {
            self.metrics().refuse("streams_per_table");
            return Err(TableError::TooManyStreams(format!(
                "this table already has {} live pages open; close some",
                w.total
            )));
        }
        let counted = (access.role != Role::Spectator).then(|| key.to_string());
        if let Some(k) = &counted {
            let n = w.by_key.entry(k.clone()).or_insert(0);
            if *n >= self.limits().streams_per_key {
                self.metrics().refuse("streams_per_key");
                return Err(TableError::TooManyStreams(format!(
                    "this link already has {n} live pages open; close some"
                )));
            }
            *n += 1;
        }
        w.total += 1;
        self.metrics().streams_open.inc();
        Ok(StreamTicket {
            table: table.clone(),
            key: counted,
            metrics: self.metrics().clone(),
        })
    }
}

/// One open page of `who` at `table`; counted out when dropped.
pub struct Here {
    table: Arc<Table>,
    who: String,
}

/// Count `who` in at `table` until the returned guard is dropped, waking everyone's stream.
pub fn arrive(table: Arc<Table>, who: String) -> Here {
    table.presence.change(&who, true);
    table.announce();
    table.tell_presence();
    Here { table, who }
}

impl Drop for Here {
    fn drop(&mut self) {
        self.table.presence.change(&self.who, false);
        self.table.announce();
        self.table.tell_presence();
    }
}
