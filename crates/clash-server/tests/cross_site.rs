//! Another site's page cannot change anything: every route of the router, found by reading the
//! server's source rather than listed by hand, refuses a state-changing request that a browser
//! marks as sent from elsewhere (`Sec-Fetch-Site`, or `Origin` against the request's `Host` or
//! the configured public origin) with `403 cross_site`, whatever its body, and the table is as
//! it was; the same requests from the server's own pages, and from programs that are not
//! browsers, still work.

#[path = "common/client.rs"]
#[allow(dead_code)]
mod client;
mod common;

use std::path::Path;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use clash_server::Limits;
use clash_server::config::Origin;
use http_body_util::BodyExt;
use serde_json::Value;
use tower::ServiceExt;

use client::*;

/// The host the in-process requests name.
const HOST: &str = "clash.test";

/// Every path the router serves: the API's from its generated document (the same annotations
/// route its handlers), the web UI's from the `.route("…", …)` calls in the server's source.
fn routes() -> Vec<String> {
    let mut paths = Vec::new();
    let mut files = vec![Path::new(env!("CARGO_MANIFEST_DIR")).join("src")];
    while let Some(path) = files.pop() {
        if path.is_dir() {
            files.extend(std::fs::read_dir(&path).unwrap().map(|e| e.unwrap().path()));
            continue;
        }
        if path.extension().is_none_or(|e| e != "rs") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        // Routes found any other way would escape this walk.
        assert!(
            !text.contains(".nest(") && !text.contains(".route_service("),
            "{}: teach this walk about nested routers",
            path.display()
        );
        for piece in text.split(".route(").skip(1) {
            if let Some(quoted) = piece.trim_start().strip_prefix('"') {
                paths.push(quoted[..quoted.find('"').unwrap()].to_string());
            }
        }
    }
    let document = clash_server::http::document();
    paths.extend(document.paths.paths.keys().cloned());
    paths.sort();
    paths.dedup();
    paths
}

/// A route's path with its parameters filled in for table `t` (`{key}`: an unused invite, so
/// a page's claim would change the table if it went through).
fn concrete(route: &str, t: &Table, invite: &str) -> String {
    let path = route
        .replace("{id}", &t.id)
        .replace("{seat}", "p1")
        .replace("{link}", "owner")
        .replace("{key}", invite);
    let mut filled = String::new();
    for part in path.split_inclusive('}') {
        filled.push_str(match part.find('{') {
            Some(i) => &part[..i],
            None => part,
        });
        if part.contains('{') {
            filled.push('x');
        }
    }
    format!("{filled}?key={}", t.owner)
}

/// The bodies another site's page can send without asking first: a form, text, a multipart
/// form, nothing. Their fields would do something on most routes.
fn bodies() -> Vec<(Option<&'static str>, &'static str)> {
    vec![
        (
            Some("application/x-www-form-urlencoded"),
            "preset=sealed-duel%230&npc=true&seed=evil&text=hi&title=evil",
        ),
        (
            Some("text/plain"),
            r#"{"command": {"type": "shuffle"}, "npc": true, "seed": "evil", "text": "hi", "ruleset": "sealed-duel"}"#,
        ),
        (
            Some("multipart/form-data; boundary=evil"),
            "--evil\r\nContent-Disposition: form-data; name=\"preset\"\r\n\r\nsealed-duel#0\r\n--evil--\r\n",
        ),
        (None, ""),
    ]
}

/// What browsers send with a request from another site's page (or a page with no origin).
const FOREIGN: [&[(&str, &str)]; 5] = [
    &[
        ("sec-fetch-site", "cross-site"),
        ("origin", "https://evil.example"),
    ],
    &[
        ("sec-fetch-site", "same-site"),
        ("origin", "http://games.clash.test"),
    ],
    // Browsers without Sec-Fetch-Site still send Origin.
    &[("origin", "https://evil.example")],
    &[("origin", "null")],
    // The same host on another port is another origin.
    &[("origin", "http://clash.test:8081")],
];

