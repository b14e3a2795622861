//! A running game written back as a [`Setup`] that starts a new game exactly there (the same
//! form a setup takes to start from a position).

use std::collections::BTreeMap;

use crate::board::{DEFAULT_LAYOUT, POSITIONS, Pos, Stack, default_homes};
use crate::pieces::{Pyramid, Size, seat};
use crate::setup::{OpenWindow, Setup, StartIn};
use crate::state::{Phase, State};

/// The position of a running game as a setup that starts a new game exactly there ([`build`](crate::setup::build)
/// and [`opening`](crate::setup::opening) give back an equivalent state). Triforce hides nothing, so every viewer gets
/// the same. The last combat's dice are not part of a position.
pub fn position(state: &State) -> Option<Setup> {
    let players = state.players;
    let board_of = |stacks: &[Stack; POSITIONS]| -> BTreeMap<u8, Vec<Pyramid>> {
        Pos::all()
            .filter(|p| !stacks[p.index()].is_empty())
            .map(|p| (p.n(), stacks[p.index()].as_slice().to_vec()))
            .collect()
    };
    let default_layout = state.layout == DEFAULT_LAYOUT;
    let homes: Vec<u8> = state.seats().map(|s| state.home(s).n()).collect();
    let mut setup = Setup::new(players);
    setup.names = state
        .seats()
        .filter_map(|s| state.names.get(s).map(|n| (seat(s), n.to_string())))
        .collect();
    if !default_layout {
        setup.layout = Some(state.layout.to_vec());
        setup.free_layout = Size::ALL
            .iter()
            .any(|z| state.layout.iter().filter(|w| *w == z).count() != 5);
    }
    if homes != default_homes(players) {
        setup.homes = Some(homes);
    }
    setup.turn_limit = state.turn_limit;
    setup.variant = state.rules.variant();
    setup.board = board_of(&state.stacks);
    setup.stashes = Some(state.seats().map(|s| (seat(s), state.stash(s))).collect());
    setup.swords = Some(state.swords);
    setup.shields = Some(state.shields);
    let next = state.next_seat(state.active);
    match state.phase {
        // Between turns, or over: the next seat's turn start, whose checks end the game again.
        Phase::TurnOver | Phase::Over => {
            setup.starting_seat = seat(next);
            setup.turn.number = state.turn.saturating_add(1);
        }
        Phase::Actions => {
            setup.starting_seat = state.active();
            setup.turn.number = state.turn;
            if state.actions_taken > 0 {
                setup.turn.actions_taken = state.actions_taken;
                setup.turn.placed = Size::ALL
                    .into_iter()
                    .filter(|z| state.placed & z.bit() != 0)
                    .collect();
                setup.turn.began_with = Some(board_of(&state.start));
            }
        }
        Phase::ChooseStack | Phase::Sword { .. } | Phase::Shield { .. } => {
            setup.starting_seat = state.active();
            setup.turn.number = state.turn;
            setup.start_in = StartIn::Combat;
            setup.turn.swords_taken = Pos::all()
                .filter(|p| state.sword_takers[p.index()] != 0)
                .map(|p| {
                    let takers = state
                        .seats()
                        .filter(|s| state.sword_takers[p.index()] & 1 << s != 0)
                        .map(seat)
                        .collect();
                    (p.n(), takers)
                })
                .collect();
            setup.turn.window = match state.phase {
                Phase::Sword { at } => Some(OpenWindow::Sword(at.n())),
                Phase::Shield { at } => Some(OpenWindow::Shield(at.n())),
                _ => None,
            };
        }
        // Dice are rolled inside the command that makes them due: never a resting state.
        Phase::Roll { .. } => return None,
    }
    Some(setup)
}
