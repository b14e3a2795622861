//! Winning (TF-28 to TF-30), checked only as a turn begins (TF-12.1).

use crate::actions;
use crate::pieces::{List, MAX_PLAYERS, seat};
use crate::state::{EndRule, Outcome, State};
use crate::turn::Event;

/// TF-28: how many stacks each seat is bottom player of.
pub fn bottom_counts(state: &State) -> [u8; MAX_PLAYERS] {
    state.surface.bottoms.map(|m| m.count_ones() as u8)
}

/// TF-28: stacks needed to win by territory: 11 − number of players.
pub fn territory_target(players: u8) -> u8 {
    crate::variant::Rules::default().territory_target(players)
}

/// TF-18: seats (bits) with at least one legal action on the current board.
pub fn free_players(state: &State) -> u8 {
    let surface = actions::Surface::of(state);
    let free = |s: u8| {
        actions::placements(state, s, 0) != 0
            || actions::can_move(&surface.tops_of(s), &surface.legal)
    };
    state
        .seats()
        .filter(|s| free(*s))
        .fold(0, |m, s| m | 1 << s)
}

/// TF-30: the seats with the most stacks as bottom player (one winner, or a shared draw).
pub fn most_territory(state: &State, by: EndRule) -> Outcome {
    let counts = bottom_counts(state);
    let best = state
        .seats()
        .map(|s| counts[usize::from(s)])
        .max()
        .unwrap_or(0);
    let winners: List<_, MAX_PLAYERS> = state
        .seats()
        .filter(|s| counts[usize::from(*s)] == best)
        .map(seat)
        .collect();
    Outcome { winners, by }
}

/// TF-12.1/TF-12.2: what happens as seat `s` begins turn number `turn`: a win or the end of
/// the game, a pass because `s` is pinned, or an ordinary turn.
pub fn begin(state: &State, s: u8, turn: u32) -> Event {
    if state.turn_limit.is_some_and(|limit| turn > limit) {
        return Event::GameOver {
            outcome: most_territory(state, EndRule::TurnLimit),
        };
    }
    let only = |by| Outcome {
        winners: [seat(s)].into_iter().collect(),
        by,
    };
    if bottom_counts(state)[usize::from(s)] >= state.rules.territory_target(state.players) {
        return Event::GameOver {
            outcome: only(EndRule::Territory),
        };
    }
    let free = free_players(state);
    if free == 0 {
        return Event::GameOver {
            outcome: most_territory(state, EndRule::Deadlock),
        };
    }
    if free == 1 << s {
        return Event::GameOver {
            outcome: only(EndRule::LastFree),
        };
    }
    if free & 1 << s == 0 {
        return Event::Pinned {
            seat: seat(s),
            turn,
        };
    }
    Event::TurnStarted {
        seat: seat(s),
        turn,
    }
}
