//! What each operation of the JSON API promises, and the API document finished from it.
//!
//! Each handler's annotation carries its contract as the extension `x-clash`:
//!
//! ```text
//! extensions(("x-clash" = json!(Whose::Gm.conflicts(&[Conflict::Closed]))))
//! ```
//!
//! that is, whose key it needs ([`Whose`]) and the refusals particular to it. [`finish`] turns the
//! contracts into the document's security requirements, the role in each description, and one
//! error response per status the operation can answer, listing its codes and what they mean,
//! from the refusals the contract names plus those its shape implies (a body can be too large
//! or not JSON, a key can be missing, a path can name no table, …). The statuses and codes come
//! from [`Refusal`], the one place they are given, so the document cannot list a refusal with
//! another status than the server answers; the tests check every answer they get against the
//! document, so a route cannot answer a refusal its contract does not name.

use std::collections::BTreeMap;

use serde::{Serialize, Serializer};
use serde_json::{Map, Value, json};

use super::routes::{self, Face};
use crate::error::{Conflict, Refusal};

mod links;

/// Whose link key an operation needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Whose {
    /// No key: anyone may ask.
    Anyone,
    /// Any of the table's keys: the GM's, a seat's player's own, or the watch link.
    AnyKey,
    /// The GM's key or a seat's player's own key (not the watch link, which everyone shares).
    GmOrSeat,
    /// A seat's player's own key, or the GM's key for the GM's own seat or `as` a seat it plays.
    Player,
    /// The GM's key (the owner key).
    Gm,
    /// A seat's player's own key.
    Seat,
    /// An unused invite (or a move link) for a seat, sent as the key.
    Invite,
}

impl Whose {
    const ALL: [Whose; 7] = [
        Whose::Anyone,
        Whose::AnyKey,
        Whose::GmOrSeat,
        Whose::Player,
        Whose::Gm,
        Whose::Seat,
        Whose::Invite,
    ];

    /// The sentence that opens the operation's description.
    fn sentence(self) -> &'static str {
        match self {
            Whose::Anyone => "**Key:** none.",
            Whose::AnyKey => {
                "**Key:** any of the table's links: the GM's, a seat's player's own, or the watch (spectator) link."
            }
            Whose::GmOrSeat => {
                "**Key:** the GM's link or a seat's player's own link (not the watch link)."
            }
            Whose::Player => {
                "**Key:** a seat's player's own link, or the GM's link (for the GM's own seat, or `as` a seat the GM plays)."
            }
            Whose::Gm => "**Key:** the GM's link (the owner key).",
            Whose::Seat => "**Key:** a seat's player's own link.",
            Whose::Invite => "**Key:** an unused invite (or a move link) for a seat.",
        }
    }

    /// A contract with nothing particular to refuse.
    pub fn only(self) -> Contract {
        Contract {
            who: self,
            refuses: Vec::new(),
            uncapped: false,
        }
    }

    pub fn refuses(self, refusals: &[Refusal]) -> Contract {
        self.only().refuses(refusals)
    }

    pub fn conflicts(self, conflicts: &[Conflict]) -> Contract {
        self.only().conflicts(conflicts)
    }

    /// The refusals every operation open to this key can answer.
    fn refusals(self) -> Vec<Refusal> {
        use Refusal::*;
        if self == Whose::Anyone {
            return Vec::new();
        }
        let mut all = vec![
            MissingKey,
            BadKey,
            InviteUsed,
            Moved,
            UnknownTable,
            RulesetUnavailable,
            Storage,
            Unreadable,
        ];
        match self {
            Whose::Invite => all.push(Conflict(self::Conflict::NotInvite)),
            Whose::AnyKey => all.push(Invite),
            _ => all.extend([Invite, Forbidden]),
        }
        all
    }
}

/// An operation's contract: whose key it needs and what it refuses besides what its shape
/// implies.
#[derive(Debug, Clone, Serialize)]
pub struct Contract {
    who: Whose,
    refuses: Vec<Refusal>,
    /// Appends nothing a cap counts (a table's close, its deletion): see [`Contract::uncapped`].
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    uncapped: bool,
}

