//! The review of a finished Iron Triangle table ([`Reviewed`]): one chart per conflict, the
//! players' side against the GM's.
//!
//! Iron Triangle is diceless: nothing in it is luck, and every decision that matters is made in
//! secret at the same time as the other side's (IT-2). So each stance and move is judged
//! against the **equilibrium** of that turn: the chance its side is left with when the other
//! side plays its equilibrium mix, against the best any choice could do (the turn's value); and,
//! once the other side's choice is revealed, the **hindsight** best reply to what it really
//! chose.
//!
//! * **The duel solver, where it answers** ([`Solved`]): a conflict of one PC against one NPC
//!   with no special that could act is solved whole (IT-27's win, best play on both sides), and
//!   a side's chance is its chance of winning the conflict: `(1 ± value) / 2` of
//!   `clash solve iron-triangle conflict`. Each position is solved once and kept, so every
//!   later turn of the conflict is read from the same solve.
//! * **The turn game otherwise** ([`crate::analysis::turn_game`]): stances and moves are judged
//!   on that turn alone, scored as `clash solve iron-triangle turn --payoff win` scores it
//!   (winning the turn 1, a tie ½, losing it 0); the chart then has no points (the whole
//!   conflict's chance is not known) and says so.
//!
//! A decision is always judged from its seat's own view: an NPC sheet the players may not see
//! is taken to know every move and no combo (IT-24), as the in-play odds and the strong bot take
//! it. The chart's chances read the whole table. Picks, splits, chains ended and specials are
//! not judged.

use std::cell::RefCell;
use std::collections::HashMap;

use clash_analysis::matrix_game;
use clash_analysis::review::{Conflict, GameVerdict, Judged, Later, Reviewed};
use clash_core::review::Side as ReviewSide;
use clash_core::{Ruleset, Seat, SeatTable, Viewer};

use crate::analysis::duel::{DuelPosition, Solved, StageView};
use crate::analysis::in_play::TurnSeen;
use crate::analysis::turn_game::{FighterSpec, Payoff, TurnPosition};
use crate::conflict::visibility::{Choice, ConflictView};
use crate::conflict::{ConflictCommand, MoveChoice, Phase, Picker, Side, Stance, Status, Step};
use crate::{Command, IronTriangle, Move, Table, TableView};

/// A one-on-one conflict as the duel solver reads it from a view: side 0 the PC, side 1 the
/// NPC.
struct Duel {
    fighters: [FighterSpec; 2],
    names: [String; 2],
}

/// The duel a view shows, if the solver takes it.
fn duel_of(view: &TableView) -> Result<Duel, String> {
    let c = view.conflict.as_ref().ok_or("no conflict")?;
    let fighting: Vec<_> = c
        .fighters
        .iter()
        .filter(|f| matches!(f.status, Status::In | Status::Out))
        .collect();
    let pc = fighting.iter().filter(|f| f.side == Side::Players).count();
    if fighting.len() != 2 || pc != 1 {
        return Err(
            "the whole conflict is solved for one PC against one NPC; this one has more fighters"
                .into(),
        );
    }
    let mut specs = Vec::new();
    for side in [Side::Players, Side::Gm] {
        let f = fighting
            .iter()
            .find(|f| f.side == side)
            .ok_or("a side is missing")?;
        if f.drunken_monkey || f.samurai {
            return Err("a special is in play, which the duel solver does not model".into());
        }
        let ch = view
            .characters
            .iter()
            .find(|c| *c.name == *f.name)
            .ok_or("a fighter's sheet is missing")?;
        let (moves, combos) = match (&ch.moves, &ch.combos, ch.sheet_hidden) {
            (Some(known), combos, false) => (
                known.iter().map(|k| k.mv).collect(),
                combos.clone().unwrap_or_default(),
            ),
            _ => (Move::ALL.to_vec(), Vec::new()),
        };
        if ch
            .specials
            .as_ref()
            .is_some_and(|s| s.iter().any(|k| !k.spent))
        {
            return Err(
                "a fighter holds a special that could act, which the duel solver does not model"
                    .into(),
            );
        }
        specs.push(FighterSpec {
            name: f.name.to_string(),
            energy: f.energy,
            max: Some(ch.energy.max),
            moves: Some(moves),
            combos,
            pile: f.pile.clone(),
            level: 0,
            specials: Vec::new(),
        });
    }
    let npc = specs.pop().ok_or("no NPC")?;
    let pc = specs.pop().ok_or("no PC")?;
    Ok(Duel {
        names: [pc.name.clone(), npc.name.clone()],
        fighters: [pc, npc],
    })
}

