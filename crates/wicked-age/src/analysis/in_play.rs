//! Odds in play ([`SeatOdds`]): for a character of this seat that must answer a challenge,
//! every choice of forms (and of a strength that fits them) with the chance of each band
//! against the challenge rolled, from the seat's own view (nothing in this game is hidden).

use clash_analysis::exact::{Probability, ratio};
use clash_core::{Seat, SeatOdds};
use serde::Serialize;

use crate::character::{FormRef, NpcForm, PcForm, Sheet, Strength};
use crate::conflict::Conflict;
use crate::odds::Pool;
use crate::roll::{Outcome, RollValue, Table, judge};
use crate::variant::Rules;
use crate::{Character, View, WickedAge};

/// A seat's odds: each way its answerer may roll, with its bands.
#[derive(Debug, Clone, Serialize)]
pub struct Odds {
    pub answerer: String,
    pub round: u8,
    pub options: Vec<AnswerOption>,
}

/// One way to answer: the forms rolled, the strength added (if any) and the chance of each
/// band (WA-23).
#[derive(Debug, Clone, Serialize)]
pub struct AnswerOption {
    pub forms: Vec<FormRef>,
    pub strength: Option<String>,
    pub bands: Vec<Band>,
}

#[derive(Debug, Clone, Serialize)]
pub struct Band {
    pub outcome: Outcome,
    pub text: &'static str,
    pub probability: Probability,
}

/// The bands of answering a fixed challenge with `pool` (WA-23), exactly.
fn bands(pool: &Pool, challenge: RollValue, table: Table) -> Option<Vec<Band>> {
    let dist = pool.distribution().ok()?;
    let total = dist.total();
    let mut counts = [0u128; 4];
    for (p, t, n) in dist.values() {
        let o = judge(RollValue::new(p, t), challenge, table);
        counts[Outcome::ALL.iter().position(|x| *x == o)?] += n;
    }
    let shown = |o: &Outcome| {
        table == Table::Ordinary
            || matches!(
                o,
                Outcome::ChallengerKnockedOut | Outcome::AnswererKnockedOut
            )
    };
    Some(
        Outcome::ALL
            .iter()
            .zip(counts)
            .filter(|(o, _)| shown(o))
            .map(|(o, n)| Band {
                outcome: *o,
                text: o.describe(),
                probability: Probability::of(&ratio(n, total)),
            })
            .collect(),
    )
}

/// The choices of forms a character may roll: one NPC form, or two PC forms, each with dice.
fn form_choices(ch: &Character) -> Vec<Vec<FormRef>> {
    match &ch.sheet {
        Sheet::Npc { forms } => NpcForm::ALL
            .iter()
            .filter(|f| !forms.is_zero(**f))
            .map(|f| vec![FormRef::Npc(*f)])
            .collect(),
        Sheet::Pc { forms } => {
            let live: Vec<PcForm> = PcForm::ALL
                .iter()
                .copied()
                .filter(|f| !forms.get(*f).is_zero())
                .collect();
            let mut pairs = Vec::new();
            for (i, a) in live.iter().enumerate() {
                for b in &live[i + 1..] {
                    pairs.push(vec![FormRef::Pc(*a), FormRef::Pc(*b)]);
                }
            }
            pairs
        }
    }
}

/// Whether `strength` may be added to a roll of `chosen` (WA-9: its forms, two when broad).
fn fits(strength: &Strength, chosen: &[FormRef]) -> bool {
    chosen.iter().any(|f| match f {
        FormRef::Npc(n) => *n == strength.npc_form,
        FormRef::Pc(p) => strength.pc_forms().contains(p),
    })
}

/// The dice of `chosen` on `ch`'s sheet (zeros left out by the pool).
fn form_dice(ch: &Character, chosen: &[FormRef]) -> Vec<u32> {
    chosen
        .iter()
        .filter_map(|f| ch.form_dice(*f))
        .flatten()
        .map(|d| d.sides())
        .collect()
}

/// The bonus dice the answerer holds in this conflict: the Advantage die and an Owe die (d6s
/// as written; the table's variant may change them).
fn bonus_dice(conflict: &Conflict, name: &str, rules: &Rules) -> Option<Vec<u32>> {
    let part = conflict.participant(name)?;
    let advantage = conflict.advantage.as_deref() == Some(name);
    Some(rules.bonus_dice(advantage, part.owe_die))
}

impl SeatOdds for WickedAge {
    type Odds = Odds;

    /// For a character of this seat that must answer, every choice of forms (and of a strength
    /// that fits them) with the chance of each band against the challenge rolled.
    fn odds(view: &View, seat: Seat) -> Option<Odds> {
        let conflict = view.table.conflict.as_ref()?;
        let pending = conflict.pending.as_ref()?;
        let name = pending.target.as_str();
        let ch = view.table.character(name)?;
        if ch.controller != seat {
            return None;
        }
        let table = Table::for_round(conflict.round, view.table.rules.rounds);
        let bonus = bonus_dice(conflict, name, &view.table.rules)?;
        let strengths: Vec<&Strength> = ch.strengths.iter().filter(|s| !s.die.is_zero()).collect();
        let mut options = Vec::new();
        for chosen in form_choices(ch) {
            let dice = form_dice(ch, &chosen);
            let mut extras: Vec<Option<&Strength>> = vec![None];
            extras.extend(
                strengths
                    .iter()
                    .filter(|s| fits(s, &chosen))
                    .map(|s| Some(*s)),
            );
            for strength in extras {
                let mut b = bonus.clone();
                b.extend(strength.map(|s| s.die.sides()));
                let pool = Pool::new(dice.clone()).with_bonus(b);
                options.push(AnswerOption {
                    forms: chosen.clone(),
                    strength: strength.map(|s| s.name.clone()),
                    bands: bands(&pool, pending.roll.value, table)?,
                });
            }
        }
        Some(Odds {
            answerer: name.to_string(),
            round: conflict.round,
            options,
        })
    }
}
