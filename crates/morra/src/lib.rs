//! # Morra
//!
//! The old finger-guessing duel as a Clash ruleset, and the example of how a game joins Clash:
//! this crate and one line of the catalogue give it a table page with its board, seated bots,
//! odds in play, `clash odds morra` and `clash simulate morra`. The catalogue marks it an
//! example ([`clash_core::RulesetEntry::example`]), so a server offers it only with
//! `clash serve --examples`.
//!
//! ## Rules
//!
//! The players' rules are `rules.md` beside this crate's manifest (MO-1 … MO-13), shown at the
//! table. In short:
//!
//! * Two players (MO-1) play to a target score (1–99, default 11) within a round limit (1–200,
//!   default 30) (MO-2).
//! * Every round both choose a **hand** at once, in secret: the fingers they show (1–3, MO-3)
//!   and a call of the total (2–6, MO-4) that their own fingers allow (fingers + 1 to
//!   fingers + 3, MO-5). A hand is final (MO-6); only the players choose, one hand a round each
//!   (MO-7); until both are in, the other side sees only that a hand was chosen (MO-8).
//! * With the second hand both are shown and the fingers added (MO-9). A call equal to the total
//!   is right (MO-10); a player who alone is right scores the total, otherwise nobody scores
//!   (MO-11).
//! * Reaching the target wins at once (MO-12); after the round limit the higher score wins and
//!   equal scores draw (MO-13).
//!
//! ## State machine
//!
//! [`State`] holds the names, target, limit, the round's number, both scores and each player's
//! hand for this round (`None` until chosen). The game waits on every player whose hand is
//! still missing, both at once. A `show` command records the hand ([`Event::Chosen`]); the
//! second one also reveals the round ([`Event::Revealed`], which scores it and starts the next
//! round) and, when that ends the game, [`Event::GameOver`]. Nothing is left to chance: the
//! engine never draws from its `Randomness`.
//!
//! ## Hidden information
//!
//! The only secret is a chosen hand before the reveal. [`Ruleset::view`] shows a player their
//! own hand and of the other player only whether they have chosen; [`Ruleset::event_view`]
//! strips the hand from another player's `chosen` event. A position ([`Ruleset::position`]) is
//! the scores and round without the hands of the round in progress, the same for every viewer.

#[cfg(feature = "analysis")]
pub mod analysis;
pub mod command;
pub mod guard;
pub mod limits;
pub mod position;
pub mod setup;
pub mod state;
pub mod view;

use clash_core::{
    Listed, Panel, Preset, Randomness, RuleError, Rules, Ruleset, Seat, Status, Viewer,
};

pub use command::{Command, Event, Hand};
pub use limits::{CALLS, FINGERS, NAME_LIMIT, ROUND_LIMITS, TARGETS};
pub use setup::{Setup, build};
pub use state::{Outcome, Reveal, State, player, reveal, seat};
pub use view::{PlayerView, RevealView, View};

/// The Morra ruleset.
pub struct Morra;

impl Ruleset for Morra {
    const ID: &'static str = "morra";

    type Setup = Setup;
    type State = State;
    type Command = Command;
    type Event = Event;
    type View = View;

    fn setup(setup: &Setup) -> Result<State, RuleError> {
        build(setup)
    }

    fn opening(state: &State) -> Vec<Event> {
        state::ending(state.round, state.round_limit, state.target, state.scores)
            .map(|outcome| Event::GameOver { outcome })
            .into_iter()
            .collect()
    }

    fn seats(_state: &State) -> Vec<Seat> {
        vec![seat(0), seat(1)]
    }

    fn seat_name(state: &State, seat: Seat) -> String {
        state::seat_name(state, seat)
    }

    fn status(state: &State) -> Status {
        match state.over {
            Some(outcome) => Status::over(view::outcome_text(state, outcome)),
            None => Status::waiting((0..2).filter(|i| state.hands[*i].is_none()).map(seat)),
        }
    }

    fn decide(
        state: &State,
        by: Seat,
        command: &Command,
        rng: &mut dyn Randomness,
    ) -> Result<Vec<Event>, RuleError> {
        command::decide(state, by, command, rng)
    }

    fn apply(state: &mut State, event: &Event) {
        state::apply(state, event)
    }

    fn view(state: &State, viewer: Viewer) -> View {
        view::view(state, viewer)
    }

    fn event_view(event: &Event, viewer: Viewer) -> Option<Event> {
        view::event_view(event, viewer)
    }

    fn narrate(state: &State, event: &Event) -> String {
        view::narrate(state, event)
    }

    fn render(state: &State, viewer: Viewer) -> String {
        view::render(state, viewer)
    }

    fn legal_commands(state: &State, by: Seat) -> Vec<Command> {
        command::legal_commands(state, by)
    }

    fn position(state: &State, _viewer: Viewer) -> Option<Setup> {
        position::position(state)
    }

    fn secret_pending(state: &State, seat: Seat) -> bool {
        guard::secret_pending(state, seat)
    }

    fn reveals(event: &Event) -> bool {
        guard::reveals(event)
    }

    fn asked(state: &State, seat: Seat) -> Option<String> {
        guard::asked(state, seat)
    }
}

impl Listed for Morra {
    const NAME: &'static str = "Morra";
    const BLURB: &'static str = "An example duel: both players show fingers and call the total at once, and a right call alone scores it.";
    const PRESETS: &'static [Preset] = &[
        Preset {
            name: "First to 11 points",
            setup: include_str!("../presets/first-to-eleven.json"),
        },
        Preset {
            name: "Sudden death: the first right call wins",
            setup: include_str!("../presets/sudden-death.json"),
        },
    ];
    const PANEL: Panel = Panel {
        script: include_str!("../panel/panel.js"),
        style: include_str!("../panel/panel.css"),
    };
    const RULES: Rules = Rules {
        markdown: include_str!("../rules.md"),
        charts: &["Scoring"],
    };
}

/// Morra as the catalogue offers it, marked as an example: its rules and board, and with the
/// `analysis` feature its table bots, odds in play and `clash` subcommands.
pub fn entry() -> clash_core::RulesetEntry {
    let entry = clash_core::RulesetEntry::of::<Morra>().as_example();
    #[cfg(feature = "analysis")]
    let entry = analysis::offer(entry);
    entry
}
