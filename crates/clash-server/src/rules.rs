//! Rules help one tap away: each game's player rules, carried by its ruleset in the catalogue
//! as Markdown, rendered here to HTML (headings get the ids their "Contents" links use), with
//! the game's charts picked out, and a finder from rule IDs (`IT-35`) to the section that
//! explains them, read from the rules' own "Rule finder" table.

use std::collections::BTreeMap;
use std::sync::Arc;

use axum::Router;
use axum::extract::{Path, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use clash_core::RulesetEntry;
use maud::{Markup, PreEscaped, html};
use pulldown_cmark::{CowStr, Event, HeadingLevel, Options, Parser, Tag, TagEnd};
use serde::Serialize;

use crate::error::ApiError;
use crate::server::Server;

/// A heading's id as the rules' own links write it: lower case, words joined by `-`,
/// punctuation dropped ("The move chart" → `the-move-chart`).
pub fn slug(text: &str) -> String {
    let mut out = String::new();
    for c in text.trim().chars() {
        if c.is_alphanumeric() {
            out.extend(c.to_lowercase());
        } else if (c == ' ' || c == '-') && !out.ends_with('-') {
            out.push('-');
        }
    }
    out.trim_matches('-').to_string()
}

fn options() -> Options {
    Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH
}

/// Markdown to HTML, with an id on every heading. Raw HTML in the source is shown as text.
pub fn to_html(markdown: &str) -> String {
    render(markdown, "", 0)
}

/// [`to_html`] with heading ids prefixed and headings `demote` levels lower. The whole rules
/// (no prefix) also get an anchor for each rule they cite, at the start of the first paragraph,
/// list item or table cell that cites it (`id="rule-TF-11"`), so a rule link opens that rule.
fn render(markdown: &str, prefix: &str, demote: usize) -> String {
    let mut events: Vec<Event<'_>> = Vec::new();
    let mut heading: Option<(HeadingLevel, Vec<Event<'_>>, String)> = None;
    let mut anchored = std::collections::BTreeSet::new();
    let mut block = 0;
    for event in Parser::new_ext(markdown, options()) {
        if let Event::Start(Tag::Paragraph | Tag::Item | Tag::TableCell) = &event {
            block = events.len() + 1;
        }
        if let (None, Event::Text(text), "") = (&heading, &event, prefix) {
            for rule in cited(text) {
                if anchored.insert(rule.clone()) {
                    let anchor = format!(
                        "<span class=\"rule-anchor\" id=\"{}\"></span>",
                        anchor(&rule)
                    );
                    events.insert(block.min(events.len()), Event::InlineHtml(anchor.into()));
                }
            }
        }
        match (&mut heading, event) {
            (None, Event::Start(Tag::Heading { level, .. })) => {
                heading = Some((level, Vec::new(), String::new()));
            }
            (Some((level, inner, text)), Event::End(TagEnd::Heading(_))) => {
                let level = HeadingLevel::try_from((*level as usize + demote).min(6))
                    .unwrap_or(HeadingLevel::H6);
                events.push(Event::Start(Tag::Heading {
                    level,
                    id: Some(CowStr::from(format!("{prefix}{}", slug(text)))),
                    classes: Vec::new(),
                    attrs: Vec::new(),
                }));
                events.append(inner);
                events.push(Event::End(TagEnd::Heading(level)));
                heading = None;
            }
            (Some((_, inner, text)), e) => {
                if let Event::Text(t) | Event::Code(t) = &e {
                    text.push_str(t);
                }
                inner.push(e);
            }
            (None, Event::Html(raw) | Event::InlineHtml(raw)) => {
                events.push(Event::Text(raw));
            }
            (None, e) => events.push(e),
        }
    }
    let mut out = String::new();
    pulldown_cmark::html::push_html(&mut out, events.into_iter());
    out
}

/// The Markdown of the section under the heading `title` (to the next heading of its level or
/// higher), heading included; empty if there is none.
pub fn section<'a>(markdown: &'a str, title: &str) -> &'a str {
    let mut start = None;
    let mut depth = 0;
    let mut offset = 0;
    for line in markdown.split_inclusive('\n') {
        let hashes = line.chars().take_while(|c| *c == '#').count();
        let is_heading = hashes > 0 && line[hashes..].starts_with(' ');
        if is_heading {
            match start {
                None if line[hashes..].trim() == title => {
                    start = Some(offset);
                    depth = hashes;
                }
                Some(from) if hashes <= depth => return &markdown[from..offset],
                _ => {}
            }
        }
        offset += line.len();
    }
    start.map_or("", |from| &markdown[from..])
}

