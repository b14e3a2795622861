//! The catalogue of refusals: each with its HTTP status, its code and its meaning.

use axum::http::StatusCode;

use super::Conflict;

/// Every way the server refuses a request, one per machine-readable code, with its HTTP status
/// and its meaning: the one place where a refusal gets its status. [`super::TableError`] and
/// [`super::ApiError`] say which refusal they are; the API document lists, for each operation, the
/// refusals it can answer, grouped by status, with these codes and meanings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Refusal {
    /// No link key was sent.
    MissingKey,
    /// No such page or endpoint.
    NotFound,
    TooLarge,
    NotJson,
    CrossSite,
    RateLimited,
    Timeout,
    BadKey,
    Invite,
    InviteUsed,
    Moved,
    Forbidden,
    UnknownTable,
    UnknownSeat,
    Malformed,
    Conflict(Conflict),
    Rule,
    /// A form (a table's choices, a character sheet) with problems, each at its field
    /// (answered with `problems`, see [`crate::http::forms`]).
    InvalidForm,
    TooManyStreams,
    /// Past a per-minute cap of one link (see [`crate::table::caps`]).
    TooFast,
    /// A stored table whose game this server does not offer now.
    RulesetUnavailable,
    Storage,
    Unreadable,
    /// The workbench has too many studies waiting.
    Busy,
    /// The workbench keeps no study by that id.
    UnknownStudy,
}

impl Refusal {
    /// Every refusal, conflicts included.
    pub fn all() -> impl Iterator<Item = Refusal> {
        use Refusal::*;
        let plain = [
            MissingKey,
            NotFound,
            TooLarge,
            NotJson,
            CrossSite,
            RateLimited,
            Timeout,
            BadKey,
            Invite,
            InviteUsed,
            Moved,
            Forbidden,
            UnknownTable,
            UnknownSeat,
            Malformed,
            Rule,
            InvalidForm,
            TooManyStreams,
            TooFast,
            RulesetUnavailable,
            Storage,
            Unreadable,
            Busy,
            UnknownStudy,
        ];
        plain
            .into_iter()
            .chain(self::Conflict::ALL.into_iter().map(Refusal::Conflict))
    }

    pub fn status(self) -> StatusCode {
        use Refusal::*;
        match self {
            Malformed => StatusCode::BAD_REQUEST,
            MissingKey => StatusCode::UNAUTHORIZED,
            BadKey | Invite | InviteUsed | Moved | Forbidden | CrossSite => StatusCode::FORBIDDEN,
            NotFound | UnknownTable | UnknownSeat | RulesetUnavailable | UnknownStudy => {
                StatusCode::NOT_FOUND
            }
            Conflict(_) => StatusCode::CONFLICT,
            TooLarge => StatusCode::PAYLOAD_TOO_LARGE,
            NotJson => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            Rule | InvalidForm => StatusCode::UNPROCESSABLE_ENTITY,
            RateLimited | TooManyStreams | TooFast => StatusCode::TOO_MANY_REQUESTS,
            Unreadable => StatusCode::INTERNAL_SERVER_ERROR,
            Storage | Timeout | Busy => StatusCode::SERVICE_UNAVAILABLE,
        }
    }

    /// Stable and machine-readable: `unknown_table`, `bad_key`, `rule`, `malformed`, …
    pub fn code(self) -> &'static str {
        use Refusal::*;
        match self {
            MissingKey => "missing_key",
            NotFound => "not_found",
            TooLarge => "too_large",
            NotJson => "not_json",
            CrossSite => "cross_site",
            RateLimited => "rate_limited",
            Timeout => "timeout",
            BadKey => "bad_key",
            Invite => "invite",
            InviteUsed => "invite_used",
            Moved => "moved",
            Forbidden => "forbidden",
            UnknownTable => "unknown_table",
            UnknownSeat => "unknown_seat",
            Malformed => "malformed",
            Conflict(c) => c.code(),
            Rule => "rule",
            InvalidForm => "invalid_form",
            TooManyStreams => "too_many_streams",
            TooFast => "too_fast",
            RulesetUnavailable => "ruleset_unavailable",
            Storage => "storage",
            Unreadable => "unreadable",
            Busy => "busy",
            UnknownStudy => "unknown_study",
        }
    }

    /// What the refusal means, in words, for the API document.
    pub fn meaning(self) -> &'static str {
        use Refusal::*;
        match self {
            MissingKey => {
                "no link key was sent (`?key=`, `X-Clash-Key` or `Authorization: Bearer`)"
            }
            NotFound => "no such page or endpoint",
            TooLarge => "the body is larger than the server's limit",
            NotJson => "the body was not sent as JSON (`Content-Type: application/json`)",
            CrossSite => "a change sent from another site's page",
            RateLimited => "too many new tables from this address (see `Retry-After`)",
            Timeout => "the server took too long to answer",
            BadKey => "the key is not valid for this table (or was revoked)",
            Invite => "an invite used where the player's own key is needed: claim it first",
            InviteUsed => "the invite (or move link) was opened already",
            Moved => "the seat moved to another device, so this key no longer plays it",
            Forbidden => "the key's role may not do this",
            UnknownTable => "there is no such table",
            UnknownSeat => "the table has no such seat",
            Malformed => "the request is not well formed: the message says what is wrong",
            Conflict(c) => c.meaning(),
            Rule => "the rules refuse it; `rule` names the rule",
            InvalidForm => "the form has problems, each at its field in `problems`",
            TooManyStreams => "too many live streams for this key or table",
            TooFast => "past a per-minute limit of one link (see `Retry-After`)",
            RulesetUnavailable => {
                "the table plays a game this server does not offer now; its GM can still delete it"
            }
            Storage => "the database could not store or read it; nothing changed",
            Unreadable => "the table cannot be opened on this server",
            Busy => "too many workbench studies are waiting; try again in a minute",
            UnknownStudy => {
                "this server keeps no such study (it keeps the most recent): send its request again"
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_refusal_has_a_code_of_its_own() {
        let codes: Vec<&str> = Refusal::all().map(Refusal::code).collect();
        for (i, code) in codes.iter().enumerate() {
            assert!(!codes[..i].contains(code), "{code} twice");
            assert!(
                code.bytes().all(|b| b.is_ascii_lowercase() || b == b'_'),
                "{code}"
            );
        }
        assert!(
            Refusal::all().all(|r| r.status().is_client_error() || r.status().is_server_error())
        );
        assert!(Refusal::all().all(|r| !r.meaning().is_empty()));
    }
}
