//! What a table shows: the view (everything is public in Triforce; only the dice generator is
//! unseen), a text picture of the board, and events told in words.

use std::fmt::Write;

use clash_core::Seat;
use serde::Serialize;

use crate::actions;
use crate::board::{NEIGHBOURS, Pos, positions_in};
use crate::combat::{self, Battle, Exchange, Gear};
use crate::pieces::{Pyramid, Size, SizeCounts, seat};
use crate::players;
use crate::state::{EndRule, Outcome, Phase, State};
use crate::turn::{self, ACTIONS_PER_TURN, Command, Event};
use crate::winning;

/// The table as anyone sees it: enough to draw the board and offer clicks.
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "triforce/"))]
#[derive(Debug, Clone, Serialize)]
pub struct View {
    pub players: u8,
    pub turn: u32,
    pub active: Seat,
    pub phase: Phase,
    /// Who must send the next command.
    pub awaiting: Option<Seat>,
    /// Their name at the table.
    pub awaiting_name: Option<String>,
    pub actions_taken: u8,
    pub actions_left: u8,
    pub positions: Vec<PositionView>,
    pub seats: Vec<SeatView>,
    pub swords: SizeCounts,
    pub shields: SizeCounts,
    /// TF-28: stacks needed to win by territory.
    pub territory_target: u8,
    /// The awaited seat's options, grouped for a board interface.
    pub legal: Legal,
    /// Exactly the commands the awaited seat may send.
    pub legal_commands: Vec<Command>,
    pub last_battle: Option<Battle>,
    pub outcome: Option<Outcome>,
    /// How the game ended, in words.
    pub outcome_text: Option<String>,
    /// The whole table. Triforce hides nothing (only the dice are unknown until rolled), so
    /// every seat may see all of it; programs that search ahead (the bots) start from it.
    pub table: State,
}

#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "triforce/"))]
#[derive(Debug, Clone, Serialize)]
pub struct PositionView {
    pub n: u8,
    pub row: u8,
    pub col: u8,
    pub white: Size,
    pub neighbours: Vec<Pos>,
    /// Bottom first, above the white.
    pub stack: Vec<Pyramid>,
    pub home_of: Option<Seat>,
    pub top_player: Option<Seat>,
    pub bottom_player: Option<Seat>,
    /// TF-19.
    pub contested: bool,
}

#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "triforce/"))]
#[derive(Debug, Clone, Serialize)]
pub struct SeatView {
    pub seat: Seat,
    /// How the table knows this seat: its colour, with its player's name if given.
    pub name: String,
    /// The colour of its pyramids.
    pub colour: &'static str,
    pub home: Pos,
    pub stash: SizeCounts,
    /// TF-28: stacks this seat is bottom player of.
    pub territory: u8,
    /// TF-16: legal actions on the current board, counted as at the start of a turn.
    pub legal_actions: usize,
    /// TF-18: has no legal action on the current board.
    pub pinned: bool,
}

#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "triforce/"))]
#[derive(Debug, Clone, Default, Serialize)]
pub struct Legal {
    pub placements: Vec<Size>,
    pub moves: Vec<MoveOptions>,
    pub can_end_turn: bool,
    /// TF-20: contested stacks the active seat may resolve next.
    pub resolve: Vec<Pos>,
    /// TF-22: the open exchange window, if any.
    pub exchange: Option<ExchangeOptions>,
}

#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "triforce/"))]
#[derive(Debug, Clone, Serialize)]
pub struct MoveOptions {
    pub from: Pos,
    pub to: Vec<Pos>,
}

#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "triforce/"))]
#[derive(Debug, Clone, Serialize)]
pub struct ExchangeOptions {
    pub at: Pos,
    pub kind: Exchange,
    /// Levels (from 1) that may be given up; declining is always possible.
    pub levels: Vec<u8>,
}

pub fn build(state: &State) -> View {
    let awaiting = state.awaiting();
    let commands: Vec<Command> = awaiting
        .map(|s| turn::legal(state, s).as_slice().to_vec())
        .unwrap_or_default();
    let territory = winning::bottom_counts(state);
    let free = winning::free_players(state);
    View {
        players: state.players,
        turn: state.turn,
        active: state.active(),
        phase: state.phase,
        awaiting,
        awaiting_name: awaiting.map(|s| state.name_of(s)),
        actions_taken: state.actions_taken,
        actions_left: if state.phase == Phase::Actions {
            ACTIONS_PER_TURN.saturating_sub(state.actions_taken)
        } else {
            0
        },
        positions: Pos::all().map(|p| position_view(state, p)).collect(),
        seats: state
            .seats()
            .map(|s| SeatView {
                seat: seat(s),
                name: state.seat_name(s),
                colour: players::colour(s),
                home: state.home(s),
                stash: state.stash(s),
                territory: territory[usize::from(s)],
                legal_actions: actions::count(state, s),
                pinned: free & 1 << s == 0,
            })
            .collect(),
        swords: state.swords,
        shields: state.shields,
        territory_target: state.rules.territory_target(state.players),
        legal: group(state, &commands),
        legal_commands: commands,
        last_battle: state.last_battle,
        outcome: state.outcome,
        outcome_text: state.outcome.map(|o| outcome_line(state, &o)),
        table: *state,
    }
}

