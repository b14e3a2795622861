//! Every path the server answers, once: the router registers these (the JSON API through the
//! annotations' `path = routes::…`, the pages and assets through `.route(routes::….path, …)`),
//! the server's own links are made from them, and the tests build every request from them, so
//! the router, the links and the tests cannot disagree about a path.
//!
//! A new route is a new constant here, added to [`ALL`]; its handler's annotation names it. A
//! test walks [`ALL`] against the router and the API document, and the tests refuse request
//! paths written by hand.

use std::fmt;

use percent_encoding::{AsciiSet, CONTROLS, utf8_percent_encode};

/// An HTTP method a route answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Verb {
    Get,
    Post,
    Put,
    Delete,
}

impl Verb {
    pub fn as_str(self) -> &'static str {
        match self {
            Verb::Get => "GET",
            Verb::Post => "POST",
            Verb::Put => "PUT",
            Verb::Delete => "DELETE",
        }
    }

    /// As the API document names it (`get`, `post`, …).
    pub fn lower(self) -> &'static str {
        match self {
            Verb::Get => "get",
            Verb::Post => "post",
            Verb::Put => "put",
            Verb::Delete => "delete",
        }
    }
}

/// Whether a route is part of the JSON API (and its document) or the web UI.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Face {
    /// Documented in `/api/openapi.json`.
    Api,
    /// A page, a form's target, an asset, or the document itself.
    Web,
}

/// One route: a method and a path template whose parameters are in braces (`{id}`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Route {
    pub verb: Verb,
    pub path: &'static str,
    pub face: Face,
}

const fn api(verb: Verb, path: &'static str) -> Route {
    Route {
        verb,
        path,
        face: Face::Api,
    }
}

const fn web(verb: Verb, path: &'static str) -> Route {
    Route {
        verb,
        path,
        face: Face::Web,
    }
}

use Verb::{Delete, Get, Post, Put};

// Health and metrics.
pub const HEALTHZ: Route = api(Get, "/healthz");
pub const METRICS: Route = api(Get, "/metrics");
pub const OPENAPI: Route = web(Get, "/api/openapi.json");

// Tables as a whole.
pub const RULESETS: Route = api(Get, "/api/rulesets");
pub const CREATE_TABLE: Route = api(Post, "/api/tables");
pub const TABLE_INFO: Route = api(Get, "/api/tables/{id}");
pub const DELETE_TABLE: Route = api(Delete, "/api/tables/{id}");
pub const VIEW: Route = api(Get, "/api/tables/{id}/view");
pub const EVENTS: Route = api(Get, "/api/tables/{id}/events");
pub const EXPORT: Route = api(Get, "/api/tables/{id}/export");
pub const STREAM: Route = api(Get, "/api/tables/{id}/stream");

// Once a table has ended: its review and replay.
pub const REVIEW: Route = api(Get, "/api/tables/{id}/review");
pub const CANCEL_REVIEW: Route = api(Delete, "/api/tables/{id}/review");
pub const REPLAY: Route = api(Get, "/api/tables/{id}/replay");

// Playing.
pub const COMMAND: Route = api(Post, "/api/tables/{id}/commands");
pub const SEED: Route = api(Post, "/api/tables/{id}/seed");
pub const CLOSE: Route = api(Post, "/api/tables/{id}/close");
pub const CHAT: Route = api(Post, "/api/tables/{id}/chat");
pub const UNDO: Route = api(Post, "/api/tables/{id}/undo");
pub const RENAME: Route = api(Post, "/api/tables/{id}/rename");
pub const ARCHIVE: Route = api(Post, "/api/tables/{id}/archive");
pub const ODDS: Route = api(Get, "/api/tables/{id}/odds");
pub const SWITCH_ODDS: Route = api(Put, "/api/tables/{id}/odds");

// Seats.
pub const CLAIM: Route = api(Post, "/api/tables/{id}/claim");
pub const MOVE_LINK: Route = api(Post, "/api/tables/{id}/move-link");
pub const REPLACE_LINK: Route = api(Post, "/api/tables/{id}/links/{link}");
pub const ISSUE_LINK: Route = api(Post, "/api/tables/{id}/seats/{seat}/link");
pub const REVOKE_LINK: Route = api(Delete, "/api/tables/{id}/seats/{seat}/link");
pub const HAND_BACK: Route = api(Post, "/api/tables/{id}/seats/{seat}/hand-back");
pub const SEAT_BOT: Route = api(Post, "/api/tables/{id}/seats/{seat}/bot");
pub const UNSEAT_BOT: Route = api(Delete, "/api/tables/{id}/seats/{seat}/bot");

