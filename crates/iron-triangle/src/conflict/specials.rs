//! Specials in play (IT-53 … IT-59, D-23 … D-31, D-34, D-36): windows, face-down play and
//! reveal, the one-per-turn limit, To Blave, Liquid Metal, Yojimbo, Drunken Monkey's swap,
//! Scouter's private snapshot, and clashes of identical specials.
//!
//! Effects on losses (Pressure Point, Wax On, Santa Carla, Dig Two Graves, Yojimbo) are applied
//! in `losses.rs`; the effects here are the immediate ones.

use clash_core::{Randomness, RuleError, Seat};
use serde::{Deserialize, Serialize};

use super::{
    Conflict, ConflictEvent, FighterId, Name, Step, Turn, choice, current_turn, own_fighter,
    running,
};
use crate::Table;
use crate::character::Combo;
use crate::moves::Move;
use crate::special::Special;

/// The special windows of a turn (IT-55).
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "iron-triangle/"))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Window {
    /// Before the opponent is picked: the active character only (D-34).
    W1,
    /// Before stances: both participants.
    W2,
    /// Before moves: both participants.
    W3,
    /// After moves are revealed: both participants.
    W4,
    /// Before resolution: reveals, and Yojimbo by a non-participant.
    W5,
}

impl Window {
    /// When the window is open, in words ("before stances").
    pub fn words(self) -> &'static str {
        match self {
            Window::W1 => "before the opponent is picked",
            Window::W2 => "before stances",
            Window::W3 => "before moves",
            Window::W4 => "after the moves are revealed",
            Window::W5 => "before resolution",
        }
    }
}

/// A special played this turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayedSpecial {
    pub by: FighterId,
    /// The special in effect (for Liquid Metal, the copied one).
    pub special: Special,
    pub via_liquid_metal: bool,
    pub window: Window,
    pub face_down: bool,
    pub target: Option<FighterId>,
    /// Cancelled by an identical special (D-31).
    pub cancelled: bool,
}

/// One move as Scouter saw it.
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "iron-triangle/"))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScoutedMove {
    #[serde(rename = "move")]
    pub mv: Move,
    pub name: String,
    pub available: bool,
}

/// Scouter's private snapshot of one opponent (IT-59 #1, D-26).
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "iron-triangle/"))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScoutReport {
    /// The seat that may see it.
    pub seat: Seat,
    pub by: Name,
    pub target: Name,
    pub moves: Vec<ScoutedMove>,
    pub combos: Vec<Combo>,
    pub unspent_specials: Vec<Special>,
}

/// The windows a special may be played in (IT-59). To Blave has none of its own: it borrows
/// those of the other specials its user knows (D-28). Liquid Metal's are the copied special's.
pub fn natural_windows(s: Special) -> &'static [Window] {
    use Window::*;
    match s {
        Special::Scouter | Special::ThereCanBeOnlyOne => &[W1, W2],
        Special::PressurePoint
        | Special::WaxOn(_)
        | Special::SantaCarla(_)
        | Special::DigTwoGraves(_)
        | Special::DrunkenMonkey => &[W3],
        Special::IAlreadyKnow(_) | Special::WayOfTheSamurai => &[W2],
        Special::Yojimbo => &[W5],
        Special::LiquidMetal => &[W1, W2, W3, W4, W5],
        Special::ToBlave => &[],
    }
}

/// Specials whose entry says "reveal W5" stay face down until then (IT-54).
pub fn reveals_at_w5(s: Special) -> bool {
    matches!(
        s,
        Special::PressurePoint
            | Special::WaxOn(_)
            | Special::SantaCarla(_)
            | Special::DigTwoGraves(_)
    )
}

/// Specials that never clash with an identical one: they act on nobody (Scouter only looks,
/// To Blave does nothing).
fn never_clashes(s: Special) -> bool {
    matches!(s, Special::Scouter | Special::ToBlave)
}

