//! Checking text meant for people: narration, status lines, rendered tables and refusal reasons
//! must name characters and players, never show a seat id, an index or Rust debug output.
//!
//! [`raw_tokens`] finds what should not be there. Rulesets call it from their tests over every
//! example scenario and over random games, so a line like "p1 passes", "winners [3]" or
//! "over: Some(Players)" fails a test instead of reaching a page.

use unicode_properties::{GeneralCategory, UnicodeEmoji, UnicodeGeneralCategory};

/// Characters that change how the text around them is laid out or hide what is there:
/// bidirectional embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069), which can
/// make a name read backwards or reorder the words after it, and invisible joiners and marks
/// that make two different names look the same. Free text refuses these; names refuse every
/// format character (see [`plain_name`]).
fn hidden_format(c: char) -> bool {
    matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
        || matches!(c, '\u{200B}' | '\u{2060}'..='\u{2064}' | '\u{FEFF}')
}

/// Letters and marks that show as nothing at all, though they are not format characters: the
/// Hangul fillers, the Khmer inherent vowels, the combining grapheme joiner and the blank
/// Braille pattern. A name made of them looks empty, or like another name.
const FILLERS: [char; 8] = [
    '\u{115F}', '\u{1160}', '\u{3164}', '\u{FFA0}', '\u{17B4}', '\u{17B5}', '\u{034F}', '\u{2800}',
];

/// Why a character may not stand in a name, in words; `None` when it may.
fn refused_in_name(c: char) -> Option<&'static str> {
    if c.is_control() {
        return Some("a control character");
    }
    if FILLERS.contains(&c) {
        return Some("a filler that shows as blank");
    }
    match c.general_category() {
        GeneralCategory::Format => Some("a format character, Unicode category Cf"),
        GeneralCategory::LineSeparator => Some("a line separator, Unicode category Zl"),
        GeneralCategory::ParagraphSeparator => Some("a paragraph separator, Unicode category Zp"),
        _ => None,
    }
}

/// Whether a name refuses `c` wherever it stands, the two joiners included (a name takes them
/// only between the letters or emoji that need them: see [`plain_name`]). For describing names
/// where context cannot be said, as in a pattern of the API document.
pub fn refused_alone_in_name(c: char) -> bool {
    refused_in_name(c).is_some()
}

/// The two joiners (U+200C ZWNJ, U+200D ZWJ) are kept where writing needs them: between two
/// letters or marks of a script without case (Persian, Arabic, the Indic scripts…), where they
/// choose how letters join, and a ZWJ between two emoji, which makes one picture of them. Between
/// Latin, Greek or Cyrillic letters (or anywhere else) they show nothing, so they are refused.
fn needed_joiner(before: Option<char>, c: char, after: Option<char>) -> bool {
    let uncased = |c: Option<char>| {
        c.is_some_and(|c| {
            matches!(
                c.general_category(),
                GeneralCategory::OtherLetter
                    | GeneralCategory::NonspacingMark
                    | GeneralCategory::SpacingMark
            )
        })
    };
    let emoji = |c: Option<char>| c.is_some_and(|c| c.is_emoji_char_or_emoji_component());
    let pictures = c == '\u{200D}' && emoji(before) && emoji(after);
    matches!(c, '\u{200C}' | '\u{200D}') && (pictures || uncased(before) && uncased(after))
}

/// A name as people will see it (a table's title, a character's or a player's name): only
/// characters that show. Refused (`N-1` in docs/security.md, "Names and text"): control
/// characters (line breaks and NUL included), every format character (Unicode category Cf: the
/// direction marks and overrides, soft hyphens, invisible joiners and separators, tag
/// characters…) but the joiners a script or an emoji needs ([`needed_joiner`]), line and
/// paragraph separators (Zl, Zp), and the fillers that show as blank ([`FILLERS`]).
/// Right-to-left names are welcome as they are. `what` names the field in the refusal ("a
/// character's name").
pub fn plain_name(what: &str, name: &str) -> Result<(), String> {
    let chars: Vec<char> = name.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        let Some(why) = refused_in_name(c) else {
            continue;
        };
        let (before, after) = (
            i.checked_sub(1).map(|j| chars[j]),
            chars.get(i + 1).copied(),
        );
        if needed_joiner(before, c, after) {
            continue;
        }
        return Err(format!(
            "{what} cannot hold the invisible character U+{:04X} ({why}): a name holds only characters that show (rule N-1); type it as it should read",
            c as u32
        ));
    }
    Ok(())
}