// Playing across a week.
pub const NOTIFY_SETTINGS: Route = api(Get, "/api/tables/{id}/notify");
pub const ADD_TARGET: Route = api(Post, "/api/tables/{id}/notify/targets");
pub const REMOVE_TARGET: Route = api(Delete, "/api/tables/{id}/notify/targets/{target}");
pub const SET_HANDLE: Route = api(Put, "/api/tables/{id}/notify/handle");
pub const DELIVERY_LOG: Route = api(Get, "/api/tables/{id}/notify/log");
pub const CLOCK: Route = api(Get, "/api/tables/{id}/clock");
pub const SET_CLOCK: Route = api(Post, "/api/tables/{id}/clock");
pub const MOVES: Route = api(Post, "/api/moves");

// Forms.
pub const FROM_FORM: Route = api(Post, "/api/tables/from-form");
pub const CHECK_FORM: Route = api(Post, "/api/rulesets/{id}/check");
pub const SETUP_FILE: Route = api(Get, "/api/tables/{id}/setup");

// The designer's workbench.
pub const WORKBENCH_GAMES: Route = api(Get, "/api/workbench");
pub const START_STUDY: Route = api(Post, "/api/workbench/studies");
pub const STUDY: Route = api(Get, "/api/workbench/studies/{id}");

// The web UI.
pub const LOBBY: Route = web(Get, "/");
pub const LOBBY_CREATE: Route = web(Post, "/tables");
pub const TABLE_PAGE: Route = web(Get, "/t/{id}/{key}");
pub const CLAIM_FROM_PAGE: Route = web(Post, "/t/{id}/{key}");
pub const REVIEW_PAGE: Route = web(Get, "/t/{id}/{key}/review");
pub const ASSET: Route = web(Get, "/assets/{name}");
pub const PANEL_ASSET: Route = web(Get, "/assets/panel/{file}");
pub const FORM_ASSET: Route = web(Get, "/assets/forms/{file}");
pub const RULES: Route = web(Get, "/rules/{id}");
pub const RULES_PART: Route = web(Get, "/rules/{id}/part");
pub const WORKBENCH_PAGE: Route = web(Get, "/workbench");
pub const WORKBENCH_PLOT: Route = web(Get, "/workbench/{id}/plot/{file}");

// An email's links: opening one changes nothing, its page's button does.
pub const MAIL_CONFIRM_PAGE: Route = web(Get, "/mail/confirm/{token}");
pub const MAIL_CONFIRM: Route = web(Post, "/mail/confirm/{token}");
pub const MAIL_UNSUBSCRIBE_PAGE: Route = web(Get, "/mail/unsubscribe/{token}");
pub const MAIL_UNSUBSCRIBE: Route = web(Post, "/mail/unsubscribe/{token}");
pub const MAIL_RESUBSCRIBE: Route = web(Post, "/mail/resubscribe/{token}");

/// Every route the server answers.
pub const ALL: &[Route] = &[
    HEALTHZ,
    METRICS,
    OPENAPI,
    RULESETS,
    CREATE_TABLE,
    TABLE_INFO,
    DELETE_TABLE,
    VIEW,
    EVENTS,
    EXPORT,
    STREAM,
    REVIEW,
    CANCEL_REVIEW,
    REPLAY,
    COMMAND,
    SEED,
    CLOSE,
    CHAT,
    UNDO,
    RENAME,
    ARCHIVE,
    ODDS,
    SWITCH_ODDS,
    CLAIM,
    MOVE_LINK,
    REPLACE_LINK,
    ISSUE_LINK,
    REVOKE_LINK,
    HAND_BACK,
    SEAT_BOT,
    UNSEAT_BOT,
    NOTIFY_SETTINGS,
    ADD_TARGET,
    REMOVE_TARGET,
    SET_HANDLE,
    DELIVERY_LOG,
    CLOCK,
    SET_CLOCK,
    MOVES,
    FROM_FORM,
    CHECK_FORM,
    SETUP_FILE,
    WORKBENCH_GAMES,
    START_STUDY,
    STUDY,
    LOBBY,
    LOBBY_CREATE,
    TABLE_PAGE,
    CLAIM_FROM_PAGE,
    REVIEW_PAGE,
    ASSET,
    PANEL_ASSET,
    FORM_ASSET,
    RULES,
    RULES_PART,
    WORKBENCH_PAGE,
    WORKBENCH_PLOT,
    MAIL_CONFIRM_PAGE,
    MAIL_CONFIRM,
    MAIL_UNSUBSCRIBE_PAGE,
    MAIL_UNSUBSCRIBE,
    MAIL_RESUBSCRIBE,
];

/// What a path segment may hold as it is; everything else is percent-encoded.
const SEGMENT: &AsciiSet = &CONTROLS
    .add(b' ')
    .add(b'"')
    .add(b'#')
    .add(b'%')
    .add(b'/')
    .add(b'<')
    .add(b'>')
    .add(b'?')
    .add(b'`')
    .add(b'{')
    .add(b'}');

/// What a query value may hold as it is.
const QUERY: &AsciiSet = &SEGMENT.add(b'&').add(b'=').add(b'+');

