//! Injectable randomness.
//!
//! Rules engines never own a random generator: every command that needs chance receives a
//! `&mut dyn Randomness`. Play uses [`SeededRandomness`] (ChaCha8, one stream per command so a
//! table can be resumed from its seed and command count); tests and worked examples use
//! [`ScriptedRandomness`], which hands out exactly the dice and picks it was given.
//!
//! Outcomes always end up in the events a command produces, so replaying a log never needs the
//! generator again.
//!
//! Tables on the server use [`DerivedRandomness`]: verifiable chance ("provably fair"). Each
//! command's generator is seeded by [`command_seed`] from the table's server secret (committed
//! to at creation, revealed when the table ends), the seats' client seeds and the command's
//! number, so anyone holding the secret and the table's log recomputes every roll and draw.
//! [`Recorder`] notes each draw a command makes, so a verifier can name the one that differs.

use std::collections::VecDeque;

use hmac::{Hmac, KeyInit, Mac};
use rand::{Rng, RngExt, SeedableRng};
use rand_chacha::{ChaCha8Rng, ChaCha20Rng};
use serde::{Deserialize, Serialize};
use sha2::Sha256;

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

/// The name of the derivation below, recorded with every table that uses it. A later change to
/// how chance is derived gets a new name, so old tables keep verifying under the old one.
pub const CHANCE_DERIVATION: &str = "clash-chance-v1";

/// Everything a command's chance is derived from.
#[derive(Debug, Clone, Copy)]
pub struct ChanceInputs<'a> {
    /// The table's server secret (32 random bytes, committed to by its SHA-256 at creation).
    pub secret: &'a [u8],
    /// The table's id.
    pub table: &'a str,
    /// The command's number at its table: 0 for the first accepted command, then 1, 2, …
    pub command: u64,
    /// Each contributor's latest client seed when the command arrived, as `(who, seed)`, in the
    /// order the caller keeps them (the server sorts them by contributor).
    pub seeds: &'a [(String, String)],
}

/// The 32-byte seed of one command's generator (derivation `clash-chance-v1`):
///
/// ```text
/// HMAC-SHA256(key = server secret,
///             message = "clash-chance-v1" 0x00 table 0x00 command (8 bytes, big-endian)
///                       then for each client seed: who 0x00 seed 0x00)
/// ```
///
/// The separators keep `("ab", "c")` and `("a", "bc")` apart; a seed is plain text (the pages
/// send hex) and may not contain a zero byte, which the server refuses.
pub fn command_seed(inputs: &ChanceInputs<'_>) -> [u8; 32] {
    // HMAC takes a key of any length, so this cannot fail.
    let mut mac = <Hmac<Sha256> as KeyInit>::new_from_slice(inputs.secret)
        .expect("HMAC accepts any key length");
    mac.update(CHANCE_DERIVATION.as_bytes());
    mac.update(&[0]);
    mac.update(inputs.table.as_bytes());
    mac.update(&[0]);
    mac.update(&inputs.command.to_be_bytes());
    for (who, seed) in inputs.seeds {
        mac.update(who.as_bytes());
        mac.update(&[0]);
        mac.update(seed.as_bytes());
        mac.update(&[0]);
    }
    mac.finalize().into_bytes().into()
}

/// Verifiable chance for one command: ChaCha20 seeded with [`command_seed`].
///
/// Dice and picks are drawn from the generator's 64-bit outputs by rejection sampling, written
/// out here rather than left to a library so the derivation stays fixed across upgrades: to pick
/// uniformly among `n`, draw `x` until `x < 2^64 − (2^64 mod n)`, then take `x mod n`. A die with
/// `s` sides shows `1 + pick(s)`.
#[derive(Debug, Clone)]
pub struct DerivedRandomness {
    rng: ChaCha20Rng,
}

impl DerivedRandomness {
    pub fn new(inputs: &ChanceInputs<'_>) -> Self {
        DerivedRandomness {
            rng: ChaCha20Rng::from_seed(command_seed(inputs)),
        }
    }

    fn below(&mut self, n: u64) -> u64 {
        // 2^64 mod n, computed without 128-bit arithmetic: (2^64 − n) mod n.
        let excess = n.wrapping_neg() % n;
        loop {
            let x = self.rng.next_u64();
            if x <= u64::MAX - excess {
                return x % n;
            }
        }
    }
}

impl Randomness for DerivedRandomness {
    fn roll(&mut self, sides: u32) -> Result<u32, RandomnessError> {
        if sides == 0 {
            return Err(RandomnessError::NoSides);
        }
        Ok(1 + self.below(u64::from(sides)) as u32)
    }

    fn choose(
        &mut self,
        count: usize,
        _label: &dyn Fn(usize) -> String,
    ) -> Result<usize, RandomnessError> {
        if count == 0 {
            return Err(RandomnessError::NothingToChoose);
        }
        Ok(self.below(count as u64) as usize)
    }
}

