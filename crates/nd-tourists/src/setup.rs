//! Setting up a Conflict: parties, goals and seating (ND-5), totals (ND-6), initial Control
//! (ND-7, ND-8) and Reserves (ND-10).

use std::sync::Arc;

use clash_core::{RuleError, Seat};
use serde::{Deserialize, Serialize};

use crate::cards::{Card, CardSet};
use crate::limits;
use crate::state::{
    CharacterState, PartyState, Phase, ReserveCard, Round, RoundKind, State, Status,
};

/// Reserve size printed on a player character sheet (S4).
pub const DEFAULT_SHEET_RESERVE: u8 = 3;

/// The JSON a table gives to start a Conflict, or to resume one from a position.
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "nd-tourists/"))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Setup {
    /// The parties in seating order (D-21).
    pub parties: Vec<PartySetup>,
    /// Add the 10 suit blanks to the deck (D-1). Off by default.
    #[serde(default)]
    pub blanks: bool,
    /// A Conflict already under way: everything on the table besides the sheets and the
    /// Reserves (see [`crate::position`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub position: Option<crate::position::Position>,
    /// Which chances to react each party is asked about to begin with (D-4, see
    /// [`crate::reactions`]): the table's forms and ready-made setups say `own_cards`; a setup
    /// that says nothing asks at every chance, as tables did before.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reactions: Option<crate::state::Asking>,
}

/// One party (ND-5): allies sharing one goal.
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "nd-tourists/"))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PartySetup {
    pub name: String,
    /// `gm` for a non-player party, `p1`, `p2`, … for a player party.
    pub seat: Seat,
    #[serde(default)]
    pub goal: String,
    pub characters: Vec<CharacterSetup>,
    /// Non-player parties only: Reserve cards drawn before the Conflict (ND-10). Default: one
    /// per opposing player character sheet with a Reserve.
    #[serde(default)]
    pub reserve_draws: Option<u8>,
}

/// One character sheet.
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "nd-tourists/"))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CharacterSetup {
    pub name: String,
    /// The Attribute chosen for this Conflict (ND-6).
    pub attribute: Attribute,
    #[serde(default)]
    pub aspects: Vec<Trait>,
    #[serde(default)]
    pub weaknesses: Vec<Trait>,
    /// Reserve size on the sheet; default 3 for player characters (S4).
    #[serde(default)]
    pub reserve_size: Option<u8>,
    /// Reserve cards already held (player characters; drawn at session start).
    #[serde(default)]
    pub reserve: Vec<ReserveSpec>,
    /// Reserve cards held that whoever wrote the setup could not see: the GM's `start` deals
    /// that many fresh from the deck (a position exported for one seat leaves out the other
    /// seats' Reserves this way).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub reserve_unseen: u8,
}

fn is_zero(n: &u8) -> bool {
    *n == 0
}

#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "nd-tourists/"))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Attribute {
    pub name: String,
    pub value: i32,
}

/// An Aspect or Weakness: a plain name (relevant to this Conflict) or `{name, relevant}`.
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "nd-tourists/"))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged, deny_unknown_fields)]
pub enum Trait {
    Named(String),
    Detailed {
        name: String,
        #[serde(default = "yes")]
        relevant: bool,
    },
}

fn yes() -> bool {
    true
}

impl Trait {
    pub fn name(&self) -> &str {
        match self {
            Trait::Named(n) | Trait::Detailed { name: n, .. } => n,
        }
    }

    /// ND-6: relevance is an input.
    pub fn relevant(&self) -> bool {
        match self {
            Trait::Named(_) => true,
            Trait::Detailed { relevant, .. } => *relevant,
        }
    }
}

/// A Reserve card in a setup: `"XIV"` (upright) or `{"card": "XIV", "reversed": true}`.
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "nd-tourists/"))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged, deny_unknown_fields)]
pub enum ReserveSpec {
    Upright(Card),
    Oriented {
        card: Card,
        #[serde(default)]
        reversed: bool,
    },
}

