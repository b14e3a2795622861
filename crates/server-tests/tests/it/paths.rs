//! Paths come from one place, the routes module (`clash_server::http::routes`): the router
//! registers them from it, the server makes its links from it, and the tests build every
//! request from it (`ROUTE.at([…]).key(…)`, see tests/it/common/client.rs). These tests keep it
//! so, and say what to do when a change does not.

use std::path::{Path, PathBuf};

use axum::http::StatusCode;

use crate::client::*;

/// Every `.rs` file under `dir`.
fn sources(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// The server registers routes only from the routes module: no path written out in a
/// `.route(…)` call or a `#[utoipa::path(…)]` annotation, and no router nested under a prefix
/// (whose paths the module would not hold).
#[test]
fn the_server_registers_only_the_routes_modules_paths() {
    let mut found = Vec::new();
    for file in sources(&Path::new(crate::SERVER).join("src")) {
        let text = std::fs::read_to_string(&file).unwrap();
        for (n, line) in text.lines().enumerate() {
            let literal = line.contains(".route(\"") || line.contains("path = \"/");
            if literal || line.contains(".nest(") || line.contains(".route_service(") {
                let file = file.strip_prefix(crate::SERVER).unwrap_or(&file).display();
                found.push(format!("clash-server/{file}:{}: {}", n + 1, line.trim()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "paths written out by hand in the server:\n{}\nadd the route to crates/clash-server/src/http/routes.rs (and to its ALL), then register it with `.route(routes::NAME.path, …)` or annotate its handler with `path = routes::NAME.path`",
        found.join("\n")
    );
}

/// What a request path written by hand looks like in a test: a `format!` of a path, a raw
/// request line, or a literal path of one of the server's routes.
fn hand_built(line: &str) -> bool {
    const STARTS: [&str; 9] = [
        "\"/api/",
        "\"/t/",
        "\"/tables",
        "\"/healthz",
        "\"/metrics",
        "\"/assets/",
        "\"/rules/",
        "\"/mail/",
        "\"/\"",
    ];
    let code = line.split("//").next().unwrap_or_default();
    let literal = STARTS.iter().any(|s| {
        code.match_indices(s).any(|(i, _)| {
            let rest = &code[i + 1..];
            let end = rest.find('"').unwrap_or(rest.len());
            // A template (`/api/tables/{id}`) names a route; it is no request.
            !rest[..end].contains('{') || rest[..end].contains("{}")
        })
    });
    let head = ["\"GET /", "\"POST /", "\"PUT /", "\"DELETE /", "b\"GET /"];
    literal || code.contains("format!(\"/") || head.iter().any(|h| code.contains(h))
}

/// The tests build every request path from the routes module. A path written out by hand (a
/// path no route has, on purpose) says so with a `// hand-built: why` comment on the line
/// before it or on it.
#[test]
fn the_tests_build_no_request_path_by_hand() {
    let tests = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let mut found = Vec::new();
    for file in sources(&tests) {
        if file.ends_with("paths.rs") {
            continue;
        }
        let text = std::fs::read_to_string(&file).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        for (n, line) in lines.iter().enumerate() {
            let marked = |l: &str| l.contains("// hand-built:");
            let excused = marked(line) || (n > 0 && marked(lines[n - 1]));
            if hand_built(line) && !excused {
                let file = file.strip_prefix(&tests).unwrap_or(&file).display();
                found.push(format!("tests/{file}:{}: {}", n + 1, line.trim()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "request paths written out by hand:\n{}\nbuild them from the routes module: `routes::NAME.at([&t.id]).key(&key)` (add the route to crates/clash-server/src/http/routes.rs if it is new), and send them with `api(&app, …)` (tests/it/common/client.rs); a path no route has, on purpose, gets a `// hand-built: why` comment",
        found.join("\n")
    );
}

#[test]
fn the_scan_knows_a_hand_built_path_from_a_built_one() {
    for hand in [
        r#"call(&app, "GET", &format!("/api/tables/{id}/view?key={k}"), None)"#,
        r#"let uri = "/healthz";"#,
        r#"request(addr, "POST", "/api/tables", None)"#,
        r#"w.write_all(b"GET /healthz HTTP/1.1\r\n")"#,
        r#"format!("POST /api/tables/{id}/close HTTP/1.1")"#,
    ] {
        assert!(hand_built(hand), "{hand}");
    }
    for built in [
        r#"api(&app, routes::VIEW.at([&t.id]).key(&t.p1))"#,
        r#"assert!(doc["paths"]["/api/tables/{id}"].is_object())"#,
        r#"let lines = format!("{uri}?key=nokey"); // "/api/tables" in a comment"#,
    ] {
        assert!(!hand_built(built), "{built}");
    }
}

/// The router answers every route of the routes module with its own handler: never `405` for
/// the route's method, and never the fallback's `not_found` for an API route.
#[tokio::test]
async fn the_router_answers_every_route_of_the_routes_module() {
    let s = server();
    let t = table(&s.app).await;
    for route in routes::ALL {
        if *route == routes::STREAM {
            continue; // a live stream never ends by itself; tests/http.rs streams elsewhere
        }
        let values: Vec<&str> = route
            .params()
            .map(|p| match (p, route.path) {
                ("id", path) if path.starts_with("/rules/") => "sealed-duel",
                ("id", _) => t.id.as_str(),
                ("key", _) => t.spectator.as_str(),
                ("seat", _) => "p1",
                ("link", _) => "spectator",
                ("name", _) => "app.js",
                ("file", _) => "kit.js",
                _ => "x",
            })
            .collect();
        let href = route.with(&values).key("nokey");
        let (status, body) = api_text(&s.app, href).await;
        let at = format!("{} {}", route.verb.as_str(), route.path);
        assert_ne!(status, StatusCode::METHOD_NOT_ALLOWED, "{at}: {body}");
        if route.face == routes::Face::Api {
            assert!(
                !body.contains("\"not_found\""),
                "{at} is not routed: {body}"
            );
        }
    }
}

/// The check every answer goes through: an answer its document lists passes; a status or a
/// code it does not list fails, saying where to name it.
#[test]
fn an_answer_the_document_does_not_list_fails_with_what_to_do() {
    let close = "/api/tables/t1/close?key=k";
    let refusal =
        |code: &str| format!(r#"{{"error": {{"code": "{code}", "message": "", "rule": null}}}}"#);
    crate::conformance::check("POST", close, StatusCode::NO_CONTENT, "");
    crate::conformance::check("POST", close, StatusCode::CONFLICT, &refusal("closed"));
    // Pages and methods a route does not have are not part of the document.
    crate::conformance::check("GET", "/t/t1/k", StatusCode::IM_A_TEAPOT, "");
    crate::conformance::check("PATCH", close, StatusCode::METHOD_NOT_ALLOWED, "");
    for (status, body) in [
        (StatusCode::IM_A_TEAPOT, String::new()),
        (StatusCode::CONFLICT, refusal("seat_taken")),
        (StatusCode::CONFLICT, "not json".to_string()),
    ] {
        let failed = std::panic::catch_unwind(|| {
            crate::conformance::check("POST", close, status, &body);
        });
        let message = failed.expect_err("refused").downcast::<String>().unwrap();
        assert!(message.contains("POST /api/tables/{id}/close"), "{message}");
        assert!(message.contains("contract"), "{message}");
    }
}
