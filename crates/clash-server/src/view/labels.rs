//! Readable button labels for commands of any ruleset.
//!
//! Commands are JSON objects tagged by `type` (`{"type": "move", "from": 8, "to": 13}`); a
//! person reads them better as "Move · from 8 · to 13".

use std::fmt::Write;

use serde_json::Value;

// Every picture labels each of its seat's legal commands: the text is written into one
// string as it is read, not built from pieces.

/// `snake_case` or `kebab-case` words as a sentence fragment: `end_turn` → `end turn`.
fn push_words(out: &mut String, s: &str) {
    out.extend(
        s.chars()
            .map(|c| if c == '_' || c == '-' { ' ' } else { c }),
    );
}

fn push_value(out: &mut String, v: &Value) {
    match v {
        Value::String(s) => push_words(out, s),
        Value::Null => out.push_str("none"),
        Value::Bool(b) => out.push_str(if *b { "yes" } else { "no" }),
        Value::Number(n) => {
            let _ = write!(out, "{n}");
        }
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                push_value(out, item);
            }
        }
        Value::Object(map) => {
            // The tag names the thing; it reads best first.
            let mut first = true;
            let mut gap = |out: &mut String| {
                if !std::mem::take(&mut first) {
                    out.push(' ');
                }
            };
            if let Some(tag) = map.get("type") {
                gap(out);
                push_value(out, tag);
            }
            for (k, v) in map.iter().filter(|(k, _)| *k != "type") {
                gap(out);
                push_words(out, k);
                out.push(' ');
                push_value(out, v);
            }
        }
    }
}

/// A short label for a command.
pub fn label(command: &Value) -> String {
    let mut out = String::with_capacity(32);
    match command {
        Value::Object(map) => {
            if let Some(tag) = map.get("type") {
                push_value(&mut out, tag);
            }
            for (k, v) in map.iter().filter(|(k, _)| *k != "type") {
                if !out.is_empty() {
                    out.push_str(" · ");
                }
                push_words(&mut out, k);
                out.push_str(": ");
                push_value(&mut out, v);
            }
        }
        other => push_value(&mut out, other),
    }
    capitalise(out)
}

/// The first letter in capitals.
fn capitalise(text: String) -> String {
    match text.chars().next() {
        Some(first) if !first.is_uppercase() => {
            let mut out = String::with_capacity(text.len() + 2);
            out.extend(first.to_uppercase());
            out.push_str(&text[first.len_utf8()..]);
            out
        }
        _ => text,
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

    #[test]
    fn untagged_empty_and_nested_parts_read_as_before() {
        assert_eq!(label(&json!({"type": "", "a_b": 1})), "A b: 1");
        assert_eq!(
            label(&json!({"target": null, "ok": true})),
            "Ok: yes · target: none"
        );
        assert_eq!(
            label(&json!({"type": "x", "s": {"b": "c-d", "type": "y"}})),
            "X · s: y b c d"
        );
        assert_eq!(label(&json!({"type": "é_lan"})), "É lan");
        assert_eq!(label(&json!({})), "");
    }
}
