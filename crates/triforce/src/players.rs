//! Who plays (TF-5): each seat has a colour of pyramids, and may have a name its player gave.
//! People at the table know a seat by these, never by its seat id.

use std::fmt;

use crate::pieces::{MAX_PLAYERS, Pyramid, Size};

pub use crate::limits::{NAME_BYTES, check_name};

/// The colours of the seats' pyramids, in seat order from `p1`: the colours the table page
/// draws them in. White, black and clear are the board, the swords and the shields (TF-3).
pub const COLOURS: [&str; MAX_PLAYERS] = ["Red", "Green", "Blue", "Yellow", "Purple", "Teal"];

/// The colour of seat index `s` (0 = `p1`).
pub fn colour(s: u8) -> &'static str {
    COLOURS[usize::from(s) % MAX_PLAYERS]
}

/// The names players gave, held inline (no allocation) so the state stays a plain copy.
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "triforce/"))]
#[derive(Clone, Copy, PartialEq, Eq, Default)]
pub struct PlayerNames {
    bytes: [[u8; NAME_BYTES]; MAX_PLAYERS],
    lens: [u8; MAX_PLAYERS],
}

impl PlayerNames {
    /// The name of seat index `s`, if its player gave one.
    pub fn get(&self, s: u8) -> Option<&str> {
        let i = usize::from(s);
        let len = usize::from(*self.lens.get(i)?);
        // Only whole `&str`s are ever stored, so this never fails.
        std::str::from_utf8(&self.bytes[i][..len])
            .ok()
            .filter(|n| !n.is_empty())
    }

    /// Give seat index `s` the name `name` (already checked by [`check_name`]).
    pub(crate) fn set(&mut self, s: u8, name: &str) {
        let i = usize::from(s) % MAX_PLAYERS;
        let len = name.len().min(NAME_BYTES);
        self.bytes[i] = [0; NAME_BYTES];
        self.bytes[i][..len].copy_from_slice(&name.as_bytes()[..len]);
        self.lens[i] = len as u8;
    }

    pub fn is_empty(&self) -> bool {
        self.lens.iter().all(|l| *l == 0)
    }
}

impl fmt::Debug for PlayerNames {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list()
            .entries((0..MAX_PLAYERS as u8).map(|s| self.get(s)))
            .finish()
    }
}

/// How a seat is named at the table: its colour, with its player's name when given
/// ("Red", "Ada (Red)").
pub fn seat_name(names: &PlayerNames, s: u8) -> String {
    match names.get(s) {
        Some(name) => format!("{name} ({})", colour(s)),
        None => colour(s).to_string(),
    }
}

/// A size in words.
pub fn size_words(size: Size) -> &'static str {
    match size {
        Size::S => "small",
        Size::M => "medium",
        Size::L => "large",
    }
}

/// A pyramid in words: "a small Red piece", "a large sword", "a medium shield".
pub fn pyramid_words(p: Pyramid) -> String {
    let size = size_words(p.size());
    match p.owner() {
        Some(s) => format!("a {size} {} piece", colour(s)),
        None if p.is_sword() => format!("a {size} sword"),
        None => format!("a {size} shield"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_kept_inline_and_read_back() {
        let mut names = PlayerNames::default();
        assert!(names.is_empty());
        names.set(2, "Zoë");
        assert_eq!(names.get(2), Some("Zoë"));
        assert_eq!(names.get(0), None);
        assert_eq!(seat_name(&names, 2), "Zoë (Blue)");
        assert_eq!(seat_name(&names, 0), "Red");
    }

    #[test]
    fn bad_names_are_refused() {
        assert!(check_name("").is_err());
        assert!(check_name(" Ada").is_err());
        assert!(check_name(&"x".repeat(NAME_BYTES + 1)).is_err());
        assert!(check_name("A\u{7}da").is_err());
        assert!(check_name("Ada Lovelace").is_ok());
    }

    #[test]
    fn pyramids_in_words() {
        assert_eq!(
            pyramid_words(Pyramid::piece(1, Size::S)),
            "a small Green piece"
        );
        assert_eq!(pyramid_words(Pyramid::sword(Size::L)), "a large sword");
        assert_eq!(pyramid_words(Pyramid::shield(Size::M)), "a medium shield");
    }
}
