//! Scenarios: a setup, a source of chance and a list of commands, played through any ruleset.
//!
//! This is what `clash run FILE.json` executes and what the rulesets' worked-example tests load.
//! The format is documented in `docs/scenarios.md`.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::entry::RulesetEntry;
use crate::game::{AnyGame, GameError, SeenEvent};
use crate::randomness::RandomnessSpec;
use crate::seat::{Seat, Viewer};

/// A scenario file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// Which ruleset plays it, by its ID ([`crate::Ruleset::ID`]).
    pub ruleset: String,
    #[serde(default)]
    pub title: String,
    #[serde(default)]
    pub description: String,
    pub setup: Value,
    #[serde(default)]
    pub randomness: RandomnessSpec,
    #[serde(default)]
    pub steps: Vec<Step>,
    /// Checks on the final state (or a seat's view) once every step has run.
    #[serde(default)]
    pub expect: Vec<Check>,
}

/// One command, sent by one seat.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Step {
    pub seat: Seat,
    pub command: Value,
    /// The rule this command is expected to break; the scenario fails if it is accepted.
    #[serde(default)]
    pub expect_error: Option<String>,
    /// Shown before the step when narrating.
    #[serde(default)]
    pub note: Option<String>,
    /// Checks run right after this step.
    #[serde(default)]
    pub expect: Vec<Check>,
}

/// An expected value at a JSON pointer in the state, or in a viewer's view.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Check {
    /// RFC 6901 pointer, e.g. `/characters/0/energy/attack`.
    pub pointer: String,
    /// The expected value; omit together with `absent: true` to require that nothing is there.
    #[serde(default)]
    pub equals: Option<Value>,
    #[serde(default)]
    pub absent: bool,
    /// Look in this viewer's view instead of the full state.
    #[serde(default)]
    pub view: Option<Viewer>,
}

/// What happened to one step.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StepReport {
    pub index: usize,
    pub seat: Seat,
    /// The name the table knows the seat by ("Ada", "the GM").
    pub seat_name: String,
    pub note: Option<String>,
    pub command: Value,
    /// The events it produced (empty when refused).
    pub events: Vec<SeenEvent>,
    /// The table as a spectator sees it after this step.
    pub rendered: String,
    /// The refusal, if any: `(rule, message)`.
    pub error: Option<Refusal>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Refusal {
    pub rule: Option<String>,
    pub message: String,
    pub expected: bool,
}

/// Why a scenario did not play out as written.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ScenarioError {
    #[error("unknown ruleset {0:?}")]
    UnknownRuleset(String),
    #[error("setup refused: {0}")]
    Setup(GameError),
    #[error("step {step}: {error}")]
    Refused {
        step: usize,
        rule: Option<String>,
        error: GameError,
    },
    #[error("step {step}: expected a refusal under {expected}, but the command was accepted")]
    NotRefused { step: usize, expected: String },
    #[error("step {step}: expected a refusal under {expected}, got: {error}")]
    WrongRefusal {
        step: usize,
        expected: String,
        error: GameError,
    },
    #[error("{place}: at {pointer}: expected {expected}, found {found}")]
    CheckFailed {
        place: String,
        pointer: String,
        expected: String,
        found: String,
    },
}

impl ScenarioError {
    /// True for refusals the scenario did not foresee (the CLI exits 2 for these).
    pub fn is_unexpected_refusal(&self) -> bool {
        matches!(self, ScenarioError::Refused { .. })
    }
}

/// The complete account of a scenario run.
#[derive(Debug, Serialize)]
pub struct Report {
    pub ruleset: String,
    pub title: String,
    pub steps: Vec<StepReport>,
    pub final_state: Value,
    pub views: Vec<(Viewer, Value)>,
    /// What happened by itself when the game started, before the first step.
    pub opening: Vec<SeenEvent>,
    /// The final position as each viewer may know it (a setup that starts a new game there), or
    /// `None` where it would show that viewer something hidden.
    pub positions: Vec<(Viewer, Option<Value>)>,
    /// Every event of the game, as a spectator would read it.
    pub log: Vec<SeenEvent>,
}

