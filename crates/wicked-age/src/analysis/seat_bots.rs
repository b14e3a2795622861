//! In A Wicked Age at the table. Nothing in this game is hidden (sheets, rolls and the Owe List
//! are public), so the seat's view carries the whole table, and the strong bot reads it there.
//!
//! * **casual**: a random roll (of the typical forms), challenge, answer, agreement, Owe
//!   cash-in or consequence;
//! * **strong**: rolls the forms with the best exact odds ([`OddsBot`]: for an answer, the best
//!   expected outcome against the challenge rolled; for initiative, the best worst case over the
//!   others' choices). It picks whom to challenge, and with which forms and strength, by the
//!   exact expected outcome of the exchange, knowing that the target sees the challenge rolled
//!   before it picks its answer (WA-23) and so answers each value with its best choice; when its
//!   initiative roll stands as its challenge (WA-22), by the target's best answer to that
//!   value. As a winner it picks the default consequence that costs the loser the most
//!   dice (each tried on a copy of the table through the engine); offered an alternative, it
//!   accepts only when that costs it no more than the worst default would.
//!
//! Outcomes are scored as [`OddsBot`] scores them: knocking the other out +2, taking the
//! Advantage +1, losing it −1, being knocked out −2. The work is bounded by the sheets: at most
//! every choice of forms and strength of the bot's character against every choice of each
//! other participant; once the clock runs out it challenges with the best choice found so far.
//!
//! No bot starts a conflict, ends a chapter, picks an Oracle, brings a character back,
//! proposes terms or concedes: those are a person's words or a person's call.

use std::collections::HashMap;

use crate::character::{NpcForm, PcForm, Sheet, Status as CharacterStatus};
use crate::conflict::sample_choices;
use crate::consequence::DefaultConsequence;
use crate::odds::Distribution;
use crate::roll::{Outcome, RollValue, Table, judge};
use crate::{Command, State, WickedAge};
use clash_core::{Budget, Randomness, Seat, SeatBot, SeatTable, SeededRandomness, execute};

use crate::analysis::odds_bot::{OddsBot, pool_of};
use clash_analysis::bots::Bot;
use clash_analysis::bots::pick_random;
use clash_analysis::table_bots::{Deadline, Seated, Sends, bot_commands, or_casual};

impl Seated for WickedAge {
    fn bot_sends(command: &Command) -> Sends {
        match command {
            Command::StartConflict { .. }
            | Command::EndChapter {}
            | Command::ChooseOracle { .. }
            | Command::BringBack { .. }
            | Command::ProposeEnd { .. }
            | Command::ProposeAlternative { .. }
            | Command::Concede { .. } => Sends::Never,
            _ => Sends::Play,
        }
    }

    fn strong() -> Box<dyn SeatBot<Self>> {
        Box::new(Strong)
    }
}

/// The strong In A Wicked Age bot.
#[derive(Debug, Clone, Copy, Default)]
pub struct Strong;

/// The defaults a winner picks from (WA-27).
const DEFAULTS: [DefaultConsequence; 3] = [
    DefaultConsequence::Exhausted,
    DefaultConsequence::Injured,
    DefaultConsequence::Shamed,
];

/// What `name` stands to lose: the sides of every die on its sheet, and far more for leaving
/// play (out of the chapter, or dead).
fn worth(state: &State, name: &str) -> i64 {
    let Some(ch) = state.character(name) else {
        return 0;
    };
    let forms: u32 = match &ch.sheet {
        Sheet::Pc { forms } => PcForm::ALL.iter().map(|f| forms.get(*f).sides()).sum(),
        Sheet::Npc { forms } => NpcForm::ALL
            .iter()
            .flat_map(|f| forms.get(*f))
            .map(|d| d.sides())
            .sum(),
    };
    let strengths: u32 = ch.strengths.iter().map(|s| s.die.sides()).sum();
    let standing = match ch.status {
        CharacterStatus::Active => 1000,
        CharacterStatus::OutOfChapter => 100,
        CharacterStatus::Dead => 0,
    };
    i64::from(forms + strengths) + standing
}

/// What `command` sent by `seat` would cost `loser`, tried on a copy of the table through the
/// engine; `None` if the engine refuses it.
fn cost_to(state: &State, seat: Seat, command: &Command, loser: &str) -> Option<i64> {
    let mut copy = state.clone();
    execute::<WickedAge>(&mut copy, seat, command, &mut SeededRandomness::new(0)).ok()?;
    Some(worth(state, loser) - worth(&copy, loser))
}

