//! The conflict procedure (WA-19 to WA-26): rounds, initiative, challenges and answers, the
//! Advantage die, knockouts, and negotiation at the start of rounds 2 and 3.

use clash_core::{Randomness, RuleError, Seat, ensure};
use serde::{Deserialize, Serialize};

use crate::character::{Character, NpcForm, PcForm, Sheet, Status};
use crate::consequence::Knockout;
use crate::limits;
use crate::owe;
use crate::roll::{DieSource, Outcome, Roll, RollChoice, RollValue, RolledDie, Table, judge};
use crate::state::{Draft, Event};

/// Where a round stands.
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "wicked-age/"))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stage {
    /// Rolling initiative; in rounds 2 and 3 also the chance to negotiate, until someone rolls.
    Initiative,
    /// Challenges and answers in initiative order.
    Turns,
    /// The conflict has ended; only consequences remain.
    Over,
}

/// A participant's initiative roll and any tie rerolls (WA-22).
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "wicked-age/"))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InitiativeRoll {
    pub choice: RollChoice,
    pub roll: Roll,
    pub rerolls: Vec<Roll>,
}

impl InitiativeRoll {
    /// The roll that counts for the order: the last reroll, or the roll itself.
    pub fn last(&self) -> &Roll {
        self.rerolls.last().unwrap_or(&self.roll)
    }
}

/// A consequential strength a participant added to one of their rolls (WA-30).
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "wicked-age/"))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConsequentialUse {
    pub strength: String,
    pub pc_form: PcForm,
    pub npc_form: NpcForm,
}

/// One character in a conflict. In a position, only `name` is needed: the rest defaults to
/// a participant still in who has not acted this round.
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "wicked-age/"))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Participant {
    pub name: String,
    /// False once knocked out (WA-24).
    #[serde(default = "yes")]
    pub in_conflict: bool,
    /// This round's turn is spent, by challenging or by answering (WA-23).
    #[serde(default)]
    pub turn_used: bool,
    /// WA-18: an Owe d6 cashed in for this conflict.
    #[serde(default)]
    pub owe_die: bool,
    #[serde(default)]
    pub initiative: Option<InitiativeRoll>,
    /// WA-16: form-die sizes rolled for round-1 initiative, largest first.
    #[serde(default)]
    pub round_one_dice: Vec<u32>,
    #[serde(default)]
    pub consequential_used: Vec<ConsequentialUse>,
}

fn yes() -> bool {
    true
}

fn first_round() -> u8 {
    1
}

fn initiative() -> Stage {
    Stage::Initiative
}

impl Participant {
    pub fn note_use(&mut self, used: Option<ConsequentialUse>) {
        if let Some(u) = used
            && !self.consequential_used.contains(&u)
        {
            self.consequential_used.push(u);
        }
    }
}

/// A challenge waiting for its answer.
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "wicked-age/"))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Pending {
    pub challenger: String,
    pub target: String,
    pub roll: Roll,
}

/// One challenge and its answer, kept for the record.
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "wicked-age/"))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Exchange {
    pub round: u8,
    pub challenger: String,
    pub answerer: String,
    pub challenge: RollValue,
    pub answer: RollValue,
    pub outcome: Outcome,
}

/// How a participant was knocked out.
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "wicked-age/"))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum KnockoutCause {
    Exchange,
    /// WA-25: conceding to a named opponent.
    Concession,
}

/// An ending offered at the start of round 2 or 3 (WA-25), and who has agreed so far.
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "wicked-age/"))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EndProposal {
    pub terms: String,
    pub agreed: Vec<String>,
}

/// Why a conflict ended (WA-24).
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "wicked-age/"))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum EndReason {
    /// Fewer than two participants remain.
    Knockouts {},
    /// Round 3 is over.
    RoundThreeOver {},
    /// Everyone remaining agreed (WA-25); no automatic die losses.
    Agreement { terms: String },
}

