//! The laws every ruleset must keep, checked over its setups and random play (feature
//! `testkit`, for the engines' tests).
//!
//! [`check`] plays a random game from each setup of a [`Laws`] and checks, at every step:
//!
//! * **every legal command is accepted**: each command [`Ruleset::legal_commands`] lists for
//!   any seat is accepted by [`Ruleset::decide`];
//! * **a refused command changes nothing**: the engine's probes (commands that are often
//!   illegal) and other seats' legal commands, sent by the wrong seat, either pass or are
//!   refused with the state left exactly as it was, naming a rule, in words people read;
//! * **views keep secrets**: when two different commands of one kind (the same JSON `type`, for
//!   the same `character` or `party`) each leave a secret choice of a seat pending
//!   ([`Ruleset::secret_pending`]), every other viewer sees the same view and the same events
//!   after either (so a face-down choice cannot be read off any page);
//! * **positions round-trip**: a position a viewer may export ([`Ruleset::position`]) reads
//!   back from its JSON to the same setup, the rules start a game from it, and that game exports
//!   the same position again;
//! * **narration has no raw tokens**: every event as each viewer is shown it, the rendered
//!   table, the seats' names and the end of the game read in names ([`crate::text`]);
//!
//! and at the end of each game that **replay reproduces the state** from the setup and the log,
//! that the state reads back from its JSON unchanged, and that every view serialises.
//!
//! Each engine calls it once from its tests, with its presets and a seed from a property test;
//! what is particular to one game (its conservation laws, which secrets it keeps) stays in its
//! own tests.

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::error::RuleError;
use crate::listing::Listed;
use crate::randomness::{Randomness, SeededRandomness};
use crate::ruleset::{Ruleset, execute, replay, start};
use crate::seat::{Seat, Viewer};
use crate::text::raw_tokens;

/// The next command of a random game: a seat and its command, or `None` to end the game.
pub type Driver<R> =
    fn(&<R as Ruleset>::State, &mut dyn Randomness) -> Option<(Seat, <R as Ruleset>::Command)>;

/// Commands to try at a state, which the rules may well refuse.
pub type Probes<R> =
    fn(&<R as Ruleset>::State, &mut dyn Randomness) -> Vec<(Seat, <R as Ruleset>::Command)>;

/// What to check a ruleset on.
pub struct Laws<R: Ruleset> {
    /// The setups random games start from (the presets, and any the engine adds).
    pub setups: Vec<R::Setup>,
    /// Commands played in each game, at most.
    pub steps: usize,
    /// Picks each command of the random games ([`random_legal`] by default).
    pub driver: Driver<R>,
    /// Commands tried at every step, expecting many refusals (none by default).
    pub probes: Probes<R>,
    /// Words of these setups' names that the raw-token check would flag ("MacLeod").
    pub names: Vec<String>,
}

impl<R: Ruleset> Laws<R> {
    /// The laws over `setups`, played by [`random_legal`] for 200 commands, without probes.
    pub fn new(setups: Vec<R::Setup>) -> Laws<R> {
        Laws {
            setups,
            steps: 200,
            driver: random_legal::<R>,
            probes: |_, _| Vec::new(),
            names: Vec::new(),
        }
    }
}

/// The setups of a ruleset's presets.
pub fn presets<R: Listed>() -> Vec<R::Setup> {
    R::PRESETS
        .iter()
        .map(|p| serde_json::from_str(p.setup).unwrap_or_else(|e| panic!("{}: {e}", p.name)))
        .collect()
}

/// A uniformly random legal command of a seat the game waits on (of any seat with one, when it
/// waits on none).
pub fn random_legal<R: Ruleset>(
    state: &R::State,
    rng: &mut dyn Randomness,
) -> Option<(Seat, R::Command)> {
    let options = |seats: Vec<Seat>| -> Vec<(Seat, R::Command)> {
        seats
            .into_iter()
            .flat_map(|s| R::legal_commands(state, s).into_iter().map(move |c| (s, c)))
            .collect()
    };
    let mut all = options(R::status(state).waiting_for);
    if all.is_empty() {
        all = options(R::seats(state));
    }
    if all.is_empty() {
        return None;
    }
    let i = rng.choose(all.len(), &|i| i.to_string()).ok()?;
    Some(all.swap_remove(i.min(all.len() - 1)))
}

