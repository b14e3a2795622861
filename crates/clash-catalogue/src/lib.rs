//! Every ruleset Clash can play, by name.
//!
//! The CLI and the table server look rulesets up here; neither knows any rules itself.

use clash_core::RulesetEntry;

/// All available rulesets.
pub fn rulesets() -> Vec<RulesetEntry> {
    vec![
        // One line per ruleset crate: its catalogue entry, with everything it offers (rules,
        // forms, board, and with its `analysis` feature its bots, odds in play and `clash`
        // subcommands).
        iron_triangle::entry(),
        nd_tourists::entry(),
        triforce::entry(),
        wicked_age::entry(),
    ]
}

/// The ruleset called `id`, if Clash has it.
pub fn find(id: &str) -> Option<RulesetEntry> {
    rulesets().into_iter().find(|e| e.id == id)
}
