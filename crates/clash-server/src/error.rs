//! Refusals, in two layers.
//!
//! * [`TableError`]: why a table (or the registry of tables) refuses what was asked of it, in
//!   the table's own terms: a key that is not valid, a seat with a secret pending, a rule the
//!   command breaks, a change that lost the race for the log. Table operations know nothing of
//!   HTTP and return only these.
//! * [`ApiError`]: why an HTTP request is refused: a table's refusal, or one that only HTTP has
//!   (no key given, a body that is not JSON, too many requests, a time limit).
//!
//! Each refusal is one [`Refusal`], which gives it its HTTP status, its stable machine-readable
//! code and what it means: the mapping is made once, here. The API document is built from the
//! same catalogue (each operation names the refusals it can answer, see
//! [`crate::http::contract`]), so a new refusal gets its status before the server compiles, and
//! a route that answers a refusal its document does not list fails the tests.

use std::time::Duration;

use axum::Json;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use clash_core::{GameError, RuleError};
use serde_json::json;

mod refusal;
pub use refusal::Refusal;

/// Why the table's state refuses a request (409).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
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
    /// The table holds as many entries of a kind as it may (see [`crate::table::caps`]).
    Full,
    /// A review or replay asked for before the table ended.
    NotEnded,
}

impl Conflict {
    /// Every conflict, for the API document.
    pub const ALL: [Conflict; 16] = [
        Conflict::Closed,
        Conflict::Stale,
        Conflict::IdReused,
        Conflict::SecretPending,
        Conflict::NoChange,
        Conflict::NotInvite,
        Conflict::Archived,
        Conflict::Confirm,
        Conflict::CannotUndo,
        Conflict::TooMuchTalk,
        Conflict::Raced,
        Conflict::NoPosition,
        Conflict::BotSeated,
        Conflict::SeatTaken,
        Conflict::Full,
        Conflict::NotEnded,
    ];

    /// What the conflict means, in words, for the API document.
    pub fn meaning(self) -> &'static str {
        match self {
            Conflict::Closed => "the table has ended",
            Conflict::Stale => "the seat acted since the revision the client saw",
            Conflict::IdReused => "the command id was used already for a different command",
            Conflict::SecretPending => "the seat's player has a secret choice not yet revealed",
            Conflict::NoChange => "the request would change nothing",
            Conflict::NotInvite => "the key is not an unused invite",
            Conflict::Archived => "the GM has archived the table",
            Conflict::Confirm => {
                "a weighty command sent with `ask`: the message is the question to put to the player"
            }
            Conflict::CannotUndo => "nothing may be taken back now",
            Conflict::TooMuchTalk => "the table holds as much table talk as it keeps",
            Conflict::Raced => {
                "another server kept changing the table at the same moment; nothing was changed"
            }
            Conflict::NoPosition => "the table cannot be written as a setup now",
            Conflict::BotSeated => "a bot plays the seat: the GM takes it back first",
            Conflict::SeatTaken => "a player (or an unused invite) holds the seat",
            Conflict::Full => {
                "the table (or this link) holds as many entries of that kind as it may, or the record is as large as it may be"
            }
            Conflict::NotEnded => {
                "the table has not ended: its review and replay would give away what is still hidden"
            }
        }
    }

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
            Conflict::Full => "cap_reached",
            Conflict::NotEnded => "not_ended",
        }
    }
}

