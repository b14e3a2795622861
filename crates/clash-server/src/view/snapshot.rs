//! A table as it stood after one change, readable without the table's lock. Every change takes
//! a new [`Snapshot`] under the lock; every read takes the current one there, checks the key's
//! rights, and works from the snapshot alone: nothing a viewer asks for is computed under the
//! lock, and each viewer's picture at each revision is computed once and shared.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex, OnceLock, RwLock, Weak};
use std::time::Instant;

use clash_core::{AnyGame, OddsFn, Seat, SeenEvent, Status, Viewer};
use serde::Serialize;
use serde_json::Value;
use tokio::sync::OnceCell;

use crate::error::TableError;
use crate::log::{Chance, Hash, Reader, TableEvent, hex};
use crate::metrics::Metrics;
use crate::table::access::{Access, SeatInfo};
use crate::table::ledger::{Held, Ledger};
use crate::table::links::Role;
use crate::table::presence::Presence;
use crate::view::frames::Frame;
use crate::work::{self, Pool};

/// What the GM may take back now.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Debug, Clone, Serialize)]
pub struct UndoOffer {
    /// The command that would be taken back, if any may be.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub n: Option<u64>,
    /// "Take back Ada's last command", or why nothing can be taken back.
    pub text: String,
}

/// What never changes about a table.
pub struct Meta {
    pub id: String,
    pub ruleset: &'static str,
    pub title: String,
    /// SHA-256 of the secret, shown to everyone from the start.
    pub commitment: String,
    pub chance: Chance,
    /// Never shown until the table ends.
    pub secret: Vec<u8>,
}

/// The state a snapshot is taken of.
pub struct Taken {
    pub revision: usize,
    /// Game events in the log at this revision.
    pub games: usize,
    pub game: Arc<dyn AnyGame>,
    pub ledger: Arc<RwLock<Ledger>>,
    pub head: Hash,
    pub seeds: BTreeMap<String, String>,
    pub seats: Vec<SeatInfo>,
    pub closed: bool,
    pub revealed: bool,
    /// Odds in play are on.
    pub odds: bool,
    /// The table's name now.
    pub title: String,
    pub archived: bool,
    /// What the GM could take back now.
    pub undo: UndoOffer,
    /// Who has the table open (live: read when a picture is made).
    pub presence: Arc<Presence>,
}

/// A viewer's picture at this revision: kept only while someone holds it (the streams being
/// sent it, an answer being written), so an idle table holds no pictures; computed once for
/// everyone who asks at the same time.
type FrameCell = Arc<OnceCell<Weak<Frame>>>;

pub struct Snapshot {
    pub meta: Arc<Meta>,
    taken: Taken,
    /// Each viewer's picture at this revision (and presence version), computed on first demand.
    frames: Mutex<HashMap<(Access, u64), FrameCell>>,
    /// The picture last sent in an answer, held until the next change: the answering viewer's
    /// own live streams are woken by the same change and send that picture next, so it is not
    /// computed twice.
    answered: Mutex<Option<Arc<Frame>>>,
    /// Whose move it is, the same for every viewer: computed once, when first needed.
    status: OnceLock<Status>,
    /// Each seat's odds at this revision, computed on first demand.
    odds: Mutex<HashMap<Seat, Arc<OnceCell<Option<Value>>>>>,
}

/// One line of the table log as one viewer sees it: a game event (`event`) or a table event
/// (`table`), told in words.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SeenEntry {
    /// Position in the table log; clients resume after the last one they saw.
    pub index: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub event: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub table: Option<TableEvent>,
    pub text: String,
    /// A game event that shows chance or a secret brought into the open.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub reveals: bool,
    /// News for someone away from the table ([`clash_core::Ruleset::news`]): notifications
    /// carry it; pages do not need it.
    #[serde(skip)]
    pub news: bool,
}

/// Verifiable chance, as everyone may see it.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Debug, Clone, Serialize)]
pub struct Fairness {
    /// `clash-chance-v1`, or `legacy` for a table created before verifiable chance.
    pub chance: Chance,
    /// SHA-256 of the server secret (hex).
    pub commitment: String,
    /// The client seeds in force, by contributor.
    pub seeds: BTreeMap<String, String>,
    /// Each contributor's name at the table ("Ada", "the GM").
    pub names: BTreeMap<String, String>,
    /// Who this viewer contributes as (`gm`, `p1`), if it may add a seed.
    pub contributor: Option<String>,
    /// The secret, once the table has ended.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub secret: Option<String>,
}

/// The answer's note about a command.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Debug, Clone, Serialize)]
pub struct Receipt {
    /// The command's number at the table.
    pub n: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// True when this id was applied before: nothing was applied now.
    pub duplicate: bool,
}

/// Log lines further back than this are gathered on the blocking pool.
const INLINE_LINES: usize = 64;

