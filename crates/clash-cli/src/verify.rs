//! `clash verify TABLE.json`: check a table's record, as `docs/verification.md` specifies.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use clash_server::export::{Report, Witness, is_hash, read_seen};

use crate::output::{Outcome, say};

#[derive(Args)]
pub struct VerifyArgs {
    /// The record, as downloaded from the table page or `GET /api/tables/{id}/export`.
    file: PathBuf,
    /// The heads seen during play: a file the table page saved ("Download the heads this
    /// browser saw", in Fair dice), each of whose heads must be in the record at its place; or
    /// one head's hash (64 hex digits), noted by hand, which must be in it somewhere. May be
    /// given several times (one file from each participant).
    #[arg(long = "seen", value_name = "FILE|HASH")]
    seen: Vec<String>,
}

/// Everything was checked and holds.
const VERIFIED: u8 = 0;
/// Something does not hold, or the file is not a readable record.
const FAILED: u8 = 1;
/// What was checked holds, but part of the record could not be checked: it was taken before
/// the table ended (no secret yet), or the table predates verifiable chance. Not 2, which clap
/// uses for a mistyped command line.
const PARTLY: u8 = 3;

/// The verdict's exit code: see the constants above and `clash verify --help`.
pub fn verify(args: VerifyArgs) -> ExitCode {
    let text = match std::fs::read_to_string(&args.file) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("clash verify: cannot read {}: {e}", args.file.display());
            return ExitCode::from(FAILED);
        }
    };
    let record = match serde_json::from_str(&text) {
        Ok(v) => v,
        Err(e) => {
            eprintln!("clash verify: {} is not JSON: {e}", args.file.display());
            return ExitCode::from(FAILED);
        }
    };
    let seen = match witnessed(&args.seen) {
        Ok(seen) => seen,
        Err(e) => {
            eprintln!("clash verify: {e}");
            return ExitCode::from(FAILED);
        }
    };
    let report = clash_server::export::verify_seen(&record, &clash_catalogue::rulesets(), &seen);
    // A reader that left early (a closed pipe) stops the report, not the verdict's exit code.
    let _ = print_report(&report, &args);
    ExitCode::from(code(&report))
}

/// The heads given with `--seen`: hashes as they are, files read.
fn witnessed(given: &[String]) -> Result<Vec<Witness>, String> {
    let mut seen = Vec::new();
    for text in given {
        if is_hash(text) {
            seen.push(Witness::hash(text));
            continue;
        }
        let file = std::fs::read_to_string(text).map_err(|e| {
            format!("--seen {text}: neither a head's hash nor a file that can be read ({e})")
        })?;
        seen.extend(read_seen(&file).map_err(|e| format!("--seen {text}: {e}"))?);
    }
    Ok(seen)
}

fn code(report: &Report) -> u8 {
    if !report.ok() {
        FAILED
    } else if report.unchecked.is_empty() {
        VERIFIED
    } else {
        PARTLY
    }
}

fn print_report(report: &Report, args: &VerifyArgs) -> Outcome {
    for line in &report.verified {
        say!("ok: {line}");
    }
    for line in &report.unchecked {
        say!("not checked: {line}");
    }
    for line in &report.failures {
        say!("FAILED: {line}");
    }
    let file = args.file.display();
    match code(report) {
        VERIFIED => say!("verified: {file}: everything listed above was checked and holds"),
        PARTLY => say!(
            "PARTLY verified: {file}: the lines marked ok hold, but what is marked \"not checked\" \
             was NOT checked; this is not a full verification (exit code {PARTLY})"
        ),
        _ => say!("NOT verified: {file}"),
    }
    Ok(())
}
