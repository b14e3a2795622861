//! The designer's workbench on the server: studies of a game's rule variants (the analysis
//! crate's [`clash_analysis::workbench::study`], reached through each catalogue entry's
//! workbench, so the server names no game), played off the play path and kept for sharing.
//!
//! * A study is asked for with `POST /api/workbench/studies` ([`dto::StudyRequest`]). Its work is
//!   bounded ([`LIMITS`]): a few variants, a bounded number of games, one thread. It is queued
//!   on its own allowance of the rules' work pool ([`crate::work::Pool::Study`], one study at
//!   a time), so studies never take the cores from people's tables; a full queue refuses with
//!   503 (`busy`).
//! * A study's id is a digest of what it asked for. Its games draw their chance from its seed
//!   alone, so the same request gives the same figures on any server: a shared link carries the
//!   request, and whoever opens it runs (or finds) the same study.
//! * Finished studies are kept in memory, the most recent [`KEPT`], with their SVG plots.

pub mod dto;
pub mod report;

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use clash_analysis::workbench::{Request, plots, study};
use clash_core::RulesetEntry;
use clash_core::variant::{ParamKind, Variant, parse_changes};
use clash_core::workbench::Workbench;
use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::error::{ApiError, TableError};
use crate::http::routes;
use dto::{
    BenchGame, BenchGames, BenchLimits, BenchParam, BenchSuggested, BenchTableInfo, StudyRequest,
    StudyState, StudyStatus,
};

/// What one study may ask for at most.
pub const LIMITS: BenchLimits = BenchLimits {
    variants: 3,
    games: 1000,
    strong: 30,
    mixed: 30,
    exact: 3,
};

/// Finished studies kept for their links.
pub const KEPT: usize = 32;
/// Studies waiting for their turn before new ones are refused.
pub const QUEUED: usize = 8;
/// A strong bot's work per command in a server's study (one thread, bounded time).
const WORK: u32 = 8;

/// A study's progress and, once done, its result.
struct StudyJob {
    id: String,
    link: String,
    total: u64,
    done: AtomicU64,
    state: Mutex<Outcome>,
}

enum Outcome {
    Queued,
    Running,
    Done {
        report: Box<dto::StudyReport>,
        svgs: Vec<String>,
    },
    Failed(String),
}

/// The studies kept, by id, and their ids oldest first (the oldest is forgotten first).
type Kept = (HashMap<String, Arc<StudyJob>>, VecDeque<String>);

/// The studies of this server.
pub struct Studies {
    games: Vec<RulesetEntry>,
    jobs: Mutex<Kept>,
}

impl Studies {
    /// The studies of the games in `catalogue` that have a workbench.
    pub fn new(catalogue: &[RulesetEntry]) -> Studies {
        Studies {
            games: catalogue
                .iter()
                .filter(|e| e.workbench.is_some())
                .copied()
                .collect(),
            jobs: Mutex::new((HashMap::new(), VecDeque::new())),
        }
    }

    /// Every game with a workbench, as the page and `GET /api/workbench` show them.
    pub fn games(&self) -> BenchGames {
        BenchGames {
            games: self.games.iter().filter_map(game_info).collect(),
            limits: LIMITS,
        }
    }

    fn bench(&self, id: &str) -> Result<(RulesetEntry, Workbench), ApiError> {
        self.games
            .iter()
            .find(|e| e.id == id)
            .and_then(|e| Some((*e, e.workbench?)))
            .ok_or_else(|| ApiError::malformed(format!("no game called {id:?} has a workbench")))
    }

    /// Start (or find) the study `asked` describes.
    pub fn submit(self: &Arc<Self>, asked: &StudyRequest) -> Result<StudyStatus, ApiError> {
        let (entry, bench) = self.bench(&asked.game)?;
        let request = request(asked, &bench)?;
        let id = digest(&entry, &request);
        let mut jobs = self.jobs.lock().map_err(|_| busy())?;
        if let Some(job) = jobs.0.get(&id) {
            return Ok(status(job));
        }
        let waiting = jobs
            .0
            .values()
            .filter(|j| {
                matches!(
                    *j.state.lock().unwrap_or_else(|e| e.into_inner()),
                    Outcome::Queued
                )
            })
            .count();
        if waiting >= QUEUED {
            return Err(busy());
        }
        let job = Arc::new(StudyJob {
            link: link(&entry, &bench, &request),
            total: request.total(bench.exact.is_some()),
            id: id.clone(),
            done: AtomicU64::new(0),
            state: Mutex::new(Outcome::Queued),
        });
        jobs.0.insert(id.clone(), job.clone());
        jobs.1.push_back(id);
        forget_old(&mut jobs);
        drop(jobs);
        tokio::spawn(run(entry, bench, request, job.clone()));
        Ok(status(&job))
    }