impl Contract {
    pub fn refuses(mut self, refusals: &[Refusal]) -> Contract {
        self.refuses.extend_from_slice(refusals);
        self
    }

    pub fn conflicts(mut self, conflicts: &[Conflict]) -> Contract {
        self.refuses
            .extend(conflicts.iter().map(|c| Refusal::Conflict(*c)));
        self
    }

    /// A change that adds nothing the caps count and is never refused for them (ending a table,
    /// deleting it): every other change with a key may meet a cap (see `crate::table::caps`) or a
    /// final record (see `crate::table::keeping`).
    pub fn uncapped(mut self) -> Contract {
        self.uncapped = true;
        self
    }
}

/// A refusal is written as its code.
impl Serialize for Refusal {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.code())
    }
}

/// The refusal whose code this is.
pub fn refusal(code: &str) -> Option<Refusal> {
    Refusal::all().find(|r| r.code() == code)
}

/// The names of the security schemes a keyed operation accepts (any one of them).
pub const KEY_SCHEMES: [&str; 3] = ["key", "keyHeader", "bearer"];

fn security_schemes() -> Value {
    json!({
        "key": {"type": "apiKey", "in": "query", "name": "key",
            "description": "The link key as `?key=…`: the key part of a table link `/t/{id}/{key}`."},
        "keyHeader": {"type": "apiKey", "in": "header", "name": "X-Clash-Key",
            "description": "The link key in an `X-Clash-Key` header."},
        "bearer": {"type": "http", "scheme": "bearer",
            "description": "The link key as `Authorization: Bearer …`."},
    })
}

/// Finish the generated document: security schemes, every operation's key and refusals, and
/// the links between operations. Answers what is wrong with the annotations (empty when
/// nothing is): an operation without a contract, a path that is not a route of
/// [`routes::ALL`], a link to an operation that does not exist.
pub fn finish(doc: &mut Value) -> Vec<String> {
    let mut problems = Vec::new();
    doc["components"]["securitySchemes"] = security_schemes();
    let paths = doc["paths"].as_object_mut().map(std::mem::take);
    let mut paths = paths.unwrap_or_default();
    for (path, item) in paths.iter_mut() {
        let Some(item) = item.as_object_mut() else {
            continue;
        };
        for (method, op) in item.iter_mut() {
            let at = format!("{} {path}", method.to_uppercase());
            let routed = routes::ALL
                .iter()
                .any(|r| r.face == Face::Api && r.verb.lower() == method && r.path == path);
            if !routed {
                problems.push(format!(
                    "{at} is not a route of http/routes.rs: add it there (to ALL) and write `path = routes::NAME.path` in its annotation"
                ));
            }
            if let Err(problem) = apply(op, method) {
                problems.push(format!("{at}: {problem}"));
            }
        }
    }
    doc["paths"] = Value::Object(paths);
    problems.extend(links::link(doc));
    open_objects(doc);
    problems
}

/// Say that an object described by nothing but its type (a ruleset's own JSON: a setup, a
/// command, a view) may hold any members. JSON Schema means that already; generators read an
/// object without members as an empty one.
fn open_objects(schema: &mut Value) {
    match schema {
        Value::Object(o) => {
            let object = o.get("type").is_some_and(|t| {
                t == "object" || t.as_array().is_some_and(|a| a.contains(&json!("object")))
            });
            let described = [
                "properties",
                "additionalProperties",
                "allOf",
                "oneOf",
                "anyOf",
            ]
            .iter()
            .any(|k| o.contains_key(*k));
            if object && !described {
                o.insert("additionalProperties".into(), Value::Bool(true));
            }
            o.values_mut().for_each(open_objects);
        }
        Value::Array(a) => a.iter_mut().for_each(open_objects),
        _ => {}
    }
}

