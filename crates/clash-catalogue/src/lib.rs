//! Every ruleset Clash can play, by name.
//!
//! The CLI and the table server look rulesets up here; neither knows any rules itself.

use clash_analysis::in_play;
use clash_analysis::table_bots::hook;
use clash_core::RulesetEntry;

/// All available rulesets.
pub fn rulesets() -> Vec<RulesetEntry> {
    vec![
        // One line per ruleset crate: RulesetEntry::of::<crate::Ruleset>() (or
        // with_session_zero, for a ruleset whose tables are made by form), with the analysis
        // crate's odds in play and table bots where it has them.
        RulesetEntry::with_session_zero::<iron_triangle::IronTriangle>()
            .with_odds(in_play::iron_triangle)
            .with_bots(hook::<iron_triangle::IronTriangle>),
        RulesetEntry::with_session_zero::<nd_tourists::NdTourists>()
            .with_odds(in_play::nd_tourists)
            .with_bots(hook::<nd_tourists::NdTourists>),
        RulesetEntry::with_session_zero::<triforce::Triforce>()
            .with_odds(in_play::triforce)
            .with_bots(hook::<triforce::Triforce>),
        RulesetEntry::with_session_zero::<wicked_age::WickedAge>()
            .with_odds(in_play::wicked_age)
            .with_bots(hook::<wicked_age::WickedAge>),
    ]
}

/// The ruleset called `id`, if Clash has it.
pub fn find(id: &str) -> Option<RulesetEntry> {
    rulesets().into_iter().find(|e| e.id == id)
}
