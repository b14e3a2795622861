//! Who sits at the table: the GM, numbered players, and onlookers.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A seat that may issue commands.
///
/// Written as `"gm"` or `"p1"`, `"p2"`, … in scenarios, JSON and URLs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(type = "\"gm\" | `p${number}`"))]
pub enum Seat {
    /// The game master, who controls every NPC where a system has one.
    Gm,
    /// A player seat, numbered from 1.
    Player(u8),
}

/// Whoever is looking at the table: a seat, or a spectator who sees only public information.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "ts",
    derive(ts_rs::TS),
    ts(type = "\"gm\" | \"spectator\" | `p${number}`")
)]
pub enum Viewer {
    Seat(Seat),
    Spectator,
}

impl Viewer {
    /// The seat behind this viewer, if any.
    pub fn seat(self) -> Option<Seat> {
        match self {
            Viewer::Seat(s) => Some(s),
            Viewer::Spectator => None,
        }
    }

    /// True when this viewer is `seat` itself.
    pub fn is(self, seat: Seat) -> bool {
        self.seat() == Some(seat)
    }
}

impl From<Seat> for Viewer {
    fn from(seat: Seat) -> Self {
        Viewer::Seat(seat)
    }
}

/// A seat name that is neither `gm` nor `p<1-255>`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown seat {0:?}: expected \"gm\" or \"p1\", \"p2\", …")]
pub struct BadSeat(pub String);

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Seat::Gm => f.write_str("gm"),
            Seat::Player(n) => write!(f, "p{n}"),
        }
    }
}

impl FromStr for Seat {
    type Err = BadSeat;
    fn from_str(s: &str) -> Result<Self, BadSeat> {
        if s.eq_ignore_ascii_case("gm") {
            return Ok(Seat::Gm);
        }
        s.strip_prefix('p')
            .and_then(|n| n.parse::<u8>().ok())
            .filter(|n| *n >= 1)
            .map(Seat::Player)
            .ok_or_else(|| BadSeat(s.to_string()))
    }
}

impl fmt::Display for Viewer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Viewer::Seat(s) => s.fmt(f),
            Viewer::Spectator => f.write_str("spectator"),
        }
    }
}

impl FromStr for Viewer {
    type Err = BadSeat;
    fn from_str(s: &str) -> Result<Self, BadSeat> {
        if s.eq_ignore_ascii_case("spectator") {
            Ok(Viewer::Spectator)
        } else {
            s.parse().map(Viewer::Seat)
        }
    }
}

macro_rules! serde_via_str {
    ($t:ty) => {
        impl Serialize for $t {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.collect_str(self)
            }
        }
        impl<'de> Deserialize<'de> for $t {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let s = String::deserialize(d)?;
                s.parse().map_err(serde::de::Error::custom)
            }
        }
    };
}
serde_via_str!(Seat);
serde_via_str!(Viewer);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seats_round_trip_through_text() {
        for seat in [Seat::Gm, Seat::Player(1), Seat::Player(6)] {
            assert_eq!(seat.to_string().parse::<Seat>(), Ok(seat));
            let json = serde_json::to_string(&seat).unwrap();
            assert_eq!(serde_json::from_str::<Seat>(&json).unwrap(), seat);
        }
        assert_eq!("spectator".parse::<Viewer>(), Ok(Viewer::Spectator));
    }

    #[test]
    fn malformed_seats_are_rejected() {
        for bad in ["", "p", "p0", "p256", "x1", "gm2"] {
            assert!(bad.parse::<Seat>().is_err(), "{bad}");
        }
    }
}
