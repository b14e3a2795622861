//! Public and hidden information (IT-24, IT-2, D-26): what each seat may see of the characters,
//! the conflict and each event.
//!
//! Public: all energy; PC moves, combos and specials (with spent state); face-up cards (piles,
//! chains); revealed stances, moves and specials. Hidden: an uncommitted or unrevealed stance,
//! move or face-down special (its owner sees it, others see "ready" / "a special"); an NPC's
//! moves, combos and specials unless the GM reveals them; Scouter snapshots (only the Scouter's
//! controller). The GM sees NPCs' sheets but not the players' secret choices.

use clash_core::{RuleError, Seat, Viewer};
use serde::Serialize;

use super::specials::ScoutReport;
use super::{
    ConflictCommand, ConflictEvent, FighterId, MoveChoice, Name, Outcome, Phase, Side, Stance,
    Status, Step, TurnReport, Window,
};
use crate::Table;
use crate::character::{
    Background, Character, Combo, Energy, Goal, KnownMove, KnownSpecial, Marks, Trait,
};
use crate::moves::{Action, Move};
use crate::special::Special;

/// A character as one viewer may see it.
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "iron-triangle/"))]
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CharacterView {
    pub name: Name,
    pub controller: Seat,
    pub pc: bool,
    pub level: u32,
    pub energy: Energy,
    pub dead: bool,
    pub backgrounds: Vec<Background>,
    pub unassigned_points: u32,
    pub belief: Trait,
    pub flaw: Trait,
    pub goal: Goal,
    pub veto: bool,
    pub marks: Marks,
    pub drunken_monkey_ban: bool,
    /// True when this viewer may not see the moves, combos and specials (an unrevealed NPC).
    pub sheet_hidden: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub moves: Option<Vec<KnownMove>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub combos: Option<Vec<Combo>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub specials: Option<Vec<KnownSpecial>>,
    /// Of a hidden sheet, the moves lying face up in the conflict (played and revealed, in a
    /// chain or a disadvantage pile), with the names the log calls them by.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "ts", ts(as = "Option<Vec<KnownMove>>", optional))]
    pub shown: Vec<KnownMove>,
}

/// Whether `viewer` may see the moves, combos and specials of `ch` (IT-24).
pub fn sees_sheet(ch: &Character, viewer: Viewer) -> bool {
    ch.is_pc() || ch.revealed || viewer.is(Seat::Gm)
}

pub fn character_view(ch: &Character, viewer: Viewer) -> CharacterView {
    let open = sees_sheet(ch, viewer);
    CharacterView {
        name: Name::from(&ch.name),
        controller: ch.controller,
        pc: ch.is_pc(),
        level: ch.level,
        energy: ch.energy,
        dead: ch.dead,
        backgrounds: ch.backgrounds.clone(),
        unassigned_points: ch.unassigned_points,
        belief: ch.belief.clone(),
        flaw: ch.flaw.clone(),
        goal: ch.goal.clone(),
        veto: ch.veto,
        marks: ch.marks,
        drunken_monkey_ban: ch.drunken_monkey_ban,
        sheet_hidden: !open,
        moves: open.then(|| ch.moves.clone()),
        combos: open.then(|| ch.combos.clone()),
        specials: open.then(|| ch.specials.clone()),
        shown: Vec::new(),
    }
}

pub fn character_views(state: &Table, viewer: Viewer) -> Vec<CharacterView> {
    state
        .characters
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let mut view = character_view(c, viewer);
            if view.sheet_hidden {
                let face_up = face_up_moves(state, i);
                view.shown = c
                    .moves
                    .iter()
                    .filter(|k| face_up.contains(&k.mv))
                    .cloned()
                    .collect();
            }
            view
        })
        .collect()
}

