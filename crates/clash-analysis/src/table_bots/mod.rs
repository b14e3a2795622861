//! Bots that take a seat at a table and play it fairly: [`clash_core::SeatBot`]s, which decide
//! from the seat's [`SeatTable`] (its view, its legal commands, the log as it saw it, whose
//! move it is) and never see the state.
//!
//! Every ruleset has two strengths ([`Strength`]):
//!
//! * **casual** ([`Casual`]): a uniformly random choice among the commands a bot sends;
//! * **strong**: the best policy the game's crate has, worked out from the view alone
//!   ([`Seated::strong`]).
//!
//! What no bot does: table business a person decides (starting a conflict or the next round,
//! reframing, ending a chapter, revealing an NPC's sheet), anything whose point is words
//! (stakes, narration, the terms of an offer, an Oracle, tactics), and giving up (conceding;
//! surrendering only when the rules leave nothing else). A bot acts only while the game waits
//! on its seat, and answers `None` otherwise.
//!
//! The catalogue offers these bots through [`hook`] ([`clash_core::BotFn`]), which builds the
//! seat's table from a running game with [`clash_core::play_seat`] and nothing else.

use std::marker::PhantomData;
use std::time::{Duration, Instant};

use clash_core::{
    AnyGame, BotError, Budget, Randomness, Ruleset, Seat, SeatBot, SeatTable, Strength, play_seat,
};
use serde_json::Value;

use crate::bots::pick_random;

/// Whether a bot sends a command.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sends {
    /// A play like any other.
    Play,
    /// Only when nothing else is left (a surrender the rules force).
    LastResort,
    /// Never: table business a person decides, words only a person can say, or giving up.
    Never,
}

/// What the table bots of a ruleset need besides its rules.
pub trait Seated: Ruleset {
    /// Whether a bot sends `command`.
    fn bot_sends(command: &Self::Command) -> Sends;

    /// The ruleset's strong bot.
    fn strong() -> Box<dyn SeatBot<Self>>;
}

/// The commands of `table` a bot may send: its plays, or when it has none, its last resorts.
pub fn bot_commands<R: Seated>(table: &SeatTable<R>) -> Vec<R::Command> {
    let of = |kind: Sends| -> Vec<R::Command> {
        table
            .legal
            .iter()
            .filter(|c| R::bot_sends(c) == kind)
            .cloned()
            .collect()
    };
    let plays = of(Sends::Play);
    if plays.is_empty() {
        of(Sends::LastResort)
    } else {
        plays
    }
}

/// The end of a strong bot's choice: what its search `picked`, when `keep` finds it one of the
/// seat's options, else what the casual bot chooses (a search that found nothing, or a choice
/// the seat may not send, never leaves the seat stuck).
pub fn or_casual<R: Seated>(
    picked: Option<R::Command>,
    keep: impl Fn(&R::Command) -> bool,
    table: &SeatTable<R>,
    budget: Budget,
    rng: &mut dyn Randomness,
) -> Option<R::Command> {
    match picked {
        Some(c) if keep(&c) => Some(c),
        _ => Casual::default().choose(table, budget, rng),
    }
}

/// A uniformly random command among those a bot sends, while the game waits on the seat.
pub struct Casual<R>(PhantomData<fn() -> R>);

impl<R> Default for Casual<R> {
    fn default() -> Self {
        Casual(PhantomData)
    }
}

impl<R: Seated> SeatBot<R> for Casual<R> {
    fn choose(
        &self,
        table: &SeatTable<R>,
        _budget: Budget,
        rng: &mut dyn Randomness,
    ) -> Option<R::Command> {
        if !table.to_act() {
            return None;
        }
        pick_random(bot_commands(table), rng)
    }
}

/// The bot of `strength` for ruleset `R`.
pub fn bot<R: Seated>(strength: Strength) -> Box<dyn SeatBot<R>> {
    match strength {
        Strength::Casual => Box::new(Casual::<R>::default()),
        Strength::Strong => R::strong(),
    }
}

/// The catalogue's bot hook for ruleset `R` ([`clash_core::BotFn`]).
pub fn hook<R: Seated>(
    game: &dyn AnyGame,
    seat: Seat,
    strength: Strength,
    budget: Budget,
    rng: &mut dyn Randomness,
) -> Result<Option<Value>, BotError> {
    play_seat::<R>(game, seat, &*bot::<R>(strength), budget, rng)
}

/// When a bot's thinking must stop: the budget's clock from now, and its work cap.
#[derive(Debug, Clone, Copy)]
pub struct Deadline {
    until: Option<Instant>,
    pub work: u32,
}

impl Deadline {
    pub fn start(budget: Budget) -> Deadline {
        Deadline {
            until: Instant::now().checked_add(budget.time),
            work: budget.work.max(1),
        }
    }

    /// True once the clock has run out.
    pub fn passed(&self) -> bool {
        self.until.is_some_and(|t| Instant::now() >= t)
    }

    /// Time left, at least zero.
    pub fn left(&self) -> Duration {
        self.until.map_or(Duration::MAX, |t| {
            t.saturating_duration_since(Instant::now())
        })
    }
}

/// A seed for a bot's own generators, drawn from the randomness it was given.
pub fn seed_from(rng: &mut dyn Randomness) -> u64 {
    let half = |rng: &mut dyn Randomness| u64::from(rng.roll(u32::MAX).unwrap_or(1));
    half(rng) << 32 | half(rng)
}

#[cfg(test)]
mod tests {
    use super::*;
    use clash_core::SeededRandomness;

    #[test]
    fn a_deadline_counts_down_from_the_budget() {
        let d = Deadline::start(Budget::work(3));
        assert!(!d.passed());
        assert!(d.left() > Duration::from_secs(60));
        assert_eq!(d.work, 3);
        let gone = Deadline::start(Budget {
            time: Duration::ZERO,
            work: 0,
        });
        assert!(gone.passed());
        assert_eq!(gone.work, 1, "some work is always allowed");
    }

    #[test]
    fn seeds_follow_the_randomness() {
        let a = seed_from(&mut SeededRandomness::new(4));
        let b = seed_from(&mut SeededRandomness::new(4));
        let c = seed_from(&mut SeededRandomness::new(5));
        assert_eq!(a, b);
        assert_ne!(a, c);
    }
}
