//! # Triforce
//!
//! Jeremiah Wittevrongel's Looney Pyramid game (2005) as a Clash ruleset, following
//! `shared/rules/triforce.md` (rules TF-1 … TF-30). Players fight over a triangle of 15 white
//! pyramids: they place pieces on their home stack and move top pieces along paths of legal
//! destinations; stacks holding 4+ non-white pyramids of 2+ players are fought over with d12s,
//! a sword (black d12 added, wins ties) and a shield (clear d20 instead, loses ties).
//!
//! ## State machine
//!
//! The state is a fixed-size copyable record ([`State`]: arrays of stacks held inline, counts as
//! bytes, sets of positions as `u16` masks), so copying it or playing it needs no allocation.
//! Its [`Phase`] says who must answer:
//!
//! * `actions` — the active seat sends `place`, `move` or `end_turn` (TF-13 … TF-17). The third
//!   action ends the actions by itself.
//! * `choose_stack` — after the actions, if stacks are contested (TF-19), the active seat sends
//!   `resolve` for the next one (TF-20), even when only one is contested.
//! * `sword` / `shield` — before each combat's dice, the top player (sword) and then the bottom
//!   player (shield) may exchange (`take_sword` / `take_shield`) or `decline` (TF-22). A window
//!   is only opened when its player has at least one legal exchange.
//! * Dice are rolled as soon as no window is open (TF-24); the stack fights again while it stays
//!   contested; then the next contested stack is chosen, or the next seat's turn begins.
//! * A turn begins with the win checks (TF-28, TF-29, TF-30); a pinned seat passes at once
//!   (TF-18). These steps need no choice, so they happen inside the command that leads to them
//!   and appear as events (`turn_started`, `pinned`, `battle`, `game_over`). The first turn's
//!   start is the game's opening ([`setup::opening`]): [`clash_core::Ruleset::setup`] stops just
//!   before it, so a pinned first seat or a game decided at once is logged like any other event;
//!   [`start`] gives the state after it.
//!
//! [`turn::step`] implements all of this once; `decide` runs it on a copy of the state and
//! collects the events, and [`random::play`] runs it in place and drops them.
//!
//! The state also carries its [`actions::Surface`]: per size the positions a pyramid may go to
//! (TF-13), per seat the stacks it tops (TF-15) and is bottom player of (TF-28), and the
//! contested stacks (TF-19). It is derived from the stacks, never written to JSON, and updated
//! stack by stack as pyramids move, so legal actions, pins and win checks need no pass over the
//! board. Reading a state from JSON recomputes it, and the replay property test compares the two.
//!
//! ## Random play and game length
//!
//! [`RandomPlayer`] picks random legal commands, either uniformly ([`random::Policy::Uniform`])
//! or kind first ([`random::Policy::ByKind`]: place, move, end or a combat choice, then a command
//! of that kind). Random games always ended in our runs, but they are long: with 3 players the
//! by-kind player needs about 820 turns on average (uniform: median about 2,700), because
//! wandering pieces rarely hold 8 bottoms at once. The optional `turn_limit` (TF-30) bounds a
//! game; `cargo bench -p triforce` measures both.
//!
//! ## Dice
//!
//! All dice come from the injected `Randomness` and are recorded in `battle` events. In each
//! combat the participants roll in seat order from `p1`; a sword user rolls their own d12 and
//! then the black d12; a shield user rolls only the d20. A script for one combat between p1
//! (sword) and p3 is therefore `[p1 own, black, p3]`.
//!
//! ## Interpretations (beyond the spec's decisions)
//!
//! * TF-14's "at most one placement action per size" is per turn.
//! * TF-17: "end turn" is the `end_turn` command; it is refused before any action and while the
//!   board equals the start-of-turn board. A third action is refused only if it recreates that
//!   board. After a third action the actions end automatically.
//! * TF-20: the active seat chooses every contested stack explicitly with `resolve`.
//! * TF-22: exchange levels count from 1 at the lowest non-white pyramid of the stack.
//! * TF-30: with the optional `turn_limit`, the game ends when turn `limit + 1` would begin, and
//!   the winner is decided as in a deadlock (most stacks as bottom player; a tie is a shared
//!   draw). Turns are numbered from 1 and passes count as turns.
//! * Setups may give a position (`board`); stashes and supplies then hold the rest. A set-up
//!   position may not hold a contested stack (TF-20's invariant) unless `start_in: "combat"`,
//!   which begins the starting seat's turn at its combat phase. Set-up stacks hold at most one
//!   sword and one shield (as play guarantees) and at most 20 pyramids.
//! * The view carries everything (Triforce has no hidden information), including the awaited
//!   seat's exact legal commands, grouped for a board interface.
//! * Seats are known by the colour of their pyramids, in seat order Red, Green, Blue, Yellow,
//!   Purple, Teal (the table page's colours), and by a name their player gives in the setup's
//!   `names` ("Ada (Red)"). Narration, the picture, status lines and refusals use these names.
//!   Names are at most 24 bytes, so the state stays a fixed-size copy.
//! * Positions ([`setup::position`]): the setup can describe any resting point of a game —
//!   board, stashes and supplies (checked to account for every pyramid), whose turn and its
//!   number, actions taken and sizes placed with the board the turn began with, or the combat
//!   phase with the swords taken this turn and an open exchange window. Everyone gets the same
//!   position (nothing is hidden). The last combat's dice are not part of one; a finished game's
//!   position is the next turn start, whose checks end it again.
//! * Tables by form ([`forms`]): the table form's choices (players, names, starting seat,
//!   layout, turn limit) are the whole setup, checked field by field; Triforce has no session
//!   zero.

