//! A game in progress: setup, state and event log together, plus a type-erased face
//! ([`AnyGame`]) so the CLI and the server can hold any ruleset behind JSON.

use std::any::Any;

use serde::Serialize;
use serde_json::Value;

use crate::error::RuleError;
use crate::randomness::Randomness;
use crate::ruleset::{Ruleset, Status, execute, start};
use crate::seat::{Seat, Viewer};

/// A game of ruleset `R`: its setup, current state, and every event so far.
#[derive(Debug)]
pub struct Game<R: Ruleset> {
    setup: R::Setup,
    state: R::State,
    log: Vec<R::Event>,
}

impl<R: Ruleset> Clone for Game<R> {
    fn clone(&self) -> Self {
        Game {
            setup: self.setup.clone(),
            state: self.state.clone(),
            log: self.log.clone(),
        }
    }
}

impl<R: Ruleset> Game<R> {
    /// Start a game: the log begins with whatever the opening does by itself.
    pub fn new(setup: R::Setup) -> Result<Self, RuleError> {
        let (state, log) = start::<R>(&setup)?;
        Ok(Game { setup, state, log })
    }

    pub fn setup(&self) -> &R::Setup {
        &self.setup
    }

    pub fn state(&self) -> &R::State {
        &self.state
    }

    pub fn log(&self) -> &[R::Event] {
        &self.log
    }

    /// Apply a command; on error nothing changes.
    pub fn command(
        &mut self,
        seat: Seat,
        command: &R::Command,
        rng: &mut dyn Randomness,
    ) -> Result<&[R::Event], RuleError> {
        let events = execute::<R>(&mut self.state, seat, command, rng)?;
        let start = self.log.len();
        self.log.extend(events);
        Ok(&self.log[start..])
    }

    /// Append an already-decided event (restoring from storage).
    pub fn restore(&mut self, event: R::Event) {
        R::apply(&mut self.state, &event);
        self.log.push(event);
    }
}

/// An event as one viewer sees it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SeenEvent {
    /// Position in the table's log, from 0; clients resume after the last index they saw.
    pub index: usize,
    pub event: Value,
    /// The event told in words.
    pub text: String,
    /// It shows the outcome of chance or a secret brought into the open ([`Ruleset::reveals`]).
    pub reveals: bool,
    /// News for someone away from the table ([`Ruleset::news`]); for notifications only.
    #[serde(skip)]
    pub news: bool,
}