/// Free text (a line of talk, a belief, a stake): line breaks and tabs are kept; other control
/// characters and characters that reorder or hide text (see [`hidden_format`]) are refused.
pub fn plain_text(what: &str, text: &str) -> Result<(), String> {
    let bad = |c: char| (c.is_control() && c != '\n' && c != '\t') || hidden_format(c);
    match text.chars().find(|c| bad(*c)) {
        None => Ok(()),
        Some(c) => Err(format!(
            "{what} cannot hold the invisible character U+{:04X}",
            c as u32
        )),
    }
}

/// One piece of raw text found where a person reads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RawToken {
    /// What kind of leak it is.
    pub kind: RawKind,
    /// The offending text as found.
    pub text: String,
}

/// The kinds of raw text [`raw_tokens`] looks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RawKind {
    /// `Some(`, `None`, `Ok(`, `Err(`, `true`, `false`, `null`: Rust or JSON values.
    DebugValue,
    /// `{"`, `":`, `type:`: JSON or struct debug syntax.
    Structure,
    /// `[3]`, `[0, 1]`: a list of indices.
    IndexList,
    /// `p1`, `gm`: a seat id where a name belongs.
    SeatId,
    /// `party 0`, `seat 2`, `player 3`, `index 4`: a numbered stand-in for a name.
    Numbered,
    /// `LastPartyStanding`, `(Npc)`: an enum variant printed with `{:?}`.
    VariantName,
}

/// Every raw token in `text`, in order of appearance (empty when the text reads cleanly).
///
/// The checks are deliberately simple and word-based:
/// - the words `None`, `true`, `false`, `null` and the openings `Some(`, `Ok(`, `Err(`;
/// - `{"`, `":` and `type:`;
/// - `[` followed by a digit;
/// - the words `gm` (lower case) and `p` followed by digits (`p1`, `p12`);
/// - `party`, `seat`, `player` or `index` (any case) followed by a number;
/// - a word made of two or more capitalised parts of at least two lower-case letters each
///   (`LastPartyStanding`, `OtherSide`), and the variant names `(Npc)` and `(Pc)`.
///
/// Names players choose could trip the last check (a character called "MacLeod"); tests that
/// use such names should expect it.
pub fn raw_tokens(text: &str) -> Vec<RawToken> {
    let mut found = Vec::new();
    let mut push = |kind, text: &str| {
        found.push(RawToken {
            kind,
            text: text.to_string(),
        })
    };
    for pattern in ["Some(", "Ok(", "Err("] {
        for (at, _) in text.match_indices(pattern) {
            if !preceded_by_word(text, at) {
                push(RawKind::DebugValue, pattern);
            }
        }
    }
    for pattern in ["{\"", "\":", "type:"] {
        if text.contains(pattern) {
            push(RawKind::Structure, pattern);
        }
    }
    for (at, _) in text.match_indices('[') {
        if text[at + 1..].starts_with(|c: char| c.is_ascii_digit()) {
            push(RawKind::IndexList, &text[at..(at + 2).min(text.len())]);
        }
    }
    for pattern in ["(Npc)", "(Pc)"] {
        if text.contains(pattern) {
            push(RawKind::VariantName, pattern);
        }
    }
    let words = words(text);
    for (i, word) in words.iter().enumerate() {
        match *word {
            "None" | "true" | "false" | "null" => push(RawKind::DebugValue, word),
            "gm" => push(RawKind::SeatId, word),
            w if is_seat_id(w) => push(RawKind::SeatId, w),
            w if is_variant_name(w) => push(RawKind::VariantName, w),
            w if ["party", "seat", "player", "index"].contains(&w.to_lowercase().as_str())
                && words.get(i + 1).is_some_and(|n| is_number(n)) =>
            {
                push(RawKind::Numbered, &format!("{w} {}", words[i + 1]))
            }
            _ => {}
        }
    }
    found
}

