//! Every table page checks the table itself (docs/verification.md): it loads the page's own
//! verifier and the Fair dice card's glue before the page script (which announces each update
//! to them), for every kind of link, and both scripts are served.

use axum::http::StatusCode;

use crate::client::*;

#[tokio::test]
async fn every_table_page_loads_its_own_verifier_before_the_page_script() {
    let s = server();
    let t = table(&s.app).await;
    for key in [&t.owner, &t.p1, &t.spectator] {
        let (status, page) = api_text(&s.app, routes::TABLE_PAGE.at([&t.id, key])).await;
        assert_eq!(status, StatusCode::OK);
        // Under its hashed name (`verify.0123456789ab.js`, tests/it/delivery.rs).
        let at = |script: &str| {
            let stem = script.trim_end_matches(".js");
            page.find(&format!("<script type=\"module\" src=\"/assets/{stem}."))
                .unwrap_or_else(|| panic!("the page loads {script}"))
        };
        assert!(at("verify.js") < at("fair-check.js") && at("fair-check.js") < at("app.js"));
        assert!(
            page.contains("id=\"fair-check\""),
            "the Fair dice card has its check"
        );
    }
    for (asset, holds) in [
        ("verify.js", "clash-chance-v1"),
        ("fair-check.js", "ClashVerify.verify"),
        ("app.js", "clash:update"),
    ] {
        let (status, body) = api_text(&s.app, routes::ASSET.at([asset])).await;
        assert_eq!(status, StatusCode::OK, "{asset}");
        assert!(body.contains(holds), "{asset} holds {holds}");
    }
}
