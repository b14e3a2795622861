//! Every table page checks the table itself (docs/verification.md): for every kind of link the
//! Fair dice card names its check's script, which the page script loads once the page has
//! loaded (handing it every update drawn before it came); the check imports the page's own
//! verifier; all three scripts are served.

use axum::http::StatusCode;

use crate::client::*;

#[tokio::test]
async fn every_table_page_loads_its_own_verifier_and_hands_it_every_update() {
    let s = server();
    let t = table(&s.app).await;
    for key in [&t.owner, &t.p1, &t.spectator] {
        let (status, page) = api_text(&s.app, routes::TABLE_PAGE.at([&t.id, key])).await;
        assert_eq!(status, StatusCode::OK);
        // Under its hashed name (`app.0123456789ab.js`, tests/it/delivery.rs).
        assert!(
            // hand-built: the start of a script tag searched for in the page, not a request.
            page.contains("<script type=\"module\" src=\"/assets/app."),
            "the page loads app.js"
        );
        let card = page
            .find("id=\"fair-check\"")
            .expect("the Fair dice card has its check");
        let tag = &page[page[..card].rfind('<').unwrap()..];
        let tag = &tag[..tag.find('>').unwrap()];
        assert!(
            // hand-built: the start of an attribute searched for in the card, not a request.
            tag.contains("data-script=\"/assets/fair-check."),
            "the card names its check's script: {tag}"
        );
    }
    for (asset, holds) in [
        ("verify.js", "clash-chance-v1"),
        ("fair-check.js", "ClashVerify.verify"),
        ("fair-check.js", "/verify."),
        ("app.js", "clash:update"),
        ("app.js", "dataset.script"),
    ] {
        let (status, body) = api_text(&s.app, routes::ASSET.at([asset])).await;
        assert_eq!(status, StatusCode::OK, "{asset}");
        assert!(body.contains(holds), "{asset} holds {holds}");
    }
}
