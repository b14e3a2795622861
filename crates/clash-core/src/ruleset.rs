//! The shape every rules engine takes, and replay from an event log.

use std::fmt::Debug;

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::error::RuleError;
use crate::randomness::Randomness;
use crate::seat::{Seat, Viewer};

/// A rules engine: a pure, deterministic state machine.
///
/// * `setup → state` ([`Ruleset::setup`]),
/// * `state + seat + command → events` or a [`RuleError`] ([`Ruleset::decide`]), drawing any
///   chance from the injected [`Randomness`] and recording its outcome in the events,
/// * `state + event → state` ([`Ruleset::apply`]), which never fails and never rolls,
/// * `state + viewer → view` ([`Ruleset::view`]), with everything the viewer may not see removed.
///
/// Because outcomes of chance live in the events, [`replay`] rebuilds any state from its setup
/// and log alone.
pub trait Ruleset: 'static {
    /// The ruleset's name in scenarios, URLs and the API (`"iron-triangle"`).
    const ID: &'static str;

    type Setup: Serialize + DeserializeOwned + Clone + Debug + Send + Sync;
    type State: Serialize + DeserializeOwned + Clone + PartialEq + Debug + Send + Sync;
    type Command: Serialize + DeserializeOwned + Clone + Debug + Send + Sync;
    type Event: Serialize + DeserializeOwned + Clone + PartialEq + Debug + Send + Sync;
    type View: Serialize + Debug;

    /// Build the starting state, validating the setup.
    fn setup(setup: &Self::Setup) -> Result<Self::State, RuleError>;

    /// The seats that take part (and so may be given links or bots).
    fn seats(state: &Self::State) -> Vec<Seat>;

    /// Check `command` from `seat` against the rules and say what happens.
    ///
    /// On error nothing happened: the caller keeps its state unchanged.
    fn decide(
        state: &Self::State,
        seat: Seat,
        command: &Self::Command,
        rng: &mut dyn Randomness,
    ) -> Result<Vec<Self::Event>, RuleError>;

    /// Fold one event into the state.
    fn apply(state: &mut Self::State, event: &Self::Event);

    /// What `viewer` may see of the state.
    fn view(state: &Self::State, viewer: Viewer) -> Self::View;

    /// What `viewer` may see of one event: `None` hides it entirely, otherwise a copy with any
    /// hidden payload removed (a committed stance becomes "ready").
    fn event_view(event: &Self::Event, viewer: Viewer) -> Option<Self::Event>;

    /// One line of plain text telling a person what the event means.
    fn narrate(event: &Self::Event) -> String;

    /// A compact, readable text picture of the state as `viewer` may see it (a board, the
    /// characters' energy, …), printed by `clash run` after each step.
    fn render(state: &Self::State, viewer: Viewer) -> String;

    /// A sample of commands `seat` may legally send now, for random drivers, bots and user
    /// interfaces. Every command returned must be accepted by [`Ruleset::decide`]; free choices
    /// (texts, splits) may be represented by a few typical values.
    fn legal_commands(state: &Self::State, seat: Seat) -> Vec<Self::Command>;

    /// True while `seat` has made a secret choice the rules have not revealed yet (a stance or
    /// move chosen face down, a pick waiting for the simultaneous reveal).
    ///
    /// The table server refuses to hand such a seat to anyone else (the GM taking it over, a
    /// new invite) until the reveal, so a change of who plays a seat can never be used to read
    /// a secret choice. Private information that is not a choice (a hand of cards) passes with
    /// the seat; the change itself is public.
    ///
    /// The default is cautious: it counts any difference between what the seat sees and what a
    /// spectator sees, which is exact for games without hidden information and refuses more
    /// than needed elsewhere, so rulesets with secrets answer precisely.
    fn secret_pending(state: &Self::State, seat: Seat) -> bool {
        let seen = |viewer| serde_json::to_value(Self::view(state, viewer)).ok();
        seen(Viewer::Seat(seat)) != seen(Viewer::Spectator)
    }
}

/// Decide and apply in one step, returning the events. On error the state is untouched.
pub fn execute<R: Ruleset>(
    state: &mut R::State,
    seat: Seat,
    command: &R::Command,
    rng: &mut dyn Randomness,
) -> Result<Vec<R::Event>, RuleError> {
    let events = R::decide(state, seat, command, rng)?;
    for e in &events {
        R::apply(state, e);
    }
    Ok(events)
}

/// Rebuild the state from the setup and every event since.
pub fn replay<'a, R: Ruleset>(
    setup: &R::Setup,
    log: impl IntoIterator<Item = &'a R::Event>,
) -> Result<R::State, RuleError> {
    let mut state = R::setup(setup)?;
    for e in log {
        R::apply(&mut state, e);
    }
    Ok(state)
}