/// The moves of character `i` lying face up in the conflict: played and revealed this turn or
/// the last, in the chain, or in its disadvantage pile (IT-24: public once shown).
fn face_up_moves(state: &Table, i: usize) -> Vec<Move> {
    let Some(c) = &state.conflict else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (id, f) in c
        .fighters
        .iter()
        .enumerate()
        .filter(|(_, f)| f.character == i)
    {
        let id = id as FighterId;
        out.extend(f.pile.iter().copied());
        if let Some(chain) = &c.chain {
            out.extend(chain.cards.iter().filter(|k| k.owner == id).map(|k| k.mv));
        }
        if let Some(t) = c.turn.as_ref().filter(|t| t.moves_revealed) {
            out.extend(
                (0..2)
                    .filter(|s| t.participant(*s) == Some(id))
                    .filter_map(|s| t.played(s)),
            );
        }
        if let Some(last) = &c.last_turn {
            out.extend(last.moves.iter().filter(|(n, _)| *n == f.name).filter_map(
                |(_, m)| match m {
                    MoveChoice::Play(m) => Some(*m),
                    MoveChoice::Surrender => None,
                },
            ));
        }
    }
    out
}

/// A secret choice as one viewer sees it (IT-2).
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "iron-triangle/"))]
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "state", content = "value", rename_all = "snake_case")]
pub enum Choice<T> {
    /// Not chosen yet.
    Waiting,
    /// Committed, not yet revealed, and not the viewer's.
    Ready,
    /// Committed by the viewer's own character, not yet revealed.
    Chosen(T),
    /// Revealed to everyone.
    Revealed(T),
}

fn choice<T: Copy>(value: Option<T>, revealed: bool, own: bool) -> Choice<T> {
    match (value, revealed, own) {
        (None, _, _) => Choice::Waiting,
        (Some(v), true, _) => Choice::Revealed(v),
        (Some(v), false, true) => Choice::Chosen(v),
        (Some(_), false, false) => Choice::Ready,
    }
}

/// One participant of the turn.
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "iron-triangle/"))]
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ParticipantView {
    pub name: Name,
    pub stance: Choice<Stance>,
    #[serde(rename = "move")]
    pub choice: Choice<MoveChoice>,
    /// I Already Know forbids this action to them this turn.
    pub forbidden: Option<Action>,
    pub swapped: bool,
}

/// A special played this turn; `special` is `None` for a face-down one the viewer doesn't own.
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "iron-triangle/"))]
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SpecialView {
    pub by: Name,
    pub window: Window,
    pub special: Option<Special>,
    pub via_liquid_metal: bool,
    pub face_down: bool,
    pub target: Option<Name>,
    pub cancelled: bool,
}

#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "iron-triangle/"))]
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TurnView {
    pub number: u32,
    pub active: Name,
    pub opponent: Option<Name>,
    pub step: Step,
    /// The special window open now.
    pub window: Option<Window>,
    pub participants: Vec<ParticipantView>,
    pub specials: Vec<SpecialView>,
}

#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "iron-triangle/"))]
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FighterView {
    pub name: Name,
    pub side: Side,
    pub status: Status,
    pub energy: crate::character::PerAction<u32>,
    pub turns: u32,
    pub pile: Vec<Move>,
    pub bound_to: Option<Name>,
    pub drunken_monkey: bool,
    pub samurai: bool,
    pub blave_uses: u8,
}

#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "iron-triangle/"))]
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ChainView {
    pub side: Side,
    pub against: Name,
    pub cards: Vec<(Name, Move)>,
}

/// A move of the viewer's own character in this turn, with what matters for choosing it.
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "iron-triangle/"))]
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MoveOption {
    pub character: Name,
    #[serde(rename = "move")]
    pub mv: Move,
    pub name: String,
    pub available: bool,
    pub disadvantaged: bool,
    /// Winning with it would continue the live chain (IT-44).
    pub combos: bool,
}

#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "iron-triangle/"))]
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SplitView {
    pub character: Name,
    pub splitter: Seat,
    /// What each type can take (a loss) or has room for (a gain).
    pub room: crate::character::PerAction<u32>,
    pub amount: u32,
    pub gain: bool,
}