/// Apply one operation's contract to it.
fn apply(op: &mut Value, method: &str) -> Result<(), String> {
    let Some(contract) = op.as_object_mut().and_then(|o| o.remove("x-clash")) else {
        return Err(
            "no contract: add `extensions((\"x-clash\" = json!(Whose::….refuses(&[…]))))` to its annotation (see http/contract.rs)"
                .into(),
        );
    };
    let who = Whose::ALL
        .into_iter()
        .find(|w| json!(w) == contract["who"])
        .ok_or("the contract names no key")?;
    let mut refusals = who.refusals();
    for code in contract["refuses"].as_array().into_iter().flatten() {
        let code = code.as_str().unwrap_or_default();
        refusals.push(refusal(code).ok_or_else(|| format!("{code} is no refusal"))?);
    }
    refusals.extend(implied(op, method));
    if who != Whose::Anyone && method != "get" && contract.get("uncapped").is_none() {
        // A change with a key appends to the table's log, which has caps and is final once the
        // game's secret is out (see `crate::table::caps` and `crate::table::keeping`).
        refusals.extend([
            Refusal::TooFast,
            Refusal::Conflict(Conflict::Full),
            Refusal::Conflict(Conflict::Closed),
        ]);
    }
    object_body(op);
    refusals.sort();
    refusals.dedup();
    if who != Whose::Anyone {
        let any: Vec<Value> = KEY_SCHEMES.iter().map(|s| json!({ *s: [] })).collect();
        op["security"] = Value::Array(any);
    }
    let said = op["description"].as_str().unwrap_or_default().to_string();
    op["description"] = json!(match said.is_empty() {
        true => who.sentence().to_string(),
        false => format!("{}\n\n{said}", who.sentence()),
    });
    let responses = op["responses"].as_object_mut().ok_or("no responses")?;
    for (status, group) in by_status(&refusals) {
        if responses.contains_key(&status) {
            return Err(format!(
                "answers {status} as a refusal, so its annotation may not describe {status} itself: name the refusal in its contract"
            ));
        }
        responses.insert(status, refused(&group));
    }
    connection_answers(responses);
    Ok(())
}

/// What the connection itself answers, before any operation reads the request: a request head
/// longer than the server reads (431, no body), and a connection over the caps per address or
/// in all (503 as text, see `crate::http::net`).
fn connection_answers(responses: &mut Map<String, Value>) {
    responses.insert(
        "431".into(),
        json!({"description": "The request's line and headers are longer than the server reads; the connection closes."}),
    );
    let busy = json!({"schema": {"type": "string"}});
    let full = "Too many connections from this address, or in all (as text, with `Retry-After`); the connection closes.";
    match responses.get_mut("503") {
        Some(answer) => {
            answer["content"]["text/plain"] = busy;
            let said = answer["description"].as_str().unwrap_or_default();
            answer["description"] =
                json!(format!("{said}\n\nOr, before the request is read: {full}"));
        }
        None => {
            responses.insert(
                "503".into(),
                json!({"description": full, "content": {"text/plain": busy}}),
            );
        }
    }
}

/// A body is a JSON object or nothing at all (`crate::http::extract`): an optional one is left out,
/// never sent as `null`.
fn object_body(op: &mut Value) {
    let json = &mut op["requestBody"]["content"]["application/json"]["schema"];
    let Some(alternatives) = json["oneOf"].as_array() else {
        return;
    };
    let object: Vec<Value> = alternatives
        .iter()
        .filter(|a| a["type"] != "null")
        .cloned()
        .collect();
    if let [only] = object.as_slice() {
        *json = only.clone();
    }
}

/// The refusals an operation's shape implies: every request can time out; a change can come
/// from another site's page; a body can be too large, not JSON or not fit; a query or path
/// parameter can be malformed; a seat can be unknown.
fn implied(op: &Value, method: &str) -> Vec<Refusal> {
    use Refusal::*;
    let mut all = vec![Timeout];
    if method != "get" {
        all.push(CrossSite);
    }
    if op.get("requestBody").is_some() {
        all.extend([TooLarge, NotJson, Malformed]);
    }
    let params = op["parameters"].as_array().cloned().unwrap_or_default();
    if !params.is_empty() {
        all.push(Malformed);
    }
    for p in &params {
        match (p["in"].as_str(), p["name"].as_str()) {
            (Some("path"), Some("seat")) => all.push(UnknownSeat),
            (Some("query"), Some("as")) => all.extend([UnknownSeat, Forbidden]),
            _ => {}
        }
    }
    all
}

