//! Session end and level-up (IT-60 … IT-65, D-16, D-19, D-32), including the level-ups of a
//! replacement character (IT-66, D-33).
//!
//! The GM ends the session; each PC with three yes marks (Q1 mark, goal achieved, any zero
//! mark) levels up once, choosing one improvement and one refill; then IT-64's erasures happen.
//! Goals, beliefs and flaws may be rewritten, and backgrounds renamed with the GM's approval
//! (the GM's own command), until the GM starts the next session.

use clash_core::{RuleError, Seat};
use serde::{Deserialize, Serialize};

use super::{CampaignCommand, CampaignEvent, Replacement, controlled, non_empty, require_gm};
use crate::Table;
use crate::character::{BACKGROUND_POINTS, Character, Combo, Goal, KnownMove, KnownSpecial};
use crate::moves::{Action, Move};
use crate::special::Special;

/// The one improvement a level-up brings (IT-61).
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "iron-triangle/"))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Improvement {
    /// (a) Learn a move, named by its player (IT-7, IT-8).
    LearnMove {
        #[serde(rename = "move")]
        mv: Move,
        name: String,
    },
    /// (b) Up to two combo-followup edits (IT-63, D-5).
    ComboEdits { edits: Vec<ComboEdit> },
    /// (c) +1 max energy in a zero-marked type; current energy is unchanged (D-16).
    Energy { action: Action },
    /// (d) Learn a special whose requirements are met at the new level (IT-56, IT-59, D-32).
    LearnSpecial {
        #[serde(deserialize_with = "crate::special::strict::one")]
        special: Special,
    },
}

/// Add `followup` to the combo starting at `from`, or replace the followup `replaces` with it.
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "iron-triangle/"))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ComboEdit {
    pub from: Move,
    pub followup: Move,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replaces: Option<Move>,
}

/// The refill chosen with a level-up (IT-62).
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "iron-triangle/"))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Refill {
    BackgroundPoints,
    Veto,
}

/// The edits a level-up allows (D-5).
pub const COMBO_EDITS: usize = 2;

/// The three level-up questions (IT-60): which are still "no".
fn missing_yeses(c: &Character) -> Vec<&'static str> {
    let mut missing = Vec::new();
    if !c.marks.q1 {
        missing.push("Q1 (belief/flaw complicated or failed a problem)");
    }
    if !c.goal.achieved {
        missing.push("Q2 (goal achieved)");
    }
    if !Action::ALL.iter().any(|a| c.marks.zero.get(*a)) {
        missing.push("Q3 (a zero mark)");
    }
    missing
}

pub(crate) fn eligible(table: &Table) -> Vec<String> {
    table
        .characters
        .iter()
        .filter(|c| c.is_pc() && !c.dead && missing_yeses(c).is_empty())
        .filter(|c| !table.campaign.levelled_this_session.contains(&c.name))
        .map(|c| c.name.clone())
        .collect()
}

fn require_session_end(table: &Table, rule: &'static str) -> Result<(), RuleError> {
    if table.campaign.session_ending {
        Ok(())
    } else {
        Err(RuleError::illegal(rule, "this happens at session end"))
    }
}

pub fn end_session(table: &Table, seat: Seat) -> Result<Vec<CampaignEvent>, RuleError> {
    require_gm(seat, "IT-60", "ends the session")?;
    if table.campaign.session_ending {
        return Err(RuleError::illegal("IT-60", "the session has already ended"));
    }
    if let Some(p) = &table.campaign.problem {
        return Err(RuleError::illegal(
            "IT-60",
            format!("the problem “{}” is still open", p.description),
        ));
    }
    if table.conflict.as_ref().is_some_and(|c| c.is_running()) {
        return Err(RuleError::illegal("IT-60", "a conflict is still running"));
    }
    Ok(vec![CampaignEvent::SessionEnded {
        session: table.campaign.session,
        eligible: eligible(table),
    }])
}

pub fn start_session(table: &Table, seat: Seat) -> Result<Vec<CampaignEvent>, RuleError> {
    require_gm(seat, "IT-60", "starts the next session")?;
    require_session_end(table, "IT-60")?;
    if let Some(name) = eligible(table).first() {
        return Err(RuleError::illegal(
            "IT-60",
            format!("{name} has three yes marks: its level-up comes first"),
        ));
    }
    Ok(vec![CampaignEvent::SessionStarted {
        session: table.campaign.session.saturating_add(1),
    }])
}

