//! The turn sequence (TF-11, TF-12, TF-17): commands, events, and the state machine that links
//! actions, combat and the next turn.
//!
//! One function, [`step`], checks a command, then applies its event and everything that follows
//! automatically (the third action ending the turn, dice, the next turn's win checks and passes)
//! until a seat must choose again. Events go to a [`Sink`]: [`crate::Triforce::decide`] collects
//! them on a copy of the state, the random player's fast path drops them.

use clash_core::{Randomness, RuleError, Seat};

use crate::actions;
use crate::board::{POSITIONS, Pos, Stack, positions_in};
use crate::combat::{self, Exchange};
use crate::pieces::{Blank, Pyramid, Size, seat_index};
use crate::state::{Phase, State};
use crate::winning;

pub use crate::command::{Command, Commands, Event};

/// TF-12: most actions per turn.
pub const ACTIONS_PER_TURN: u8 = 3;

/// Where events go.
pub trait Sink {
    fn push(&mut self, event: Event);
}

impl Sink for Vec<Event> {
    fn push(&mut self, event: Event) {
        Vec::push(self, event);
    }
}

/// Drops events (fast play, where only the state matters).
pub struct Discard;

impl Sink for Discard {
    fn push(&mut self, _: Event) {}
}

fn emit(state: &mut State, sink: &mut impl Sink, event: Event) {
    apply(state, &event);
    sink.push(event);
}

/// Check `command` from `who`, then play it and everything automatic after it.
///
/// On a rule error nothing has changed. A randomness error can leave `state` part-way, so
/// callers that must not change on error work on a copy (as `decide` does).
pub fn step(
    state: &mut State,
    who: Seat,
    command: &Command,
    rng: &mut dyn Randomness,
    sink: &mut impl Sink,
) -> Result<(), RuleError> {
    let event = check(state, who, command)?;
    emit(state, sink, event);
    if state.phase == Phase::Actions && state.actions_taken >= ACTIONS_PER_TURN {
        emit(state, sink, Event::TurnEnded { seat: who });
    }
    advance(state, rng, sink)
}

/// Run what needs no choice: dice (TF-24) and turn starts with their win checks and passes.
pub fn advance(
    state: &mut State,
    rng: &mut dyn Randomness,
    sink: &mut impl Sink,
) -> Result<(), RuleError> {
    loop {
        let event = match state.phase {
            Phase::Roll { at } => Event::Battle(combat::fight(state, at, rng)?),
            Phase::TurnOver => winning::begin(
                state,
                state.next_seat(state.active),
                state.turn.saturating_add(1),
            ),
            _ => return Ok(()),
        };
        emit(state, sink, event);
    }
}

/// The rule that governs who answers in `phase`.
fn phase_rule(phase: Phase) -> &'static str {
    match phase {
        Phase::ChooseStack => "TF-20",
        Phase::Sword { .. } | Phase::Shield { .. } => "TF-22",
        _ => "TF-12",
    }
}

fn position(n: u8) -> Result<Pos, RuleError> {
    Pos::number(n)
        .ok_or_else(|| RuleError::illegal("TF-6", format!("there is no position {n} (1..15)")))
}

