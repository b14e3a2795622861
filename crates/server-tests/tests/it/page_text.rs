//! Property (issue 26, hole 2): any text a person may type — in the table's name, a line of
//! talk, a whisper either way — leaves every kind of page whole. The page's start-up data
//! still reads back as JSON holding the text unchanged, the text shows as text, and no element
//! is added to the page. Before, a line holding `<!--` broke every page of its table for good.

use crate::client::*;
use axum::Router;
use axum::http::StatusCode;
use proptest::prelude::*;
use scraper::{Html, Selector};
use serde_json::{Value, json};

/// Text people may type: markup, comment openers, quotes, ampersands and any printable
/// character of any script, in any order (control characters are refused when sent).
fn typed() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        Just("<!--".to_string()),
        Just("-->".to_string()),
        Just("</script>".to_string()),
        Just("<script>alert(1)</script>".to_string()),
        Just("<img src=x onerror=alert(1)>".to_string()),
        Just("&amp; & \" ' `".to_string()),
        Just("\u{2028}".to_string()),
        "\\PC{1,6}",
    ];
    proptest::collection::vec(piece, 1..5)
        .prop_map(|pieces| pieces.concat().trim().to_string())
        .prop_filter("not empty", |t| !t.is_empty())
        .prop_map(|t| t.chars().take(100).collect::<String>().trim().to_string())
        .prop_filter("not empty", |t| !t.is_empty())
}

/// Every page of one table, by name.
struct Pages {
    gm: String,
    player: String,
    spectator: String,
    invite: String,
}

/// `text` as a table's name may hold it: without the characters names refuse (format and
/// separator characters, blank fillers: rule N-1), which talk keeps.
fn as_name(text: &str) -> String {
    let shows = |c: &char| clash_core::text::plain_name("a name", &c.to_string()).is_ok();
    let name: String = text.chars().filter(shows).collect();
    match name.trim() {
        "" => "A table".to_string(),
        name => name.to_string(),
    }
}

async fn table_with(app: &Router, text: &str) -> Pages {
    let (status, created) = api(
        app,
        routes::CREATE_TABLE.at([]).json(&CreateTable {
            ruleset: Some(String::from("sealed-duel")),
            title: Some(as_name(text)),
            ..CreateTable::default()
        }),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    let id = created["table"].as_str().unwrap().to_string();
    let owner = created["owner_key"].as_str().unwrap().to_string();
    let spectator = created["spectator_key"].as_str().unwrap().to_string();
    let p1 = claim(app, &id, &invite(app, &id, &owner, "p1").await).await;
    let unused = invite(app, &id, &owner, "p2").await;
    let chat = |key: &str, body: Value| {
        let uri = routes::CHAT.at([&id]).key(key);
        async move {
            let (status, answer) = call_json(app, "POST", &uri, Some(body)).await;
            assert_eq!(status, StatusCode::NO_CONTENT, "{answer}");
        }
    };
    chat(&p1, json!({ "text": text })).await;
    chat(&p1, json!({ "text": text, "to_gm": true })).await;
    chat(&owner, json!({ "text": text, "to": "p1" })).await;
    let page = |key: &str| routes::TABLE_PAGE.at([&id, key]).into_uri();
    Pages {
        gm: page(&owner),
        player: page(&p1),
        spectator: page(&spectator),
        invite: page(&unused),
    }
}

/// The page's elements, by tag and id, in order: what the text must not change.
fn shape(html: &Html) -> Vec<String> {
    html.root_element()
        .descendants()
        .filter_map(scraper::ElementRef::wrap)
        .map(|e| {
            format!(
                "{}#{}",
                e.value().name(),
                e.value().id().unwrap_or_default()
            )
        })
        .collect()
}

/// The page's start-up data, which must read back as JSON.
fn boot(html: &Html) -> Option<Value> {
    let selector = Selector::parse("script#boot").unwrap();
    let script = html.select(&selector).next()?;
    let text: String = script.text().collect();
    Some(serde_json::from_str(&text).expect("the start-up data reads back as JSON"))
}

async fn get(app: &Router, uri: &str) -> Html {
    let (status, body) = call(app, "GET", uri, None).await;
    assert_eq!(status, StatusCode::OK, "{uri}: {body}");
    Html::parse_document(&body)
}

async fn check(text: String) {
    let s = server();
    let plain = table_with(&s.app, "plain words").await;
    let typed = table_with(&s.app, &text).await;
    let kinds = [
        ("GM", &plain.gm, &typed.gm),
        ("player", &plain.player, &typed.player),
        ("spectator", &plain.spectator, &typed.spectator),
        ("invite", &plain.invite, &typed.invite),
    ];
    for (kind, plain_uri, typed_uri) in kinds {
        let (plain_page, typed_page) = (get(&s.app, plain_uri).await, get(&s.app, typed_uri).await);
        assert_eq!(
            shape(&plain_page),
            shape(&typed_page),
            "{kind} page with {text:?}"
        );
        let Some(data) = boot(&typed_page) else {
            // The invite page has no start-up data: the table's name shows as text.
            let shown: String = typed_page.root_element().text().collect();
            assert!(
                shown.contains(&as_name(&text)),
                "{kind} page shows {text:?} as text"
            );
            continue;
        };
        assert_eq!(
            data["update"]["title"],
            as_name(&text),
            "{kind} page's title"
        );
        let lines: Vec<&str> = data["update"]["events"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|e| e["table"]["text"].as_str())
            .collect();
        let expected = match kind {
            "GM" | "player" => 3,
            _ => 1,
        };
        assert_eq!(
            lines.iter().filter(|l| **l == text).count(),
            expected,
            "{kind} page reads the talk it may read, unchanged"
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn any_typed_text_leaves_every_page_whole(text in typed()) {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap()
            .block_on(check(text));
    }
}