/// One outcome of chance, as a verifier reports it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Draw {
    /// A die with `sides` faces showed `face`.
    Roll { sides: u32, face: u32 },
    /// Option `index` (called `label`) was picked among `count`.
    Pick {
        count: usize,
        index: usize,
        label: String,
    },
}

impl std::fmt::Display for Draw {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Draw::Roll { sides, face } => write!(f, "a d{sides} showing {face}"),
            Draw::Pick { count, label, .. } => write!(f, "{label:?} picked among {count}"),
        }
    }
}

/// Passes chance through from another source and notes every outcome.
pub struct Recorder<'a> {
    inner: &'a mut dyn Randomness,
    pub draws: Vec<Draw>,
}

impl<'a> Recorder<'a> {
    pub fn new(inner: &'a mut dyn Randomness) -> Self {
        Recorder {
            inner,
            draws: Vec::new(),
        }
    }
}

impl Randomness for Recorder<'_> {
    fn roll(&mut self, sides: u32) -> Result<u32, RandomnessError> {
        let face = self.inner.roll(sides)?;
        self.draws.push(Draw::Roll { sides, face });
        Ok(face)
    }

    fn choose(
        &mut self,
        count: usize,
        label: &dyn Fn(usize) -> String,
    ) -> Result<usize, RandomnessError> {
        let index = self.inner.choose(count, label)?;
        self.draws.push(Draw::Pick {
            count,
            index,
            label: label(index),
        });
        Ok(index)
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

    fn inputs<'a>(
        secret: &'a [u8],
        command: u64,
        seeds: &'a [(String, String)],
    ) -> ChanceInputs<'a> {
        ChanceInputs {
            secret,
            table: "t1",
            command,
            seeds,
        }
    }

    #[test]
    fn derived_chance_is_reproducible_and_depends_on_every_input() {
        let seeds = vec![("p1".to_string(), "aa".to_string())];
        let base = command_seed(&inputs(b"secret", 3, &seeds));
        assert_eq!(base, command_seed(&inputs(b"secret", 3, &seeds)));
        assert_ne!(
            base,
            command_seed(&inputs(b"secreT", 3, &seeds)),
            "the secret"
        );
        assert_ne!(
            base,
            command_seed(&inputs(b"secret", 4, &seeds)),
            "the command number"
        );
        assert_ne!(
            base,
            command_seed(&inputs(b"secret", 3, &[])),
            "the client seeds"
        );
        let other = ChanceInputs {
            table: "t2",
            ..inputs(b"secret", 3, &seeds)
        };
        assert_ne!(base, command_seed(&other), "the table");
        // Separators keep who and seed apart.
        let split_a = vec![("p1a".to_string(), "a".to_string())];
        assert_ne!(base, command_seed(&inputs(b"secret", 3, &split_a)));
    }

    #[test]
    fn derived_chance_matches_its_documented_construction() {
        // HMAC-SHA256 of the documented message, computed here step by step.
        let mut mac = <Hmac<Sha256> as KeyInit>::new_from_slice(b"k").unwrap();
        mac.update(b"clash-chance-v1\0t1\0\0\0\0\0\0\0\0\x07p2\0s\0");
        let expected: [u8; 32] = mac.finalize().into_bytes().into();
        let seeds = vec![("p2".to_string(), "s".to_string())];
        assert_eq!(command_seed(&inputs(b"k", 7, &seeds)), expected);
        // The first die comes from the first 64-bit output of ChaCha20 on that seed.
        let first = ChaCha20Rng::from_seed(expected).next_u64();
        let mut r = DerivedRandomness::new(&inputs(b"k", 7, &seeds));
        assert_eq!(
            r.roll(4),
            Ok(1 + (first % 4) as u32),
            "4 divides 2^64: no rejection"
        );
    }

    #[test]
    fn the_recorder_notes_each_outcome() {
        let mut script = ScriptedRandomness::new([Scripted::Die(3), Scripted::Pick("b".into())]);
        let mut r = Recorder::new(&mut script);
        r.roll(6).unwrap();
        r.choose(2, &|i| ["a", "b"][i].to_string()).unwrap();
        assert_eq!(
            r.draws,
            vec![
                Draw::Roll { sides: 6, face: 3 },
                Draw::Pick {
                    count: 2,
                    index: 1,
                    label: "b".into()
                }
            ]
        );
        assert_eq!(r.draws[0].to_string(), "a d6 showing 3");
    }

    proptest! {
        #[test]
        fn derived_draws_stay_in_range(secret: Vec<u8>, n: u64, sides in 1u32..1000, count in 1usize..100) {
            let mut r = DerivedRandomness::new(&inputs(&secret, n, &[]));
            prop_assert!((1..=sides).contains(&r.roll(sides).unwrap()));
            prop_assert!(r.choose(count, &|i| i.to_string()).unwrap() < count);
        }

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
