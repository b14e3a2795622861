//! Positions (issue 18): a running table written as a setup, so that a new table (or a
//! scenario) starts exactly there, and a designer, a GM resuming a game played on a real table
//! or a test can set up any moment of play.
//!
//! A position is an ordinary [`Setup`] with more filled in:
//! - each character as an established sheet with its current energy, marks, spent specials
//!   and state in play ([`crate::character::SheetState`]);
//! - the campaign: session, problem recency, rests, a session end in progress, resolved
//!   problems, an open problem nobody has picked for yet, replacements levelling up;
//! - the conflict ([`ConflictSheet`]): stakes, every participant with its status, turn count,
//!   disadvantage pile and what its specials left on it, the phase (forming, picking the active
//!   character, a turn, mercy, ended), the live combo chain with each card's owner, the specials
//!   revealed so far, and the turn in progress (active character and opponent, the step, the
//!   revealed stances and moves, face-up specials, the open window, the losses left to split).
//!
//! Hidden information is never part of a position: no committed but unrevealed stance, move
//! or problem pick, no face-down special. A state holding one has no position for anyone
//! (`None`); neither has a problem past its opening. An unrevealed NPC's sheet is hidden from
//! the players (IT-24), so only the GM gets the position of a table with one. Scouter snapshots
//! and the last turn's report are views, not state: a position leaves them out.
//!
//! A position is checked like any setup: an impossible one is refused with the rule it breaks
//! (a fighter that is in with no energy left, a pile card its owner does not know, a chain
//! whose cards belong to both sides, a split that is forced, …).

use clash_core::{RuleError, Seat, Viewer};
use serde::{Deserialize, Serialize};

use crate::campaign::{CampaignSetup, CountdownSheet};
use crate::character::CharacterSheet;
use crate::conflict::{
    Card, Chain, Conflict, Fighter, FighterId, MoveChoice, Name, Outcome, PendingGain, PendingLoss,
    Phase, Picker, PlayedSpecial, Side, Stance, Status, Step, Turn, TurnOutcome, Window, choice,
    combo, disadvantage, losses, specials, turn, winner,
};
use crate::moves::Move;
use crate::special::Special;
use crate::{Setup, Table};

/// A conflict in a position.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConflictSheet {
    /// What is at stake (IT-22).
    pub stakes: String,
    #[serde(default)]
    pub lethal: bool,
    #[serde(default)]
    pub minor: bool,
    /// Everyone called to the conflict: PCs on the players' side, NPCs on the GM's.
    pub fighters: Vec<FighterSheet>,
    pub phase: PhaseSheet,
    /// Turns played so far (the current one included).
    #[serde(default)]
    pub turns_played: u32,
    /// The active character of the previous turn (D-8: continuing as it adds no turn).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_active: Option<Name>,
    /// The live combo chain (IT-42).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chain: Option<ChainSheet>,
    /// Specials revealed in this conflict, which Liquid Metal may copy (D-29).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub revealed_specials: Vec<RevealedSpecial>,
    /// The turn in progress, in the `turn` phase.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn: Option<TurnSheet>,
}

/// One character's place in a conflict.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FighterSheet {
    pub character: Name,
    pub status: Status,
    /// The face-up disadvantage pile, oldest first (IT-37).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pile: Vec<Move>,
    /// Turns taken as the active character (IT-26, D-8).
    #[serde(default)]
    pub turns: u32,
    /// There Can Be Only One binds this fighter to that opponent (IT-59 #3).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bound_to: Option<Name>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub drunken_monkey: bool,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub samurai: bool,
    /// To Blave uses this conflict (D-28).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub blave_uses: u8,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub surrendered: bool,
}

fn is_zero(n: &u8) -> bool {
    *n == 0
}

/// Who picks the next active character: the players together, or one seat.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum PickerSheet {
    Players,
    Seat(Seat),
}

/// The conflict's phase in a position.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "phase", rename_all = "snake_case", deny_unknown_fields)]
pub enum PhaseSheet {
    /// Players answer the call (IT-23).
    Forming {},
    /// The next active character is to be picked (IT-25, IT-26, IT-46).
    PickActive {
        picker: PickerSheet,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        side: Option<Side>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        capped: Option<Name>,
    },
    /// A turn is under way: see `turn`.
    Turn {},
    /// In a lethal conflict the surrenderer's opponent decides (IT-36).
    Mercy { surrendered: Name, opponent: Name },
    /// The conflict is over (IT-27).
    Ended { outcome: OutcomeSheet },
}

