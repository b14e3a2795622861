//! How a table of Morra starts ([`Setup`]) and the starting state built from it, checked
//! against MO-1, MO-2, MO-11 and MO-13.

use clash_core::RuleError;
use clash_core::text::plain_name;
use serde::{Deserialize, Serialize};

use crate::limits::{NAME_LIMIT, ROUND_LIMITS, TARGETS};
use crate::state::State;

/// How a table of Morra starts: the players' names, the target and the round limit, and for a
/// position part-way through, the round and the scores.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Setup {
    #[serde(default = "default_names")]
    pub names: [String; 2],
    #[serde(default = "default_target")]
    pub target: u32,
    #[serde(default = "default_round_limit")]
    pub round_limit: u32,
    /// The round about to be played, from 1.
    #[serde(default = "first_round")]
    pub round: u32,
    #[serde(default)]
    pub scores: [u32; 2],
}

fn default_names() -> [String; 2] {
    ["Ada".into(), "Bo".into()]
}
fn default_target() -> u32 {
    11
}
fn default_round_limit() -> u32 {
    30
}
fn first_round() -> u32 {
    1
}

impl Default for Setup {
    fn default() -> Self {
        Setup {
            names: default_names(),
            target: default_target(),
            round_limit: default_round_limit(),
            round: first_round(),
            scores: [0, 0],
        }
    }
}

/// Build the starting state, checking the setup against MO-1, MO-2 and MO-13.
pub fn build(setup: &Setup) -> Result<State, RuleError> {
    for name in &setup.names {
        let name = name.trim();
        if name.is_empty() || name.chars().count() > NAME_LIMIT {
            return Err(RuleError::setup(
                "MO-1",
                format!("each player needs a name of 1 to {NAME_LIMIT} characters"),
            ));
        }
        plain_name("a player's name", name).map_err(|e| RuleError::setup("MO-1", e))?;
    }
    if setup.names[0].trim() == setup.names[1].trim() {
        return Err(RuleError::setup(
            "MO-1",
            "the two players need different names",
        ));
    }
    if !TARGETS.contains(&setup.target) {
        return Err(RuleError::setup(
            "MO-2",
            format!("the target is 1 to 99 points, not {}", setup.target),
        ));
    }
    if !ROUND_LIMITS.contains(&setup.round_limit) {
        return Err(RuleError::setup(
            "MO-2",
            format!(
                "the round limit is 1 to 200 rounds, not {}",
                setup.round_limit
            ),
        ));
    }
    if setup.round == 0 || setup.round > setup.round_limit + 1 {
        return Err(RuleError::setup(
            "MO-13",
            format!(
                "with a limit of {} rounds, the next round is 1 to {}, not {}",
                setup.round_limit,
                setup.round_limit + 1,
                setup.round
            ),
        ));
    }
    // Each round scores at most 6 (MO-11).
    let most = 6 * (setup.round - 1);
    if setup.scores.iter().sum::<u32>() > most {
        return Err(RuleError::setup(
            "MO-11",
            format!(
                "after {} rounds the scores add up to at most {most}",
                setup.round - 1
            ),
        ));
    }
    Ok(State {
        names: setup.names.clone().map(|n| n.trim().to_string()),
        target: setup.target,
        round_limit: setup.round_limit,
        round: setup.round,
        scores: setup.scores,
        hands: [None, None],
        last: None,
        over: None,
    })
}
