//! The per-ruleset panels for N-Dimensional Tourists, In A Wicked Age and Iron Triangle are served as
//! JavaScript (and their stylesheet as CSS), and the table page loads them.

use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use http_body_util::BodyExt;
use tower::ServiceExt;

async fn get(app: &axum::Router, uri: &str) -> (StatusCode, String, String) {
    let req = Request::builder().uri(uri).body(Body::empty()).unwrap();
    let resp = app.clone().oneshot(req).await.unwrap();
    let status = resp.status();
    let kind = resp
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_string();
    let bytes = resp.into_body().collect().await.unwrap().to_bytes();
    (status, kind, String::from_utf8_lossy(&bytes).into_owned())
}

fn app() -> (axum::Router, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let tables = clash_server::open(&dir.path().join("clash.db"), Vec::new()).unwrap();
    (clash_server::app(tables), dir)
}

#[tokio::test]
async fn panel_scripts_are_served_as_javascript_and_register_their_ruleset() {
    let (app, _dir) = app();
    for (asset, id) in [
        ("panel-nd-tourists.js", "nd-tourists"),
        ("panel-wicked-age.js", "wicked-age"),
        ("panel-iron-triangle.js", "iron-triangle"),
    ] {
        let (status, kind, body) = get(&app, &format!("/assets/{asset}")).await;
        assert_eq!(status, StatusCode::OK, "{asset}");
        assert!(
            kind.starts_with("text/javascript"),
            "{asset} served as {kind}"
        );
        assert!(
            body.contains(&format!("register('{id}'")),
            "{asset} registers {id}"
        );
        // Data goes in as text: no innerHTML anywhere in a panel.
        assert!(!body.contains("innerHTML"), "{asset} uses innerHTML");
    }
    // The shared kit every panel builds with: served, and text-only as well.
    let (status, kind, body) = get(&app, "/assets/panel-kit.js").await;
    assert_eq!(status, StatusCode::OK);
    assert!(
        kind.starts_with("text/javascript"),
        "panel-kit.js served as {kind}"
    );
    assert!(body.contains("window.ClashPanelKit") && !body.contains("innerHTML"));
    let (status, kind, _) = get(&app, "/assets/panels-extra.css").await;
    assert_eq!(status, StatusCode::OK);
    assert!(
        kind.starts_with("text/css"),
        "panels-extra.css served as {kind}"
    );
}
