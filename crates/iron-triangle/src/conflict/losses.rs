//! Exact losses and gains (IT-49 … IT-52, D-17, D-35), with the specials that change them
//! (Pressure Point, Wax On, Santa Carla, Dig Two Graves, Yojimbo: IT-59 #4 … #9, D-23 … D-25).
//!
//! A turn's result becomes a list of pending losses, then pending gains (D-35 order). Each loss
//! has a fixed part (the loser's matched stance, on its own type, IT-51) and a free part that a
//! seat splits over the types. The split is asked for only when there is a real choice; when
//! only one split is possible it is applied at once.

use clash_core::{RuleError, Seat};
use serde::{Deserialize, Serialize};

use super::{
    Conflict, ConflictEvent, FighterId, MoveChoice, Name, Step, Turn, TurnOutcome, TurnReport,
    WinReason, combo, controller, current_turn, disadvantage, running,
};
use crate::Table;
use crate::character::{Energy, PerAction};
use crate::moves::{Action, Move};
use crate::special::Special;

/// Why a character loses energy.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LossReason {
    /// Lost or tied the turn (IT-49, IT-50).
    Turn,
    /// Took a participant's loss with Yojimbo (IT-59 #9).
    Yojimbo,
    /// Dig Two Graves mirrored the user's loss (IT-59 #7).
    Mirror,
}

/// A loss still to be taken. `fixed` stays on `fixed_type`; `free` is split by `splitter`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PendingLoss {
    pub character: Name,
    pub reason: LossReason,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fixed_type: Option<Action>,
    pub fixed: u32,
    pub free: u32,
    pub splitter: Seat,
}

/// Energy still to be regained (Santa Carla), split by its user up to max.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PendingGain {
    pub character: Name,
    pub amount: u32,
    pub splitter: Seat,
}

/// How a loser's loss adds up (IT-49), for narration and views.
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "iron-triangle/"))]
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct LossBreakdown {
    pub character: Name,
    /// Winner's matched stance × multiplier.
    pub from_stance: u32,
    /// The loser's own matched stance, taken from that type.
    pub own_stance: u32,
    pub base: u32,
    pub combo: u32,
    pub disadvantage: u32,
    pub total: u32,
    /// Wax On stopped a stance part (set only when there was something to stop).
    #[serde(default)]
    pub waxed: bool,
    /// How much Wax On stopped: the winner's stance × multiplier (0 in logs written before
    /// this was recorded).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub wax_on_stopped: u32,
    /// A Yojimbo took this loss instead.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub taken_by: Option<Name>,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// Energies as they stand partway through a decision, without cloning the table. A turn's
/// losses touch its two participants and perhaps a Yojimbo user, so the first few are kept
/// in place and only more spill to the heap.
#[derive(Debug, Default)]
pub struct Energies {
    first: [Option<(usize, Energy)>; 4],
    more: Vec<(usize, Energy)>,
}

impl Energies {
    fn slot(&mut self, character: usize) -> Option<&mut (usize, Energy)> {
        self.first
            .iter_mut()
            .flatten()
            .chain(self.more.iter_mut())
            .find(|(i, _)| *i == character)
    }

    pub fn get(&self, table: &Table, character: usize) -> Energy {
        self.first
            .iter()
            .flatten()
            .chain(self.more.iter())
            .find(|(i, _)| *i == character)
            .map(|(_, e)| *e)
            .or_else(|| table.characters.get(character).map(|c| c.energy))
            .unwrap_or(Energy::full(PerAction::default()))
    }

    pub fn set(&mut self, character: usize, e: Energy) {
        if let Some(slot) = self.slot(character) {
            slot.1 = e;
        } else if let Some(free) = self.first.iter_mut().find(|s| s.is_none()) {
            *free = Some((character, e));
        } else {
            self.more.push((character, e));
        }
    }
}

/// Non-cancelled specials in effect for a slot this turn.
fn active_specials(turn: &Turn, by: FighterId) -> impl Iterator<Item = Special> + '_ {
    turn.specials
        .iter()
        .filter(move |p| p.by == by && !p.cancelled)
        .map(|p| p.special)
}

fn has(turn: &Turn, by: FighterId, f: impl Fn(Special) -> bool) -> bool {
    active_specials(turn, by).any(f)
}

/// What a loss would actually take from `e`: the fixed part floors at its type, the free part at
/// the total left (D-35).
pub fn actual(e: Energy, fixed_type: Option<Action>, fixed: u32, free: u32) -> u32 {
    let taken = fixed_type.map_or(0, |t| fixed.min(e.current.get(t)));
    taken + free.min(e.total() - taken)
}