/// Rule IDs and the section (heading id) that explains each, from the "Rule finder" table:
/// rows such as `| IT-9 to IT-12 | [Your character](#your-character) |` or `| D-1, D-3 | … |`.
pub fn finder(markdown: &str) -> BTreeMap<String, String> {
    let mut index = BTreeMap::new();
    for row in section(markdown, "Rule finder").lines() {
        let cells: Vec<&str> = row.trim().trim_matches('|').split('|').collect();
        let [rules, target] = cells[..] else { continue };
        let Some(anchor) = target
            .split("](#")
            .nth(1)
            .and_then(|rest| rest.split(')').next())
        else {
            continue;
        };
        for part in rules.split(',') {
            for rule in expand(part.trim()) {
                index.insert(rule, anchor.to_string());
            }
        }
    }
    index
}

/// `IT-9 to IT-12` → IT-9, IT-10, IT-11, IT-12; `D-4` → D-4. Ranges longer than 200 are
/// taken as a typo and give their ends only.
fn expand(part: &str) -> Vec<String> {
    let id = |text: &str| -> Option<(String, u32)> {
        let (prefix, number) = text.trim().rsplit_once('-')?;
        Some((prefix.to_string(), number.parse().ok()?))
    };
    match part.split_once(" to ") {
        Some((a, b)) => match (id(a), id(b)) {
            (Some((p, from)), Some((q, to))) if p == q && from <= to && to - from <= 200 => {
                (from..=to).map(|n| format!("{p}-{n}")).collect()
            }
            _ => vec![a.trim().to_string(), b.trim().to_string()],
        },
        None if id(part).is_some() => vec![part.to_string()],
        None => Vec::new(),
    }
}

/// The rule IDs `text` cites, each once, in order: `IT-35`, `TF-12` (for `TF-12.3`), `D-4`.
/// A rule ID starts a word and ends with its number.
pub fn cited(text: &str) -> Vec<String> {
    const PREFIXES: [&str; 5] = ["IT-", "TF-", "ND-", "WA-", "D-"];
    let bytes = text.as_bytes();
    let mut out: Vec<String> = Vec::new();
    for (at, _) in text.char_indices() {
        if at > 0 && (bytes[at - 1].is_ascii_alphanumeric() || bytes[at - 1] == b'-') {
            continue;
        }
        let Some(prefix) = PREFIXES.iter().find(|p| text[at..].starts_with(**p)) else {
            continue;
        };
        let digits = text[at + prefix.len()..]
            .bytes()
            .take_while(u8::is_ascii_digit)
            .count();
        let end = at + prefix.len() + digits;
        let ends_word = bytes.get(end).is_none_or(|b| !b.is_ascii_alphanumeric());
        let rule = &text[at..end];
        if digits > 0 && ends_word && !out.iter().any(|r| r == rule) {
            out.push(rule.to_string());
        }
    }
    out
}

/// The id of the anchor the whole rules carry for `rule`.
fn anchor(rule: &str) -> String {
    format!("rule-{rule}")
}

/// Every rule the rules' text cites (outside headings), each with its own anchor.
fn anchors(markdown: &str) -> BTreeMap<String, String> {
    let mut in_heading = false;
    let mut out = BTreeMap::new();
    for event in Parser::new_ext(markdown, options()) {
        match event {
            Event::Start(Tag::Heading { .. }) => in_heading = true,
            Event::End(TagEnd::Heading(_)) => in_heading = false,
            Event::Text(t) if !in_heading => {
                for rule in cited(&t) {
                    out.entry(rule.clone()).or_insert_with(|| anchor(&rule));
                }
            }
            _ => {}
        }
    }
    out
}

/// What a table page needs to link refusals to the rules.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Debug, Clone, Serialize)]
pub struct RulesLinks {
    /// Where the rules are read.
    pub url: String,
    /// Rule ID → the id to open: the rule's own anchor where the rules cite it, else the
    /// heading of the section the rule finder names.
    pub finder: BTreeMap<String, String>,
}

/// The links for `entry`'s rules, if it has any.
pub fn links(entry: &RulesetEntry) -> Option<RulesLinks> {
    (!entry.rules.markdown.is_empty()).then(|| RulesLinks {
        url: format!("/rules/{}", entry.id),
        finder: {
            let mut map = finder(entry.rules.markdown);
            map.extend(anchors(entry.rules.markdown));
            map
        },
    })
}

/// Rules rendered from the catalogue's Markdown: trusted text (raw HTML in it is shown as text,
/// see [`render`]), so the one place besides start-up data where a page takes markup as it is.
fn markdown(markdown: &str, prefix: &str, demote: usize) -> Markup {
    PreEscaped(render(markdown, prefix, demote))
}

