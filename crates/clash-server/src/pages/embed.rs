//! Start-up data for a page: JSON inside `<script type="application/json">`, readable by the
//! page's script with `JSON.parse(element.textContent)`.
//!
//! The one rule that makes any text safe there: the embedded JSON holds no `<`, `>` or `&` at
//! all. JSON only has those characters inside strings, where `\u003c`, `\u003e` and `\u0026`
//! mean exactly the same, so the value reads back unchanged while no text can end the script
//! element (`</script>`), open a comment the parser then swallows the page into (`<!--`), or be
//! taken for markup. U+2028 and U+2029 are escaped too, so the JSON is also valid JavaScript.

use serde::Serialize;

/// `value` as JSON safe to place between `<script type="application/json">` and `</script>`.
pub fn script_data(value: &impl Serialize) -> String {
    let json = serde_json::to_string(value).unwrap_or_else(|_| "null".into());
    let mut out = String::with_capacity(json.len() + 16);
    for c in json.chars() {
        match c {
            '<' => out.push_str("\\u003c"),
            '>' => out.push_str("\\u003e"),
            '&' => out.push_str("\\u0026"),
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use serde_json::{Value, json};

    use super::*;

    #[test]
    fn a_comment_opener_or_a_closing_tag_reads_back_as_text() {
        let v = json!({ "t": "<!-- </script><script>alert(1)</script> & <b>" });
        let embedded = script_data(&v);
        assert!(
            !embedded.contains('<') && !embedded.contains('>'),
            "{embedded}"
        );
        assert_eq!(serde_json::from_str::<Value>(&embedded).unwrap(), v);
    }

    proptest! {
        /// Issue 26, hole 2: no text can break out of the start-up data or break it.
        #[test]
        fn any_text_reads_back_unchanged_and_holds_no_markup(text in any::<String>()) {
            let v = json!({ "line": text, "nested": [{ "name": text }] });
            let embedded = script_data(&v);
            let markup = ['<', '>', '&', '\u{2028}', '\u{2029}'];
            prop_assert!(!embedded.contains(markup), "{}", embedded);
            prop_assert_eq!(serde_json::from_str::<Value>(&embedded).unwrap(), v);
        }
    }
}
