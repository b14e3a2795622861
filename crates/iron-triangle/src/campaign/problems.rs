//! Problems (IT-2, IT-15 … IT-20): the GM opens a problem; every player with a living PC
//! commits a hidden pick (one of the four options, or a pass); once all are ready the picks are
//! revealed together; the highest option decides, ties going to the least recent decider and
//! then to the GM's pick; the decider narrates and alone pays.
//!
//! Not retrying a problem (IT-20) is narrative and the GM's to judge: any description may be
//! opened, and the GM's view notes one that a closed problem already had.

use clash_core::{RuleError, Seat};
use serde::{Deserialize, Serialize};

use std::collections::BTreeMap;

use super::{CampaignCommand, CampaignEvent, non_empty, pc_of, require_gm, require_player};
use crate::Table;
use crate::character::{Background, Character, MAX_POINTS_IN_ONE_BACKGROUND};
use crate::names::same;

/// The four problem options (IT-15), written as their numbers 1-4 in JSON.
#[cfg_attr(
    feature = "ts",
    derive(ts_rs::TS),
    ts(export_to = "iron-triangle/", type = "1 | 2 | 3 | 4")
)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(try_from = "u8", into = "u8")]
pub enum ProblemOption {
    /// (1) Succeed with a good idea.
    GoodIdea = 1,
    /// (2) Succeed by spending a background point.
    BackgroundPoint = 2,
    /// (3) Succeed with a significant complication.
    Complication = 3,
    /// (4) Fail in an interesting way.
    InterestingFailure = 4,
}

impl ProblemOption {
    pub const ALL: [ProblemOption; 4] = [
        ProblemOption::GoodIdea,
        ProblemOption::BackgroundPoint,
        ProblemOption::Complication,
        ProblemOption::InterestingFailure,
    ];

    /// Options 3 and 4 are paid with a trait mark (IT-16, D-20).
    pub fn needs_trait(self) -> bool {
        matches!(
            self,
            ProblemOption::Complication | ProblemOption::InterestingFailure
        )
    }

    pub fn number(self) -> u8 {
        self as u8
    }
}

impl TryFrom<u8> for ProblemOption {
    type Error = String;
    fn try_from(n: u8) -> Result<Self, String> {
        ProblemOption::ALL
            .get(usize::from(n).wrapping_sub(1))
            .copied()
            .ok_or_else(|| format!("problem options are 1-4, not {n}"))
    }
}

impl From<ProblemOption> for u8 {
    fn from(o: ProblemOption) -> u8 {
        o.number()
    }
}

/// Which trait pays for option 3 or 4 (IT-16, D-20).
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "iron-triangle/"))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TraitKind {
    Belief,
    Flaw,
}

impl TraitKind {
    pub fn words(self) -> &'static str {
        match self {
            TraitKind::Belief => "belief",
            TraitKind::Flaw => "flaw",
        }
    }

    pub fn of(self, c: &Character) -> &crate::character::Trait {
        match self {
            TraitKind::Belief => &c.belief,
            TraitKind::Flaw => &c.flaw,
        }
    }

    fn of_mut(self, c: &mut Character) -> &mut crate::character::Trait {
        match self {
            TraitKind::Belief => &mut c.belief,
            TraitKind::Flaw => &mut c.flaw,
        }
    }
}

/// A hidden problem pick: an option (with its trait for options 3/4) or a pass (not interested).
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "iron-triangle/"))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Pick {
    Pass,
    Choose {
        option: ProblemOption,
        #[serde(default, rename = "trait", skip_serializing_if = "Option::is_none")]
        which: Option<TraitKind>,
    },
}

/// One player's committed pick (IT-2: final once committed).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Commitment {
    pub seat: Seat,
    pub character: String,
    pub pick: Pick,
}

/// Who decides the problem, and with what (IT-17 … IT-19). The GM decides with no option when
/// nobody chose one.
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "iron-triangle/"))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Decider {
    pub seat: Seat,
    #[serde(default)]
    pub character: Option<String>,
    #[serde(default)]
    pub option: Option<ProblemOption>,
    #[serde(default, rename = "trait")]
    pub which: Option<TraitKind>,
    /// A vetoer substituting option 1 or 2 (IT-21).
    #[serde(default)]
    pub by_veto: bool,
}

