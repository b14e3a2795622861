//! The campaign around conflicts: character creation (IT-7, IT-9 … IT-12), countdowns
//! (IT-13, IT-14), problems and vetoes (IT-2, IT-15 … IT-21), rests (IT-31), session end and
//! level-up (IT-60 … IT-65) and replacement characters (IT-66).
//!
//! Every command is checked in `decide` against the rules and turned into events; `apply` folds
//! events into the [`Table`] without any further checks, so replaying the log reproduces the
//! table. Commands that complete a step the rules make automatic (the last hidden problem
//! choice triggers the reveal and the choice of a decider) emit those follow-up events too.

mod countdowns;
pub(crate) mod creation;
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
    /// Descriptions of finished problems, for the GM's note on a problem described like one of
    /// them. Not retrying a problem is narrative (IT-20): the GM judges, nothing is refused.
    pub closed_problems: Vec<String>,
    /// For each player seat, the number of the last problem it decided (IT-17, IT-18, D-21).
    pub last_decided: BTreeMap<Seat, u32>,
    pub rests: Rests,
    /// Replacement characters whose level-ups are still to be resolved (IT-66).
    pub replacements: Vec<Replacement>,
    /// Players' characters made during play, waiting for the GM to keep them or send them back.
    #[serde(default)]
    pub handed_in: Vec<HandedIn>,
}

/// A player's character made during play (a new PC, or a replacement for a dead one), handed
/// in for the GM's review: every player's character goes through the GM, in session zero or
/// later (issue 38). The rules are checked when it is handed in and again when the GM keeps it.
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "iron-triangle/"))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HandedIn {
    pub seat: Seat,
    pub sheet: CharacterSheet,
    /// The dead PC it replaces, and the level it starts at (IT-66).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replaces: Option<String>,
    #[serde(default)]
    pub level: u32,
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
    /// The GM has ended the session: level-ups and rewrites happen now (IT-60 … IT-65).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub session_ending: bool,
    /// PCs that levelled up at this session end (IT-60: one level per session).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub levelled_this_session: Vec<String>,
    /// Descriptions of problems already resolved, for the GM's IT-20 note (see
    /// [`Campaign::closed_problems`]).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub closed_problems: Vec<String>,
    /// A problem the GM has just opened, before anyone commits a pick: its description. Its
    /// number is `problems_opened`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub open_problem: Option<String>,
    /// Replacement PCs still resolving their level-ups (IT-66).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub replacements: Vec<ReplacementSheet>,
}

/// A replacement PC in a position: it levels up `levels_left` more times with the dead PC's
/// moves and combos (IT-66, D-33).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReplacementSheet {
    pub character: String,
    pub replaces: String,
    pub levels_left: u32,
}

/// A replacement PC still levelling up to its starting level (IT-66, D-33). It may learn only
/// the moves and combos of the dead PC it replaces.
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "iron-triangle/"))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Replacement {
    pub character: String,
    pub replaces: String,
    pub levels_left: u32,
    pub moves: Vec<KnownMove>,
    pub combos: Vec<Combo>,
}

impl CampaignSetup {
    /// The campaign as it stands, for a position; `None` while a problem is past its opening
    /// (picks are committed, or it is being decided), which a position does not hold.
    pub fn of(c: &Campaign) -> Option<CampaignSetup> {
        let open_problem = match &c.problem {
            None => None,
            Some(p) if p.stage == Stage::Choosing && p.commitments.is_empty() && !p.revealed => {
                Some(p.description.clone())
            }
            Some(_) => return None,
        };
        Some(CampaignSetup {
            session: Some(c.session),
            problems_opened: c.problems_opened,
            last_decided: c.last_decided.clone(),
            rest_due: c.rests.due,
            breather_used: c.rests.breather_used,
            short_rest_used: c.rests.short_rest_used,
            session_ending: c.session_ending,
            levelled_this_session: c.levelled_this_session.clone(),
            closed_problems: c.closed_problems.clone(),
            open_problem,
            replacements: c
                .replacements
                .iter()
                .map(|r| ReplacementSheet {
                    character: r.character.clone(),
                    replaces: r.replaces.clone(),
                    levels_left: r.levels_left,
                })
                .collect(),
        })
    }
}

