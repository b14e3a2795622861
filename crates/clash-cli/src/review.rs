//! `clash review RECORD.json`: the review of an ended table from its downloaded record, checked
//! first as `clash verify` checks it; `--replay` steps through the game as one seat saw it.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use clap::Args;
use clash_analysis::review::score::signed;
use clash_core::review::{ConflictReview, Moment, PlayerReview, Review};
use clash_core::{RulesetEntry, Viewer};
use clash_server::review::record;
use clash_server::review::replay;
use serde_json::Value;

use crate::output::{Outcome, say};

#[derive(Args)]
pub struct ReviewArgs {
    /// The record, as downloaded from the table page once the table has ended.
    file: PathBuf,
    /// Print the review as one JSON object instead of text.
    #[arg(long)]
    json: bool,
    /// Step through the game first, as a seat saw it (`--as`), with what was revealed later
    /// marked.
    #[arg(long)]
    replay: bool,
    /// The seat whose view the replay shows (`p1`, `gm`, or `spectator`).
    #[arg(long = "as", value_name = "SEAT", default_value = "spectator")]
    as_seat: String,
    /// The most seconds the review may work; what it did not reach by then it says so.
    #[arg(long, default_value_t = 300)]
    seconds: u64,
}

fn fail(message: impl std::fmt::Display) -> ExitCode {
    eprintln!("clash review: {message}");
    ExitCode::from(1)
}

/// Exit 0 with the review; 1 when the record does not verify, was taken before the end, or
/// holds a game that has no review.
pub fn review(args: ReviewArgs) -> ExitCode {
    let doc: Value = match std::fs::read_to_string(&args.file)
        .map_err(|e| e.to_string())
        .and_then(|t| serde_json::from_str(&t).map_err(|e| format!("not JSON: {e}")))
    {
        Ok(v) => v,
        Err(e) => return fail(format!("cannot read {}: {e}", args.file.display())),
    };
    let catalogue = clash_catalogue::rulesets();
    let report = clash_server::export::verify(&doc, &catalogue, &[]);
    if !report.ok() {
        for line in &report.failures {
            eprintln!("FAILED: {line}");
        }
        return fail(format!(
            "{} does not verify (see `clash verify`), so it is not reviewed",
            args.file.display()
        ));
    }
    if !report.unchecked.is_empty() {
        return fail(format!(
            "{} was taken before the table ended: the review opens once everything is revealed; \
             download the record again after the end",
            args.file.display()
        ));
    }
    let read = match record::read(&doc) {
        Ok(r) => r,
        Err(e) => return fail(e),
    };
    let Some(entry) = catalogue.into_iter().find(|e| e.id == read.ruleset) else {
        return fail(format!(
            "this build of clash has no ruleset {:?}",
            read.ruleset
        ));
    };
    let title = doc["title"].as_str().unwrap_or_default().to_string();
    if args.replay
        && let Err(e) = print_replay(&entry, &read.record, &args.as_seat)
    {
        return match e {
            clash_core::cli::Stop::Closed => ExitCode::SUCCESS,
            clash_core::cli::Stop::Failed(m) => fail(m),
        };
    }
    let Some(hook) = entry.review else {
        return fail(format!("{} has no review", entry.name));
    };
    let mut reviewer = match hook(&read.record) {
        Ok(r) => r,
        Err(e) => return fail(e),
    };
    let review = run(
        reviewer.as_mut(),
        Duration::from_secs(args.seconds),
        args.json,
    );
    let printed = if args.json {
        clash_analysis::cli::line(format_args!(
            "{}",
            serde_json::to_string_pretty(&review).unwrap_or_default()
        ))
    } else {
        print_review(&review, &title, entry.name)
    };
    match printed {
        Ok(()) | Err(clash_core::cli::Stop::Closed) => ExitCode::SUCCESS,
        Err(clash_core::cli::Stop::Failed(m)) => fail(m),
    }
}

/// Work the review through within `limit`, telling a terminal how far it has got.
fn run(reviewer: &mut dyn clash_core::Reviewer, limit: Duration, quiet: bool) -> Review {
    let started = Instant::now();
    let tell = !quiet && std::io::stderr().is_terminal();
    loop {
        if started.elapsed() >= limit {
            reviewer.stop(&format!("the {} seconds given ran out", limit.as_secs()));
            return reviewer.review();
        }
        let done = reviewer.work(Instant::now() + Duration::from_millis(250));
        if tell {
            let p = reviewer.review().progress;
            eprint!("\rreviewing: {} of {} commands", p.evaluated, p.steps);
        }
        if done {
            if tell {
                eprintln!();
            }
            return reviewer.review();
        }
    }
}

fn viewer(seat: &str) -> Result<Viewer, String> {
    if seat.eq_ignore_ascii_case("spectator") {
        return Ok(Viewer::Spectator);
    }
    seat.parse()
        .map(Viewer::Seat)
        .map_err(|e: clash_core::BadSeat| e.to_string())
}

