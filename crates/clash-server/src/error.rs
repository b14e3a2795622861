//! Refusals the server sends back: an HTTP status, a stable code, and a message in words.

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use clash_core::{GameError, RuleError};
use serde_json::json;

/// Why a request was refused. Every refusal leaves every table as it was.
#[derive(Debug, Clone, PartialEq)]
pub struct ApiError {
    pub status: StatusCode,
    /// Stable, machine-readable: `unknown_table`, `bad_key`, `rule`, `malformed`, …
    pub code: &'static str,
    pub message: String,
    /// The rule the command broke (`"IT-35"`), when a rule refused it.
    pub rule: Option<&'static str>,
}

impl ApiError {
    pub fn new(status: StatusCode, code: &'static str, message: impl Into<String>) -> Self {
        ApiError {
            status,
            code,
            message: message.into(),
            rule: None,
        }
    }

    pub fn unknown_table(id: &str) -> Self {
        Self::new(
            StatusCode::NOT_FOUND,
            "unknown_table",
            format!("there is no table {id:?} on this server"),
        )
    }

    pub fn bad_key() -> Self {
        Self::new(
            StatusCode::FORBIDDEN,
            "bad_key",
            "this link key is not valid for this table (it may have been revoked: ask the GM for a new link)",
        )
    }

    /// A seat's invite used where its player's own key is needed.
    pub fn invite() -> Self {
        Self::new(
            StatusCode::FORBIDDEN,
            "invite",
            "this link is an invite: open it in a browser (or POST /api/tables/{id}/claim with it) to get your seat's own key",
        )
    }

    /// The request is understood but clashes with the table's state (409).
    pub fn conflict(code: &'static str, message: impl Into<String>) -> Self {
        Self::new(StatusCode::CONFLICT, code, message)
    }

    pub fn malformed(message: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, "malformed", message)
    }

    pub fn forbidden(message: impl Into<String>) -> Self {
        Self::new(StatusCode::FORBIDDEN, "forbidden", message)
    }

    pub fn storage(message: impl Into<String>) -> Self {
        Self::new(StatusCode::SERVICE_UNAVAILABLE, "storage", message)
    }

    /// A refused command or setup. Rule refusals are 422 and name the rule in the message.
    pub fn game(e: GameError) -> Self {
        match e {
            GameError::Malformed { .. } => {
                Self::new(StatusCode::BAD_REQUEST, "malformed", e.to_string())
            }
            GameError::Rule(rule_error) => Self::rule(rule_error),
        }
    }

    pub fn rule(e: RuleError) -> Self {
        let rule = e.rule();
        let message = match rule {
            Some(id) if !e.to_string().contains(id) => format!("{id}: {e}"),
            _ => e.to_string(),
        };
        ApiError {
            status: StatusCode::UNPROCESSABLE_ENTITY,
            code: "rule",
            message,
            rule,
        }
    }
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body =
            json!({ "error": { "code": self.code, "message": self.message, "rule": self.rule } });
        (self.status, Json(body)).into_response()
    }
}
