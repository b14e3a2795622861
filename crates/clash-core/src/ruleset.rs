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
    /// The ruleset's name in scenarios, URLs and the API: lower case, words joined by `-`.
    const ID: &'static str;

    type Setup: Serialize + DeserializeOwned + Clone + Debug + Send + Sync;
    type State: Serialize + DeserializeOwned + Clone + PartialEq + Debug + Send + Sync;
    type Command: Serialize + DeserializeOwned + Clone + Debug + Send + Sync;
    type Event: Serialize + DeserializeOwned + Clone + PartialEq + Debug + Send + Sync;
    type View: Serialize + Debug;

    /// Build the starting state, validating the setup.
    fn setup(setup: &Self::Setup) -> Result<Self::State, RuleError>;

    /// What happens by itself the moment the game starts, before anyone acts (a pinned first
    /// player passing, a game already decided): events applied to the state [`Ruleset::setup`]
    /// built and logged first, so nothing that happens is silent. Deterministic: no chance.
    fn opening(state: &Self::State) -> Vec<Self::Event>;

    /// The seats that take part (and so may be given links or bots).
    fn seats(state: &Self::State) -> Vec<Seat>;

    /// The name people at the table know `seat` by: its character's or party's name, a
    /// player's name, or "the GM".
    fn seat_name(state: &Self::State, seat: Seat) -> String;

    /// The names [`Ruleset::seat_name`] lists, one by one, for a seat known by several (a player
    /// with two characters): a list of waiting seats then reads "Ada, Bo and Cy", never "Ada and
    /// Bo and Cy". Most seats have one name.
    fn seat_names(state: &Self::State, seat: Seat) -> Vec<String> {
        vec![Self::seat_name(state, seat)]
    }

    /// Whose command the game is waiting for now, and whether it is over.
    fn status(state: &Self::State) -> Status;

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

    /// One line of plain text telling a person what the event means, naming every character,
    /// party and player (never an index or a seat id).
    ///
    /// `state` is the table as it stands now or at any later point; use it only to look up
    /// names, which never change once given.
    fn narrate(state: &Self::State, event: &Self::Event) -> String;

    /// A compact, readable text picture of the state as `viewer` may see it (a board, the
    /// characters' energy, …), printed by `clash run` after each step.
    fn render(state: &Self::State, viewer: Viewer) -> String;

    /// A sample of commands `seat` may legally send now, for random drivers, bots and user
    /// interfaces. Every command returned must be accepted by [`Ruleset::decide`]; free choices
    /// (texts, splits) may be represented by a few typical values.
    fn legal_commands(state: &Self::State, seat: Seat) -> Vec<Self::Command>;

    /// The current position as a setup that starts a new game exactly here, as far as `viewer`
    /// may know it: `None` when it would show the viewer something hidden from it. Choices not
    /// yet revealed and the order of any deck are never part of a position.
    fn position(state: &Self::State, viewer: Viewer) -> Option<Self::Setup>;

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

    /// Whether `event` shows the table something nobody could know before it: the outcome of
    /// chance (dice rolled, a card drawn) or a secret brought into the open (stances turned
    /// over, a card from a hand laid down, an NPC's sheet shown).
    ///
    /// Pages filter the log to these ("rolls and reveals"), and the table server lets the GM
    /// take back a command only if none of its events reveals anything, so nobody can see an
    /// outcome and then choose again. The default is cautious (every event reveals); rulesets
    /// answer precisely.
    fn reveals(event: &Self::Event) -> bool {
        let _ = event;
        true
    }

    /// Whether someone away from the table wants to hear of `event` at once, beside what
    /// [`Ruleset::reveals`]: an outcome (who won a conflict, a round's result, a chapter's end)
    /// or something put to the others to answer (a proposal, a concession). Notifications
    /// carry these lines; the default is none.
    fn news(event: &Self::Event) -> bool {
        let _ = event;
        false
    }

    /// What the game waits on `seat` for, in a few words a message can carry away from the
    /// table ("choose your stance", "answer Bo's challenge"), while it waits on that seat; only
    /// what everyone at the table may know. `None` (the default) says nothing more than "your
    /// move".
    fn asked(state: &Self::State, seat: Seat) -> Option<String> {
        let _ = (state, seat);
        None
    }

    /// A question to put to the person sending `command` before it goes, for a command that is
    /// weighty or cannot be taken back (conceding, surrendering, ending a session), naming what
    /// it does in the table's words; `None` sends it at once. Pages ask, and send only on yes.
    fn confirm(state: &Self::State, seat: Seat, command: &Self::Command) -> Option<String> {
        let _ = (state, seat, command);
        None
    }
}

/// Where a game stands: whose move it is, or how it ended. Pages show "your move", "waiting for
/// Ada and the GM" and "game over" from this alone, for any ruleset.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct Status {
    /// The seats the game waits on right now, in seating order; empty once it is over.
    pub waiting_for: Vec<Seat>,
    /// The waiting seats are alternatives: the first of them to act decides for all (the
    /// players together picking who acts first), so each is told "any of you may act now", and
    /// once one has, the others no longer may. False: the game waits on every one of them.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub any_of: bool,
    /// Once the game is over: how it ended, in one line that names the winners.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub over: Option<String>,
}

impl Status {
    /// Waiting on each of these seats.
    pub fn waiting(seats: impl IntoIterator<Item = Seat>) -> Self {
        let mut waiting_for: Vec<Seat> = seats.into_iter().collect();
        waiting_for.sort();
        waiting_for.dedup();
        Status {
            waiting_for,
            any_of: false,
            over: None,
        }
    }

    /// Waiting on any one of these seats: the first to act decides (a single seat is simply
    /// waited on).
    pub fn any_of(seats: impl IntoIterator<Item = Seat>) -> Self {
        let waiting = Status::waiting(seats);
        Status {
            any_of: waiting.waiting_for.len() > 1,
            ..waiting
        }
    }

    /// The game is over, as `how` tells.
    pub fn over(how: impl Into<String>) -> Self {
        Status {
            waiting_for: Vec::new(),
            any_of: false,
            over: Some(how.into()),
        }
    }
}

/// Build the starting state of a game: [`Ruleset::setup`], then its opening events applied.
pub fn start<R: Ruleset>(setup: &R::Setup) -> Result<(R::State, Vec<R::Event>), RuleError> {
    let mut state = R::setup(setup)?;
    let opening = R::opening(&state);
    for e in &opening {
        R::apply(&mut state, e);
    }
    Ok((state, opening))
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

/// Rebuild the state from the setup and every event since (the opening events included: they
/// are the first entries of every log).
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
