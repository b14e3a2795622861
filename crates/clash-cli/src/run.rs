//! `clash run`: play a scenario and tell what happened.

use std::path::Path;
use std::process::ExitCode;

use clash_core::scenario::{self, Report, Scenario, ScenarioError, StepReport};

use crate::output::{Outcome, say};

pub fn run(file: &Path, json: bool) -> ExitCode {
    let scenario = match load(file) {
        Ok(s) => s,
        Err(message) => {
            eprintln!("clash run: {message}");
            return ExitCode::FAILURE;
        }
    };
    let (report, failure) = scenario::run(&clash_catalogue::rulesets(), &scenario);
    if let Some(report) = &report {
        // A reader that left early (a closed pipe) only stops the narration; the exit code
        // still says whether the scenario played out as written.
        let _ = if json {
            print_json(report, failure.as_ref())
        } else {
            print_text(report)
        };
    }
    match failure {
        None => ExitCode::SUCCESS,
        Some(err) => {
            eprintln!("clash run: {err}");
            if err.is_unexpected_refusal() {
                ExitCode::from(2)
            } else {
                ExitCode::FAILURE
            }
        }
    }
}

fn load(file: &Path) -> Result<Scenario, String> {
    let text = std::fs::read_to_string(file)
        .map_err(|e| format!("cannot read {}: {e}", file.display()))?;
    serde_json::from_str(&text)
        .map_err(|e| format!("{} is not a valid scenario: {e}", file.display()))
}

fn print_json(report: &Report, failure: Option<&ScenarioError>) -> Outcome {
    let views: serde_json::Map<String, serde_json::Value> = report
        .views
        .iter()
        .map(|(viewer, view)| (viewer.to_string(), view.clone()))
        .collect();
    let positions: serde_json::Map<String, serde_json::Value> = report
        .positions
        .iter()
        .map(|(viewer, position)| (viewer.to_string(), position.clone().unwrap_or_default()))
        .collect();
    let out = serde_json::json!({
        "ruleset": report.ruleset,
        "title": report.title,
        "steps": report.steps,
        "events": report.log,
        "final_state": report.final_state,
        "views": views,
        "positions": positions,
        "ok": failure.is_none(),
        "failure": failure.map(|f| f.to_string()),
    });
    say!("{}", serde_json::to_string_pretty(&out).unwrap_or_default());
    Ok(())
}

fn print_text(report: &Report) -> Outcome {
    let title = if report.title.is_empty() {
        report.ruleset.as_str()
    } else {
        report.title.as_str()
    };
    say!("== {title} ({})", report.ruleset);
    // The table picture is shown when play passes to another seat (the end of a turn, or a
    // hand-off between simultaneous choosers), and only if it changed since it was last shown.
    let mut shown = "";
    if !report.opening.is_empty() {
        say!("\n# The game opens");
        for event in &report.opening {
            say!("    {}", event.text);
        }
    }
    for (i, step) in report.steps.iter().enumerate() {
        print_step(step)?;
        let hand_off = report
            .steps
            .get(i + 1)
            .is_none_or(|next| next.seat != step.seat);
        if hand_off && step.rendered != shown {
            say!("{}", indent(&step.rendered));
            shown = &step.rendered;
        }
    }
    if let Some(last) = report.steps.last() {
        say!("\n== Final table\n{}", last.rendered.trim_end());
    }
    Ok(())
}

/// A command as words for the narration: its type ("take_stance" reads "take stance"); the
/// full command is in `--json`.
fn command_words(command: &serde_json::Value) -> String {
    let kind = command
        .get("type")
        .and_then(serde_json::Value::as_str)
        .unwrap_or("command");
    kind.replace(['_', '-'], " ")
}

fn print_step(step: &StepReport) -> Outcome {
    say!();
    if let Some(note) = &step.note {
        say!("# {note}");
    }
    say!(
        "[{}] {}: {}",
        step.index + 1,
        step.seat_name,
        command_words(&step.command)
    );
    for event in &step.events {
        say!("    {}", event.text);
    }
    if let Some(refusal) = &step.error {
        let rule = refusal.rule.as_deref().unwrap_or("-");
        let verdict = if refusal.expected {
            "refused, as expected"
        } else {
            "REFUSED"
        };
        say!("    {verdict} ({rule}): {}", refusal.message);
    }
    Ok(())
}

fn indent(text: &str) -> String {
    text.trim_end()
        .lines()
        .map(|l| format!("      | {l}"))
        .collect::<Vec<_>>()
        .join("\n")
}