impl ReserveSpec {
    pub fn card(self) -> ReserveCard {
        match self {
            ReserveSpec::Upright(card) => ReserveCard {
                card,
                reversed: false,
            },
            ReserveSpec::Oriented { card, reversed } => ReserveCard { card, reversed },
        }
    }
}

/// A party's fixed sheet, derived from the setup.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PartySheet {
    pub name: String,
    pub seat: Seat,
    pub goal: String,
    /// Played by the GM (ND-10).
    pub npc: bool,
    pub characters: Vec<CharacterSheet>,
    /// ND-6 total.
    pub total: i32,
    /// Reserve cards to draw before the Conflict (ND-10, non-player parties).
    pub reserve_draws: u8,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CharacterSheet {
    pub name: String,
    pub attribute: Attribute,
    pub aspects: Vec<Trait>,
    pub weaknesses: Vec<Trait>,
    /// Reserve size on the sheet: the refill limit (ND-26).
    pub reserve_size: u8,
}

/// Everything fixed for the whole Conflict.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Table {
    pub parties: Vec<PartySheet>,
    pub blanks: bool,
    /// ND-8: the initial Control was 5 or more, so the table may skip the Conflict.
    pub large_gap: bool,
    /// What the setup said of asking (see [`Setup::reactions`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reactions: Option<crate::state::Asking>,
}

impl Table {
    pub fn find_party(&self, name: &str) -> Option<u8> {
        self.parties
            .iter()
            .position(|p| p.name.eq_ignore_ascii_case(name))
            .map(|i| i as u8)
    }
}

/// ND-6: best Attribute among the party's characters, +1 per relevant Aspect, −1 per relevant
/// Weakness of any of them.
pub fn total(characters: &[CharacterSetup]) -> i32 {
    let best = characters
        .iter()
        .map(|c| c.attribute.value)
        .max()
        .unwrap_or(0);
    let aspects = characters
        .iter()
        .flat_map(|c| &c.aspects)
        .filter(|t| t.relevant())
        .count() as i32;
    let weaknesses = characters
        .iter()
        .flat_map(|c| &c.weaknesses)
        .filter(|t| t.relevant())
        .count() as i32;
    best + aspects - weaknesses
}

/// ND-7: the Dominant and its Control, from the totals in seating order.
pub fn initial_control(totals: &[i32]) -> (Option<u8>, u8) {
    let Some(top) = totals.iter().copied().max() else {
        return (None, 0);
    };
    let at_top: Vec<usize> = (0..totals.len()).filter(|i| totals[*i] == top).collect();
    if at_top.len() != 1 {
        return (None, 0);
    }
    let second = totals
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != at_top[0])
        .map(|(_, t)| *t)
        .max();
    let gap = second.map_or(0, |s| top - s).clamp(0, 255) as u8;
    (Some(at_top[0] as u8), gap)
}

/// ND-10: the usual NPC Reserve, one card per opposing player character sheet with a Reserve.
fn usual_npc_reserve(setup: &Setup, npc: usize, sizes: &[Vec<u8>]) -> u8 {
    let count = setup
        .parties
        .iter()
        .enumerate()
        .filter(|(i, p)| *i != npc && p.seat != Seat::Gm)
        .map(|(i, _)| sizes[i].iter().filter(|s| **s > 0).count())
        .sum::<usize>();
    count.min(255) as u8
}

fn check(ok: bool, rule: &'static str, why: impl FnOnce() -> String) -> Result<(), RuleError> {
    if ok {
        Ok(())
    } else {
        Err(RuleError::setup(rule, why()))
    }
}

fn validate(setup: &Setup) -> Result<(), RuleError> {
    let n = setup.parties.len();
    check(n >= 2, "ND-5", || {
        "a Conflict needs at least 2 parties".into()
    })?;
    limits::TABLE.setup_count("parties", n, limits::MAX_PARTIES)?;
    for (i, p) in setup.parties.iter().enumerate() {
        validate_party(setup, i, p)?;
    }
    Ok(())
}