/// The window open for `id` right now, if any (IT-55, D-34).
pub fn open_window(c: &Conflict, turn: &Turn, id: FighterId) -> Option<Window> {
    let slot = turn.slot(id);
    match (turn.step, slot) {
        (Step::PickOpponent, Some(0)) => Some(Window::W1),
        (Step::Stances, Some(s)) if turn.stances[s].is_none() => Some(Window::W2),
        (Step::Moves, Some(s)) if turn.moves[s].is_none() => Some(Window::W3),
        (Step::AfterReveal, Some(_)) if turn.asked.contains(&id) && !turn.done.contains(&id) => {
            Some(Window::W4)
        }
        (Step::BeforeResolution, None)
            if c.is_in(id) && turn.asked.contains(&id) && !turn.done.contains(&id) =>
        {
            Some(Window::W5)
        }
        _ => None,
    }
}

/// Check that `id` may play `special` now; the played special it would be.
pub fn check_play(
    table: &Table,
    c: &Conflict,
    turn: &Turn,
    id: FighterId,
    special: Special,
    target: Option<FighterId>,
    copy: Option<Special>,
) -> Result<PlayedSpecial, RuleError> {
    let name = &c.f(id).name;
    let window = open_window(c, turn, id).ok_or_else(|| {
        RuleError::illegal(
            "IT-55",
            format!("{name} cannot play a special at this moment of the turn"),
        )
    })?;
    let ch = super::character(table, c, id);
    let known = ch
        .specials
        .iter()
        .find(|k| k.special == special)
        .ok_or_else(|| RuleError::illegal("IT-59", format!("{name} does not know {special}")))?;
    let (effective, via) = match (special, copy) {
        (Special::LiquidMetal, Some(s)) => {
            if matches!(
                s,
                Special::LiquidMetal | Special::DrunkenMonkey | Special::WayOfTheSamurai
            ) {
                return Err(RuleError::illegal(
                    "D-29",
                    format!("Liquid Metal cannot copy {s}"),
                ));
            }
            if !c
                .revealed_specials
                .iter()
                .any(|(by, r)| *by != id && *r == s)
            {
                return Err(RuleError::illegal(
                    "D-29",
                    format!("nobody else has revealed {s} in this conflict"),
                ));
            }
            (s, true)
        }
        (Special::LiquidMetal, None) => {
            return Err(RuleError::illegal(
                "D-29",
                "name the special Liquid Metal copies",
            ));
        }
        (_, Some(_)) => {
            return Err(RuleError::illegal(
                "D-29",
                "only Liquid Metal copies a special",
            ));
        }
        (s, None) => (s, false),
    };
    if special == Special::ToBlave {
        if c.f(id).blave_uses >= 2 {
            return Err(RuleError::illegal(
                "D-28",
                "To Blave is usable twice per conflict",
            ));
        }
    } else if known.spent {
        return Err(RuleError::illegal(
            "IT-53",
            format!("{special} is spent until a full rest"),
        ));
    }
    if effective != Special::Yojimbo && c.f(id).special_this_turn {
        return Err(RuleError::illegal(
            "IT-53",
            "at most one special per conflict turn",
        ));
    }
    let window_ok = if effective == Special::ToBlave {
        via || ch
            .specials
            .iter()
            .any(|k| k.special != Special::ToBlave && natural_windows(k.special).contains(&window))
    } else {
        natural_windows(effective).contains(&window)
    };
    if !window_ok {
        return Err(RuleError::illegal(
            "IT-55",
            format!("{effective} cannot be played {}", window.words()),
        ));
    }
    let target = check_target(c, turn, id, effective, window, target)?;
    let face_down =
        reveals_at_w5(effective) || (effective == Special::ToBlave && window == Window::W3);
    Ok(PlayedSpecial {
        by: id,
        special: effective,
        via_liquid_metal: via,
        window,
        face_down,
        target,
        cancelled: false,
    })
}

