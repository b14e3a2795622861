//! Odds in play ([`SeatOdds`]): the equilibrium of the current turn for the seat's fighter,
//! scored as the chance of winning the turn minus the chance of losing it: its stance mix while
//! stances are secret, its move mix once they are revealed ([`crate::analysis::turn_game`]).
//!
//! The turn is rebuilt from the seat's own view ([`TurnSeen`], shared with the strong table bot):
//! energies, maxima, disadvantage piles and the live chain are public, and so are a PC's moves
//! and combos; a sheet the seat may not see is taken to know every move and no combo (IT-24).

use clash_analysis::exact::Probability;
use clash_core::{Seat, SeatOdds};
use num_rational::BigRational;
use num_traits::Zero;
use serde::Serialize;

use crate::analysis::turn_game::{
    self, ChainCard, FighterSpec, Mix, Payoff, TurnPosition, TurnSolution, TurnSpec,
};
use crate::conflict::visibility::{CharacterView, Choice, ConflictView};
use crate::conflict::{MoveChoice, Stance, Step};
use crate::{Action, IronTriangle, Move, TableView};

/// A seat's odds: its fighter's equilibrium mix at this step of the turn, and what the turn is
/// worth to it.
#[derive(Debug, Clone, Serialize)]
#[serde(tag = "step", rename_all = "snake_case")]
pub enum Odds {
    Stances {
        fighter: String,
        stances: Vec<StanceShare>,
        value: Probability,
        /// The chance the seat's fighter wins the turn (both sides at the equilibrium).
        win: Probability,
        /// The chance it loses the turn (a tie is what is left).
        lose: Probability,
    },
    Moves {
        fighter: String,
        moves: Vec<MoveShare>,
        value: Probability,
        win: Probability,
        lose: Probability,
    },
}

/// A stance and how often the equilibrium takes it.
#[derive(Debug, Clone, Serialize)]
pub struct StanceShare {
    pub stance: StanceOption,
    pub probability: Probability,
}

/// A stance as the odds show it: the action (`null` for no stance) and the amount.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct StanceOption {
    pub action: Option<Action>,
    pub amount: u32,
}

/// A move (or `"surrender"`) and how often the equilibrium plays it.
#[derive(Debug, Clone, Serialize)]
pub struct MoveShare {
    #[serde(rename = "move")]
    pub choice: MoveChoice,
    pub probability: Probability,
}

/// The current turn as one seat sees it: the solver's turn, which fighter the seat plays, and
/// both stances once they are revealed.
pub(crate) struct TurnSeen {
    pub spec: TurnSpec,
    /// The table's numbers (its variant's IT-39 and IT-45 bonuses).
    pub rules: crate::variant::Rules,
    /// The seat plays the active character (else the opponent).
    pub mine_active: bool,
    pub revealed: Option<(Stance, Stance)>,
}

impl TurnSeen {
    /// The turn `me` takes part in, if a turn is under way with both fighters picked.
    pub(crate) fn read(view: &TableView, me: Seat) -> Option<TurnSeen> {
        let conflict = view.conflict.as_ref()?;
        let turn = conflict.turn.as_ref()?;
        let (a, b) = (turn.active.to_string(), turn.opponent.as_ref()?.to_string());
        let controller = |name: &str| sheet(view, name).map(|c| c.controller);
        let mine_active = if controller(&a)? == me {
            true
        } else if controller(&b)? == me {
            false
        } else {
            return None;
        };
        let stance = |name: &str| {
            let p = turn.participants.iter().find(|p| *p.name == *name)?;
            match p.stance {
                Choice::Revealed(s) => Some(s),
                _ => None,
            }
        };
        let revealed = stance(&a).zip(stance(&b));
        let spec = TurnSpec {
            active: fighter_spec(view, conflict, &a)?,
            opponent: fighter_spec(view, conflict, &b)?,
            chain: chain_against(conflict, &b),
        };
        Some(TurnSeen {
            spec,
            rules: view.rules.unwrap_or_default(),
            mine_active,
            revealed,
        })
    }

    /// The name of the seat's fighter.
    pub(crate) fn mine(&self) -> &str {
        if self.mine_active {
            &self.spec.active.name
        } else {
            &self.spec.opponent.name
        }
    }
}

pub(crate) fn sheet<'a>(view: &'a TableView, name: &str) -> Option<&'a CharacterView> {
    view.characters.iter().find(|c| *c.name == *name)
}

/// One fighter as the turn solver reads it, from what the seat sees.
fn fighter_spec(view: &TableView, conflict: &ConflictView, name: &str) -> Option<FighterSpec> {
    let f = conflict.fighters.iter().find(|f| *f.name == *name)?;
    let ch = sheet(view, name)?;
    // IT-24: a sheet this seat may not see could hold any move, and no combo is known.
    let (moves, combos) = match (&ch.moves, &ch.combos, ch.sheet_hidden) {
        (Some(known), combos, false) => (
            known.iter().map(|k| k.mv).collect(),
            combos.clone().unwrap_or_default(),
        ),
        _ => (Move::ALL.to_vec(), Vec::new()),
    };
    Some(FighterSpec {
        name: name.to_string(),
        energy: f.energy,
        max: Some(ch.energy.max),
        moves: Some(moves),
        combos,
        pile: f.pile.clone(),
        level: 0,
        specials: Vec::new(),
    })
}