fn validate_party(setup: &Setup, i: usize, p: &PartySetup) -> Result<(), RuleError> {
    if let Some(problem) = party_problems(p).into_iter().next() {
        return Err(problem.1);
    }
    if let Some(q) = setup.parties[..i]
        .iter()
        .find(|q| q.name.eq_ignore_ascii_case(&p.name))
    {
        return Err(RuleError::setup(
            "ND-5",
            format!("two parties are called {}", q.name),
        ));
    }
    if let Some(q) = setup.parties[..i]
        .iter()
        .find(|q| p.seat != Seat::Gm && q.seat == p.seat)
    {
        return Err(RuleError::setup(
            "ND-5",
            format!(
                "{} and {} are played from the same player seat; only the GM plays several parties",
                q.name, p.name
            ),
        ));
    }
    Ok(())
}

/// Every problem of one party's sheet taken alone, each with its field (`name`, `goal`,
/// `characters`, `characters.1`, `reserve_draws`): what a form can check before the party
/// meets the others (ND-5, ND-6, ND-10, ND-28 and the table limits).
pub fn party_problems(p: &PartySetup) -> Vec<(String, RuleError)> {
    let mut out: Vec<(String, RuleError)> = Vec::new();
    let mut note = |field: &str, r: Result<(), RuleError>| {
        if let Err(e) = r {
            out.push((field.to_string(), e));
        }
    };
    note(
        "name",
        check(!p.name.trim().is_empty(), "ND-5", || {
            "every party needs a name".into()
        })
        .and_then(|()| limits::TABLE.setup_name("a party's name", &p.name)),
    );
    note("goal", limits::TABLE.setup_text("a goal", &p.goal));
    note(
        "characters",
        check(!p.characters.is_empty(), "ND-5", || {
            format!("{} has no characters", p.name)
        })
        .and_then(|()| {
            limits::TABLE.setup_count(
                "characters in a party",
                p.characters.len(),
                limits::MAX_CHARACTERS,
            )
        }),
    );
    note(
        "reserve_draws",
        check(
            p.seat == Seat::Gm || p.reserve_draws.is_none(),
            "ND-10",
            || {
                format!(
                    "{} is a player party: its Reserves are on the sheets, not drawn by the GM",
                    p.name
                )
            },
        )
        .and_then(|()| {
            limits::TABLE.setup_count(
                "Reserve cards drawn for a party",
                p.reserve_draws.unwrap_or(0) as usize,
                limits::MAX_RESERVE,
            )
        }),
    );
    if p.characters.len() <= limits::MAX_CHARACTERS {
        for (k, c) in p.characters.iter().enumerate() {
            note(&format!("characters.{k}"), validate_character(p, k, c));
        }
    }
    out
}

fn validate_character(p: &PartySetup, k: usize, c: &CharacterSetup) -> Result<(), RuleError> {
    check(!c.name.trim().is_empty(), "ND-28", || {
        format!("every character of {} needs a name", p.name)
    })?;
    limits::TABLE.setup_name("a character's name", &c.name)?;
    if p.characters[..k]
        .iter()
        .any(|o| o.name.eq_ignore_ascii_case(&c.name))
    {
        return Err(RuleError::setup(
            "ND-28",
            format!("two characters of {} are called {}", p.name, c.name),
        ));
    }
    limits::TABLE.setup_name("an Attribute's name", &c.attribute.name)?;
    check((-50..=50).contains(&c.attribute.value), "ND-6", || {
        format!(
            "{}'s {} of {} is out of range (−50 to 50)",
            c.name, c.attribute.name, c.attribute.value
        )
    })?;
    limits::TABLE.setup_count("Aspects on a sheet", c.aspects.len(), limits::MAX_TRAITS)?;
    limits::TABLE.setup_count(
        "Weaknesses on a sheet",
        c.weaknesses.len(),
        limits::MAX_TRAITS,
    )?;
    for t in c.aspects.iter().chain(&c.weaknesses) {
        limits::TABLE.setup_name("an Aspect or Weakness", t.name())?;
    }
    limits::TABLE.setup_count(
        "Reserve cards held by a character",
        c.reserve.len() + c.reserve_unseen as usize,
        limits::MAX_RESERVE,
    )?;
    Ok(())
}

