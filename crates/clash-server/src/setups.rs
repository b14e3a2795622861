//! Ready-made setups, so a new table can start without writing JSON.
//!
//! Each preset is checked against the ruleset itself before it is offered: a preset the
//! ruleset refuses is never shown. Rulesets without a preset here are offered `{}` if their
//! setup accepts it (every field defaulted).

use clash_core::RulesetEntry;
use serde::Serialize;
use serde_json::Value;

/// A named starting setup.
#[derive(Debug, Clone, Serialize)]
pub struct Preset {
    pub name: String,
    pub setup: Value,
}

/// Hand-written presets by ruleset id: (name, setup JSON).
fn known(ruleset: &str) -> &'static [(&'static str, &'static str)] {
    match ruleset {
        "triforce" => &[
            (
                "Three players, default board",
                include_str!("setups/triforce-3.json"),
            ),
            (
                "Four players, default board",
                include_str!("setups/triforce-4.json"),
            ),
        ],
        "iron-triangle" => &[
            (
                "Two players (Ada, Bo) against the GM's Brute",
                include_str!("setups/iron-triangle-team.json"),
            ),
            (
                "One player (Ada) against the GM's Brute",
                include_str!("setups/iron-triangle-duel.json"),
            ),
        ],
        "nd-tourists" => &[(
            "Four sides, balanced",
            include_str!("setups/nd-tourists-four.json"),
        )],
        "wicked-age" => &[(
            "Three-way brawl",
            include_str!("setups/wicked-age-brawl.json"),
        )],
        _ => &[],
    }
}

/// The presets `entry` accepts, best first; never empty unless the ruleset needs a custom setup.
pub fn presets(entry: &RulesetEntry) -> Vec<Preset> {
    let accepted = |setup: &Value| (entry.new_game)(setup).is_ok();
    let mut out: Vec<Preset> = known(entry.id)
        .iter()
        .filter_map(|(name, text)| {
            serde_json::from_str::<Value>(text)
                .ok()
                .map(|setup| Preset {
                    name: (*name).into(),
                    setup,
                })
        })
        .filter(|p| accepted(&p.setup))
        .collect();
    if out.is_empty() {
        let empty = Value::Object(Default::default());
        if accepted(&empty) {
            out.push(Preset {
                name: "Default".into(),
                setup: empty,
            });
        }
    }
    out
}