/// A conflict in progress or awaiting its consequences. In a position, everything but the
/// participants has a default: round 1, initiative not yet rolled, nothing else happened.
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "wicked-age/"))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Conflict {
    #[serde(default)]
    pub action: String,
    #[serde(default = "first_round")]
    pub round: u8,
    #[serde(default = "initiative")]
    pub stage: Stage,
    pub participants: Vec<Participant>,
    /// WA-20: who holds the Advantage die.
    #[serde(default)]
    pub advantage: Option<String>,
    /// This round's initiative order, highest first.
    #[serde(default)]
    pub order: Vec<String>,
    /// The first participant's initiative roll, until it is used as their challenge.
    #[serde(default)]
    pub standing: Option<Roll>,
    #[serde(default)]
    pub pending: Option<Pending>,
    /// Every exchange of the conflict so far, in order.
    #[serde(default)]
    pub exchanges: Vec<Exchange>,
    /// (challenger, target) of every round-1 challenge (WA-16 opponents).
    #[serde(default)]
    pub round_one_pairs: Vec<[String; 2]>,
    #[serde(default)]
    pub knockouts: Vec<Knockout>,
    #[serde(default)]
    pub proposal: Option<EndProposal>,
    #[serde(default)]
    pub ended: Option<EndReason>,
}

impl Conflict {
    pub fn new(names: &[String], action: &str) -> Conflict {
        let participants = names
            .iter()
            .map(|n| Participant {
                name: n.clone(),
                in_conflict: true,
                turn_used: false,
                owe_die: false,
                initiative: None,
                round_one_dice: Vec::new(),
                consequential_used: Vec::new(),
            })
            .collect();
        Conflict {
            action: action.to_string(),
            round: 1,
            stage: Stage::Initiative,
            participants,
            advantage: None,
            order: Vec::new(),
            standing: None,
            pending: None,
            exchanges: Vec::new(),
            round_one_pairs: Vec::new(),
            knockouts: Vec::new(),
            proposal: None,
            ended: None,
        }
    }

    pub fn start_round(&mut self, round: u8) {
        self.round = round;
        self.stage = Stage::Initiative;
        self.order.clear();
        self.standing = None;
        self.pending = None;
        self.proposal = None;
        for p in &mut self.participants {
            p.turn_used = false;
            p.initiative = None;
        }
    }

    pub fn participant(&self, name: &str) -> Option<&Participant> {
        self.participants.iter().find(|p| p.name == name)
    }

    pub fn remaining(&self) -> impl Iterator<Item = &Participant> {
        self.participants.iter().filter(|p| p.in_conflict)
    }

    pub fn is_in(&self, name: &str) -> bool {
        self.participant(name).is_some_and(|p| p.in_conflict)
    }

    /// WA-23: whose turn it is to challenge: the first in initiative order still in with an
    /// unused turn. `None` while a challenge awaits its answer or when the round is done.
    pub fn next_challenger(&self) -> Option<&str> {
        if self.stage != Stage::Turns || self.pending.is_some() {
            return None;
        }
        self.order.iter().map(String::as_str).find(|n| {
            self.participant(n)
                .is_some_and(|p| p.in_conflict && !p.turn_used)
        })
    }

    /// WA-25: negotiation is open at the start of rounds 2 and 3, before anyone rolls.
    pub fn negotiation_open(&self) -> bool {
        self.ended.is_none()
            && self.round >= 2
            && self.stage == Stage::Initiative
            && self.participants.iter().all(|p| p.initiative.is_none())
    }

    /// WA-16: a participant's round-1 opponents.
    pub fn round_one_opponents_of(&self, name: &str) -> Vec<String> {
        if self.participants.len() == 2 {
            return self
                .participants
                .iter()
                .filter(|p| p.name != name)
                .map(|p| p.name.clone())
                .collect();
        }
        let mut out: Vec<String> = Vec::new();
        for [a, b] in &self.round_one_pairs {
            let other = if a == name {
                b
            } else if b == name {
                a
            } else {
                continue;
            };
            if !out.contains(other) {
                out.push(other.clone());
            }
        }
        out
    }

