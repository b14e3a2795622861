//! What wraps every request: an id, a log line (with keys kept out of it), metrics, a time
//! limit, and the security headers every answer carries.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use axum::Router;
use axum::extract::{MatchedPath, Request, State};
use axum::http::{HeaderName, HeaderValue, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use tower_http::request_id::{
    MakeRequestId, PropagateRequestIdLayer, RequestId, SetRequestIdLayer,
};
use tower_http::set_header::SetResponseHeaderLayer;
use tower_http::trace::TraceLayer;

use crate::error::ApiError;
use crate::metrics::Metrics;

/// Pages load their scripts, styles and data from this server only, and no other site may frame
/// them (a framed table page could be clicked through by a hidden overlay).
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

const REQUEST_ID: HeaderName = HeaderName::from_static("x-request-id");

/// Request ids: a random start, then counting, so ids are unique and cheap.
#[derive(Clone)]
pub struct RequestIds(Arc<AtomicU64>);

impl RequestIds {
    pub fn new() -> RequestIds {
        let mut seed = [0u8; 8];
        // Only uniqueness within a run matters; a failed draw just starts at zero.
        let _ = getrandom::fill(&mut seed);
        RequestIds(Arc::new(AtomicU64::new(u64::from_le_bytes(seed) >> 16)))
    }
}

impl Default for RequestIds {
    fn default() -> Self {
        Self::new()
    }
}

impl MakeRequestId for RequestIds {
    fn make_request_id<B>(&mut self, _request: &axum::http::Request<B>) -> Option<RequestId> {
        let n = self.0.fetch_add(1, Ordering::Relaxed);
        HeaderValue::from_str(&format!("{n:012x}"))
            .ok()
            .map(RequestId::new)
    }
}

/// A path as it may be logged: the key in a page link (`/t/{table}/{key}`) is cut off. Query
/// strings are never logged (they may carry `?key=`).
pub fn loggable_path(path: &str) -> String {
    match path.strip_prefix("/t/") {
        Some(rest) => match rest.split_once('/') {
            Some((table, _)) => format!("/t/{table}/…"),
            None => path.to_string(),
        },
        None => path.to_string(),
    }
}

/// Wrap the whole application: the outermost layer runs first.
pub fn wrap(app: Router, metrics: Arc<Metrics>) -> Router {
    let trace = TraceLayer::new_for_http()
        .make_span_with(|request: &axum::http::Request<_>| {
            let id = request
                .headers()
                .get(&REQUEST_ID)
                .and_then(|v| v.to_str().ok())
                .unwrap_or("-");
            tracing::info_span!(
                "request",
                id,
                method = %request.method(),
                path = %loggable_path(request.uri().path()),
            )
        })
        .on_request(())
        .on_response(
            |response: &Response, latency: Duration, _span: &tracing::Span| {
                tracing::info!(
                    status = response.status().as_u16(),
                    ms = latency.as_secs_f64() * 1000.0,
                    "answered"
                );
            },
        )
        .on_body_chunk(())
        .on_eos(())
        .on_failure(());
    let set = |name: HeaderName, value: &'static str| {
        SetResponseHeaderLayer::if_not_present(name, HeaderValue::from_static(value))
    };
    app.layer(middleware::from_fn_with_state(metrics, observe))
        .layer(set(
            header::CONTENT_SECURITY_POLICY,
            CONTENT_SECURITY_POLICY,
        ))
        .layer(set(header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
        .layer(set(header::X_FRAME_OPTIONS, "DENY"))
        // Links carry keys: no page sends its address to another site.
        .layer(set(header::REFERRER_POLICY, "no-referrer"))
        // Answers are made for one key; nothing in between keeps a copy.
        .layer(set(header::CACHE_CONTROL, "no-store"))
        .layer(PropagateRequestIdLayer::new(REQUEST_ID))
        .layer(trace)
        .layer(SetRequestIdLayer::new(REQUEST_ID, RequestIds::new()))
}

/// Count the request by its route and time it (a live stream's time is its whole life, so it
/// is counted but not timed).
async fn observe(State(metrics): State<Arc<Metrics>>, request: Request, next: Next) -> Response {
    let route = request
        .extensions()
        .get::<MatchedPath>()
        .map_or("unmatched", MatchedPath::as_str)
        .to_string();
    let method = request.method().to_string();
    let started = Instant::now();
    let response = next.run(request).await;
    let streaming = route.ends_with("/stream");
    metrics.observe_request(
        &method,
        &route,
        response.status().as_u16(),
        (!streaming).then(|| started.elapsed()),
    );
    response
}

/// End a request that takes longer than `limit` with a clear 503. The work it started goes on
/// where it must (a command being committed is finished by its own task: see `api`).
pub async fn time_limit(State(limit): State<Duration>, request: Request, next: Next) -> Response {
    match tokio::time::timeout(limit, next.run(request)).await {
        Ok(response) => response,
        Err(_) => ApiError::timeout(limit).into_response(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn page_keys_never_reach_the_log() {
        assert_eq!(
            loggable_path("/t/0a1b2c3d4e5f/00112233445566778899aabbccddeeff"),
            "/t/0a1b2c3d4e5f/…"
        );
        assert_eq!(
            loggable_path("/api/tables/0a1b2c3d4e5f/view"),
            "/api/tables/0a1b2c3d4e5f/view"
        );
    }
}
