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
        morra::entry(),
        nd_tourists::entry(),
        triforce::entry(),
        wicked_age::entry(),
    ]
}

/// The rulesets a table server offers: every one, examples included only when `examples` is
/// true ([`RulesetEntry::example`]). A server started without examples knows nothing of them:
/// its lobby and `/api/rulesets` leave them out, and a table of one is refused as an unknown
/// ruleset (tables made while examples were enabled open again once they are).
pub fn served(examples: bool) -> Vec<RulesetEntry> {
    rulesets()
        .into_iter()
        .filter(|e| examples || !e.example)
        .collect()
}

/// The ruleset called `id`, if Clash has it.
pub fn find(id: &str) -> Option<RulesetEntry> {
    rulesets().into_iter().find(|e| e.id == id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_server_offers_examples_only_when_they_are_enabled() {
        let ids = |entries: Vec<RulesetEntry>| -> Vec<&'static str> {
            entries.iter().map(|e| e.id).collect()
        };
        let all = ids(rulesets());
        assert_eq!(ids(served(true)), all);
        let games: Vec<&str> = rulesets()
            .iter()
            .filter(|e| !e.example)
            .map(|e| e.id)
            .collect();
        assert_eq!(ids(served(false)), games);
        assert!(
            !games.is_empty(),
            "the games people play are always offered"
        );
    }
}
