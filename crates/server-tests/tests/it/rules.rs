//! Every game in the catalogue comes with its rules, the charts its pages name, and a rule
//! finder whose every section is a heading of the rules.

use clash_server::rules::{links, section, to_html};

#[test]
fn every_game_in_the_catalogue_has_rules_charts_and_a_finder() {
    for entry in clash_catalogue::rulesets() {
        let links = links(&entry).unwrap_or_else(|| panic!("{} has no rules", entry.id));
        assert!(links.finder.len() > 10, "{}: {:?}", entry.id, links.finder);
        for chart in entry.rules.charts {
            assert!(
                !section(entry.rules.markdown, chart).is_empty(),
                "{}: no section {chart:?}",
                entry.id
            );
        }
        // Every section the finder points at is a heading of the rules.
        let html = to_html(entry.rules.markdown);
        for anchor in links.finder.values() {
            assert!(
                html.contains(&format!("id=\"{anchor}\"")),
                "{}: #{anchor}",
                entry.id
            );
        }
    }
}
