//! Ready-made setups, so a new table can start without writing JSON.
//!
//! Each ruleset lists its presets in the catalogue; each is checked against the ruleset itself
//! before it is offered, so a preset the ruleset refuses is never shown. Rulesets without a
//! preset are offered `{}` if their setup accepts it (every field defaulted).

use clash_core::RulesetEntry;
use serde::Serialize;
use serde_json::Value;

/// A named starting setup.
#[derive(Debug, Clone, Serialize)]
pub struct Preset {
    pub name: String,
    pub setup: Value,
}

/// The presets `entry` accepts, best first; never empty unless the ruleset needs a custom setup.
pub fn presets(entry: &RulesetEntry) -> Vec<Preset> {
    let accepted = |setup: &Value| (entry.new_game)(setup).is_ok();
    let mut out: Vec<Preset> = entry
        .presets
        .iter()
        .filter_map(|p| {
            serde_json::from_str::<Value>(p.setup)
                .ok()
                .map(|setup| Preset {
                    name: p.name.into(),
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