/// How an ended conflict came out.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OutcomeSheet {
    /// The winning side; none when the GM settled it (IT-23, D-11).
    #[serde(default)]
    pub winner: Option<Side>,
    pub reason: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub dead: Vec<Name>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub narration: Option<String>,
}

/// The live chain: the winning side's face-up cards against one loser (IT-42).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChainSheet {
    pub against: Name,
    pub cards: Vec<CardSheet>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CardSheet {
    pub owner: Name,
    #[serde(rename = "move")]
    pub mv: Move,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RevealedSpecial {
    pub character: Name,
    #[serde(deserialize_with = "crate::special::strict::one")]
    pub special: Special,
}

/// The turn in progress.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TurnSheet {
    pub active: Name,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opponent: Option<Name>,
    pub step: Step,
    /// The revealed stances, active character's first (from the `moves` step on).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stances: Option<[Stance; 2]>,
    /// The revealed moves, active character's first (after the `moves` step).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub moves: Option<[Move; 2]>,
    /// Face-up specials played this turn.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub specials: Vec<SpecialSheet>,
    /// Participants whose Drunken Monkey swap is made this turn.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub swapped: Vec<Name>,
    /// In the W4 or W5 window: who was asked, and who is done.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub asked: Vec<Name>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub done: Vec<Name>,
    /// While losses are split: those still to take, then regains, in order (IT-51, D-35).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pending_losses: Vec<PendingLoss>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pending_gains: Vec<PendingGain>,
}

/// A face-up special played this turn.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpecialSheet {
    pub by: Name,
    /// The special in effect (for Liquid Metal, the copied one).
    #[serde(deserialize_with = "crate::special::strict::one")]
    pub special: Special,
    pub window: Window,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub via_liquid_metal: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<Name>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub cancelled: bool,
}

// ----- export -----

/// The position of `table` as `viewer` may know it (see the module documentation).
pub fn export(table: &Table, viewer: Viewer) -> Option<Setup> {
    let hidden_npc = table.characters.iter().any(|c| !c.is_pc() && !c.revealed);
    if hidden_npc && !viewer.is(Seat::Gm) {
        return None;
    }
    let campaign = CampaignSetup::of(&table.campaign)?;
    let conflict = match &table.conflict {
        Some(c) => Some(conflict_sheet(c)?),
        None => None,
    };
    Some(Setup {
        players: table.players.clone(),
        characters: table.characters.iter().map(CharacterSheet::of).collect(),
        countdowns: table
            .campaign
            .countdowns
            .iter()
            .map(CountdownSheet::of)
            .collect(),
        campaign,
        conflict,
        variant: table.rules.variant(),
    })
}

fn conflict_sheet(c: &Conflict) -> Option<ConflictSheet> {
    let name = |f: FighterId| c.f(f).name.clone();
    let phase = match &c.phase {
        Phase::Forming => PhaseSheet::Forming {},
        Phase::PickActive {
            picker,
            side,
            capped,
        } => PhaseSheet::PickActive {
            picker: match picker {
                Picker::Players => PickerSheet::Players,
                Picker::Seat { seat } => PickerSheet::Seat(*seat),
            },
            side: *side,
            capped: capped.map(name),
        },
        Phase::Turn => PhaseSheet::Turn {},
        Phase::Mercy {
            surrendered,
            opponent,
            ..
        } => PhaseSheet::Mercy {
            surrendered: name(*surrendered),
            opponent: name(*opponent),
        },
        Phase::Ended => {
            let o = c.outcome.as_ref()?;
            PhaseSheet::Ended {
                outcome: OutcomeSheet {
                    winner: o.winner,
                    reason: o.reason.clone(),
                    dead: o.dead.clone(),
                    narration: o.narration.clone(),
                },
            }
        }
    };
    let turn = match (&c.phase, &c.turn) {
        (Phase::Turn, Some(t)) => Some(turn_sheet(c, t)?),
        _ => None,
    };
    Some(ConflictSheet {
        stakes: c.stakes.clone(),
        lethal: c.lethal,
        minor: c.minor,
        fighters: c
            .fighters
            .iter()
            .map(|f| FighterSheet {
                character: f.name.clone(),
                status: f.status,
                pile: f.pile.clone(),
                turns: f.turns,
                bound_to: f.bound_to.map(name),
                drunken_monkey: f.drunken_monkey,
                samurai: f.samurai,
                blave_uses: f.blave_uses,
                surrendered: f.surrendered,
            })
            .collect(),
        phase,
        turns_played: c.turns_played,
        last_active: c.last_active.map(name),
        chain: c.chain.as_ref().map(|ch| ChainSheet {
            against: name(ch.against),
            cards: ch
                .cards
                .iter()
                .map(|k| CardSheet {
                    owner: name(k.owner),
                    mv: k.mv,
                })
                .collect(),
        }),
        revealed_specials: c
            .revealed_specials
            .iter()
            .map(|(f, s)| RevealedSpecial {
                character: name(*f),
                special: *s,
            })
            .collect(),
        turn,
    })
}