    pub fn open_knockouts(&self) -> impl Iterator<Item = &Knockout> {
        self.knockouts.iter().filter(|k| !k.is_settled())
    }
}

/// WA-19: start a conflict between two or more available characters.
pub fn start(d: &mut Draft, seat: Seat, names: &[String], action: &str) -> Result<(), RuleError> {
    ensure(d.state.conflict.is_none(), "WA-19", || {
        "a conflict is already open (or its consequences are unsettled)".to_string()
    })?;
    ensure(names.len() >= 2, "WA-19", || {
        "a conflict needs at least two characters".to_string()
    })?;
    if names.len() > limits::MAX_PARTICIPANTS {
        return Err(RuleError::illegal(
            limits::LIMIT,
            format!(
                "at most {} characters take part in one conflict (a table limit)",
                limits::MAX_PARTICIPANTS
            ),
        ));
    }
    limits::TABLE.text("the action", action)?;
    for (i, name) in names.iter().enumerate() {
        ensure(!names[..i].contains(name), "WA-19", || {
            format!("{name} is listed twice")
        })?;
        let ch = d
            .state
            .character(name)
            .ok_or_else(|| RuleError::illegal("WA-19", format!("no character {name}")))?;
        available(ch)?;
    }
    let controls_one = names
        .iter()
        .any(|n| d.state.character(n).is_some_and(|c| c.controller == seat));
    if seat != Seat::Gm && !controls_one {
        return Err(RuleError::not_your_call(
            "WA-19",
            seat,
            "start a conflict involving a character you control",
        ));
    }
    d.emit(Event::ConflictStarted {
        participants: names.to_vec(),
        action: action.to_string(),
    });
    Ok(())
}

/// WA-4 / WA-8: characters out of the chapter (or dead) cannot start or join conflicts.
fn available(ch: &Character) -> Result<(), RuleError> {
    match (ch.status, ch.is_pc()) {
        (Status::Active, _) => Ok(()),
        (Status::OutOfChapter, true) => Err(RuleError::illegal(
            "WA-4",
            format!("{} is out of the chapter", ch.name),
        )),
        (Status::OutOfChapter, false) => Err(RuleError::illegal(
            "WA-8",
            format!("{} is out of the chapter", ch.name),
        )),
        (Status::Dead, _) => Err(RuleError::illegal("WA-27", format!("{} is dead", ch.name))),
    }
}

/// The character `name`, if `seat` controls it; `rule` names the step being taken.
fn controlled<'a>(
    d: &'a Draft,
    seat: Seat,
    name: &str,
    rule: &'static str,
) -> Result<&'a Character, RuleError> {
    let ch = d
        .state
        .character(name)
        .ok_or_else(|| RuleError::illegal(rule, format!("no character {name}")))?;
    if ch.controller != seat {
        return Err(RuleError::not_your_call(
            rule,
            seat,
            format!("{name} is not yours to play"),
        ));
    }
    Ok(ch)
}