/// Refusals grouped by status (`"409"` → the conflicts).
fn by_status(refusals: &[Refusal]) -> BTreeMap<String, Vec<Refusal>> {
    let mut groups: BTreeMap<String, Vec<Refusal>> = BTreeMap::new();
    for r in refusals {
        groups
            .entry(r.status().as_u16().to_string())
            .or_default()
            .push(*r);
    }
    groups
}

/// The response for one status: what each of its codes means, and the error body with `code`
/// one of them.
fn refused(group: &[Refusal]) -> Value {
    let lines: Vec<String> = group
        .iter()
        .map(|r| format!("- `{}`: {}", r.code(), r.meaning()))
        .collect();
    let codes: Vec<&str> = group.iter().map(|r| r.code()).collect();
    let schema = json!({"allOf": [
        {"$ref": "#/components/schemas/ErrorBody"},
        {"type": "object", "properties": {"error": {"type": "object", "properties": {
            "code": {"type": "string", "enum": codes}}}}},
    ]});
    let mut response = json!({
        "description": format!("Refused, changing nothing:\n\n{}", lines.join("\n")),
        "content": {"application/json": {"schema": schema}},
    });
    if group.contains(&Refusal::RateLimited) {
        response["headers"] = json!({"Retry-After": {
            "description": "With `rate_limited`: the seconds to wait before creating another table.",
            "schema": {"type": "integer", "minimum": 1},
        }});
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_operation_keeps_its_contract_and_every_path_is_a_route() {
        let (doc, problems) = crate::http::checked_document();
        assert!(problems.is_empty(), "{}", problems.join("\n"));
        let documented: Vec<(String, String)> = doc["paths"]
            .as_object()
            .unwrap()
            .iter()
            .flat_map(|(p, item)| {
                item.as_object()
                    .unwrap()
                    .keys()
                    .map(|m| (m.clone(), p.clone()))
            })
            .collect();
        for route in routes::ALL.iter().filter(|r| r.face == Face::Api) {
            let here = (route.verb.lower().to_string(), route.path.to_string());
            assert!(
                documented.contains(&here),
                "{} {} is in http/routes.rs but not documented: register its handler in http/mod.rs's api()",
                route.verb.as_str(),
                route.path
            );
        }
    }

    #[test]
    fn a_refusal_is_documented_with_the_status_the_server_answers() {
        let doc = crate::http::document();
        let create = &doc["paths"]["/api/tables"]["post"];
        let codes = |status: &str| {
            create["responses"][status]["content"]["application/json"]["schema"]["allOf"][1]["properties"]["error"]["properties"]["code"]["enum"].clone()
        };
        assert_eq!(codes("429"), json!(["rate_limited"]));
        assert_eq!(codes("413"), json!(["too_large"]));
        assert_eq!(create["security"], Value::Null, "no key needed");
        let close = &doc["paths"]["/api/tables/{id}/close"]["post"];
        let codes = close["responses"]["409"]["content"]["application/json"]["schema"]["allOf"][1]
            ["properties"]["error"]["properties"]["code"]["enum"]
            .clone();
        assert_eq!(codes, json!(["closed", "raced"]));
        assert_eq!(close["security"].as_array().unwrap().len(), 3);
        assert!(
            close["description"]
                .as_str()
                .unwrap()
                .starts_with("**Key:** the GM's link")
        );
        let forbidden = close["responses"]["403"]["description"].as_str().unwrap();
        assert!(
            forbidden.contains("`cross_site`") && forbidden.contains("`forbidden`"),
            "{forbidden}"
        );
    }
}