/// The turn as a sheet; `None` while it holds a hidden choice.
fn turn_sheet(c: &Conflict, t: &Turn) -> Option<TurnSheet> {
    let name = |f: FighterId| c.f(f).name.clone();
    let hidden_stance = !t.stances_revealed && t.stances.iter().any(Option::is_some);
    let hidden_move = !t.moves_revealed && t.moves.iter().any(Option::is_some);
    let face_down = t.specials.iter().any(|p| p.face_down && !p.cancelled);
    if hidden_stance || hidden_move || face_down {
        return None;
    }
    let stances = match t.stances {
        [Some(a), Some(b)] if t.stances_revealed => Some([a, b]),
        _ => None,
    };
    let moves = match (t.played(0), t.played(1)) {
        (Some(a), Some(b)) if t.moves_revealed => Some([a, b]),
        _ => None,
    };
    let participants = [Some(t.active), t.opponent];
    Some(TurnSheet {
        active: name(t.active),
        opponent: t.opponent.map(name),
        step: t.step,
        stances,
        moves,
        specials: t
            .specials
            .iter()
            .map(|p| SpecialSheet {
                by: name(p.by),
                special: p.special,
                window: p.window,
                via_liquid_metal: p.via_liquid_metal,
                target: p.target.map(name),
                cancelled: p.cancelled,
            })
            .collect(),
        swapped: participants
            .iter()
            .enumerate()
            .filter_map(|(slot, f)| f.filter(|_| t.swapped[slot]).map(name))
            .collect(),
        // Who a window asked matters only while it is open.
        asked: window_names(t, &t.asked).into_iter().map(name).collect(),
        done: window_names(t, &t.done).into_iter().map(name).collect(),
        pending_losses: t.pending_losses.clone(),
        pending_gains: t.pending_gains.clone(),
    })
}

fn window_names(t: &Turn, ids: &[FighterId]) -> Vec<FighterId> {
    if matches!(t.step, Step::AfterReveal | Step::BeforeResolution) {
        ids.to_vec()
    } else {
        Vec::new()
    }
}

// ----- import -----

fn bad(rule: &'static str, reason: impl Into<String>) -> RuleError {
    RuleError::setup(rule, reason)
}

/// Check a conflict sheet against the table's characters and build the conflict.
pub(crate) fn build_conflict(table: &Table, sheet: &ConflictSheet) -> Result<Conflict, RuleError> {
    crate::limits::text(&sheet.stakes, "IT-22", "the stakes").map_err(as_setup)?;
    if sheet.stakes.trim().is_empty() {
        return Err(bad("IT-22", "a conflict has stakes"));
    }
    let fighters = fighters(table, sheet)?;
    let mut c = Conflict {
        stakes: sheet.stakes.clone(),
        lethal: sheet.lethal,
        minor: sheet.minor,
        fighters,
        phase: Phase::Forming,
        turn: None,
        turns_played: sheet.turns_played,
        last_active: None,
        chain: None,
        revealed_specials: Vec::new(),
        scouted: Vec::new(),
        last_turn: None,
        outcome: None,
    };
    let id = |c: &Conflict, name: &Name, what: &str| {
        c.fighter_id(name).ok_or_else(|| {
            bad(
                "IT-23",
                format!(
                    "{what} {} is not one of the conflict's fighters",
                    crate::limits::shown(name)
                ),
            )
        })
    };
    c.last_active = sheet
        .last_active
        .as_ref()
        .map(|n| id(&c, n, "the last active character"))
        .transpose()?;
    c.revealed_specials = sheet
        .revealed_specials
        .iter()
        .map(|r| Ok((id(&c, &r.character, "the revealer")?, r.special)))
        .collect::<Result<_, RuleError>>()?;
    bindings(&mut c, sheet)?;
    c.chain = sheet
        .chain
        .as_ref()
        .map(|ch| chain(table, &c, ch))
        .transpose()?;
    // While a turn's losses are split, a fighter may stand at 0 until the turn ends (IT-52).
    let settling = sheet
        .turn
        .as_ref()
        .is_some_and(|t| t.step == Step::Settling);
    let running = !matches!(sheet.phase, PhaseSheet::Ended { .. });
    check_fighters(table, &c, running, settling)?;
    c.phase = phase(table, &c, sheet)?;
    if let PhaseSheet::Ended { outcome } = &sheet.phase {
        c.outcome = Some(Outcome {
            winner: outcome.winner,
            reason: outcome.reason.clone(),
            dead: outcome.dead.clone(),
            narration: outcome.narration.clone(),
        });
    }
    c.turn = match (&sheet.phase, &sheet.turn) {
        (PhaseSheet::Turn {}, Some(t)) => Some(turn_in(table, &c, t)?),
        (PhaseSheet::Turn {}, None) => {
            return Err(bad("IT-32", "in the turn phase, say where the turn stands"));
        }
        (_, Some(_)) => {
            return Err(bad("IT-32", "a turn is under way only in the turn phase"));
        }
        (_, None) => None,
    };
    if let Some(t) = &c.turn {
        for f in &mut c.fighters {
            f.special_this_turn = false;
        }
        for p in t.specials.iter().filter(|p| p.special != Special::Yojimbo) {
            c.fighters[usize::from(p.by)].special_this_turn = true;
        }
    }
    check_chain_in_phase(&c)?;
    Ok(c)
}