thread_local! {
    /// Duels solved so far, by their fighters' sheets: a review reads every turn of a conflict
    /// from one solve.
    static SOLVED: RefCell<HashMap<String, Solved>> = RefCell::new(HashMap::new());
}

fn with_solved<T>(d: &Duel, f: impl FnOnce(&mut Solved) -> T) -> T {
    let key = serde_json::to_string(&(
        &d.names,
        &d.fighters[0].moves,
        &d.fighters[0].combos,
        &d.fighters[1].moves,
        &d.fighters[1].combos,
    ))
    .unwrap_or_default();
    SOLVED.with(|s| {
        let mut s = s.borrow_mut();
        if s.len() > 8 && !s.contains_key(&key) {
            s.clear();
        }
        let solved = s
            .entry(key)
            .or_insert_with(|| Solved::new(&d.fighters[0], &d.fighters[1]));
        f(solved)
    })
}

/// The duel's position with side `active` active, and its live chain.
fn position(d: &Duel, c: &ConflictView, active: usize) -> DuelPosition {
    let chain = c
        .chain
        .as_ref()
        .filter(|ch| *ch.against == *d.names[1 - active])
        .map(|ch| ch.cards.iter().map(|(_, m)| *m).collect())
        .unwrap_or_default();
    DuelPosition {
        energy: [d.fighters[0].energy, d.fighters[1].energy],
        piles: [d.fighters[0].pile.clone(), d.fighters[1].pile.clone()],
        active,
        chain,
    }
}

fn side_of(d: &Duel, name: &str) -> Option<usize> {
    d.names.iter().position(|n| n == name)
}

/// The revealed stances (PC's, NPC's) of the turn a view shows, as stage indices.
fn revealed<T: Copy + PartialEq>(
    d: &Duel,
    c: &ConflictView,
    pick: impl Fn(&crate::conflict::visibility::ParticipantView) -> Choice<T>,
) -> Option<[T; 2]> {
    let t = c.turn.as_ref()?;
    let of = |side: usize| {
        t.participants
            .iter()
            .find(|p| *p.name == *d.names[side])
            .and_then(|p| match pick(p) {
                Choice::Revealed(v) => Some(v),
                _ => None,
            })
    };
    Some([of(0)?, of(1)?])
}

fn stance_index(stage: &StageView, side: usize, s: Stance) -> Option<usize> {
    stage.stances[side].iter().position(|x| {
        *x == s
            || (x.amount == 0 && s.amount == 0)
            || (x.action == s.action && x.amount == s.amount)
    })
}

fn move_index(stage: &StageView, side: usize, m: Move) -> Option<usize> {
    let choices = &stage.choices[side];
    choices
        .iter()
        .position(|c| c.mv == m && !c.ends_chain)
        .or_else(|| choices.iter().position(|c| c.mv == m))
}

