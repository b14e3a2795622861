//! A game in progress: setup, state and event log together, plus a type-erased face
//! ([`AnyGame`]) so the CLI and the server can hold any ruleset behind JSON.

use std::any::Any;

use serde::Serialize;
use serde_json::Value;

use crate::bot::BotFn;
use crate::error::RuleError;
use crate::listing::{Listed, Panel, Preset, Rules};
use crate::randomness::Randomness;
use crate::ruleset::{Ruleset, Status, execute, start};
use crate::seat::{Seat, Viewer};
use crate::session_zero::{FormsEntry, SessionZero};

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

    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// One ruleset as the catalogue offers it: how to start a game of it from JSON, and how it
/// presents itself.
#[derive(Clone, Copy)]
pub struct RulesetEntry {
    pub id: &'static str,
    /// The game's name for people.
    pub name: &'static str,
    pub blurb: &'static str,
    pub presets: &'static [Preset],
    /// The game's board on the table page.
    pub panel: Panel,
    /// Exact odds for a seat's next choice, where the catalogue supplies them.
    pub odds: Option<OddsFn>,
    /// Bots that can take a seat, where the catalogue supplies them.
    pub bots: Option<BotFn>,
    /// The game's rules for players, as Markdown, and the sections that are its charts.
    pub rules: Rules,
    pub new_game: fn(&Value) -> Result<Box<dyn AnyGame>, GameError>,
    /// Tables by form and characters made by their players, where the ruleset has them.
    pub forms: Option<FormsEntry>,
}

/// The odds that bear on `seat`'s next choice, computed from `view` — the JSON of that seat's
/// own view of the table, and nothing else — or `None` when no odds apply now. Taking only the
/// view makes it impossible for odds to reveal what the view hides.
pub type OddsFn = fn(view: &Value, seat: Seat) -> Option<Value>;

impl RulesetEntry {
    /// The same entry with odds in play, computed by `odds` (usually from the analysis crate).
    pub fn with_odds(mut self, odds: OddsFn) -> Self {
        self.odds = Some(odds);
        self
    }

    /// The same entry with bots that can take a seat, played by `bots` (usually from the
    /// analysis crate).
    pub fn with_bots(mut self, bots: BotFn) -> Self {
        self.bots = Some(bots);
        self
    }

    pub fn of<R: Listed>() -> Self {
        RulesetEntry {
            id: R::ID,
            name: R::NAME,
            blurb: R::BLURB,
            presets: R::PRESETS,
            panel: R::PANEL,
            odds: None,
            bots: None,
            rules: R::RULES,
            new_game: |setup| {
                let setup: R::Setup = from_json("setup", setup)?;
                Ok(Box::new(Game::<R>::new(setup)?))
            },
            forms: None,
        }
    }

    /// The entry of a ruleset whose tables are made by form, with a session zero where its
    /// players make their characters ([`crate::session_zero`]): its games start from either
    /// its own setup or a staged one.
    pub fn with_session_zero<R: SessionZero>() -> Self {
        RulesetEntry {
            new_game: crate::session_zero::new_game::<R>,
            forms: Some(FormsEntry {
                forms: R::FORMS,
                sheets: R::SHEETS,
                check_table: crate::session_zero::check_table::<R>,
                check_sheet: R::check_sheet,
                table_setup: crate::session_zero::table_setup::<R>,
            }),
            ..Self::of::<R>()
        }
    }
}
