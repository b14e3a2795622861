//! # In A Wicked Age (Forumopolis variant)
//!
//! A pure, deterministic engine for the In A Wicked Age conflict spec (rules WA-1 … WA-30),
//! plus an exact-odds module ([`odds`]).
//!
//! ## The state machine
//!
//! The [`State`] is a campaign table: characters (PC and NPC sheets), the Owe List, the
//! chapter number, and at most one conflict. Nothing is hidden, so every viewer sees the whole
//! state.
//!
//! ```text
//! no conflict ──start_conflict──▶ round 1: Initiative ──(everyone rolled; ties rerolled)──▶ Turns
//!   ▲                                   ▲                                              │
//!   │                                   │ round 2/3 start: propose_end / agree_end /    │ challenge → answer,
//!   │                                   │ concede (negotiation window, before any roll) │ in initiative order
//!   │                                   └──────────────── round ends ◀─────────────────┘
//!   │                           conflict ends: < 2 remain, round 3 over, or agreement
//!   └── closes when every (winner, loser) pair is settled: choose_consequence, or
//!       propose_alternative + accept_alternative (refuse_alternative forces a default)
//! ```
//!
//! Outside conflicts: `end_chapter` (GM; the oldest Owe List entry is crossed off and its
//! player sends `choose_oracle`), `bring_back` (any player crosses off an entry).
//! Within a conflict: `cash_in_owe` gives a PC an Owe d6.
//!
//! Seats: each PC is controlled by the player seat given in the setup (`p1`, `p2`, …); NPCs
//! by `gm`. Starting a conflict is open to the GM or to any seat controlling a participant.
//!
//! Chance: every die comes from the injected `Randomness` in a fixed order per roll — the
//! form dice (PC: the two forms in the order given; NPC: the form's dice, larger first, dice
//! at 0 skipped), then the Advantage d6 if held, the Owe d6 if cashed in, then the strength
//! die. All faces are recorded in the events, so replay never rolls.
//!
//! ## Interpretations (beyond the spec's own decisions)
//!
//! * Initiative is rolled by each participant with its own command; when the last remaining
//!   participant has rolled, exactly equal rolls are rerolled (in the order of the sorted
//!   rolls) until every tied group is separated (WA-22).
//! * The "table's declaration" that an action involves a strength (WA-10) is the `strength`
//!   field of the roll command; the engine checks the form association and that the strength
//!   still has a die.
//! * The Owe d6 may be cashed in at any time during a conflict while the PC is still in; it
//!   applies to every later roll (WA-18). Only the entry's own player may cash it, for a PC
//!   that player controls.
//! * The Owe List check (WA-15) is made whenever round 1 ends, including when knockouts end
//!   the conflict during round 1: the survivors did survive the round.
//! * WA-30 counts every roll of the winner's that added a consequential strength's die,
//!   initiative rolls and tie rerolls included.
//! * An agreed ending (WA-25) is recorded as text; it costs no dice (decision 9). Every
//!   participant still in must send `agree_end` (the proposer agrees by proposing).
//! * Alternatives (WA-27) can only name the loser's own forms and strengths, so they can
//!   never touch another character or improve the winner; promises are text the engine does
//!   not enforce; nothing the conflict was "about" moves.
//! * The setup validates creation (WA-2, WA-6, WA-9: a new strength has exactly one
//!   significance) and may list `losses` already suffered earlier in the campaign, applied
//!   after validation.
//! * TV-6 gives the challenger as an NPC rolling d12=9 and d8=9; no d8 shows 9 and no NPC
//!   form can make (9,9), so its worked example uses a PC's d12+d10 for the same (9,9).
//! * Forms never recover (the spec has no recovery rule), so an out-of-chapter character stays
//!   out after `end_chapter`.
//! * Who the table waits on ([`moves::status`]): the characters still to roll initiative (all
//!   at once), then the challenger whose turn it is, then the target who must answer. Open
//!   consequences do not hold up a live conflict (WA-29); once it has ended, the winners must
//!   choose (or the losers answer an alternative offered). Between conflicts the GM, or the
//!   player who owes the Oracle choice. A campaign never ends by itself.
//! * Legal commands are built straight from the rules and kept compact: one roll per
//!   character and kind with a typical choice of forms (its two biggest dice, or its NPC form
//!   with the biggest dice); pages and bots offer the other forms themselves.
//! * Repeats are refused: the same alternative offered twice, a second refusal, the same
//!   ending proposed again by its proposer (WA-25, WA-27), and ending a chapter again before
//!   its Oracle is picked (WA-17.1: the claim would be lost).
//! * Positions ([`position`]): a setup can hold a conflict under way, the Oracle claim and the
//!   characters due back; characters are written as created with their losses since.
//! * Table limits ([`limits`], refusals under `WA-limits`): 100 characters, 16 participants in
//!   a conflict, 8 strengths and 8 Best Interests a sheet, 200 Owe List entries, names of 80
//!   characters and texts of 1000. Unknown fields in setups and commands are refused.
//! * Tables by form ([`forms`]): players make their PCs in session zero through a form checked
//!   field by field under WA-2 … WA-9; the GM readies NPCs the same way.

