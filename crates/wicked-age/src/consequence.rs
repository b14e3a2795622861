//! Consequences of a knockout (WA-26 to WA-30): the winner picks a default, or winner and
//! loser agree an alternative that the loser may always refuse.

use clash_core::{RuleError, Seat, ensure};
use serde::{Deserialize, Serialize};

use crate::character::{Character, FormRef, NpcForm, PcForm, Sheet, Status};
use crate::conflict::{self, KnockoutCause};
use crate::dice::Die;
use crate::state::{Draft, Event};

/// The three default consequences (WA-27).
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "wicked-age/"))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DefaultConsequence {
    Exhausted,
    Injured,
    Shamed,
}

impl DefaultConsequence {
    pub fn label(self) -> &'static str {
        match self {
            DefaultConsequence::Exhausted => "exhausted",
            DefaultConsequence::Injured => "injured",
            DefaultConsequence::Shamed => "shamed",
        }
    }

    /// The forms that step down, for a PC or an NPC loser.
    pub fn forms(self, pc: bool) -> Vec<FormRef> {
        use DefaultConsequence::*;
        match (self, pc) {
            (Exhausted, true) => vec![
                FormRef::Pc(PcForm::Directly),
                FormRef::Pc(PcForm::WithViolence),
            ],
            (Injured, true) => vec![
                FormRef::Pc(PcForm::Covertly),
                FormRef::Pc(PcForm::ForOthers),
            ],
            (Shamed, true) => vec![
                FormRef::Pc(PcForm::WithLove),
                FormRef::Pc(PcForm::ForMyself),
            ],
            (Exhausted, false) => vec![FormRef::Npc(NpcForm::Action)],
            (Injured, false) => vec![FormRef::Npc(NpcForm::Maneuvering)],
            (Shamed, false) => vec![FormRef::Npc(NpcForm::SelfProtection)],
        }
    }
}

/// One cost of an agreed alternative. Every cost falls on the loser: the engine has no way to
/// name anyone else, and none that improves the winner (WA-27).
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "wicked-age/"))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Cost {
    /// The loser's form loses one size.
    StepDown { form: FormRef },
    /// The loser's strength die loses one size (to 0 = gone).
    StepDownStrength { strength: String },
    /// The loser's strength is removed.
    RemoveStrength { strength: String },
    /// The loser dies.
    Death {},
}

/// An agreed consequence other than the defaults (WA-27).
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "wicked-age/"))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Alternative {
    /// What happens, in words (including any promise, which the engine does not enforce).
    pub terms: String,
    #[serde(default)]
    pub costs: Vec<Cost>,
    /// WA-30: the winner waives the consequential strength's extra loss.
    #[serde(default)]
    pub waive_consequential: bool,
}

/// Where a (winner, loser) pair stands.
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "wicked-age/"))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "state", rename_all = "snake_case", deny_unknown_fields)]
pub enum Settlement {
    Open {
        /// An alternative on the table, waiting for the loser.
        alternative: Option<Alternative>,
        /// The loser has refused; only a default may follow.
        refused: bool,
    },
    Settled {},
}

/// A (winner, loser) pair created by a knockout (WA-24).
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "wicked-age/"))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Knockout {
    pub winner: String,
    pub loser: String,
    pub round: u8,
    pub cause: KnockoutCause,
    pub settlement: Settlement,
}

impl Knockout {
    /// The alternative on the table, waiting for the loser's answer.
    pub fn alternative(&self) -> Option<&Alternative> {
        match &self.settlement {
            Settlement::Open {
                alternative: Some(a),
                ..
            } => Some(a),
            _ => None,
        }
    }

    /// The loser refused any alternative: only a default may follow.
    pub fn refused(&self) -> bool {
        matches!(self.settlement, Settlement::Open { refused: true, .. })
    }

    pub fn is_settled(&self) -> bool {
        self.settlement == Settlement::Settled {}
    }
}

/// Why a form lost a size.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LossCause {
    Default,
    Alternative,
    /// WA-30.
    Consequential,
}