/// The conflict as one viewer may see it: self-explanatory for a user interface.
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "iron-triangle/"))]
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ConflictView {
    pub stakes: String,
    pub lethal: bool,
    pub minor: bool,
    pub phase: Phase,
    pub fighters: Vec<FighterView>,
    pub turn: Option<TurnView>,
    pub chain: Option<ChainView>,
    pub last_turn: Option<TurnReport>,
    pub split: Option<SplitView>,
    /// Seats the table waits on now (the kernel status).
    pub waiting_for: Vec<Seat>,
    /// The viewer's own characters' moves this turn.
    pub your_moves: Vec<MoveOption>,
    /// The viewer's Scouter snapshots.
    pub scouted: Vec<ScoutReport>,
    /// Commands the viewer may send now.
    pub your_commands: Vec<ConflictCommand>,
    pub outcome: Option<Outcome>,
}

pub fn window_of(step: Step) -> Option<Window> {
    match step {
        Step::PickOpponent => Some(Window::W1),
        Step::Stances => Some(Window::W2),
        Step::Moves => Some(Window::W3),
        Step::AfterReveal => Some(Window::W4),
        Step::BeforeResolution => Some(Window::W5),
        Step::Settling => None,
    }
}

pub fn view(state: &Table, viewer: Viewer) -> Option<ConflictView> {
    let c = state.conflict.as_ref()?;
    let owner = |f: FighterId| super::controller(state, c, f);
    let name = |f: FighterId| c.f(f).name.clone();
    let turn = c.turn.as_ref().map(|t| TurnView {
        number: t.number,
        active: name(t.active),
        opponent: t.opponent.map(name),
        step: t.step,
        window: window_of(t.step),
        participants: [Some(t.active), t.opponent]
            .into_iter()
            .flatten()
            .enumerate()
            .map(|(slot, f)| ParticipantView {
                name: name(f),
                stance: choice(t.stances[slot], t.stances_revealed, viewer.is(owner(f))),
                choice: choice(t.moves[slot], t.moves_revealed, viewer.is(owner(f))),
                forbidden: t.forbidden[slot],
                swapped: t.swapped[slot],
            })
            .collect(),
        specials: t
            .specials
            .iter()
            .map(|p| {
                let seen = !p.face_down || viewer.is(owner(p.by));
                SpecialView {
                    by: name(p.by),
                    window: p.window,
                    special: seen.then_some(p.special),
                    via_liquid_metal: seen && p.via_liquid_metal,
                    face_down: p.face_down,
                    target: p.target.map(name),
                    cancelled: p.cancelled,
                }
            })
            .collect(),
    });
    let seat = viewer.seat();
    let your_moves = match (seat, c.turn.as_ref()) {
        (Some(seat), Some(t)) => own_moves(state, c, t, seat),
        _ => Vec::new(),
    };
    Some(ConflictView {
        stakes: c.stakes.clone(),
        lethal: c.lethal,
        minor: c.minor,
        phase: c.phase.clone(),
        fighters: c
            .ids()
            .map(|f| {
                let fi = c.f(f);
                FighterView {
                    name: fi.name.clone(),
                    side: fi.side,
                    status: fi.status,
                    energy: state.characters[fi.character].energy.current,
                    turns: fi.turns,
                    pile: fi.pile.clone(),
                    bound_to: fi.bound_to.map(name),
                    drunken_monkey: fi.drunken_monkey,
                    samurai: fi.samurai,
                    blave_uses: fi.blave_uses,
                }
            })
            .collect(),
        turn,
        chain: c.chain.as_ref().map(|ch| ChainView {
            side: ch.side,
            against: name(ch.against),
            cards: ch.cards.iter().map(|k| (name(k.owner), k.mv)).collect(),
        }),
        last_turn: c.last_turn.clone(),
        split: super::losses::waiting_split(state, c).map(
            |(character, splitter, room, amount, gain)| SplitView {
                character,
                splitter,
                room,
                amount,
                gain,
            },
        ),
        waiting_for: crate::status::waiting_for(state),
        your_moves,
        scouted: c
            .scouted
            .iter()
            .filter(|r| seat == Some(r.seat))
            .cloned()
            .collect(),
        your_commands: seat
            .map(|s| super::legal::legal_commands(state, s))
            .unwrap_or_default(),
        outcome: c.outcome.clone(),
    })
}