fn as_setup(e: RuleError) -> RuleError {
    match e {
        RuleError::IllegalMove { rule, reason } => RuleError::setup(rule, reason),
        other => other,
    }
}

fn fighters(table: &Table, sheet: &ConflictSheet) -> Result<Vec<Fighter>, RuleError> {
    let mut out: Vec<Fighter> = Vec::with_capacity(sheet.fighters.len());
    for f in &sheet.fighters {
        let Some(index) = table
            .characters
            .iter()
            .position(|ch| ch.name == f.character.as_str())
        else {
            return Err(bad(
                "IT-23",
                format!(
                    "there is no character called {}",
                    crate::limits::shown(&f.character)
                ),
            ));
        };
        if out.iter().any(|o| o.character == index) {
            return Err(bad("IT-23", format!("{} is listed twice", f.character)));
        }
        let ch = &table.characters[index];
        out.push(Fighter {
            name: Name::from(&ch.name),
            character: index,
            side: if ch.is_pc() { Side::Players } else { Side::Gm },
            status: f.status,
            pile: f.pile.clone(),
            turns: f.turns,
            bound_to: None,
            drunken_monkey: f.drunken_monkey,
            samurai: f.samurai,
            blave_uses: f.blave_uses,
            surrendered: f.surrendered,
            special_this_turn: false,
        });
    }
    if out.len() > u8::MAX as usize {
        return Err(bad("IT-23", "too many fighters"));
    }
    Ok(out)
}

/// There Can Be Only One binds two opponents to each other (IT-59 #3, D-27).
fn bindings(c: &mut Conflict, sheet: &ConflictSheet) -> Result<(), RuleError> {
    for (i, f) in sheet.fighters.iter().enumerate() {
        if let Some(other) = &f.bound_to {
            let o = c.fighter_id(other).ok_or_else(|| {
                bad(
                    "D-27",
                    "There Can Be Only One binds to a fighter of the conflict",
                )
            })?;
            c.fighters[i].bound_to = Some(o);
        }
    }
    // A binding outlives a newer one made by its target (the old partner stays bound until
    // either is out), so only the sides are checked.
    for f in &c.fighters {
        if let Some(o) = f.bound_to
            && c.fighters[usize::from(o)].side == f.side
        {
            return Err(bad(
                "D-27",
                format!("{} can be bound only to an opponent", f.name),
            ));
        }
    }
    Ok(())
}

fn chain(table: &Table, c: &Conflict, sheet: &ChainSheet) -> Result<Chain, RuleError> {
    let against = c
        .fighter_id(&sheet.against)
        .ok_or_else(|| bad("IT-42", "a chain is against one of the conflict's fighters"))?;
    let mut cards = Vec::with_capacity(sheet.cards.len());
    for k in &sheet.cards {
        let owner = c.fighter_id(&k.owner).ok_or_else(|| {
            bad(
                "IT-42",
                "a chain's cards belong to fighters of the conflict",
            )
        })?;
        if !crate::conflict::character(table, c, owner).knows(k.mv) {
            return Err(bad(
                "IT-42",
                format!("{} does not know {}, so it is not its card", k.owner, k.mv),
            ));
        }
        cards.push(Card { owner, mv: k.mv });
    }
    let Some(first) = cards.first() else {
        return Err(bad("IT-42", "a live chain holds at least its first card"));
    };
    let side = c.f(first.owner).side;
    if cards.iter().any(|k| c.f(k.owner).side != side) || c.f(against).side == side {
        return Err(bad(
            "IT-42",
            "a chain's cards are one side's, against a fighter of the other",
        ));
    }
    Ok(Chain {
        side,
        against,
        cards,
    })
}