/// Check every law on a random game from each setup, with randomness from `seed`. The error
/// names the law broken, the setup, the step and what was seen.
pub fn check<R: Ruleset>(laws: &Laws<R>, seed: u64) -> Result<(), String> {
    for (i, setup) in laws.setups.iter().enumerate() {
        let seed = seed.wrapping_add(i as u64);
        Walk::<R>::play(laws, setup, seed).map_err(|e| format!("setup {i}, seed {seed}: {e}"))?;
    }
    Ok(())
}

/// A seat's command, the state it leads to and the events it makes.
type Choice<R> = (
    <R as Ruleset>::Command,
    <R as Ruleset>::State,
    Vec<<R as Ruleset>::Event>,
);

/// How many of a seat's legal commands the secrets law tries at each step.
const SECRET_SAMPLE: usize = 8;

/// One random game under check.
struct Walk<'a, R: Ruleset> {
    laws: &'a Laws<R>,
    state: R::State,
    log: Vec<R::Event>,
    step: usize,
}

fn json<T: Serialize>(value: &T) -> Value {
    serde_json::to_value(value).unwrap_or(Value::Null)
}

fn viewers(seats: &[Seat]) -> Vec<Viewer> {
    std::iter::once(Viewer::Spectator)
        .chain(seats.iter().copied().map(Viewer::Seat))
        .collect()
}

impl<'a, R: Ruleset> Walk<'a, R> {
    fn play(laws: &'a Laws<R>, setup: &R::Setup, seed: u64) -> Result<(), String> {
        let (state, log) = start::<R>(setup).map_err(|e| format!("the setup is refused: {e}"))?;
        let mut game = Walk {
            laws,
            state,
            log,
            step: 0,
        };
        game.readable_events(0)?;
        let mut rng = SeededRandomness::new(seed);
        let mut probe_rng = SeededRandomness::new(seed.rotate_left(17));
        while game.step < laws.steps {
            game.laws_at_this_state(&rng, &mut probe_rng)?;
            let Some((seat, command)) = (laws.driver)(&game.state, &mut rng) else {
                break;
            };
            let before = game.log.len();
            let events = execute::<R>(&mut game.state, seat, &command, &mut rng)
                .map_err(|e| game.broken("the driver's command is accepted", &e, &command))?;
            game.log.extend(events);
            game.readable_events(before)?;
            game.step += 1;
        }
        game.replays(setup)
    }

    fn broken(
        &self,
        law: &str,
        what: impl std::fmt::Display,
        command: impl std::fmt::Debug,
    ) -> String {
        format!("{law}: broken at step {}: {what} ({command:?})", self.step)
    }

    fn fail(&self, law: &str, what: impl std::fmt::Display) -> String {
        format!("{law}: broken at step {}: {what}", self.step)
    }

    fn laws_at_this_state(
        &self,
        rng: &SeededRandomness,
        probe_rng: &mut SeededRandomness,
    ) -> Result<(), String> {
        self.positions_round_trip()?;
        self.legal_commands_are_accepted(rng)?;
        self.refusals_change_nothing(rng, probe_rng)?;
        self.secrets_stay_hidden(rng)
    }

    /// Every command listed for any seat is accepted.
    fn legal_commands_are_accepted(&self, rng: &SeededRandomness) -> Result<(), String> {
        for seat in R::seats(&self.state) {
            for command in R::legal_commands(&self.state, seat) {
                let mut probe = rng.clone();
                if let Err(e) = R::decide(&self.state, seat, &command, &mut probe) {
                    let what = format!("{seat} may send it but it is refused: {e}");
                    return Err(self.broken("every legal command is accepted", what, &command));
                }
            }
        }
        Ok(())
    }

    /// The probes, and a few of each seat's legal commands sent by every other seat.
    fn refusals_change_nothing(
        &self,
        rng: &SeededRandomness,
        probe_rng: &mut SeededRandomness,
    ) -> Result<(), String> {
        let mut tries = (self.laws.probes)(&self.state, probe_rng);
        let seats = R::seats(&self.state);
        for owner in &seats {
            for command in R::legal_commands(&self.state, *owner).into_iter().take(3) {
                tries.extend(
                    seats
                        .iter()
                        .filter(|s| *s != owner)
                        .map(|s| (*s, command.clone())),
                );
            }
        }
        for (seat, command) in tries {
            let mut after = self.state.clone();
            let mut probe = rng.clone();
            if let Err(e) = execute::<R>(&mut after, seat, &command, &mut probe) {
                self.refused_cleanly(&after, &e, &command)?;
            }
        }
        Ok(())
    }

