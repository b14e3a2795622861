//! `clash workbench GAME --variant NAME=key=value,… …`: variants of a game's rules played side
//! by side by its bots, with every metric's 95% interval, the differences that separate,
//! findings in words and SVG plots. The game's pieces come through its catalogue entry's
//! workbench; this module knows no game.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use clap::Args;
use clash_analysis::workbench::{self, Request, Study, compare, plots};
use clash_core::RulesetEntry;
use clash_core::variant::{Variant, parse_changes};
use clash_core::workbench::Workbench;

use crate::output::{Outcome, Stop, json, say};

const HELP: &str = "\
Every game is played with casual bots (--games), strong bots (--strong) and one strong bot among
casual ones (--mixed), for the rules as written and then each variant, all from the same seed.
Each figure carries its 95% interval (Wilson for shares, normal for means) and the number of
games; a variant's figure is flagged only where its interval and the rules' do not overlap.

A variant is NAME=key=value,… (`--variant \"short fuse=wipe_out=4\"`), or the name of one the
game suggests (`--variant \"short fuse\"`). `clash workbench GAME --list` shows the numbers a
variant may change, each with the rule it comes from, its value in the rules and its bounds.

The progress bar goes to stderr. Ctrl-C stops starting new games and reports on those done.";

#[derive(Args)]
#[command(after_long_help = HELP)]
pub struct WorkbenchArgs {
    /// The game (a ruleset with a workbench: `clash workbench --list-games`).
    game: Option<String>,
    /// A variant: NAME=key=value,… or a suggested variant's name. May be given several times.
    #[arg(long = "variant", value_name = "NAME=key=value,…")]
    variants: Vec<String>,
    /// Which of the game's tables to play (default: its first).
    #[arg(long)]
    table: Option<String>,
    /// Games per variant with casual bots.
    #[arg(long, default_value_t = 1000)]
    games: u64,
    /// Games per variant with strong bots.
    #[arg(long, default_value_t = 40)]
    strong: u64,
    /// Games per variant with one strong bot among casual ones.
    #[arg(long, default_value_t = 40)]
    mixed: u64,
    /// Seed: the same seed gives the same games, whatever the threads.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// A strong bot's work per command (playouts, deals or move games).
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    work: u32,
    /// Worker threads (default: all cores).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..))]
    threads: Option<u16>,
    /// Also solve the game's exact balance table, this many entries a side, where it has one.
    #[arg(long, default_value_t = 0)]
    exact: usize,
    /// Write an SVG plot of each metric to this folder.
    #[arg(long)]
    plots: Option<PathBuf>,
    /// Print the study as JSON.
    #[arg(long)]
    json: bool,
    /// List the game's parameters, tables and suggested variants, and play nothing.
    #[arg(long)]
    list: bool,
    /// List the games that have a workbench.
    #[arg(long)]
    list_games: bool,
}

/// Run `clash workbench`.
pub fn workbench(args: &WorkbenchArgs, catalogue: &[RulesetEntry]) -> Outcome {
    if args.list_games || args.game.is_none() {
        for e in catalogue.iter().filter(|e| e.workbench.is_some()) {
            say!("{:<16} {}", e.id, e.name);
        }
        return Ok(());
    }
    let id = args.game.as_deref().unwrap_or_default();
    let entry = catalogue
        .iter()
        .find(|e| e.id == id)
        .ok_or_else(|| format!("no game called {id:?}: see `clash workbench --list-games`"))?;
    let bench = entry
        .workbench
        .ok_or_else(|| format!("{} has no workbench", entry.name))?;
    if args.list {
        return list(entry, &bench);
    }
    let request = request(args, &bench)?;
    let stop = Arc::new(AtomicBool::new(false));
    let flag = stop.clone();
    // A second Ctrl-C while the first is handled ends the program as usual.
    let _ = ctrlc::set_handler(move || {
        if flag.swap(true, Ordering::SeqCst) {
            std::process::exit(130);
        }
    });
    let bar = clash_analysis::cli::progress(
        request.total(bench.exact.is_some()),
        "{bar:40} {pos}/{len} games  {elapsed_precise} (eta {eta})",
    );
    let study = workbench::study(entry.name, &bench, &request, &|| bar.inc(1), &stop);
    bar.finish_and_clear();
    let study = study.map_err(|e| Stop::Failed(e.to_string()))?;
    if let Some(dir) = &args.plots {
        write_plots(dir, &study)?;
    }
    if args.json {
        return json(&study);
    }
    print(&study, args.plots.as_ref())
}

fn request(args: &WorkbenchArgs, bench: &Workbench) -> Result<Request, String> {
    let table = match &args.table {
        None => 0,
        Some(key) => bench
            .tables
            .iter()
            .position(|t| t.key == key)
            .ok_or_else(|| {
                let keys: Vec<&str> = bench.tables.iter().map(|t| t.key).collect();
                format!(
                    "no table called {key:?}: the tables are {}",
                    keys.join(", ")
                )
            })?,
    };
    let variants = args
        .variants
        .iter()
        .map(|v| variant(v, bench))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Request {
        table,
        variants,
        casual: args.games,
        strong: args.strong,
        mixed: args.mixed,
        seed: args.seed,
        work: args.work,
        threads: args.threads.map(usize::from),
        exact: args.exact,
    })
}