impl Snapshot {
    /// The snapshot of a table not yet filled (replaced at once by its first real one).
    pub fn empty(meta: Arc<Meta>, game: Arc<dyn AnyGame>, ledger: Arc<RwLock<Ledger>>) -> Self {
        let meta_title = meta.title.clone();
        Snapshot::new(
            meta,
            Taken {
                revision: 0,
                games: 0,
                game,
                ledger,
                head: [0; 32],
                seeds: BTreeMap::new(),
                seats: Vec::new(),
                closed: false,
                revealed: false,
                odds: false,
                title: meta_title,
                archived: false,
                undo: UndoOffer {
                    n: None,
                    text: String::new(),
                },
                presence: Arc::default(),
            },
        )
    }

    pub fn new(meta: Arc<Meta>, taken: Taken) -> Self {
        Snapshot {
            meta,
            taken,
            frames: Mutex::new(HashMap::new()),
            answered: Mutex::new(None),
            status: OnceLock::new(),
            odds: Mutex::new(HashMap::new()),
        }
    }

    pub fn revision(&self) -> usize {
        self.taken.revision
    }

    pub fn game(&self) -> &dyn AnyGame {
        self.taken.game.as_ref()
    }

    pub fn closed(&self) -> bool {
        self.taken.closed
    }

    pub fn archived(&self) -> bool {
        self.taken.archived
    }

    pub fn title(&self) -> &str {
        &self.taken.title
    }

    /// Who holds each seat (invites not shown).
    pub fn seats(&self) -> &[SeatInfo] {
        &self.taken.seats
    }

    /// Changes whenever someone opens or closes the table.
    pub fn presence_version(&self) -> u64 {
        self.taken.presence.version()
    }

    pub fn undo_offer(&self) -> &UndoOffer {
        &self.taken.undo
    }

    /// Whose move it is (the rules' status), computed once per snapshot.
    pub fn status(&self) -> &Status {
        self.status.get_or_init(|| self.taken.game.status())
    }

    /// The chain hash of the last log entry (hex).
    pub fn head_hex(&self) -> String {
        hex(&self.taken.head)
    }

    pub fn revealed(&self) -> bool {
        self.taken.revealed
    }

    pub fn odds_on(&self) -> bool {
        self.taken.odds
    }

    /// `seat`'s odds at this revision from its own view, computed once on the blocking pool.
    pub async fn odds(
        self: &Arc<Self>,
        seat: Seat,
        hook: OddsFn,
    ) -> Result<Option<Value>, TableError> {
        let cell = {
            let mut odds = self.odds.lock().unwrap_or_else(|p| p.into_inner());
            odds.entry(seat).or_default().clone()
        };
        cell.get_or_try_init(|| async {
            let snapshot = self.clone();
            work::run(Pool::Read, move || hook(snapshot.game(), seat)).await
        })
        .await
        .cloned()
    }

    /// Who `access` reads the table's talk as: the GM, a seat's player since they claimed it,
    /// or a spectator.
    pub fn talk_reader(&self, access: &Access) -> Reader {
        let seat = match access.role {
            Role::Owner => return Reader::Gm,
            Role::Spectator => return Reader::Spectator,
            Role::Seat(seat) => seat,
        };
        let ledger = self.taken.ledger.read().unwrap_or_else(|p| p.into_inner());
        let items = &ledger.items[..self.taken.revision.min(ledger.items.len())];
        let claimed = |item: &Held| matches!(item, Held::Table(TableEvent::SeatClaimed { seat: s }) if *s == seat);
        Reader::Player {
            seat,
            since: items.iter().rposition(claimed).unwrap_or(0),
        }
    }

    /// The log lines `access` may read from position `after` on (a whisper only for the GM
    /// and the player it is from or to).
    pub fn seen(&self, access: &Access, after: usize) -> Vec<SeenEntry> {
        let t = &self.taken;
        let reader = self.talk_reader(access);
        let ledger = t.ledger.read().unwrap_or_else(|p| p.into_inner());
        let game_pos = &ledger.game_pos[..t.games.min(ledger.game_pos.len())];
        let game_from = game_pos.partition_point(|p| *p < after);
        let mut lines: Vec<SeenEntry> = t
            .game
            .events_for(access.viewer, game_from)
            .into_iter()
            .filter_map(
                |SeenEvent {
                     index,
                     event,
                     text,
                     reveals,
                     news,
                 }| {
                    Some(SeenEntry {
                        index: *game_pos.get(index)?,
                        event: Some(event),
                        table: None,
                        text,
                        reveals,
                        news,
                    })
                },
            )
            .collect();
        let items = &ledger.items[..t.revision.min(ledger.items.len())];
        for (index, item) in items.iter().enumerate().skip(after) {
            if let Held::Table(event) = item
                && event.readable_by(&reader, index)
            {
                lines.push(SeenEntry {
                    index,
                    event: None,
                    table: Some(event.public()),
                    text: event.narrate(&|s| t.game.seat_name(s)),
                    reveals: false,
                    news: false,
                });
            }
        }
        lines.sort_by_key(|l| l.index);
        lines
    }