/// Each fighter as the rules allow it: answers only while forming, in only with energy left
/// (or a Samurai), a pile of its own moves, its specials' marks backed by the specials.
fn check_fighters(
    table: &Table,
    c: &Conflict,
    running: bool,
    settling: bool,
) -> Result<(), RuleError> {
    for f in &c.fighters {
        let ch = &table.characters[f.character];
        let n = &f.name;
        // A Samurai dies as its conflict ends, still standing in it (IT-59 #12).
        if running && ch.dead && matches!(f.status, Status::In | Status::Pending) {
            return Err(bad("IT-28", format!("{n} is dead and cannot fight")));
        }
        if f.side == Side::Gm && f.status == Status::Pending {
            return Err(bad(
                "IT-23",
                format!("{n} is an NPC: the GM picked it, so it is in"),
            ));
        }
        if f.side == Side::Gm && matches!(f.status, Status::SatOut | Status::Barred) {
            return Err(bad(
                "IT-23",
                format!("only PCs sit out or are barred, not {n}"),
            ));
        }
        if f.status == Status::SatOut && c.lethal {
            return Err(bad("IT-23", "in a lethal conflict every PC is in"));
        }
        if running && !settling && f.status == Status::In && ch.energy.total() == 0 && !f.samurai {
            return Err(bad(
                "IT-52",
                format!("{n} has no energy left, so it is out"),
            ));
        }
        if f.surrendered && f.status != Status::Out {
            return Err(bad("IT-36", format!("{n} surrendered, so it is out")));
        }
        if let Some(m) = f.pile.iter().find(|m| !ch.knows(**m)) {
            return Err(bad(
                "IT-37",
                format!("{m} is in {n}'s pile, but {n} does not know it"),
            ));
        }
        if f.samurai && !ch.knows_special(Special::WayOfTheSamurai) {
            return Err(bad(
                "IT-59",
                format!("{n} does not know The Way of the Samurai"),
            ));
        }
        if f.drunken_monkey && !(ch.knows_special(Special::DrunkenMonkey) && ch.drunken_monkey_ban)
        {
            return Err(bad(
                "IT-59",
                format!(
                    "{n}'s Drunken Monkey needs the special, and bans it from the next conflict"
                ),
            ));
        }
        if f.blave_uses > 2 {
            return Err(bad("D-28", "To Blave is usable twice per conflict"));
        }
        if f.turns > c.turns_played {
            return Err(bad(
                "IT-26",
                format!("{n} cannot have taken more turns than were played"),
            ));
        }
    }
    Ok(())
}

