//! Choosing a move (IT-35) or Surrender (IT-36), in secret, revealed together (IT-2).

use std::fmt;
use std::str::FromStr;

use clash_core::{RuleError, Seat};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::{
    Conflict, ConflictEvent, FighterId, Name, Step, Turn, current_turn, own_fighter, running,
};
use crate::Table;
use crate::moves::{Action, Move};

/// What a character plays: one of its moves, or Surrender (IT-7, IT-35).
#[cfg_attr(
    feature = "ts",
    derive(ts_rs::TS),
    ts(export_to = "iron-triangle/", type = "string")
)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MoveChoice {
    Play(Move),
    Surrender,
}

impl fmt::Display for MoveChoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveChoice::Play(m) => m.fmt(f),
            MoveChoice::Surrender => f.write_str("surrender"),
        }
    }
}

impl FromStr for MoveChoice {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        if s.eq_ignore_ascii_case("surrender") {
            return Ok(MoveChoice::Surrender);
        }
        s.parse::<Move>()
            .map(MoveChoice::Play)
            .map_err(|e| format!("{e}, or \"surrender\""))
    }
}

impl Serialize for MoveChoice {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for MoveChoice {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        String::deserialize(d)?
            .parse()
            .map_err(serde::de::Error::custom)
    }
}

/// A set of moves as a bit mask over [`Move::ALL`]: cheap to build in the hot path.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct MoveSet(pub u16);

impl MoveSet {
    pub fn index(m: Move) -> usize {
        // Where each action's moves start in `Move::ALL` (Defend has no Jump or Spin).
        const START: [usize; 3] = [0, 3, 8];
        START[m.action as usize] + m.element as usize
    }

    pub fn insert(&mut self, m: Move) {
        self.0 |= 1 << Self::index(m);
    }

    pub fn remove(&mut self, m: Move) {
        self.0 &= !(1 << Self::index(m));
    }

    pub fn contains(self, m: Move) -> bool {
        self.0 & (1 << Self::index(m)) != 0
    }

    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    pub fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// The moves in [`Move::ALL`] order.
    pub fn iter(self) -> impl Iterator<Item = Move> {
        let mut bits = self.0;
        std::iter::from_fn(move || {
            let at = bits.trailing_zeros() as usize;
            bits &= bits.wrapping_sub(1);
            Move::ALL.get(at).copied()
        })
    }

    /// The `n`-th move of [`MoveSet::iter`], if there are that many.
    pub fn nth(self, n: usize) -> Option<Move> {
        let mut bits = self.0;
        for _ in 0..n {
            bits &= bits.wrapping_sub(1);
        }
        Move::ALL.get(bits.trailing_zeros() as usize).copied()
    }
}

/// The moves a fighter knows.
pub fn known(table: &Table, c: &Conflict, id: FighterId) -> MoveSet {
    let mut set = MoveSet::default();
    if let Some(ch) = table.characters.get(c.f(id).character) {
        for k in &ch.moves {
            set.insert(k.mv);
        }
    }
    set
}

/// The moves a fighter may play now: known, not face-up in its pile or in a live chain
/// (IT-35, IT-42), and not forbidden by I Already Know (IT-59 #8). A Samurai with nothing left
/// gets its face-up cards back (D-11).
pub fn available(table: &Table, c: &Conflict, id: FighterId, forbidden: Option<Action>) -> MoveSet {
    let all = known(table, c, id);
    let mut set = all;
    for m in &c.f(id).pile {
        set.remove(*m);
    }
    if let Some(chain) = &c.chain {
        for card in chain.cards.iter().filter(|card| card.owner == id) {
            set.remove(card.mv);
        }
    }
    let not_forbidden = |s: MoveSet| MoveSet(s.0 & !forbidden.map_or(0, action_mask));
    let set = not_forbidden(set);
    if set.is_empty() && c.f(id).samurai {
        let back = not_forbidden(all);
        return if back.is_empty() { all } else { back };
    }
    set
}

fn action_mask(a: Action) -> u16 {
    match a {
        Action::Defend => 0b0000_0000_0111,
        Action::Grapple => 0b0000_1111_1000,
        Action::Attack => 0b1_1111_0000_0000,
    }
}

