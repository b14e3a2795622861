//! `clash verify TABLE.json`: check a table's record, as `docs/security.md` explains.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use crate::output::{Outcome, say};

#[derive(Args)]
pub struct VerifyArgs {
    /// The record, as downloaded from the table page or `GET /api/tables/{id}/export`.
    file: PathBuf,
    /// A head hash you noted during play (shown on the table page); it must be in the record.
    /// May be given several times.
    #[arg(long = "seen", value_name = "HASH")]
    seen: Vec<String>,
}

/// Exits 0 when everything checked holds, 1 when something does not (or the file is unreadable).
pub fn verify(args: VerifyArgs) -> ExitCode {
    let text = match std::fs::read_to_string(&args.file) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("clash verify: cannot read {}: {e}", args.file.display());
            return ExitCode::FAILURE;
        }
    };
    let record = match serde_json::from_str(&text) {
        Ok(v) => v,
        Err(e) => {
            eprintln!("clash verify: {} is not JSON: {e}", args.file.display());
            return ExitCode::FAILURE;
        }
    };
    let report = clash_server::export::verify(&record, &clash_catalogue::rulesets(), &args.seen);
    // A reader that left early (a closed pipe) stops the report, not the verdict's exit code.
    let _ = print_report(&report, &args);
    if report.ok() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

fn print_report(report: &clash_server::export::Report, args: &VerifyArgs) -> Outcome {
    for line in &report.verified {
        say!("ok: {line}");
    }
    for line in &report.unchecked {
        say!("not checked: {line}");
    }
    for line in &report.failures {
        say!("FAILED: {line}");
    }
    let verdict = if report.ok() {
        "verified"
    } else {
        "NOT verified"
    };
    say!("{verdict}: {}", args.file.display());
    Ok(())
}