/// Work out the turn's result and its losses (IT-48 … IT-51), then settle what is forced. The
/// pending losses and gains end up in the `TurnResolved` event, not in `turn` (a scratch copy).
pub(crate) fn resolve(table: &Table, turn: &mut Turn, events: &mut Vec<ConflictEvent>) {
    let Some(c) = table.conflict.as_ref() else {
        return;
    };
    let (Some(b), Some(ma), Some(mb)) = (turn.opponent, turn.played(0), turn.played(1)) else {
        return;
    };
    let a = turn.active;
    let ids = [a, b];
    let moves = [ma, mb];
    let stances = [
        turn.stances[0].unwrap_or_default(),
        turn.stances[1].unwrap_or_default(),
    ];
    let dis = [
        disadvantage::is_disadvantaged(c, a, ma),
        disadvantage::is_disadvantaged(c, b, mb),
    ];
    let pp_splitter = |slot: usize| {
        // Pressure Point: the user splits the opponent's losses (IT-59 #4, D-23).
        let other = ids[1 - slot];
        if has(turn, other, |s| s == Special::PressurePoint) {
            controller(table, c, other)
        } else {
            controller(table, c, ids[slot])
        }
    };
    // A turn has at most two losers and one regain: size the lists once.
    let mut breakdown = Vec::with_capacity(2);
    let mut losses = Vec::with_capacity(2);
    let mut gains = Vec::new();
    let outcome = match super::winner::judge(ma, dis[0], mb, dis[1]) {
        Some((first_wins, by)) => {
            let (w, l) = if first_wins { (0, 1) } else { (1, 0) };
            let (mw, ml, sw, sl) = (moves[w], moves[l], stances[w], stances[l]);
            // Wax On (X) stops only the stance × multiplier part, and only when there is one.
            let stance_part = sw.matched_amount(mw) * mw.multiplier();
            let wax_on_stopped = if has(turn, ids[l], |s| s == Special::WaxOn(mw.action)) {
                stance_part
            } else {
                0
            };
            let from_stance = stance_part - wax_on_stopped;
            let own_stance = sl.matched_amount(ml);
            let comboed = w == 0 && combo::combos(table, c, a, b, mw);
            // IT-45 and IT-39, per card as the table's rules say (1 as written).
            let combo_bonus = if comboed {
                combo::bonus(c) * table.rules.combo_bonus
            } else {
                0
            };
            let dis_bonus = if dis[l] {
                disadvantage::bonus(&c.f(ids[l]).pile, ml) * table.rules.disadvantage
            } else {
                0
            };
            let free = from_stance + mw.base() + combo_bonus + dis_bonus;
            breakdown.push(LossBreakdown {
                character: c.f(ids[l]).name.clone(),
                from_stance,
                own_stance,
                base: mw.base(),
                combo: combo_bonus,
                disadvantage: dis_bonus,
                total: free + own_stance,
                waxed: wax_on_stopped > 0,
                wax_on_stopped,
                taken_by: None,
            });
            losses.push(PendingLoss {
                character: c.f(ids[l]).name.clone(),
                reason: LossReason::Turn,
                fixed_type: sl.action.filter(|_| own_stance > 0),
                fixed: own_stance,
                free,
                splitter: pp_splitter(l),
            });
            // Santa Carla (X): stance and action both X, and a win: regain the stance amount.
            if let Some(x) = sw.action.filter(|x| {
                sw.amount > 0
                    && mw.action == *x
                    && has(turn, ids[w], |s| s == Special::SantaCarla(*x))
            }) {
                gains.push(PendingGain {
                    character: c.f(ids[w]).name.clone(),
                    amount: sw.amount,
                    splitter: controller(table, c, ids[w]),
                });
                let _ = x;
            }
            TurnOutcome::Win {
                winner: c.f(ids[w]).name.clone(),
                loser: c.f(ids[l]).name.clone(),
                by,
                winning_move: mw,
                losing_move: ml,
                combo: comboed,
            }
        }
        None => {
            // A tie: each side loses the base of the other's move, nothing more (IT-50).
            for slot in 0..2 {
                let base = moves[1 - slot].base();
                breakdown.push(LossBreakdown {
                    character: c.f(ids[slot]).name.clone(),
                    base,
                    total: base,
                    ..Default::default()
                });
                losses.push(PendingLoss {
                    character: c.f(ids[slot]).name.clone(),
                    reason: LossReason::Turn,
                    fixed_type: None,
                    fixed: 0,
                    free: base,
                    splitter: pp_splitter(slot),
                });
            }
            TurnOutcome::Tie { moves: (ma, mb) }
        }
    };
    yojimbo(table, c, turn, &mut losses, &mut breakdown);
    dig_two_graves(table, c, turn, ids, moves, &mut losses);
    // The event takes the pending losses and gains once settling has read them from the turn
    // (a scratch copy every caller drops afterwards), so they are never copied.
    let at = events.len();
    events.push(ConflictEvent::TurnResolved {
        outcome: outcome.clone(),
        breakdown,
        losses: Vec::new(),
        gains: Vec::new(),
    });
    turn.outcome = Some(outcome);
    turn.pending_losses = losses;
    turn.pending_gains = gains;
    turn.step = Step::Settling;
    settle(table, turn, 0, 0, &mut Energies::default(), events);
    if let ConflictEvent::TurnResolved { losses, gains, .. } = &mut events[at] {
        *losses = std::mem::take(&mut turn.pending_losses);
        *gains = std::mem::take(&mut turn.pending_gains);
    }
}

