//! The request fields whose bounds the server checks in code, described as exactly in the API
//! document: each schema is made from the same limit the check uses, so the two cannot drift.
//!
//! Free text is trimmed before it is checked, so a pattern describes the text as sent: any
//! whitespace around it, then 1 to N characters that hold no control character (none at all in
//! a name; none but line breaks and tabs in talk) and no character that reorders or hides text
//! (see `clash_core::text`), starting and ending with a character that is not whitespace.

use utoipa::openapi::RefOr;
use utoipa::openapi::schema::{ArrayBuilder, ObjectBuilder, Schema, Type};

use crate::table::chat::MAX_LINE;
use crate::tables::TITLE_LIMIT;

/// Whitespace as Rust's `str::trim` removes it.
const SPACE: &str = r"\t\n\x0B\x0C\r \x85\xA0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000";
/// Characters that reorder or hide text.
const HIDDEN: &str = r"\u202A-\u202E\u2066-\u2069\u200B\u2060-\u2064\uFEFF";
/// Control characters other than line breaks and tabs.
const CONTROL_BUT_BREAKS: &str = r"\x00-\x08\x0B-\x1F\x7F-\x9F";
/// Every control character.
const CONTROL: &str = r"\x00-\x1F\x7F-\x9F";

/// What a name refuses besides control characters (rule N-1, `clash_core::text::plain_name`):
/// every format character, line and paragraph separators, the fillers that show as blank, as
/// ranges of a character class. The joiners a script or an emoji needs are refused here too,
/// since a pattern cannot say where they stand: the document is stricter than the server there.
fn name_refused() -> &'static str {
    static CLASS: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    CLASS.get_or_init(|| {
        let refused =
            |c: u32| char::from_u32(c).is_some_and(clash_core::text::refused_alone_in_name);
        let mut class = String::from(CONTROL);
        let mut c = 0xA0;
        while c <= 0x10FFFF {
            if !refused(c) {
                c += 1;
                continue;
            }
            let start = c;
            while c < 0x10FFFF && refused(c + 1) {
                c += 1;
            }
            class.push_str(&escaped(start));
            if c > start {
                class.push('-');
                class.push_str(&escaped(c));
            }
            c += 1;
        }
        class
    })
}

/// `c` as a pattern writes it: `\uXXXX` in the Basic Multilingual Plane, `\UXXXXXXXX` beyond.
fn escaped(c: u32) -> String {
    match c {
        0..=0xFFFF => format!("\\u{c:04X}"),
        _ => format!("\\U{c:08X}"),
    }
}

/// Text trimmed and then 1 to `max` characters, none of them in `refused`.
fn trimmed(max: usize, refused: &str) -> String {
    let inner = format!("[^{refused}{HIDDEN}]");
    let edge = format!("[^{SPACE}{refused}{HIDDEN}]");
    let between = max.saturating_sub(2);
    format!("^[{SPACE}]*{edge}(?:{inner}{{0,{between}}}{edge})?[{SPACE}]*$")
}

fn string(pattern: String, description: &str) -> ObjectBuilder {
    ObjectBuilder::new()
        .schema_type(Type::String)
        .pattern(Some(pattern))
        .description(Some(description))
}

fn nullable(builder: ObjectBuilder) -> RefOr<Schema> {
    let types = [Type::String, Type::Null];
    builder
        .schema_type(utoipa::openapi::schema::SchemaType::from_iter(types))
        .build()
        .into()
}

/// A table's name: 1 to [`TITLE_LIMIT`] characters once trimmed, no control characters.
pub fn title() -> RefOr<Schema> {
    let text = format!(
        "The table's name: 1 to {TITLE_LIMIT} characters (surrounding whitespace is trimmed)."
    );
    string(trimmed(TITLE_LIMIT, name_refused()), &text)
        .build()
        .into()
}

/// A new table's name, which may be left out, null or blank for the game's default name.
pub fn new_title() -> RefOr<Schema> {
    let text = format!(
        "The table's name: 1 to {TITLE_LIMIT} characters (surrounding whitespace is trimmed); left out, null or blank: the game's name and \"table\"."
    );
    let pattern = format!("^[{SPACE}]*$|{}", trimmed(TITLE_LIMIT, name_refused()));
    nullable(string(pattern, &text))
}

/// A line of table talk: 1 to [`MAX_LINE`] characters once trimmed; line breaks and tabs kept.
pub fn talk() -> RefOr<Schema> {
    let text = format!(
        "The line: 1 to {MAX_LINE} characters (surrounding whitespace is trimmed); line breaks and tabs are kept."
    );
    string(trimmed(MAX_LINE, CONTROL_BUT_BREAKS), &text)
        .build()
        .into()
}

/// A plain word of 1 to `max` letters, digits, `-`, `_`, `.` or `:` (`crate::table::links::plain_word`).
fn word(max: usize, what: &str) -> ObjectBuilder {
    let text = format!("{what}: 1 to {max} letters, digits, '-', '_', '.' or ':'.");
    string(format!("^[A-Za-z0-9._:-]{{1,{max}}}$"), &text)
}