    /// Whether a table event after log position `after` (up to this revision) is one `is`
    /// looks for: what the notifier asks of every change, without narrating anything.
    pub fn table_event_since(&self, after: usize, is: impl Fn(&TableEvent) -> bool) -> bool {
        let t = &self.taken;
        let ledger = t.ledger.read().unwrap_or_else(|p| p.into_inner());
        let items = &ledger.items[..t.revision.min(ledger.items.len())];
        items
            .iter()
            .skip(after)
            .any(|item| matches!(item, Held::Table(event) if is(event)))
    }

    /// The game events as `viewer` sees them, and the log position of each (for records).
    pub fn game_events(&self, viewer: Viewer) -> (Vec<SeenEvent>, Vec<usize>) {
        let ledger = self.taken.ledger.read().unwrap_or_else(|p| p.into_inner());
        let games = self.taken.games.min(ledger.game_pos.len());
        (
            self.taken.game.events_for(viewer, 0),
            ledger.game_pos[..games].to_vec(),
        )
    }

    /// `access`'s picture at this revision: computed once (here: short work, see
    /// [`crate::work`]), then shared.
    pub async fn frame(
        self: &Arc<Self>,
        access: &Access,
        metrics: &Metrics,
    ) -> Result<Arc<Frame>, TableError> {
        loop {
            let key = (access.clone(), self.taken.presence.version());
            let cell = {
                let mut frames = self.frames.lock().unwrap_or_else(|p| p.into_inner());
                frames.entry(key.clone()).or_default().clone()
            };
            let mut made = None;
            let weak = cell
                .get_or_try_init(|| async {
                    let frame = self.compute(access, metrics)?;
                    let weak = Arc::downgrade(&frame);
                    made = Some(frame);
                    Ok::<_, TableError>(weak)
                })
                .await?;
            if let Some(frame) = made.or_else(|| weak.upgrade()) {
                return Ok(frame);
            }
            // Computed before and let go since: forget it and compute it again.
            let mut frames = self.frames.lock().unwrap_or_else(|p| p.into_inner());
            if frames.get(&key).is_some_and(|c| Arc::ptr_eq(c, &cell)) {
                frames.remove(&key);
            }
        }
    }

    fn compute(&self, access: &Access, metrics: &Metrics) -> Result<Arc<Frame>, TableError> {
        let (frame, took) = work::inline(|| {
            let started = Instant::now();
            // serde_json writes UTF-8 only.
            let picture = String::from_utf8(self.picture(access)).unwrap_or_default();
            let frame = Arc::new(Frame::from_text(self.revision(), picture));
            (frame, started.elapsed())
        })?;
        metrics.updates_computed.inc();
        metrics.update_seconds.observe(took.as_secs_f64());
        Ok(frame)
    }

    /// The log lines from `after`, gathered on the blocking pool when there are many.
    pub async fn lines(self: &Arc<Self>, access: &Access, after: usize) -> Vec<SeenEntry> {
        if self.revision().saturating_sub(after) <= INLINE_LINES {
            return self.seen(access, after);
        }
        let snapshot = self.clone();
        let access = access.clone();
        work::run(Pool::Read, move || snapshot.seen(&access, after))
            .await
            .unwrap_or_default()
    }

    /// `access`'s whole update as JSON: its picture, the log lines from `after`, and the receipt
    /// of a command if this answers one.
    pub async fn update_text(
        self: &Arc<Self>,
        access: &Access,
        after: usize,
        receipt: Option<&Receipt>,
        metrics: &Metrics,
    ) -> Result<String, TableError> {
        let frame = self.frame(access, metrics).await?;
        let events = self.lines(access, after).await;
        let text = assemble(frame.text(), &events, receipt);
        *self.answered.lock().unwrap_or_else(|p| p.into_inner()) = Some(frame);
        Ok(text)
    }
}

/// An update's JSON: the picture's members with `events` (and `command`) added.
pub fn assemble(picture: &str, events: &[SeenEntry], receipt: Option<&Receipt>) -> String {
    let events = serde_json::to_string(events).unwrap_or_else(|_| "[]".into());
    let mut out = String::with_capacity(picture.len() + events.len() + 64);
    out.push_str("{\"events\":");
    out.push_str(&events);
    if let Some(r) = receipt {
        out.push_str(",\"command\":");
        out.push_str(&serde_json::to_string(r).unwrap_or_else(|_| "null".into()));
    }
    match picture.strip_prefix('{') {
        Some(rest) if rest != "}" => {
            out.push(',');
            out.push_str(rest);
        }
        _ => out.push('}'),
    }
    out
}

/// A live push that carries only what changed since the picture at `base`: a JSON Patch of the
/// picture, and the new log lines.
pub fn patch_text(base: usize, revision: usize, patch: &str, events: &[SeenEntry]) -> String {
    let events = serde_json::to_string(events).unwrap_or_else(|_| "[]".into());
    format!("{{\"base\":{base},\"event_count\":{revision},\"patch\":{patch},\"events\":{events}}}")
}

mod picture;
#[cfg(test)]
mod tests;