impl Route {
    /// The route whose template a request path fits, preferring the one with the most literal
    /// segments (`/api/tables/from-form` over `/api/tables/{id}`); the method is not looked at.
    pub fn template_of(path: &str) -> Option<&'static str> {
        let path = path.split('?').next().unwrap_or_default();
        let segments: Vec<&str> = path.split('/').collect();
        ALL.iter()
            .filter(|r| {
                let own: Vec<&str> = r.path.split('/').collect();
                own.len() == segments.len()
                    && own
                        .iter()
                        .zip(&segments)
                        .all(|(o, s)| o == s || (o.starts_with('{') && !s.is_empty()))
            })
            .max_by_key(|r| r.path.split('/').filter(|s| !s.starts_with('{')).count())
            .map(|r| r.path)
    }

    /// The names of the path's parameters, in order (`["id", "seat"]`).
    pub fn params(&self) -> impl Iterator<Item = &'static str> {
        self.path
            .split('/')
            .filter_map(|s| s.strip_prefix('{').and_then(|s| s.strip_suffix('}')))
    }

    /// The route with its parameters filled in, in order (`{id}`, then `{seat}`, …), each
    /// percent-encoded as a path segment.
    ///
    /// # Panics
    /// When the number of values is not the number of parameters: a programming error.
    pub fn at<const N: usize>(&self, values: [&str; N]) -> Href {
        self.with(&values)
    }

    /// [`Route::at`] with the values in a slice, for a route chosen at run time.
    ///
    /// # Panics
    /// When the number of values is not the number of parameters: a programming error.
    pub fn with(&self, values: &[&str]) -> Href {
        assert_eq!(
            self.params().count(),
            values.len(),
            "{} takes {} parameter(s)",
            self.path,
            self.params().count()
        );
        let mut values = values.iter().copied();
        let segments: Vec<String> = self
            .path
            .split('/')
            .map(|s| match s.starts_with('{') {
                true => utf8_percent_encode(values.next().unwrap_or_default(), SEGMENT).to_string(),
                false => s.to_string(),
            })
            .collect();
        Href {
            verb: self.verb,
            uri: segments.join("/"),
            queried: false,
        }
    }
}

/// A route with its parameters filled in: the method and the URI to send it to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Href {
    pub verb: Verb,
    uri: String,
    queried: bool,
}

impl Href {
    /// With a query parameter (percent-encoded).
    pub fn query(mut self, name: &str, value: impl fmt::Display) -> Href {
        let value = value.to_string();
        self.uri.push(if self.queried { '&' } else { '?' });
        self.uri.push_str(name);
        self.uri.push('=');
        self.uri
            .extend(utf8_percent_encode(&value, QUERY).map(str::to_string));
        self.queried = true;
        self
    }

    /// With the link key as `?key=…`.
    pub fn key(self, key: &str) -> Href {
        self.query("key", key)
    }

    /// The URI: the path, and the query if any.
    pub fn uri(&self) -> &str {
        &self.uri
    }

    pub fn into_uri(self) -> String {
        self.uri
    }
}

/// An `&Href` is its URI wherever a `&str` is asked for.
impl std::ops::Deref for Href {
    type Target = str;

    fn deref(&self) -> &str {
        &self.uri
    }
}

impl fmt::Display for Href {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.uri)
    }
}

/// A table's page for `key`, as a path on this server.
pub fn table_path(id: &str, key: &str) -> String {
    TABLE_PAGE.at([id, key]).into_uri()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parameters_are_filled_in_order_and_encoded() {
        let href = ISSUE_LINK.at(["t1", "p 2"]).key("k/1").query("as", "p1");
        assert_eq!(
            href.uri(),
            "/api/tables/t1/seats/p%202/link?key=k%2F1&as=p1"
        );
        assert_eq!(href.verb, Verb::Post);
        assert_eq!(HEALTHZ.at([]).uri(), "/healthz");
        assert_eq!(ISSUE_LINK.params().collect::<Vec<_>>(), vec!["id", "seat"]);
    }

    #[test]
    #[should_panic(expected = "takes 2 parameter(s)")]
    fn a_missing_parameter_is_a_programming_error() {
        let _ = ISSUE_LINK.at(["t1"]);
    }

    #[test]
    fn a_request_path_fits_the_most_literal_template() {
        assert_eq!(
            Route::template_of("/api/tables/from-form"),
            Some(FROM_FORM.path)
        );
        assert_eq!(
            Route::template_of("/api/tables/a1?key=k"),
            Some(TABLE_INFO.path)
        );
        assert_eq!(
            Route::template_of("/api/tables/a1/seats/p1/bot"),
            Some(SEAT_BOT.path)
        );
        assert_eq!(Route::template_of("/no/such/page"), None);
        assert_eq!(Route::template_of("/api/tables//view"), None);
    }

    #[test]
    fn every_route_is_listed_once() {
        for (i, r) in ALL.iter().enumerate() {
            assert!(
                !ALL[..i]
                    .iter()
                    .any(|o| o.verb == r.verb && o.path == r.path),
                "{} {} twice",
                r.verb.as_str(),
                r.path
            );
        }
    }
}