impl Strong {
    /// As a winner: the default costing the loser the most.
    fn consequence(&self, table: &SeatTable<WickedAge>, options: &[Command]) -> Option<Command> {
        let state = &table.view.table;
        options
            .iter()
            .filter_map(|c| match c {
                Command::ChooseConsequence { loser, .. } => {
                    Some((c, cost_to(state, table.seat, c, loser)?))
                }
                _ => None,
            })
            .max_by_key(|(_, cost)| *cost)
            .map(|(c, _)| c.clone())
    }

    /// As a loser offered an alternative: accept it when it costs no more than the worst
    /// default the winner could pick instead, else refuse.
    fn answer_offer(&self, table: &SeatTable<WickedAge>, options: &[Command]) -> Option<Command> {
        let state = &table.view.table;
        let accept = options
            .iter()
            .find(|c| matches!(c, Command::AcceptAlternative { .. }))?;
        let Command::AcceptAlternative { loser } = accept else {
            return None;
        };
        let refuse = options
            .iter()
            .find(|c| matches!(c, Command::RefuseAlternative { .. }));
        let offered = cost_to(state, table.seat, accept, loser)?;
        let k = state
            .conflict
            .as_ref()?
            .open_knockouts()
            .find(|k| &k.loser == loser)?;
        let winner = state.character(&k.winner)?.controller;
        // What the winner could impose after a refusal, tried as if the offer were gone.
        let mut refused = state.clone();
        let refusal = Command::RefuseAlternative {
            loser: loser.clone(),
        };
        execute::<WickedAge>(
            &mut refused,
            table.seat,
            &refusal,
            &mut SeededRandomness::new(0),
        )
        .ok()?;
        let worst_default = DEFAULTS
            .iter()
            .filter_map(|d| {
                let pick = Command::ChooseConsequence {
                    loser: loser.clone(),
                    consequence: *d,
                    waive_consequential: false,
                };
                cost_to(&refused, winner, &pick, loser)
            })
            .max()
            .unwrap_or(0);
        match refuse {
            Some(refuse) if offered > worst_default => Some(refuse.clone()),
            _ => Some(accept.clone()),
        }
    }
}

/// What an outcome is worth to the challenger (the answerer gets the opposite).
fn to_challenger(outcome: Outcome) -> f64 {
    match outcome {
        Outcome::AnswererKnockedOut => 2.0,
        Outcome::ChallengerTakesAdvantage => 1.0,
        Outcome::AnswererTakesAdvantage => -1.0,
        Outcome::ChallengerKnockedOut => -2.0,
    }
}

/// The answerer's expected score answering a challenge of value `challenge` with a pool whose
/// throws are `dist`.
fn answer_value(dist: &Distribution, challenge: RollValue, table: Table) -> f64 {
    let total = dist.total() as f64;
    let sum: f64 = dist
        .values()
        .map(|(p, t, n)| n as f64 * -to_challenger(judge(RollValue::new(p, t), challenge, table)))
        .sum();
    sum / total
}

/// Every throw distribution `name` could roll now, one per choice of forms and strength.
fn throws(state: &State, name: &str) -> Vec<Distribution> {
    let Some(ch) = state.character(name) else {
        return Vec::new();
    };
    sample_choices(ch)
        .iter()
        .filter_map(|c| pool_of(state, ch, c)?.distribution().ok())
        .collect()
}

/// How well a target answers: it sees the challenge rolled before it picks its forms (WA-23),
/// so for each challenge value it answers with its best choice. Worked out once per value.
struct Answerer {
    choices: Vec<Distribution>,
    table: Table,
    best: HashMap<RollValue, f64>,
}

impl Answerer {
    fn new(state: &State, name: &str, table: Table) -> Answerer {
        Answerer {
            choices: throws(state, name),
            table,
            best: HashMap::new(),
        }
    }

    /// The target's expected score answering a challenge of value `c` as well as it can.
    fn best(&mut self, c: RollValue) -> f64 {
        if let Some(v) = self.best.get(&c) {
            return *v;
        }
        let v = self
            .choices
            .iter()
            .map(|d| answer_value(d, c, self.table))
            .fold(f64::MIN, f64::max);
        let v = if self.choices.is_empty() { 0.0 } else { v };
        self.best.insert(c, v);
        v
    }

    /// The challenger's expected score rolling `throws` at this target.
    fn against(&mut self, throws: &Distribution) -> f64 {
        let total = throws.total() as f64;
        let sum: f64 = throws
            .values()
            .map(|(p, t, n)| n as f64 * -self.best(RollValue::new(p, t)))
            .sum();
        sum / total
    }
}

