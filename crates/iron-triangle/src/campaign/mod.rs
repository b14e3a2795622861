//! The campaign around conflicts: character creation (IT-7, IT-9 … IT-12), countdowns
//! (IT-13, IT-14), problems and vetoes (IT-2, IT-15 … IT-21), rests (IT-31), session end and
//! level-up (IT-60 … IT-65) and replacement characters (IT-66).
//!
//! Every command is checked in `decide` against the rules and turned into events; `apply` folds
//! events into the [`Table`] without any further checks, so replaying the log reproduces the
//! table. Commands that complete a step the rules make automatic (the last hidden problem
//! choice triggers the reveal and the choice of a decider) emit those follow-up events too.

mod countdowns;
mod creation;
mod level_up;
mod narration;
mod problems;
mod rest;
mod veto;
mod visibility;

use std::collections::BTreeMap;

use clash_core::{RuleError, Seat};
use serde::{Deserialize, Serialize};

use crate::Table;
use crate::character::{Character, CharacterSheet, Combo, KnownMove};
use crate::moves::{Action, Move};

pub use countdowns::{Countdown, CountdownSheet};
pub use level_up::{ComboEdit, Improvement, Refill};
pub use problems::{
    Commitment, Decider, DeciderReason, Payment, Pick, Problem, ProblemOption, Stage, TraitKind,
};
pub use rest::{RestEffect, RestKind, Rests};
pub use veto::DeclaredVeto;
pub use visibility::{CampaignView, ChooserView, ProblemView};

pub use narration::narrate;
pub use visibility::{event_view, render, secret_pending, view};

/// The state of the campaign outside conflicts.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Campaign {
    /// The current session, from 1.
    pub session: u32,
    /// The GM has ended the session: level-ups, rewrites and background changes happen now
    /// (IT-60 … IT-65) until the GM starts the next session.
    pub session_ending: bool,
    /// Characters that levelled up at this session end (at most one level per session, IT-60).
    pub levelled_this_session: Vec<String>,
    pub countdowns: Vec<Countdown>,
    /// How many problems were opened so far; problem numbers count from 1.
    pub problems_opened: u32,
    /// The problem being resolved, if any (one at a time).
    pub problem: Option<Problem>,
    /// Descriptions of finished problems: a problem is not retried (IT-20).
    pub closed_problems: Vec<String>,
    /// For each player seat, the number of the last problem it decided (IT-17, IT-18, D-21).
    pub last_decided: BTreeMap<Seat, u32>,
    pub rests: Rests,
    /// Replacement characters whose level-ups are still to be resolved (IT-66).
    pub replacements: Vec<Replacement>,
}

/// How an established campaign starts (part of the table setup). Every field is optional.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct CampaignSetup {
    /// The current session (default 1).
    pub session: Option<u32>,
    /// How many problems were already opened.
    pub problems_opened: u32,
    /// Which problem each player seat last decided (IT-17).
    pub last_decided: BTreeMap<Seat, u32>,
    /// A conflict has just ended, so the party may rest (IT-31).
    pub rest_due: bool,
    /// Breather or short rest already taken since the last full rest (D-15).
    pub breather_used: bool,
    pub short_rest_used: bool,
}

/// A replacement PC still levelling up to its starting level (IT-66, D-33). It may learn only
/// the moves and combos of the dead PC it replaces.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Replacement {
    pub character: String,
    pub replaces: String,
    pub levels_left: u32,
    pub moves: Vec<KnownMove>,
    pub combos: Vec<Combo>,
}

impl Campaign {
    pub fn new(
        countdowns: &[CountdownSheet],
        setup: &CampaignSetup,
    ) -> Result<Campaign, RuleError> {
        let mut built: Vec<Countdown> = Vec::new();
        for sheet in countdowns {
            let c = sheet.build()?;
            if built.iter().any(|o| o.name == c.name) {
                return Err(RuleError::setup(
                    "IT-13",
                    format!("two countdowns are called {:?}", c.name),
                ));
            }
            built.push(c);
        }
        if let Some((seat, n)) = setup
            .last_decided
            .iter()
            .find(|(_, n)| **n > setup.problems_opened)
        {
            return Err(RuleError::setup(
                "IT-17",
                format!(
                    "{seat} cannot have decided problem #{n}: only {} were opened",
                    setup.problems_opened
                ),
            ));
        }
        if setup.last_decided.contains_key(&Seat::Gm) {
            return Err(RuleError::setup(
                "IT-17",
                "only players' decisions are recorded",
            ));
        }
        Ok(Campaign {
            session: setup.session.unwrap_or(1).max(1),
            session_ending: false,
            levelled_this_session: Vec::new(),
            countdowns: built,
            problems_opened: setup.problems_opened,
            problem: None,
            closed_problems: Vec::new(),
            last_decided: setup.last_decided.clone(),
            rests: Rests {
                due: setup.rest_due,
                breather_used: setup.breather_used,
                short_rest_used: setup.short_rest_used,
            },
            replacements: Vec::new(),
        })
    }