/// Q2: the player says its goal is achieved; the GM settles disputes either way (IT-60).
pub fn mark_goal(
    table: &Table,
    seat: Seat,
    name: &str,
    achieved: bool,
) -> Result<Vec<CampaignEvent>, RuleError> {
    let c = table.find(name, "IT-11")?;
    if !c.is_pc() {
        return Err(RuleError::illegal(
            "IT-11",
            format!("{name} is an NPC and has no goal to achieve"),
        ));
    }
    if seat != Seat::Gm && (seat != c.controller || !achieved) {
        return Err(RuleError::not_your_call(
            "IT-60",
            seat,
            "a player marks its own goal achieved; the GM settles disputes",
        ));
    }
    if achieved && c.goal.text.trim().is_empty() {
        return Err(RuleError::illegal(
            "IT-11",
            format!("{name} has no goal written"),
        ));
    }
    if c.goal.achieved == achieved {
        return Err(RuleError::illegal(
            "IT-11",
            format!(
                "{name}'s goal mark is already {}",
                if achieved { "set" } else { "clear" }
            ),
        ));
    }
    Ok(vec![CampaignEvent::GoalMarked {
        character: c.name.clone(),
        achieved,
    }])
}

pub fn level_up(
    table: &Table,
    seat: Seat,
    name: &str,
    improvement: &Improvement,
    refill: Option<Refill>,
) -> Result<Vec<CampaignEvent>, RuleError> {
    let c = may_level(table, seat, name, refill)?;
    let replacement = table.campaign.replacement(name);
    let new_level = c
        .level
        .checked_add(1)
        .ok_or_else(|| RuleError::illegal("IT-60", "the level cannot rise further"))?;
    let cap = table.rules.followups as usize;
    check_improvement(c, new_level, improvement, replacement, cap)?;
    Ok(vec![CampaignEvent::LevelledUp {
        character: c.name.clone(),
        level: new_level,
        improvement: improvement.clone(),
        refill,
        replacement: replacement.is_some(),
    }])
}

/// Whether `name` may level up now with `refill`, whatever the improvement (IT-60, IT-62).
fn may_level<'t>(
    table: &'t Table,
    seat: Seat,
    name: &str,
    refill: Option<Refill>,
) -> Result<&'t Character, RuleError> {
    let c = controlled(table, seat, name, "IT-60")?;
    if !c.is_pc() || c.dead {
        return Err(RuleError::illegal(
            "IT-60",
            format!("{name} is not a living PC"),
        ));
    }
    if table.campaign.replacement(name).is_none() {
        require_session_end(table, "IT-60")?;
        if table
            .campaign
            .levelled_this_session
            .iter()
            .any(|n| n == name)
        {
            return Err(RuleError::illegal(
                "IT-60",
                format!("{name} already levelled up this session: one level per session"),
            ));
        }
        let missing = missing_yeses(c);
        if !missing.is_empty() {
            return Err(RuleError::illegal(
                "IT-60",
                format!(
                    "{name} needs three yes marks; missing {}",
                    missing.join(", ")
                ),
            ));
        }
        if refill.is_none() {
            return Err(RuleError::illegal(
                "IT-62",
                "choose a refill: background points or the veto",
            ));
        }
    }
    Ok(c)
}

fn check_improvement(
    c: &Character,
    new_level: u32,
    imp: &Improvement,
    repl: Option<&Replacement>,
    cap: usize,
) -> Result<(), RuleError> {
    match imp {
        Improvement::LearnMove { mv, name } => {
            if c.knows(*mv) {
                return Err(RuleError::illegal(
                    "IT-7",
                    format!("{} already knows {mv}", c.name),
                ));
            }
            if mv.is_advanced() && !c.knows_all_basic_moves() {
                return Err(RuleError::illegal(
                    "IT-8",
                    format!("{mv} needs all nine Low/Mid/High moves first"),
                ));
            }
            non_empty(name, "IT-7", "the new move's name")?;
            crate::limits::name(name, "IT-7", "the new move's name")?;
            if repl.is_some_and(|r| !r.moves.iter().any(|k| k.mv == *mv)) {
                return Err(RuleError::illegal(
                    "D-33",
                    format!("a replacement learns only the dead PC's moves, and {mv} was not one"),
                ));
            }
            Ok(())
        }
        Improvement::ComboEdits { edits } => edited_combos(c, edits, repl, cap).map(|_| ()),
        Improvement::Energy { action } => {
            if repl.is_some() {
                return Err(RuleError::illegal(
                    "D-33",
                    "a replacement has no zero marks, so option (c) is unavailable",
                ));
            }
            if !c.marks.zero.get(*action) {
                return Err(RuleError::illegal(
                    "D-16",
                    format!("{action} has no zero mark; +1 max goes to a zero-marked type"),
                ));
            }
            if c.energy.max.get(*action) == u32::MAX {
                return Err(RuleError::illegal(
                    "IT-61",
                    "that energy maximum cannot rise further",
                ));
            }
            Ok(())
        }
        Improvement::LearnSpecial { special } => check_special(c, new_level, *special, repl),
    }
}