impl Decider {
    fn gm() -> Decider {
        Decider {
            seat: Seat::Gm,
            character: None,
            option: None,
            which: None,
            by_veto: false,
        }
    }

    fn from(c: &Commitment) -> Decider {
        let (option, which) = match c.pick {
            Pick::Choose { option, which } => (Some(option), which),
            Pick::Pass => (None, None),
        };
        Decider {
            seat: c.seat,
            character: Some(c.character.clone()),
            option,
            which,
            by_veto: false,
        }
    }
}

/// Why a decider was chosen (IT-17, IT-19, D-21).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DeciderReason {
    HighestOption,
    LeastRecent,
    GmPicked,
    NobodyChose,
}

/// What the decider paid (IT-18), kept so a veto can undo it exactly (IT-21).
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "iron-triangle/"))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Payment {
    Nothing,
    /// One point from a background. `joined`: an unassigned point joined the background as it
    /// was spent (D-18); `created`: that background is new.
    Point {
        background: String,
        joined: bool,
        created: bool,
    },
    /// The declared trait was marked, setting Q1 (D-19); `q1_before` restores it on a veto.
    Trait {
        #[serde(rename = "trait")]
        which: TraitKind,
        q1_before: bool,
    },
}

#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "iron-triangle/"))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "stage", rename_all = "snake_case")]
pub enum Stage {
    /// Hidden picks are being committed (IT-2).
    Choosing,
    /// Equal options and equal recency: the GM picks the decider (IT-17, D-21).
    DeciderTied { candidates: Vec<Seat> },
    /// The decider is to narrate the outcome (IT-18).
    Narrating { decider: Decider },
    /// The outcome is narrated and paid; vetoes may come until the GM moves on (IT-21).
    Narrated {
        decider: Decider,
        text: String,
        payment: Payment,
        /// The decider's previous recency, restored if the outcome is void.
        previous: Option<u32>,
    },
}

/// The open problem.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Problem {
    pub number: u32,
    pub description: String,
    pub commitments: Vec<Commitment>,
    /// The picks have been revealed (IT-2).
    pub revealed: bool,
    pub stage: Stage,
    /// Deciders whose narration the GM judged outside the rules (IT-19).
    pub rejected: Vec<Seat>,
    /// The decider whose outcome a standing veto voided (IT-21).
    pub vetoed: Option<Decider>,
    pub vetoes: Vec<super::DeclaredVeto>,
}

pub(crate) fn current<'a>(table: &'a Table, rule: &'static str) -> Result<&'a Problem, RuleError> {
    table
        .campaign
        .problem
        .as_ref()
        .ok_or_else(|| RuleError::illegal(rule, "no problem is open"))
}

/// The seats whose picks the reveal waits for: every player with a living PC that is not still
/// levelling up as a replacement.
pub(crate) fn choosers(table: &Table) -> Vec<Seat> {
    table
        .players
        .iter()
        .copied()
        .filter(|s| {
            pc_of(table, *s).is_some_and(|pc| table.campaign.replacement(&pc.name).is_none())
        })
        .collect()
}

pub fn open(table: &Table, seat: Seat, description: &str) -> Result<Vec<CampaignEvent>, RuleError> {
    require_gm(seat, "IT-15", "opens problems")?;
    if let Some(p) = &table.campaign.problem {
        return Err(RuleError::illegal(
            "IT-15",
            format!("the problem “{}” is still open", p.description),
        ));
    }
    if table.campaign.session_ending {
        return Err(RuleError::illegal(
            "IT-60",
            "the session has ended; start the next one first",
        ));
    }
    non_empty(description, "IT-15", "a problem's description")?;
    crate::limits::text(description, "IT-15", "a problem's description")?;
    // IT-20 (a problem is not retried) is narrative: the GM judges a retry, so a description
    // like a closed one is not refused; the GM's view notes it (`ProblemView::like_closed`).
    let description = description.trim();
    let number = table
        .campaign
        .problems_opened
        .checked_add(1)
        .ok_or_else(|| RuleError::illegal("IT-15", "too many problems"))?;
    let events = vec![CampaignEvent::ProblemOpened {
        problem: number,
        description: description.to_string(),
    }];
    Ok(with_reveal_if_ready(table, events))
}