/// Build the starting state: totals, Control, Reserves out of the deck.
pub fn build(setup: &Setup) -> Result<State, RuleError> {
    validate(setup)?;
    let mut deck = CardSet::full_deck(setup.blanks);
    let sizes: Vec<Vec<u8>> = setup
        .parties
        .iter()
        .map(|p| {
            p.characters
                .iter()
                .map(|c| {
                    c.reserve_size.unwrap_or(if p.seat == Seat::Gm {
                        0
                    } else {
                        DEFAULT_SHEET_RESERVE
                    })
                })
                .collect()
        })
        .collect();
    let mut parties = Vec::new();
    let mut sheets = Vec::new();
    for (i, p) in setup.parties.iter().enumerate() {
        let npc = p.seat == Seat::Gm;
        let draws = if npc {
            p.reserve_draws
                .unwrap_or_else(|| usual_npc_reserve(setup, i, &sizes))
        } else {
            0
        };
        let mut characters = Vec::new();
        let mut character_sheets = Vec::new();
        for (k, c) in p.characters.iter().enumerate() {
            let mut reserve = Vec::new();
            for spec in &c.reserve {
                let r = spec.card();
                check(deck.contains(r.card), "ND-10", || {
                    format!(
                        "{} is not in the deck (held twice, or a blank with blanks off)",
                        r.card
                    )
                })?;
                check(!r.card.is_excuse(), "ND-10", || {
                    "the Excuse is never kept in a Reserve".into()
                })?;
                deck.remove(r.card);
                reserve.push(r);
            }
            // An NPC's sheet size is what the GM drew for it (first character), the refill limit.
            let size = match (npc, k, c.reserve_size) {
                (_, _, Some(s)) => s,
                (true, 0, None) => draws.max(reserve.len() as u8),
                (true, _, None) => reserve.len() as u8,
                (false, _, None) => DEFAULT_SHEET_RESERVE,
            };
            characters.push(CharacterState {
                reserve,
                tally: 0,
                conceded: false,
                new_weaknesses: Vec::new(),
                unseen: c.reserve_unseen,
            });
            character_sheets.push(CharacterSheet {
                name: c.name.clone(),
                attribute: c.attribute.clone(),
                aspects: c.aspects.clone(),
                weaknesses: c.weaknesses.clone(),
                reserve_size: size,
            });
        }
        sheets.push(PartySheet {
            name: p.name.clone(),
            seat: p.seat,
            goal: p.goal.clone(),
            npc,
            characters: character_sheets,
            total: total(&p.characters),
            reserve_draws: draws,
        });
        parties.push(PartyState {
            status: Status::InPlay,
            bid_line: Vec::new(),
            temporary: Vec::new(),
            lasting: Vec::new(),
            lasting_taken: 0,
            characters,
            last_drawer: None,
            loss_this_round: None,
            tactics: None,
            auto_pass: crate::state::AutoPass {
                asking: setup.reactions.unwrap_or_default(),
                ..Default::default()
            },
        });
    }
    let totals: Vec<i32> = sheets.iter().map(|s| s.total).collect();
    let (dominant, control) = initial_control(&totals);
    let large_gap = control >= 5;
    let table = Table {
        parties: sheets,
        blanks: setup.blanks,
        large_gap,
        reactions: setup.reactions,
    };
    let mut state = State {
        table: Arc::new(table),
        phase: Phase::Preparing,
        round: Round {
            number: 0,
            kind: if control == 0 {
                RoundKind::BalanceBreaker
            } else {
                RoundKind::Unbalanced
            },
            turn: None,
            passes: 0,
            window: None,
            reacting: None,
            rejection: None,
            excuse: None,
            result: None,
        },
        dominant,
        control,
        tokens: 0,
        deck,
        discard: CardSet::EMPTY,
        parties,
        victor: None,
        ended: None,
        resume: None,
    };
    if let Some(position) = &setup.position {
        crate::position::resume(&mut state, position)?;
    }
    Ok(state)
}