/// Yojimbo: a non-participant takes what a participant would have lost; they lose 0 (D-25).
fn yojimbo(
    table: &Table,
    c: &Conflict,
    turn: &Turn,
    losses: &mut Vec<PendingLoss>,
    breakdown: &mut [LossBreakdown],
) {
    for p in turn
        .specials
        .iter()
        .filter(|p| p.special == Special::Yojimbo && !p.cancelled)
    {
        let Some(target) = p.target else { continue };
        let target_name = &c.f(target).name;
        let Some(i) = losses.iter().position(|l| &l.character == target_name) else {
            continue;
        };
        let l = losses.remove(i);
        let e = table.characters[c.f(target).character].energy;
        let amount = actual(e, l.fixed_type, l.fixed, l.free);
        let user = c.f(p.by).name.clone();
        if let Some(b) = breakdown.iter_mut().find(|b| &b.character == target_name) {
            b.taken_by = Some(user.clone());
        }
        losses.push(PendingLoss {
            character: user,
            reason: LossReason::Yojimbo,
            fixed_type: None,
            fixed: 0,
            free: amount,
            splitter: controller(table, c, p.by),
        });
    }
}

/// Dig Two Graves (X): if the opponent's action is X, they also lose what the user finally loses,
/// on ties too; the opponent splits it (D-24). A Yojimbo-protected user loses 0, so mirrors 0.
fn dig_two_graves(
    table: &Table,
    c: &Conflict,
    turn: &Turn,
    ids: [FighterId; 2],
    moves: [Move; 2],
    losses: &mut Vec<PendingLoss>,
) {
    for slot in 0..2 {
        let (user, other) = (ids[slot], ids[1 - slot]);
        if !has(turn, user, |s| {
            s == Special::DigTwoGraves(moves[1 - slot].action)
        }) {
            continue;
        }
        let e = table.characters[c.f(user).character].energy;
        let mirrored: u32 = losses
            .iter()
            .filter(|l| l.character == c.f(user).name && l.reason == LossReason::Turn)
            .map(|l| actual(e, l.fixed_type, l.fixed, l.free))
            .sum();
        if mirrored == 0 {
            continue;
        }
        // A Yojimbo on the opponent takes the mirror too: it takes whatever they would lose.
        let protector = turn
            .specials
            .iter()
            .find(|p| p.special == Special::Yojimbo && !p.cancelled && p.target == Some(other));
        let (bearer, reason) = match protector {
            Some(p) => (p.by, LossReason::Yojimbo),
            None => (other, LossReason::Mirror),
        };
        losses.push(PendingLoss {
            character: c.f(bearer).name.clone(),
            reason,
            fixed_type: None,
            fixed: 0,
            free: mirrored,
            splitter: controller(table, c, bearer),
        });
    }
}

/// The only split of `amount` over `room`, if there is just one (D-35): none needed, all of it,
/// or everything on the single type that has room.
pub fn forced_split(room: PerAction<u32>, amount: u32) -> Option<PerAction<u32>> {
    let total = room.total();
    let amount = amount.min(total);
    if amount == 0 {
        return Some(PerAction::default());
    }
    if amount == total {
        return Some(room);
    }
    let with_room = Action::ALL.iter().filter(|a| room.get(**a) > 0).count();
    if with_room == 1 {
        return Some(room.map(|r| if r > 0 { amount } else { 0 }));
    }
    None
}