fn position_view(state: &State, p: Pos) -> PositionView {
    let stack = state.stack(p);
    let (row, col) = p.row_col();
    PositionView {
        n: p.n(),
        row,
        col,
        white: state.white(p),
        neighbours: positions_in(NEIGHBOURS[p.index()]).collect(),
        stack: stack.as_slice().to_vec(),
        home_of: state.seats().find(|s| state.home(*s) == p).map(seat),
        top_player: stack.top_player().map(seat),
        bottom_player: stack.bottom_player().map(seat),
        contested: combat::contested(stack),
    }
}

fn group(state: &State, commands: &[Command]) -> Legal {
    let mut legal = Legal::default();
    for command in commands {
        match *command {
            Command::Place { size } => legal.placements.push(size),
            Command::Move { from, to } => {
                let (Some(from), Some(to)) = (Pos::number(from), Pos::number(to)) else {
                    continue;
                };
                match legal.moves.iter_mut().find(|m| m.from == from) {
                    Some(m) => m.to.push(to),
                    None => legal.moves.push(MoveOptions { from, to: vec![to] }),
                }
            }
            Command::EndTurn => legal.can_end_turn = true,
            Command::Resolve { at } => legal.resolve.extend(Pos::number(at)),
            // Exchange levels are gathered with their window below.
            Command::TakeSword { .. } | Command::TakeShield { .. } | Command::Decline => {}
        }
    }
    let window = match state.phase {
        Phase::Sword { at } => Some((at, Exchange::Sword)),
        Phase::Shield { at } => Some((at, Exchange::Shield)),
        _ => None,
    };
    if let Some((at, kind)) = window {
        let levels = commands.iter().filter_map(|c| match c {
            Command::TakeSword { level } | Command::TakeShield { level } => Some(*level),
            _ => None,
        });
        legal.exchange = Some(ExchangeOptions {
            at,
            kind,
            levels: levels.collect(),
        });
    }
    legal
}

/// Short form of a pyramid for the board picture: `RS` (a small Red piece), `KM` (a medium
/// sword), `CL` (a large shield).
fn short(p: Pyramid) -> String {
    let colour = match p.owner() {
        Some(s) => players::colour(s).chars().next().unwrap_or('?'),
        None if p.is_sword() => 'K',
        None => 'C',
    };
    format!("{colour}{}", p.size().letter())
}

/// The board as rows of the triangle, then stashes, supplies and whose call it is.
pub fn render(state: &State) -> String {
    let colours: Vec<String> = state
        .seats()
        .map(|s| format!("{} {}", short_colour(s), state.seat_name(s)))
        .collect();
    let mut out = format!(
        "n@home:white[bottom … top]; {}; K sword, C shield; ! contested\n",
        colours.join(", ")
    );
    let cells: Vec<String> = Pos::all()
        .map(|p| {
            let home = state
                .seats()
                .find(|s| state.home(*s) == p)
                .map_or(String::new(), |s| format!("@{}", short_colour(s)));
            let stack: Vec<String> = state
                .stack(p)
                .as_slice()
                .iter()
                .map(|x| short(*x))
                .collect();
            let mark = if combat::contested(state.stack(p)) {
                "!"
            } else {
                ""
            };
            format!(
                "{}{home}:{}[{}]{mark}",
                p.n(),
                state.white(p).letter(),
                stack.join(" ")
            )
        })
        .collect();
    let width = cells.iter().map(|c| c.chars().count()).max().unwrap_or(8) + 2;
    for row in 1..=5usize {
        let first = row * (row - 1) / 2;
        let _ = write!(out, "{}", " ".repeat((5 - row) * width / 2));
        for cell in &cells[first..first + row] {
            let _ = write!(out, "{cell:<width$}");
        }
        out = out.trim_end().to_string();
        out.push('\n');
    }
    let counts = |c: SizeCounts| format!("S{} M{} L{}", c.0[0], c.0[1], c.0[2]);
    let territory = winning::bottom_counts(state);
    for s in state.seats() {
        let _ = writeln!(
            out,
            "{}: stash {}, bottom player of {} stacks",
            state.seat_name(s),
            counts(state.stash(s)),
            territory[usize::from(s)]
        );
    }
    let _ = writeln!(
        out,
        "swords {} | shields {}",
        counts(state.swords),
        counts(state.shields)
    );
    match state.phase {
        // A game can end before its first turn (decided at the start): no turn number then.
        Phase::Over => {
            let _ = write!(out, "game over: {}", status(state));
        }
        _ => {
            let _ = write!(out, "turn {}: {}", state.turn, status(state));
        }
    }
    out
}

fn short_colour(s: u8) -> char {
    players::colour(s).chars().next().unwrap_or('?')
}