/// Play `scenario` through the ruleset in `entries` it names.
///
/// Returns the report of every step so far together with the first failure, if any.
pub fn run(
    entries: &[RulesetEntry],
    scenario: &Scenario,
) -> (Option<Report>, Option<ScenarioError>) {
    let Some(entry) = entries.iter().find(|e| e.id == scenario.ruleset) else {
        return (
            None,
            Some(ScenarioError::UnknownRuleset(scenario.ruleset.clone())),
        );
    };
    let mut game = match (entry.new_game)(&scenario.setup) {
        Ok(g) => g,
        Err(e) => return (None, Some(ScenarioError::Setup(e))),
    };
    let opening = game.events_for(Viewer::Spectator, 0);
    let mut rng = scenario.randomness.build();
    let mut steps = Vec::new();
    let mut failure = None;
    for (index, step) in scenario.steps.iter().enumerate() {
        let before = game.event_count();
        let outcome = game.command(step.seat, &step.command, rng.as_mut());
        let mut report = StepReport {
            index,
            seat: step.seat,
            seat_name: game.seat_name(step.seat),
            note: step.note.clone(),
            command: step.command.clone(),
            events: game.events_for(Viewer::Spectator, before),
            rendered: game.render(Viewer::Spectator),
            error: None,
        };
        let verdict = judge(index, step, outcome, &mut report);
        steps.push(report);
        if let Err(e) = verdict
            .and_then(|_| check_all(game.as_ref(), &step.expect, &format!("after step {index}")))
        {
            failure = Some(e);
            break;
        }
    }
    if failure.is_none() {
        failure = check_all(game.as_ref(), &scenario.expect, "at the end").err();
    }
    let mut viewers = vec![Viewer::Spectator];
    viewers.extend(game.seats().into_iter().map(Viewer::Seat));
    let report = Report {
        ruleset: scenario.ruleset.clone(),
        title: scenario.title.clone(),
        steps,
        final_state: game.state_json(),
        views: viewers.iter().map(|v| (*v, game.view(*v))).collect(),
        opening,
        positions: viewers.iter().map(|v| (*v, game.position(*v))).collect(),
        log: game.events_for(Viewer::Spectator, 0),
    };
    (Some(report), failure)
}

fn judge(
    index: usize,
    step: &Step,
    outcome: Result<Vec<Value>, GameError>,
    report: &mut StepReport,
) -> Result<(), ScenarioError> {
    match (outcome, &step.expect_error) {
        (Ok(_), None) => Ok(()),
        (Ok(_), Some(expected)) => Err(ScenarioError::NotRefused {
            step: index,
            expected: expected.clone(),
        }),
        (Err(error), expected) => {
            let rule = match &error {
                GameError::Rule(r) => r.rule().map(str::to_string),
                GameError::Malformed { .. } => None,
            };
            let matches = expected.is_some() && rule.as_deref() == expected.as_deref();
            report.error = Some(Refusal {
                rule: rule.clone(),
                message: error.to_string(),
                expected: matches,
            });
            match expected {
                None => Err(ScenarioError::Refused {
                    step: index,
                    rule,
                    error,
                }),
                Some(_) if matches => Ok(()),
                Some(expected) => Err(ScenarioError::WrongRefusal {
                    step: index,
                    expected: expected.clone(),
                    error,
                }),
            }
        }
    }
}

fn check_all(game: &dyn AnyGame, checks: &[Check], place: &str) -> Result<(), ScenarioError> {
    for check in checks {
        let doc = match check.view {
            Some(viewer) => game.view(viewer),
            None => game.state_json(),
        };
        let found = doc.pointer(&check.pointer);
        let ok = match (&check.equals, check.absent) {
            (_, true) => found.is_none() || found == Some(&Value::Null),
            (Some(expected), false) => found == Some(expected),
            (None, false) => found.is_some(),
        };
        if !ok {
            let expected = match (&check.equals, check.absent) {
                (_, true) => "nothing".to_string(),
                (Some(v), _) => v.to_string(),
                (None, _) => "a value".to_string(),
            };
            let place = match check.view {
                Some(v) => format!("{place}, in {v}'s view"),
                None => place.to_string(),
            };
            return Err(ScenarioError::CheckFailed {
                place,
                pointer: check.pointer.clone(),
                expected,
                found: found.map_or("nothing".to_string(), Value::to_string),
            });
        }
    }
    Ok(())
}

/// Parse and run a scenario, failing on any problem: the form ruleset tests use for examples.
pub fn run_str(entries: &[RulesetEntry], json: &str) -> Result<Report, String> {
    let scenario: Scenario =
        serde_json::from_str(json).map_err(|e| format!("bad scenario: {e}"))?;
    match run(entries, &scenario) {
        (Some(report), None) => Ok(report),
        (_, Some(err)) => Err(err.to_string()),
        (None, None) => Err("no report".to_string()),
    }
}