/// The duel's value to the PC at the point of the conflict a view shows.
fn duel_value(view: &TableView) -> Result<f64, String> {
    let c = view.conflict.as_ref().ok_or("no conflict")?;
    if c.phase == Phase::Forming {
        return Err("the conflict is still forming".into());
    }
    let d = duel_of(view)?;
    if let Some(o) = &c.outcome {
        return Ok(match o.winner {
            Some(Side::Players) => 1.0,
            Some(Side::Gm) => -1.0,
            None => 0.0,
        });
    }
    let err = |e: crate::analysis::duel::DuelError| e.to_string();
    match &c.phase {
        Phase::Forming => Err("the conflict is still forming".into()),
        Phase::Mercy { surrendered, .. } => {
            let pc_out = c
                .fighters
                .get(usize::from(*surrendered))
                .is_some_and(|f| f.side == Side::Players);
            Ok(if pc_out { -1.0 } else { 1.0 })
        }
        Phase::PickActive { picker, side, .. } => {
            let at = |active| position(&d, c, active);
            match (side, picker) {
                (Some(Side::Gm), _) => with_solved(&d, |s| s.value(&at(1))).map_err(err),
                (Some(Side::Players), _) | (None, Picker::Players) => {
                    with_solved(&d, |s| s.value(&at(0))).map_err(err)
                }
                // After a tie the GM picks who is active, the worse for the PC (IT-26).
                (None, _) => {
                    with_solved(&d, |s| Ok(s.value(&at(0))?.min(s.value(&at(1))?))).map_err(err)
                }
            }
        }
        Phase::Turn | Phase::Ended => {
            let t = c.turn.as_ref().ok_or("no turn")?;
            let active = side_of(&d, &t.active).ok_or("the active fighter is not in the duel")?;
            let stage = with_solved(&d, |s| s.stage(&position(&d, c, active))).map_err(err)?;
            turn_value(&d, c, &stage)
        }
    }
}

/// The value within a turn: the stance game's, the revealed stances' move game's, or the
/// revealed moves' entry.
fn turn_value(d: &Duel, c: &ConflictView, stage: &StageView) -> Result<f64, String> {
    let Some([s0, s1]) = revealed(d, c, |p| p.stance.clone()) else {
        return Ok(stage.value);
    };
    let (i, j) = (
        stance_index(stage, 0, s0).ok_or("a stance the solver does not list")?,
        stance_index(stage, 1, s1).ok_or("a stance the solver does not list")?,
    );
    let Some([m0, m1]) = revealed(d, c, |p| p.choice.clone()) else {
        return Ok(stage.stance_values[i][j]);
    };
    let (MoveChoice::Play(m0), MoveChoice::Play(m1)) = (m0, m1) else {
        // A surrender loses (IT-36); both surrendering: the GM's side wins.
        return Ok(if m0 == MoveChoice::Surrender {
            -1.0
        } else {
            1.0
        });
    };
    let (game, _) = &stage.move_games[i][j];
    let (a, b) = (
        move_index(stage, 0, m0).ok_or("a move the solver does not list")?,
        move_index(stage, 1, m1).ok_or("a move the solver does not list")?,
    );
    Ok(game[a][b])
}

/// The view the whole table gives, for the chart: the GM sees every sheet.
fn full_view(state: &Table) -> TableView {
    IronTriangle::view(state, Viewer::Seat(Seat::Gm))
}

/// `value` (to the PC, from −1 to 1) as each side's chance.
fn split(v: f64) -> Vec<f64> {
    let p = ((1.0 + v) / 2.0).clamp(0.0, 1.0);
    vec![p, 1.0 - p]
}

/// The other side's real choice in this turn, read once the step revealing it has happened.
fn real<T: Copy + PartialEq>(
    later: &Later<'_, IronTriangle>,
    d: &Duel,
    pick: impl Fn(&crate::conflict::visibility::ParticipantView) -> Choice<T> + Copy,
) -> Option<[T; 2]> {
    later.states().take(64).find_map(|s| {
        let v = full_view(&s);
        revealed(d, v.conflict.as_ref()?, pick)
    })
}

