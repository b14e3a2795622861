//! Link keys: unguessable secrets that stand for one role at one table.
//!
//! A key is 128 random bits from the operating system, written as 32 hex digits. Whoever holds
//! it acts in its role and nothing else: the owner (the GM, who created the table), one seat,
//! or a read-only spectator.
//!
//! A seat's link as the GM hands it out is an *invite*: the first visit exchanges it for the
//! player's own key, which only the player's browser ever sees. So the GM, who necessarily
//! knows every invite, never holds a key that reads a player's secrets.

use std::fmt;
use std::str::FromStr;

use clash_core::Seat;

/// What a link lets its holder do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Role {
    /// The table's creator: manages links, plays the `gm` seat when the ruleset has one, and
    /// plays every seat marked as an NPC.
    Owner,
    /// One seat, and only that seat.
    Seat(Seat),
    /// Sees public information only; sends nothing.
    Spectator,
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Role::Owner => f.write_str("owner"),
            Role::Seat(s) => s.fmt(f),
            Role::Spectator => f.write_str("spectator"),
        }
    }
}

impl FromStr for Role {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "owner" => Ok(Role::Owner),
            "spectator" => Ok(Role::Spectator),
            other => other.parse().map(Role::Seat).map_err(|e| e.to_string()),
        }
    }
}

/// Fresh random bytes from the OS, as lowercase hex.
fn random_hex(bytes: usize) -> String {
    let mut buf = vec![0u8; bytes];
    // The OS generator failing is not something a server can carry on from.
    getrandom::fill(&mut buf).expect("the operating system's random generator failed");
    buf.iter().map(|b| format!("{b:02x}")).collect()
}

/// A new link key (128 bits).
pub fn new_key() -> String {
    random_hex(16)
}

/// A new table id: public (it appears in every link), random so tables cannot be listed by guessing.
pub fn new_table_id() -> String {
    random_hex(6)
}

/// A new server secret for a table's chance: 32 bytes from the operating system.
pub fn new_secret() -> Vec<u8> {
    let mut buf = vec![0u8; 32];
    getrandom::fill(&mut buf).expect("the operating system's random generator failed");
    buf
}

/// Client seeds and command ids are short plain words: letters, digits, `-`, `_`, `.` and `:`.
pub fn plain_word(text: &str, max: usize) -> bool {
    !text.is_empty()
        && text.len() <= max
        && text
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_.:".contains(&b))
}

/// Compare two keys in time independent of where they first differ.
pub fn same_key(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.bytes()
            .zip(b.bytes())
            .fold(0u8, |acc, (x, y)| acc | (x ^ y))
            == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_carry_128_random_bits() {
        let a = new_key();
        assert_eq!(a.len(), 32);
        assert!(a.chars().all(|c| c.is_ascii_hexdigit()));
        assert_ne!(a, new_key());
    }

    #[test]
    fn roles_round_trip_through_text() {
        for r in [
            Role::Owner,
            Role::Spectator,
            Role::Seat(Seat::Gm),
            Role::Seat(Seat::Player(3)),
        ] {
            assert_eq!(r.to_string().parse::<Role>(), Ok(r));
        }
        assert!("p0".parse::<Role>().is_err());
    }

    #[test]
    fn key_comparison_needs_every_character() {
        assert!(same_key("abcd", "abcd"));
        assert!(!same_key("abcd", "abce"));
        assert!(!same_key("abc", "abcd"));
    }
}