/// The event a command produces, or why it is refused.
fn check(state: &State, who: Seat, command: &Command) -> Result<Event, RuleError> {
    if let Some(outcome) = &state.outcome {
        return Err(RuleError::illegal(outcome.by.rule(), "the game is over"));
    }
    let awaiting = state.awaiting();
    if awaiting != Some(who) {
        let waiting = awaiting.map_or("nobody".to_string(), |s| state.name_of(s));
        return Err(RuleError::not_your_call(
            phase_rule(state.phase),
            who,
            format!("it is {waiting}'s call, not yours"),
        ));
    }
    let s = seat_index(who, state.players).unwrap_or(0);
    match (state.phase, *command) {
        (Phase::Actions, Command::Place { size }) => {
            actions::check_place(state, s, size, state.placed)?;
            Ok(Event::Placed {
                seat: who,
                size,
                at: state.home(s),
            })
        }
        (Phase::Actions, Command::Move { from, to }) => {
            let (from, to) = (position(from)?, position(to)?);
            actions::check_move(state, s, from, to)?;
            if recreates_start(state, changed_stacks(state), from, to) {
                return Err(RuleError::illegal(
                    "TF-17",
                    "a third action may not recreate the board the turn began with",
                ));
            }
            let piece = state.stack(from).top().unwrap_or(Pyramid::BLANK);
            Ok(Event::Moved {
                seat: who,
                piece,
                from,
                to,
            })
        }
        (Phase::Actions, Command::EndTurn) => {
            if state.actions_taken == 0 {
                return Err(RuleError::illegal(
                    "TF-17",
                    "take at least one action before ending the turn",
                ));
            }
            if !can_end(state) {
                return Err(RuleError::illegal(
                    "TF-17",
                    "the board must differ from the start of the turn",
                ));
            }
            Ok(Event::TurnEnded { seat: who })
        }
        (Phase::ChooseStack, Command::Resolve { at }) => {
            let at = position(at)?;
            if !combat::contested(state.stack(at)) {
                return Err(RuleError::illegal(
                    "TF-20",
                    format!("the stack at {} is not contested", at.n()),
                ));
            }
            Ok(Event::StackChosen { seat: who, at })
        }
        (Phase::Sword { at }, Command::TakeSword { level }) => {
            combat::check_exchange(state, who, at, Exchange::Sword, level)?;
            let given = state
                .stack(at)
                .get(usize::from(level) - 1)
                .unwrap_or(Pyramid::BLANK);
            Ok(Event::SwordTaken {
                seat: who,
                at,
                level,
                given,
            })
        }
        (Phase::Shield { at }, Command::TakeShield { level }) => {
            combat::check_exchange(state, who, at, Exchange::Shield, level)?;
            let given = state
                .stack(at)
                .get(usize::from(level) - 1)
                .unwrap_or(Pyramid::BLANK);
            Ok(Event::ShieldTaken {
                seat: who,
                at,
                level,
                given,
            })
        }
        (Phase::Sword { at }, Command::Decline) => Ok(Event::Declined {
            seat: who,
            at,
            exchange: Exchange::Sword,
        }),
        (Phase::Shield { at }, Command::Decline) => Ok(Event::Declined {
            seat: who,
            at,
            exchange: Exchange::Shield,
        }),
        (phase, command) => Err(RuleError::illegal(
            phase_rule(phase),
            format!(
                "{} is not possible while {}",
                command.words(),
                describe(phase)
            ),
        )),
    }
}

fn describe(phase: Phase) -> String {
    match phase {
        Phase::Actions => "taking actions".into(),
        Phase::ChooseStack => "choosing the next contested stack".into(),
        Phase::Sword { at } => format!("the sword window at {} is open", at.n()),
        Phase::Shield { at } => format!("the shield window at {} is open", at.n()),
        Phase::Roll { .. } => "rolling".into(),
        Phase::TurnOver => "between turns".into(),
        Phase::Over => "the game is over".into(),
    }
}

/// TF-17: would moving `from → to` as the third action bring back the start-of-turn board?
/// Only moves can: pieces placed this turn can never leave the board during it. `changed` is
/// the mask of stacks that differ from the start ([`changed_stacks`]).
fn recreates_start(state: &State, changed: u16, from: Pos, to: Pos) -> bool {
    if state.actions_taken + 1 < ACTIONS_PER_TURN
        || state.placed != 0
        || changed & !(from.bit() | to.bit()) != 0
    {
        return false;
    }
    let (mut origin, mut target) = (state.stacks[from.index()], state.stacks[to.index()]);
    if let Some(p) = origin.pop() {
        target.push(p);
    }
    origin == state.start[from.index()] && target == state.start[to.index()]
}

/// TF-17: the stacks that differ from the start of the turn (a non-zero stand-in when the
/// board cannot equal it: every single action changes the board, and placed pieces stay).
fn changed_stacks(state: &State) -> u16 {
    match (state.actions_taken, state.placed) {
        (0, _) => 0,
        (1, _) | (_, 1..) => u16::MAX,
        _ => (0..POSITIONS)
            .filter(|i| state.stacks[*i] != state.start[*i])
            .fold(0, |m, i| m | 1 << i),
    }
}

/// Every command `who` may send now (empty when it is not their call).
pub fn legal(state: &State, who: Seat) -> Commands {
    let mut out = Commands::default();
    if state.outcome.is_some() || state.awaiting() != Some(who) {
        return out;
    }
    let s = seat_index(who, state.players).unwrap_or(0);
    match state.phase {
        Phase::Actions => {
            let sizes = actions::placements(state, s, state.placed);
            Size::ALL
                .into_iter()
                .filter(|z| sizes & z.bit() != 0)
                .for_each(|size| out.push(Command::Place { size }));
            moves(state, s, &mut out);
            if can_end(state) {
                out.push(Command::EndTurn);
            }
        }
        Phase::ChooseStack => {
            positions_in(combat::contested_mask(state))
                .for_each(|at| out.push(Command::Resolve { at: at.n() }));
        }
        Phase::Sword { at } => exchange_commands(
            combat::sword_levels(state, at),
            |level| Command::TakeSword { level },
            &mut out,
        ),
        Phase::Shield { at } => exchange_commands(
            combat::shield_levels(state, at),
            |level| Command::TakeShield { level },
            &mut out,
        ),
        Phase::Roll { .. } | Phase::TurnOver | Phase::Over => {}
    }
    out
}