/// A verdict from a zero-sum matrix (rows side 0's options, entries side 0's value from −1 to
/// 1), for the option `mine` of side `me`, against the other side's equilibrium `mix`, and in
/// hindsight against its real option `theirs`.
#[allow(clippy::too_many_arguments)]
fn matrix_verdict(
    m: &[Vec<f64>],
    me: usize,
    mine: usize,
    mix: &[f64],
    theirs: Option<usize>,
    label: impl Fn(usize) -> String,
    basis: String,
    side: usize,
) -> GameVerdict {
    // Side `me`'s value of its option `i` against the other's option `j`, from 0 to 1.
    let cell = |i: usize, j: usize| {
        let v = if me == 0 { m[i][j] } else { m[j][i] };
        let v = if me == 0 { v } else { -v };
        ((1.0 + v) / 2.0).clamp(0.0, 1.0)
    };
    let mine_count = if me == 0 {
        m.len()
    } else {
        m.first().map_or(0, Vec::len)
    };
    let against = |i: usize| -> f64 { mix.iter().enumerate().map(|(j, q)| q * cell(i, j)).sum() };
    let best = (0..mine_count)
        .max_by(|a, b| against(*a).total_cmp(&against(*b)))
        .unwrap_or(mine);
    let hindsight = theirs.map(|j| {
        let top = (0..mine_count)
            .max_by(|a, b| cell(*a, j).total_cmp(&cell(*b, j)))
            .unwrap_or(mine);
        (cell(mine, j), cell(top, j), label(top))
    });
    GameVerdict {
        side,
        played: against(mine),
        best: against(best),
        best_choice: label(best),
        hindsight,
        basis,
    }
}

/// Which side of the conflict's [`Reviewed::conflict`] sides a duel side is (PCs first).
fn review_side(duel_side: usize) -> usize {
    duel_side
}

fn stance_words(s: &Stance) -> String {
    match s.action {
        Some(a) if s.amount > 0 => format!("a stance of {} {}", s.amount, a),
        _ => "no stance".into(),
    }
}

/// A stance or move judged by the duel solver, from the seat's view.
fn duel_decision(
    view: &TableView,
    character: &str,
    command: &ConflictCommand,
    later: &Later<'_, IronTriangle>,
) -> Result<GameVerdict, String> {
    let d = duel_of(view)?;
    let c = view.conflict.as_ref().ok_or("no conflict")?;
    let me = side_of(&d, character).ok_or("not a fighter of the duel")?;
    let t = c.turn.as_ref().ok_or("no turn")?;
    let active = side_of(&d, &t.active).ok_or("the active fighter is not in the duel")?;
    let stage =
        with_solved(&d, |s| s.stage(&position(&d, c, active))).map_err(|e| e.to_string())?;
    // The real choices are read from the whole table, with the same duel's names.
    let basis = "the duel solved exactly (the whole conflict, best play on both sides)".to_string();
    match command {
        ConflictCommand::TakeStance { action, amount, .. } => {
            let mine = Stance::new(*action, *amount);
            let i = stance_index(&stage, me, mine).ok_or("a stance the solver does not list")?;
            let theirs = real(later, &d, |p| p.stance.clone())
                .and_then(|s| stance_index(&stage, 1 - me, s[1 - me]));
            let labels = stage.stances[me].clone();
            Ok(matrix_verdict(
                &stage.stance_values,
                me,
                i,
                &stage.stance_mix[1 - me],
                theirs,
                |k| stance_words(&labels[k]),
                basis,
                review_side(me),
            ))
        }
        ConflictCommand::PlayMove { choice, .. } => {
            let [s0, s1] =
                revealed(&d, c, |p| p.stance.clone()).ok_or("the stances are not revealed")?;
            let (i, j) = (
                stance_index(&stage, 0, s0).ok_or("a stance the solver does not list")?,
                stance_index(&stage, 1, s1).ok_or("a stance the solver does not list")?,
            );
            let (game, mixes) = &stage.move_games[i][j];
            let labels: Vec<String> = stage.choices[me]
                .iter()
                .map(|c| {
                    if c.ends_chain {
                        format!("{} (ending the chain first)", c.mv)
                    } else {
                        c.mv.to_string()
                    }
                })
                .collect();
            let MoveChoice::Play(m) = choice else {
                // Surrender (IT-36) loses the conflict.
                let v = matrix_verdict(
                    game,
                    me,
                    0,
                    &mixes[1 - me],
                    None,
                    |k| labels[k].clone(),
                    basis,
                    review_side(me),
                );
                return Ok(GameVerdict { played: 0.0, ..v });
            };
            let mine = move_index(&stage, me, *m).ok_or("a move the solver does not list")?;
            let theirs = real(later, &d, |p| p.choice.clone()).and_then(|r| match r[1 - me] {
                MoveChoice::Play(x) => move_index(&stage, 1 - me, x),
                MoveChoice::Surrender => None,
            });
            Ok(matrix_verdict(
                game,
                me,
                mine,
                &mixes[1 - me],
                theirs,
                |k| labels[k].clone(),
                basis,
                review_side(me),
            ))
        }
        _ => Err("not a stance or a move".into()),
    }
}

