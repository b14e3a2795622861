//! Another site's page cannot change anything: every route of the router, from the routes
//! module the router registers them from rather than listed by hand, refuses a state-changing request that a browser
//! marks as sent from elsewhere (`Sec-Fetch-Site`, or `Origin` against the request's `Host` or
//! the configured public origin) with `403 cross_site`, whatever its body, and the table is as
//! it was; the same requests from the server's own pages, and from programs that are not
//! browsers, still work.

use axum::body::Body;
use axum::http::{Request, StatusCode};
use clash_server::Limits;
use clash_server::config::Origin;
use http_body_util::BodyExt;
use serde_json::Value;
use tower::ServiceExt;

use crate::client::*;
use clash_server::http::routes::Route;

/// The host the in-process requests name.
const HOST: &str = "clash.test";

/// Every path the router serves, one route for each: the routes module's, which is how the
/// router registers them (tests/http.rs checks that the router answers each, and that the
/// server's sources register no path written out by hand).
fn routes() -> Vec<Route> {
    let mut all: Vec<Route> = Vec::new();
    for route in routes::ALL {
        if !all.iter().any(|r| r.path == route.path) {
            all.push(*route);
        }
    }
    all
}

/// A route with its parameters filled in for table `t` (`{key}`: an unused invite, so a page's
/// claim would change the table if it went through), with the GM's key.
fn concrete(route: &Route, t: &Table, invite: &str) -> Href {
    let values: Vec<&str> = route
        .params()
        .map(|p| match p {
            "id" => t.id.as_str(),
            "seat" => "p1",
            "link" => "owner",
            "key" => invite,
            _ => "x",
        })
        .collect();
    route.with(&values).key(&t.owner)
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
    let read = |path: Href| {
        let app = s.app.clone();
        async move { call_json(&app, "GET", &path, None).await.1 }
    };
    (
        read(routes::TABLE_INFO.at([&t.id]).key(&t.owner)).await,
        read(routes::VIEW.at([&t.id]).key(&t.owner).query("after", "0")).await,
        read(routes::EXPORT.at([&t.id]).key(&t.owner)).await,
        s.server.store().count_tables().await.unwrap(),
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
        routes::LOBBY_CREATE,
        routes::CLAIM_FROM_PAGE,
        routes::CREATE_TABLE,
        routes::CLOSE,
        routes::ISSUE_LINK,
        routes::REPLACE_LINK,
        routes::SEAT_BOT,
        routes::COMMAND,
        routes::SWITCH_ODDS,
    ] {
        let found = routes.iter().any(|r| r.path == named.path);
        assert!(found, "{} not found", named.path);
    }
    let mut uris: Vec<String> = routes
        .iter()
        .map(|r| concrete(r, &t, &unused).into_uri())
        .collect();
    // hand-built: a path no route has.
    uris.push(format!("/no/such/page?key={}", t.owner));
    let mut tried = 0;
    for uri in uris {
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
    let close = routes::CLOSE.at([&t.id]).key(&t.owner);
    let same = [("origin", "http://clash.test")];
    let (status, answer) = send(&s.app, "POST", &close, &same, None, "").await;
    assert_eq!(status, StatusCode::NO_CONTENT, "{answer}");
}

#[tokio::test]
async fn the_servers_own_pages_and_programs_still_change_tables() {
    let s = server();
    let t = table(&s.app).await;
    let api = |route: routes::Route| route.at([&t.id]).key(&t.owner);
    let link = routes::ISSUE_LINK.at([&t.id, "p1"]).key(&t.owner);
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
        let (status, link) = send(&s.app, "POST", &link, headers, None, "").await;
        assert_eq!(status, StatusCode::CREATED, "{headers:?}: {link}");
        let (status, _) = send(&s.app, "GET", &api(routes::VIEW), headers, None, "").await;
        assert_eq!(status, StatusCode::OK);
    }
    // Reading is never refused: another site's page cannot read the answer anyway.
    let foreign = FOREIGN[0];
    let (status, _) = send(&s.app, "GET", &api(routes::VIEW), foreign, None, "").await;
    assert_eq!(status, StatusCode::OK);
    let page = [
        ("sec-fetch-site", "same-origin"),
        ("origin", "http://clash.test"),
    ];
    let json = Some("application/json");
    let shuffle = r#"{"command": {"type": "shuffle"}}"#;
    let (status, answer) = send(&s.app, "POST", &api(routes::COMMAND), &page, json, shuffle).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    // The lobby's form creates a table, and the invite page's form claims the seat.
    let count = s.server.store().count_tables().await.unwrap();
    let form = Some("application/x-www-form-urlencoded");
    let (status, _) = send(
        &s.app,
        "POST",
        &routes::LOBBY_CREATE.at([]),
        &page,
        form,
        "preset=sealed-duel%230",
    )
    .await;
    assert_eq!(status, StatusCode::SEE_OTHER);
    assert_eq!(s.server.store().count_tables().await.unwrap(), count + 1);
    let unused = invite(&s.app, &t.id, &t.owner, "p2").await;
    let claim = routes::TABLE_PAGE.at([&t.id, &unused]);
    let (status, _) = send(&s.app, "POST", &claim, &page, form, "").await;
    assert_eq!(status, StatusCode::SEE_OTHER);
    let info = routes::TABLE_INFO.at([&t.id]).key(&t.owner);
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
    let (status, _) = send(&s.app, "POST", &api(routes::CLOSE), &page, None, "").await;
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
    let link = routes::ISSUE_LINK.at([&t.id, "p1"]).key(&t.owner);
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
