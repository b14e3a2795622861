//! The campaign table as it stands ([`State`]) and how each event changes it.

use std::collections::HashSet;

use clash_core::RuleError;
use serde::{Deserialize, Serialize};

use crate::character::{Character, CharacterSpec, Status};
use crate::conflict::{
    Conflict, ConsequentialUse, EndProposal, Exchange, Participant, Pending, Stage,
};
use crate::consequence::{Knockout, Settlement};
use crate::limits;
use crate::owe::{OracleClaim, OweEntry, Return};
use crate::roll::Roll;
use crate::variant::Rules;

pub use crate::command::Event;
pub use crate::setup::Setup;

/// Everything on the table. Nothing in it is hidden: sheets, dice and the Owe List are public.
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "wicked-age/"))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct State {
    pub chapter: u32,
    pub characters: Vec<Character>,
    /// WA-14: oldest first.
    pub owe_list: Vec<OweEntry>,
    /// The conflict in progress, or ended with consequences still to settle.
    pub conflict: Option<Conflict>,
    /// The most recent closed conflict, kept for reading back.
    pub last_conflict: Option<Conflict>,
    /// WA-17.1: who picks the Oracle for the current chapter, and what they picked.
    pub oracle: Option<OracleClaim>,
    /// WA-17.1 / WA-17.2: characters due back in a later chapter.
    pub returning: Vec<Return>,
    /// The numbers this table's rules use ([`crate::variant`]).
    #[serde(default, skip_serializing_if = "Rules::is_default")]
    pub rules: Rules,
}

impl State {
    pub fn from_setup(setup: &Setup) -> Result<State, RuleError> {
        let rules = Rules::of(setup.variant.as_ref())?;
        if setup.characters.is_empty() {
            return Err(RuleError::setup("WA-19", "a table needs characters"));
        }
        limits::TABLE.setup_count("characters", setup.characters.len(), limits::MAX_CHARACTERS)?;
        limits::TABLE.setup_count(
            "Owe List entries",
            setup.owe_list.len(),
            limits::MAX_OWE_LIST,
        )?;
        if setup.chapter == 0 || setup.chapter > limits::MAX_CHAPTER {
            return Err(RuleError::setup(
                limits::LIMIT,
                format!("chapters are numbered 1 to {}", limits::MAX_CHAPTER),
            ));
        }
        let characters = setup
            .characters
            .iter()
            .map(CharacterSpec::build)
            .collect::<Result<Vec<_>, _>>()?;
        let mut names = HashSet::new();
        for c in &characters {
            if !names.insert(c.name.as_str()) {
                return Err(RuleError::setup(
                    "WA-2",
                    format!("two characters are called {}", c.name),
                ));
            }
        }
        check_unique_strengths(&characters)?;
        for entry in &setup.owe_list {
            let pc = characters
                .iter()
                .find(|c| c.name == entry.character && c.is_pc());
            match pc {
                None => {
                    return Err(RuleError::setup(
                        "WA-14",
                        format!(
                            "{} is not a PC at this table; only PCs go on the Owe List",
                            entry.character
                        ),
                    ));
                }
                Some(pc) if pc.controller != entry.player => {
                    return Err(RuleError::setup(
                        "WA-14",
                        format!(
                            "an Owe List entry records the player who controls {}",
                            pc.name
                        ),
                    ));
                }
                Some(_) => {}
            }
        }
        let mut state = State {
            chapter: setup.chapter,
            characters,
            owe_list: setup.owe_list.clone(),
            conflict: None,
            last_conflict: None,
            oracle: None,
            returning: Vec::new(),
            rules,
        };
        crate::position::resume(&mut state, setup)?;
        Ok(state)
    }

    pub fn character(&self, name: &str) -> Option<&Character> {
        self.characters.iter().find(|c| c.name == name)
    }

    fn character_mut(&mut self, name: &str) -> Option<&mut Character> {
        self.characters.iter_mut().find(|c| c.name == name)
    }

    /// The open conflict, if it has not ended yet.
    pub fn live_conflict(&self) -> Option<&Conflict> {
        self.conflict.as_ref().filter(|c| c.ended.is_none())
    }
}