/// A client seed: a plain word of 1 to 64 characters.
pub fn seed() -> RefOr<Schema> {
    word(SEED_LIMIT, "A client seed").build().into()
}

/// A command's client id: a plain word of 1 to 100 characters, or null for none.
pub fn command_id() -> RefOr<Schema> {
    nullable(word(
        COMMAND_ID_LIMIT,
        "The client's id for this command, the same on every retry",
    ))
}

/// The longest client seed (`ops::add_seed`).
pub const SEED_LIMIT: usize = 64;
/// The longest command id (`executor`).
pub const COMMAND_ID_LIMIT: usize = 100;

/// A whole number from 0 to the largest the server counts to.
pub fn count(description: &str, nullable: bool) -> RefOr<Schema> {
    let types: Vec<Type> = match nullable {
        true => vec![Type::Integer, Type::Null],
        false => vec![Type::Integer],
    };
    ObjectBuilder::new()
        .schema_type(utoipa::openapi::schema::SchemaType::from_iter(types))
        .minimum(Some(0))
        .maximum(Some(u64::MAX))
        .description(Some(description))
        .build()
        .into()
}

/// A position in a table's log (`?after=12`), as a query parameter.
pub fn position() -> RefOr<Schema> {
    count("A position in the table's log: 0, 1, 2, …", false)
}

/// A list of at most `max` of `item`.
pub fn at_most(item: RefOr<Schema>, max: usize) -> RefOr<Schema> {
    ArrayBuilder::new()
        .items(item)
        .max_items(Some(max))
        .build()
        .into()
}

/// Player seats as a list (`["p2"]`): `p` and a number from 1 to 255; the GM's own seat is not
/// one of them.
pub fn player_seats() -> RefOr<Schema> {
    let seat = string(
        r"^p\+?0*([1-9][0-9]?|1[0-9]{2}|2[0-4][0-9]|25[0-5])$".into(),
        "A player's seat: p1, p2, …",
    );
    ArrayBuilder::new().items(seat.build()).build().into()
}

/// Who a sheet is made for: `player` (the default) or `gm`.
pub fn maker() -> RefOr<Schema> {
    let types = [Type::String, Type::Null];
    ObjectBuilder::new()
        .schema_type(utoipa::openapi::schema::SchemaType::from_iter(types))
        .enum_values(Some([
            serde_json::json!("player"),
            serde_json::json!("gm"),
            serde_json::Value::Null,
        ]))
        .description(Some(
            "Who the sheet is made for: `player` (the default) or `gm`.",
        ))
        .build()
        .into()
}

/// What the derived schemas cannot say: that a line goes to the GM or to one seat, not both;
/// that a form check sends a sheet or a table's choices, exactly one; the bounds of the clock's
/// times and the shape of a handle, checked in code the notification module owns. Answers the
/// places it could not find.
pub fn refine(doc: &mut serde_json::Value) -> Vec<String> {
    use serde_json::json;
    let schemas = &mut doc["components"]["schemas"];
    let mut missing = Vec::new();
    let mut set = |at: &str, key: &str, value: serde_json::Value| match schemas.pointer_mut(at) {
        Some(place) => place[key] = value,
        None => missing.push(format!("no schema at {at} to refine")),
    };
    let to_one = json!({"to": {"type": "string"}, "to_gm": {"const": true}});
    set(
        "/Line",
        "not",
        json!({"required": ["to", "to_gm"], "properties": to_one}),
    );
    // The game reads the sheet or the choices, whatever JSON they are, and answers their
    // problems; null is the same as leaving one out.
    let given = json!({"type": ["object", "array", "string", "number", "boolean"]});
    set(
        "/CheckBody",
        "oneOf",
        json!([
            {"required": ["sheet"], "properties": {"sheet": given}},
            {"required": ["table"], "properties": {"table": given}},
        ]),
    );
    for field in ["sheet", "table"] {
        let any = json!({"description": "Any JSON: the game answers its problems."});
        set("/CheckBody/properties", field, any);
    }
    let longest = crate::notify::rule::LONGEST_SECONDS;
    for at in [
        "/ClockRule/properties/remind_after",
        "/Clock/oneOf/0/properties/seconds",
        "/Clock/oneOf/1/properties/seconds",
    ] {
        set(at, "minimum", json!(1));
        set(at, "maximum", json!(longest));
    }
    let handle_text = format!(
        "How the table channel mentions the caller (`<@123456>`, `@ada`): 1 to {} letters, digits or <>@!#:_.- (surrounding whitespace is trimmed), never a mention of everyone (`everyone`, `here`, `<!…`). Null removes it.",
        crate::notify::target::HANDLE_LIMIT
    );
    set("/HandleBody/properties/handle", "pattern", json!(handle()));
    set(
        "/HandleBody/properties/handle",
        "description",
        json!(handle_text),
    );
    missing
}

