//! Every ruleset Clash can play, by name.
//!
//! The CLI and the table server look rulesets up here; neither knows any rules itself.

use clash_analysis::game_cli;
use clash_analysis::in_play;
use clash_analysis::table_bots::hook;
use clash_core::RulesetEntry;

/// All available rulesets.
pub fn rulesets() -> Vec<RulesetEntry> {
    vec![
        // One line per ruleset crate: its catalogue entry, with everything it offers (rules,
        // forms, board, bots, odds in play and its `clash` subcommands).
        RulesetEntry::with_session_zero::<iron_triangle::IronTriangle>()
            .with_odds(in_play::iron_triangle_hook)
            .with_bots(hook::<iron_triangle::IronTriangle>)
            .with_commands(game_cli::iron::commands()),
        nd_tourists::entry(),
        triforce::entry(),
        wicked_age::entry(),
    ]
}

/// The ruleset called `id`, if Clash has it.
pub fn find(id: &str) -> Option<RulesetEntry> {
    rulesets().into_iter().find(|e| e.id == id)
}
