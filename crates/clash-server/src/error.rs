//! Refusals the server sends back: each kind of refusal is one variant, with its HTTP status, a
//! stable machine-readable code, and a message in words.

use std::time::Duration;

use axum::Json;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use clash_core::{GameError, RuleError};
use serde_json::json;

/// Why the table's state refuses a request (409).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Conflict {
    /// The table has ended.
    Closed,
    /// The seat acted since the revision the client saw.
    Stale,
    /// A command id already used for a different command.
    IdReused,
    /// The seat's player has a secret choice not yet revealed.
    SecretPending,
    /// The request would change nothing.
    NoChange,
    /// The key is not an unused invite.
    NotInvite,
    /// The GM has archived the table.
    Archived,
    /// A weighty command sent with `ask`: the message is the question to put to the player.
    Confirm,
    /// Nothing may be taken back now.
    CannotUndo,
    /// The table holds as much table talk as it keeps.
    TooMuchTalk,
    /// Another server changed the table at the same moment, again and again (several servers
    /// share the database; a lost race is otherwise decided again): nothing was changed.
    Raced,
    /// The table cannot be written as a setup now (a secret is hidden, or sheets are being made).
    NoPosition,
    /// A bot plays the seat: the GM takes it back before the seat changes hands.
    BotSeated,
    /// A player (or an unused invite) holds the seat, so no bot can sit in it.
    SeatTaken,
}

impl Conflict {
    pub fn code(self) -> &'static str {
        match self {
            Conflict::Closed => "closed",
            Conflict::Stale => "stale",
            Conflict::IdReused => "id_reused",
            Conflict::SecretPending => "secret_pending",
            Conflict::NoChange => "no_change",
            Conflict::NotInvite => "not_invite",
            Conflict::Archived => "archived",
            Conflict::Confirm => "confirm",
            Conflict::CannotUndo => "cannot_undo",
            Conflict::TooMuchTalk => "too_much_talk",
            Conflict::Raced => "raced",
            Conflict::NoPosition => "no_position",
            Conflict::BotSeated => "bot_seated",
            Conflict::SeatTaken => "seat_taken",
        }
    }
}

/// Why a request was refused. Every refusal leaves every table as it was.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ApiError {
    #[error("send your link key as ?key=…, an X-Clash-Key header, or Authorization: Bearer …")]
    MissingKey,
    #[error(
        "this link key is not valid for this table (it may have been revoked: ask the GM for a new link)"
    )]
    BadKey,
    /// A seat's invite used where its player's own key is needed.
    #[error(
        "this link is an invite: open it in a browser (or POST /api/tables/{{id}}/claim with it) to get your seat's own key"
    )]
    Invite,
    /// The key may not do this.
    #[error("{0}")]
    Forbidden(String),
    #[error("there is no table {0:?} on this server")]
    UnknownTable(String),
    /// A seat this table does not have.
    #[error("{0}")]
    UnknownSeat(String),
    #[error("no such page or endpoint; the API is described at /api/openapi.json")]
    NotFound,
    /// The request could not be read (bad JSON, wrong types, unknown fields, a bad parameter).
    #[error("{0}")]
    Malformed(String),
    #[error("the request body is larger than {0} bytes")]
    TooLarge(usize),
    #[error("send the body as JSON, with the header Content-Type: application/json")]
    NotJson,
    /// The request is understood but clashes with the table's state.
    #[error("{message}")]
    Conflict { conflict: Conflict, message: String },
    /// A command or setup the rules refuse; the message names the rule.
    #[error("{message}")]
    Rule {
        message: String,
        rule: Option<&'static str>,
    },
    #[error("too many new tables from your address; try again in {} s", retry_after.as_secs().max(1))]
    RateLimited { retry_after: Duration },
    #[error("{0}")]
    TooManyStreams(String),
    /// The database could not store or read something.
    #[error("{0}")]
    Storage(String),
    /// A stored table that this server cannot open (its ruleset is missing, or its log no
    /// longer replays).
    #[error("this table cannot be opened on this server: {0}")]
    Unreadable(String),
    #[error("the server took longer than {} s to answer; try again", .0.as_secs())]
    Timeout(Duration),
}

impl ApiError {
    pub fn unknown_table(id: &str) -> Self {
        ApiError::UnknownTable(id.to_string())
    }

    pub fn bad_key() -> Self {
        ApiError::BadKey
    }

    pub fn invite() -> Self {
        ApiError::Invite
    }

    pub fn conflict(conflict: Conflict, message: impl Into<String>) -> Self {
        ApiError::Conflict {
            conflict,
            message: message.into(),
        }
    }

    pub fn malformed(message: impl Into<String>) -> Self {
        ApiError::Malformed(message.into())
    }

    pub fn forbidden(message: impl Into<String>) -> Self {
        ApiError::Forbidden(message.into())
    }