    pub fn replacement(&self, name: &str) -> Option<&Replacement> {
        self.replacements.iter().find(|r| r.character == name)
    }
}

/// Called when a conflict has ended: the party may now rest (IT-31).
pub fn conflict_over(table: &mut Table) {
    table.campaign.rests.due = true;
}

/// A campaign command. In JSON: `{"type": "open_problem", "description": "..."}` etc.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum CampaignCommand {
    /// A player creates its own PC; the GM creates NPCs (IT-1, IT-9 … IT-12).
    CreateCharacter {
        sheet: Box<CharacterSheet>,
    },
    /// A player whose PC died creates a replacement at a starting level (IT-66).
    CreateReplacement {
        sheet: Box<CharacterSheet>,
        replaces: String,
        level: u32,
    },
    /// Rename a known move; free at any time (IT-7).
    RenameMove {
        character: String,
        #[serde(rename = "move")]
        mv: Move,
        name: String,
    },
    CreateCountdown {
        name: String,
        boxes: u32,
    },
    MarkCountdown {
        name: String,
    },
    NarrateCountdown {
        name: String,
        consequences: String,
    },
    EraseCountdown {
        name: String,
    },
    OpenProblem {
        description: String,
    },
    ChooseOption {
        option: ProblemOption,
        #[serde(default, rename = "trait")]
        which: Option<TraitKind>,
    },
    PassProblem {},
    PickDecider {
        seat: Seat,
    },
    NarrateOutcome {
        text: String,
        #[serde(default)]
        background: Option<String>,
    },
    RejectNarration {
        reason: String,
    },
    Veto {
        substitute: ProblemOption,
    },
    PickVeto {
        seat: Seat,
    },
    CloseProblem {},
    Rest {
        kind: RestKind,
        #[serde(default)]
        picks: BTreeMap<String, Action>,
    },
    RecoverNpc {
        character: String,
        current: crate::character::PerAction<u32>,
        #[serde(default)]
        refresh_specials: bool,
    },
    MarkGoal {
        character: String,
        achieved: bool,
    },
    EndSession {},
    LevelUp {
        character: String,
        improvement: Improvement,
        #[serde(default)]
        refill: Option<Refill>,
    },
    RewriteTraits {
        character: String,
        #[serde(default)]
        goal: Option<String>,
        #[serde(default)]
        belief: Option<String>,
        #[serde(default)]
        flaw: Option<String>,
    },
    ChangeBackground {
        character: String,
        background: String,
        new_name: String,
    },
    StartSession {},
}