/// A stance or move judged on its turn alone (win 1, tie ½, loss 0), from the seat's view.
fn turn_decision(
    table: &SeatTable<IronTriangle>,
    command: &ConflictCommand,
    side: usize,
) -> Result<GameVerdict, String> {
    let turn =
        TurnSeen::read(&table.view, table.seat).ok_or("the seat has no fighter in this turn")?;
    let pos = TurnPosition::new(&turn.spec).map_err(|e| e.to_string())?;
    let me = usize::from(!turn.mine_active);
    let basis = "this turn's equilibrium alone (winning it 1, a tie a half, losing it 0): the whole conflict is solved only for one PC against one NPC without specials".to_string();
    let solve = |m: &[Vec<f64>]| matrix_game::solve(m).map_err(|e| e.to_string());
    match command {
        ConflictCommand::TakeStance { action, amount, .. } => {
            let sa = pos.stances(&turn.spec.active.name);
            let sb = pos.stances(&turn.spec.opponent.name);
            if sa.len() * sb.len() > 2_500 {
                return Err("the turn has too many pairs of stances to solve here".into());
            }
            let mut values = Vec::with_capacity(sa.len());
            for x in &sa {
                let mut row = Vec::with_capacity(sb.len());
                for y in &sb {
                    let g = pos
                        .move_matrix(*x, *y, Payoff::Win)
                        .map_err(|e| e.to_string())?;
                    row.push(solve(&to_f64(&g.matrix))?.value);
                }
                values.push(row);
            }
            let s = solve(&values)?;
            let mine = Stance::new(*action, *amount);
            let options = if me == 0 { &sa } else { &sb };
            let i = options
                .iter()
                .position(|x| *x == mine)
                .ok_or("a stance the turn does not list")?;
            let mix = if me == 0 { &s.col } else { &s.row };
            let labels = options.clone();
            Ok(matrix_verdict(
                &values,
                me,
                i,
                mix,
                None,
                |k| stance_words(&labels[k]),
                basis,
                side,
            ))
        }
        ConflictCommand::PlayMove { choice, .. } => {
            let (sa, sb) = turn.revealed.ok_or("the stances are not revealed")?;
            let g = pos
                .move_matrix(sa, sb, Payoff::Win)
                .map_err(|e| e.to_string())?;
            let m = to_f64(&g.matrix);
            let s = solve(&m)?;
            let options = if me == 0 { &g.rows } else { &g.cols };
            let i = options
                .iter()
                .position(|x| x == choice)
                .ok_or("a move the turn does not list")?;
            let mix = if me == 0 { &s.col } else { &s.row };
            let labels: Vec<String> = options.iter().map(|o| o.to_string()).collect();
            Ok(matrix_verdict(
                &m,
                me,
                i,
                mix,
                None,
                |k| labels[k].clone(),
                basis,
                side,
            ))
        }
        _ => Err("not a stance or a move".into()),
    }
}

fn to_f64(m: &[Vec<i64>]) -> Vec<Vec<f64>> {
    m.iter()
        .map(|r| r.iter().map(|x| (*x as f64).clamp(-1.0, 1.0)).collect())
        .collect()
}