/// The words of `text`: runs of letters and digits (apostrophes and hyphens split words).
fn words(text: &str) -> Vec<&str> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect()
}

fn preceded_by_word(text: &str, at: usize) -> bool {
    text[..at]
        .chars()
        .next_back()
        .is_some_and(|c| c.is_alphanumeric())
}

fn is_number(w: &str) -> bool {
    w.chars().all(|c| c.is_ascii_digit())
}

fn is_seat_id(w: &str) -> bool {
    w.strip_prefix('p')
        .is_some_and(|n| !n.is_empty() && is_number(n))
}

/// `LastPartyStanding`: capitalised parts of two or more lower-case letters each, at least two.
fn is_variant_name(w: &str) -> bool {
    let mut parts = 0;
    let mut chars = w.chars().peekable();
    while let Some(c) = chars.next() {
        if !c.is_ascii_uppercase() {
            return false;
        }
        let mut lower = 0;
        while chars.peek().is_some_and(|c| c.is_ascii_lowercase()) {
            chars.next();
            lower += 1;
        }
        if lower < 2 {
            return false;
        }
        parts += 1;
    }
    parts >= 2
}

/// Lines of narration as one paragraph: each line a sentence, opening with a capital and
/// ending with a full stop unless it already ends a sentence, so "the challenger takes the
/// Advantage die" and "Round 3 begins" never run together.
pub fn sentences<S: AsRef<str>>(lines: &[S]) -> String {
    let mut out = String::new();
    for line in lines
        .iter()
        .map(|l| l.as_ref().trim())
        .filter(|l| !l.is_empty())
    {
        if !out.is_empty() {
            out.push(' ');
        }
        let mut chars = line.chars();
        if let Some(first) = chars.next() {
            out.extend(first.to_uppercase());
            out.push_str(chars.as_str());
        }
        if !line.ends_with(['.', '!', '?', ':', '…']) {
            out.push('.');
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn narration_lines_read_as_sentences() {
        let lines = [
            "the challenger takes the Advantage die",
            "Round 3 begins",
            "",
            "Done!",
        ];
        assert_eq!(
            sentences(&lines),
            "The challenger takes the Advantage die. Round 3 begins. Done!"
        );
        assert_eq!(sentences::<&str>(&[]), "");
    }

    fn kinds(text: &str) -> Vec<RawKind> {
        raw_tokens(text).into_iter().map(|t| t.kind).collect()
    }

    #[test]
    fn clean_lines_pass() {
        for line in [
            "Ada goes after the Brute.",
            "Waiting for Ada and the GM.",
            "Wax On (Attack) stops 4 of Bo's stance.",
            "Red places a small pyramid on its home stack at position 1.",
            "The chain A-L, G-H ends; its cards return to hand.",
            "Turn 12: Blue is pinned and passes.",
            "McGregor wins.",
        ] {
            assert_eq!(raw_tokens(line), Vec::new(), "{line}");
        }
    }

    #[test]
    fn raw_lines_are_caught() {
        assert_eq!(kinds("over: Some(Players)"), [RawKind::DebugValue]);
        assert!(kinds("winners [3], losers [0, 1, 2]").contains(&RawKind::IndexList));
        assert!(kinds("Waiting for: gm, p1").contains(&RawKind::SeatId));
        assert!(kinds("party 0 passes").contains(&RawKind::Numbered));
        assert!(kinds("Brute (Npc)").contains(&RawKind::VariantName));
        assert!(kinds("ends (LastPartyStanding)").contains(&RawKind::VariantName));
        assert!(kinds("breather used: false").contains(&RawKind::DebugValue));
        assert!(kinds("target: None").contains(&RawKind::DebugValue));
        assert!(kinds("{\"type\": \"pass\"}").contains(&RawKind::Structure));
        assert!(kinds("Concede · type: x").contains(&RawKind::Structure));
        assert!(kinds("Player 2 picks").contains(&RawKind::Numbered));
    }

    #[test]
    fn names_and_texts_refuse_invisible_controls() {
        for name in ["Ada", "Zoë", "אדה", "Ada Lovelace"] {
            assert_eq!(plain_name("a name", name), Ok(()), "{name}");
        }
        for name in [
            "Ada\0",
            "Ada\n",
            "\u{202E}adA",
            "A\u{2066}da",
            "A\u{200B}da",
        ] {
            let e = plain_name("a name", name).unwrap_err();
            assert!(e.contains("invisible character U+"), "{e}");
        }
        assert_eq!(plain_text("a line", "two\nlines\tand a tab"), Ok(()));
        assert!(plain_text("a line", "over\u{202E}ride").is_err());
        assert!(plain_text("a line", "nul\0").is_err());
    }

    /// Each character a name may not hold, with the kind the refusal names (N-1).
    #[test]
    fn names_refuse_format_separator_and_filler_characters() {
        let refused = [
            ('\u{200E}', "Cf"),     // left-to-right mark
            ('\u{200F}', "Cf"),     // right-to-left mark
            ('\u{061C}', "Cf"),     // Arabic letter mark
            ('\u{206A}', "Cf"),     // inhibit symmetric swapping
            ('\u{00AD}', "Cf"),     // soft hyphen
            ('\u{180E}', "Cf"),     // Mongolian vowel separator
            ('\u{E0041}', "Cf"),    // tag Latin capital A
            ('\u{E007F}', "Cf"),    // cancel tag
            ('\u{200D}', "Cf"),     // ZWJ between Latin letters
            ('\u{200C}', "Cf"),     // ZWNJ between Latin letters
            ('\u{2028}', "Zl"),     // line separator
            ('\u{2029}', "Zp"),     // paragraph separator
            ('\u{3164}', "filler"), // Hangul filler
            ('\u{115F}', "filler"), // Hangul choseong filler
            ('\u{1160}', "filler"), // Hangul jungseong filler
            ('\u{FFA0}', "filler"), // halfwidth Hangul filler
            ('\u{17B4}', "filler"), // Khmer vowel inherent AQ
            ('\u{034F}', "filler"), // combining grapheme joiner
            ('\u{2800}', "filler"), // Braille pattern blank
            ('\u{202E}', "Cf"),     // right-to-left override
        ];
        for (c, kind) in refused {
            let name = format!("Ad{c}a");
            let e = plain_name("a table's name", &name).unwrap_err();
            assert!(e.contains(&format!("U+{:04X}", c as u32)), "{e}");
            assert!(e.contains(kind) && e.contains("N-1"), "{e}");
            assert!(e.starts_with("a table's name cannot hold the invisible character"));
            // Alone, the character is refused just the same.
            assert!(plain_name("a name", &c.to_string()).is_err(), "{c:?}");
        }
    }

    #[test]
    fn names_keep_the_joiners_their_script_or_emoji_need() {
        for name in [
            "می\u{200C}خواهم", // Persian: ZWNJ between letters
            "क्\u{200D}ष",      // Devanagari: ZWJ after a virama
            "👩\u{200D}🚀",    // an astronaut: ZWJ between emoji
            "👍🏽",              // a skin tone: a modifier, not a joiner
            "Zoë",
            "Ada Lovelace",
        ] {
            assert_eq!(plain_name("a name", name), Ok(()), "{name:?}");
        }
        for name in ["\u{200D}Ada", "Ada\u{200C}", "a\u{200D}👍"] {
            assert!(plain_name("a name", name).is_err(), "{name:?}");
        }
    }
}