/// Commit a hidden pick (IT-2) after checking eligibility (IT-16).
pub fn commit(table: &Table, seat: Seat, pick: Pick) -> Result<Vec<CampaignEvent>, RuleError> {
    let p = current(table, "IT-15")?;
    require_player(table, seat, "IT-15")?;
    if p.revealed {
        return Err(RuleError::illegal(
            "IT-2",
            format!("the picks for “{}” are already revealed", p.description),
        ));
    }
    let pc =
        pc_of(table, seat).ok_or_else(|| RuleError::illegal("IT-15", "you have no living PC"))?;
    if table.campaign.replacement(&pc.name).is_some() {
        return Err(RuleError::illegal(
            "IT-66",
            format!("{} must finish its level-ups first", pc.name),
        ));
    }
    if p.commitments.iter().any(|c| c.seat == seat) {
        return Err(RuleError::illegal(
            "IT-2",
            "your pick is already committed, and commitments are final",
        ));
    }
    if let Pick::Choose { option, which } = pick {
        check_eligible(pc, option, which)?;
    }
    let events = vec![CampaignEvent::OptionCommitted {
        problem: p.number,
        seat,
        character: pc.name.clone(),
        pick: Some(pick),
    }];
    Ok(with_reveal_if_ready(table, events))
}

fn check_eligible(
    pc: &Character,
    option: ProblemOption,
    which: Option<TraitKind>,
) -> Result<(), RuleError> {
    if option == ProblemOption::BackgroundPoint && pc.background_points() == 0 {
        return Err(RuleError::illegal(
            "IT-16",
            format!("{} has no background point left for option 2", pc.name),
        ));
    }
    match (option.needs_trait(), which) {
        (true, None) => Err(RuleError::illegal(
            "IT-16",
            format!("option {} needs a declared belief or flaw", option.number()),
        )),
        (true, Some(t)) if t.of(pc).marked => Err(RuleError::illegal(
            "D-20",
            format!("{}'s {} is already marked", pc.name, t.words()),
        )),
        (false, Some(_)) => Err(RuleError::illegal(
            "IT-16",
            "only options 3 and 4 declare a trait",
        )),
        _ => Ok(()),
    }
}

/// Add the reveal and the choice of decider when the last awaited pick is in (IT-2, IT-17).
/// Only the problem is worked on a copy: opening or committing changes nothing else, so this
/// costs the same whatever the size of the table (it runs for every listed legal pick).
fn with_reveal_if_ready(table: &Table, mut events: Vec<CampaignEvent>) -> Vec<CampaignEvent> {
    let mut problem = table.campaign.problem.clone();
    for e in &events {
        apply_to_problem(&mut problem, e);
    }
    let Some(p) = problem else {
        return events;
    };
    let ready = choosers(table)
        .iter()
        .all(|s| p.commitments.iter().any(|c| c.seat == *s));
    if ready && !p.revealed {
        events.push(CampaignEvent::ProblemRevealed {
            problem: p.number,
            commitments: p.commitments.clone(),
        });
        events.push(resolve(&table.campaign.last_decided, &p));
    }
    events
}

/// What opening a problem or committing a pick does to the open problem.
fn apply_to_problem(problem: &mut Option<Problem>, event: &CampaignEvent) {
    match event {
        CampaignEvent::ProblemOpened {
            problem: number,
            description,
        } => {
            *problem = Some(Problem {
                number: *number,
                description: description.clone(),
                commitments: Vec::new(),
                revealed: false,
                stage: Stage::Choosing,
                rejected: Vec::new(),
                vetoed: None,
                vetoes: Vec::new(),
            });
        }
        CampaignEvent::OptionCommitted {
            seat,
            character,
            pick: Some(pick),
            ..
        } => {
            if let Some(p) = problem.as_mut() {
                p.commitments.push(Commitment {
                    seat: *seat,
                    character: character.clone(),
                    pick: *pick,
                });
            }
        }
        _ => {}
    }
}

