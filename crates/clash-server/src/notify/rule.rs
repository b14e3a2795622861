//! The GM's clock for a table, as the log records it ([`crate::log::TableEvent::ClockSet`]):
//! a reminder after the game has waited on a seat for a while, and an optional clock that runs
//! out, with what the table then does.

use serde::{Deserialize, Serialize};

/// The longest any reminder or clock may be: four weeks.
pub const LONGEST_SECONDS: u64 = 28 * 24 * 3600;

/// A clock that runs out.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(tag = "mode", rename_all = "snake_case")]
pub enum Clock {
    /// Each seat has this much time in all, spent only while the game waits on it.
    Budget {
        #[serde(deserialize_with = "crate::http::whole::number")]
        seconds: u64,
    },
    /// Each move must be made within this long of the game waiting on the seat.
    Deadline {
        #[serde(deserialize_with = "crate::http::whole::number")]
        seconds: u64,
    },
}

/// What the table does when a seat's clock runs out.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Expiry {
    /// Remind the seat's player (again).
    #[default]
    Remind,
    /// The seat's bot makes a casual move for it (where the rules have bots; else the GM is
    /// alerted).
    Bot,
    /// Tell the GM.
    AlertGm,
}

/// The GM's clock settings.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ClockRule {
    /// Remind a seat's player after the game has waited on them this long.
    #[serde(
        default,
        deserialize_with = "crate::http::whole::optional",
        skip_serializing_if = "Option::is_none"
    )]
    pub remind_after: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock: Option<Clock>,
    #[serde(default)]
    pub on_expiry: Expiry,
}

/// "3 days", "5 hours", "90 seconds": the biggest whole unit.
pub fn span(seconds: u64) -> String {
    let units = [
        (86_400, "day"),
        (3_600, "hour"),
        (60, "minute"),
        (1, "second"),
    ];
    let (size, name) = units
        .into_iter()
        .find(|(size, _)| seconds >= *size && seconds.is_multiple_of(*size))
        .unwrap_or((1, "second"));
    let n = seconds / size;
    format!("{n} {name}{}", if n == 1 { "" } else { "s" })
}

/// A length of time rounded for a message: "40 seconds", "25 minutes", "6 hours", "3 days".
pub fn roughly(ms: i64) -> String {
    let seconds = (ms.max(0) + 500) / 1000;
    let (n, unit) = match seconds {
        s if s < 90 => (s, "second"),
        s if s < 90 * 60 => ((s + 30) / 60, "minute"),
        s if s < 48 * 3600 => ((s + 1800) / 3600, "hour"),
        s => ((s + 43_200) / 86_400, "day"),
    };
    format!("{n} {unit}{}", if n == 1 { "" } else { "s" })
}

impl ClockRule {
    /// How long before a seat's clock runs out its player is warned: when a quarter of the
    /// clock is left (a quarter of the deadline, or of the whole budget).
    pub fn warn_before_ms(&self) -> Option<i64> {
        self.clock.map(|c| match c {
            Clock::Budget { seconds } | Clock::Deadline { seconds } => seconds as i64 * 250,
        })
    }

    /// The settings told in words, for every seat's log.
    pub fn narrate(&self) -> String {
        if *self == ClockRule::default() {
            return "The GM turns the clock and reminders off.".into();
        }
        let mut parts = Vec::new();
        if let Some(clock) = self.clock {
            let (what, when) = match clock {
                Clock::Budget { seconds } => (
                    format!("{} for each seat in all", span(seconds)),
                    "a seat's time",
                ),
                Clock::Deadline { seconds } => {
                    (format!("{} for each move", span(seconds)), "a move's time")
                }
            };
            let then = match self.on_expiry {
                Expiry::Remind => "its player is reminded",
                Expiry::Bot => "a bot makes a casual move for the seat",
                Expiry::AlertGm => "the GM is told",
            };
            parts.push(format!(
                "The GM sets a clock: {what}; when {when} runs out, {then}."
            ));
        }
        if let Some(after) = self.remind_after {
            parts.push(format!(
                "A player is reminded after {} of waiting on them.",
                span(after)
            ));
        }
        if self.clock.is_none() {
            parts.insert(0, "The GM sets no clock.".into());
        }
        parts.join(" ")
    }

    /// A clear refusal for settings out of bounds.
    pub fn check(&self) -> Result<(), String> {
        let seconds = [
            self.remind_after,
            self.clock.map(|c| match c {
                Clock::Budget { seconds } | Clock::Deadline { seconds } => seconds,
            }),
        ];
        if seconds
            .into_iter()
            .flatten()
            .any(|s| s == 0 || s > LONGEST_SECONDS)
        {
            return Err(format!(
                "a reminder or clock is 1 second to {} long",
                span(LONGEST_SECONDS)
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_are_told_in_words() {
        let rule = ClockRule {
            remind_after: Some(12 * 3600),
            clock: Some(Clock::Deadline { seconds: 86_400 }),
            on_expiry: Expiry::Bot,
        };
        assert_eq!(
            rule.narrate(),
            "The GM sets a clock: 1 day for each move; when a move's time runs out, a bot makes a casual move for the seat. A player is reminded after 12 hours of waiting on them."
        );
        assert_eq!(span(90), "90 seconds");
        assert_eq!(roughly(54_200), "54 seconds");
        assert_eq!(roughly(6 * 3_600_000 - 20_000), "6 hours");
        assert_eq!(roughly(3 * 86_400_000), "3 days");
        assert_eq!(rule.warn_before_ms(), Some(6 * 3_600_000));
        assert!(
            ClockRule {
                remind_after: Some(0),
                ..rule
            }
            .check()
            .is_err()
        );
    }
}