fn phase(table: &Table, c: &Conflict, sheet: &ConflictSheet) -> Result<Phase, RuleError> {
    let pending = c.fighters.iter().any(|f| f.status == Status::Pending);
    let pc_in = c.in_on(Side::Players).next().is_some();
    let npc_in = c.in_on(Side::Gm).next().is_some();
    let running = !matches!(sheet.phase, PhaseSheet::Ended { .. });
    if running && !matches!(sheet.phase, PhaseSheet::Forming {}) && pending {
        return Err(bad(
            "IT-23",
            "once the fight has begun, nobody is still answering",
        ));
    }
    if matches!(
        sheet.phase,
        PhaseSheet::PickActive { .. } | PhaseSheet::Turn {}
    ) && !(pc_in && npc_in)
    {
        return Err(bad(
            "IT-27",
            "a side with nobody left in has lost: the conflict is over",
        ));
    }
    let id = |name: &Name| {
        c.fighter_id(name).ok_or_else(|| {
            bad(
                "IT-23",
                format!("{} is not a fighter", crate::limits::shown(name)),
            )
        })
    };
    Ok(match &sheet.phase {
        PhaseSheet::Forming {} => {
            if !npc_in {
                return Err(bad("IT-23", "the GM picks at least one NPC"));
            }
            if !pending && pc_in {
                return Err(bad(
                    "IT-23",
                    "everyone has answered, so the fight has begun",
                ));
            }
            if sheet.turns_played > 0 || sheet.last_active.is_some() {
                return Err(bad("IT-25", "no turn is played before the fight begins"));
            }
            Phase::Forming
        }
        PhaseSheet::PickActive {
            picker,
            side,
            capped,
        } => {
            let picker = match picker {
                PickerSheet::Players => {
                    if *side != Some(Side::Players) || sheet.turns_played > 0 {
                        return Err(bad(
                            "D-13",
                            "the players pick only the first active character, a PC",
                        ));
                    }
                    Picker::Players
                }
                PickerSheet::Seat(seat) => {
                    if *seat != Seat::Gm && !table.players.contains(seat) {
                        return Err(bad("IT-26", "the picker is a seat at the table"));
                    }
                    Picker::Seat { seat: *seat }
                }
            };
            let capped = capped.as_ref().map(id).transpose()?;
            if let Some(f) = capped {
                let three = c
                    .chain
                    .as_ref()
                    .is_some_and(|ch| ch.run_of(f) >= table.rules.chain_wins);
                if !three || *side != Some(c.f(f).side) {
                    return Err(bad(
                        "IT-46",
                        format!(
                            "{} must pass only after three wins in the live chain",
                            c.f(f).name
                        ),
                    ));
                }
            }
            Phase::PickActive {
                picker,
                side: *side,
                capped,
            }
        }
        PhaseSheet::Turn {} => Phase::Turn,
        PhaseSheet::Mercy {
            surrendered,
            opponent,
        } => {
            let (s, o) = (id(surrendered)?, id(opponent)?);
            if !c.lethal || !c.f(s).surrendered || !c.is_in(o) || c.f(s).side == c.f(o).side {
                return Err(bad(
                    "IT-36",
                    "mercy follows a surrender in a lethal conflict, decided by the opponent still in",
                ));
            }
            Phase::Mercy {
                surrendered: s,
                opponent: o,
                decider: crate::conflict::controller(table, c, o),
            }
        }
        PhaseSheet::Ended { outcome } => {
            crate::limits::text(&outcome.reason, "IT-27", "the outcome").map_err(as_setup)?;
            if let Some(text) = &outcome.narration {
                crate::limits::text(text, "IT-27", "the narration").map_err(as_setup)?;
            }
            if let Some(d) = outcome
                .dead
                .iter()
                .find(|d| table.character(d).is_none_or(|ch| !ch.dead))
            {
                return Err(bad(
                    "IT-28",
                    format!(
                        "{} died in the conflict, so its sheet says dead",
                        crate::limits::shown(d)
                    ),
                ));
            }
            Phase::Ended
        }
    })
}

/// A live chain stands only where the rules leave it standing (IT-43, IT-45).
fn check_chain_in_phase(c: &Conflict) -> Result<(), RuleError> {
    let Some(ch) = &c.chain else { return Ok(()) };
    let ok = match (&c.phase, &c.turn) {
        (Phase::PickActive { side, .. }, _) => *side == Some(ch.side),
        (Phase::Turn, Some(t)) => {
            c.f(t.active).side == ch.side && t.opponent.is_none_or(|o| o == ch.against)
        }
        _ => false,
    };
    if ok {
        Ok(())
    } else {
        Err(bad(
            "IT-43",
            "the chain would have ended: it lives only while its side acts against its loser",
        ))
    }
}

fn turn_in(table: &Table, c: &Conflict, sheet: &TurnSheet) -> Result<Turn, RuleError> {
    let id = |name: &Name| {
        c.fighter_id(name).ok_or_else(|| {
            bad(
                "IT-32",
                format!("{} is not a fighter", crate::limits::shown(name)),
            )
        })
    };
    let active = id(&sheet.active)?;
    if !c.is_in(active) {
        return Err(bad("IT-32", "the active character is in the conflict"));
    }
    if c.turns_played == 0 {
        return Err(bad(
            "IT-32",
            "a turn under way has been counted: turns_played ≥ 1",
        ));
    }
    if c.last_active != Some(active) {
        return Err(bad(
            "D-8",
            "the last active character is this turn's active character",
        ));
    }
    let mut t = Turn::new(c.turns_played, active);
    t.step = sheet.step;
    let after = |step: Step| step_rank(sheet.step) > step_rank(step);
    match (&sheet.opponent, sheet.step) {
        (None, Step::PickOpponent) => {}
        (Some(_), Step::PickOpponent) | (None, _) => {
            return Err(bad(
                "IT-32",
                "the opponent is picked when the turn leaves its first step",
            ));
        }
        (Some(o), _) => {
            let o = id(o)?;
            turn::may_face(c, active, o).map_err(as_setup)?;
            t.opponent = Some(o);
        }
    }
    match (sheet.stances, after(Step::Stances)) {
        (Some(s), true) => {
            t.stances = [Some(s[0]), Some(s[1])];
            t.stances_revealed = true;
        }
        (None, false) => {}
        _ => {
            return Err(bad(
                "IT-2",
                "a position holds the stances once both are revealed, and only then",
            ));
        }
    }
    match (sheet.moves, after(Step::Moves)) {
        (Some(m), true) => {
            t.moves = [Some(MoveChoice::Play(m[0])), Some(MoveChoice::Play(m[1]))];
            t.moves_revealed = true;
        }
        (None, false) => {}
        _ => {
            return Err(bad(
                "IT-2",
                "a position holds the moves once both are revealed (a surrender ends the turn at once)",
            ));
        }
    }
    t.specials = sheet
        .specials
        .iter()
        .map(|p| played(table, c, &t, p))
        .collect::<Result<_, _>>()?;
    for p in t.specials.iter().filter(|p| !p.cancelled) {
        if let (Special::IAlreadyKnow(x), Some(slot)) = (p.special, t.slot(p.by)) {
            t.forbidden[1 - slot] = Some(x);
        }
    }
    check_stances(table, c, &t)?;
    check_moves(table, c, &t)?;
    for n in &sheet.swapped {
        let f = id(n)?;
        match t.slot(f) {
            Some(slot) if c.f(f).drunken_monkey && after(Step::Moves) => t.swapped[slot] = true,
            _ => {
                return Err(bad(
                    "D-30",
                    "only a participant with an active Drunken Monkey swaps, after the reveal",
                ));
            }
        }
    }
    window(c, &mut t, sheet)?;
    settling(table, c, &mut t, sheet)?;
    Ok(t)
}