/// Who decides (IT-17, IT-19, D-21), among the picks not rejected by the GM; `last_decided`
/// is each seat's last decided problem (IT-18).
pub(crate) fn resolve(last_decided: &BTreeMap<Seat, u32>, p: &Problem) -> CampaignEvent {
    let chosen: Vec<(&Commitment, ProblemOption)> = p
        .commitments
        .iter()
        .filter(|c| !p.rejected.contains(&c.seat))
        .filter_map(|c| match c.pick {
            Pick::Choose { option, .. } => Some((c, option)),
            Pick::Pass => None,
        })
        .collect();
    let chosen_event = |decider, reason| CampaignEvent::DeciderChosen {
        problem: p.number,
        decider,
        reason,
    };
    let Some(best) = chosen.iter().map(|(_, o)| *o).max() else {
        return chosen_event(Decider::gm(), DeciderReason::NobodyChose); // IT-19
    };
    let top: Vec<&Commitment> = chosen
        .iter()
        .filter(|(_, o)| *o == best)
        .map(|(c, _)| *c)
        .collect();
    if let [only] = top.as_slice() {
        return chosen_event(Decider::from(only), DeciderReason::HighestOption);
    }
    // `None` (never decided) orders before every problem number: least recent (D-21).
    let recency = |c: &Commitment| last_decided.get(&c.seat).copied();
    let least = top.iter().map(|c| recency(c)).min().flatten();
    let oldest: Vec<&Commitment> = top
        .iter()
        .copied()
        .filter(|c| recency(c) == least)
        .collect();
    match oldest.as_slice() {
        [only] => chosen_event(Decider::from(only), DeciderReason::LeastRecent),
        _ => CampaignEvent::DeciderTied {
            problem: p.number,
            candidates: oldest.iter().map(|c| c.seat).collect(),
        },
    }
}

pub fn pick_decider(
    table: &Table,
    seat: Seat,
    picked: Seat,
) -> Result<Vec<CampaignEvent>, RuleError> {
    require_gm(seat, "D-21", "breaks a tie of equal recency")?;
    let p = current(table, "IT-17")?;
    let Stage::DeciderTied { candidates } = &p.stage else {
        return Err(RuleError::illegal(
            "IT-17",
            "there is no tie for the GM to break",
        ));
    };
    if !candidates.contains(&picked) {
        return Err(RuleError::illegal(
            "D-21",
            format!("{} is not among the tied choosers", table.seat_name(picked)),
        ));
    }
    let c = p
        .commitments
        .iter()
        .find(|c| c.seat == picked)
        .ok_or_else(|| RuleError::illegal("D-21", "no such pick"))?;
    Ok(vec![CampaignEvent::DeciderChosen {
        problem: p.number,
        decider: Decider::from(c),
        reason: DeciderReason::GmPicked,
    }])
}

/// The decider narrates and pays (IT-18).
pub fn narrate_outcome(
    table: &Table,
    seat: Seat,
    text: &str,
    background: Option<&str>,
) -> Result<Vec<CampaignEvent>, RuleError> {
    let p = current(table, "IT-18")?;
    let Stage::Narrating { decider } = &p.stage else {
        return Err(RuleError::illegal(
            "IT-18",
            "no outcome is waiting to be narrated",
        ));
    };
    if decider.seat != seat {
        return Err(RuleError::not_your_call(
            "IT-18",
            seat,
            format!(
                "{} narrates this outcome",
                super::visibility::decider_name(decider)
            ),
        ));
    }
    non_empty(text, "IT-18", "the outcome")?;
    crate::limits::text(text, "IT-18", "the outcome")?;
    let payment = payment_for(table, decider, background)?;
    Ok(vec![CampaignEvent::OutcomeNarrated {
        problem: p.number,
        decider: decider.clone(),
        text: text.trim().to_string(),
        payment,
    }])
}

