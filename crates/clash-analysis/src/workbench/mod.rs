//! The designer's workbench, knowing no game: variants of one game's rules played side by side
//! by its bots, measured ([`metrics`]), compared where the intervals separate ([`compare`]),
//! told in sentences ([`findings`]) and drawn ([`plots`]).
//!
//! A game offers its workbench through the catalogue ([`clash_core::workbench::Workbench`]):
//! its parameters, its tables, and the hook that plays a trial, built on [`run`]. [`study`]
//! runs every variant (the rules as written first) with casual bots, strong bots and one strong
//! bot among casual ones, and, where the game has one, its exact balance table.

pub mod compare;
pub mod findings;
pub mod metrics;
pub mod plots;
pub mod run;

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use clash_core::RuleError;
use clash_core::variant::Variant;
use clash_core::workbench::{BenchTable, ExactRequest, ExactTable, Mix, Trial, Workbench};
use serde::Serialize;

pub use compare::Difference;
pub use findings::Finding;
pub use metrics::Metrics;

/// The name the rules as written go by in a study.
pub const AS_WRITTEN: &str = "as written";

/// What to study.
#[derive(Debug, Clone, PartialEq)]
pub struct Request {
    /// Index into the game's tables.
    pub table: usize,
    /// The variants to set beside the rules as written (which always come first).
    pub variants: Vec<Variant>,
    /// Games per variant with casual bots, with strong bots, and with one strong seat.
    pub casual: u64,
    pub strong: u64,
    pub mixed: u64,
    pub seed: u64,
    /// A strong bot's work per command.
    pub work: u32,
    pub threads: Option<usize>,
    /// The exact table's size a side (0: none).
    pub exact: usize,
}

impl Request {
    /// Games in all, for a progress bar (an exact table's cells count as games).
    pub fn total(&self, exact: bool) -> u64 {
        let per = self.casual + self.strong + self.mixed;
        let cells = if exact {
            (self.exact * self.exact) as u64
        } else {
            0
        };
        (self.variants.len() as u64 + 1) * (per + cells)
    }

    fn runs(&self) -> [(Mix, u64); 3] {
        [
            (Mix::Casual, self.casual),
            (Mix::Strong, self.strong),
            (Mix::Mixed, self.mixed),
        ]
    }
}

/// One variant's results.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct VariantStudy {
    pub variant: Variant,
    /// Its changes in words, each with its rule and the rules' own value.
    pub changes: Vec<String>,
    /// One per mix of bots played, in the order casual, strong, mixed.
    pub runs: Vec<Metrics>,
    pub exact: Option<ExactTable>,
}

/// A whole study.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Study {
    pub game: String,
    pub table: BenchTable,
    pub seed: u64,
    pub work: u32,
    pub variants: Vec<VariantStudy>,
    /// Where a variant's interval separates from the rules as written.
    pub differences: Vec<Difference>,
    /// What stands out, in sentences.
    pub findings: Vec<Finding>,
    /// Ctrl-C (or a caller) stopped it early: the figures rest on the games done.
    pub stopped: bool,
    pub seconds: f64,
}

/// Study `request` of the game whose workbench is `bench` (called `game` for people):
/// `progress` is called once per game played (and per exact cell); once `stop` is set no new
/// game starts, and what is done is measured. A variant breaking a bound is refused before
/// anything is played, naming the rule.
pub fn study(
    game: &str,
    bench: &Workbench,
    request: &Request,
    progress: &(dyn Fn() + Sync),
    stop: &AtomicBool,
) -> Result<Study, RuleError> {
    let started = Instant::now();
    let table = *bench.tables.get(request.table).ok_or_else(|| {
        RuleError::setup(bench.params.rule, "this game has no such workbench table")
    })?;
    let mut variants = vec![Variant::new(AS_WRITTEN, Default::default())];
    variants.extend(request.variants.iter().cloned());
    for v in &variants {
        bench.params.resolve(Some(v))?;
    }
    let mut out = Vec::new();
    for variant in variants {
        out.push(one_variant(
            bench, &table, request, variant, progress, stop,
        )?);
    }
    let differences = compare::differences(&out);
    let findings = findings::findings(&table, &out, &differences);
    Ok(Study {
        game: game.to_string(),
        table,
        seed: request.seed,
        work: request.work,
        variants: out,
        differences,
        findings,
        stopped: stop.load(Ordering::Relaxed),
        seconds: started.elapsed().as_secs_f64(),
    })
}

fn one_variant(
    bench: &Workbench,
    table: &BenchTable,
    request: &Request,
    variant: Variant,
    progress: &(dyn Fn() + Sync),
    stop: &AtomicBool,
) -> Result<VariantStudy, RuleError> {
    let given = (!variant.changes.is_empty()).then_some(&variant);
    let mut runs = Vec::new();
    for (mix, games) in request.runs() {
        if games == 0 {
            continue;
        }
        let trial = Trial {
            table: request.table,
            variant: given.cloned(),
            mix,
            games,
            seed: request.seed,
            work: request.work,
            threads: request.threads,
        };
        let seen = (bench.play)(&trial, progress, stop)?;
        runs.push(metrics::measure(&seen, mix, table.seats));
    }
    let exact = match (bench.exact, request.exact) {
        (Some(solve), size) if size > 0 && !stop.load(Ordering::Relaxed) => {
            let ask = ExactRequest {
                size,
                threads: request.threads,
            };
            Some(solve(given, &ask, progress, stop)?)
        }
        _ => None,
    };
    Ok(VariantStudy {
        changes: bench.params.describe(&variant),
        variant,
        runs,
        exact,
    })
}