/// WA-9 (Unique): a unique strength appears on one sheet only.
fn check_unique_strengths(characters: &[Character]) -> Result<(), RuleError> {
    for (i, c) in characters.iter().enumerate() {
        for s in c.strengths.iter().filter(|s| s.is_unique()) {
            let elsewhere = characters
                .iter()
                .enumerate()
                .any(|(j, o)| j != i && o.strength(&s.name).is_some());
            if elsewhere {
                return Err(RuleError::setup(
                    "WA-9",
                    format!(
                        "{} is unique to {} and may not be on another sheet",
                        s.name, c.name
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// A state being decided on: every emitted event is applied at once, so later checks in the
/// same command see its effect. Dropped on error, leaving the real state untouched.
pub struct Draft {
    pub state: State,
    pub events: Vec<Event>,
}

impl Draft {
    pub fn new(state: &State) -> Draft {
        Draft {
            state: state.clone(),
            events: Vec::new(),
        }
    }

    pub fn emit(&mut self, event: Event) {
        apply(&mut self.state, &event);
        self.events.push(event);
    }

    pub fn conflict(&self) -> Result<&Conflict, RuleError> {
        self.state
            .live_conflict()
            .ok_or_else(|| RuleError::illegal("WA-19", "no conflict is in progress"))
    }
}

/// Fold one event into the state. Never fails, never rolls.
pub fn apply(state: &mut State, event: &Event) {
    match event {
        Event::ConflictStarted {
            participants,
            action,
        } => {
            state.conflict = Some(Conflict::new(participants, action));
        }
        Event::OweCashedIn { pc, position, .. } => {
            if *position < state.owe_list.len() {
                state.owe_list.remove(*position);
            }
            with_participant(state, pc, |p| p.owe_die = true);
        }
        Event::InitiativeRolled {
            character,
            choice,
            roll,
        } => {
            let round = state.conflict.as_ref().map_or(0, |c| c.round);
            let used = consequential_use(state, character, roll);
            with_participant(state, character, |p| {
                p.initiative = Some(crate::conflict::InitiativeRoll {
                    choice: choice.clone(),
                    roll: roll.clone(),
                    rerolls: Vec::new(),
                });
                if round == 1 {
                    p.round_one_dice = roll.form_sizes();
                }
                p.note_use(used);
            });
        }
        Event::InitiativeTieRerolled { character, roll } => {
            let used = consequential_use(state, character, roll);
            with_participant(state, character, |p| {
                if let Some(init) = p.initiative.as_mut() {
                    init.rerolls.push(roll.clone());
                }
                p.note_use(used);
            });
        }
        Event::InitiativeOrdered { order, standing } => {
            if let Some(c) = state.conflict.as_mut() {
                c.order = order.clone();
                c.standing = Some(standing.clone());
                c.stage = Stage::Turns;
                c.proposal = None;
            }
        }
        Event::Challenged {
            challenger,
            target,
            roll,
            standing,
        } => {
            let used = consequential_use(state, challenger, roll);
            if let Some(c) = state.conflict.as_mut() {
                if *standing {
                    c.standing = None;
                }
                c.pending = Some(Pending {
                    challenger: challenger.clone(),
                    target: target.clone(),
                    roll: roll.clone(),
                });
                if c.round == 1 {
                    c.round_one_pairs.push([challenger.clone(), target.clone()]);
                }
            }
            with_participant(state, challenger, |p| {
                p.turn_used = true;
                p.note_use(used);
            });
        }
        Event::Answered {
            answerer,
            challenger,
            roll,
            outcome,
        } => {
            let used = consequential_use(state, answerer, roll);
            if let Some(c) = state.conflict.as_mut()
                && let Some(p) = c.pending.take()
            {
                c.exchanges.push(Exchange {
                    round: c.round,
                    challenger: challenger.clone(),
                    answerer: answerer.clone(),
                    challenge: p.roll.value,
                    answer: roll.value,
                    outcome: *outcome,
                });
            }
            with_participant(state, answerer, |p| {
                p.turn_used = true;
                p.note_use(used);
            });
        }
        Event::AdvantageTaken { by, .. } => {
            if let Some(c) = state.conflict.as_mut() {
                c.advantage = Some(by.clone());
            }
        }
        Event::AdvantageDropped { .. } => {
            if let Some(c) = state.conflict.as_mut() {
                c.advantage = None;
            }
        }
        Event::KnockedOut {
            loser,
            winner,
            cause,
        } => {
            if let Some(c) = state.conflict.as_mut() {
                let round = c.round;
                c.knockouts.push(Knockout {
                    winner: winner.clone(),
                    loser: loser.clone(),
                    round,
                    cause: *cause,
                    settlement: Settlement::Open {
                        alternative: None,
                        refused: false,
                    },
                });
            }
            with_participant(state, loser, |p| p.in_conflict = false);
        }
        Event::EndProposed { character, terms } => {
            if let Some(c) = state.conflict.as_mut() {
                c.proposal = Some(EndProposal {
                    terms: terms.clone(),
                    agreed: vec![character.clone()],
                });
            }
        }
        Event::EndAgreed { character } => {
            if let Some(p) = state.conflict.as_mut().and_then(|c| c.proposal.as_mut()) {
                p.agreed.push(character.clone());
            }
        }
        Event::RoundEnded { .. } => {}
        Event::OweEntryAdded { entry, .. } => state.owe_list.push(entry.clone()),
        Event::RoundStarted { round } => {
            if let Some(c) = state.conflict.as_mut() {
                c.start_round(*round);
            }
        }
        Event::ConflictEnded { reason } => {
            if let Some(c) = state.conflict.as_mut() {
                c.ended = Some(reason.clone());
                c.stage = Stage::Over;
                // WA-26: the Advantage die and every Owe d6 vanish with the conflict.
                c.advantage = None;
                c.pending = None;
                for p in &mut c.participants {
                    p.owe_die = false;
                }
            }
        }
        Event::ConsequenceChosen { .. } => {}
        Event::AlternativeProposed {
            loser, alternative, ..
        } => {
            with_knockout(state, loser, |k| {
                if let Settlement::Open {
                    alternative: slot, ..
                } = &mut k.settlement
                {
                    *slot = Some(alternative.clone());
                }
            });
        }
        Event::AlternativeRefused { loser } => {
            with_knockout(state, loser, |k| {
                k.settlement = Settlement::Open {
                    alternative: None,
                    refused: true,
                }
            });
        }
        Event::AlternativeAccepted { .. } => {}
        Event::FormLost {
            character,
            form,
            to,
            ..
        } => {
            if let Some(ch) = state.character_mut(character) {
                ch.set_form(*form, to);
            }
        }
        Event::StrengthLost {
            character,
            strength,
            to,
            ..
        } => {
            if let Some(s) = state
                .character_mut(character)
                .and_then(|c| c.strengths.iter_mut().find(|s| &s.name == strength))
            {
                s.die = *to;
            }
        }
        Event::Died { character } => set_status(state, character, Status::Dead),
        Event::OutOfChapter { character } => set_status(state, character, Status::OutOfChapter),
        Event::PairSettled { loser, .. } => {
            with_knockout(state, loser, |k| k.settlement = Settlement::Settled {})
        }
        Event::ConflictClosed => {
            state.last_conflict = state.conflict.take();
        }
        Event::ChapterEnded { chapter } => {
            state.chapter = *chapter;
            state.oracle = None;
        }
        Event::OracleClaimed { chapter, entry } => {
            if !state.owe_list.is_empty() {
                state.owe_list.remove(0);
            }
            state.returning.push(Return {
                character: entry.character.clone(),
                crossed_off_in_chapter: chapter.saturating_sub(1),
                by: entry.player,
            });
            state.oracle = Some(OracleClaim {
                chapter: *chapter,
                entry: entry.clone(),
                oracle: None,
                story_element: None,
            });
        }
        Event::OracleChosen {
            oracle,
            story_element,
            ..
        } => {
            if let Some(claim) = state.oracle.as_mut() {
                claim.oracle = Some(oracle.clone());
                claim.story_element = Some(story_element.clone());
            }
        }
        Event::BroughtBack {
            character,
            by,
            position,
        } => {
            if *position < state.owe_list.len() {
                state.owe_list.remove(*position);
            }
            state.returning.push(Return {
                character: character.clone(),
                crossed_off_in_chapter: state.chapter,
                by: *by,
            });
        }
    }
}

fn with_participant(state: &mut State, name: &str, f: impl FnOnce(&mut Participant)) {
    if let Some(p) = state
        .conflict
        .as_mut()
        .and_then(|c| c.participants.iter_mut().find(|p| p.name == name))
    {
        f(p);
    }
}

fn with_knockout(state: &mut State, loser: &str, f: impl FnOnce(&mut Knockout)) {
    if let Some(k) = state
        .conflict
        .as_mut()
        .and_then(|c| c.knockouts.iter_mut().find(|k| k.loser == loser))
    {
        f(k);
    }
}

fn set_status(state: &mut State, name: &str, status: Status) {
    if let Some(c) = state.character_mut(name) {
        c.status = status;
    }
}

/// WA-30: the consequential strength this roll added, if it added one.
fn consequential_use(state: &State, character: &str, roll: &Roll) -> Option<ConsequentialUse> {
    let name = roll.strength()?;
    let strength = state.character(character)?.strength(name)?;
    let (pc_form, npc_form) = strength.consequential()?;
    Some(ConsequentialUse {
        strength: name.to_string(),
        pc_form,
        npc_form,
    })
}