/// `NAME=key=value,…`, or a suggested variant's name.
fn variant(text: &str, bench: &Workbench) -> Result<Variant, String> {
    let (name, changes) = match text.split_once('=') {
        Some((name, changes)) => (name.trim(), changes.to_string()),
        None => {
            let s = bench
                .suggested
                .iter()
                .find(|s| s.name.eq_ignore_ascii_case(text.trim()))
                .ok_or_else(|| {
                    format!("{text:?} is neither NAME=key=value,… nor a suggested variant")
                })?;
            (s.name, s.changes.to_string())
        }
    };
    let changes = parse_changes(&changes).map_err(|e| e.to_string())?;
    let v = Variant::new(name, changes);
    bench.params.resolve(Some(&v)).map_err(|e| e.to_string())?;
    Ok(v)
}

fn list(entry: &RulesetEntry, bench: &Workbench) -> Outcome {
    say!("{}: the numbers a variant may change", entry.name);
    for p in bench.params.specs {
        say!(
            "  {:<18} {:<7} default {:<5} {:<16} {}",
            p.key,
            p.rule,
            p.show(p.default),
            p.bounds(),
            p.name
        );
        say!("  {:<18} {}", "", p.help);
    }
    say!();
    say!("Tables (--table):");
    for t in bench.tables {
        say!("  {:<12} {}", t.key, t.about);
    }
    say!();
    say!("Suggested variants (--variant NAME):");
    for s in bench.suggested {
        say!("  {:<16} {:<24} {}", s.name, s.changes, s.why);
    }
    Ok(())
}

fn write_plots(dir: &PathBuf, study: &Study) -> Outcome {
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    for p in plots::plots(study)? {
        let path = dir.join(format!("{}.svg", p.name));
        std::fs::write(&path, &p.svg)
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    Ok(())
}

fn print(study: &Study, plots: Option<&PathBuf>) -> Outcome {
    say!(
        "{} workbench: {} (seed {}, strong bots' work {}, {:.1} s)",
        study.game,
        study.table.key,
        study.seed,
        study.work,
        study.seconds
    );
    say!("  {}", study.table.about);
    if study.stopped {
        say!("  Stopped early: the figures rest on the games finished.");
    }
    say!();
    say!("Findings:");
    for v in &study.variants {
        say!("  {}:", v.variant.name);
        for f in study
            .findings
            .iter()
            .filter(|f| f.variant == v.variant.name)
        {
            say!("    * {}", f.text);
        }
    }
    for v in &study.variants {
        say!();
        if v.changes.is_empty() {
            say!("{}", v.variant.name);
        } else {
            say!("{}: {}", v.variant.name, v.changes.join("; "));
        }
        for m in &v.runs {
            say!("  with {} ({} games):", m.mix.words(), m.games);
            for f in compare::figures(m) {
                say!("    {:<44} {}", f.label, f.words());
            }
            say!(
                "    {:<44} median {}, 10% below {}, 10% above {} (range {}–{})",
                format!("length ({})", study.table.unit),
                m.length.median,
                m.length.p10,
                m.length.p90,
                m.length.min,
                m.length.max
            );
            for o in &m.options {
                let flag = if o.dominated { "  never chosen" } else { "" };
                say!(
                    "    option {:<37} {}{flag}",
                    o.option,
                    compare::Figure {
                        key: String::new(),
                        label: String::new(),
                        value: o.share.value,
                        low: o.share.low,
                        high: o.share.high,
                        n: o.share.n,
                        share: true,
                    }
                    .words()
                );
            }
        }
        if let Some(t) = &v.exact {
            print_exact(t)?;
        }
    }
    if !study.differences.is_empty() {
        say!();
        say!("Differences from the rules as written (intervals separate):");
        for d in &study.differences {
            say!("  {}: {}", d.name, d.words());
        }
    }
    if let Some(dir) = plots {
        say!();
        say!("Plots written to {}", dir.display());
    }
    Ok(())
}

fn print_exact(t: &clash_core::workbench::ExactTable) -> Outcome {
    say!(
        "  {} (rows: {}; columns: {})",
        t.title,
        t.rows_are,
        t.cols_are
    );
    say!(
        "    {:>10} {}",
        "",
        t.cols.iter().map(|c| format!("{c:>8}")).collect::<String>()
    );
    for (r, row) in t.rows.iter().zip(&t.values) {
        let cells: String = row
            .iter()
            .map(|v| v.map_or(format!("{:>8}", "–"), |v| format!("{v:>+8.3}")))
            .collect();
        say!("    {r:>10} {cells}");
    }
    say!("    {}", t.note);
    Ok(())
}
