//! Every result a command's chance could have had, with its probability: the command is played
//! again through the rules from the same state with each possible sequence of rolls and picks
//! (every roll and pick is uniform), and the states it leads to are grouped by what matters to
//! the game ([`super::Reviewed::luck_key`]).
//!
//! The sequences are walked depth first: a run that asks for a roll or pick beyond the
//! sequence being tried is cut short there, and each face of that roll (each option of that
//! pick) becomes a longer sequence to try. So a roll whose outcome decides what is rolled next
//! (a reroll of ties) is followed exactly, down to sequences less likely than [`MIN_WEIGHT`],
//! each of which one seeded run completes. When the sequences would number more than
//! [`MAX_RUNS`], a seeded random sample of [`SAMPLES`] complete runs stands in for them. Either
//! way the answer says it was sampled.

use std::collections::HashMap;

use clash_core::{Randomness, RandomnessError, Ruleset, Seat, SeededRandomness, execute};

/// The most runs of the rules an exact enumeration may take.
pub const MAX_RUNS: usize = 60_000;
/// The runs of a sample, when the exact enumeration would take more than [`MAX_RUNS`].
pub const SAMPLES: usize = 2_000;
/// A sequence less likely than this is not split further: one run, its chance from then on
/// drawn at random, stands for all of it (a reroll of a reroll of ties, say).
pub const MIN_WEIGHT: f64 = 1e-5;

/// The results of one command's chance: each distinct state with its probability.
pub struct Outcomes<S> {
    pub groups: Vec<(f64, S)>,
    /// A random sample stood in for the whole enumeration.
    pub sampled: bool,
}

/// A source of chance that hands out a fixed prefix, then notes the first draw beyond it.
struct Probe<'a> {
    prefix: &'a [usize],
    at: usize,
    /// The size of the first draw beyond the prefix (faces or options), if one was asked.
    beyond: Option<usize>,
}

impl Probe<'_> {
    /// The next value of the prefix; past it, the size of the draw is noted and the run is
    /// stopped there (the rules refuse a command whose chance fails), since it will be run
    /// again with each value.
    fn next(&mut self, size: usize) -> Result<usize, RandomnessError> {
        let i = self.at;
        self.at += 1;
        match self.prefix.get(i) {
            Some(v) if *v < size => Ok(*v),
            _ => {
                if self.beyond.is_none() {
                    self.beyond = Some(size);
                }
                Err(RandomnessError::ScriptExhausted {
                    wanted: format!("a draw among {size}"),
                })
            }
        }
    }
}

impl Randomness for Probe<'_> {
    fn roll(&mut self, sides: u32) -> Result<u32, RandomnessError> {
        if sides == 0 {
            return Err(RandomnessError::NoSides);
        }
        Ok(self.next(sides as usize)? as u32 + 1)
    }

    fn choose(
        &mut self,
        count: usize,
        _label: &dyn Fn(usize) -> String,
    ) -> Result<usize, RandomnessError> {
        if count == 0 {
            return Err(RandomnessError::NothingToChoose);
        }
        self.next(count)
    }
}

/// Groups states by key, adding up their weights.
struct Groups<S> {
    index: HashMap<String, usize>,
    groups: Vec<(f64, S)>,
}

impl<S> Groups<S> {
    fn new() -> Self {
        Groups {
            index: HashMap::new(),
            groups: Vec::new(),
        }
    }

    fn add(&mut self, key: String, weight: f64, state: S) {
        match self.index.get(&key) {
            Some(i) => self.groups[*i].0 += weight,
            None => {
                self.index.insert(key, self.groups.len());
                self.groups.push((weight, state));
            }
        }
    }
}

/// Every result of `seat` sending `command` in `state`, grouped by `key`; `None` if the rules
/// refuse the command.
pub fn outcomes<R: Ruleset>(
    state: &R::State,
    seat: Seat,
    command: &R::Command,
    key: fn(&R::State) -> String,
    seed: u64,
) -> Option<Outcomes<R::State>> {
    let mut groups = Groups::new();
    let mut pending: Vec<(Vec<usize>, f64)> = vec![(Vec::new(), 1.0)];
    let mut runs = 0usize;
    let mut completed = false;
    while let Some((prefix, weight)) = pending.pop() {
        runs += 1;
        if runs > MAX_RUNS {
            return sample::<R>(state, seat, command, key, seed);
        }
        let mut s = state.clone();
        let mut probe = Probe {
            prefix: &prefix,
            at: 0,
            beyond: None,
        };
        let ran = execute::<R>(&mut s, seat, command, &mut probe);
        // A run cut short is refused; only complete runs count.
        match probe.beyond {
            None => {
                ran.ok()?;
                groups.add(key(&s), weight, s)
            }
            Some(size) if weight / (size as f64) < MIN_WEIGHT => {
                let mut s = state.clone();
                let mut rest = Completion {
                    prefix: &prefix,
                    at: 0,
                    rng: SeededRandomness::for_command(seed, runs as u64),
                };
                execute::<R>(&mut s, seat, command, &mut rest).ok()?;
                groups.add(key(&s), weight, s);
                completed = true;
            }
            Some(size) => {
                if pending.len() + size > MAX_RUNS {
                    return sample::<R>(state, seat, command, key, seed);
                }
                for v in (0..size).rev() {
                    let mut longer = prefix.clone();
                    longer.push(v);
                    pending.push((longer, weight / size as f64));
                }
            }
        }
    }
    Some(Outcomes {
        groups: groups.groups,
        sampled: completed,
    })
}

/// A fixed prefix, then seeded chance.
struct Completion<'a> {
    prefix: &'a [usize],
    at: usize,
    rng: SeededRandomness,
}

impl Randomness for Completion<'_> {
    fn roll(&mut self, sides: u32) -> Result<u32, RandomnessError> {
        let i = self.at;
        self.at += 1;
        match self.prefix.get(i) {
            Some(v) if (*v as u32) < sides => Ok(*v as u32 + 1),
            _ => self.rng.roll(sides),
        }
    }

    fn choose(
        &mut self,
        count: usize,
        label: &dyn Fn(usize) -> String,
    ) -> Result<usize, RandomnessError> {
        let i = self.at;
        self.at += 1;
        match self.prefix.get(i) {
            Some(v) if *v < count => Ok(*v),
            _ => self.rng.choose(count, label),
        }
    }
}

/// A seeded random sample of complete runs, each weighing the same.
fn sample<R: Ruleset>(
    state: &R::State,
    seat: Seat,
    command: &R::Command,
    key: fn(&R::State) -> String,
    seed: u64,
) -> Option<Outcomes<R::State>> {
    let mut groups = Groups::new();
    let weight = 1.0 / SAMPLES as f64;
    for i in 0..SAMPLES {
        let mut s = state.clone();
        let mut rng = SeededRandomness::for_command(seed, i as u64);
        execute::<R>(&mut s, seat, command, &mut rng).ok()?;
        groups.add(key(&s), weight, s);
    }
    Some(Outcomes {
        groups: groups.groups,
        sampled: true,
    })
}