/// A handle: trimmed, 1 to `HANDLE_LIMIT` of letters, digits and `<>@!#:_.-`, not mentioning
/// everyone (`crate::notify::target::check_handle`). Letters here are ASCII ones: the server
/// also takes letters of other scripts, which a pattern cannot name in every regex dialect.
fn handle() -> String {
    let (everyone, shape) = handle_parts();
    format!(r"^(?![\s\S]*({everyone})){shape}")
}

/// What a handle may not hold anywhere (a mention of everyone), and its shape.
fn handle_parts() -> (&'static str, String) {
    let max = crate::notify::target::HANDLE_LIMIT;
    let everyone = "[eE][vV][eE][rR][yY][oO][nN][eE]|[hH][eE][rR][eE]|<!";
    let shape = format!("[{SPACE}]*[A-Za-z0-9<>@!#:_.-]{{1,{max}}}[{SPACE}]*$");
    (everyone, shape)
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use regex::Regex;

    use super::*;

    fn pattern(schema: RefOr<Schema>) -> Regex {
        let json = serde_json::to_value(schema).unwrap();
        Regex::new(json["pattern"].as_str().unwrap()).unwrap()
    }

    /// Text near the edges of every rule: whitespace of every kind, control characters, hidden
    /// marks, letters from several scripts, lengths around the limits.
    fn text() -> impl Strategy<Value = String> {
        let pieces = prop::sample::select(vec![
            "a",
            "Z",
            "é",
            "ש",
            "漢",
            "7",
            "-",
            " ",
            "\t",
            "\n",
            "\r",
            "\u{0B}",
            "\u{85}",
            "\u{A0}",
            "\u{2003}",
            "\u{3000}",
            "\u{0}",
            "\u{7}",
            "\u{9F}",
            "\u{202E}",
            "\u{2066}",
            "\u{200B}",
            "\u{FEFF}",
            "\u{1F600}",
            "\u{AD}",
            "\u{2028}",
            "\u{2029}",
            "\u{3164}",
            "\u{E0041}",
            "\u{1D173}",
        ]);
        let short = prop::collection::vec(pieces.clone(), 0..8).prop_map(|v| v.concat());
        let long = (
            prop::collection::vec(pieces, 0..4),
            110usize..130,
            490usize..510,
        )
            .prop_map(|(ends, n, m)| {
                let fill = if n % 2 == 0 { n } else { m };
                format!("{}{}{}", ends.concat(), "x".repeat(fill), ends.concat())
            });
        prop_oneof![short, long]
    }

    /// Handles from ASCII pieces (the pattern names ASCII letters only; see [`handle`]).
    fn handle_text() -> impl Strategy<Value = String> {
        let pieces = prop::sample::select(vec![
            "<@", "123", ">", "@ada", "Here", "everyone", "<!", "!", "#", ":", "_", ".", "-", " ",
            "\\t", "x", "é", "/", "%",
        ]);
        let short = prop::collection::vec(pieces, 0..8).prop_map(|v| v.concat());
        let long = (60usize..70).prop_map(|n| "h".repeat(n));
        prop_oneof![short, long]
    }

    proptest! {
        #[test]
        fn a_handle_pattern_accepts_exactly_the_ascii_handles_the_server_accepts(t in handle_text()) {
            // The pattern is `^(?!…(everyone))shape`: Rust's regex has no look-ahead, so the
            // two parts are checked as the pattern joins them.
            let ascii = t.trim().is_ascii();
            let taken = crate::notify::target::check_handle(&t).is_ok();
            let (everyone, shape) = handle_parts();
            let mentions = Regex::new(&format!("({everyone})")).unwrap().is_match(&t);
            let matched = !mentions && Regex::new(&format!("^{shape}")).unwrap().is_match(&t);
            let lookahead = format!(r"^(?![\s\S]*({everyone}))");
            prop_assert!(handle().starts_with(&lookahead));
            prop_assert!(matched == taken || (!ascii && taken && !matched), "{:?}", t);
        }

        #[test]
        fn the_patterns_accept_exactly_what_the_server_accepts(t in text()) {
            let title = crate::tables::table_title(&t).is_ok();
            prop_assert_eq!(pattern(super::title()).is_match(&t), title, "title {:?}", t);
            let blank = t.trim().is_empty();
            prop_assert_eq!(pattern(new_title()).is_match(&t), title || blank, "new title {:?}", t);
            let talk = crate::table::chat::clean(&t).is_ok();
            prop_assert_eq!(pattern(super::talk()).is_match(&t), talk, "talk {:?}", t);
            let seed = crate::table::links::plain_word(&t, SEED_LIMIT);
            prop_assert_eq!(pattern(super::seed()).is_match(&t), seed, "seed {:?}", t);
        }
    }
}
