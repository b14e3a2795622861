//! Injectable randomness.
//!
//! Rules engines never own a random generator: every command that needs chance receives a
//! `&mut dyn Randomness`. Play uses [`SeededRandomness`] (ChaCha8, one stream per command so a
//! table can be resumed from its seed and command count); tests and worked examples use
//! [`ScriptedRandomness`], which hands out exactly the dice and picks it was given.
//!
//! Outcomes always end up in the events a command produces, so replaying a log never needs the
//! generator again.

use std::collections::VecDeque;

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

/// A source of chance that the engines can ask for dice and picks.
pub trait Randomness {
    /// Roll one die with `sides` faces: a value in `1..=sides`.
    fn roll(&mut self, sides: u32) -> Result<u32, RandomnessError>;

    /// Pick one of `count` options uniformly, returning its index.
    ///
    /// `label` names option `i` the way a scenario author would write it (a card name, a move
    /// code); only scripted sources call it.
    fn choose(
        &mut self,
        count: usize,
        label: &dyn Fn(usize) -> String,
    ) -> Result<usize, RandomnessError>;
}

/// Chance could not be supplied.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, thiserror::Error)]
pub enum RandomnessError {
    #[error("a die must have at least one side")]
    NoSides,
    #[error("there is nothing to choose from")]
    NothingToChoose,
    #[error("the script has no more values (needed {wanted})")]
    ScriptExhausted { wanted: String },
    #[error("the script gave {given} where {wanted} was needed")]
    ScriptMismatch { given: String, wanted: String },
}

/// Fair randomness from a seeded ChaCha8 generator.
#[derive(Debug, Clone)]
pub struct SeededRandomness {
    rng: ChaCha8Rng,
}

impl SeededRandomness {
    pub fn new(seed: u64) -> Self {
        SeededRandomness {
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }

    /// The generator for the `sequence`-th command of a table seeded with `seed`.
    ///
    /// Each command gets its own ChaCha stream, so a restarted server needs nothing but the seed
    /// and the number of commands already applied to continue exactly where it stopped.
    pub fn for_command(seed: u64, sequence: u64) -> Self {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        rng.set_stream(sequence);
        SeededRandomness { rng }
    }
}

impl Randomness for SeededRandomness {
    fn roll(&mut self, sides: u32) -> Result<u32, RandomnessError> {
        if sides == 0 {
            return Err(RandomnessError::NoSides);
        }
        Ok(self.rng.random_range(1..=sides))
    }

    fn choose(
        &mut self,
        count: usize,
        _label: &dyn Fn(usize) -> String,
    ) -> Result<usize, RandomnessError> {
        if count == 0 {
            return Err(RandomnessError::NothingToChoose);
        }
        Ok(self.rng.random_range(0..count))
    }
}

/// One value a script hands out: a die face, or the label of the option to pick.
///
/// In JSON a number is a die face and a string is a pick: `[6, 2, "XXI", "reversed"]`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Scripted {
    Die(u32),
    Pick(String),
}

/// Randomness that replays a fixed script, optionally falling back to a seed when it runs out.
#[derive(Debug, Clone, Default)]
pub struct ScriptedRandomness {
    script: VecDeque<Scripted>,
    fallback: Option<SeededRandomness>,
}

impl ScriptedRandomness {
    pub fn new(script: impl IntoIterator<Item = Scripted>) -> Self {
        ScriptedRandomness {
            script: script.into_iter().collect(),
            fallback: None,
        }
    }

    /// Once the script is used up, continue with fair randomness from `seed`.
    pub fn then_seeded(mut self, seed: u64) -> Self {
        self.fallback = Some(SeededRandomness::new(seed));
        self
    }

    /// Values not yet handed out.
    pub fn remaining(&self) -> usize {
        self.script.len()
    }

    fn next(
        &mut self,
        wanted: impl FnOnce() -> String,
    ) -> Result<Option<Scripted>, RandomnessError> {
        match self.script.pop_front() {
            Some(v) => Ok(Some(v)),
            None if self.fallback.is_some() => Ok(None),
            None => Err(RandomnessError::ScriptExhausted { wanted: wanted() }),
        }
    }
}

impl Randomness for ScriptedRandomness {
    fn roll(&mut self, sides: u32) -> Result<u32, RandomnessError> {
        if sides == 0 {
            return Err(RandomnessError::NoSides);
        }
        let wanted = || format!("a d{sides} face");
        match self.next(wanted)? {
            None => self
                .fallback
                .as_mut()
                .map_or(Err(RandomnessError::NoSides), |f| f.roll(sides)),
            Some(Scripted::Die(face)) if (1..=sides).contains(&face) => Ok(face),
            Some(other) => Err(RandomnessError::ScriptMismatch {
                given: describe(&other),
                wanted: wanted(),
            }),
        }
    }

