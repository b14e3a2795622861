//! `clash analyse iron-triangle builds`: the level-0 balance table, written to files and
//! resumable.

use std::collections::HashSet;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Instant;

use crate::IronTriangle;
use crate::analysis::balance::{self, Build, DuelRecord};
use clap::{FromArgMatches, Subcommand};
use clash_analysis::cli::{self, Outcome};
use clash_analysis::say;
use clash_core::Ruleset;

#[derive(Subcommand)]
enum IronAnalyse {
    /// Every level-0 energy build (the 36 ways to spread 10 energy, at least 1 a type, IT-9)
    /// against every other, each a whole duel with best play: value (P(PC wins) - P(NPC wins)),
    /// P(PC wins) and the first turn's best stances, as CSV, JSON and a heatmap.
    ///
    /// Each finished duel is appended to OUT/duels.jsonl at once; run the same command again to
    /// resume. The table files are rewritten at the end of every run from every duel solved.
    Builds {
        /// Folder for duels.jsonl, builds.csv, builds.json, builds.svg and builds.png.
        #[arg(long, default_value = "balance")]
        out: PathBuf,
        /// Only these builds (Defend/Grapple/Attack, comma-separated), e.g. 3/3/4,4/4/2.
        #[arg(long, value_delimiter = ',')]
        builds: Vec<String>,
        /// Solve at most this many duels in this run.
        #[arg(long)]
        limit: Option<usize>,
        /// Worker threads (default: all cores).
        #[arg(long, value_parser = clap::value_parser!(u16).range(1..))]
        threads: Option<u16>,
    },
}

fn chosen_builds(words: &[String]) -> Result<Vec<Build>, String> {
    if words.is_empty() {
        return Ok(balance::level_0_builds());
    }
    let mut builds: Vec<Build> = Vec::new();
    for w in words {
        let b: Build = w.parse().map_err(|e: balance::BuildError| e.to_string())?;
        if !builds.contains(&b) {
            builds.push(b);
        }
    }
    Ok(builds)
}

fn bar(total: u64, done: u64) -> cli::ProgressBar {
    let bar = cli::progress(
        total,
        "{bar:40} {pos}/{len} duels  {elapsed_precise} (eta {eta})",
    );
    bar.set_position(done);
    bar
}

fn builds_table(
    out: &Path,
    words: &[String],
    limit: Option<usize>,
    threads: Option<u16>,
) -> Outcome {
    let builds = chosen_builds(words)?;
    std::fs::create_dir_all(out).map_err(|e| format!("cannot create {}: {e}", out.display()))?;
    let lines = out.join("duels.jsonl");
    let done: HashSet<(Build, Build)> = balance::read_records(&lines)
        .into_iter()
        .map(|r| (r.pc, r.npc))
        .collect();
    let pairs: Vec<(Build, Build)> = builds
        .iter()
        .flat_map(|pc| builds.iter().map(move |npc| (*pc, *npc)))
        .collect();
    let todo: Vec<(Build, Build)> = pairs
        .iter()
        .copied()
        .filter(|p| !done.contains(p))
        .take(limit.unwrap_or(usize::MAX))
        .collect();
    let already = pairs.len() - pairs.iter().filter(|p| !done.contains(p)).count();
    let progress = bar(pairs.len() as u64, already as u64);
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&lines)
        .map_err(|e| format!("cannot open {}: {e}", lines.display()))?;
    let sink = Mutex::new((file, None::<String>));
    let start = Instant::now();
    balance::solve_all(&todo, threads.map(usize::from), &|result| {
        let mut guard = sink.lock().unwrap_or_else(|e| e.into_inner());
        let line = match result {
            Ok(r) => serde_json::to_string(&r).map_err(|e| e.to_string()),
            Err(e) => Err(e.to_string()),
        };
        match line {
            Ok(line) => {
                if let Err(e) = writeln!(guard.0, "{line}") {
                    guard
                        .1
                        .get_or_insert(format!("cannot write {}: {e}", lines.display()));
                }
            }
            Err(e) => {
                guard.1.get_or_insert(e);
            }
        }
        progress.inc(1);
    });
    progress.finish_and_clear();
    if let Some(e) = sink.into_inner().unwrap_or_else(|e| e.into_inner()).1 {
        return Err(e.into());
    }
    let elapsed = start.elapsed().as_secs_f64();
    let records: Vec<DuelRecord> = balance::read_records(&lines)
        .into_iter()
        .filter(|r| builds.contains(&r.pc) && builds.contains(&r.npc))
        .collect();
    write_table(out, &builds, &records)?;
    summary(out, &builds, &records, todo.len(), elapsed)
}