pub mod actions;
#[cfg(feature = "analysis")]
pub mod analysis;
pub mod board;
pub mod combat;
pub mod command;
pub mod forms;
pub mod guard;
pub mod limits;
pub mod pieces;
pub mod players;
pub mod position;
pub mod random;
pub mod setup;
pub mod state;
pub mod turn;
pub mod variant;
pub mod view;
pub mod winning;

use clash_core::{
    Listed, Panel, Preset, Randomness, RuleError, Rules, Ruleset, Seat, Status, Viewer,
};

pub use board::{Pos, Stack};
pub use combat::{Battle, Exchange, Gear, Loss, Roll};
pub use command::{Command, Event};
pub use pieces::{Pyramid, Size, SizeCounts};
pub use random::{RandomGame, RandomPlayer};
pub use setup::{OpenWindow, Setup, StartIn, TurnSetup};
pub use state::{EndRule, Outcome, Phase, State};
pub use view::View;

/// The Triforce ruleset.
pub struct Triforce;

/// The state a game starts in: the setup with its opening events applied (a pinned first seat
/// passes, a game decided at once is over). [`Ruleset::setup`] alone stops just before them.
pub fn start(setup: &Setup) -> Result<State, RuleError> {
    clash_core::start::<Triforce>(setup).map(|(state, _)| state)
}

impl Ruleset for Triforce {
    const ID: &'static str = "triforce";

    /// Triforce has no secret choice: every command is played in the open.
    fn secret_pending(_state: &State, _seat: Seat) -> bool {
        false
    }

    fn reveals(event: &Event) -> bool {
        guard::reveals(event)
    }

    fn asked(state: &State, seat: Seat) -> Option<String> {
        guard::asked(state, seat)
    }

    type Setup = Setup;
    type State = State;
    type Command = Command;
    type Event = Event;
    type View = View;

    fn setup(setup: &Setup) -> Result<State, RuleError> {
        setup::build(setup)
    }

    fn opening(state: &State) -> Vec<Event> {
        setup::opening(state)
    }

    fn seats(state: &State) -> Vec<Seat> {
        state.seats().map(pieces::seat).collect()
    }

    fn seat_name(state: &State, seat: Seat) -> String {
        match seat {
            // Triforce has no GM: the seat that made the table only hosts it.
            Seat::Gm => "the host".into(),
            seat => state.name_of(seat),
        }
    }

    fn status(state: &State) -> Status {
        match state.outcome() {
            Some(outcome) => Status::over(view::outcome_line(state, outcome)),
            None => Status::waiting(state.awaiting()),
        }
    }

    fn decide(
        state: &State,
        seat: Seat,
        command: &Command,
        rng: &mut dyn Randomness,
    ) -> Result<Vec<Event>, RuleError> {
        let mut scratch = *state;
        let mut events = Vec::new();
        turn::step(&mut scratch, seat, command, rng, &mut events)?;
        Ok(events)
    }

    fn apply(state: &mut State, event: &Event) {
        turn::apply(state, event);
    }

    fn view(state: &State, _viewer: Viewer) -> View {
        view::build(state)
    }

    fn event_view(event: &Event, _viewer: Viewer) -> Option<Event> {
        Some(*event)
    }

    fn narrate(state: &State, event: &Event) -> String {
        view::narrate(state, event)
    }

    fn render(state: &State, _viewer: Viewer) -> String {
        view::render(state)
    }

    fn legal_commands(state: &State, seat: Seat) -> Vec<Command> {
        turn::legal(state, seat).as_slice().to_vec()
    }

    fn position(state: &State, _viewer: Viewer) -> Option<Setup> {
        setup::position(state)
    }
}

impl Listed for Triforce {
    const RULES: Rules = Rules {
        markdown: include_str!("../rules.md"),
        charts: &[
            "Combat",
            "Rolling and losing",
            "Swords and shields",
            "The size rule",
        ],
    };
    const NAME: &'static str = "Triforce";
    const BLURB: &'static str = "An Icehouse pyramid game on a triangle of 15 stacks: place, move, and fight with dice, swords and shields.";
    const PRESETS: &'static [Preset] = &[
        Preset {
            name: "Three players, default board, at most 90 turns",
            setup: include_str!("../presets/three-players.json"),
        },
        Preset {
            name: "Four players, default board, at most 120 turns",
            setup: include_str!("../presets/four-players.json"),
        },
    ];
    const PANEL: Panel = Panel {
        script: include_str!("../panel/panel.js"),
        style: include_str!("../panel/panel.css"),
    };
}

/// Triforce as the catalogue offers it: the rules, forms and board, and with the `analysis`
/// feature its table bots, odds in play and `clash` subcommands.
pub fn entry() -> clash_core::RulesetEntry {
    let entry = clash_core::RulesetEntry::with_session_zero::<Triforce>();
    #[cfg(feature = "analysis")]
    let entry = analysis::offer(entry);
    entry
}