fn check_special(
    c: &Character,
    new_level: u32,
    special: Special,
    repl: Option<&Replacement>,
) -> Result<(), RuleError> {
    if repl.is_some() {
        return Err(RuleError::illegal(
            "D-33",
            "a replacement's starting level-ups learn no specials",
        ));
    }
    if c.knows_special(special) {
        return Err(RuleError::illegal(
            "IT-56",
            format!("{} already knows {special}; none is learned twice", c.name),
        ));
    }
    let req = special.requirement();
    if new_level < u32::from(req.level) {
        return Err(RuleError::illegal(
            "D-32",
            format!(
                "{special} requires level {}; the new level is {new_level}",
                req.level
            ),
        ));
    }
    if let Some(need) = req.needs.filter(|n| !c.knows_special(*n)) {
        return Err(RuleError::illegal(
            "IT-59",
            format!("{special} requires {need}"),
        ));
    }
    if req.pc_only && !c.is_pc() {
        return Err(RuleError::illegal(
            "IT-59",
            format!("{special} is for PCs only"),
        ));
    }
    Ok(())
}

/// Apply the combo edits to a copy of the combos, checking each (IT-63, D-5, D-33).
fn edited_combos(
    c: &Character,
    edits: &[ComboEdit],
    repl: Option<&Replacement>,
    cap: usize,
) -> Result<Vec<Combo>, RuleError> {
    if edits.is_empty() || edits.len() > COMBO_EDITS {
        return Err(RuleError::illegal(
            "IT-61",
            format!(
                "a level-up makes 1 or {COMBO_EDITS} combo edits, not {}",
                edits.len()
            ),
        ));
    }
    let mut combos = c.combos.clone();
    for e in edits {
        if !c.knows(e.followup) {
            return Err(RuleError::illegal(
                "D-5",
                format!("followup {} is not a known move", e.followup),
            ));
        }
        if let Some(r) = repl {
            let taught = r
                .combos
                .iter()
                .any(|k| k.from == e.from && k.followups.contains(&e.followup));
            if !taught {
                return Err(RuleError::illegal(
                    "D-33",
                    format!("the dead PC knew no combo {} → {}", e.from, e.followup),
                ));
            }
        }
        edit_one(&mut combos, e, cap)?;
    }
    Ok(combos)
}

/// One combo edit, with at most `cap` followups a starting move (IT-63; the rules: 2).
fn edit_one(combos: &mut Vec<Combo>, e: &ComboEdit, cap: usize) -> Result<(), RuleError> {
    let index = match combos.iter().position(|k| k.from == e.from) {
        Some(i) => i,
        None => {
            combos.push(Combo {
                from: e.from,
                followups: Vec::new(),
            });
            combos.len() - 1
        }
    };
    let followups = &mut combos[index].followups;
    if followups.contains(&e.followup) {
        return Err(RuleError::illegal(
            "IT-63",
            format!("{} already follows {}", e.followup, e.from),
        ));
    }
    match e.replaces {
        Some(old) => {
            let slot = followups.iter_mut().find(|f| **f == old).ok_or_else(|| {
                RuleError::illegal("IT-63", format!("{old} is not a followup of {}", e.from))
            })?;
            *slot = e.followup;
        }
        None if followups.len() >= cap => {
            return Err(RuleError::illegal(
                "IT-63",
                format!("{} already has {cap} followups; replace one", e.from),
            ));
        }
        None => followups.push(e.followup),
    }
    Ok(())
}