#[cfg(feature = "analysis")]
pub mod analysis;
pub mod character;
pub mod command;
pub mod conflict;
pub mod consequence;
pub mod dice;
pub mod forms;
pub mod guard;
pub mod limits;
pub mod moves;
pub mod odds;
pub mod owe;
pub mod position;
mod render;
pub mod roll;
pub mod setup;
pub mod state;
pub mod variant;
pub mod view;

use clash_core::{Listed, Panel, Preset, Randomness, RuleError, Rules, Ruleset, Seat, Viewer};

pub use character::{Character, FormRef, NpcForm, PcForm, Status};
pub use command::{Command, Event};
pub use consequence::{Alternative, Cost, DefaultConsequence};
pub use dice::Die;
pub use roll::{Outcome, RollChoice, RollValue};
pub use setup::Setup;
pub use state::State;
pub use view::{SeatName, View, seat_name};

use state::Draft;

/// The ruleset, registered as `"wicked-age"`.
pub struct WickedAge;

impl Ruleset for WickedAge {
    const ID: &'static str = "wicked-age";

    fn reveals(event: &Event) -> bool {
        guard::reveals(event)
    }

    fn news(event: &Event) -> bool {
        guard::news(event)
    }

    fn asked(state: &State, seat: Seat) -> Option<String> {
        moves::asked(state, seat)
    }

    fn confirm(state: &Self::State, seat: Seat, command: &Command) -> Option<String> {
        guard::confirm(state, seat, command)
    }
    type Setup = Setup;
    type State = State;
    type Command = Command;
    type Event = Event;
    type View = View;

    fn setup(setup: &Setup) -> Result<State, RuleError> {
        State::from_setup(setup)
    }

    fn opening(_state: &State) -> Vec<Event> {
        Vec::new()
    }

    fn seat_name(state: &State, seat: Seat) -> String {
        seat_name(state, seat)
    }

    /// A player with several PCs is known by each of their names.
    fn seat_names(state: &State, seat: Seat) -> Vec<String> {
        let names: Vec<String> = state
            .characters
            .iter()
            .filter(|c| seat != Seat::Gm && c.controller == seat && c.is_pc())
            .map(|c| c.name.clone())
            .collect();
        match names.len() {
            0 | 1 => vec![seat_name(state, seat)],
            _ => names,
        }
    }

    fn status(state: &State) -> clash_core::Status {
        // A campaign has no end of its own: there is always a next conflict or chapter.
        moves::status(state)
    }

    fn seats(state: &State) -> Vec<Seat> {
        let mut seats = vec![Seat::Gm];
        for c in &state.characters {
            if !seats.contains(&c.controller) {
                seats.push(c.controller);
            }
        }
        seats.sort();
        seats
    }

    fn decide(
        state: &State,
        seat: Seat,
        command: &Command,
        rng: &mut dyn Randomness,
    ) -> Result<Vec<Event>, RuleError> {
        let mut d = Draft::new(state);
        dispatch(&mut d, seat, command, rng)?;
        Ok(d.events)
    }

    fn apply(state: &mut State, event: &Event) {
        state::apply(state, event);
    }

    fn view(state: &State, _viewer: Viewer) -> View {
        // Nothing in this game is secret: sheets, rolls and the Owe List are all public.
        View {
            table: state.clone(),
            players: Self::seats(state)
                .into_iter()
                .map(|seat| SeatName {
                    seat,
                    name: seat_name(state, seat),
                })
                .collect(),
            waiting: moves::waiting_line(state),
        }
    }

    fn event_view(event: &Event, _viewer: Viewer) -> Option<Event> {
        Some(event.clone())
    }

    /// Nothing in this game is chosen in secret: every roll is thrown in the open.
    fn secret_pending(_state: &State, _seat: Seat) -> bool {
        false
    }

    fn narrate(state: &State, event: &Event) -> String {
        render::narrate(state, event)
    }

    fn render(state: &State, _viewer: Viewer) -> String {
        render::render(state)
    }

    fn legal_commands(state: &State, seat: Seat) -> Vec<Command> {
        moves::legal(state, seat)
    }

    fn position(state: &State, _viewer: Viewer) -> Option<Setup> {
        // Nothing is hidden: every viewer gets the whole position.
        Some(position::export(state))
    }
}