fn own_moves(state: &Table, c: &super::Conflict, t: &super::Turn, seat: Seat) -> Vec<MoveOption> {
    let mut out = Vec::new();
    for (slot, f) in [Some(t.active), t.opponent].into_iter().enumerate() {
        let Some(f) = f else { continue };
        if super::controller(state, c, f) != seat {
            continue;
        }
        let avail = super::choice::available(state, c, f, t.forbidden[slot]);
        for k in &super::character(state, c, f).moves {
            out.push(MoveOption {
                character: c.f(f).name.clone(),
                mv: k.mv,
                name: k.name.to_string(),
                available: avail.contains(k.mv),
                disadvantaged: super::disadvantage::is_disadvantaged(c, f, k.mv),
                combos: slot == 0
                    && t.opponent
                        .is_some_and(|o| super::combo::combos(state, c, f, o, k.mv)),
            });
        }
    }
    out
}

/// What `viewer` may see of one event: hidden payloads are removed (IT-2, IT-24, D-26).
/// True while a fighter `seat` controls has a stance or move chosen in secret and not yet
/// revealed (IT-2), or a special played face down and not yet turned up.
pub fn secret_pending(state: &Table, seat: Seat) -> bool {
    let Some(c) = state.conflict.as_ref() else {
        return false;
    };
    let Some(t) = c.turn.as_ref() else {
        return false;
    };
    let own = |f: FighterId| super::controller(state, c, f) == seat;
    let slots = [Some(t.active), t.opponent];
    let hidden_choice = slots.iter().enumerate().any(|(slot, f)| {
        f.is_some_and(own)
            && ((t.stances[slot].is_some() && !t.stances_revealed)
                || (t.moves[slot].is_some() && !t.moves_revealed))
    });
    hidden_choice || t.specials.iter().any(|p| p.face_down && own(p.by))
}

pub fn event_view(e: &ConflictEvent, viewer: Viewer) -> Option<ConflictEvent> {
    let mut seen = e.clone();
    match &mut seen {
        ConflictEvent::StanceTaken { owner, stance, .. } if !viewer.is(*owner) => *stance = None,
        ConflictEvent::MoveChosen { owner, choice, .. } if !viewer.is(*owner) => *choice = None,
        ConflictEvent::SpecialPlayed {
            owner,
            face_down: true,
            special,
            via_liquid_metal,
            ..
        } if !viewer.is(*owner) => {
            *special = None;
            *via_liquid_metal = false;
        }
        ConflictEvent::Scouted { owner, report, .. } if !viewer.is(*owner) => *report = None,
        _ => {}
    }
    Some(seen)
}

/// The GM reveals an NPC's moves, combos and specials (IT-24).
pub fn reveal_npc(
    table: &Table,
    seat: Seat,
    name: &str,
    out: &mut Vec<ConflictEvent>,
) -> Result<(), RuleError> {
    if seat != Seat::Gm {
        return Err(RuleError::not_your_call(
            "IT-24",
            seat,
            "only the GM reveals an NPC",
        ));
    }
    let ch = table.find(name, "IT-24")?;
    if ch.is_pc() || ch.revealed {
        return Err(RuleError::illegal(
            "IT-24",
            format!("{name}'s sheet is already public"),
        ));
    }
    out.push(ConflictEvent::NpcRevealed {
        character: name.into(),
    });
    Ok(())
}

pub fn apply(table: &mut Table, event: &ConflictEvent) {
    if let ConflictEvent::NpcRevealed { character } = event
        && let Some(ch) = table.character_mut(character)
    {
        ch.revealed = true;
    }
}