async fn send(
    app: &axum::Router,
    method: &str,
    uri: &str,
    headers: &[(&str, &str)],
    kind: Option<&str>,
    body: &str,
) -> (StatusCode, Value) {
    let mut request = Request::builder()
        .method(method)
        .uri(uri)
        .header("host", HOST);
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    if let Some(kind) = kind {
        request = request.header("content-type", kind);
    }
    let request = request.body(Body::from(body.to_string())).unwrap();
    let response = app.clone().oneshot(request).await.unwrap();
    let status = response.status();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    let text = String::from_utf8_lossy(&bytes);
    (
        status,
        serde_json::from_str(&text).unwrap_or(Value::String(text.into())),
    )
}

/// Everything the GM's key can read of a table, and how many tables there are.
async fn state(s: &Server, t: &Table) -> (Value, Value, Value, u64) {
    let read = |path: String| {
        let app = s.app.clone();
        async move { call_json(&app, "GET", &path, None).await.1 }
    };
    (
        read(format!("/api/tables/{}?key={}", t.id, t.owner)).await,
        read(format!("/api/tables/{}/view?key={}&after=0", t.id, t.owner)).await,
        read(format!("/api/tables/{}/export?key={}", t.id, t.owner)).await,
        s.tables.store().count_tables().await.unwrap(),
    )
}

#[tokio::test]
async fn every_route_refuses_changes_from_another_sites_page_and_nothing_changes() {
    let s = server();
    let t = table(&s.app).await;
    let unused = invite(&s.app, &t.id, &t.owner, "p2").await;
    let before = state(&s, &t).await;
    let routes = routes();
    for named in [
        "/tables",
        "/t/{id}/{key}",
        "/api/tables",
        "/api/tables/{id}/close",
        "/api/tables/{id}/seats/{seat}/link",
        "/api/tables/{id}/links/{link}",
        "/api/tables/{id}/seats/{seat}/bot",
        "/api/tables/{id}/commands",
        "/api/tables/{id}/odds",
    ] {
        assert!(routes.iter().any(|r| r == named), "{named} not found");
    }
    let mut tried = 0;
    for route in routes.iter().map(String::as_str).chain(["/no/such/page"]) {
        let uri = concrete(route, &t, &unused);
        for method in ["POST", "PUT", "PATCH", "DELETE"] {
            for (kind, body) in bodies() {
                for headers in FOREIGN {
                    let (status, answer) = send(&s.app, method, &uri, headers, kind, body).await;
                    assert_eq!(status, StatusCode::FORBIDDEN, "{method} {uri} {headers:?}");
                    assert_eq!(answer["error"]["code"], "cross_site", "{method} {uri}");
                    tried += 1;
                }
            }
        }
    }
    assert!(tried >= 30 * 4 * 4 * 5, "only {tried} requests");
    assert_eq!(state(&s, &t).await, before, "nothing changed");
    // The same GM link still works from the GM's own page.
    let close = format!("/api/tables/{}/close?key={}", t.id, t.owner);
    let same = [("origin", "http://clash.test")];
    let (status, answer) = send(&s.app, "POST", &close, &same, None, "").await;
    assert_eq!(status, StatusCode::NO_CONTENT, "{answer}");
}