fn check_target(
    c: &Conflict,
    turn: &Turn,
    id: FighterId,
    s: Special,
    window: Window,
    target: Option<FighterId>,
) -> Result<Option<FighterId>, RuleError> {
    match s {
        Special::Scouter | Special::ThereCanBeOnlyOne => {
            let rule = if s == Special::Scouter {
                "D-26"
            } else {
                "D-27"
            };
            let t = match (window, target) {
                (Window::W1, Some(t)) => t,
                (Window::W1, None) => return Err(RuleError::illegal(rule, "name the opponent")),
                (_, t) => {
                    let opp = turn
                        .slot(id)
                        .and_then(|s| turn.participant(1 - s))
                        .ok_or_else(|| RuleError::illegal(rule, "no opponent"))?;
                    if t.is_some_and(|t| t != opp) {
                        return Err(RuleError::illegal(
                            rule,
                            "after W1 the target is this turn's opponent",
                        ));
                    }
                    opp
                }
            };
            if !c.is_in(t) || c.f(t).side == c.f(id).side {
                return Err(RuleError::illegal(
                    rule,
                    format!("{} is not an opponent still in the conflict", c.f(t).name),
                ));
            }
            Ok(Some(t))
        }
        Special::Yojimbo => match target {
            Some(t) if turn.slot(t).is_some() => Ok(Some(t)),
            _ => Err(RuleError::illegal(
                "D-25",
                "Yojimbo names one of this turn's participants",
            )),
        },
        _ if target.is_some() => Err(RuleError::illegal("IT-59", format!("{s} takes no target"))),
        _ => Ok(None),
    }
}

/// Every special `id` could play now, with its target and copy (for legal commands).
pub fn options(
    table: &Table,
    c: &Conflict,
    turn: &Turn,
    id: FighterId,
) -> Vec<PlayedSpecialChoice> {
    let mut out = Vec::new();
    let Some(ch) = table.characters.get(c.f(id).character) else {
        return out;
    };
    if ch.specials.is_empty() || open_window(c, turn, id).is_none() {
        return out;
    }
    // Only Scouter and There Can Be Only One (an opponent) and Yojimbo (a participant) take a
    // target; listing just those keeps this linear in the number of fighters.
    let mut participants: Vec<FighterId> = [Some(turn.active), turn.opponent]
        .into_iter()
        .flatten()
        .collect();
    participants.sort_unstable();
    let side = c.f(id).side;
    let targets = |s: Special| -> Vec<Option<FighterId>> {
        match s {
            Special::Yojimbo => participants.iter().copied().map(Some).collect(),
            Special::Scouter | Special::ThereCanBeOnlyOne => std::iter::once(None)
                .chain(
                    c.ids()
                        .filter(|f| c.is_in(*f) && c.f(*f).side != side)
                        .map(Some),
                )
                .collect(),
            _ => vec![None],
        }
    };
    for k in &ch.specials {
        let copies: Vec<Option<Special>> = if k.special == Special::LiquidMetal {
            let mut v: Vec<Option<Special>> = c
                .revealed_specials
                .iter()
                .filter(|(by, _)| *by != id)
                .map(|(_, s)| Some(*s))
                .collect();
            v.dedup();
            v
        } else {
            vec![None]
        };
        for copy in copies {
            for t in &targets(copy.unwrap_or(k.special)) {
                if check_play(table, c, turn, id, k.special, *t, copy).is_ok() {
                    out.push(PlayedSpecialChoice {
                        special: k.special,
                        target: *t,
                        copy,
                    });
                }
            }
        }
    }
    out
}

/// A special that could be played: what to send in `play_special`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PlayedSpecialChoice {
    pub special: Special,
    pub target: Option<FighterId>,
    pub copy: Option<Special>,
}