/// WA-3, WA-7, WA-8, WA-10: the dice a choice rolls, before bonus dice.
fn chosen_dice(ch: &Character, choice: &RollChoice) -> Result<Vec<(DieSource, u32)>, RuleError> {
    let mut dice = Vec::new();
    match &ch.sheet {
        Sheet::Pc { forms } => {
            ensure(choice.form.is_none(), "WA-3", || {
                "a PC rolls two of its six forms (give `forms`)".to_string()
            })?;
            let [a, b] = choice.forms.as_slice() else {
                return Err(RuleError::illegal(
                    "WA-3",
                    "a PC roll uses exactly two forms",
                ));
            };
            ensure(a != b, "WA-3", || {
                "the two forms must be different".to_string()
            })?;
            for f in [*a, *b] {
                let die = forms.get(f);
                ensure(!die.is_zero(), "WA-3", || {
                    format!("{} is at 0 and cannot be chosen", f.label())
                })?;
                dice.push((DieSource::PcForm { form: f }, die.sides()));
            }
        }
        Sheet::Npc { forms } => {
            ensure(choice.forms.is_empty(), "WA-7", || {
                "an NPC rolls a single form (give `form`)".to_string()
            })?;
            let form = choice
                .form
                .ok_or_else(|| RuleError::illegal("WA-7", "an NPC roll uses one form"))?;
            ensure(!forms.is_zero(form), "WA-8", || {
                format!("{} is at 0 and cannot be used", form.label())
            })?;
            for die in forms.get(form).iter().filter(|d| !d.is_zero()) {
                dice.push((DieSource::NpcForm { form }, die.sides()));
            }
        }
    }
    if let Some(name) = &choice.strength {
        let s = ch.strength(name).ok_or_else(|| {
            RuleError::illegal("WA-10", format!("{} has no strength {name}", ch.name))
        })?;
        ensure(!s.die.is_zero(), "WA-10", || {
            format!("{name} has lost its die")
        })?;
        let fits = match &ch.sheet {
            Sheet::Pc { .. } => choice.forms.iter().any(|f| s.pc_forms().contains(f)),
            Sheet::Npc { .. } => choice.form == Some(s.npc_form),
        };
        ensure(fits, "WA-10", || {
            format!("{name} goes with none of the forms rolled")
        })?;
        dice.push((DieSource::Strength { name: name.clone() }, s.die.sides()));
    }
    Ok(dice)
}

/// Throw a roll for a participant (WA-11): form dice, then the Advantage d6 if held, the Owe
/// d6 if cashed in, then the strength die. Scripts list faces in that order.
fn throw(
    d: &Draft,
    name: &str,
    choice: &RollChoice,
    rng: &mut dyn Randomness,
) -> Result<Roll, RuleError> {
    let ch = d
        .state
        .character(name)
        .ok_or_else(|| RuleError::illegal("WA-11", format!("no character {name}")))?;
    let conflict = d.conflict()?;
    let mut plan = chosen_dice(ch, choice)?;
    let strength = plan
        .iter()
        .position(|(s, _)| matches!(s, DieSource::Strength { .. }))
        .map(|i| plan.remove(i));
    let rules = d.state.rules;
    if conflict.advantage.as_deref() == Some(name) && rules.advantage > 0 {
        plan.push((DieSource::Advantage, u32::from(rules.advantage)));
    }
    if conflict.participant(name).is_some_and(|p| p.owe_die) {
        plan.push((DieSource::Owe, u32::from(rules.owe)));
    }
    plan.extend(strength);
    let mut dice = Vec::with_capacity(plan.len());
    for (source, sides) in plan {
        let face = rng.roll(sides)?;
        dice.push(RolledDie {
            source,
            sides,
            face,
        });
    }
    Ok(Roll::from_dice(dice))
}

/// WA-22: a participant rolls for initiative; once everyone has, ties are rerolled and the
/// order is set.
pub fn roll_initiative(
    d: &mut Draft,
    seat: Seat,
    name: &str,
    choice: &RollChoice,
    rng: &mut dyn Randomness,
) -> Result<(), RuleError> {
    controlled(d, seat, name, "WA-22")?;
    let conflict = d.conflict()?;
    ensure(conflict.stage == Stage::Initiative, "WA-21", || {
        "initiative has already been rolled this round".to_string()
    })?;
    let p = conflict
        .participant(name)
        .ok_or_else(|| RuleError::illegal("WA-22", format!("{name} is not in the conflict")))?;
    ensure(p.in_conflict, "WA-24", || {
        format!("{name} has been knocked out")
    })?;
    ensure(p.initiative.is_none(), "WA-22", || {
        format!("{name} has already rolled initiative")
    })?;
    let roll = throw(d, name, choice, rng)?;
    d.emit(Event::InitiativeRolled {
        character: name.to_string(),
        choice: choice.clone(),
        roll,
    });
    let conflict = d.conflict()?;
    if conflict.remaining().all(|p| p.initiative.is_some()) {
        order_initiative(d, rng)?;
    }
    Ok(())
}

/// Rerolls before giving up on separating tied participants (only a rigged source gets here).
const MAX_TIE_REROLLS: usize = 10_000;