/// Check a chosen split: each type within its room, adding up to what must be placed.
pub fn check_split(
    room: PerAction<u32>,
    amount: u32,
    split: PerAction<u32>,
    rule: &'static str,
) -> Result<(), RuleError> {
    let amount = amount.min(room.total());
    if Action::ALL.iter().any(|a| split.get(*a) > room.get(*a)) {
        return Err(RuleError::illegal(
            rule,
            format!(
                "a type can take only what it has room for (Defend {}, Grapple {}, Attack {})",
                room.defend, room.grapple, room.attack
            ),
        ));
    }
    if split.total() != amount {
        return Err(RuleError::illegal(
            rule,
            format!("the split must add up to {amount}, not {}", split.total()),
        ));
    }
    Ok(())
}

/// The fixed part taken from `e`, and what is left to split.
fn after_fixed(e: Energy, l: &PendingLoss) -> (PerAction<u32>, PerAction<u32>) {
    let mut fixed = PerAction::default();
    if let Some(t) = l.fixed_type {
        *fixed.get_mut(t) = l.fixed.min(e.current.get(t));
    }
    let room = PerAction {
        defend: e.current.defend - fixed.defend,
        grapple: e.current.grapple - fixed.grapple,
        attack: e.current.attack - fixed.attack,
    };
    (fixed, room)
}

fn lost_event(
    name: &Name,
    e: Energy,
    fixed: PerAction<u32>,
    split: PerAction<u32>,
    free: u32,
    split_by: Option<Seat>,
) -> (ConflictEvent, Energy) {
    let lost = PerAction {
        defend: fixed.defend + split.defend,
        grapple: fixed.grapple + split.grapple,
        attack: fixed.attack + split.attack,
    };
    let mut after = e;
    for a in Action::ALL {
        after.lose(a, lost.get(a));
    }
    // A type that reaches 0 in a conflict gets a zero mark (IT-52, D-17).
    let zero_marked = Action::ALL
        .into_iter()
        .filter(|a| e.current.get(*a) > 0 && after.current.get(*a) == 0)
        .collect();
    let event = ConflictEvent::EnergyLost {
        character: name.clone(),
        lost,
        discarded: free - split.total(),
        zero_marked,
        split_by,
    };
    (event, after)
}

fn bearer(c: &Conflict, name: &str) -> Option<usize> {
    c.fighters
        .iter()
        .find(|f| f.name.is_str(name))
        .map(|f| f.character)
}

/// Apply every pending loss and gain whose split is forced; stop at the first real choice. The
/// first `losses_taken` losses and `gains_taken` gains of `turn` are already settled (by the
/// command being decided), so the turn itself is read, never copied.
pub(crate) fn settle(
    table: &Table,
    turn: &Turn,
    losses_taken: usize,
    gains_taken: usize,
    energies: &mut Energies,
    events: &mut Vec<ConflictEvent>,
) {
    let Some(c) = table.conflict.as_ref() else {
        return;
    };
    for l in turn.pending_losses.iter().skip(losses_taken) {
        let Some(ch) = bearer(c, &l.character) else {
            continue;
        };
        let e = energies.get(table, ch);
        let (fixed, room) = after_fixed(e, l);
        let Some(split) = forced_split(room, l.free) else {
            return;
        };
        let (event, after) = lost_event(&l.character, e, fixed, split, l.free, None);
        events.push(event);
        energies.set(ch, after);
    }
    for g in turn.pending_gains.iter().skip(gains_taken) {
        let Some(ch) = bearer(c, &g.character) else {
            continue;
        };
        let e = energies.get(table, ch);
        let Some(split) = forced_split(room_to_max(e), g.amount) else {
            return;
        };
        events.push(ConflictEvent::EnergyGained {
            character: g.character.clone(),
            gained: split,
        });
        energies.set(ch, gained(e, split));
    }
    super::ending::finish_turn(table, turn, energies, events);
}

fn room_to_max(e: Energy) -> PerAction<u32> {
    PerAction {
        defend: e.max.defend - e.current.defend,
        grapple: e.max.grapple - e.current.grapple,
        attack: e.max.attack - e.current.attack,
    }
}

fn gained(mut e: Energy, split: PerAction<u32>) -> Energy {
    for a in Action::ALL {
        e.gain(a, split.get(a));
    }
    e
}