    fn refused_cleanly(
        &self,
        after: &R::State,
        e: &RuleError,
        command: &R::Command,
    ) -> Result<(), String> {
        let law = "a refused command changes nothing";
        if *after != self.state {
            return Err(self.broken(law, format!("refused ({e}) but the state changed"), command));
        }
        if e.rule().is_none() && !matches!(e, RuleError::Randomness(_)) {
            return Err(self.broken(law, format!("refused without a rule: {e}"), command));
        }
        self.readable("refusal", &e.reason())
    }

    /// Two different secret choices of one seat look the same to every other viewer.
    fn secrets_stay_hidden(&self, rng: &SeededRandomness) -> Result<(), String> {
        let seats = R::seats(&self.state);
        // Only a seat the game waits on can make a choice now.
        for seat in R::status(&self.state).waiting_for {
            if R::secret_pending(&self.state, seat) {
                continue;
            }
            let secret = self.secret_choices(seat, rng);
            for (i, first) in secret.iter().enumerate() {
                // Compare with the next choice of the same kind by the same actor: which kind
                // of choice was made, and by whom, is public.
                let same = secret[i + 1..]
                    .iter()
                    .find(|c| kind(&c.0) == kind(&first.0));
                let Some(other) = same else { continue };
                for v in viewers(&seats).into_iter().filter(|v| !v.is(seat)) {
                    if self.seen(first, v) != self.seen(other, v) {
                        let what = format!("{v} can tell {:?} from {:?}", first.0, other.0);
                        return Err(self.fail("views never show another seat's secret", what));
                    }
                }
            }
        }
        Ok(())
    }

    /// The legal commands of `seat` that leave a secret choice pending, with the state and
    /// events each leads to (the same chance for every command). At most [`SECRET_SAMPLE`]
    /// commands are tried, spread evenly over the list, which keeps every step cheap while
    /// still setting different choices of one kind side by side.
    fn secret_choices(&self, seat: Seat, rng: &SeededRandomness) -> Vec<Choice<R>> {
        let legal = R::legal_commands(&self.state, seat);
        let stride = legal.len().div_ceil(SECRET_SAMPLE).max(1);
        legal
            .into_iter()
            .step_by(stride)
            .filter_map(|c| {
                let mut after = self.state.clone();
                let events = execute::<R>(&mut after, seat, &c, &mut rng.clone()).ok()?;
                R::secret_pending(&after, seat).then_some((c, after, events))
            })
            .collect()
    }

    /// What `viewer` sees after one choice: the view and the new events.
    fn seen(&self, (_, state, events): &Choice<R>, viewer: Viewer) -> (Value, Vec<Value>) {
        let events = events
            .iter()
            .filter_map(|e| R::event_view(e, viewer))
            .map(|e| json(&e))
            .collect();
        (json(&R::view(state, viewer)), events)
    }

    /// Every position a viewer may export reads back, starts a game, and exports again the same.
    fn positions_round_trip(&self) -> Result<(), String> {
        let law = "positions round-trip";
        let mut checked: Vec<Value> = Vec::new();
        for viewer in viewers(&R::seats(&self.state)) {
            let Some(setup) = R::position(&self.state, viewer) else {
                continue;
            };
            let written = json(&setup);
            // Viewers who know the same export the same position: one check covers them all.
            if checked.contains(&written) {
                continue;
            }
            checked.push(written.clone());
            let read: R::Setup = read_back(&written).map_err(|e| {
                self.fail(law, format!("{viewer}'s position does not read back: {e}"))
            })?;
            if json(&read) != written {
                return Err(self.fail(law, format!("{viewer}'s position reads back changed")));
            }
            let (state, _) = start::<R>(&read)
                .map_err(|e| self.fail(law, format!("{viewer}'s position is refused: {e}")))?;
            let again = R::position(&state, viewer).map(|p| json(&p));
            if again.as_ref() != Some(&written) {
                return Err(self.fail(
                    law,
                    format!("{viewer}'s position exports differently once started"),
                ));
            }
        }
        Ok(())
    }

