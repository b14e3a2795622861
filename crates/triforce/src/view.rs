//! What a table shows: the view (everything is public in Triforce; only the dice generator is
//! unseen), a text picture of the board, and events told in words.

use std::fmt::Write;

use clash_core::Seat;
use serde::Serialize;

use crate::actions;
use crate::board::{NEIGHBOURS, Pos, positions_in};
use crate::combat::{self, Battle, Exchange, Gear};
use crate::pieces::{Pyramid, Size, SizeCounts, seat};
use crate::state::{Outcome, Phase, State};
use crate::turn::{self, ACTIONS_PER_TURN, Command, Event};
use crate::winning;

/// The table as anyone sees it: enough to draw the board and offer clicks.
#[derive(Debug, Clone, Serialize)]
pub struct View {
    pub players: u8,
    pub turn: u32,
    pub active: Seat,
    pub phase: Phase,
    /// Who must send the next command.
    pub awaiting: Option<Seat>,
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
    /// The whole table. Triforce hides nothing (only the dice are unknown until rolled), so
    /// every seat may see all of it; programs that search ahead (the bots) start from it.
    pub table: State,
}

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

#[derive(Debug, Clone, Serialize)]
pub struct SeatView {
    pub seat: Seat,
    pub home: Pos,
    pub stash: SizeCounts,
    /// TF-28: stacks this seat is bottom player of.
    pub territory: u8,
    /// TF-16: legal actions on the current board, counted as at the start of a turn.
    pub legal_actions: usize,
    /// TF-18: has no legal action on the current board.
    pub pinned: bool,
}

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

#[derive(Debug, Clone, Serialize)]
pub struct MoveOptions {
    pub from: Pos,
    pub to: Vec<Pos>,
}

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
                home: state.home(s),
                stash: state.stash(s),
                territory: territory[usize::from(s)],
                legal_actions: actions::count(state, s),
                pinned: free & 1 << s == 0,
            })
            .collect(),
        swords: state.swords,
        shields: state.shields,
        territory_target: winning::territory_target(state.players),
        legal: group(state, &commands),
        legal_commands: commands,
        last_battle: state.last_battle,
        outcome: state.outcome,
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

/// Short form of a pyramid for the board picture: `1S` (p1 small), `KM` (sword), `CL` (shield).
fn short(p: Pyramid) -> String {
    let colour = match p.owner() {
        Some(s) => char::from(b'1' + s),
        None if p.is_sword() => 'K',
        None => 'C',
    };
    format!("{colour}{}", p.size().letter())
}

/// The board as rows of the triangle, then stashes, supplies and whose call it is.
pub fn render(state: &State) -> String {
    let mut out =
        String::from("n@home:white[bottom … top]  2L = p2 large, K sword, C shield, ! contested\n");
    let cells: Vec<String> = Pos::all()
        .map(|p| {
            let home = state
                .seats()
                .find(|s| state.home(*s) == p)
                .map_or(String::new(), |s| format!("@{}", s + 1));
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
    let width = cells.iter().map(String::len).max().unwrap_or(8) + 2;
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
            "p{}: stash {}, bottom of {} stacks",
            s + 1,
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
    let _ = write!(out, "turn {}: {}", state.turn, status(state));
    out
}

fn status(state: &State) -> String {
    let who = state
        .awaiting()
        .map_or("nobody".to_string(), |s| s.to_string());
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
            .map_or("game over".to_string(), |o| outcome_text(&o)),
        Phase::Roll { .. } | Phase::TurnOver => "between turns".to_string(),
    }
}

fn outcome_text(o: &Outcome) -> String {
    let names: Vec<String> = o.winners.as_slice().iter().map(Seat::to_string).collect();
    let verb = if names.len() == 1 {
        "wins"
    } else {
        "share a draw"
    };
    format!(
        "game over: {} {verb} ({})",
        names.join(" and "),
        o.by.rule()
    )
}

/// One event in words.
pub fn narrate(event: &Event) -> String {
    match event {
        Event::TurnStarted { seat, turn } => format!("Turn {turn}: {seat} to play."),
        Event::Pinned { seat, turn } => {
            format!("Turn {turn}: {seat} is pinned and passes (TF-18).")
        }
        Event::Placed { seat, size, at } => format!(
            "{seat} places a {} pyramid on home stack {}.",
            size.letter(),
            at.n()
        ),
        Event::Moved {
            seat,
            piece,
            from,
            to,
        } => format!("{seat} moves {piece} from {} to {}.", from.n(), to.n()),
        Event::TurnEnded { seat } => format!("{seat} ends the action phase."),
        Event::StackChosen { seat, at } => {
            format!("{seat} resolves the contested stack at {} next.", at.n())
        }
        Event::SwordTaken {
            seat,
            at,
            level,
            given,
        } => {
            format!(
                "{seat} exchanges {given} (level {level}) at {} for a sword.",
                at.n()
            )
        }
        Event::ShieldTaken {
            seat,
            at,
            level,
            given,
        } => {
            format!(
                "{seat} exchanges {given} (level {level}) at {} for a shield.",
                at.n()
            )
        }
        Event::Declined { seat, at, exchange } => {
            format!("{seat} takes no {exchange:?} at {}.", at.n()).to_lowercase()
        }
        Event::Battle(b) => battle_text(b),
        Event::GameOver { outcome } => format!("The {}.", outcome_text(outcome)),
    }
}

fn battle_text(b: &Battle) -> String {
    let rolls: Vec<String> = b
        .rolls
        .as_slice()
        .iter()
        .map(|r| match (r.gear, r.own, r.sword, r.shield) {
            (Gear::Sword, Some(own), Some(black), _) => {
                format!("{} {own}+{black}={} (sword)", r.seat, r.total)
            }
            (Gear::Shield, _, _, Some(d20)) => format!("{} d20 {d20} (shield)", r.seat),
            _ => format!("{} {}", r.seat, r.total),
        })
        .collect();
    let losses: Vec<String> = b
        .losses
        .as_slice()
        .iter()
        .map(|l| format!("{} returns {}", l.seat, l.returned))
        .collect();
    format!(
        "Combat at {}: {}; {}.",
        b.at.n(),
        rolls.join(", "),
        losses.join(", ")
    )
}