fn step_rank(step: Step) -> u8 {
    match step {
        Step::PickOpponent => 0,
        Step::Stances => 1,
        Step::Moves => 2,
        Step::AfterReveal => 3,
        Step::BeforeResolution => 4,
        Step::Settling => 5,
    }
}

fn window_rank(w: Window) -> u8 {
    match w {
        Window::W1 => 0,
        Window::W2 => 1,
        Window::W3 => 2,
        Window::W4 => 3,
        Window::W5 => 4,
    }
}

fn played(
    table: &Table,
    c: &Conflict,
    t: &Turn,
    p: &SpecialSheet,
) -> Result<PlayedSpecial, RuleError> {
    let by = c
        .fighter_id(&p.by)
        .ok_or_else(|| bad("IT-54", "a special is played by a fighter of the conflict"))?;
    let ch = crate::conflict::character(table, c, by);
    let known = if p.via_liquid_metal {
        Special::LiquidMetal
    } else {
        p.special
    };
    if !ch.knows_special(known) {
        return Err(bad("IT-59", format!("{} does not know {known}", p.by)));
    }
    if window_rank(p.window) > step_rank(t.step).min(4) {
        return Err(bad(
            "IT-55",
            format!("{} cannot have been played yet", p.special),
        ));
    }
    if specials::reveals_at_w5(p.special) && step_rank(t.step) < step_rank(Step::BeforeResolution) {
        return Err(bad(
            "IT-54",
            format!(
                "{} stays face down until W5: a position cannot hold it",
                p.special
            ),
        ));
    }
    let target = p
        .target
        .as_ref()
        .map(|n| {
            c.fighter_id(n)
                .ok_or_else(|| bad("IT-59", "a special's target is a fighter of the conflict"))
        })
        .transpose()?;
    Ok(PlayedSpecial {
        by,
        special: p.special,
        via_liquid_metal: p.via_liquid_metal,
        window: p.window,
        face_down: false,
        target,
        cancelled: p.cancelled,
    })
}

fn check_stances(table: &Table, c: &Conflict, t: &Turn) -> Result<(), RuleError> {
    // Energy has not changed since the stances were revealed until the turn resolves.
    if step_rank(t.step) >= step_rank(Step::Settling) {
        return Ok(());
    }
    for (slot, s) in t.stances.iter().enumerate() {
        let (Some(s), Some(f)) = (s, t.participant(slot)) else {
            continue;
        };
        let energy = crate::conflict::character(table, c, f).energy.current;
        if let Some(a) = s.action
            && s.amount > energy.get(a)
            && !c.f(f).samurai
        {
            return Err(bad(
                "IT-33",
                format!("{}'s stance is more than its {a} energy", c.f(f).name),
            ));
        }
    }
    Ok(())
}

fn check_moves(table: &Table, c: &Conflict, t: &Turn) -> Result<(), RuleError> {
    for slot in 0..2 {
        let (Some(m), Some(f)) = (t.played(slot), t.participant(slot)) else {
            continue;
        };
        if !choice::available(table, c, f, t.forbidden[slot]).contains(m) {
            return Err(bad(
                "IT-35",
                format!(
                    "{} could not have played {m}: it is unknown or face up",
                    c.f(f).name
                ),
            ));
        }
    }
    Ok(())
}