/// The loser's controller (or a Pressure Point user, or a Yojimbo user for their own loss)
/// splits the free part of a loss (IT-51, D-23, D-25, D-35).
pub fn split_loss(
    table: &Table,
    seat: Seat,
    name: &str,
    split: PerAction<u32>,
    out: &mut Vec<ConflictEvent>,
) -> Result<(), RuleError> {
    let c = running(table, "IT-51")?;
    let turn = current_turn(c, "IT-51")?;
    let Some(l) = turn
        .pending_losses
        .first()
        .filter(|_| turn.step == Step::Settling)
    else {
        return Err(RuleError::illegal(
            "IT-51",
            "no loss is waiting to be split",
        ));
    };
    if l.character != name {
        return Err(RuleError::illegal(
            "IT-51",
            format!("the loss waiting to be split is {}'s", l.character),
        ));
    }
    if l.splitter != seat {
        return Err(RuleError::not_your_call(
            "IT-51",
            seat,
            format!("{} splits this loss", table.seat_name(l.splitter)),
        ));
    }
    let ch = bearer(c, name).ok_or_else(|| RuleError::illegal("IT-51", "unknown character"))?;
    let e = table.characters[ch].energy;
    let (fixed, room) = after_fixed(e, l);
    check_split(room, l.free, split, "D-35")?;
    let (event, after) = lost_event(&l.character, e, fixed, split, l.free, Some(seat));
    out.push(event);
    let mut energies = Energies::default();
    energies.set(ch, after);
    settle(table, turn, 1, 0, &mut energies, out);
    Ok(())
}

/// Santa Carla's user splits the regained energy, up to max (IT-59 #6).
pub fn split_gain(
    table: &Table,
    seat: Seat,
    name: &str,
    split: PerAction<u32>,
    out: &mut Vec<ConflictEvent>,
) -> Result<(), RuleError> {
    let c = running(table, "IT-59")?;
    let turn = current_turn(c, "IT-59")?;
    let Some(g) = turn
        .pending_gains
        .first()
        .filter(|_| turn.step == Step::Settling && turn.pending_losses.is_empty())
    else {
        return Err(RuleError::illegal(
            "IT-59",
            "no regained energy is waiting to be split",
        ));
    };
    if g.character != name {
        return Err(RuleError::illegal(
            "IT-59",
            format!("the gain waiting to be split is {}'s", g.character),
        ));
    }
    if g.splitter != seat {
        return Err(RuleError::not_your_call(
            "IT-59",
            seat,
            format!("{} splits this gain", table.seat_name(g.splitter)),
        ));
    }
    let ch = bearer(c, name).ok_or_else(|| RuleError::illegal("IT-59", "unknown character"))?;
    let e = table.characters[ch].energy;
    check_split(room_to_max(e), g.amount, split, "IT-59")?;
    out.push(ConflictEvent::EnergyGained {
        character: g.character.clone(),
        gained: split,
    });
    let mut energies = Energies::default();
    energies.set(ch, gained(e, split));
    settle(table, turn, 0, 1, &mut energies, out);
    Ok(())
}

/// The seat a waiting split is up to, if any (without looking at energies).
pub fn waiting_splitter(c: &Conflict) -> Option<Seat> {
    let turn = c.turn.as_ref().filter(|t| t.step == Step::Settling)?;
    turn.pending_losses
        .first()
        .map(|l| l.splitter)
        .or_else(|| turn.pending_gains.first().map(|g| g.splitter))
}

/// What a seat must place now, if a split is waiting on it: (character, room, amount, is_gain).
pub fn waiting_split(
    table: &Table,
    c: &Conflict,
) -> Option<(Name, Seat, PerAction<u32>, u32, bool)> {
    let turn = c.turn.as_ref().filter(|t| t.step == Step::Settling)?;
    if let Some(l) = turn.pending_losses.first() {
        let e = table.characters.get(bearer(c, &l.character)?)?.energy;
        let (_, room) = after_fixed(e, l);
        return Some((
            l.character.clone(),
            l.splitter,
            room,
            l.free.min(room.total()),
            false,
        ));
    }
    let g = turn.pending_gains.first()?;
    let e = table.characters.get(bearer(c, &g.character)?)?.energy;
    let room = room_to_max(e);
    Some((
        g.character.clone(),
        g.splitter,
        room,
        g.amount.min(room.total()),
        true,
    ))
}

