//! Text leaving the table, made safe for where it goes: the boundary between what a message
//! says ([`super::message`]) and the format it is delivered in.
//!
//! What people write at the table (talk, whispers, names, the table's title) reaches chat apps,
//! which read markup in it. Here it is written so that it shows as text and does nothing else:
//!
//! * **Slack**: `&`, `<` and `>` become `&amp;`, `&lt;` and `&gt;`, as Slack asks, so no
//!   `<!channel>`, `<@U…>` or `<https://…|disguised link>` survives.
//! * **Discord**: markup characters are escaped with a backslash (no `[masked](link)`, no
//!   `<@…>`), and the message's `allowed_mentions` names only the users the table mentions by
//!   the handles its players set.
//! * **Both**: `@everyone`, `@here` and `@channel` are broken by a zero-width space, and so is
//!   every `://` and `www.` in what people wrote, so the only link a message holds is the
//!   server's own.
//! * **Email** and generic JSON carry the text as written: plain text, in a body no mail
//!   reader takes for markup, and in a JSON string.
//!
//! The mentions the table does set (a player's handle, in the table channel) are marked in an
//! item's text by [`mention`] with two control characters no text a person types can hold
//! (every name and line refuses control characters), and rendered as they are only here.

use serde_json::{Value, json};

use super::target::check_handle;

/// Marks a mention the table sets: it opens and closes a handle in an item's text.
const OPEN: char = '\u{1}';
const CLOSE: char = '\u{2}';
/// Breaks a word a chat app would act on, invisibly.
const BREAK: char = '\u{200B}';
/// Discord's limit on a message is 2000 characters.
const DISCORD_LIMIT: usize = 1900;

/// `handle` as a mention the table sets, in an item's text.
pub fn mention(handle: &str) -> String {
    format!("{OPEN}{handle}{CLOSE}")
}

/// A piece of an item's text: as people wrote it, or a mention the table set.
#[derive(Debug, PartialEq)]
enum Piece<'a> {
    Text(&'a str),
    Mention(&'a str),
}

/// The pieces of `text`. A marked piece that is not a valid handle is taken as text.
fn pieces(text: &str) -> Vec<Piece<'_>> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(open) = rest.find(OPEN) {
        let Some(len) = rest[open + 1..].find(CLOSE) else {
            break;
        };
        let handle = &rest[open + 1..open + 1 + len];
        out.push(Piece::Text(&rest[..open]));
        match check_handle(handle) {
            Ok(h) if h == handle => out.push(Piece::Mention(handle)),
            _ => out.push(Piece::Text(handle)),
        }
        rest = &rest[open + 1 + len + 1..];
    }
    out.push(Piece::Text(rest));
    out.retain(|p| *p != Piece::Text(""));
    out
}

/// `text` with the table's marks removed: for plain text (email) and JSON.
pub fn plain(text: &str) -> String {
    text.chars().filter(|c| *c != OPEN && *c != CLOSE).collect()
}

/// Break what a chat app would turn into a mass mention or a link: `@everyone`, `@here`,
/// `@channel`, `://` and `www.` (in any case), each by a zero-width space after its `@`, its
/// `:` or its `www`.
fn defuse(text: &str) -> String {
    let bytes = text.as_bytes();
    let at = |i: usize, word: &str| {
        bytes
            .get(i..i + word.len())
            .is_some_and(|b| b.eq_ignore_ascii_case(word.as_bytes()))
    };
    let mut out = String::with_capacity(text.len() + 8);
    for (i, c) in text.char_indices() {
        out.push(c);
        let mass = c == '@' && ["@everyone", "@here", "@channel"].iter().any(|w| at(i, w));
        let scheme = c == ':' && at(i, "://");
        let www = (c == 'w' || c == 'W') && i >= 2 && at(i - 2, "www.");
        if mass || scheme || www {
            out.push(BREAK);
        }
    }
    out
}

/// Text people wrote, as Slack shows text: `&`, `<`, `>` as entities.
fn slack_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in defuse(&plain(text)).chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            c => out.push(c),
        }
    }
    out
}