/// Why a table refuses what was asked of it. Every refusal leaves the table as it was.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum TableError {
    #[error(
        "this link key is not valid for this table (it may have been revoked: ask the GM for a new link)"
    )]
    BadKey,
    /// A seat's invite used where its player's own key is needed.
    #[error(
        "this link is an invite: open it in a browser (or POST /api/tables/{{id}}/claim with it) to get your seat's own key"
    )]
    Invite,
    /// An invite (or a link to move a seat) opened a second time: it was exchanged already.
    #[error(
        "this invite was already opened on another device, which holds the seat now. If that was you, go on playing there \
         (your page there can move the seat to this device); if not, ask the GM for a new link"
    )]
    InviteUsed,
    /// A player's old key after they moved their seat to another device.
    #[error(
        "this seat has moved to another device, so this link no longer plays it. If you did not move it, ask the GM for a new link"
    )]
    Moved,
    /// The key may not do this.
    #[error("{0}")]
    Forbidden(String),
    #[error("there is no table {0:?} on this server")]
    UnknownTable(String),
    /// A seat this table does not have.
    #[error("{0}")]
    UnknownSeat(String),
    /// What was asked is not well formed (a bad seed, a name too long, an unknown ruleset).
    #[error("{0}")]
    Malformed(String),
    /// The request is understood but clashes with the table's state.
    #[error("{message}")]
    Conflict { conflict: Conflict, message: String },
    /// A command or setup the rules refuse; the message names the rule.
    #[error("{message}")]
    Rule {
        message: String,
        rule: Option<&'static str>,
    },
    #[error("{0}")]
    TooManyStreams(String),
    /// Past a per-minute cap (see [`crate::table::caps`]): the message names it.
    #[error("{message}")]
    TooFast {
        message: String,
        retry_after: Duration,
    },
    /// A stored table whose ruleset this server does not offer (an example game, when the
    /// server runs without examples): it opens again on a server that has it, and its GM can
    /// delete it here.
    #[error(
        "this table plays {0:?}, which this server does not offer now (a server started without that game); \
         it opens again where the game is offered, and its GM can delete it"
    )]
    RulesetUnavailable(String),
    /// The database could not store or read something.
    #[error("{0}")]
    Storage(String),
    /// A stored table that this server cannot open (its ruleset is missing, or its log no
    /// longer replays).
    #[error("this table cannot be opened on this server: {0}")]
    Unreadable(String),
}

impl TableError {
    pub fn unknown_table(id: &str) -> Self {
        TableError::UnknownTable(id.to_string())
    }

    pub fn conflict(conflict: Conflict, message: impl Into<String>) -> Self {
        TableError::Conflict {
            conflict,
            message: message.into(),
        }
    }

    pub fn malformed(message: impl Into<String>) -> Self {
        TableError::Malformed(message.into())
    }

    pub fn forbidden(message: impl Into<String>) -> Self {
        TableError::Forbidden(message.into())
    }

    pub fn storage(message: impl Into<String>) -> Self {
        TableError::Storage(message.into())
    }

    /// Past a cap of the table (see [`crate::table::caps`]).
    pub fn full(message: impl Into<String>) -> Self {
        Self::conflict(Conflict::Full, message)
    }

    /// A refused command or setup. Rule refusals name the rule in the message.
    pub fn game(e: GameError) -> Self {
        match e {
            GameError::Malformed { .. } => TableError::Malformed(e.to_string()),
            GameError::Rule(rule_error) => Self::rule(rule_error),
        }
    }

    pub fn rule(e: RuleError) -> Self {
        let rule = e.rule();
        let message = match rule {
            Some(id) if !e.to_string().contains(id) => format!("{id}: {e}"),
            _ => e.to_string(),
        };
        TableError::Rule { message, rule }
    }

    /// Whether this is a lost race for the log, which the executor decides again.
    pub fn raced(&self) -> bool {
        matches!(
            self,
            TableError::Conflict {
                conflict: Conflict::Raced,
                ..
            }
        )
    }

    /// Which refusal this is.
    pub fn refusal(&self) -> Refusal {
        match self {
            TableError::BadKey => Refusal::BadKey,
            TableError::Invite => Refusal::Invite,
            TableError::InviteUsed => Refusal::InviteUsed,
            TableError::Moved => Refusal::Moved,
            TableError::Forbidden(_) => Refusal::Forbidden,
            TableError::UnknownTable(_) => Refusal::UnknownTable,
            TableError::UnknownSeat(_) => Refusal::UnknownSeat,
            TableError::Malformed(_) => Refusal::Malformed,
            TableError::Conflict { conflict, .. } => Refusal::Conflict(*conflict),
            TableError::Rule { .. } => Refusal::Rule,
            TableError::TooManyStreams(_) => Refusal::TooManyStreams,
            TableError::TooFast { .. } => Refusal::TooFast,
            TableError::RulesetUnavailable(_) => Refusal::RulesetUnavailable,
            TableError::Storage(_) => Refusal::Storage,
            TableError::Unreadable(_) => Refusal::Unreadable,
        }
    }
}