fn status(state: &State) -> String {
    let who = state
        .awaiting()
        .map_or("nobody".to_string(), |s| state.name_of(s));
    match state.phase {
        Phase::Actions => format!(
            "{who} to act ({} of {ACTIONS_PER_TURN} actions taken)",
            state.actions_taken
        ),
        Phase::ChooseStack => format!("{who} chooses a contested stack to resolve"),
        Phase::Sword { at } => format!("{who} may take a sword at {}", at.n()),
        Phase::Shield { at } => format!("{who} may take a shield at {}", at.n()),
        Phase::Over => state
            .outcome
            .map_or("game over".to_string(), |o| outcome_line(state, &o)),
        Phase::Roll { .. } | Phase::TurnOver => "between turns".to_string(),
    }
}

/// How the game ended, in one line naming the winners.
pub fn outcome_line(state: &State, o: &Outcome) -> String {
    let names: Vec<String> = o
        .winners
        .as_slice()
        .iter()
        .map(|s| state.name_of(*s))
        .collect();
    let winners = list(&names);
    let won = if names.len() == 1 {
        format!("{winners} wins")
    } else {
        format!("{winners} share a draw")
    };
    match o.by {
        EndRule::Territory => format!("{won}, as bottom player of enough stacks"),
        EndRule::LastFree => format!("{won} as the only player left with a legal action"),
        EndRule::Deadlock => format!("{won} with the most stacks, since nobody can act"),
        EndRule::TurnLimit => format!("{won} with the most stacks at the turn limit"),
    }
}

/// The rule that ended the game: the log names it (the page links it); the banner and the
/// board speak words only.
pub fn end_rule(by: EndRule) -> &'static str {
    match by {
        EndRule::Territory => "TF-28",
        EndRule::LastFree => "TF-29",
        EndRule::Deadlock | EndRule::TurnLimit => "TF-30",
    }
}

fn list(names: &[String]) -> String {
    match names {
        [] => "nobody".into(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// One event in words, naming every seat by its colour (and player's name).
pub fn narrate(state: &State, event: &Event) -> String {
    let name = |s: Seat| state.name_of(s);
    match *event {
        Event::TurnStarted { seat, turn } => format!("Turn {turn}: {} to play.", name(seat)),
        Event::Pinned { seat, turn } => {
            format!(
                "Turn {turn}: {} has no legal action and passes (TF-18).",
                name(seat)
            )
        }
        Event::Placed { seat, size, at } => format!(
            "{} places a {} pyramid on their home stack at {}.",
            name(seat),
            players::size_words(size),
            at.n()
        ),
        Event::Moved {
            seat,
            piece,
            from,
            to,
        } => format!(
            "{} moves {} from {} to {}.",
            name(seat),
            players::pyramid_words(piece),
            from.n(),
            to.n()
        ),
        Event::TurnEnded { seat } => format!("{} ends the action phase.", name(seat)),
        Event::StackChosen { seat, at } => {
            format!(
                "{} resolves the contested stack at {} next.",
                name(seat),
                at.n()
            )
        }
        Event::SwordTaken {
            seat, at, given, ..
        } => format!(
            "{} gives up {} at {} for a sword of its size.",
            name(seat),
            players::pyramid_words(given),
            at.n()
        ),
        Event::ShieldTaken {
            seat, at, given, ..
        } => format!(
            "{} gives up {} at {} for a shield of its size.",
            name(seat),
            players::pyramid_words(given),
            at.n()
        ),
        Event::Declined { seat, at, exchange } => {
            let what = match exchange {
                Exchange::Sword => "sword",
                Exchange::Shield => "shield",
            };
            format!("{} takes no {what} at {}.", name(seat), at.n())
        }
        Event::Battle(b) => battle_text(state, &b),
        Event::GameOver { outcome } => {
            let line = outcome_line(state, &outcome);
            let mut chars = line.chars();
            let first = chars.next().map(|c| c.to_uppercase().to_string());
            format!(
                "Game over: {}{} ({}).",
                first.unwrap_or_default(),
                chars.as_str(),
                end_rule(outcome.by)
            )
        }
    }
}

fn battle_text(state: &State, b: &Battle) -> String {
    let rolls: Vec<String> = b
        .rolls
        .as_slice()
        .iter()
        .map(|r| {
            let who = state.name_of(r.seat);
            match (r.gear, r.own, r.sword, r.shield) {
                (Gear::Sword, Some(own), Some(black), _) => {
                    format!("{who} rolls {own} + {black} = {} with the sword", r.total)
                }
                (Gear::Shield, _, _, Some(face)) => format!(
                    "{who} rolls {face} on the shield's d{}",
                    state.rules.shield_die
                ),
                _ => format!("{who} rolls {}", r.total),
            }
        })
        .collect();
    let losses: Vec<String> = b
        .losses
        .as_slice()
        .iter()
        .map(|l| {
            let who = state.name_of(l.seat);
            if l.returned.is_sword() {
                format!("{who}'s sword goes back to the supply")
            } else if l.returned.is_shield() {
                format!("{who}'s shield goes back to the supply")
            } else {
                format!(
                    "{who} loses {} to their stash",
                    players::pyramid_words(l.returned)
                )
            }
        })
        .collect();
    format!(
        "Combat at {}: {}; {}.",
        b.at.n(),
        list(&rolls),
        list(&losses)
    )
}