/// WA-22: sort by roll; exactly equal rolls reroll with the same choices, only to sort
/// themselves, as often as needed.
fn order_initiative(d: &mut Draft, rng: &mut dyn Randomness) -> Result<(), RuleError> {
    let conflict = d.conflict()?;
    let mut keys: Vec<(String, Vec<RollValue>, RollChoice)> = conflict
        .remaining()
        .filter_map(|p| {
            p.initiative
                .as_ref()
                .map(|i| (p.name.clone(), vec![i.roll.value], i.choice.clone()))
        })
        .collect();
    for _ in 0..MAX_TIE_REROLLS {
        keys.sort_by(|a, b| b.1.cmp(&a.1));
        let tied: Vec<usize> = (0..keys.len())
            .filter(|&i| {
                keys.iter()
                    .enumerate()
                    .any(|(j, k)| j != i && k.1 == keys[i].1)
            })
            .collect();
        if tied.is_empty() {
            let order: Vec<String> = keys.iter().map(|k| k.0.clone()).collect();
            let first = order.first().cloned().unwrap_or_default();
            let standing = d
                .conflict()?
                .participant(&first)
                .and_then(|p| p.initiative.as_ref())
                .map(|i| i.last().clone())
                .ok_or_else(|| RuleError::illegal("WA-22", "nobody rolled initiative"))?;
            d.emit(Event::InitiativeOrdered { order, standing });
            return Ok(());
        }
        for i in tied {
            let (name, _, choice) = keys[i].clone();
            let roll = throw(d, &name, &choice, rng)?;
            keys[i].1.push(roll.value);
            d.emit(Event::InitiativeTieRerolled {
                character: name,
                roll,
            });
        }
    }
    Err(RuleError::illegal(
        "WA-22",
        "initiative ties could not be separated",
    ))
}

/// WA-23: the participant whose turn it is challenges another remaining participant.
pub fn challenge(
    d: &mut Draft,
    seat: Seat,
    name: &str,
    target: &str,
    choice: &RollChoice,
    rng: &mut dyn Randomness,
) -> Result<(), RuleError> {
    controlled(d, seat, name, "WA-23")?;
    let conflict = d.conflict()?;
    ensure(conflict.stage == Stage::Turns, "WA-21", || {
        "initiative comes before challenges".to_string()
    })?;
    if let Some(p) = &conflict.pending {
        return Err(RuleError::illegal(
            "WA-23",
            format!(
                "{} must first answer {}'s challenge",
                p.target, p.challenger
            ),
        ));
    }
    let next = conflict.next_challenger().unwrap_or_default();
    ensure(next == name, "WA-23", || {
        format!("it is {next}'s turn to challenge")
    })?;
    ensure(target != name, "WA-23", || {
        "challenge another participant".to_string()
    })?;
    ensure(conflict.participant(target).is_some(), "WA-23", || {
        format!("{target} is not in the conflict")
    })?;
    ensure(conflict.is_in(target), "WA-24", || {
        format!("{target} has been knocked out and cannot be targeted")
    })?;
    let first = conflict.order.first().map(String::as_str) == Some(name);
    let (roll, standing) = match (&conflict.standing, first) {
        (Some(standing), true) => {
            ensure(choice.is_empty(), "WA-22", || {
                "the first participant's initiative roll stands as the challenge".to_string()
            })?;
            (standing.clone(), true)
        }
        _ => (throw(d, name, choice, rng)?, false),
    };
    d.emit(Event::Challenged {
        challenger: name.to_string(),
        target: target.to_string(),
        roll,
        standing,
    });
    Ok(())
}