fn payment_for(
    table: &Table,
    decider: &Decider,
    background: Option<&str>,
) -> Result<Payment, RuleError> {
    let c = match &decider.character {
        Some(name) => table.find(name, "IT-18")?,
        None => return no_background(background, Payment::Nothing),
    };
    match decider.option {
        Some(ProblemOption::BackgroundPoint) => {
            let name = background.ok_or_else(|| {
                RuleError::illegal("IT-18", "option 2: name the background that pays the point")
            })?;
            point_payment(c, name)
        }
        Some(o) if o.needs_trait() => {
            let which = decider
                .which
                .ok_or_else(|| RuleError::illegal("D-20", "options 3 and 4 name a trait"))?;
            if which.of(c).marked {
                return Err(RuleError::illegal(
                    "D-20",
                    format!("{}'s {} is already marked", c.name, which.words()),
                ));
            }
            no_background(
                background,
                Payment::Trait {
                    which,
                    q1_before: c.marks.q1,
                },
            )
        }
        _ => no_background(background, Payment::Nothing),
    }
}

fn no_background(background: Option<&str>, payment: Payment) -> Result<Payment, RuleError> {
    match background {
        Some(_) => Err(RuleError::illegal(
            "IT-18",
            "only option 2 spends a background point",
        )),
        None => Ok(payment),
    }
}

/// Which point pays for option 2 (IT-18, D-18): the named background's own point, or else an
/// unassigned point that joins that background as it is spent. A background is found by its
/// name as a player reads it (IT-10, [`same`]), and the payment keeps the sheet's spelling.
pub(crate) fn point_payment(c: &Character, name: &str) -> Result<Payment, RuleError> {
    let name = name.trim();
    non_empty(name, "D-18", "a background's name")?;
    crate::limits::name(name, "D-18", "a background's name")?;
    // One entry per name since IT-10 is checked by name; a table stored before then may hold
    // a name twice, and its points are then counted together rather than the first entry's.
    let named = || c.backgrounds.iter().filter(|b| same(&b.name, name));
    let held: u32 = named().map(|b| b.current).sum();
    let max: u32 = named().map(|b| b.max).sum();
    let existing = named().next();
    let spelled = existing.map_or(name, |b| b.name.as_str());
    let payment = |joined, created| Payment::Point {
        background: spelled.to_string(),
        joined,
        created,
    };
    match existing {
        Some(_) if held > 0 => Ok(payment(false, false)),
        _ if c.unassigned_points == 0 => Err(RuleError::illegal(
            "IT-16",
            format!(
                "{} has no point to spend in {}",
                c.name,
                crate::limits::shown(spelled)
            ),
        )),
        Some(_) if max >= MAX_POINTS_IN_ONE_BACKGROUND => Err(RuleError::illegal(
            "D-18",
            format!("{spelled} already holds {MAX_POINTS_IN_ONE_BACKGROUND} points at most"),
        )),
        Some(_) => Ok(payment(true, false)),
        None => Ok(payment(true, true)),
    }
}

/// The entry of background `name` that `fits`, else its first one (see [`point_payment`] on
/// a name held twice).
fn entry_mut<'a>(
    c: &'a mut Character,
    name: &str,
    fits: fn(&Background) -> bool,
) -> Option<&'a mut Background> {
    let named = |b: &Background| same(&b.name, name);
    let at = c
        .backgrounds
        .iter()
        .position(|b| named(b) && fits(b))
        .or_else(|| c.backgrounds.iter().position(named))?;
    c.backgrounds.get_mut(at)
}

pub(crate) fn pay(c: &mut Character, payment: &Payment) {
    match payment {
        Payment::Nothing => {}
        Payment::Point {
            background,
            joined,
            created,
        } => {
            if *created {
                c.backgrounds.push(Background {
                    name: background.clone(),
                    current: 0,
                    max: 0,
                });
            }
            if *joined {
                c.unassigned_points = c.unassigned_points.saturating_sub(1);
                if let Some(b) = entry_mut(c, background, |_| true) {
                    b.max += 1;
                }
            } else if let Some(b) = entry_mut(c, background, |b| b.current > 0) {
                b.current = b.current.saturating_sub(1);
            }
        }
        Payment::Trait { which, .. } => {
            which.of_mut(c).marked = true;
            c.marks.q1 = true; // D-19
        }
    }
}