/// IT-65: goal, belief and flaw may be rewritten at any session end.
pub fn rewrite(
    table: &Table,
    seat: Seat,
    name: &str,
    texts: [Option<&str>; 3],
) -> Result<Vec<CampaignEvent>, RuleError> {
    require_session_end(table, "IT-65")?;
    let c = controlled(table, seat, name, "IT-65")?;
    if !c.is_pc() {
        return Err(RuleError::illegal("IT-65", format!("{name} is not a PC")));
    }
    if texts.iter().all(Option::is_none) {
        return Err(RuleError::illegal(
            "IT-65",
            "rewrite the goal, the belief or the flaw",
        ));
    }
    for t in texts.iter().flatten() {
        non_empty(t, "IT-65", "a rewritten goal, belief or flaw")?;
        crate::limits::text(t, "IT-65", "a goal, belief or flaw")?;
    }
    let now = [&c.goal.text, &c.belief.text, &c.flaw.text];
    if texts
        .iter()
        .zip(now)
        .all(|(new, old)| new.is_none_or(|t| t.trim() == old))
    {
        return Err(RuleError::illegal(
            "IT-65",
            "that is what the sheet already says",
        ));
    }
    let [goal, belief, flaw] = texts.map(|t| t.map(|s| s.trim().to_string()));
    Ok(vec![CampaignEvent::TraitsRewritten {
        character: c.name.clone(),
        goal,
        belief,
        flaw,
    }])
}

/// IT-65: backgrounds change only with GM approval — the GM gives this command. Backgrounds
/// are found and told apart by name as a player reads them (IT-10), so a rename may fix a
/// name's capitals but not give it another background's name.
pub fn change_background(
    table: &Table,
    seat: Seat,
    name: &str,
    background: &str,
    new_name: &str,
) -> Result<Vec<CampaignEvent>, RuleError> {
    require_gm(seat, "IT-65", "approves a background change")?;
    require_session_end(table, "IT-65")?;
    let c = table.find(name, "IT-65")?;
    if !c.is_pc() {
        return Err(RuleError::illegal("IT-65", format!("{name} is not a PC")));
    }
    let Some(old) = c.background(background) else {
        return Err(RuleError::illegal(
            "IT-65",
            format!(
                "{name} has no background {}",
                crate::limits::shown(background)
            ),
        ));
    };
    non_empty(new_name, "IT-65", "the new background")?;
    crate::limits::name(new_name, "IT-65", "the new background")?;
    let new_name = new_name.trim();
    if old.name == new_name {
        return Err(RuleError::illegal(
            "IT-65",
            format!("that is already the name of {name}'s background"),
        ));
    }
    let other = c
        .backgrounds
        .iter()
        .find(|b| b.name != old.name && crate::names::same(&b.name, new_name));
    if let Some(other) = other {
        return Err(RuleError::illegal(
            "IT-10",
            format!(
                "{name} already has a background called {}; each background has a name of its own",
                crate::limits::shown(&other.name)
            ),
        ));
    }
    Ok(vec![CampaignEvent::BackgroundChanged {
        character: c.name.clone(),
        background: old.name.clone(),
        new_name: new_name.to_string(),
    }])
}

pub fn apply(table: &mut Table, event: &CampaignEvent) {
    use CampaignEvent as E;
    match event {
        E::GoalMarked {
            character,
            achieved,
        } => {
            if let Some(c) = table.character_mut(character) {
                c.goal.achieved = *achieved;
            }
        }
        E::SessionEnded { .. } => {
            table.campaign.session_ending = true;
            table.campaign.levelled_this_session.clear();
        }
        E::SessionStarted { session } => {
            table.campaign.session = *session;
            table.campaign.session_ending = false;
            table.campaign.levelled_this_session.clear();
        }
        E::LevelledUp {
            character,
            improvement,
            refill,
            replacement,
            ..
        } => {
            apply_level_up(table, character, improvement, *refill, *replacement);
        }
        E::TraitsRewritten {
            character,
            goal,
            belief,
            flaw,
        } => {
            if let Some(c) = table.character_mut(character) {
                if let Some(t) = goal {
                    c.goal.text = t.clone();
                }
                if let Some(t) = belief {
                    c.belief.text = t.clone();
                }
                if let Some(t) = flaw {
                    c.flaw.text = t.clone();
                }
            }
        }
        E::BackgroundChanged {
            character,
            background,
            new_name,
        } => {
            if let Some(b) = table.character_mut(character).and_then(|c| {
                c.backgrounds
                    .iter_mut()
                    .find(|b| crate::names::same(&b.name, background))
            }) {
                b.name = new_name.clone();
            }
        }
        _ => {}
    }
}