/// WA-23: the target answers with a fresh roll; the result is applied at once.
pub fn answer(
    d: &mut Draft,
    seat: Seat,
    name: &str,
    choice: &RollChoice,
    rng: &mut dyn Randomness,
) -> Result<(), RuleError> {
    controlled(d, seat, name, "WA-23")?;
    let conflict = d.conflict()?;
    let pending = conflict
        .pending
        .clone()
        .ok_or_else(|| RuleError::illegal("WA-23", "there is no challenge to answer"))?;
    ensure(pending.target == name, "WA-23", || {
        format!("{} answers this challenge", pending.target)
    })?;
    let roll = throw(d, name, choice, rng)?;
    let outcome = judge(
        roll.value,
        pending.roll.value,
        Table::for_round(conflict.round, d.state.rules.rounds),
    );
    let holder = conflict.advantage.clone();
    d.emit(Event::Answered {
        answerer: name.to_string(),
        challenger: pending.challenger.clone(),
        roll,
        outcome,
    });
    let (challenger, answerer) = (pending.challenger.as_str(), name);
    match outcome {
        Outcome::ChallengerKnockedOut => {
            knock_out(d, challenger, answerer, KnockoutCause::Exchange)
        }
        Outcome::AnswererKnockedOut => knock_out(d, answerer, challenger, KnockoutCause::Exchange),
        Outcome::AnswererTakesAdvantage => take_advantage(d, answerer, holder),
        Outcome::ChallengerTakesAdvantage => take_advantage(d, challenger, holder),
    }
    advance(d)
}

/// WA-20 / WA-23: take or keep the Advantage die, from whoever holds it.
fn take_advantage(d: &mut Draft, by: &str, holder: Option<String>) {
    if holder.as_deref() != Some(by) {
        d.emit(Event::AdvantageTaken {
            by: by.to_string(),
            from: holder,
        });
    }
}

/// WA-24: the loser leaves at once; WA-20: a knocked-out holder's Advantage die becomes unheld.
fn knock_out(d: &mut Draft, loser: &str, winner: &str, cause: KnockoutCause) {
    d.emit(Event::KnockedOut {
        loser: loser.to_string(),
        winner: winner.to_string(),
        cause,
    });
    if d.state.live_conflict().and_then(|c| c.advantage.as_deref()) == Some(loser) {
        d.emit(Event::AdvantageDropped {
            from: loser.to_string(),
        });
    }
}

/// After an exchange: end the conflict, the round, or carry on (WA-15, WA-21, WA-24).
fn advance(d: &mut Draft) -> Result<(), RuleError> {
    let conflict = d.conflict()?;
    let round = conflict.round;
    let too_few = conflict.remaining().count() < 2;
    let round_done = too_few || conflict.next_challenger().is_none();
    if !round_done {
        return Ok(());
    }
    d.emit(Event::RoundEnded { round });
    if round == 1 {
        let conflict = d.conflict()?.clone();
        for (entry, bigger_dice) in owe::round_one_entries(&d.state, &conflict) {
            d.emit(Event::OweEntryAdded { entry, bigger_dice });
        }
    }
    if too_few {
        end(d, EndReason::Knockouts {});
    } else if round >= d.state.rules.rounds {
        end(d, EndReason::RoundThreeOver {});
    } else {
        d.emit(Event::RoundStarted { round: round + 1 });
    }
    Ok(())
}

/// WA-24 / WA-26: the conflict ends; it closes at once if no consequence is owed.
pub fn end(d: &mut Draft, reason: EndReason) {
    d.emit(Event::ConflictEnded { reason });
    close_if_settled(d);
}

/// Close an ended conflict whose (winner, loser) pairs are all settled.
pub fn close_if_settled(d: &mut Draft) {
    let done = d
        .state
        .conflict
        .as_ref()
        .is_some_and(|c| c.ended.is_some() && c.open_knockouts().next().is_none());
    if done {
        d.emit(Event::ConflictClosed);
    }
}

/// WA-25: a participant concedes to a named opponent, counting as knocked out by them.
pub fn concede(d: &mut Draft, seat: Seat, name: &str, to: &str) -> Result<(), RuleError> {
    controlled(d, seat, name, "WA-25")?;
    let conflict = d.conflict()?;
    ensure(conflict.negotiation_open(), "WA-25", || {
        "conceding happens at the start of rounds 2 and 3, before initiative".to_string()
    })?;
    ensure(conflict.is_in(name), "WA-24", || {
        format!("{name} has been knocked out")
    })?;
    ensure(name != to && conflict.is_in(to), "WA-25", || {
        format!("{to} is not a remaining opponent")
    })?;
    knock_out(d, name, to, KnockoutCause::Concession);
    if d.conflict()?.remaining().count() < 2 {
        end(d, EndReason::Knockouts {});
    }
    Ok(())
}