/// Something that happened in the campaign.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum CampaignEvent {
    CharacterCreated {
        character: Box<Character>,
    },
    ReplacementCreated {
        character: Box<Character>,
        replaces: String,
        level: u32,
        moves: Vec<KnownMove>,
        combos: Vec<Combo>,
    },
    MoveRenamed {
        character: String,
        controller: Seat,
        #[serde(rename = "move")]
        mv: Move,
        name: String,
    },
    CountdownCreated {
        name: String,
        boxes: u32,
    },
    CountdownMarked {
        name: String,
        marked: u32,
        boxes: u32,
    },
    CountdownNarrated {
        name: String,
        consequences: String,
    },
    CountdownErased {
        name: String,
    },
    ProblemOpened {
        problem: u32,
        description: String,
    },
    /// A hidden commitment (IT-2): `pick` is `None` in the views of every seat but its owner.
    OptionCommitted {
        problem: u32,
        seat: Seat,
        character: String,
        pick: Option<Pick>,
    },
    ProblemRevealed {
        problem: u32,
        commitments: Vec<Commitment>,
    },
    DeciderChosen {
        problem: u32,
        decider: Decider,
        reason: DeciderReason,
    },
    DeciderTied {
        problem: u32,
        candidates: Vec<Seat>,
    },
    OutcomeNarrated {
        problem: u32,
        decider: Decider,
        text: String,
        payment: Payment,
    },
    NarrationRejected {
        problem: u32,
        decider: Decider,
        reason: String,
    },
    VetoDeclared {
        problem: u32,
        seat: Seat,
        character: String,
        substitute: ProblemOption,
        stands: bool,
    },
    VetoPicked {
        problem: u32,
        seat: Seat,
        character: String,
        substitute: ProblemOption,
    },
    ProblemClosed {
        problem: u32,
    },
    Rested {
        kind: RestKind,
        effects: Vec<RestEffect>,
    },
    NpcRecovered {
        character: String,
        current: crate::character::PerAction<u32>,
        refresh_specials: bool,
    },
    GoalMarked {
        character: String,
        achieved: bool,
    },
    SessionEnded {
        session: u32,
        eligible: Vec<String>,
    },
    LevelledUp {
        character: String,
        level: u32,
        improvement: Improvement,
        refill: Option<Refill>,
        replacement: bool,
    },
    TraitsRewritten {
        character: String,
        goal: Option<String>,
        belief: Option<String>,
        flaw: Option<String>,
    },
    BackgroundChanged {
        character: String,
        background: String,
        new_name: String,
    },
    SessionStarted {
        session: u32,
    },
}

pub fn decide(
    table: &Table,
    seat: Seat,
    command: &CampaignCommand,
) -> Result<Vec<CampaignEvent>, RuleError> {
    use CampaignCommand as C;
    match command {
        C::CreateCharacter { sheet } => creation::create(table, seat, sheet),
        C::CreateReplacement {
            sheet,
            replaces,
            level,
        } => creation::replacement(table, seat, sheet, replaces, *level),
        C::RenameMove {
            character,
            mv,
            name,
        } => creation::rename(table, seat, character, *mv, name),
        C::CreateCountdown { name, boxes } => countdowns::create(table, seat, name, *boxes),
        C::MarkCountdown { name } => countdowns::mark(table, seat, name),
        C::NarrateCountdown { name, consequences } => {
            countdowns::narrate_full(table, seat, name, consequences)
        }
        C::EraseCountdown { name } => countdowns::erase(table, seat, name),
        C::OpenProblem { description } => problems::open(table, seat, description),
        C::ChooseOption { option, which } => problems::commit(
            table,
            seat,
            Pick::Choose {
                option: *option,
                which: *which,
            },
        ),
        C::PassProblem {} => problems::commit(table, seat, Pick::Pass),
        C::PickDecider { seat: picked } => problems::pick_decider(table, seat, *picked),
        C::NarrateOutcome { text, background } => {
            problems::narrate_outcome(table, seat, text, background.as_deref())
        }
        C::RejectNarration { reason } => problems::reject(table, seat, reason),
        C::Veto { substitute } => veto::declare(table, seat, *substitute),
        C::PickVeto { seat: picked } => veto::pick(table, seat, *picked),
        C::CloseProblem {} => problems::close(table, seat),
        C::Rest { kind, picks } => rest::rest(table, seat, *kind, picks),
        C::RecoverNpc {
            character,
            current,
            refresh_specials,
        } => rest::recover_npc(table, seat, character, *current, *refresh_specials),
        C::MarkGoal {
            character,
            achieved,
        } => level_up::mark_goal(table, seat, character, *achieved),
        C::EndSession {} => level_up::end_session(table, seat),
        C::LevelUp {
            character,
            improvement,
            refill,
        } => level_up::level_up(table, seat, character, improvement, *refill),
        C::RewriteTraits {
            character,
            goal,
            belief,
            flaw,
        } => level_up::rewrite(
            table,
            seat,
            character,
            [goal.as_deref(), belief.as_deref(), flaw.as_deref()],
        ),
        C::ChangeBackground {
            character,
            background,
            new_name,
        } => level_up::change_background(table, seat, character, background, new_name),
        C::StartSession {} => level_up::start_session(table, seat),
    }
}

