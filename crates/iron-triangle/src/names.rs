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

/// Whether two names read as the same to a player: letter case and surrounding spaces make no
/// difference ("Sailor", " sailor " and "SAILOR" are one name; "Sea dog" is another). This is
/// how backgrounds are told apart (IT-10) and how the GM's note spots a problem described like
/// a closed one (IT-20).
pub fn same(a: &str, b: &str) -> bool {
    fn folded(s: &str) -> impl Iterator<Item = char> + '_ {
        s.trim().chars().flat_map(char::to_lowercase)
    }
    folded(a).eq(folded(b))
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

    #[test]
    fn names_are_the_same_whatever_their_case_and_surrounding_spaces() {
        assert!(same("Sailor", "  sAILOR ")); // IT-10: one background
        assert!(same("Écuyer", "écuyer"));
        assert!(!same("Sailor", "Sea dog"));
        assert!(!same("Dock worker", "Dockworker")); // spaces inside a name count
    }
}