fn sides(state: &Table) -> Option<Vec<ReviewSide>> {
    let c = state.conflict.as_ref()?;
    let side = |s: Side| {
        let fs: Vec<_> = c.fighters.iter().filter(|f| f.side == s).collect();
        let mut seats: Vec<Seat> = fs
            .iter()
            .filter_map(|f| state.characters.get(f.character).map(|ch| ch.controller))
            .collect();
        seats.sort();
        seats.dedup();
        if s == Side::Gm && seats.is_empty() {
            seats.push(Seat::Gm);
        }
        let names: Vec<String> = fs.iter().map(|f| f.name.to_string()).collect();
        ReviewSide {
            name: names.join(" and "),
            seats,
        }
    };
    Some(vec![side(Side::Players), side(Side::Gm)])
}

impl Reviewed for IronTriangle {
    fn measure() -> Vec<String> {
        vec![
            "A side's chance is its chance of winning the conflict when both sides play their best from there: the duel solver's exact answer for one PC against one NPC without specials (as `clash solve iron-triangle conflict` gives it). Iron Triangle has no dice, so there is no luck.".into(),
            "Stances and moves are chosen in secret at the same time: each is judged against the other side's equilibrium mix (what the best choice would have kept), and once the other side's choice is revealed, against the best reply to what it really chose (hindsight).".into(),
            "In conflicts the duel solver does not take (more fighters, specials), stances and moves are judged on their turn alone (winning it 1, a tie a half, losing it 0), and the chart has no points.".into(),
            "A decision is judged from its seat's own view: an NPC sheet the players may not see counts as knowing every move and no combo. Picks, loss splits, ended chains and specials are not judged.".into(),
        ]
    }

    fn conflict(state: &Table) -> Option<Conflict> {
        let sides = sides(state)?;
        let title = format!("Conflict: {} against {}", sides[0].name, sides[1].name);
        Some(Conflict { title, sides })
    }

    fn starts_conflict(before: &Table, after: &Table) -> bool {
        let running = |t: &Table| t.conflict.as_ref().is_some_and(|c| c.is_running());
        !running(before) && running(after)
    }

    fn chances(state: &Table, _seed: u64) -> Result<Vec<f64>, String> {
        duel_value(&full_view(state)).map(split)
    }

    fn result(state: &Table) -> Option<Vec<f64>> {
        let o = state.conflict.as_ref()?.outcome.as_ref()?;
        Some(match o.winner {
            Some(Side::Players) => vec![1.0, 0.0],
            Some(Side::Gm) => vec![0.0, 1.0],
            None => vec![0.5, 0.5],
        })
    }

    fn decision(
        table: &SeatTable<IronTriangle>,
        command: &Command,
        later: &Later<'_, IronTriangle>,
        _seed: u64,
    ) -> Judged {
        let Command::Conflict(c) = command else {
            return Judged::NotJudged;
        };
        let character = match c {
            ConflictCommand::TakeStance { character, .. } => character,
            ConflictCommand::PlayMove { character, .. } => character,
            _ => return Judged::NotJudged,
        };
        let step = table
            .view
            .conflict
            .as_ref()
            .and_then(|c| c.turn.as_ref())
            .map(|t| t.step);
        if !matches!(step, Some(Step::Stances | Step::Moves)) {
            return Judged::NotJudged;
        }
        let side = table
            .view
            .conflict
            .as_ref()
            .and_then(|c| c.fighters.iter().find(|f| *f.name == **character))
            .map(|f| usize::from(f.side == Side::Gm));
        let Some(side) = side else {
            return Judged::NotJudged;
        };
        match duel_decision(&table.view, character, c, later) {
            Ok(v) => Judged::Verdict(v),
            Err(_) => match turn_decision(table, c, side) {
                Ok(v) => Judged::Verdict(v),
                Err(e) => Judged::Unevaluated(e),
            },
        }
    }
}