/// Undo a payment exactly (IT-21: the vetoed outcome's point and trait mark are undone).
pub(crate) fn unpay(c: &mut Character, payment: &Payment) {
    match payment {
        Payment::Nothing => {}
        Payment::Point {
            background,
            joined,
            created,
        } => {
            if *joined {
                c.unassigned_points += 1;
                if let Some(b) = entry_mut(c, background, |_| true) {
                    b.max = b.max.saturating_sub(1);
                }
            } else if let Some(b) = entry_mut(c, background, |b| b.current < b.max) {
                b.current = (b.current + 1).min(b.max);
            }
            if *created {
                c.backgrounds
                    .retain(|b| !(same(&b.name, background) && b.max == 0));
            }
        }
        Payment::Trait { which, q1_before } => {
            which.of_mut(c).marked = false;
            c.marks.q1 = *q1_before;
        }
    }
}

/// Void a narrated outcome: undo its payment and the decider's recency (IT-19, IT-21, D-22).
pub(crate) fn void_outcome(
    table: &mut Table,
    decider: &Decider,
    payment: &Payment,
    previous: Option<u32>,
) {
    if let Some(c) = decider
        .character
        .as_deref()
        .and_then(|n| table.character_mut(n))
    {
        unpay(c, payment);
    }
    if decider.character.is_some() {
        match previous {
            Some(n) => table.campaign.last_decided.insert(decider.seat, n),
            None => table.campaign.last_decided.remove(&decider.seat),
        };
    }
}

/// The GM judges that the decider cannot narrate within the rules (IT-19): the next-highest
/// pick decides. A vetoer's substitute must be narrated again instead.
pub fn reject(table: &Table, seat: Seat, reason: &str) -> Result<Vec<CampaignEvent>, RuleError> {
    require_gm(
        seat,
        "IT-19",
        "judges whether a narration is within the rules",
    )?;
    let p = current(table, "IT-19")?;
    let decider = match &p.stage {
        // A vetoer must narrate a success (IT-21): there is nothing to judge until they have.
        Stage::Narrating { decider } if decider.by_veto => {
            return Err(RuleError::illegal(
                "IT-19",
                "the vetoer has not narrated yet: there is nothing to judge",
            ));
        }
        Stage::Narrating { decider } | Stage::Narrated { decider, .. } => decider,
        _ => return Err(RuleError::illegal("IT-19", "there is no decider to judge")),
    };
    if decider.seat == Seat::Gm {
        return Err(RuleError::illegal(
            "IT-19",
            "the GM's own outcome is not judged",
        ));
    }
    non_empty(reason, "IT-19", "the reason")?;
    crate::limits::text(reason, "IT-19", "the reason")?;
    let events = vec![CampaignEvent::NarrationRejected {
        problem: p.number,
        decider: decider.clone(),
        reason: reason.trim().to_string(),
    }];
    if decider.by_veto {
        return Ok(events);
    }
    // The next-highest pick decides: the problem and the recency record as the rejection
    // leaves them (the voided outcome's record restored), worked on copies of just those.
    let mut last_decided = table.campaign.last_decided.clone();
    if let Stage::Narrated {
        decider: d,
        previous,
        ..
    } = &p.stage
        && d.character.is_some()
    {
        match previous {
            Some(n) => last_decided.insert(d.seat, *n),
            None => last_decided.remove(&d.seat),
        };
    }
    let mut next = p.clone();
    next.rejected.push(decider.seat);
    next.stage = Stage::Choosing;
    let mut events = events;
    events.push(resolve(&last_decided, &next));
    Ok(events)
}

/// The GM moves play on once the outcome is narrated; this ends the veto window (IT-21).
pub fn close(table: &Table, seat: Seat) -> Result<Vec<CampaignEvent>, RuleError> {
    require_gm(seat, "IT-21", "moves play on")?;
    let p = current(table, "IT-18")?;
    if !matches!(p.stage, Stage::Narrated { .. }) {
        return Err(RuleError::illegal(
            "IT-18",
            "the outcome has not been narrated yet",
        ));
    }
    Ok(vec![CampaignEvent::ProblemClosed { problem: p.number }])
}