impl Listed for WickedAge {
    const RULES: Rules = Rules {
        markdown: include_str!("../rules.md"),
        charts: &["Reading a roll", "Dice"],
    };
    const NAME: &'static str = "In A Wicked Age";
    const BLURB: &'static str =
        "Characters with forms and dice: challenge, answer, take advantage, negotiate.";
    const PRESETS: &'static [Preset] = &[Preset {
        name: "Three-way brawl",
        setup: include_str!("../presets/brawl.json"),
    }];
    const PANEL: Panel = Panel {
        script: include_str!("../panel/panel.js"),
        style: include_str!("../panel/panel.css"),
    };
}

/// Table limits on the names a command carries, checked before anything looks them up (so a
/// refusal never echoes an enormous name back).
fn check_names(command: &Command) -> Result<(), RuleError> {
    let name = |s: &String| limits::TABLE.name("a character's name", s);
    let choice = |c: &RollChoice| {
        c.strength
            .iter()
            .try_for_each(|s| limits::TABLE.name("a strength's name", s))
    };
    match command {
        Command::StartConflict { participants, .. } => {
            if participants.len() > limits::MAX_PARTICIPANTS {
                return Err(RuleError::illegal(
                    limits::LIMIT,
                    format!(
                        "at most {} characters take part in one conflict (a table limit)",
                        limits::MAX_PARTICIPANTS
                    ),
                ));
            }
            participants.iter().try_for_each(name)
        }
        Command::CashInOwe { pc, entry } => name(pc).and(name(entry)),
        Command::RollInitiative {
            character,
            choice: c,
        }
        | Command::Answer {
            character,
            choice: c,
        } => name(character).and(choice(c)),
        Command::Challenge {
            character,
            target,
            choice: c,
        } => name(character).and(name(target)).and(choice(c)),
        Command::Concede { character, to } => name(character).and(name(to)),
        Command::ProposeEnd { character, .. } | Command::AgreeEnd { character } => name(character),
        Command::ProposeAlternative { loser, alternative } => {
            name(loser)?;
            if alternative.costs.len() > limits::MAX_COSTS {
                return Err(RuleError::illegal(
                    limits::LIMIT,
                    format!(
                        "an alternative has at most {} costs (a table limit)",
                        limits::MAX_COSTS
                    ),
                ));
            }
            alternative.costs.iter().try_for_each(|c| match c {
                Cost::StepDownStrength { strength } | Cost::RemoveStrength { strength } => {
                    limits::TABLE.name("a strength's name", strength)
                }
                _ => Ok(()),
            })
        }
        Command::ChooseConsequence { loser, .. }
        | Command::AcceptAlternative { loser }
        | Command::RefuseAlternative { loser } => name(loser),
        Command::BringBack { character } => name(character),
        Command::EndChapter {} | Command::ChooseOracle { .. } => Ok(()),
    }
}

fn dispatch(
    d: &mut Draft,
    seat: Seat,
    command: &Command,
    rng: &mut dyn Randomness,
) -> Result<(), RuleError> {
    check_names(command)?;
    match command {
        Command::StartConflict {
            participants,
            action,
        } => conflict::start(d, seat, participants, action),
        Command::CashInOwe { pc, entry } => owe::cash_in(d, seat, pc, entry),
        Command::RollInitiative { character, choice } => {
            conflict::roll_initiative(d, seat, character, choice, rng)
        }
        Command::Challenge {
            character,
            target,
            choice,
        } => conflict::challenge(d, seat, character, target, choice, rng),
        Command::Answer { character, choice } => conflict::answer(d, seat, character, choice, rng),
        Command::Concede { character, to } => conflict::concede(d, seat, character, to),
        Command::ProposeEnd { character, terms } => {
            conflict::propose_end(d, seat, character, terms)
        }
        Command::AgreeEnd { character } => conflict::agree_end(d, seat, character),
        Command::ChooseConsequence {
            loser,
            consequence,
            waive_consequential,
        } => consequence::choose(d, seat, loser, *consequence, *waive_consequential),
        Command::ProposeAlternative { loser, alternative } => {
            consequence::propose(d, seat, loser, alternative.clone())
        }
        Command::AcceptAlternative { loser } => consequence::accept(d, seat, loser),
        Command::RefuseAlternative { loser } => consequence::refuse(d, seat, loser),
        Command::EndChapter {} => owe::end_chapter(d, seat),
        Command::ChooseOracle {
            oracle,
            story_element,
        } => owe::choose_oracle(d, seat, oracle, story_element),
        Command::BringBack { character } => owe::bring_back(d, seat, character),
    }
}

/// In A Wicked Age as the catalogue offers it: the rules, forms and board, and with the
/// `analysis` feature its table bots, odds in play and `clash` subcommands.
pub fn entry() -> clash_core::RulesetEntry {
    let entry = clash_core::RulesetEntry::with_session_zero::<WickedAge>();
    #[cfg(feature = "analysis")]
    let entry = analysis::offer(entry);
    entry
}