#[tokio::test]
async fn the_servers_own_pages_and_programs_still_change_tables() {
    let s = server();
    let t = table(&s.app).await;
    let api = |path: &str| format!("/api/tables/{}/{path}?key={}", t.id, t.owner);
    let fetch: [&[(&str, &str)]; 5] = [
        &[
            ("sec-fetch-site", "same-origin"),
            ("origin", "http://clash.test"),
        ],
        &[("origin", "http://clash.test")],
        &[("origin", "http://CLASH.test:80")],
        // Typed into the address bar or opened from a bookmark.
        &[("sec-fetch-site", "none")],
        // curl, bots, the tests' own client: no browser, no origin.
        &[],
    ];
    for headers in fetch {
        let (status, link) = send(&s.app, "POST", &api("seats/p1/link"), headers, None, "").await;
        assert_eq!(status, StatusCode::CREATED, "{headers:?}: {link}");
        let (status, _) = send(&s.app, "GET", &api("view"), headers, None, "").await;
        assert_eq!(status, StatusCode::OK);
    }
    // Reading is never refused: another site's page cannot read the answer anyway.
    let foreign = FOREIGN[0];
    let (status, _) = send(&s.app, "GET", &api("view"), foreign, None, "").await;
    assert_eq!(status, StatusCode::OK);
    let page = [
        ("sec-fetch-site", "same-origin"),
        ("origin", "http://clash.test"),
    ];
    let json = Some("application/json");
    let shuffle = r#"{"command": {"type": "shuffle"}}"#;
    let (status, answer) = send(&s.app, "POST", &api("commands"), &page, json, shuffle).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    // The lobby's form creates a table, and the invite page's form claims the seat.
    let count = s.tables.store().count_tables().await.unwrap();
    let form = Some("application/x-www-form-urlencoded");
    let (status, _) = send(
        &s.app,
        "POST",
        "/tables",
        &page,
        form,
        "preset=sealed-duel%230",
    )
    .await;
    assert_eq!(status, StatusCode::SEE_OTHER);
    assert_eq!(s.tables.store().count_tables().await.unwrap(), count + 1);
    let unused = invite(&s.app, &t.id, &t.owner, "p2").await;
    let claim = format!("/t/{}/{unused}", t.id);
    let (status, _) = send(&s.app, "POST", &claim, &page, form, "").await;
    assert_eq!(status, StatusCode::SEE_OTHER);
    let info = format!("/api/tables/{}?key={}", t.id, t.owner);
    let (_, info) = call_json(&s.app, "GET", &info, None).await;
    let p2 = info["seats"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["seat"] == "p2");
    assert_eq!(
        p2.unwrap()["key"],
        Value::Null,
        "the invite was used: {info}"
    );
    let (status, _) = send(&s.app, "POST", &api("close"), &page, None, "").await;
    assert_eq!(status, StatusCode::NO_CONTENT);
}

#[tokio::test]
async fn behind_a_proxy_the_public_origin_is_the_servers_own() {
    let dir = tempfile::tempdir().unwrap();
    let limits = Limits {
        public_origin: Some(Origin::parse("https://clash.example.org").unwrap()),
        ..Limits::default()
    };
    let path = dir.path().join("clash.db");
    let tables = clash_server::open_with(&path, catalogue(), limits).unwrap();
    let app = clash_server::app(tables);
    let t = table(&app).await;
    let link = format!("/api/tables/{}/seats/p1/link?key={}", t.id, t.owner);
    // The proxy passes its own Host; the page's origin is the public one.
    let public = [("origin", "https://clash.example.org")];
    let (status, answer) = send(&app, "POST", &link, &public, None, "").await;
    assert_eq!(status, StatusCode::CREATED, "{answer}");
    // An origin matching the Host is no longer enough: the public origin is the only one.
    let host = [("origin", "http://clash.test")];
    let (status, answer) = send(&app, "POST", &link, &host, None, "").await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    assert_eq!(answer["error"]["code"], "cross_site");
    let http = [("origin", "http://clash.example.org")];
    let (status, _) = send(&app, "POST", &link, &http, None, "").await;
    assert_eq!(
        status,
        StatusCode::FORBIDDEN,
        "another scheme is another origin"
    );
    let fetched = [("sec-fetch-site", "same-origin")];
    let (status, _) = send(&app, "POST", &link, &fetched, None, "").await;
    assert_eq!(status, StatusCode::CREATED);
}