    /// A study's status, if this server keeps it.
    pub fn status(&self, id: &str) -> Option<StudyStatus> {
        let jobs = self.jobs.lock().ok()?;
        jobs.0.get(id).map(|j| status(j))
    }

    /// Plot `n` of a finished study, as SVG.
    pub fn plot(&self, id: &str, n: usize) -> Option<String> {
        let jobs = self.jobs.lock().ok()?;
        let job = jobs.0.get(id)?;
        match &*job.state.lock().ok()? {
            Outcome::Done { svgs, .. } => svgs.get(n).cloned(),
            _ => None,
        }
    }
}

fn busy() -> ApiError {
    ApiError::Busy("the workbench is busy with other studies; try again in a minute".into())
}

/// Keep at most [`KEPT`] studies, dropping the oldest finished first.
fn forget_old(jobs: &mut (HashMap<String, Arc<StudyJob>>, VecDeque<String>)) {
    while jobs.1.len() > KEPT {
        let finished = jobs.1.iter().position(|id| {
            jobs.0.get(id).is_none_or(|j| {
                matches!(
                    *j.state.lock().unwrap_or_else(|e| e.into_inner()),
                    Outcome::Done { .. } | Outcome::Failed(_)
                )
            })
        });
        let Some(i) = finished else { break };
        if let Some(id) = jobs.1.remove(i) {
            jobs.0.remove(&id);
        }
    }
}

fn status(job: &StudyJob) -> StudyStatus {
    let outcome = job.state.lock().unwrap_or_else(|e| e.into_inner());
    let (state, error, report) = match &*outcome {
        Outcome::Queued => (StudyState::Queued, None, None),
        Outcome::Running => (StudyState::Running, None, None),
        Outcome::Done { report, .. } => (StudyState::Done, None, Some((**report).clone())),
        Outcome::Failed(e) => (StudyState::Failed, Some(e.clone()), None),
    };
    StudyStatus {
        id: job.id.clone(),
        state,
        done: job.done.load(Ordering::Relaxed).min(job.total),
        total: job.total,
        link: job.link.clone(),
        error,
        report,
    }
}

async fn run(entry: RulesetEntry, bench: Workbench, request: Request, job: Arc<StudyJob>) {
    let worker = job.clone();
    let done = crate::work::run(crate::work::Pool::Study, move || {
        set(&worker, Outcome::Running);
        let stop = AtomicBool::new(false);
        let counted = &worker.done;
        let study = study(
            entry.name,
            &bench,
            &request,
            &|| {
                counted.fetch_add(1, Ordering::Relaxed);
            },
            &stop,
        )
        .map_err(|e| TableError::rule(e).to_string())?;
        let drawn = plots::plots(&study)?;
        let titles: Vec<String> = drawn.iter().map(|p| p.title.clone()).collect();
        let report = report::report(&worker.id, &study, &bench.params, &titles);
        Ok::<_, String>(Outcome::Done {
            report: Box::new(report),
            svgs: drawn.into_iter().map(|p| p.svg).collect(),
        })
    })
    .await;
    let outcome = match done {
        Ok(Ok(outcome)) => outcome,
        Ok(Err(e)) => Outcome::Failed(e),
        Err(e) => Outcome::Failed(e.to_string()),
    };
    set(&job, outcome);
}

fn set(job: &StudyJob, outcome: Outcome) {
    if let Ok(mut state) = job.state.lock() {
        *state = outcome;
    }
}

/// The analysis crate's request for `asked`, within [`LIMITS`], or why not.
fn request(asked: &StudyRequest, bench: &Workbench) -> Result<Request, ApiError> {
    let table = match &asked.table {
        None => 0,
        Some(key) => bench
            .tables
            .iter()
            .position(|t| t.key == key)
            .ok_or_else(|| ApiError::malformed(format!("this game has no table {key:?}")))?,
    };
    if asked.variants.len() as u64 > LIMITS.variants {
        return Err(ApiError::malformed(format!(
            "a study sets at most {} variants beside the rules as written",
            LIMITS.variants
        )));
    }
    let variants = asked
        .variants
        .iter()
        .enumerate()
        .map(|(i, v)| variant(bench, &v.name, &v.changes, i + 1))
        .collect::<Result<Vec<_>, _>>()?;
    let bounded = |n: Option<u64>, default: u64, max: u64, what: &str| match n {
        Some(n) if n > max => Err(ApiError::malformed(format!(
            "a study plays at most {max} games a variant {what}"
        ))),
        Some(n) => Ok(n),
        None => Ok(default),
    };
    let exact = asked.exact.unwrap_or(0).min(LIMITS.exact) as usize;
    Ok(Request {
        table,
        variants,
        casual: bounded(asked.games, 300, LIMITS.games, "with casual bots")?,
        strong: bounded(asked.strong, 10, LIMITS.strong, "with strong bots")?,
        mixed: bounded(asked.mixed, 10, LIMITS.mixed, "with one strong bot")?,
        seed: asked.seed.unwrap_or(1),
        work: WORK,
        threads: Some(1),
        exact: if bench.exact.is_some() { exact } else { 0 },
    })
}