/// Text people wrote, as Discord shows text: every markup character escaped.
fn discord_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in defuse(&plain(text)).chars() {
        if "\\*_~`|[]<>@".contains(c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// An item's text in a format: what people wrote escaped with `escape`, the table's mentions
/// as they are, each noted in `mentioned`.
fn render(text: &str, escape: fn(&str) -> String, mentioned: &mut Vec<String>) -> String {
    pieces(text)
        .into_iter()
        .map(|piece| match piece {
            Piece::Text(t) => escape(t),
            Piece::Mention(handle) => {
                mentioned.push(handle.to_string());
                handle.to_string()
            }
        })
        .collect()
}

/// The Discord user a handle pings (`<@123>` or `<@!123>`), if it is one.
fn discord_user(handle: &str) -> Option<String> {
    let id = handle.strip_prefix("<@")?.strip_suffix('>')?;
    let id = id.strip_prefix('!').unwrap_or(id);
    (!id.is_empty() && id.bytes().all(|b| b.is_ascii_digit())).then(|| id.to_string())
}

/// The body of a Discord webhook: pings only the users the table mentions.
/// `compose` writes the message with what people wrote made safe by the function it is given
/// (see [`super::message::Message::compose`]).
pub fn discord(compose: impl FnOnce(&mut dyn FnMut(&str) -> String) -> String) -> Value {
    let mut mentioned = Vec::new();
    let text = compose(&mut |t| render(t, discord_text, &mut mentioned));
    let content: String = text.chars().take(DISCORD_LIMIT).collect();
    let mut users: Vec<String> = mentioned.iter().filter_map(|h| discord_user(h)).collect();
    users.sort();
    users.dedup();
    json!({ "content": content, "allowed_mentions": { "parse": [], "users": users } })
}

/// The body of a Slack webhook: markup only where the table set a mention.
pub fn slack(compose: impl FnOnce(&mut dyn FnMut(&str) -> String) -> String) -> Value {
    let mut mentioned = Vec::new();
    let text = compose(&mut |t| render(t, slack_text, &mut mentioned));
    json!({ "text": text, "unfurl_links": false, "unfurl_media": false })
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::notify::message::{Item, Message, What};

    fn slack(m: &Message, base: Option<&str>) -> Value {
        super::slack(|written| m.compose(base, written))
    }

    fn discord(m: &Message, base: Option<&str>) -> Value {
        super::discord(|written| m.compose(base, written))
    }

    const BASE: &str = "https://clash.example";

    fn message(title: &str, items: Vec<String>) -> Message {
        Message {
            table: "t".into(),
            title: title.into(),
            to: "the table".into(),
            items: items
                .into_iter()
                .map(|text| Item {
                    kind: What::Mention,
                    text,
                    waiting: None,
                })
                .collect(),
            more: 0,
        }
    }

    /// The handles the table sets in these tests.
    const HANDLES: [&str; 3] = ["<@111>", "<@!222>", "<@U0333>"];

    /// `out` without the handles the table set and the server's own link: what is left came
    /// from people's text, and must hold no markup at all.
    fn written_part(out: &str) -> String {
        let mut rest = out.replace(&format!("{BASE}/"), "");
        for h in HANDLES {
            rest = rest.replace(h, "");
        }
        rest
    }

    /// Text people type at a table: markup of both apps and mass mentions, among anything.
    fn typed() -> impl Strategy<Value = String> {
        let piece = prop_oneof![
            Just("<!channel>".to_string()),
            Just("<!here|here>".to_string()),
            Just("<https://evil.example|your seat link>".to_string()),
            Just("[your seat link](https://evil.example)".to_string()),
            Just("<@111>".to_string()),
            Just("<@&999>".to_string()),
            Just("<#C0123>".to_string()),
            Just("@everyone @here @channel @Everyone".to_string()),
            Just("www.evil.example http://x.example/".to_string()),
            Just("& &amp; < > \\ ` * _ ~ |".to_string()),
            "\\PC{0,8}",
        ];
        proptest::collection::vec(piece, 1..6).prop_map(|p| p.concat())
    }

    proptest! {
        /// Arbitrary text never yields a mention or a link the table did not set.
        #[test]
        fn written_text_never_mentions_or_links(said in typed(), title in typed()) {
            let marked = format!("{}: {said}", mention("<@111>"));
            let m = message(&title, vec![marked, said.clone(), format!("{} {said}", mention("<@!222>"))]);

            let slack = slack(&m, Some(BASE))["text"].as_str().unwrap().to_string();
            let left = written_part(&slack);
            prop_assert!(!left.contains('<') && !left.contains('>'), "{slack}");
            prop_assert!(left.replace("&amp;", "").replace("&lt;", "").replace("&gt;", "").find('&').is_none());
            prop_assert!(slack.contains("<@111>") && slack.contains("<@!222>"));

            let discord = discord(&m, Some(BASE));
            let content = discord["content"].as_str().unwrap();
            let left = written_part(content);
            // Every markup character people wrote is escaped.
            let mut escaped = false;
            for c in left.chars() {
                prop_assert!(escaped || !"[]<>".contains(c), "{content}");
                escaped = c == '\\' && !escaped;
            }
            prop_assert_eq!(&discord["allowed_mentions"], &json!({"parse": [], "users": ["111", "222"]}));

            for out in [written_part(&slack), written_part(content)] {
                let lower = out.to_lowercase();
                for word in ["@everyone", "@here", "@channel", "://", "www."] {
                    prop_assert!(!lower.contains(word), "{word} in {out}");
                }
            }
        }
    }

    #[test]
    fn the_issues_line_reaches_slack_and_discord_as_text() {
        let said = "@Ada <!channel> <https://evil|your seat link>";
        let m = message("A table", vec![format!("Bo: {said}")]);
        let slack = slack(&m, Some(BASE))["text"].as_str().unwrap().to_string();
        assert!(
            slack.contains("Bo: @Ada &lt;!channel&gt; &lt;https:\u{200B}//evil|your seat link&gt;"),
            "{slack}"
        );
        let discord = discord(&m, Some(BASE));
        let content = discord["content"].as_str().unwrap();
        assert!(content.contains(r"\<!channel\>"), "{content}");
        assert_eq!(
            discord["allowed_mentions"],
            json!({"parse": [], "users": []})
        );
        // A marked piece that is not a handle is text; marks vanish from plain text.
        assert_eq!(
            pieces("\u{1}@everyone\u{2}"),
            vec![Piece::Text("@everyone")]
        );
        assert_eq!(plain(&format!("{} hi", mention("<@1>"))), "<@1> hi");
    }
}