fn can_swap(c: &Conflict, turn: &Turn, id: FighterId) -> bool {
    turn.step == Step::AfterReveal
        && c.f(id).drunken_monkey
        && turn
            .slot(id)
            .is_some_and(|s| !turn.swapped[s] && turn.played(s).is_some())
}

/// Play a special (IT-54).
pub fn play(
    table: &Table,
    seat: Seat,
    name: &str,
    special: Special,
    target: Option<&str>,
    copy: Option<Special>,
    out: &mut Vec<ConflictEvent>,
) -> Result<(), RuleError> {
    let c = running(table, "IT-54")?;
    let turn = current_turn(c, "IT-54")?;
    let id = own_fighter(table, c, seat, name, "IT-54")?;
    let target_id = match target {
        Some(t) => Some(c.fighter_id(t).ok_or_else(|| {
            RuleError::illegal(
                "IT-59",
                format!("{} is not part of this conflict", crate::limits::shown(t)),
            )
        })?),
        None => None,
    };
    let p = check_play(table, c, turn, id, special, target_id, copy)?;
    let user = c.f(id).name.clone();
    let start = out.len();
    out.push(ConflictEvent::SpecialPlayed {
        character: user.clone(),
        owner: seat,
        window: p.window,
        special: Some(p.special),
        via_liquid_metal: p.via_liquid_metal,
        face_down: p.face_down,
        target: p.target.map(|t| c.f(t).name.clone()),
    });
    if let Some(other) = clashing(turn, &p) {
        out.push(ConflictEvent::SpecialsCancelled {
            special: p.special,
            first: c.f(other.by).name.clone(),
            second: user,
        });
    } else if p.special == Special::Scouter
        && let Some(t) = p.target
    {
        out.push(ConflictEvent::Scouted {
            character: user,
            owner: seat,
            target: c.f(t).name.clone(),
            report: Some(Box::new(scout(table, c, turn, seat, id, t))),
        });
    }
    if matches!(p.window, Window::W4 | Window::W5) {
        then_continue(table, out, start);
    }
    Ok(())
}

/// An identical face-up special already in play that this one clashes with (IT-57, D-31).
fn clashing<'a>(turn: &'a Turn, p: &PlayedSpecial) -> Option<&'a PlayedSpecial> {
    if p.face_down || never_clashes(p.special) {
        return None;
    }
    turn.specials.iter().find(|q| {
        !q.cancelled
            && !q.face_down
            && q.special == p.special
            && q.by != p.by
            && if p.special == Special::Yojimbo {
                q.target == p.target
            } else {
                turn.slot(q.by).is_some() && turn.slot(p.by).is_some()
            }
    })
}

fn scout(
    table: &Table,
    c: &Conflict,
    turn: &Turn,
    seat: Seat,
    by: FighterId,
    target: FighterId,
) -> ScoutReport {
    let ch = super::character(table, c, target);
    let forbidden = turn.slot(target).and_then(|s| turn.forbidden[s]);
    let avail = choice::available(table, c, target, forbidden);
    ScoutReport {
        seat,
        by: c.f(by).name.clone(),
        target: c.f(target).name.clone(),
        moves: ch
            .moves
            .iter()
            .map(|k| ScoutedMove {
                mv: k.mv,
                name: k.name.to_string(),
                available: avail.contains(k.mv),
            })
            .collect(),
        combos: ch.combos.clone(),
        unspent_specials: ch
            .specials
            .iter()
            .filter(|k| !k.spent)
            .map(|k| k.special)
            .collect(),
    }
}