/// The best challenge among the seat's: whom to challenge and with which forms (and strength),
/// by the exact expected outcome against each target's best answer to the value rolled.
fn challenge(
    state: &State,
    options: &[Command],
    deadline: &Deadline,
    rng: &mut dyn Randomness,
) -> Option<Command> {
    let conflict = state.conflict.as_ref()?;
    let table = Table::for_round(conflict.round, state.rules.rounds);
    let mut answerers: HashMap<String, Answerer> = HashMap::new();
    let mut best: Vec<Command> = Vec::new();
    let mut best_score = f64::MIN;
    for option in options {
        let Command::Challenge {
            character,
            target,
            choice,
        } = option
        else {
            continue;
        };
        let answerer = answerers
            .entry(target.clone())
            .or_insert_with(|| Answerer::new(state, target, table));
        let mut scored = Vec::new();
        if choice.is_empty() {
            // The initiative roll stands as the challenge (WA-22).
            let Some(standing) = conflict.standing.as_ref() else {
                continue;
            };
            scored.push((option.clone(), -answerer.best(standing.value)));
        } else {
            let Some(ch) = state.character(character) else {
                continue;
            };
            for mine in sample_choices(ch) {
                if deadline.passed() && !best.is_empty() {
                    break;
                }
                let Some(dist) = pool_of(state, ch, &mine).and_then(|p| p.distribution().ok())
                else {
                    continue;
                };
                let command = Command::Challenge {
                    character: character.clone(),
                    target: target.clone(),
                    choice: mine,
                };
                scored.push((command, answerer.against(&dist)));
            }
        }
        for (command, score) in scored {
            if score > best_score + 1e-12 {
                best_score = score;
                best = vec![command];
            } else if (score - best_score).abs() <= 1e-12 {
                best.push(command);
            }
        }
    }
    pick_random(best, rng)
}

impl SeatBot<WickedAge> for Strong {
    fn choose(
        &self,
        table: &SeatTable<WickedAge>,
        budget: Budget,
        rng: &mut dyn Randomness,
    ) -> Option<Command> {
        if !table.to_act() {
            return None;
        }
        let options = bot_commands(table);
        if let Some(c) = self.answer_offer(table, &options) {
            return Some(c);
        }
        if let Some(c) = self.consequence(table, &options) {
            return Some(c);
        }
        let deadline = Deadline::start(budget);
        if let Some(c) = challenge(&table.view.table, &options, &deadline, rng) {
            return Some(c);
        }
        // The odds bot reads the table the view carries; its rolls are checked against the
        // seat's own legal list before they are sent.
        let rolled = OddsBot::default().choose(&table.view.table, table.seat, rng);
        or_casual(rolled, |c| rolls_for_seat(table, c), table, budget, rng)
    }
}

/// Whether `command` is a roll of a character the seat plays, of a kind its legal list offers
/// (the legal list gives one typical choice of forms per roll; any other choice is as legal).
fn rolls_for_seat(table: &SeatTable<WickedAge>, command: &Command) -> bool {
    let same = |a: &Command, b: &Command| match (a, b) {
        (
            Command::RollInitiative { character: x, .. },
            Command::RollInitiative { character: y, .. },
        )
        | (Command::Answer { character: x, .. }, Command::Answer { character: y, .. }) => x == y,
        (
            Command::Challenge {
                character: x,
                target: t,
                ..
            },
            Command::Challenge {
                character: y,
                target: u,
                ..
            },
        ) => x == y && t == u,
        (a, b) => a == b,
    };
    table.legal.iter().any(|l| same(l, command)) && WickedAge::bot_sends(command) == Sends::Play
}

/// The exact-odds roller alone ([`OddsBot`]), deciding from the view: the policy
/// [`clash_analysis::bots`] had. Kept as the yardstick the strong bot is measured against.
#[derive(Debug, Clone, Copy, Default)]
pub struct Odds;

impl SeatBot<WickedAge> for Odds {
    fn choose(
        &self,
        table: &SeatTable<WickedAge>,
        budget: Budget,
        rng: &mut dyn Randomness,
    ) -> Option<Command> {
        if !table.to_act() {
            return None;
        }
        or_casual(
            OddsBot::default().choose(&table.view.table, table.seat, rng),
            |c| rolls_for_seat(table, c),
            table,
            budget,
            rng,
        )
    }
}