/// WA-25: a participant offers to end the conflict on the given terms.
pub fn propose_end(d: &mut Draft, seat: Seat, name: &str, terms: &str) -> Result<(), RuleError> {
    controlled(d, seat, name, "WA-25")?;
    let conflict = d.conflict()?;
    ensure(conflict.negotiation_open(), "WA-25", || {
        "negotiation happens at the start of rounds 2 and 3, before initiative".to_string()
    })?;
    ensure(conflict.is_in(name), "WA-24", || {
        format!("{name} has been knocked out")
    })?;
    limits::TABLE.text("the terms", terms)?;
    let repeat = conflict
        .proposal
        .as_ref()
        .is_some_and(|p| p.terms == terms && p.agreed.first().map(String::as_str) == Some(name));
    ensure(!repeat, "WA-25", || {
        format!("{name} has already proposed this ending")
    })?;
    d.emit(Event::EndProposed {
        character: name.to_string(),
        terms: terms.to_string(),
    });
    finish_if_agreed(d)
}

/// WA-25: a participant agrees to the proposed ending; when everyone remaining has, it ends.
pub fn agree_end(d: &mut Draft, seat: Seat, name: &str) -> Result<(), RuleError> {
    controlled(d, seat, name, "WA-25")?;
    let conflict = d.conflict()?;
    ensure(conflict.negotiation_open(), "WA-25", || {
        "negotiation happens at the start of rounds 2 and 3, before initiative".to_string()
    })?;
    ensure(conflict.is_in(name), "WA-24", || {
        format!("{name} has been knocked out")
    })?;
    let proposal = conflict
        .proposal
        .as_ref()
        .ok_or_else(|| RuleError::illegal("WA-25", "no ending has been proposed"))?;
    ensure(!proposal.agreed.iter().any(|a| a == name), "WA-25", || {
        format!("{name} has already agreed")
    })?;
    d.emit(Event::EndAgreed {
        character: name.to_string(),
    });
    finish_if_agreed(d)
}

fn finish_if_agreed(d: &mut Draft) -> Result<(), RuleError> {
    let conflict = d.conflict()?;
    let Some(proposal) = &conflict.proposal else {
        return Ok(());
    };
    if conflict
        .remaining()
        .all(|p| proposal.agreed.contains(&p.name))
    {
        let terms = proposal.terms.clone();
        end(d, EndReason::Agreement { terms });
    }
    Ok(())
}

/// Every form a character could roll now, as choices (for samples of legal commands).
pub fn sample_choices(ch: &Character) -> Vec<RollChoice> {
    let mut out = Vec::new();
    match &ch.sheet {
        Sheet::Pc { forms } => {
            let usable: Vec<PcForm> = PcForm::ALL
                .into_iter()
                .filter(|f| !forms.get(*f).is_zero())
                .collect();
            for (i, a) in usable.iter().enumerate() {
                for b in &usable[i + 1..] {
                    out.push(RollChoice {
                        forms: vec![*a, *b],
                        ..RollChoice::default()
                    });
                }
            }
        }
        Sheet::Npc { forms } => {
            for f in NpcForm::ALL.into_iter().filter(|f| !forms.is_zero(*f)) {
                out.push(RollChoice {
                    form: Some(f),
                    ..RollChoice::default()
                });
            }
        }
    }
    let with_strengths: Vec<RollChoice> = out
        .iter()
        .flat_map(|c| {
            ch.strengths.iter().map(move |s| RollChoice {
                strength: Some(s.name.clone()),
                ..c.clone()
            })
        })
        .filter(|c| chosen_dice(ch, c).is_ok())
        .collect();
    out.extend(with_strengths);
    out
}