pub fn apply(table: &mut Table, event: &CampaignEvent) {
    use CampaignEvent as E;
    match event {
        E::ProblemOpened {
            problem,
            description,
        } => {
            table.campaign.problems_opened = *problem;
            table.campaign.problem = Some(Problem {
                number: *problem,
                description: description.clone(),
                commitments: Vec::new(),
                revealed: false,
                stage: Stage::Choosing,
                rejected: Vec::new(),
                vetoed: None,
                vetoes: Vec::new(),
            });
        }
        E::OptionCommitted {
            seat,
            character,
            pick: Some(pick),
            ..
        } => {
            if let Some(p) = table.campaign.problem.as_mut() {
                p.commitments.push(Commitment {
                    seat: *seat,
                    character: character.clone(),
                    pick: *pick,
                });
            }
        }
        E::ProblemRevealed { .. } => {
            if let Some(p) = table.campaign.problem.as_mut() {
                p.revealed = true;
            }
        }
        E::DeciderChosen { decider, .. } => set_stage(
            table,
            Stage::Narrating {
                decider: decider.clone(),
            },
        ),
        E::DeciderTied { candidates, .. } => set_stage(
            table,
            Stage::DeciderTied {
                candidates: candidates.clone(),
            },
        ),
        E::OutcomeNarrated {
            problem,
            decider,
            text,
            payment,
        } => {
            if let Some(c) = decider
                .character
                .as_deref()
                .and_then(|n| table.character_mut(n))
            {
                pay(c, payment);
            }
            // IT-18: record who decided and when.
            let previous = match decider.character {
                Some(_) => table.campaign.last_decided.insert(decider.seat, *problem),
                None => None,
            };
            let stage = Stage::Narrated {
                decider: decider.clone(),
                text: text.clone(),
                payment: payment.clone(),
                previous,
            };
            set_stage(table, stage);
        }
        E::NarrationRejected { decider, .. } => apply_rejection(table, decider),
        E::ProblemClosed { .. } => {
            if let Some(p) = table.campaign.problem.take() {
                table.campaign.closed_problems.push(p.description);
            }
        }
        _ => {}
    }
}

fn apply_rejection(table: &mut Table, decider: &Decider) {
    let Some(p) = table.campaign.problem.clone() else {
        return;
    };
    if let Stage::Narrated {
        decider,
        payment,
        previous,
        ..
    } = &p.stage
    {
        void_outcome(table, decider, payment, *previous);
    }
    let stage = if decider.by_veto {
        Stage::Narrating {
            decider: decider.clone(),
        }
    } else {
        Stage::Choosing
    };
    if let Some(p) = table.campaign.problem.as_mut() {
        if !decider.by_veto {
            p.rejected.push(decider.seat);
        }
        p.stage = stage;
    }
}

fn set_stage(table: &mut Table, stage: Stage) {
    if let Some(p) = table.campaign.problem.as_mut() {
        p.stage = stage;
    }
}

pub fn candidates(table: &Table, seat: Seat, out: &mut Vec<CampaignCommand>) {
    let text = "The outcome unfolds.".to_string();
    if seat == Seat::Gm {
        let n = table.campaign.problems_opened.saturating_add(1);
        out.push(CampaignCommand::OpenProblem {
            description: format!("Problem number {n}"),
        });
        // The rest of the GM's part in a problem needs one open (IT-17 … IT-21).
        if table.campaign.problem.is_none() {
            return;
        }
        for s in &table.players {
            out.push(CampaignCommand::PickDecider { seat: *s });
        }
        out.push(CampaignCommand::NarrateOutcome {
            text,
            background: None,
        });
        out.push(CampaignCommand::RejectNarration {
            reason: "That is outside the rules.".into(),
        });
        out.push(CampaignCommand::CloseProblem {});
        return;
    }
    // Every player's step of a problem needs one open (IT-15, IT-18): none, none to list.
    if table.campaign.problem.is_none() {
        return;
    }
    out.push(CampaignCommand::PassProblem {});
    for option in ProblemOption::ALL {
        for which in [None, Some(TraitKind::Belief), Some(TraitKind::Flaw)] {
            out.push(CampaignCommand::ChooseOption { option, which });
        }
    }
    out.push(CampaignCommand::NarrateOutcome {
        text: text.clone(),
        background: None,
    });
    if let Some(pc) = pc_of(table, seat) {
        let names = pc
            .backgrounds
            .iter()
            .map(|b| b.name.clone())
            .chain(std::iter::once("New background".to_string()));
        for name in names {
            out.push(CampaignCommand::NarrateOutcome {
                text: text.clone(),
                background: Some(name),
            });
        }
    }
}