fn write_table(out: &Path, builds: &[Build], records: &[DuelRecord]) -> Result<(), String> {
    let write = |name: &str, text: String| {
        std::fs::write(out.join(name), text)
            .map_err(|e| format!("cannot write {}: {e}", out.join(name).display()))
    };
    write("builds.csv", balance::csv(records))?;
    write(
        "builds.json",
        serde_json::to_string_pretty(records).map_err(|e| e.to_string())?,
    )?;
    for name in ["builds.svg", "builds.png"] {
        balance::heatmap(&out.join(name), builds, records).map_err(|e| e.to_string())?;
    }
    Ok(())
}

fn summary(
    out: &Path,
    builds: &[Build],
    records: &[DuelRecord],
    solved: usize,
    elapsed: f64,
) -> Outcome {
    let total = builds.len() * builds.len();
    say!(
        "Iron Triangle level-0 builds: {} of {total} duels solved ({solved} in this run, {elapsed:.1} s)",
        records.len()
    );
    if solved > 0 {
        let this_run: Vec<f64> = records
            .iter()
            .rev()
            .take(solved)
            .map(|r| r.seconds)
            .collect();
        let mean = this_run.iter().sum::<f64>() / this_run.len() as f64;
        say!(
            "  time per duel: mean {:.3} s, longest {:.3} s",
            mean,
            this_run.iter().copied().fold(0.0, f64::max)
        );
    }
    say!(
        "  value = P(PC wins) - P(NPC wins) with best play; the PC is active first; the GM's side wins a double knockout (IT-27)"
    );
    let mut rows: Vec<(Build, f64, usize)> = builds
        .iter()
        .map(|b| {
            let as_pc: Vec<f64> = records
                .iter()
                .filter(|r| r.pc == *b)
                .map(|r| r.value)
                .collect();
            (
                *b,
                as_pc.iter().sum::<f64>() / as_pc.len().max(1) as f64,
                as_pc.len(),
            )
        })
        .filter(|(_, _, n)| *n > 0)
        .collect();
    rows.sort_by(|x, y| y.1.total_cmp(&x.1));
    say!("  builds by mean value as the PC (over the NPC builds solved):");
    for (b, mean, n) in rows.iter().take(10) {
        say!("    {b:<8} {mean:+.4}  ({n} duels)");
    }
    for r in records.iter().filter(|r| r.pc == r.npc).take(3) {
        say!(
            "  {} against itself: {:+.4} (P(PC wins) {:.4})",
            r.pc,
            r.value,
            r.pc_wins
        );
    }
    say!(
        "  table: {}, {}, {}, {}",
        out.join("builds.csv").display(),
        out.join("builds.json").display(),
        out.join("builds.svg").display(),
        out.join("builds.png").display()
    );
    Ok(())
}

pub(super) fn analyse_command() -> clap::Command {
    let command = clap::Command::new(IronTriangle::ID)
        .about("Iron Triangle analyses.")
        .subcommand_required(true);
    IronAnalyse::augment_subcommands(command)
}

pub(super) fn run_analyse(m: &clap::ArgMatches) -> Outcome {
    match IronAnalyse::from_arg_matches(m).map_err(|e| e.to_string())? {
        IronAnalyse::Builds {
            out,
            builds,
            limit,
            threads,
        } => builds_table(&out, &builds, limit, threads),
    }
}
