//! Every answer the tests get is checked against the API document: its status must be one the
//! operation documents, and a refusal's code one of those the document lists for that status.
//! So a route that answers a status or a code its contract does not name fails whichever test
//! meets it, with a message saying where to name it. Pages, assets and methods a route does
//! not have are not part of the document and are not checked.

use std::sync::OnceLock;

use axum::http::StatusCode;
use clash_server::http::routes::Route;
use serde_json::Value;

fn document() -> &'static Value {
    static DOCUMENT: OnceLock<Value> = OnceLock::new();
    DOCUMENT.get_or_init(clash_server::http::document)
}

/// Panics, saying what to do, when the answer to `method uri` is not one its document lists.
pub fn check(method: &str, uri: &str, status: StatusCode, body: &str) {
    let Some(template) = Route::template_of(uri) else {
        return;
    };
    let method = method.to_ascii_lowercase();
    let Some(operation) = document()["paths"][template].get(&method) else {
        return;
    };
    let at = format!("{} {template}", method.to_uppercase());
    let answer = &operation["responses"][status.as_str()];
    assert!(
        answer.is_object(),
        "{at} answered {status} ({body}), which its API document does not list: name the refusal in the operation's contract (the `x-clash` extension of its #[utoipa::path] annotation; see crates/clash-server/src/http/contract.rs)"
    );
    if !status.is_client_error() && !status.is_server_error() {
        return;
    }
    let code = serde_json::from_str::<Value>(body).ok();
    let code = code.as_ref().and_then(|b| b["error"]["code"].as_str());
    // What the connection answers before the request is read has no code (see the document).
    let plain = answer["content"].get("application/json").is_none()
        || answer["content"].get("text/plain").is_some();
    if code.is_none() && plain {
        return;
    }
    let schema = &answer["content"]["application/json"]["schema"]["allOf"][1];
    let listed = &schema["properties"]["error"]["properties"]["code"]["enum"];
    let listed: Vec<&str> = listed
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    assert!(
        code.is_some_and(|c| listed.contains(&c)),
        "{at} answered {status} with code {code:?} ({body}), but its API document lists only {listed:?} for {status}: name the refusal in the operation's contract (the `x-clash` extension of its #[utoipa::path] annotation; see crates/clash-server/src/http/contract.rs)"
    );
}
