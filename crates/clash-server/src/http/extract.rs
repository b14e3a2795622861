//! Typed extractors: what a handler needs from a request, read once, every failure a clear
//! [`ApiError`].
//!
//! * [`Key`]: the link key (`?key=`, `X-Clash-Key`, or `Authorization: Bearer`).
//! * [`TableKey`]: the table named in the path (read back from its log if it is not in memory)
//!   and a key, not yet checked; [`Caller`]: the same with the key checked to be valid there.
//! * [`Params`]: query parameters into a typed struct.
//! * [`JsonBody`] and [`OptionalJson`]: a JSON body into a typed struct (whose unknown fields are
//!   refused), only with `Content-Type: application/json`, within the body limit.
//! * [`ClientAddr`]: the address limits count by.
//!
//! Each table operation still decides who the key is under the table's lock (rights can change
//! between the extraction and the operation); extraction answers early and keeps handlers short.

use std::collections::HashMap;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{ConnectInfo, FromRequest, FromRequestParts, Path, Query, Request};
use axum::http::request::Parts;
use axum::http::{StatusCode, header};
use clash_core::Seat;
use serde::de::DeserializeOwned;

use crate::error::{ApiError, TableError};
use crate::server::Server;
use crate::table::Table;
use crate::table::play::Access;

/// The link key of a request.
pub struct Key(pub String);

#[derive(serde::Deserialize)]
struct KeyParam {
    key: Option<String>,
}

impl<S: Send + Sync> FromRequestParts<S> for Key {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, ApiError> {
        let in_query = Query::<KeyParam>::try_from_uri(&parts.uri)
            .ok()
            .and_then(|q| q.0.key);
        let header_text = |name: &str| {
            parts
                .headers
                .get(name)
                .and_then(|v| v.to_str().ok())
                .map(str::to_string)
        };
        let bearer = header_text(header::AUTHORIZATION.as_str())
            .and_then(|v| v.strip_prefix("Bearer ").map(str::to_string));
        in_query
            .or_else(|| header_text("x-clash-key"))
            .or(bearer)
            .map(Key)
            .ok_or(ApiError::MissingKey)
    }
}

/// The table named by the path's `{id}`, loading it if needed.
async fn path_table(parts: &mut Parts, server: &Arc<Server>) -> Result<Arc<Table>, ApiError> {
    let Path(params) = Path::<HashMap<String, String>>::from_request_parts(parts, server)
        .await
        .map_err(|e| ApiError::malformed(e.body_text()))?;
    let id = params.get("id").ok_or(ApiError::NotFound)?;
    Ok(server.table(id).await?)
}

/// The table in the path and the request's key, not yet checked.
pub struct TableKey {
    pub table: Arc<Table>,
    pub key: String,
}

impl FromRequestParts<Arc<Server>> for TableKey {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, server: &Arc<Server>) -> Result<Self, ApiError> {
        // The key first: a request without one learns nothing about which tables exist.
        let Key(key) = Key::from_request_parts(parts, server).await?;
        let table = path_table(parts, server).await?;
        Ok(TableKey { table, key })
    }
}

/// The table in the path and a key valid there, with what it may do (as it stood when the
/// request arrived).
pub struct Caller {
    pub table: Arc<Table>,
    pub key: String,
    pub rights: Access,
}

impl FromRequestParts<Arc<Server>> for Caller {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, server: &Arc<Server>) -> Result<Self, ApiError> {
        let TableKey { table, key } = TableKey::from_request_parts(parts, server).await?;
        let rights = table.access(&key, None).await?;
        Ok(Caller { table, key, rights })
    }
}

/// Query parameters as a typed struct (unknown parameters are ignored: links may carry others).
pub struct Params<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequestParts<S> for Params<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, ApiError> {
        Query::<T>::try_from_uri(&parts.uri)
            .map(|q| Params(q.0))
            .map_err(|e| {
                use std::error::Error;
                // The innermost cause is the one in words.
                let mut cause: &dyn Error = &e;
                while let Some(next) = cause.source() {
                    cause = next;
                }
                ApiError::malformed(format!("a query parameter is wrong: {cause}"))
            })
    }
}