/// The open W4 or W5 window: who was asked and who is done (IT-55, D-34).
fn window(c: &Conflict, t: &mut Turn, sheet: &TurnSheet) -> Result<(), RuleError> {
    let ids = |names: &[Name]| -> Result<Vec<FighterId>, RuleError> {
        names
            .iter()
            .map(|n| {
                c.fighter_id(n)
                    .ok_or_else(|| bad("IT-55", "a window asks fighters of the conflict"))
            })
            .collect()
    };
    t.asked = ids(&sheet.asked)?;
    t.done = ids(&sheet.done)?;
    let open = matches!(t.step, Step::AfterReveal | Step::BeforeResolution);
    if !open {
        if t.asked.is_empty() && t.done.is_empty() {
            return Ok(());
        }
        return Err(bad("IT-55", "only the W4 and W5 windows ask and wait"));
    }
    let fits = |f: &FighterId| match t.step {
        Step::AfterReveal => t.slot(*f).is_some(),
        _ => t.slot(*f).is_none() && c.is_in(*f),
    };
    let waiting = t.asked.iter().any(|f| !t.done.contains(f));
    if t.asked.is_empty()
        || !t.asked.iter().all(fits)
        || !t.done.iter().all(|f| t.asked.contains(f))
        || !waiting
    {
        return Err(bad(
            "D-34",
            "an open window asks its characters (W4 the participants, W5 idle ones) and waits on one of them",
        ));
    }
    Ok(())
}

/// Losses being split: the turn's result is worked out again from the moves, and the first
/// loss or gain left must be a real choice (D-35: a forced split is made at once).
fn settling(table: &Table, c: &Conflict, t: &mut Turn, sheet: &TurnSheet) -> Result<(), RuleError> {
    let pending = !sheet.pending_losses.is_empty() || !sheet.pending_gains.is_empty();
    if t.step != Step::Settling {
        if pending {
            return Err(bad("IT-51", "losses are split only once the turn resolves"));
        }
        return Ok(());
    }
    let (Some(ma), Some(mb), Some(b)) = (t.played(0), t.played(1), t.opponent) else {
        return Err(bad("IT-51", "a resolved turn has both moves"));
    };
    let a = t.active;
    let dis = [
        disadvantage::is_disadvantaged(c, a, ma),
        disadvantage::is_disadvantaged(c, b, mb),
    ];
    t.outcome = Some(match winner::judge(ma, dis[0], mb, dis[1]) {
        Some((first_wins, by)) => {
            let (w, l, mw, ml) = if first_wins {
                (a, b, ma, mb)
            } else {
                (b, a, mb, ma)
            };
            TurnOutcome::Win {
                winner: c.f(w).name.clone(),
                loser: c.f(l).name.clone(),
                by,
                winning_move: mw,
                losing_move: ml,
                combo: first_wins && combo::combos(table, c, a, b, mw),
            }
        }
        None => TurnOutcome::Tie { moves: (ma, mb) },
    });
    for l in &sheet.pending_losses {
        pending_bearer(table, c, &l.character, l.splitter)?;
        if l.fixed > 10_000 || l.free > 10_000 {
            return Err(bad("IT-49", "a loss that large cannot happen"));
        }
    }
    for g in &sheet.pending_gains {
        pending_bearer(table, c, &g.character, g.splitter)?;
        if g.amount > 10_000 {
            return Err(bad("IT-59", "a regain that large cannot happen"));
        }
    }
    t.pending_losses = sheet.pending_losses.clone();
    t.pending_gains = sheet.pending_gains.clone();
    let probe = Conflict {
        turn: Some(t.clone()),
        ..c.clone()
    };
    let forced = match losses::waiting_split(table, &probe) {
        None => true,
        Some((_, _, room, amount, _)) => losses::forced_split(room, amount).is_some(),
    };
    if forced {
        return Err(bad(
            "D-35",
            "the first loss or regain left must be a real choice: a forced split is made at once",
        ));
    }
    Ok(())
}

fn pending_bearer(
    table: &Table,
    c: &Conflict,
    name: &Name,
    splitter: Seat,
) -> Result<(), RuleError> {
    if c.fighter_id(name).is_none() {
        return Err(bad("IT-51", "a pending loss or regain is a fighter's"));
    }
    if splitter != Seat::Gm && !table.players.contains(&splitter) {
        return Err(bad("IT-51", "a split is made by a seat at the table"));
    }
    Ok(())
}
