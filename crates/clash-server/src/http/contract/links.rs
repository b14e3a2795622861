//! The links between operations: from a created table (its id and the GM's key), an invite
//! and a claimed seat (the player's own key) to the operations that use them, so a tool can
//! follow create → invite → claim → play from the document alone.

use std::collections::BTreeMap;

use serde_json::{Map, Value, json};

/// A link from one operation's answer to an operation that uses it: `(from, status, name, to,
/// parameters)`, each parameter an OpenAPI runtime expression.
type LinkSpec = (
    &'static str,
    &'static str,
    &'static str,
    &'static str,
    &'static [(&'static str, &'static str)],
);

/// The GM's key and table from a created table.
const AS_GM: &[(&str, &str)] = &[
    ("path.id", "$response.body#/table"),
    ("query.key", "$response.body#/owner_key"),
];
/// The watch link from a created table.
const AS_SPECTATOR: &[(&str, &str)] = &[
    ("path.id", "$response.body#/table"),
    ("query.key", "$response.body#/spectator_key"),
];
/// The player's own key from a claimed seat.
const AS_PLAYER: &[(&str, &str)] = &[
    ("path.id", "$request.path.id"),
    ("query.key", "$response.body#/key"),
];

const LINKS: &[LinkSpec] = &[
    ("create_table", "201", "TableInfo", "table_info", AS_GM),
    ("create_table", "201", "Invite", "issue_link", AS_GM),
    ("create_table", "201", "GmView", "view", AS_GM),
    ("create_table", "201", "GmCommand", "command", AS_GM),
    ("create_table", "201", "Rename", "rename", AS_GM),
    ("create_table", "201", "SetClock", "set_clock", AS_GM),
    ("create_table", "201", "Close", "close", AS_GM),
    ("create_table", "201", "Export", "export", AS_GM),
    ("create_table", "201", "Review", "review", AS_GM),
    ("create_table", "201", "Replay", "replay", AS_GM),
    ("create_table", "201", "Delete", "delete_table", AS_GM),
    ("create_table", "201", "Watch", "view", AS_SPECTATOR),
    ("create", "201", "TableInfo", "table_info", AS_GM),
    ("create", "201", "Invite", "issue_link", AS_GM),
    ("create", "201", "GmView", "view", AS_GM),
    (
        "issue_link",
        "201",
        "Claim",
        "claim",
        &[
            ("path.id", "$request.path.id"),
            ("query.key", "$response.body#/invite"),
        ],
    ),
    ("claim", "201", "View", "view", AS_PLAYER),
    ("claim", "201", "Command", "command", AS_PLAYER),
    ("claim", "201", "Events", "events", AS_PLAYER),
    ("claim", "201", "Seed", "seed", AS_PLAYER),
    ("claim", "201", "Chat", "chat", AS_PLAYER),
    ("claim", "201", "Odds", "odds", AS_PLAYER),
    ("claim", "201", "MoveLink", "move_link", AS_PLAYER),
    ("claim", "201", "Notify", "settings", AS_PLAYER),
    ("move_link", "201", "Claim", "claim", AS_PLAYER),
    ("replace_link", "201", "TableInfo", "table_info", AS_PLAYER),
    (
        "start_study",
        "202",
        "Study",
        "study",
        &[("path.id", "$response.body#/id")],
    ),
];

/// Add the links to the operations' answers.
pub(super) fn link(doc: &mut Value) -> Vec<String> {
    let mut ids: BTreeMap<String, (String, String)> = BTreeMap::new();
    for (path, item) in doc["paths"].as_object().into_iter().flatten() {
        for (method, op) in item.as_object().into_iter().flatten() {
            if let Some(id) = op["operationId"].as_str() {
                ids.insert(id.to_string(), (path.clone(), method.clone()));
            }
        }
    }
    let mut problems = Vec::new();
    for (from, status, name, to, params) in LINKS {
        let (Some((path, method)), true) = (ids.get(*from), ids.contains_key(*to)) else {
            problems.push(format!("the link {from} → {to} names no operation"));
            continue;
        };
        let parameters: Map<String, Value> = params
            .iter()
            .map(|(k, v)| (k.to_string(), json!(v)))
            .collect();
        let response = &mut doc["paths"][path][method]["responses"][*status];
        if !response.is_object() {
            problems.push(format!("{from} has no {status} answer to link from"));
            continue;
        }
        response["links"][*name] = json!({"operationId": to, "parameters": parameters});
    }
    problems
}