/// The open pair whose loser is `loser`, and the seats of its winner and loser.
fn open_pair(d: &Draft, loser: &str) -> Result<(Knockout, Seat, Seat), RuleError> {
    let conflict = d
        .state
        .conflict
        .as_ref()
        .ok_or_else(|| RuleError::illegal("WA-27", "no conflict has consequences to settle"))?;
    let k = conflict
        .open_knockouts()
        .find(|k| k.loser == loser)
        .cloned()
        .ok_or_else(|| RuleError::illegal("WA-27", format!("{loser} has no unsettled knockout")))?;
    let seat_of = |n: &str| d.state.character(n).map(|c| c.controller);
    let winner_seat =
        seat_of(&k.winner).ok_or_else(|| RuleError::illegal("WA-27", "unknown winner"))?;
    let loser_seat =
        seat_of(&k.loser).ok_or_else(|| RuleError::illegal("WA-27", "unknown loser"))?;
    Ok((k, winner_seat, loser_seat))
}

/// WA-27: the winner picks a default consequence.
pub fn choose(
    d: &mut Draft,
    seat: Seat,
    loser: &str,
    consequence: DefaultConsequence,
    waive: bool,
) -> Result<(), RuleError> {
    let (k, winner_seat, _) = open_pair(d, loser)?;
    if seat != winner_seat {
        return Err(RuleError::not_your_call(
            "WA-27",
            seat,
            format!("{} picks the consequence", k.winner),
        ));
    }
    d.emit(Event::ConsequenceChosen {
        winner: k.winner.clone(),
        loser: loser.to_string(),
        consequence,
    });
    let pc = d.state.character(loser).is_some_and(Character::is_pc);
    for form in consequence.forms(pc) {
        step_form(d, loser, form, LossCause::Default);
    }
    finish(d, &k, waive)
}

/// WA-27: the winner offers an alternative; the loser may accept or refuse it.
pub fn propose(
    d: &mut Draft,
    seat: Seat,
    loser: &str,
    alternative: Alternative,
) -> Result<(), RuleError> {
    let (k, winner_seat, _) = open_pair(d, loser)?;
    if seat != winner_seat {
        return Err(RuleError::not_your_call(
            "WA-27",
            seat,
            format!("{} offers the alternatives", k.winner),
        ));
    }
    if let Settlement::Open { refused: true, .. } = k.settlement {
        return Err(RuleError::illegal(
            "WA-27",
            format!("{loser} refused; {} now picks a default", k.winner),
        ));
    }
    let ch = d
        .state
        .character(loser)
        .ok_or_else(|| RuleError::illegal("WA-27", "unknown loser"))?;
    crate::limits::TABLE.text("an alternative's terms", &alternative.terms)?;
    if alternative.costs.len() > crate::limits::MAX_COSTS {
        return Err(RuleError::illegal(
            crate::limits::LIMIT,
            format!(
                "an alternative has at most {} costs (a table limit)",
                crate::limits::MAX_COSTS
            ),
        ));
    }
    for cost in &alternative.costs {
        check_cost(ch, cost)?;
    }
    if k.alternative() == Some(&alternative) {
        return Err(RuleError::illegal(
            "WA-27",
            format!("{} has already offered {loser} this", k.winner),
        ));
    }
    d.emit(Event::AlternativeProposed {
        winner: k.winner.clone(),
        loser: loser.to_string(),
        alternative,
    });
    Ok(())
}

/// WA-27: costs must be the loser's own forms and strengths.
fn check_cost(loser: &Character, cost: &Cost) -> Result<(), RuleError> {
    match cost {
        Cost::StepDown { form } => ensure(loser.form_dice(*form).is_some(), "WA-27", || {
            format!("{} has no form {}", loser.name, form.label())
        }),
        Cost::StepDownStrength { strength } | Cost::RemoveStrength { strength } => {
            ensure(loser.strength(strength).is_some(), "WA-27", || {
                format!("{} has no strength {strength}", loser.name)
            })
        }
        Cost::Death {} => Ok(()),
    }
}