/// Done with the open W4 or W5 window.
pub fn pass(
    table: &Table,
    seat: Seat,
    name: &str,
    out: &mut Vec<ConflictEvent>,
) -> Result<(), RuleError> {
    let c = running(table, "IT-55")?;
    let turn = current_turn(c, "IT-55")?;
    let id = own_fighter(table, c, seat, name, "IT-55")?;
    let window = match open_window(c, turn, id) {
        Some(w @ (Window::W4 | Window::W5)) => w,
        _ => {
            return Err(RuleError::illegal(
                "IT-55",
                format!("{name} has no W4 or W5 window to pass"),
            ));
        }
    };
    let start = out.len();
    out.push(ConflictEvent::WindowPassed {
        character: c.f(id).name.clone(),
        window,
    });
    then_continue(table, out, start);
    Ok(())
}

/// Drunken Monkey's swap at W4: the opponent picks at random, through the injected randomness,
/// from the user's available moves other than the revealed one (IT-59 #11, D-30).
pub fn drunken_swap(
    table: &Table,
    seat: Seat,
    name: &str,
    rng: &mut dyn Randomness,
    out: &mut Vec<ConflictEvent>,
) -> Result<(), RuleError> {
    let c = running(table, "IT-59")?;
    let turn = current_turn(c, "IT-59")?;
    let id = own_fighter(table, c, seat, name, "IT-59")?;
    if !c.f(id).drunken_monkey {
        return Err(RuleError::illegal(
            "IT-59",
            format!("{name} has no active Drunken Monkey"),
        ));
    }
    if open_window(c, turn, id) != Some(Window::W4) || !can_swap(c, turn, id) {
        return Err(RuleError::illegal(
            "D-30",
            "the swap happens once per turn at W4, replacing a revealed move",
        ));
    }
    let Some(slot) = turn.slot(id) else {
        return Err(RuleError::illegal("D-30", "not a participant"));
    };
    let Some(from) = turn.played(slot) else {
        return Err(RuleError::illegal("D-30", "Surrender is never swapped"));
    };
    let mut candidates = choice::available(table, c, id, turn.forbidden[slot]);
    candidates.remove(from);
    let list: Vec<Move> = candidates.iter().collect();
    let to = if list.is_empty() {
        None
    } else {
        Some(list[rng.choose(list.len(), &|i| list[i].to_string())?])
    };
    let start = out.len();
    out.push(ConflictEvent::MoveSwapped {
        character: c.f(id).name.clone(),
        from,
        to,
    });
    then_continue(table, out, start);
    Ok(())
}

/// After an action in W4 or W5: if everyone concerned is done, move on.
/// `events[start..]` are this command's events so far.
fn then_continue(table: &Table, events: &mut Vec<ConflictEvent>, start: usize) {
    let mut scratch = table.clone();
    for e in &events[start..] {
        super::apply(&mut scratch, e);
    }
    let Some(c) = scratch.conflict.as_ref() else {
        return;
    };
    let Some(mut turn) = c.turn.clone() else {
        return;
    };
    let waiting = turn.asked.iter().any(|f| !turn.done.contains(f));
    if waiting {
        return;
    }
    match turn.step {
        Step::AfterReveal => open_w5(&scratch, &mut turn, events),
        Step::BeforeResolution => super::losses::resolve(&scratch, &mut turn, events),
        _ => {}
    }
}

/// After the reveal of moves: W4 opens, for both participants, only when one of them has an
/// active Drunken Monkey (public knowledge), so opening it reveals nothing hidden.
pub(crate) fn open_w4(
    table: &Table,
    c: &Conflict,
    turn: &mut Turn,
    events: &mut Vec<ConflictEvent>,
) {
    turn.step = Step::AfterReveal;
    turn.done.clear();
    let participants = [Some(turn.active), turn.opponent];
    if participants
        .into_iter()
        .flatten()
        .any(|f| can_swap(c, turn, f))
    {
        turn.asked = participants.into_iter().flatten().collect();
        let who = turn.asked.iter().map(|f| c.f(*f).name.clone()).collect();
        events.push(ConflictEvent::WindowOpened {
            window: Window::W4,
            who,
        });
    } else {
        turn.asked.clear();
        open_w5(table, turn, events);
    }
}

