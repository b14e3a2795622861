//! Every ruleset Clash can play, by name.
//!
//! The CLI and the table server look rulesets up here; neither knows any rules itself.

use clash_analysis::in_play;
use clash_core::RulesetEntry;

/// All available rulesets.
pub fn rulesets() -> Vec<RulesetEntry> {
    vec![
        // One line per ruleset crate: RulesetEntry::of::<crate::Ruleset>() (or
        // with_session_zero, for a ruleset whose tables are made by form), with the analysis
        // crate's odds in play where it has them.
        RulesetEntry::with_session_zero::<iron_triangle::IronTriangle>()
            .with_odds(in_play::iron_triangle),
        RulesetEntry::with_session_zero::<nd_tourists::NdTourists>()
            .with_odds(in_play::nd_tourists),
        RulesetEntry::with_session_zero::<triforce::Triforce>().with_odds(in_play::triforce),
        RulesetEntry::with_session_zero::<wicked_age::WickedAge>().with_odds(in_play::wicked_age),
    ]
}

/// The ruleset called `id`, if Clash has it.
pub fn find(id: &str) -> Option<RulesetEntry> {
    rulesets().into_iter().find(|e| e.id == id)
}
