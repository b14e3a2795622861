//! The update a page receives is put together field by field (`snapshot.rs`), so its TypeScript
//! declaration (`src/assets/types/Update.ts`, generated from the description in
//! `src/pages/types.rs`) is checked here against real updates: every field a page is sent is
//! declared, and every declared field is sent (optional ones where they apply).

use std::collections::BTreeSet;

use axum::http::StatusCode;
use serde_json::Value;

use crate::client::*;

/// The fields `Update.ts` declares, and which of them are optional (`name?:`).
fn declared() -> (BTreeSet<String>, BTreeSet<String>) {
    let text = include_str!("../../../clash-server/src/assets/types/Update.ts");
    let body = &text[text.find("= {").expect("Update is an object type") + 3..];
    // The fields' doc comments may hold anything: leave them out.
    let mut code = String::new();
    let mut rest = body;
    while let Some(at) = rest.find("/*") {
        code.push_str(&rest[..at]);
        rest = rest[at..].split_once("*/").map_or("", |(_, after)| after);
    }
    code.push_str(rest);
    let (mut all, mut optional) = (BTreeSet::new(), BTreeSet::new());
    for part in code.split([',', '{', '}']) {
        let Some((name, _)) = part.split_once(':') else {
            continue;
        };
        let name = name.trim();
        match name.strip_suffix('?') {
            Some(n) => {
                optional.insert(n.to_string());
                all.insert(n.to_string());
            }
            None => {
                all.insert(name.to_string());
            }
        }
    }
    (all, optional)
}

#[tokio::test]
async fn every_update_has_exactly_the_declared_fields() {
    let (all, optional) = declared();
    let s = server();
    let t = table(&s.app).await;
    for key in [&t.owner, &t.p1, &t.spectator] {
        let (status, update) = api(&s.app, routes::VIEW.at([&t.id]).key(key)).await;
        assert_eq!(status, StatusCode::OK, "{update}");
        let Value::Object(fields) = update else {
            panic!("an update is an object")
        };
        let sent: BTreeSet<String> = fields.keys().cloned().collect();
        let undeclared: Vec<_> = sent.difference(&all).collect();
        assert!(
            undeclared.is_empty(),
            "sent, not in Update.ts: {undeclared:?}"
        );
        let missing: Vec<_> = all
            .difference(&sent)
            .filter(|f| !optional.contains(*f))
            .collect();
        assert!(missing.is_empty(), "in Update.ts, not sent: {missing:?}");
    }
}