/// Why an HTTP request was refused: a table's refusal, or one only HTTP has.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ApiError {
    #[error("send your link key as ?key=…, an X-Clash-Key header, or Authorization: Bearer …")]
    MissingKey,
    #[error("no such page or endpoint; the API is described at /api/openapi.json")]
    NotFound,
    #[error("the request body is larger than {0} bytes")]
    TooLarge(usize),
    #[error("send the body as JSON, with the header Content-Type: application/json")]
    NotJson,
    /// A state-changing request sent from another site's page (see [`crate::http::layers`]).
    #[error(
        "this request came from another site's page; Clash changes a table only from its own pages or from programs that are not browsers"
    )]
    CrossSite,
    #[error("too many new tables from your address; try again in {} s", retry_after.as_secs().max(1))]
    RateLimited { retry_after: Duration },
    #[error("the server took longer than {} s to answer; try again", .0.as_secs())]
    Timeout(Duration),
    /// Work queued off the play path (the workbench's studies) has no room for more now.
    #[error("{0}")]
    Busy(String),
    /// The server keeps no study by that id (it keeps the most recent; its link runs it again).
    #[error("this server keeps no such study; open its link to run it again")]
    UnknownStudy,
    #[error(transparent)]
    Table(#[from] TableError),
}

impl ApiError {
    pub fn malformed(message: impl Into<String>) -> Self {
        TableError::malformed(message).into()
    }

    pub fn storage(message: impl Into<String>) -> Self {
        TableError::storage(message).into()
    }

    pub fn timeout(limit: Duration) -> Self {
        ApiError::Timeout(limit)
    }

    /// Which refusal this is.
    pub fn refusal(&self) -> Refusal {
        match self {
            ApiError::MissingKey => Refusal::MissingKey,
            ApiError::NotFound => Refusal::NotFound,
            ApiError::TooLarge(_) => Refusal::TooLarge,
            ApiError::NotJson => Refusal::NotJson,
            ApiError::CrossSite => Refusal::CrossSite,
            ApiError::RateLimited { .. } => Refusal::RateLimited,
            ApiError::Timeout(_) => Refusal::Timeout,
            ApiError::Busy(_) => Refusal::Busy,
            ApiError::UnknownStudy => Refusal::UnknownStudy,
            ApiError::Table(e) => e.refusal(),
        }
    }

    pub fn status(&self) -> StatusCode {
        self.refusal().status()
    }

    /// Stable and machine-readable: `unknown_table`, `bad_key`, `rule`, `malformed`, …
    pub fn code(&self) -> &'static str {
        self.refusal().code()
    }

    /// The rule a refused command broke (`"IT-35"`), when a rule refused it.
    pub fn rule_id(&self) -> Option<&'static str> {
        match self {
            ApiError::Table(TableError::Rule { rule, .. }) => *rule,
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
        let wait = match &self {
            ApiError::RateLimited { retry_after }
            | ApiError::Table(TableError::TooFast { retry_after, .. }) => Some(*retry_after),
            _ => None,
        };
        if let Some(retry_after) = wait {
            let seconds = retry_after.as_secs().max(1).to_string();
            if let Ok(v) = HeaderValue::from_str(&seconds) {
                response.headers_mut().insert(header::RETRY_AFTER, v);
            }
        }
        response
    }
}

impl IntoResponse for TableError {
    fn into_response(self) -> Response {
        ApiError::from(self).into_response()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_refusal_has_its_status_and_code() {
        let cases = [
            (ApiError::MissingKey, 401, "missing_key"),
            (TableError::BadKey.into(), 403, "bad_key"),
            (
                TableError::UnknownSeat("p9".into()).into(),
                404,
                "unknown_seat",
            ),
            (ApiError::NotJson, 415, "not_json"),
            (
                TableError::conflict(Conflict::SecretPending, "wait").into(),
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
            (ApiError::CrossSite, 403, "cross_site"),
            (
                TableError::full("as many as a table may").into(),
                409,
                "cap_reached",
            ),
            (
                TableError::TooFast {
                    message: "slow down".into(),
                    retry_after: Duration::from_secs(3),
                }
                .into(),
                429,
                "too_fast",
            ),
            (
                TableError::RulesetUnavailable("morra".into()).into(),
                404,
                "ruleset_unavailable",
            ),
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