    fn choose(
        &mut self,
        count: usize,
        label: &dyn Fn(usize) -> String,
    ) -> Result<usize, RandomnessError> {
        if count == 0 {
            return Err(RandomnessError::NothingToChoose);
        }
        let wanted = || {
            let names: Vec<String> = (0..count.min(12)).map(label).collect();
            let more = if count > 12 { ", …" } else { "" };
            format!("one of [{}{more}]", names.join(", "))
        };
        match self.next(wanted)? {
            None => self
                .fallback
                .as_mut()
                .map_or(Err(RandomnessError::NothingToChoose), |f| {
                    f.choose(count, label)
                }),
            Some(Scripted::Pick(name)) => (0..count).find(|&i| label(i) == name).ok_or_else(|| {
                RandomnessError::ScriptMismatch {
                    given: format!("{name:?}"),
                    wanted: wanted(),
                }
            }),
            Some(other) => Err(RandomnessError::ScriptMismatch {
                given: describe(&other),
                wanted: wanted(),
            }),
        }
    }
}

fn describe(v: &Scripted) -> String {
    match v {
        Scripted::Die(face) => format!("die face {face}"),
        Scripted::Pick(name) => format!("pick {name:?}"),
    }
}

/// Shuffle `items` in place (Fisher–Yates) using `rng`; `label` names an item for scripts.
///
/// A script lists the items in their new order, first to last.
pub fn shuffle<T>(
    rng: &mut dyn Randomness,
    items: &mut [T],
    label: impl Fn(&T) -> String,
) -> Result<(), RandomnessError> {
    for placed in 0..items.len() {
        let rest = &items[placed..];
        let pick = rng.choose(rest.len(), &|i| label(&rest[i]))?;
        items.swap(placed, placed + pick);
    }
    Ok(())
}

/// How a scenario or table says where its chance comes from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RandomnessSpec {
    /// Fair randomness from this seed.
    Seed(u64),
    /// These values first; then fair randomness from `seed` if one is given.
    Scripted {
        values: Vec<Scripted>,
        #[serde(default)]
        seed: Option<u64>,
    },
}

impl RandomnessSpec {
    pub fn build(&self) -> Box<dyn Randomness> {
        match self {
            RandomnessSpec::Seed(seed) => Box::new(SeededRandomness::new(*seed)),
            RandomnessSpec::Scripted { values, seed } => {
                let scripted = ScriptedRandomness::new(values.iter().cloned());
                Box::new(match seed {
                    Some(seed) => scripted.then_seeded(*seed),
                    None => scripted,
                })
            }
        }
    }
}

impl Default for RandomnessSpec {
    fn default() -> Self {
        RandomnessSpec::Seed(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn scripts_hand_out_exactly_their_values() {
        let mut r = ScriptedRandomness::new([Scripted::Die(6), Scripted::Pick("b".into())]);
        assert_eq!(r.roll(6), Ok(6));
        assert_eq!(r.choose(3, &|i| ["a", "b", "c"][i].to_string()), Ok(1));
        assert!(matches!(
            r.roll(6),
            Err(RandomnessError::ScriptExhausted { .. })
        ));
    }

    #[test]
    fn scripts_reject_impossible_values() {
        let mut r = ScriptedRandomness::new([Scripted::Die(7)]);
        assert!(matches!(
            r.roll(6),
            Err(RandomnessError::ScriptMismatch { .. })
        ));
        let mut r = ScriptedRandomness::new([Scripted::Pick("z".into())]);
        assert!(matches!(
            r.choose(2, &|i| i.to_string()),
            Err(RandomnessError::ScriptMismatch { .. })
        ));
    }

    #[test]
    fn exhausted_scripts_fall_back_to_the_seed() {
        let mut r = ScriptedRandomness::new([Scripted::Die(1)]).then_seeded(9);
        assert_eq!(r.roll(20), Ok(1));
        let next = r.roll(20).unwrap();
        assert!((1..=20).contains(&next));
    }

    #[test]
    fn scripted_shuffle_puts_items_in_the_listed_order() {
        let mut items = vec!["a", "b", "c", "d"];
        let script = ["c", "a", "d", "b"].map(|s| Scripted::Pick(s.into()));
        let mut r = ScriptedRandomness::new(script);
        shuffle(&mut r, &mut items, |s| s.to_string()).unwrap();
        assert_eq!(items, ["c", "a", "d", "b"]);
    }

    #[test]
    fn command_streams_are_reproducible_and_distinct() {
        let a: Vec<u32> = (0..8)
            .map(|_| 0)
            .scan(SeededRandomness::for_command(5, 1), |r, _| {
                r.roll(1000).ok()
            })
            .collect();
        let b: Vec<u32> = (0..8)
            .map(|_| 0)
            .scan(SeededRandomness::for_command(5, 1), |r, _| {
                r.roll(1000).ok()
            })
            .collect();
        let c: Vec<u32> = (0..8)
            .map(|_| 0)
            .scan(SeededRandomness::for_command(5, 2), |r, _| {
                r.roll(1000).ok()
            })
            .collect();
        assert_eq!(a, b);
        assert_ne!(a, c);
    }

    proptest! {
        #[test]
        fn seeded_rolls_stay_on_the_die(seed: u64, sides in 1u32..100) {
            let mut r = SeededRandomness::new(seed);
            for _ in 0..20 {
                let v = r.roll(sides).unwrap();
                prop_assert!((1..=sides).contains(&v));
            }
        }

        #[test]
        fn shuffles_are_permutations(seed: u64, n in 0usize..30) {
            let mut items: Vec<usize> = (0..n).collect();
            shuffle(&mut SeededRandomness::new(seed), &mut items, |i| i.to_string()).unwrap();
            items.sort();
            prop_assert_eq!(items, (0..n).collect::<Vec<_>>());
        }
    }
}