/// Whether the request says its body is JSON (`application/json`, or any `…+json` type).
fn says_json(parts: &Request) -> bool {
    parts
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .map(|t| {
            let t = t.trim().to_ascii_lowercase();
            t == "application/json" || (t.starts_with("application/") && t.ends_with("+json"))
        })
        .unwrap_or(false)
}

async fn body_bytes(request: Request, server: &Arc<Server>) -> Result<Bytes, ApiError> {
    Bytes::from_request(request, server).await.map_err(|e| {
        if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
            ApiError::TooLarge(server.limits().body_limit)
        } else {
            ApiError::malformed(e.body_text())
        }
    })
}

fn parse_json<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, ApiError> {
    let first = bytes.iter().find(|b| !b.is_ascii_whitespace());
    if first.is_some_and(|b| *b != b'{') {
        return Err(ApiError::malformed("the body must be a JSON object"));
    }
    serde_json::from_slice(bytes).map_err(|e| {
        if e.is_syntax() || e.is_eof() {
            ApiError::malformed(format!("the body is not valid JSON: {e}"))
        } else {
            ApiError::malformed(format!("the body does not fit this request: {e}"))
        }
    })
}

/// A JSON body, required.
pub struct JsonBody<T>(pub T);

impl<T: DeserializeOwned> FromRequest<Arc<Server>> for JsonBody<T> {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &Arc<Server>) -> Result<Self, ApiError> {
        if !says_json(&request) {
            return Err(ApiError::NotJson);
        }
        let bytes = body_bytes(request, state).await?;
        parse_json(&bytes).map(JsonBody)
    }
}

/// A JSON body that may be left out entirely (an empty body).
pub struct OptionalJson<T>(pub Option<T>);

impl<T: DeserializeOwned> FromRequest<Arc<Server>> for OptionalJson<T> {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &Arc<Server>) -> Result<Self, ApiError> {
        let json = says_json(&request);
        let bytes = body_bytes(request, state).await?;
        if bytes.iter().all(u8::is_ascii_whitespace) {
            return Ok(OptionalJson(None));
        }
        if !json {
            return Err(ApiError::NotJson);
        }
        parse_json(&bytes).map(|v| OptionalJson(Some(v)))
    }
}

/// The client's address, as the connection limits count it. Requests that arrive without one
/// (served in process, as in tests) count as one unknown client.
pub struct ClientAddr(pub IpAddr);

impl<S: Send + Sync> FromRequestParts<S> for ClientAddr {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(
        parts: &mut Parts,
        _: &S,
    ) -> Result<Self, std::convert::Infallible> {
        Ok(ClientAddr(
            parts
                .extensions
                .get::<ConnectInfo<SocketAddr>>()
                .map_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED), |c| c.0.ip()),
        ))
    }
}

/// A seat named in a path or a parameter (`gm`, `p1`, …); anything else is no seat at all.
pub fn seat_named(text: &str) -> Result<Seat, ApiError> {
    text.parse().map_err(|_| {
        ApiError::from(TableError::UnknownSeat(format!(
            "unknown seat {text:?}: seats are named gm, p1, p2, …"
        )))
    })
}

/// A log position in a query (`?after=12`), refused in words when it is not one.
pub fn position<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<usize>, D::Error> {
    let text: Option<String> = serde::Deserialize::deserialize(d)?;
    text.map(|t| {
        t.parse().map_err(|_| {
            serde::de::Error::custom(format!(
                "after must be a log position (0, 1, 2, …), not {t:?}"
            ))
        })
    })
    .transpose()
}

/// An optional `as` seat: absent or empty means none.
pub fn as_seat(text: Option<&str>) -> Result<Option<Seat>, ApiError> {
    text.filter(|s| !s.is_empty()).map(seat_named).transpose()
}