/// A variant as a person typed it, checked against the game's numbers.
pub fn variant(
    bench: &Workbench,
    name: &str,
    changes: &str,
    n: usize,
) -> Result<Variant, ApiError> {
    let name = name.trim();
    let name = if name.is_empty() {
        format!("variant {n}")
    } else {
        name.to_string()
    };
    let changes = parse_changes(changes).map_err(|e| ApiError::malformed(e.to_string()))?;
    let v = Variant::new(name, changes);
    bench
        .params
        .resolve(Some(&v))
        .map_err(|e| ApiError::from(TableError::rule(e)))?;
    Ok(v)
}

/// `setup` of `entry`'s game with a variant a person typed (the lobby's ready-made form), or
/// the refusal naming the rule a number breaks.
pub fn with_variant(
    entry: &RulesetEntry,
    setup: &Value,
    name: &str,
    changes: &str,
) -> Result<Value, ApiError> {
    let bench = entry.workbench.ok_or_else(|| {
        ApiError::malformed(format!("{} has no rule numbers to change", entry.name))
    })?;
    let v = variant(&bench, name, changes, 1)?;
    clash_core::workbench::with_variant(setup, &v)
        .ok_or_else(|| ApiError::malformed("this setup cannot carry a variant"))
}

fn digest(entry: &RulesetEntry, r: &Request) -> String {
    let canonical = serde_json::json!({
        "game": entry.id, "table": r.table, "variants": r.variants, "games": [r.casual, r.strong, r.mixed],
        "seed": r.seed, "work": r.work, "exact": r.exact,
    });
    let hash = Sha256::digest(canonical.to_string().as_bytes());
    hash.iter().take(12).map(|b| format!("{b:02x}")).collect()
}

/// The workbench page that runs this request again: what a person shares.
fn link(entry: &RulesetEntry, bench: &Workbench, r: &Request) -> String {
    let mut q = vec![
        ("game", entry.id.to_string()),
        ("table", bench.tables[r.table].key.to_string()),
    ];
    for v in &r.variants {
        let typed = clash_core::variant::show_changes(&bench.params, &v.changes);
        q.push(("v", format!("{}={typed}", v.name)));
    }
    q.extend([
        ("games", r.casual.to_string()),
        ("strong", r.strong.to_string()),
        ("mixed", r.mixed.to_string()),
        ("seed", r.seed.to_string()),
        ("exact", r.exact.to_string()),
    ]);
    q.into_iter()
        .fold(routes::WORKBENCH_PAGE.at([]), |href, (k, v)| {
            href.query(k, v)
        })
        .into_uri()
}

fn game_info(e: &RulesetEntry) -> Option<BenchGame> {
    let bench = e.workbench?;
    Some(BenchGame {
        id: e.id.into(),
        name: e.name.into(),
        params: bench
            .params
            .specs
            .iter()
            .map(|p| {
                let (choices, min, max) = match p.kind {
                    ParamKind::Number { min, max } => (Vec::new(), min, max),
                    ParamKind::Switch => (vec!["on".into(), "off".into()], 0, 1),
                    ParamKind::Die { sides } => (sides.iter().map(|s| p.show(*s)).collect(), 0, 0),
                };
                BenchParam {
                    key: p.key.into(),
                    name: p.name.into(),
                    rule: p.rule.into(),
                    help: p.help.into(),
                    default: p.show(p.default),
                    bounds: p.bounds(),
                    choices,
                    min,
                    max,
                }
            })
            .collect(),
        tables: bench
            .tables
            .iter()
            .map(|t| BenchTableInfo {
                key: t.key.into(),
                about: t.about.into(),
            })
            .collect(),
        suggested: bench
            .suggested
            .iter()
            .map(|s| BenchSuggested {
                name: s.name.into(),
                changes: s.changes.into(),
                why: s.why.into(),
            })
            .collect(),
        exact: bench.exact.is_some(),
    })
}