/// TF-15/TF-17: every move `s` may make now, in board order.
pub(crate) fn moves(state: &State, s: u8, out: &mut Commands) {
    let surface = actions::Surface::of(state);
    let reaches = move_reaches(state, &surface.tops_of(s), &surface.legal);
    for (from, reach) in reaches.iter().enumerate() {
        let from = Pos::from_index(from).n();
        positions_in(*reach).for_each(|to| out.push(Command::Move { from, to: to.n() }));
    }
}

/// TF-15/TF-17: for each origin (by index), where the piece of `s` on top may move now.
/// `tops` and `legal` are [`actions::own_tops`] and [`actions::destinations`] of this state.
pub(crate) fn move_reaches(state: &State, tops: &[u16; 3], legal: &[u16; 3]) -> [u16; POSITIONS] {
    let mut reaches = [0u16; POSITIONS];
    let changed = if third_move_filtered(state) {
        changed_stacks(state)
    } else {
        u16::MAX
    };
    for (size, mask) in tops.iter().enumerate() {
        for from in positions_in(*mask) {
            let mut reach = actions::reach(from, legal[size]);
            if changed != u16::MAX {
                for to in positions_in(reach) {
                    if recreates_start(state, changed, from, to) {
                        reach &= !to.bit();
                    }
                }
            }
            reaches[from.index()] = reach;
        }
    }
    reaches
}

/// TF-17: may the active seat end its actions now?
pub(crate) fn can_end(state: &State) -> bool {
    match (state.actions_taken, state.placed) {
        (0, _) => false,
        (1, _) | (_, 1..) => true,
        _ => state.stacks != state.start,
    }
}

/// TF-17: is the third-action filter in force (so some moves may be refused)?
pub(crate) fn third_move_filtered(state: &State) -> bool {
    state.actions_taken + 1 == ACTIONS_PER_TURN && state.placed == 0
}

fn exchange_commands(levels: u32, make: impl Fn(u8) -> Command, out: &mut Commands) {
    (0..32u8)
        .filter(|l| levels & 1 << l != 0)
        .for_each(|l| out.push(make(l + 1)));
    out.push(Command::Decline);
}

/// After a stack's combats: the next contested stack to choose, or the end of the turn.
fn after_combat(state: &State) -> Phase {
    if combat::contested_mask(state) != 0 {
        Phase::ChooseStack
    } else {
        Phase::TurnOver
    }
}

/// Fold one event into the state. Never fails and never rolls; an event that does not fit the
/// state (a corrupt log) changes nothing it cannot.
pub fn apply(state: &mut State, event: &Event) {
    let index = |s: Seat| seat_index(s, state.players);
    match *event {
        Event::TurnStarted { seat, turn } | Event::Pinned { seat, turn } => {
            let Some(s) = index(seat) else { return };
            state.active = s;
            state.turn = turn;
            state.actions_taken = 0;
            state.placed = 0;
            state.start = state.stacks;
            state.sword_takers = [0; POSITIONS];
            state.phase = if matches!(event, Event::Pinned { .. }) {
                Phase::TurnOver
            } else {
                Phase::Actions
            };
        }
        Event::Placed { seat, size, at } => {
            let Some(s) = index(seat) else { return };
            state.stashes[usize::from(s)].take(size);
            state.restack(at, |stack| stack.push(Pyramid::piece(s, size)));
            state.actions_taken += 1;
            state.placed |= size.bit();
        }
        Event::Moved { from, to, .. } => {
            if let Some(p) = state.restack(from, Stack::pop) {
                state.restack(to, |stack| stack.push(p));
            }
            state.actions_taken += 1;
        }
        Event::TurnEnded { .. } => state.phase = after_combat(state),
        Event::StackChosen { at, .. } => state.phase = combat::open(state, at),
        Event::SwordTaken { at, level, .. } => {
            combat::exchange(
                state,
                at,
                usize::from(level).wrapping_sub(1),
                Exchange::Sword,
            );
            state.phase = combat::after_sword(state, at);
        }
        Event::ShieldTaken { at, level, .. } => {
            combat::exchange(
                state,
                at,
                usize::from(level).wrapping_sub(1),
                Exchange::Shield,
            );
            state.phase = Phase::Roll { at };
        }
        Event::Declined {
            at,
            exchange: Exchange::Sword,
            ..
        } => state.phase = combat::after_sword(state, at),
        Event::Declined {
            at,
            exchange: Exchange::Shield,
            ..
        } => state.phase = Phase::Roll { at },
        Event::Battle(battle) => {
            combat::remove_losses(state, &battle);
            state.last_battle = Some(battle);
            // TF-20: the same stack fights again for as long as it is contested.
            let at = battle.at;
            state.phase = if combat::contested(state.stack(at)) {
                combat::open(state, at)
            } else {
                after_combat(state)
            };
        }
        Event::GameOver { outcome } => {
            state.outcome = Some(outcome);
            state.phase = Phase::Over;
        }
    }
}
