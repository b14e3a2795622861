//! The TypeScript declarations of what the pages read and send (the bodies they send are in
//! [`super::requests`]), generated from the Rust types with ts-rs into `src/assets/types/`, where `tsc --checkJs` (scripts/test.sh) checks every
//! page script and game board against them. The declarations are committed; the server tests' `types`
//! fails when they differ from what the Rust types generate, so a field renamed in Rust fails
//! the build instead of a page. To write them anew: `CLASH_WRITE_TYPES=1 cargo test -p
//! clash-server-tests types::`.
//!
//! The update a page receives is put together field by field in `view/snapshot.rs`, so it is
//! described here as [`Update`]; the server tests' `page_types` check that every real update has exactly
//! its fields.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use clash_core::{Ruleset, Seat, Viewer};
use serde_json::Value;
use ts_rs::{Config, TS};

use crate::rules::RulesLinks;
use crate::table::access::SeatInfo;
use crate::view::room::RoomView;
use crate::view::snapshot::{Fairness, Receipt, SeenEntry};

/// A legal command with its label, for the plain list of moves and the GM's JSON drawer.
#[derive(TS)]
#[allow(dead_code)] // a description for TypeScript only
struct Legal<C> {
    label: String,
    command: C,
}

/// What a page receives for its link: the whole picture (`GET …/view`, the page's start-up
/// data, each stream message after its patch is applied). `V` is the game's view and `C` its
/// command (each game's own types under `types/{ruleset}/`).
#[derive(TS)]
#[allow(dead_code)]
struct Update<V, C> {
    table: String,
    ruleset: String,
    title: String,
    viewer: Viewer,
    seat: Option<Seat>,
    event_count: u64,
    head: String,
    view: V,
    render: String,
    legal: Vec<Legal<C>>,
    seats: Vec<SeatInfo>,
    fairness: Fairness,
    closed: bool,
    /// Why this seat's page may not act for now (its seat was taken over).
    #[ts(optional)]
    notice: Option<String>,
    room: RoomView,
    /// The log lines this message adds.
    events: Vec<SeenEntry>,
    /// In the answer to a command: its receipt.
    #[ts(optional)]
    command: Option<Receipt>,
}

/// The table page's start-up data (`<script type="application/json" id="boot">`), with the
/// first update.
#[derive(TS)]
#[allow(dead_code)]
struct Boot<V, C> {
    table: String,
    key: String,
    #[ts(rename = "as")]
    as_seat: Option<Seat>,
    role: String,
    game: String,
    rules: Option<RulesLinks>,
    update: Update<V, C>,
    /// The GM's table summary (seats, links); other links get their own part of it.
    summary: BTreeMap<String, Value>,
    /// Whether odds in play are on, as of `update`: a board draws the GM's switch from its
    /// first draw, and asks for the odds only while they are on.
    odds: bool,
}

/// Where the committed declarations live.
pub fn committed() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src/assets/types")
}

/// A game's view and command, under `types/{ruleset}/` (each type says where).
pub fn game<R: Ruleset>(cfg: &Config)
where
    R::View: TS + 'static,
    R::Command: TS + 'static,
{
    R::View::export_all(cfg).expect("the view exports");
    R::Command::export_all(cfg).expect("the command exports");
}

/// Every declaration the pages use, written under `dir`: the server's own, and each game's
/// (which `games` writes with [`game`], for the games the caller knows).
pub fn generate(dir: &Path, games: impl FnOnce(&Config)) {
    let cfg = Config::new().with_out_dir(dir).with_large_int("number");
    Update::<(), ()>::export_all(&cfg).expect("Update exports");
    Boot::<(), ()>::export_all(&cfg).expect("Boot exports");
    games(&cfg);
    super::requests::export(&cfg);
    notify(&cfg);
    crate::review::ReviewStatus::export_all(&cfg).expect("ReviewStatus exports");
    crate::review::replay::ReplayFrame::export_all(&cfg).expect("ReplayFrame exports");
    workbench(&cfg);
}

/// What the workbench page and the lobby's rule variant read and send.
fn workbench(cfg: &Config) {
    use crate::workbench::dto::{BenchGames, StudyRequest, StudyStatus};
    BenchGames::export_all(cfg).expect("BenchGames exports");
    StudyRequest::export_all(cfg).expect("StudyRequest exports");
    StudyStatus::export_all(cfg).expect("StudyStatus exports");
}

/// What the "Notify me" card, the GM's week card, the times and the lobby read and send.
fn notify(cfg: &Config) {
    use crate::http::notify_dto::{
        ClockView, DeliveryLog, HandleBody, Moves, MovesBody, NewTarget, NotifySettings,
    };
    NotifySettings::export_all(cfg).expect("NotifySettings exports");
    NewTarget::export_all(cfg).expect("NewTarget exports");
    HandleBody::export_all(cfg).expect("HandleBody exports");
    DeliveryLog::export_all(cfg).expect("DeliveryLog exports");
    ClockView::export_all(cfg).expect("ClockView exports");
    MovesBody::export_all(cfg).expect("MovesBody exports");
    Moves::export_all(cfg).expect("Moves exports");
}

/// The files under `dir`, by their path inside it.
pub fn files(dir: &Path) -> BTreeMap<PathBuf, String> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "ts") {
                let text = std::fs::read_to_string(&path).unwrap_or_default();
                out.insert(path.strip_prefix(dir).unwrap().to_path_buf(), text);
            }
        }
    }
    out
}