pub fn apply(table: &mut Table, event: &CampaignEvent) {
    use CampaignEvent as E;
    match event {
        E::CharacterCreated { character } => table.characters.push((**character).clone()),
        E::ReplacementCreated { .. } => creation::apply_replacement(table, event),
        E::MoveRenamed {
            character,
            mv,
            name,
            ..
        } => creation::apply_rename(table, character, *mv, name),
        E::CountdownCreated { .. }
        | E::CountdownMarked { .. }
        | E::CountdownNarrated { .. }
        | E::CountdownErased { .. } => countdowns::apply(table, event),
        E::ProblemOpened { .. }
        | E::OptionCommitted { .. }
        | E::ProblemRevealed { .. }
        | E::DeciderChosen { .. }
        | E::DeciderTied { .. }
        | E::OutcomeNarrated { .. }
        | E::NarrationRejected { .. }
        | E::ProblemClosed { .. } => problems::apply(table, event),
        E::VetoDeclared { .. } | E::VetoPicked { .. } => veto::apply(table, event),
        E::Rested { .. } | E::NpcRecovered { .. } => rest::apply(table, event),
        E::GoalMarked { .. }
        | E::SessionEnded { .. }
        | E::LevelledUp { .. }
        | E::TraitsRewritten { .. }
        | E::BackgroundChanged { .. }
        | E::SessionStarted { .. } => level_up::apply(table, event),
    }
}

/// Commands `seat` may give now. Candidates are generated per rule and kept only if `decide`
/// accepts them, so every command listed is legal (free text gets a placeholder).
pub fn legal_commands(table: &Table, seat: Seat) -> Vec<CampaignCommand> {
    let mut candidates = Vec::new();
    creation::candidates(table, seat, &mut candidates);
    countdowns::candidates(table, seat, &mut candidates);
    problems::candidates(table, seat, &mut candidates);
    veto::candidates(table, seat, &mut candidates);
    rest::candidates(table, seat, &mut candidates);
    level_up::candidates(table, seat, &mut candidates);
    candidates
        .into_iter()
        .filter(|c| decide(table, seat, c).is_ok())
        .collect()
}

// ----- shared helpers -----

/// The living PC a player seat controls (IT-1: one each).
pub(crate) fn pc_of(table: &Table, seat: Seat) -> Option<&Character> {
    table
        .characters
        .iter()
        .find(|c| c.is_pc() && !c.dead && c.controller == seat)
}

/// A player seat at the table, or the refusal naming IT-1.
pub(crate) fn require_player(
    table: &Table,
    seat: Seat,
    rule: &'static str,
) -> Result<(), RuleError> {
    if seat == Seat::Gm {
        return Err(RuleError::not_your_call(
            rule,
            seat,
            "this is for players, not the GM",
        ));
    }
    if !table.players.contains(&seat) {
        return Err(RuleError::not_your_call(
            "IT-1",
            seat,
            "this seat is not at the table",
        ));
    }
    Ok(())
}

pub(crate) fn require_gm(seat: Seat, rule: &'static str, what: &str) -> Result<(), RuleError> {
    if seat == Seat::Gm {
        Ok(())
    } else {
        Err(RuleError::not_your_call(
            rule,
            seat,
            format!("only the GM {what}"),
        ))
    }
}

/// The character called `name`, controlled by `seat` (the GM controls NPCs).
pub(crate) fn controlled<'a>(
    table: &'a Table,
    seat: Seat,
    name: &str,
    rule: &'static str,
) -> Result<&'a Character, RuleError> {
    let c = table.find(name, rule)?;
    if c.controller != seat {
        return Err(RuleError::not_your_call(
            "IT-1",
            seat,
            format!("{name} is controlled by {}", c.controller),
        ));
    }
    Ok(c)
}

pub(crate) fn non_empty(text: &str, rule: &'static str, what: &str) -> Result<(), RuleError> {
    if text.trim().is_empty() {
        Err(RuleError::illegal(rule, format!("{what} cannot be empty")))
    } else {
        Ok(())
    }
}

/// Run `decide`'s first events through `apply` on a copy, to compute automatic follow-ups.
pub(crate) fn after(table: &Table, events: &[CampaignEvent]) -> Table {
    let mut next = table.clone();
    for e in events {
        apply(&mut next, e);
    }
    next
}
