//! Every ruleset Clash can play, by name.
//!
//! The CLI and the table server look rulesets up here; neither knows any rules itself.

use clash_core::RulesetEntry;

/// All available rulesets.
pub fn rulesets() -> Vec<RulesetEntry> {
    vec![
        // One line per ruleset crate: RulesetEntry::of::<crate::Ruleset>(),
        RulesetEntry::of::<iron_triangle::IronTriangle>(),
        RulesetEntry::of::<nd_tourists::NdTourists>(),
        RulesetEntry::of::<triforce::Triforce>(),
        RulesetEntry::of::<wicked_age::WickedAge>(),
    ]
}

/// The ruleset called `id`, if Clash has it.
pub fn find(id: &str) -> Option<RulesetEntry> {
    rulesets().into_iter().find(|e| e.id == id)
}