/// WA-27: the loser accepts the alternative on the table.
pub fn accept(d: &mut Draft, seat: Seat, loser: &str) -> Result<(), RuleError> {
    let (k, _, loser_seat) = open_pair(d, loser)?;
    if seat != loser_seat {
        return Err(RuleError::not_your_call(
            "WA-27",
            seat,
            format!("{loser}'s player accepts or refuses"),
        ));
    }
    let Settlement::Open {
        alternative: Some(alt),
        ..
    } = &k.settlement
    else {
        return Err(RuleError::illegal(
            "WA-27",
            "no alternative has been offered",
        ));
    };
    let alt = alt.clone();
    d.emit(Event::AlternativeAccepted {
        loser: loser.to_string(),
    });
    for cost in &alt.costs {
        pay(d, loser, cost);
    }
    finish(d, &k, alt.waive_consequential)
}

/// WA-27: the loser refuses any alternative; the winner must now pick a default.
pub fn refuse(d: &mut Draft, seat: Seat, loser: &str) -> Result<(), RuleError> {
    let (k, _, loser_seat) = open_pair(d, loser)?;
    if seat != loser_seat {
        return Err(RuleError::not_your_call(
            "WA-27",
            seat,
            format!("{loser}'s player accepts or refuses"),
        ));
    }
    if k.refused() && k.alternative().is_none() {
        return Err(RuleError::illegal(
            "WA-27",
            format!("{loser} has already refused: {} picks a default", k.winner),
        ));
    }
    d.emit(Event::AlternativeRefused {
        loser: loser.to_string(),
    });
    Ok(())
}

fn pay(d: &mut Draft, loser: &str, cost: &Cost) {
    match cost {
        Cost::StepDown { form } => step_form(d, loser, *form, LossCause::Alternative),
        Cost::StepDownStrength { strength } => {
            step_strength(d, loser, strength, |die| die.step_down())
        }
        Cost::RemoveStrength { strength } => step_strength(d, loser, strength, |_| Die::Zero),
        Cost::Death {} => {
            if d.state
                .character(loser)
                .is_some_and(|c| c.status != Status::Dead)
            {
                d.emit(Event::Died {
                    character: loser.to_string(),
                });
            }
        }
    }
}

/// WA-28: the named form steps down once; a form already at 0 is unaffected.
fn step_form(d: &mut Draft, name: &str, form: FormRef, cause: LossCause) {
    let Some(ch) = d.state.character(name) else {
        return;
    };
    let (Some(from), Some(to)) = (ch.form_dice(form), ch.stepped_form(form)) else {
        return;
    };
    if from != to {
        d.emit(Event::FormLost {
            character: name.to_string(),
            form,
            from,
            to,
            cause,
        });
    }
}

fn step_strength(d: &mut Draft, name: &str, strength: &str, step: impl Fn(Die) -> Die) {
    let Some(s) = d.state.character(name).and_then(|c| c.strength(strength)) else {
        return;
    };
    let (from, to) = (s.die, step(s.die));
    if from != to {
        d.emit(Event::StrengthLost {
            character: name.to_string(),
            strength: strength.to_string(),
            from,
            to,
        });
    }
}

/// WA-28 order: the chosen losses (already applied), then WA-30, then the out-of-chapter check.
fn finish(d: &mut Draft, k: &Knockout, waive: bool) -> Result<(), RuleError> {
    if !waive {
        let used = d
            .state
            .conflict
            .as_ref()
            .and_then(|c| c.participant(&k.winner))
            .map(|p| p.consequential_used.clone())
            .unwrap_or_default();
        let pc = d.state.character(&k.loser).is_some_and(Character::is_pc);
        for u in used {
            let form = if pc {
                FormRef::Pc(u.pc_form)
            } else {
                FormRef::Npc(u.npc_form)
            };
            step_form(d, &k.loser, form, LossCause::Consequential);
        }
    }
    let out = d
        .state
        .character(&k.loser)
        .is_some_and(|c| c.status == Status::Active && c.has_two_forms_at_zero());
    if out {
        d.emit(Event::OutOfChapter {
            character: k.loser.clone(),
        });
    }
    d.emit(Event::PairSettled {
        winner: k.winner.clone(),
        loser: k.loser.clone(),
    });
    conflict::close_if_settled(d);
    Ok(())
}

/// A sheet's kind, for sampling alternatives.
pub fn first_form(ch: &Character) -> FormRef {
    match ch.sheet {
        Sheet::Pc { .. } => FormRef::Pc(PcForm::Covertly),
        Sheet::Npc { .. } => FormRef::Npc(NpcForm::Maneuvering),
    }
}
