//! What the workbench routes read and answer, and what its page reads: plain, already worded
//! data (a page shows figures as the server words them, never raw numbers or JSON).

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// `POST /api/workbench/studies`: one game's variants to play side by side.
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(deny_unknown_fields)]
pub struct StudyRequest {
    /// A ruleset with a workbench (`GET /api/workbench`).
    pub game: String,
    /// One of the game's tables (default: its first).
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub table: Option<String>,
    /// The variants to set beside the rules as written: a name and changes as people type
    /// them (`wipe_out=4, reserve=2`).
    pub variants: Vec<VariantRequest>,
    /// Games per variant with casual bots, strong bots, and one strong bot among casual ones
    /// (bounded by the server).
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(optional))]
    #[schema(schema_with = whole_number)]
    pub games: Option<u64>,
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(optional))]
    #[schema(schema_with = whole_number)]
    pub strong: Option<u64>,
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(optional))]
    #[schema(schema_with = whole_number)]
    pub mixed: Option<u64>,
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(optional))]
    #[schema(schema_with = whole_number)]
    pub seed: Option<u64>,
    /// The exact balance table's size a side, where the game has one (0: none).
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(optional))]
    #[schema(schema_with = whole_number)]
    pub exact: Option<u64>,
}

/// A whole number the server reads as a `u64` (left out or null: its default).
fn whole_number() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
    crate::http::schemas::count(
        "A whole number (left out or null: the server's default)",
        true,
    )
}

/// One variant of a request.
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(deny_unknown_fields)]
pub struct VariantRequest {
    pub name: String,
    /// `key=value` pairs separated by commas.
    pub changes: String,
}

/// Where a study stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum StudyState {
    Queued,
    Running,
    Done,
    Failed,
}

/// `GET /api/workbench/studies/{id}`: a study's progress, and its report once done.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct StudyStatus {
    pub id: String,
    pub state: StudyState,
    /// Games played so far, of `total`.
    pub done: u64,
    pub total: u64,
    /// This study's page, to share.
    pub link: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub error: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub report: Option<StudyReport>,
}

/// A finished study, worded for a page.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct StudyReport {
    /// The game's name.
    pub game: String,
    pub table: String,
    pub unit: String,
    pub seed: u64,
    /// "1000 games with casual bots, 20 with strong bots …, 7.1 s".
    pub summary: String,
    pub variants: Vec<VariantReport>,
    pub findings: Vec<FindingReport>,
    /// One table per mix of bots: a row per metric, a cell per variant.
    pub runs: Vec<RunReport>,
    pub exact: Vec<ExactReport>,
    pub plots: Vec<PlotRef>,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct VariantReport {
    pub name: String,
    /// Each change in words, with its rule and the rules' own value.
    pub changes: Vec<String>,
    /// The changes as typed (`wipe_out=4`), for a table opened with this variant.
    pub typed: String,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct FindingReport {
    /// "The rules", "The bots" or the variant it is about.
    pub about: String,
    pub text: String,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct RunReport {
    /// "casual bots", …
    pub bots: String,
    pub rows: Vec<RowReport>,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct RowReport {
    pub label: String,
    pub cells: Vec<CellReport>,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct CellReport {
    pub text: String,
    /// Its interval and the rules' as written do not overlap (or an option never chosen).
    pub flagged: bool,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ExactReport {
    pub variant: String,
    pub title: String,
    pub rows_are: String,
    pub cols_are: String,
    pub cols: Vec<String>,
    pub rows: Vec<ExactRow>,
    pub note: String,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ExactRow {
    pub label: String,
    pub cells: Vec<String>,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct PlotRef {
    pub title: String,
    /// The SVG, as a path on this server.
    pub url: String,
}

/// `GET /api/workbench`: every game with a workbench.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct BenchGames {
    pub games: Vec<BenchGame>,
    pub limits: BenchLimits,
}

/// What a request may ask for at most.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct BenchLimits {
    pub variants: u64,
    pub games: u64,
    pub strong: u64,
    pub mixed: u64,
    pub exact: u64,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct BenchGame {
    pub id: String,
    pub name: String,
    pub params: Vec<BenchParam>,
    pub tables: Vec<BenchTableInfo>,
    pub suggested: Vec<BenchSuggested>,
    /// It has an exact balance table.
    pub exact: bool,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct BenchParam {
    pub key: String,
    pub name: String,
    pub rule: String,
    pub help: String,
    /// The rules' value, as typed in a change (`3`, `on`, `d6`).
    pub default: String,
    /// "0 to 10", "on or off", "d4, d6 or d8".
    pub bounds: String,
    /// The values it may take, as typed, for a choice; empty for a number (see `min`, `max`).
    pub choices: Vec<String>,
    pub min: i64,
    pub max: i64,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct BenchTableInfo {
    pub key: String,
    pub about: String,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct BenchSuggested {
    pub name: String,
    pub changes: String,
    pub why: String,
}
