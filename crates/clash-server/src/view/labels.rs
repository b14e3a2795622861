//! Readable button labels for commands of any ruleset.
//!
//! Commands are JSON objects tagged by `type` (`{"type": "move", "from": 8, "to": 13}`); a
//! person reads them better as "Move · from 8 · to 13".

use serde_json::Value;

/// `snake_case` or `kebab-case` words as a sentence fragment: `end_turn` → `end turn`.
fn words(s: &str) -> String {
    s.replace(['_', '-'], " ")
}

fn capitalised(s: &str) -> String {
    let mut chars = s.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

fn value_text(v: &Value) -> String {
    match v {
        Value::String(s) => words(s),
        Value::Null => "none".into(),
        Value::Bool(b) => if *b { "yes" } else { "no" }.into(),
        Value::Number(n) => n.to_string(),
        Value::Array(items) => items.iter().map(value_text).collect::<Vec<_>>().join(", "),
        Value::Object(map) => {
            // The tag names the thing; it reads best first.
            let head = map.get("type").map(value_text);
            let rest = map
                .iter()
                .filter(|(k, _)| *k != "type")
                .map(|(k, v)| format!("{} {}", words(k), value_text(v)));
            head.into_iter().chain(rest).collect::<Vec<_>>().join(" ")
        }
    }
}

/// A short label for a command.
pub fn label(command: &Value) -> String {
    match command {
        Value::Object(map) => {
            let head = map.get("type").map(value_text).unwrap_or_default();
            let rest = map
                .iter()
                .filter(|(k, _)| *k != "type")
                .map(|(k, v)| format!("{}: {}", words(k), value_text(v)));
            let parts: Vec<String> = std::iter::once(head)
                .filter(|h| !h.is_empty())
                .chain(rest)
                .collect();
            capitalised(&parts.join(" · "))
        }
        other => capitalised(&value_text(other)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn tagged_commands_read_as_words() {
        assert_eq!(label(&json!({"type": "end_turn"})), "End turn");
        assert_eq!(
            label(&json!({"type": "move", "from": 8, "to": 13})),
            "Move · from: 8 · to: 13"
        );
        assert_eq!(
            label(&json!({"type": "stance", "stance": {"type": "attack", "amount": 2}})),
            "Stance · stance: attack amount 2"
        );
        assert_eq!(label(&json!("pass")), "Pass");
        assert_eq!(
            label(&json!({"type": "split", "amounts": [1, 2]})),
            "Split · amounts: 1, 2"
        );
    }
}
