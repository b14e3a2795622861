//! Words for lists of names and for players without a character yet, so that every line a
//! person reads names people instead of showing seat ids.

/// "nobody", "Ada", "Ada and Bo", "Ada, Bo and Cy".
pub fn list<S: AsRef<str>>(names: &[S]) -> String {
    match names {
        [] => "nobody".into(),
        [one] => one.as_ref().to_string(),
        [rest @ .., last] => {
            let rest: Vec<&str> = rest.iter().map(AsRef::as_ref).collect();
            format!("{} and {}", rest.join(", "), last.as_ref())
        }
    }
}

/// A player with no character yet, by their place at the table: "the second player".
pub fn ordinal_player(n: u8) -> String {
    const ORDINALS: [&str; 12] = [
        "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth",
        "tenth", "eleventh", "twelfth",
    ];
    match ORDINALS.get(usize::from(n).wrapping_sub(1)) {
        Some(word) => format!("the {word} player"),
        None => "a player without a character".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_read_as_english() {
        assert_eq!(list::<&str>(&[]), "nobody");
        assert_eq!(list(&["Ada"]), "Ada");
        assert_eq!(list(&["Ada", "Bo", "Cy"]), "Ada, Bo and Cy");
        assert_eq!(ordinal_player(2), "the second player");
        assert_eq!(ordinal_player(200), "a player without a character");
    }
}