fn print_replay(entry: &RulesetEntry, record: &clash_core::Record, seat: &str) -> Outcome {
    let viewer = viewer(seat)?;
    for step in 0..=record.steps.len() {
        let f = replay::frame(entry, record, viewer, step).map_err(|e| e.to_string())?;
        match &f.actor {
            Some(actor) => say!("— step {} of {}: {actor} —", f.step, f.steps),
            None => say!("— the table as it began —"),
        }
        for line in &f.lines {
            if line.later {
                say!("  (revealed later) {}", line.text);
            } else {
                say!("  {}", line.text);
            }
        }
        say!("  {}", f.status);
    }
    say!("");
    Ok(())
}

fn percent(p: f64) -> String {
    clash_analysis::review::score::percent(p)
}

/// The most blocks a chart line takes: a long conflict's points are averaged in runs to fit a
/// terminal.
const CHART_WIDTH: usize = 60;

/// A side's chance over time as a line of blocks, low to high.
fn sparkline(c: &ConflictReview, side: usize) -> String {
    const BLOCKS: [char; 8] = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];
    let values: Vec<f64> = c
        .points
        .iter()
        .filter_map(|p| p.chances.get(side).copied())
        .collect();
    let run = values.len().div_ceil(CHART_WIDTH).max(1);
    values
        .chunks(run)
        .map(|xs| xs.iter().sum::<f64>() / xs.len() as f64)
        .map(|x| BLOCKS[((x.clamp(0.0, 1.0) * 7.0).round() as usize).min(7)])
        .collect()
}

fn player_line(p: &PlayerReview) -> String {
    let plural = |n: u32, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    let mut parts = vec![plural(p.decisions, "decision", "decisions")];
    if let Some(a) = p.accuracy {
        parts.push(format!("accuracy {a:.0}"));
    }
    parts.push(format!(
        "{}, {}, {}",
        plural(p.inaccuracies, "inaccuracy", "inaccuracies"),
        plural(p.mistakes, "mistake", "mistakes"),
        plural(p.blunders, "blunder", "blunders")
    ));
    if p.rolls > 0 {
        parts.push(format!(
            "luck {} over {}",
            signed(p.luck),
            plural(p.rolls, "roll", "rolls")
        ));
    }
    if let (Some(r), Some(a)) = (p.result, p.adjusted) {
        // A result with the luck taken out can fall below 0 or rise above 1.
        let plain = |x: f64| signed(x).trim_start_matches('+').to_string();
        parts.push(format!("result {}, luck-adjusted {}", plain(r), plain(a)));
    }
    format!("  {}: {}", p.name, parts.join(", "))
}

fn moment_line(c: &ConflictReview, m: &Moment) -> String {
    let mut line = format!("  step {:>3}  {}", m.step + 1, m.text);
    if let Some(v) = &m.decision {
        let side = c.sides.get(v.side as usize).map_or("", |s| s.name.as_str());
        if v.grade == clash_core::review::Grade::Best {
            line.push_str(&format!(
                "\n             best choice ({} for {side})",
                percent(v.played)
            ));
        } else {
            line.push_str(&format!(
                "\n             {}: {side} gave away {} ({} with the best choice, {} with this one)",
                v.grade.word(),
                clash_analysis::review::score::points(v.loss).trim_start_matches('+'),
                percent(v.best),
                percent(v.played)
            ));
        }
        if let Some(best) = &v.best_choice {
            line.push_str(&format!("; best: {best}"));
        }
        if let Some(h) = &v.hindsight {
            match &h.best_choice {
                Some(b) => line.push_str(&format!(
                    "; against the others' real choices the best reply was {b} ({} instead of {})",
                    percent(h.best),
                    percent(h.played)
                )),
                None => line.push_str("; against the others' real choices it was the best reply"),
            }
        }
    }
    if let Some(l) = &m.luck {
        let parts: Vec<String> = c
            .sides
            .iter()
            .zip(&l.luck)
            .map(|(s, x)| format!("{} {}", s.name, clash_analysis::review::score::points(*x)))
            .collect();
        line.push_str(&format!(
            "\n             luck over {} results{}: {}",
            l.results,
            if l.sampled { " (sampled)" } else { "" },
            parts.join(", ")
        ));
    }
    if let Some(u) = &m.unevaluated {
        line.push_str(&format!("\n             not evaluated: {u}"));
    }
    line
}

fn print_review(r: &Review, title: &str, game: &str) -> Outcome {
    say!(
        "Review of “{title}” ({game}): {} of {} commands looked at.",
        r.progress.evaluated,
        r.progress.steps
    );
    if let Some(why) = &r.progress.stopped {
        say!("Stopped early: {why}.");
    }
    for line in &r.measure {
        say!("{line}");
    }
    say!("");
    say!("Players over the whole table:");
    for p in &r.players {
        say!("{}", player_line(p));
    }
    for c in &r.conflicts {
        say!("");
        say!("{}", c.title);
        for (i, s) in c.sides.iter().enumerate() {
            say!("  {:<24} {}", s.name, sparkline(c, i));
        }
        for line in &c.summary {
            say!("  {line}");
        }
        say!("  Every decision and roll:");
        for m in &c.moments {
            say!("{}", moment_line(c, m));
        }
    }
    if !r.unevaluated.is_empty() {
        say!("");
        say!("Not evaluated:");
        for line in &r.unevaluated {
            say!("  {line}");
        }
    }
    Ok(())
}