    pub fn storage(message: impl Into<String>) -> Self {
        ApiError::Storage(message.into())
    }

    pub fn timeout(limit: Duration) -> Self {
        ApiError::Timeout(limit)
    }

    /// A refused command or setup. Rule refusals are 422 and name the rule in the message.
    pub fn game(e: GameError) -> Self {
        match e {
            GameError::Malformed { .. } => ApiError::Malformed(e.to_string()),
            GameError::Rule(rule_error) => Self::rule(rule_error),
        }
    }

    pub fn rule(e: RuleError) -> Self {
        let rule = e.rule();
        let message = match rule {
            Some(id) if !e.to_string().contains(id) => format!("{id}: {e}"),
            _ => e.to_string(),
        };
        ApiError::Rule { message, rule }
    }

    pub fn status(&self) -> StatusCode {
        match self {
            ApiError::MissingKey => StatusCode::UNAUTHORIZED,
            ApiError::BadKey | ApiError::Invite | ApiError::Forbidden(_) => StatusCode::FORBIDDEN,
            ApiError::UnknownTable(_) | ApiError::UnknownSeat(_) | ApiError::NotFound => {
                StatusCode::NOT_FOUND
            }
            ApiError::Malformed(_) => StatusCode::BAD_REQUEST,
            ApiError::TooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            ApiError::NotJson => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            ApiError::Conflict { .. } => StatusCode::CONFLICT,
            ApiError::Rule { .. } => StatusCode::UNPROCESSABLE_ENTITY,
            ApiError::RateLimited { .. } | ApiError::TooManyStreams(_) => {
                StatusCode::TOO_MANY_REQUESTS
            }
            ApiError::Storage(_) | ApiError::Timeout(_) => StatusCode::SERVICE_UNAVAILABLE,
            ApiError::Unreadable(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    /// Stable and machine-readable: `unknown_table`, `bad_key`, `rule`, `malformed`, …
    pub fn code(&self) -> &'static str {
        match self {
            ApiError::MissingKey => "missing_key",
            ApiError::BadKey => "bad_key",
            ApiError::Invite => "invite",
            ApiError::Forbidden(_) => "forbidden",
            ApiError::UnknownTable(_) => "unknown_table",
            ApiError::UnknownSeat(_) => "unknown_seat",
            ApiError::NotFound => "not_found",
            ApiError::Malformed(_) => "malformed",
            ApiError::TooLarge(_) => "too_large",
            ApiError::NotJson => "not_json",
            ApiError::Conflict { conflict, .. } => conflict.code(),
            ApiError::Rule { .. } => "rule",
            ApiError::RateLimited { .. } => "rate_limited",
            ApiError::TooManyStreams(_) => "too_many_streams",
            ApiError::Storage(_) => "storage",
            ApiError::Unreadable(_) => "unreadable",
            ApiError::Timeout(_) => "timeout",
        }
    }

    /// The rule a refused command broke (`"IT-35"`), when a rule refused it.
    pub fn rule_id(&self) -> Option<&'static str> {
        match self {
            ApiError::Rule { rule, .. } => *rule,
            _ => None,
        }
    }

    pub fn message(&self) -> String {
        self.to_string()
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = json!({ "error": {
            "code": self.code(),
            "message": self.message(),
            "rule": self.rule_id(),
        }});
        let mut response = (self.status(), Json(body)).into_response();
        if let ApiError::RateLimited { retry_after } = self {
            let seconds = retry_after.as_secs().max(1).to_string();
            if let Ok(v) = HeaderValue::from_str(&seconds) {
                response.headers_mut().insert(header::RETRY_AFTER, v);
            }
        }
        response
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_refusal_has_its_status_and_code() {
        let cases = [
            (ApiError::MissingKey, 401, "missing_key"),
            (ApiError::BadKey, 403, "bad_key"),
            (ApiError::UnknownSeat("p9".into()), 404, "unknown_seat"),
            (ApiError::NotJson, 415, "not_json"),
            (
                ApiError::conflict(Conflict::SecretPending, "wait"),
                409,
                "secret_pending",
            ),
            (
                ApiError::RateLimited {
                    retry_after: Duration::from_secs(3),
                },
                429,
                "rate_limited",
            ),
            (ApiError::TooLarge(10), 413, "too_large"),
        ];
        for (e, status, code) in cases {
            assert_eq!(e.status().as_u16(), status, "{e:?}");
            assert_eq!(e.code(), code);
        }
    }

    #[test]
    fn a_rate_limited_answer_says_when_to_come_back() {
        let r = ApiError::RateLimited {
            retry_after: Duration::from_millis(2500),
        }
        .into_response();
        assert_eq!(r.headers()[header::RETRY_AFTER], "2");
    }
}