/// Commit a move or Surrender (IT-32 step 3).
pub fn play_move(
    table: &Table,
    seat: Seat,
    character: &str,
    choice: MoveChoice,
    out: &mut Vec<ConflictEvent>,
) -> Result<(), RuleError> {
    let c = running(table, "IT-32")?;
    let turn = current_turn(c, "IT-32")?;
    let id = own_fighter(table, c, seat, character, "IT-32")?;
    let slot = turn.slot(id).ok_or_else(|| {
        RuleError::illegal(
            "IT-32",
            format!("{character} is not taking part in this turn"),
        )
    })?;
    if turn.step != Step::Moves {
        return Err(RuleError::illegal(
            "IT-32",
            "moves are chosen after the stances are revealed",
        ));
    }
    if turn.moves[slot].is_some() {
        return Err(RuleError::illegal("IT-2", "a committed move is final"));
    }
    check_choice(table, c, turn, id, slot, choice)?;
    let chosen = ConflictEvent::MoveChosen {
        character: c.f(id).name.clone(),
        owner: seat,
        choice: Some(choice),
    };
    out.push(chosen);
    if turn.moves[1 - slot].is_some() {
        // The second move: reveal both and carry the turn on, on a copy of the turn.
        let mut next = turn.clone();
        next.moves[slot] = Some(choice);
        reveal(table, c, &mut next, out);
    }
    Ok(())
}

fn check_choice(
    table: &Table,
    c: &Conflict,
    turn: &Turn,
    id: FighterId,
    slot: usize,
    choice: MoveChoice,
) -> Result<(), RuleError> {
    match choice {
        MoveChoice::Surrender if c.f(id).samurai => {
            Err(RuleError::illegal("D-11", "a Samurai cannot surrender"))
        }
        MoveChoice::Surrender => Ok(()),
        // What is available is always known, so the common case needs one look.
        MoveChoice::Play(m) if available(table, c, id, turn.forbidden[slot]).contains(m) => Ok(()),
        MoveChoice::Play(m) => {
            if !known(table, c, id).contains(m) {
                return Err(RuleError::illegal(
                    "IT-35",
                    format!("{} does not know {m}", c.f(id).name),
                ));
            }
            if turn.forbidden[slot] == Some(m.action) {
                return Err(RuleError::illegal(
                    "IT-59",
                    format!("I Already Know forbids {} moves this turn", m.action),
                ));
            }
            Err(RuleError::illegal(
                "IT-35",
                format!("{m} is face up (in the pile or a live chain) and unavailable"),
            ))
        }
    }
}

/// Both moves are in: reveal them together and carry the turn on (IT-2, IT-32).
pub(crate) fn reveal(
    table: &Table,
    c: &Conflict,
    turn: &mut Turn,
    events: &mut Vec<ConflictEvent>,
) {
    let (Some(a), Some(b), Some(opp)) = (turn.moves[0], turn.moves[1], turn.opponent) else {
        return;
    };
    let disadvantaged = [(turn.active, a), (opp, b)]
        .into_iter()
        .filter(|(f, m)| matches!(m, MoveChoice::Play(mv) if super::disadvantage::is_disadvantaged(c, *f, *mv)))
        .map(|(f, _)| c.f(f).name.clone())
        .collect();
    let move_name = |f: FighterId, m: MoveChoice| match m {
        MoveChoice::Play(mv) => super::character(table, c, f)
            .moves
            .iter()
            .find(|k| k.mv == mv)
            .map_or_else(Name::default, |k| k.name.clone()),
        MoveChoice::Surrender => Name::default(),
    };
    events.push(ConflictEvent::MovesRevealed {
        active: (c.f(turn.active).name.clone(), a),
        opponent: (c.f(opp).name.clone(), b),
        disadvantaged,
        move_names: vec![move_name(turn.active, a), move_name(opp, b)],
    });
    turn.moves_revealed = true;
    if a == MoveChoice::Surrender || b == MoveChoice::Surrender {
        super::ending::surrender(table, c, turn, events);
    } else {
        super::specials::open_w4(table, c, turn, events);
    }
}

pub fn apply(table: &mut Table, event: &ConflictEvent) {
    let Some(c) = table.conflict.as_mut() else {
        return;
    };
    let Some(turn) = c.turn.as_mut() else { return };
    match event {
        ConflictEvent::MoveChosen {
            character,
            choice: Some(choice),
            ..
        } => {
            let slot = c
                .fighters
                .iter()
                .position(|f| f.name.is(character))
                .and_then(|i| turn.slot(i as u8));
            if let Some(slot) = slot {
                turn.moves[slot] = Some(*choice);
            }
        }
        ConflictEvent::MovesRevealed {
            active, opponent, ..
        } => {
            turn.moves = [Some(active.1), Some(opponent.1)];
            turn.moves_revealed = true;
        }
        _ => {}
    }
}