/// The active side's live chain against `opponent` (IT-42), oldest first.
fn chain_against(conflict: &ConflictView, opponent: &str) -> Vec<ChainCard> {
    conflict
        .chain
        .as_ref()
        .filter(|c| *c.against == *opponent)
        .map(|c| c.cards.iter().map(|(_, m)| ChainCard::from(*m)).collect())
        .unwrap_or_default()
}

/// The chances that the seat's fighter wins and loses when both sides play `rows` and `cols`
/// on `matrix`, which pays the active fighter (positive: it wins, negative: it loses, 0 a tie).
fn chances(
    matrix: &[Vec<i64>],
    rows: &[BigRational],
    cols: &[BigRational],
    mine_active: bool,
) -> (BigRational, BigRational) {
    let (mut a, mut b) = (BigRational::zero(), BigRational::zero());
    for (row, p) in matrix.iter().zip(rows) {
        for (x, q) in row.iter().zip(cols) {
            match x.signum() {
                1 => a += p * q,
                -1 => b += p * q,
                _ => {}
            }
        }
    }
    if mine_active { (a, b) } else { (b, a) }
}

/// Each option's exact probability in `mix` (0 for an option it leaves out).
fn weights<T: PartialEq>(options: &[T], mix: &[Mix<T>]) -> Option<Vec<BigRational>> {
    options
        .iter()
        .map(|o| match mix.iter().find(|m| m.option == *o) {
            Some(m) => m.probability.exact(),
            None => Some(BigRational::zero()),
        })
        .collect()
}

/// The chances to win and to lose the whole turn, stances and then moves played at the
/// equilibrium: each stance pair weighs the chances of its own move game.
fn turn_chances(
    spec: &TurnSpec,
    s: &TurnSolution,
    mine_active: bool,
) -> Option<(BigRational, BigRational)> {
    let pos = TurnPosition::new(spec).ok()?;
    let (mut win, mut lose) = (BigRational::zero(), BigRational::zero());
    for m in &s.moves {
        let w = weights(&[m.stance_active], &s.stances_active)?.pop()?
            * weights(&[m.stance_opponent], &s.stances_opponent)?.pop()?;
        let g = pos
            .move_matrix(m.stance_active, m.stance_opponent, Payoff::Win)
            .ok()?;
        let rows = weights(&g.rows, &m.active)?;
        let cols = weights(&g.cols, &m.opponent)?;
        let (a, b) = chances(&g.matrix, &rows, &cols, mine_active);
        win += &w * a;
        lose += w * b;
    }
    Some((win, lose))
}

/// The move game of the revealed stances, from the seat's side.
fn move_odds(turn: &TurnSeen, (sa, sb): (Stance, Stance)) -> Option<Odds> {
    let game = turn_game::move_game(&turn.spec, sa, sb, Payoff::Win).ok()?;
    let solution = turn_game::solve_moves(&game).ok()?;
    let (options, probs) = if turn.mine_active {
        (&game.rows, &solution.row)
    } else {
        (&game.cols, &solution.col)
    };
    let moves = options
        .iter()
        .zip(probs)
        .map(|(m, p)| MoveShare {
            choice: *m,
            probability: Probability::of(p),
        })
        .collect();
    let value = if turn.mine_active {
        solution.value.clone()
    } else {
        -solution.value.clone()
    };
    let (win, lose) = chances(&game.matrix, &solution.row, &solution.col, turn.mine_active);
    Some(Odds::Moves {
        fighter: turn.mine().to_string(),
        moves,
        value: Probability::of(&value),
        win: Probability::of(&win),
        lose: Probability::of(&lose),
    })
}

/// The two-stage turn, from the seat's side: its stance mix.
fn stance_odds(turn: &TurnSeen) -> Option<Odds> {
    let solution = turn_game::solve_turn(&turn.spec, Payoff::Win).ok()?;
    let mix = if turn.mine_active {
        &solution.stances_active
    } else {
        &solution.stances_opponent
    };
    let stances = mix
        .iter()
        .map(|m| StanceShare {
            stance: StanceOption {
                action: m.option.action,
                amount: m.option.amount,
            },
            probability: m.probability.clone(),
        })
        .collect();
    let value = solution.value.exact()?;
    let value = if turn.mine_active { value } else { -value };
    let (win, lose) = turn_chances(&turn.spec, &solution, turn.mine_active)?;
    Some(Odds::Stances {
        fighter: turn.mine().to_string(),
        stances,
        value: Probability::of(&value),
        win: Probability::of(&win),
        lose: Probability::of(&lose),
    })
}

impl SeatOdds for IronTriangle {
    type Odds = Odds;

    /// At the stance and move steps of a turn this seat fights in, its fighter's equilibrium.
    fn odds(view: &TableView, seat: Seat) -> Option<Odds> {
        let step = view.conflict.as_ref()?.turn.as_ref()?.step;
        if step != Step::Stances && step != Step::Moves {
            return None;
        }
        let turn = TurnSeen::read(view, seat)?;
        match turn.revealed {
            Some(stances) => move_odds(&turn, stances),
            None => stance_odds(&turn),
        }
    }
}