/// The parts of a position's campaign that name characters: level-ups already taken this
/// session, replacements still levelling up, and an open problem (IT-15, IT-60, IT-66).
pub(crate) fn restore_position(table: &mut Table, setup: &CampaignSetup) -> Result<(), RuleError> {
    let pc = |name: &str| table.character(name).filter(|c| c.is_pc());
    for name in &setup.levelled_this_session {
        if !setup.session_ending {
            return Err(RuleError::setup(
                "IT-60",
                "level-ups happen at session end: end the session first",
            ));
        }
        if pc(name).is_none_or(|c| c.dead) {
            return Err(RuleError::setup(
                "IT-60",
                format!(
                    "{} is not a living PC that could level up",
                    crate::limits::shown(name)
                ),
            ));
        }
    }
    let mut replacements = Vec::new();
    for r in &setup.replacements {
        let (Some(new), Some(dead)) = (pc(&r.character), pc(&r.replaces)) else {
            return Err(RuleError::setup(
                "IT-66",
                "a replacement and the PC it replaces are both PCs of the table",
            ));
        };
        if new.dead || !dead.dead || new.controller != dead.controller {
            return Err(RuleError::setup(
                "IT-66",
                format!(
                    "{} continues the tradition of its own player's dead PC",
                    new.name
                ),
            ));
        }
        if r.levels_left == 0 || r.levels_left > creation::MAX_REPLACEMENT_LEVEL {
            return Err(RuleError::setup(
                "IT-66",
                format!(
                    "a replacement has 1 to {} level-ups left",
                    creation::MAX_REPLACEMENT_LEVEL
                ),
            ));
        }
        if replacements
            .iter()
            .any(|x: &Replacement| x.character == new.name)
        {
            return Err(RuleError::setup("IT-66", "a replacement is listed twice"));
        }
        replacements.push(Replacement {
            character: new.name.clone(),
            replaces: dead.name.clone(),
            levels_left: r.levels_left,
            moves: dead.moves.clone(),
            combos: dead.combos.clone(),
        });
    }
    if let Some(description) = &setup.open_problem {
        if setup.session_ending {
            return Err(RuleError::setup(
                "IT-60",
                "no problem is open once the session has ended",
            ));
        }
        non_empty(description, "IT-15", "a problem's description").map_err(as_setup)?;
        crate::limits::text(description, "IT-15", "a problem's description").map_err(as_setup)?;
        if setup.problems_opened == 0 {
            return Err(RuleError::setup(
                "IT-15",
                "the open problem is one of the problems opened: count it",
            ));
        }
        table.campaign.problem = Some(Problem {
            number: setup.problems_opened,
            description: description.trim().to_string(),
            commitments: Vec::new(),
            revealed: false,
            stage: Stage::Choosing,
            rejected: Vec::new(),
            vetoed: None,
            vetoes: Vec::new(),
        });
    }
    table.campaign.replacements = replacements;
    table.campaign.session_ending = setup.session_ending;
    table.campaign.levelled_this_session = setup.levelled_this_session.clone();
    Ok(())
}

fn as_setup(e: RuleError) -> RuleError {
    match e {
        RuleError::IllegalMove { rule, reason } => RuleError::setup(rule, reason),
        other => other,
    }
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
                    format!(
                        "two countdowns are called {}",
                        crate::limits::shown(&c.name)
                    ),
                ));
            }
            built.push(c);
        }
        if let Some((_, n)) = setup
            .last_decided
            .iter()
            .find(|(_, n)| **n > setup.problems_opened)
        {
            return Err(RuleError::setup(
                "IT-17",
                format!(
                    "a player cannot have decided the problem numbered {n}: only {} were opened",
                    setup.problems_opened
                ),
            ));
        }
        if setup.closed_problems.len() > crate::limits::MAX_CLOSED_PROBLEMS {
            return Err(RuleError::setup(
                "IT-20",
                format!(
                    "a setup remembers at most {} resolved problems",
                    crate::limits::MAX_CLOSED_PROBLEMS
                ),
            ));
        }
        for d in &setup.closed_problems {
            crate::limits::text(d, "IT-20", "a problem's description").map_err(as_setup)?;
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
            closed_problems: setup
                .closed_problems
                .iter()
                .map(|d| d.trim().to_string())
                .collect(),
            last_decided: setup.last_decided.clone(),
            rests: Rests {
                due: setup.rest_due,
                breather_used: setup.breather_used,
                short_rest_used: setup.short_rest_used,
            },
            replacements: Vec::new(),
            handed_in: Vec::new(),
        })
    }

    pub fn replacement(&self, name: &str) -> Option<&Replacement> {
        self.replacements.iter().find(|r| r.character == name)
    }
}

/// The seats a problem's reveal waits for (IT-2, IT-15).
pub fn problem_choosers(table: &Table) -> Vec<Seat> {
    problems::choosers(table)
}

/// The PCs with three yes marks that must level up before the next session (IT-60).
pub fn level_up_due(table: &Table) -> Vec<String> {
    level_up::eligible(table)
}

/// Called when a conflict has ended: the party may now rest (IT-31).
pub fn conflict_over(table: &mut Table) {
    table.campaign.rests.due = true;
}

/// A campaign command. In JSON: `{"type": "open_problem", "description": "..."}` etc.
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "iron-triangle/"))]
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
    /// The GM keeps the character a player handed in: it joins the table.
    KeepCharacter {
        seat: Seat,
    },
    /// The GM sends a handed-in character back to its player, saying why.
    SendBackCharacter {
        seat: Seat,
        comment: String,
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
    /// A player's character made during play waits for the GM's review.
    CharacterHandedIn {
        handed_in: Box<HandedIn>,
    },
    CharacterSentBack {
        seat: Seat,
        name: String,
        comment: String,
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
        C::KeepCharacter { seat: whose } => creation::keep(table, seat, *whose),
        C::SendBackCharacter {
            seat: whose,
            comment,
        } => creation::send_back(table, seat, *whose, comment),
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
        E::CharacterCreated { .. }
        | E::ReplacementCreated { .. }
        | E::CharacterHandedIn { .. }
        | E::CharacterSentBack { .. } => creation::apply(table, event),
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
            format!("{name} is not your character"),
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
