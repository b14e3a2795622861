//! What wraps every request: an id, a log line (with keys kept out of it), metrics, a time
//! limit, the security headers every answer carries, the refusal of another site's pages
//! ([`same_site`]), and a request body left unread settled before the connection is reused
//! ([`settle_body`]).

use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, LazyLock, Mutex};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use axum::Router;
use axum::body::{Body, Bytes, HttpBody};
use axum::extract::{MatchedPath, Request, State};
use axum::http::{HeaderName, HeaderValue, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use http_body::{Frame, SizeHint};
use tower_http::compression::CompressionLayer;
use tower_http::request_id::{
    MakeRequestId, PropagateRequestIdLayer, RequestId, SetRequestIdLayer,
};
use tower_http::set_header::SetResponseHeaderLayer;
use tower_http::trace::TraceLayer;

use crate::config::{Limits, Origin};
use crate::error::ApiError;
use crate::metrics::Metrics;

/// Pages load their scripts, styles and data from this server only, and no other site may frame
/// them (a framed table page could be clicked through by a hidden overlay). The one inline
/// thing allowed is the app's own style in every page's head, by the hash of its text
/// ([`crate::pages::inline_style_hash`]): a page then paints without first fetching a stylesheet.
pub static CONTENT_SECURITY_POLICY: LazyLock<HeaderValue> = LazyLock::new(|| {
    let policy = format!(
        "default-src 'self'; script-src 'self'; style-src 'self' '{}'; img-src 'self' data:; connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
        crate::pages::inline_style_hash()
    );
    // The hash is base64, so the policy is plain text; were it not, pages would go unstyled
    // rather than unprotected.
    HeaderValue::from_str(&policy).unwrap_or_else(|_| HeaderValue::from_static(STRICT_POLICY))
});

/// The policy without the inline style.
const STRICT_POLICY: &str = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

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
pub fn wrap(app: Router, metrics: Arc<Metrics>, limits: &Limits) -> Router {
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
    let site = Arc::new(Site {
        public: limits.public_origin.clone(),
        metrics: metrics.clone(),
    });
    app.layer(middleware::map_response(crate::view::stream::snug))
        // Pages, scripts, styles and JSON are sent compressed (brotli or gzip, as the browser
        // accepts); the live stream is not (the default predicate leaves `text/event-stream`
        // alone), so each of its frames goes out as soon as it is written.
        .layer(CompressionLayer::new().br(true).gzip(true))
        .layer(middleware::from_fn_with_state(site, same_site))
        .layer(middleware::from_fn_with_state(metrics, observe))
        .layer(SetResponseHeaderLayer::if_not_present(
            header::CONTENT_SECURITY_POLICY,
            CONTENT_SECURITY_POLICY.clone(),
        ))
        .layer(set(header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
        .layer(set(header::X_FRAME_OPTIONS, "DENY"))
        // Links carry keys: no page sends its address to another site.
        .layer(set(header::REFERRER_POLICY, "no-referrer"))
        // Answers are made for one key; nothing in between keeps a copy. (Pages say otherwise
        // for themselves, so the browser's back/forward cache may keep them: `pages::html`.)
        .layer(set(header::CACHE_CONTROL, "no-store"))
        .layer(PropagateRequestIdLayer::new(REQUEST_ID))
        .layer(trace)
        .layer(SetRequestIdLayer::new(REQUEST_ID, RequestIds::new()))
        .layer(middleware::from_fn_with_state(
            limits.body_limit,
            settle_body,
        ))
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

/// What tells this server's own pages from other sites': its public origin, if configured.
pub struct Site {
    pub public: Option<Origin>,
    pub metrics: Arc<Metrics>,
}

/// Refuse a change asked for by another site's page (`403 cross_site`), before anything reads
/// the request. Keys travel in links, not cookies, but a page elsewhere could still make a
/// visitor's browser spend their address's allowance or use a key it has learned.
pub async fn same_site(State(site): State<Arc<Site>>, request: Request, next: Next) -> Response {
    if cross_site(&request, site.public.as_ref()) {
        site.metrics.refuse("cross_site");
        return ApiError::CrossSite.into_response();
    }
    next.run(request).await
}

/// Whether a browser sent this state-changing request from another site's page. Browsers say
/// where a request comes from in `Sec-Fetch-Site`, or (older ones) at least in `Origin` for any
/// method other than GET and HEAD; a request with neither is not from a browser, and a program
/// holding a key could send it anyway.
pub fn cross_site<B>(request: &axum::http::Request<B>, public: Option<&Origin>) -> bool {
    if request.method().is_safe() {
        return false;
    }
    let headers = request.headers();
    if let Some(site) = headers.get("sec-fetch-site") {
        return !matches!(site.as_bytes(), b"same-origin" | b"none");
    }
    let Some(origin) = headers.get(header::ORIGIN) else {
        return false;
    };
    // `null` (a sandboxed or opaque page) is no origin at all.
    let Some(origin) = origin.to_str().ok().and_then(|o| Origin::parse(o).ok()) else {
        return true;
    };
    match public {
        Some(public) => origin != *public,
        None => {
            let host = request
                .uri()
                .authority()
                .map(|a| a.as_str())
                .or_else(|| headers.get(header::HOST).and_then(|h| h.to_str().ok()));
            !host.is_some_and(|h| origin.is_at(h))
        }
    }
}

/// How long a refused request's remaining body is waited for before the connection is closed
/// instead: it is normally on its way already.
const DRAIN_WAIT: Duration = Duration::from_secs(2);

/// A request body that was not read to its end (refused before it was read, or cut off at the
/// size limit) is read and thrown away, up to `limit` bytes and [`DRAIN_WAIT`], so the client's
/// next request on the connection is read from where it starts; when it cannot be (too large,
/// too slow, `Expect: 100-continue`, still held elsewhere), the answer says `Connection: close`
/// and the connection ends after it, rather than ending unannounced under the next request.
pub async fn settle_body(State(limit): State<usize>, request: Request, next: Next) -> Response {
    if !has_body(request.headers()) {
        return next.run(request).await;
    }
    let length = request
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok()?.parse::<usize>().ok());
    let drainable =
        length.is_none_or(|n| n <= limit) && !request.headers().contains_key(header::EXPECT);
    let leftover = Arc::new(Leftover::default());
    let request = request.map(|body| {
        Body::new(Tracked {
            inner: Some(body),
            leftover: leftover.clone(),
        })
    });
    let mut response = next.run(request).await;
    if leftover.finished.load(Ordering::Acquire) {
        return response;
    }
    let unread = leftover
        .unread
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .take();
    let settled = match unread {
        Some(body) if drainable => drain(body, limit).await,
        _ => false,
    };
    if !settled {
        response
            .headers_mut()
            .insert(header::CONNECTION, HeaderValue::from_static("close"));
    }
    response
}

/// Whether the request head announces a body (a length above zero, or chunks).
fn has_body(headers: &axum::http::HeaderMap) -> bool {
    headers.contains_key(header::TRANSFER_ENCODING)
        || headers
            .get(header::CONTENT_LENGTH)
            .is_some_and(|v| v.as_bytes() != b"0")
}

/// Read `body` to its end and drop it; false if it is longer than `limit` or slower than
/// [`DRAIN_WAIT`].
async fn drain(body: Body, limit: usize) -> bool {
    use futures_util::StreamExt;
    let mut chunks = body.into_data_stream();
    let reading = async {
        let mut read = 0;
        while let Some(chunk) = chunks.next().await {
            read += chunk.map_err(|_| ())?.len();
            if read > limit {
                return Err(());
            }
        }
        Ok(())
    };
    matches!(tokio::time::timeout(DRAIN_WAIT, reading).await, Ok(Ok(())))
}

/// What became of a request body: read to its end, or handed back unread when dropped.
#[derive(Default)]
struct Leftover {
    finished: AtomicBool,
    unread: Mutex<Option<Body>>,
}

/// A request body that notes when it has been read to its end, and hands itself back to
/// [`settle_body`] if it is dropped before.
struct Tracked {
    inner: Option<Body>,
    leftover: Arc<Leftover>,
}

impl HttpBody for Tracked {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, axum::Error>>> {
        let Some(inner) = self.inner.as_mut() else {
            return Poll::Ready(None);
        };
        let polled = Pin::new(&mut *inner).poll_frame(cx);
        let ended = match &polled {
            Poll::Ready(None) => true,
            Poll::Ready(Some(Ok(_))) => inner.is_end_stream(),
            _ => false,
        };
        if ended {
            self.leftover.finished.store(true, Ordering::Release);
        }
        polled
    }

    fn is_end_stream(&self) -> bool {
        self.inner.as_ref().is_none_or(HttpBody::is_end_stream)
    }

    fn size_hint(&self) -> SizeHint {
        self.inner
            .as_ref()
            .map_or_else(|| SizeHint::with_exact(0), HttpBody::size_hint)
    }
}

impl Drop for Tracked {
    fn drop(&mut self) {
        if !self.leftover.finished.load(Ordering::Acquire)
            && let Some(body) = self.inner.take()
        {
            *self
                .leftover
                .unread
                .lock()
                .unwrap_or_else(|p| p.into_inner()) = Some(body);
        }
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