/// The report of the turn just resolved, written over the previous turn's report so that its
/// lists are reused instead of allocated every turn.
fn report(
    previous: Option<TurnReport>,
    turn: &Turn,
    c: &Conflict,
    outcome: &TurnOutcome,
    breakdown: &[LossBreakdown],
) -> TurnReport {
    let mut r = previous.unwrap_or_else(|| TurnReport {
        number: 0,
        stances: Vec::new(),
        moves: Vec::new(),
        outcome: outcome.clone(),
        breakdown: Vec::new(),
        lost: Vec::new(),
        gained: Vec::new(),
    });
    let names = [Some(turn.active), turn.opponent]
        .into_iter()
        .flatten()
        .map(|f| c.f(f).name.clone());
    r.number = turn.number;
    r.stances.clear();
    r.stances.extend(
        names
            .clone()
            .zip(turn.stances)
            .filter_map(|(n, s)| s.map(|s| (n, s))),
    );
    r.moves.clear();
    r.moves.extend(
        names
            .zip(turn.moves)
            .filter_map(|(n, m)| m.map(|m: MoveChoice| (n, m))),
    );
    r.outcome.clone_from(outcome);
    r.breakdown.clear();
    r.breakdown.extend_from_slice(breakdown);
    r.lost.clear();
    r.gained.clear();
    r
}

fn add_to(list: &mut Vec<(Name, PerAction<u32>)>, name: &Name, amounts: PerAction<u32>) {
    match list.iter_mut().find(|(n, _)| n.is(name)) {
        Some((_, sum)) => {
            for a in Action::ALL {
                *sum.get_mut(a) += amounts.get(a);
            }
        }
        None => list.push((name.clone(), amounts)),
    }
}

pub fn apply(table: &mut Table, event: &ConflictEvent) {
    let Some(c) = table.conflict.as_mut() else {
        return;
    };
    match event {
        ConflictEvent::TurnResolved {
            outcome,
            breakdown,
            losses,
            gains,
        } => {
            if let Some(turn) = c.turn.as_mut() {
                turn.outcome = Some(outcome.clone());
                turn.pending_losses = losses.clone();
                turn.pending_gains = gains.clone();
                turn.step = Step::Settling;
            }
            let previous = c.last_turn.take();
            let r = c
                .turn
                .as_ref()
                .map(|turn| report(previous, turn, c, outcome, breakdown));
            c.last_turn = r;
        }
        ConflictEvent::EnergyLost {
            character,
            lost,
            zero_marked,
            ..
        } => {
            if let Some(turn) = c.turn.as_mut()
                && !turn.pending_losses.is_empty()
            {
                turn.pending_losses.remove(0);
            }
            if let Some(r) = c.last_turn.as_mut() {
                add_to(&mut r.lost, character, *lost);
            }
            if let Some(ch) =
                super::character_index(table, character).map(|i| &mut table.characters[i])
            {
                for a in Action::ALL {
                    ch.energy.lose(a, lost.get(a));
                }
                for a in zero_marked {
                    *ch.marks.zero.get_mut(*a) = true;
                }
            }
        }
        ConflictEvent::EnergyGained {
            character,
            gained: amounts,
        } => {
            if let Some(turn) = c.turn.as_mut()
                && !turn.pending_gains.is_empty()
            {
                turn.pending_gains.remove(0);
            }
            if let Some(r) = c.last_turn.as_mut() {
                add_to(&mut r.gained, character, *amounts);
            }
            if let Some(ch) =
                super::character_index(table, character).map(|i| &mut table.characters[i])
            {
                for a in Action::ALL {
                    ch.energy.gain(a, amounts.get(a));
                }
            }
        }
        ConflictEvent::TurnEnded {
            piles,
            chain,
            out,
            dead,
            next,
        } => {
            for (name, pile) in piles {
                if let Some(id) = c.fighter_id(name) {
                    c.f_mut(id).pile.clone_from(pile);
                }
            }
            c.chain = chain.clone();
            for name in out {
                if let Some(id) = c.fighter_id(name) {
                    c.f_mut(id).status = super::Status::Out;
                }
            }
            if let Some(next) = next {
                c.phase = next.clone();
                c.turn = None;
            }
            for name in dead {
                if let Some(ch) = table.characters.iter_mut().find(|ch| &ch.name == name) {
                    ch.dead = true;
                }
            }
        }
        _ => {}
    }
}

/// Used by narration: the reason words of a win.
pub fn reason_words(by: WinReason) -> &'static str {
    match by {
        WinReason::Action => "action beats action",
        WinReason::Element => "element beats element",
        WinReason::Disadvantage => "the other move was disadvantaged",
    }
}