    /// The events from `from` on, as each viewer is shown them, and the table around them read
    /// in names.
    fn readable_events(&self, from: usize) -> Result<(), String> {
        let seats = R::seats(&self.state);
        for viewer in viewers(&seats) {
            for e in &self.log[from..] {
                if let Some(seen) = R::event_view(e, viewer) {
                    self.readable("narration", &R::narrate(&self.state, &seen))?;
                }
            }
            self.readable("the rendered table", &R::render(&self.state, viewer))?;
        }
        for seat in seats {
            self.readable("a seat's name", &R::seat_name(&self.state, seat))?;
        }
        if let Some(over) = R::status(&self.state).over {
            self.readable("the end of the game", &over)?;
        }
        Ok(())
    }

    fn readable(&self, what: &str, text: &str) -> Result<(), String> {
        let raw: Vec<_> = raw_tokens(text)
            .into_iter()
            .filter(|t| !self.laws.names.contains(&t.text))
            .collect();
        if raw.is_empty() {
            return Ok(());
        }
        let found: Vec<&str> = raw.iter().map(|t| t.text.as_str()).collect();
        Err(self.fail(
            "narration has no raw tokens",
            format!("{found:?} in {what}: {text:?}"),
        ))
    }

    /// Replay rebuilds the state, the state reads back from its JSON, and every view
    /// serialises.
    fn replays(&self, setup: &R::Setup) -> Result<(), String> {
        for viewer in viewers(&R::seats(&self.state)) {
            serde_json::to_value(R::view(&self.state, viewer))
                .map_err(|e| self.fail("views serialise", format!("{viewer}: {e}")))?;
        }
        let replayed = replay::<R>(setup, &self.log)
            .map_err(|e| self.fail("replay reproduces the state", e))?;
        if replayed != self.state {
            return Err(self.fail("replay reproduces the state", "the replayed state differs"));
        }
        let read: R::State = read_back(&json(&self.state))
            .map_err(|e| self.fail("the state reads back from its JSON", e))?;
        if read != self.state {
            return Err(self.fail(
                "the state reads back from its JSON",
                "it reads back changed",
            ));
        }
        Ok(())
    }
}

/// What a command is and who acts by it, which other seats may know of a secret choice: its
/// JSON `type` and the `character` or `party` it names (commands that are not JSON objects are
/// all of one kind).
fn kind<C: Serialize>(command: &C) -> Value {
    match json(command) {
        Value::Object(fields) => fields
            .into_iter()
            .filter(|(k, _)| ["type", "character", "party"].contains(&k.as_str()))
            .collect(),
        _ => Value::Null,
    }
}

fn read_back<T: DeserializeOwned>(value: &Value) -> Result<T, String> {
    T::deserialize(value).map_err(|e| e.to_string())
}

/// Each preset of `R` that session zero can hold opens there, its sheets in and its NPCs
/// readied, and the GM's "start play" with nothing changed starts the very game the preset
/// starts at once (issue 38: one way to a table for presets and forms alike). Answers how many
/// presets session zero held.
pub fn ready_made_presets_start_as_they_are<R: crate::session_zero::SessionZero>() -> usize {
    let mut held = 0;
    for preset in R::PRESETS {
        let setup: Value =
            serde_json::from_str(preset.setup).unwrap_or_else(|e| panic!("{}: {e}", preset.name));
        let Some(staged) = crate::session_zero::ready_made::<R>(&setup) else {
            continue;
        };
        held += 1;
        let mut game = crate::session_zero::new_game::<R>(&staged)
            .unwrap_or_else(|e| panic!("{}: {e}", preset.name));
        assert!(
            game.status().waiting_for == vec![Seat::Gm],
            "{}: every sheet is in, so the GM may start play",
            preset.name
        );
        let mut rng = SeededRandomness::new(1);
        let start = serde_json::json!({"type": "start_play"});
        game.command(Seat::Gm, &start, &mut rng)
            .unwrap_or_else(|e| panic!("{}: {e}", preset.name));
        let direct = crate::session_zero::new_game::<R>(&setup).expect("the preset starts");
        assert_eq!(
            game.state_json(),
            direct.state_json(),
            "{}: started through session zero, the game is the preset's",
            preset.name
        );
    }
    held
}