/// Whether a non-participant is asked at W5: every NPC still in (asking only those with a
/// Yojimbo would reveal it), and each PC that could actually play something there.
fn asked_at_w5(table: &Table, c: &Conflict, turn: &Turn, f: FighterId) -> bool {
    if turn.slot(f).is_some() || !c.is_in(f) {
        return false;
    }
    if c.f(f).side == super::Side::Gm {
        return true;
    }
    let mut probe = turn.clone();
    probe.step = Step::BeforeResolution;
    probe.asked = vec![f];
    probe.done.clear();
    !options(table, c, &probe, f).is_empty()
}

/// W5: face-down specials are revealed (and identical ones cancel, D-31); non-participants
/// who could use Yojimbo are asked; then the turn resolves.
pub(crate) fn open_w5(table: &Table, turn: &mut Turn, events: &mut Vec<ConflictEvent>) {
    let Some(c) = table.conflict.as_ref() else {
        return;
    };
    let hidden: Vec<usize> = (0..turn.specials.len())
        .filter(|i| turn.specials[*i].face_down && !turn.specials[*i].cancelled)
        .collect();
    if !hidden.is_empty() {
        let specials = hidden
            .iter()
            .map(|i| {
                (
                    c.f(turn.specials[*i].by).name.clone(),
                    turn.specials[*i].special,
                )
            })
            .collect();
        events.push(ConflictEvent::SpecialsRevealed { specials });
        for i in &hidden {
            turn.specials[*i].face_down = false;
        }
        for (n, i) in hidden.iter().enumerate() {
            for j in &hidden[n + 1..] {
                let (p, q) = (turn.specials[*i], turn.specials[*j]);
                if p.special == q.special
                    && p.by != q.by
                    && !never_clashes(p.special)
                    && !p.cancelled
                    && !q.cancelled
                {
                    events.push(ConflictEvent::SpecialsCancelled {
                        special: p.special,
                        first: c.f(p.by).name.clone(),
                        second: c.f(q.by).name.clone(),
                    });
                    turn.specials[*i].cancelled = true;
                    turn.specials[*j].cancelled = true;
                }
            }
        }
    }
    turn.step = Step::BeforeResolution;
    turn.done.clear();
    turn.asked = c
        .ids()
        .filter(|f| asked_at_w5(table, c, turn, *f))
        .collect();
    let who: Vec<Name> = turn.asked.iter().map(|f| c.f(*f).name.clone()).collect();
    if who.is_empty() {
        super::losses::resolve(table, turn, events);
    } else {
        events.push(ConflictEvent::WindowOpened {
            window: Window::W5,
            who,
        });
    }
}

/// Mark the latest live play of `special` by `name` cancelled, and undo its immediate effect.
fn cancel(table: &mut Table, special: Special, name: &str) {
    let Some(c) = table.conflict.as_mut() else {
        return;
    };
    let Some(id) = c.fighter_id(name) else { return };
    let (target, slot) = {
        let Some(turn) = c.turn.as_mut() else { return };
        let slot = turn.slot(id);
        let Some(p) = turn
            .specials
            .iter_mut()
            .rev()
            .find(|p| p.by == id && p.special == special && !p.cancelled)
        else {
            return;
        };
        p.cancelled = true;
        if let (Special::IAlreadyKnow(_), Some(s)) = (special, slot) {
            turn.forbidden[1 - s] = None;
        }
        (p.target, slot)
    };
    let _ = slot;
    match special {
        Special::ThereCanBeOnlyOne => {
            c.f_mut(id).bound_to = None;
            if let Some(t) = target {
                c.f_mut(t).bound_to = None;
            }
        }
        Special::DrunkenMonkey => {
            c.f_mut(id).drunken_monkey = false;
            let ch = c.f(id).character;
            if let Some(ch) = table.characters.get_mut(ch) {
                ch.drunken_monkey_ban = false;
            }
        }
        _ => {}
    }
}