fn apply_level_up(
    table: &mut Table,
    name: &str,
    improvement: &Improvement,
    refill: Option<Refill>,
    replacement: bool,
) {
    let repl = table.campaign.replacement(name).cloned();
    let cap = table.rules.followups as usize;
    let Some(c) = table.character_mut(name) else {
        return;
    };
    c.level = c.level.saturating_add(1);
    improve(c, improvement, repl.as_ref(), cap);
    if replacement {
        // A replacement is fresh: its refills change nothing and it has no marks to erase.
        if let Some(r) = table
            .campaign
            .replacements
            .iter_mut()
            .find(|r| r.character == name)
        {
            r.levels_left = r.levels_left.saturating_sub(1);
        }
        table.campaign.replacements.retain(|r| r.levels_left > 0);
        return;
    }
    match refill {
        Some(Refill::BackgroundPoints) => {
            for b in &mut c.backgrounds {
                b.current = b.max;
            }
            let assigned: u32 = c.backgrounds.iter().map(|b| b.max).sum();
            c.unassigned_points = BACKGROUND_POINTS.saturating_sub(assigned);
        }
        Some(Refill::Veto) => c.veto = true,
        None => {}
    }
    erase_after_level_up(c);
    table.campaign.levelled_this_session.push(name.to_string());
}

/// IT-64: goal and its mark, zero marks and Q1 are erased; belief and flaw marks only if both
/// are marked.
fn erase_after_level_up(c: &mut Character) {
    c.goal = Goal::default();
    c.marks.zero = Default::default();
    c.marks.q1 = false;
    if c.belief.marked && c.flaw.marked {
        c.belief.marked = false;
        c.flaw.marked = false;
    }
}

fn improve(c: &mut Character, improvement: &Improvement, repl: Option<&Replacement>, cap: usize) {
    match improvement {
        Improvement::LearnMove { mv, name } => c.moves.push(KnownMove {
            mv: *mv,
            name: name.trim().into(),
        }),
        Improvement::ComboEdits { edits } => {
            if let Ok(combos) = edited_combos(c, edits, repl, cap) {
                c.combos = combos;
            }
        }
        Improvement::Energy { action } => {
            let max = c.energy.max.get_mut(*action);
            *max = max.saturating_add(1); // D-16: current unchanged
        }
        Improvement::LearnSpecial { special } => c.specials.push(KnownSpecial {
            special: *special,
            spent: false,
        }),
    }
}

pub fn candidates(table: &Table, seat: Seat, out: &mut Vec<CampaignCommand>) {
    if seat == Seat::Gm {
        out.push(CampaignCommand::EndSession {});
        out.push(CampaignCommand::StartSession {});
        for c in table.characters.iter().filter(|c| c.is_pc()) {
            out.push(CampaignCommand::MarkGoal {
                character: c.name.clone(),
                achieved: !c.goal.achieved,
            });
            for b in &c.backgrounds {
                out.push(CampaignCommand::ChangeBackground {
                    character: c.name.clone(),
                    background: b.name.clone(),
                    new_name: format!("{} (renewed)", b.name),
                });
            }
        }
        return;
    }
    for c in table
        .characters
        .iter()
        .filter(|c| c.controller == seat && !c.dead)
    {
        out.push(CampaignCommand::MarkGoal {
            character: c.name.clone(),
            achieved: true,
        });
        out.push(CampaignCommand::RewriteTraits {
            character: c.name.clone(),
            goal: Some("A new goal".into()),
            belief: Some("A new belief".into()),
            flaw: Some("A new flaw".into()),
        });
        // Most of the time no improvement is open to the character: listing every one only to
        // have each refused would cost every seat's picture dearly.
        let refills = [Some(Refill::BackgroundPoints), Some(Refill::Veto), None];
        if refills
            .iter()
            .all(|r| may_level(table, seat, &c.name, *r).is_err())
        {
            continue;
        }
        for improvement in improvements(c) {
            for refill in refills {
                out.push(CampaignCommand::LevelUp {
                    character: c.name.clone(),
                    improvement: improvement.clone(),
                    refill,
                });
            }
        }
    }
}

fn improvements(c: &Character) -> Vec<Improvement> {
    let mut all: Vec<Improvement> = Move::ALL
        .iter()
        .filter(|m| !c.knows(**m))
        .map(|m| Improvement::LearnMove {
            mv: *m,
            name: m.to_string(),
        })
        .collect();
    all.extend(Action::ALL.map(|action| Improvement::Energy { action }));
    all.extend(
        Special::all()
            .into_iter()
            .map(|special| Improvement::LearnSpecial { special }),
    );
    for from in Move::ALL {
        for k in &c.moves {
            all.push(Improvement::ComboEdits {
                edits: vec![ComboEdit {
                    from,
                    followup: k.mv,
                    replaces: None,
                }],
            });
        }
    }
    all
}