/// The charts and the whole rules as one HTML fragment: the charts first, then the rules.
pub fn fragment(entry: &RulesetEntry) -> Markup {
    let md = entry.rules.markdown;
    let charts = entry
        .rules
        .charts
        .iter()
        .map(|title| section(md, title))
        .filter(|part| !part.is_empty());
    html! {
        nav .rules-nav { a href="#rules-charts" { "Charts" } " · " a href="#rules-full" { "All the rules" } }
        section #rules-charts {
            h2 { "Charts" }
            // The chart's headings sit under "Charts", with ids apart from the same headings
            // in the full rules below.
            @for part in charts {
                section .chart { (markdown(part, "chart-", 1)) }
            }
        }
        section #rules-full { (markdown(md, "", 0)) }
    }
}

async fn page(State(server): State<Arc<Server>>, Path(id): Path<String>) -> Response {
    let id = id.strip_suffix(".html").unwrap_or(&id).to_string();
    let Some(entry) = server.entry(&id).filter(|e| !e.rules.markdown.is_empty()) else {
        return ApiError::NotFound.into_response();
    };
    let body = html! { main .narrow .rules { (fragment(&entry)) } };
    let title = format!("{}: rules — Clash", entry.name);
    crate::pages::html(crate::pages::page(&title, body))
}

/// The rules as a fragment, for the table page's rules sheet.
async fn part(State(server): State<Arc<Server>>, Path(id): Path<String>) -> Response {
    match server.entry(&id).filter(|e| !e.rules.markdown.is_empty()) {
        Some(entry) => (
            [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
            fragment(&entry).into_string(),
        )
            .into_response(),
        None => ApiError::NotFound.into_response(),
    }
}

/// The rules pages, sharing the tables with the rest of the application.
pub fn routes() -> Router<Arc<Server>> {
    Router::new()
        .route(crate::http::routes::RULES.path, get(page))
        .route(crate::http::routes::RULES_PART.path, get(part))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headings_get_the_ids_their_links_use() {
        let html = to_html("## The move chart\n\nText (IT-3).\n\n### Swords & shields\n");
        assert!(
            html.contains("<h2 id=\"the-move-chart\">The move chart</h2>"),
            "{html}"
        );
        assert!(html.contains("<h3 id=\"swords-shields\">"), "{html}");
    }

    #[test]
    fn raw_html_in_the_rules_is_shown_as_text() {
        let html = to_html("Hello <script>alert(1)</script>\n");
        assert!(!html.contains("<script>"), "{html}");
    }

    #[test]
    fn a_section_runs_to_the_next_heading_of_its_level() {
        let md = "# T\n## A\na\n### A1\nx\n## B\nb\n";
        assert_eq!(section(md, "A"), "## A\na\n### A1\nx\n");
        assert_eq!(section(md, "B"), "## B\nb\n");
        assert_eq!(section(md, "C"), "");
    }

    #[test]
    fn the_rule_finder_maps_ranges_and_lists() {
        let md = "## Rule finder\n\n| Rules | Section |\n|---|---|\n| IT-9 to IT-12 | [Your character](#your-character) |\n| D-1, D-3 | [Who wins](#who-wins) |\n";
        let f = finder(md);
        assert_eq!(f.get("IT-10").map(String::as_str), Some("your-character"));
        assert_eq!(f.get("IT-12").map(String::as_str), Some("your-character"));
        assert_eq!(f.get("D-3").map(String::as_str), Some("who-wins"));
        assert_eq!(f.get("D-2"), None);
        assert_eq!(f.get("Rules"), None);
    }

    #[test]
    fn rule_ids_are_found_where_they_start_a_word() {
        assert_eq!(
            cited("Play starts (TF-11); each turn (TF-12.3, D-4). ND-2 not AND-3 or IT-4b."),
            vec!["TF-11", "TF-12", "D-4", "ND-2"]
        );
    }

    #[test]
    fn a_rule_link_opens_the_paragraph_that_cites_it() {
        let md = "## Turns\n\nIntro.\n\nPlay goes clockwise (TF-11).\n\n- Then **place** (TF-14), again (TF-11).\n";
        let html = to_html(md);
        assert!(
            html.contains("<p><span class=\"rule-anchor\" id=\"rule-TF-11\"></span>Play goes"),
            "{html}"
        );
        assert!(
            html.contains("<li><span class=\"rule-anchor\" id=\"rule-TF-14\"></span>Then"),
            "{html}"
        );
        assert_eq!(html.matches("rule-TF-11").count(), 1, "{html}");
        assert_eq!(
            anchors(md).get("TF-14").map(String::as_str),
            Some("rule-TF-14")
        );
    }
}