pub fn apply(table: &mut Table, event: &ConflictEvent) {
    match event {
        ConflictEvent::SpecialPlayed {
            character,
            window,
            special: Some(special),
            via_liquid_metal,
            face_down,
            target,
            ..
        } => {
            played(
                table,
                character,
                *window,
                *special,
                *via_liquid_metal,
                *face_down,
                target.as_deref(),
            );
        }
        ConflictEvent::Scouted {
            report: Some(report),
            ..
        } => {
            if let Some(c) = table.conflict.as_mut() {
                c.scouted.push(ScoutReport::clone(report));
            }
        }
        ConflictEvent::SpecialsRevealed { .. } => {
            let Some(c) = table.conflict.as_mut() else {
                return;
            };
            let Some(turn) = c.turn.as_mut() else { return };
            for p in turn.specials.iter_mut().filter(|p| p.face_down) {
                p.face_down = false;
                c.revealed_specials.push((p.by, p.special));
            }
        }
        ConflictEvent::SpecialsCancelled {
            special,
            first,
            second,
        } => {
            cancel(table, *special, first);
            cancel(table, *special, second);
        }
        ConflictEvent::MoveSwapped { character, to, .. } => {
            let Some(c) = table.conflict.as_mut() else {
                return;
            };
            let id = c.fighter_id(character);
            let Some(turn) = c.turn.as_mut() else { return };
            if let Some((id, slot)) = id.and_then(|id| turn.slot(id).map(|s| (id, s))) {
                if let Some(to) = to {
                    turn.moves[slot] = Some(super::MoveChoice::Play(*to));
                }
                turn.swapped[slot] = true;
                turn.done.push(id);
            }
        }
        _ => {}
    }
}

fn played(
    table: &mut Table,
    name: &str,
    window: Window,
    special: Special,
    via: bool,
    face_down: bool,
    target: Option<&str>,
) {
    let Some(c) = table.conflict.as_mut() else {
        return;
    };
    let Some(id) = c.fighter_id(name) else { return };
    let target = target.and_then(|t| c.fighter_id(t));
    let ch_index = c.f(id).character;
    let Some(ch) = table.characters.get_mut(ch_index) else {
        return;
    };
    if special != Special::Yojimbo {
        c.f_mut(id).special_this_turn = true;
    }
    let spend = if via {
        Some(Special::LiquidMetal)
    } else if special == Special::ToBlave {
        None
    } else {
        Some(special)
    };
    match spend {
        Some(s) => {
            if let Some(k) = ch.specials.iter_mut().find(|k| k.special == s) {
                k.spent = true;
            }
        }
        None => c.f_mut(id).blave_uses += 1,
    }
    let slot = {
        let Some(turn) = c.turn.as_mut() else { return };
        turn.specials.push(PlayedSpecial {
            by: id,
            special,
            via_liquid_metal: via,
            window,
            face_down,
            target,
            cancelled: false,
        });
        if matches!(turn.step, Step::AfterReveal | Step::BeforeResolution) {
            turn.done.push(id);
        }
        if let (Special::IAlreadyKnow(x), Some(s), false) = (special, turn.slot(id), face_down) {
            turn.forbidden[1 - s] = Some(x);
        }
        turn.slot(id)
    };
    let _ = slot;
    if face_down {
        return;
    }
    c.revealed_specials.push((id, special));
    match special {
        Special::ThereCanBeOnlyOne => {
            if let Some(t) = target {
                c.f_mut(id).bound_to = Some(t);
                c.f_mut(t).bound_to = Some(id);
            }
        }
        Special::WayOfTheSamurai => {
            c.f_mut(id).samurai = true;
            ch.energy.current = ch.energy.max;
        }
        Special::DrunkenMonkey => {
            c.f_mut(id).drunken_monkey = true;
            ch.drunken_monkey_ban = true;
        }
        _ => {}
    }
}