/// Why a type-erased command was refused.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum GameError {
    /// The JSON did not describe a command (or setup, or event) of this ruleset.
    #[error("malformed {what}: {detail}")]
    Malformed { what: &'static str, detail: String },
    /// The command was understood and breaks a rule.
    #[error(transparent)]
    Rule(#[from] RuleError),
}

/// Any ruleset's game, driven through JSON.
pub trait AnyGame: Send + Sync {
    fn ruleset(&self) -> &'static str;
    fn setup_json(&self) -> Value;
    fn seats(&self) -> Vec<Seat>;
    /// The name people at the table know `seat` by.
    fn seat_name(&self, seat: Seat) -> String;
    /// That name's parts, one name each, for a seat known by several ([`Ruleset::seat_names`]).
    fn seat_names(&self, seat: Seat) -> Vec<String> {
        vec![self.seat_name(seat)]
    }
    /// Whose move it is, or how the game ended.
    fn status(&self) -> Status;
    /// Apply a command given as JSON, returning the new events (unredacted).
    fn command(
        &mut self,
        seat: Seat,
        command: &Value,
        rng: &mut dyn Randomness,
    ) -> Result<Vec<Value>, GameError>;
    /// Append an event read back from storage.
    fn restore(&mut self, event: &Value) -> Result<(), GameError>;
    fn event_count(&self) -> usize;
    /// Every event from `from` on, as `viewer` may see it.
    fn events_for(&self, viewer: Viewer, from: usize) -> Vec<SeenEvent>;
    /// The full state (never shown to players: it holds hidden information).
    fn state_json(&self) -> Value;
    fn view(&self, viewer: Viewer) -> Value;
    /// [`AnyGame::view`] written as compact JSON onto `out`, straight from the typed view
    /// (the server's pictures are made this way: no tree of values on the way).
    fn write_view(&self, viewer: Viewer, out: &mut Vec<u8>) {
        // Writing into a Vec cannot fail.
        let _ = serde_json::to_writer(out, &self.view(viewer));
    }
    /// The state as readable text for `viewer`.
    fn render(&self, viewer: Viewer) -> String;
    fn legal_commands(&self, seat: Seat) -> Vec<Value>;
    /// The current position as a setup, as far as `viewer` may know it.
    fn position(&self, viewer: Viewer) -> Option<Value>;
    fn boxed_clone(&self) -> Box<dyn AnyGame>;
    /// See [`Ruleset::secret_pending`].
    fn secret_pending(&self, seat: Seat) -> bool;
    /// Every event from `from` on, unredacted (for storage and a table's record, which holds
    /// them hidden until the table ends; never for a viewer).
    fn events_json(&self, from: usize) -> Vec<Value>;
    /// See [`Ruleset::reveals`]; an event that is not one of this ruleset's counts as revealing.
    fn reveals(&self, event: &Value) -> bool;
    /// See [`Ruleset::confirm`]; `None` for JSON that is not one of this ruleset's commands
    /// (the rules refuse it when it is sent).
    fn confirm(&self, seat: Seat, command: &Value) -> Option<String>;
    /// See [`Ruleset::asked`].
    fn asked(&self, seat: Seat) -> Option<String>;
    /// The typed game behind this face (a `Game<R>`), for code that knows its ruleset: the
    /// catalogue's bots read it only through [`crate::bot::play_seat`].
    fn as_any(&self) -> &dyn Any;
}

pub(crate) fn to_json<T: Serialize>(value: &T) -> Value {
    // Every boundary type is plain data (no maps with non-string keys), so this cannot fail.
    serde_json::to_value(value).unwrap_or(Value::Null)
}

pub(crate) fn from_json<T: serde::de::DeserializeOwned>(
    what: &'static str,
    value: &Value,
) -> Result<T, GameError> {
    T::deserialize(value).map_err(|e| GameError::Malformed {
        what,
        detail: e.to_string(),
    })
}

impl<R: Ruleset> AnyGame for Game<R> {
    fn ruleset(&self) -> &'static str {
        R::ID
    }

    fn setup_json(&self) -> Value {
        to_json(&self.setup)
    }

    fn seats(&self) -> Vec<Seat> {
        R::seats(&self.state)
    }

    fn seat_name(&self, seat: Seat) -> String {
        R::seat_name(&self.state, seat)
    }

    fn seat_names(&self, seat: Seat) -> Vec<String> {
        R::seat_names(&self.state, seat)
    }

    fn status(&self) -> Status {
        R::status(&self.state)
    }

    fn command(
        &mut self,
        seat: Seat,
        command: &Value,
        rng: &mut dyn Randomness,
    ) -> Result<Vec<Value>, GameError> {
        let command: R::Command = from_json("command", command)?;
        let events = Game::command(self, seat, &command, rng)?;
        Ok(events.iter().map(to_json).collect())
    }

    fn restore(&mut self, event: &Value) -> Result<(), GameError> {
        let event: R::Event = from_json("event", event)?;
        Game::restore(self, event);
        Ok(())
    }

    fn event_count(&self) -> usize {
        self.log.len()
    }

    fn events_for(&self, viewer: Viewer, from: usize) -> Vec<SeenEvent> {
        self.log
            .iter()
            .enumerate()
            .skip(from)
            .filter_map(|(index, e)| {
                R::event_view(e, viewer).map(|seen| SeenEvent {
                    index,
                    text: R::narrate(&self.state, &seen),
                    event: to_json(&seen),
                    reveals: R::reveals(e),
                    news: R::news(e),
                })
            })
            .collect()
    }

    fn state_json(&self) -> Value {
        to_json(&self.state)
    }

    fn view(&self, viewer: Viewer) -> Value {
        to_json(&R::view(&self.state, viewer))
    }

    fn write_view(&self, viewer: Viewer, out: &mut Vec<u8>) {
        // Every boundary type is plain data, so writing into a Vec cannot fail.
        let _ = serde_json::to_writer(out, &R::view(&self.state, viewer));
    }

    fn render(&self, viewer: Viewer) -> String {
        R::render(&self.state, viewer)
    }

    fn legal_commands(&self, seat: Seat) -> Vec<Value> {
        R::legal_commands(&self.state, seat)
            .iter()
            .map(to_json)
            .collect()
    }

    fn position(&self, viewer: Viewer) -> Option<Value> {
        R::position(&self.state, viewer).map(|p| to_json(&p))
    }

    fn boxed_clone(&self) -> Box<dyn AnyGame> {
        Box::new(self.clone())
    }

    fn secret_pending(&self, seat: Seat) -> bool {
        R::secret_pending(&self.state, seat)
    }

    fn events_json(&self, from: usize) -> Vec<Value> {
        self.log.iter().skip(from).map(to_json).collect()
    }

    fn reveals(&self, event: &Value) -> bool {
        from_json::<R::Event>("event", event).map_or(true, |e| R::reveals(&e))
    }

    fn confirm(&self, seat: Seat, command: &Value) -> Option<String> {
        let command: R::Command = from_json("command", command).ok()?;
        R::confirm(&self.state, seat, &command)
    }

    fn asked(&self, seat: Seat) -> Option<String> {
        R::asked(&self.state, seat)
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}
