//! The driver: a record replayed step by step through the rules, each step judged as it comes,
//! resumable between slices of time ([`clash_core::Reviewer`]).

use std::collections::BTreeMap;
use std::time::Instant;

use clash_core::review::{
    ChancePoint, ConflictReview, Grade, Hindsight, Luck, MAX_STEPS, Moment, Progress, Record,
    Refusal, Review, Reviewer, Side, Verdict,
};
use clash_core::{Draw, Randomness, RandomnessError, Ruleset, Seat, SeatTable};
use serde::de::DeserializeOwned;

use super::chance::outcomes;
use super::score::{self, Tally};
use super::{Conflict, GameVerdict, Judged, Later, Reviewed};

/// The most different results of one roll or draw whose chances a review weighs.
pub const MAX_RESULTS: usize = 400;

/// One command of the record, read as the ruleset's own types.
struct Typed<R: Ruleset> {
    seat: Seat,
    command: R::Command,
    draws: Vec<Draw>,
    events: Vec<R::Event>,
}

/// One conflict's review as it grows.
struct Acc {
    info: Conflict,
    first_step: u32,
    last_step: u32,
    points: Vec<ChancePoint>,
    moments: Vec<Moment>,
    /// `(seat, side, loss, the point before the decision)` of every decision judged.
    decisions: Vec<(Seat, usize, f64, usize)>,
    /// Per side: luck summed, and rolls that moved its chance.
    luck: Vec<f64>,
    rolls: Vec<u32>,
    result: Option<Vec<f64>>,
}

impl Acc {
    fn side_of(&mut self, side: &Side) -> usize {
        if let Some(i) = self.info.sides.iter().position(|s| s.name == side.name) {
            return i;
        }
        self.info.sides.push(side.clone());
        self.luck.push(0.0);
        self.rolls.push(0);
        self.info.sides.len() - 1
    }
}

/// A review of ruleset `R` being worked out.
pub struct Driver<R: Reviewed> {
    steps: Vec<Typed<R>>,
    /// The state before step `next`, and the log up to it.
    state: R::State,
    log: Vec<R::Event>,
    next: usize,
    names: BTreeMap<Seat, String>,
    conflicts: Vec<Acc>,
    /// While a conflict is open: each of its sides' chance now, if known.
    now: Option<Option<Vec<f64>>>,
    unevaluated: BTreeMap<String, u32>,
    stopped: Option<String>,
}

fn parse<T: DeserializeOwned>(what: &str, v: &serde_json::Value) -> Result<T, Refusal> {
    T::deserialize(v).map_err(|e| Refusal::Unreadable(format!("{what}: {e}")))
}

/// Chance handed out exactly as the record says it fell.
struct Replayed<'a> {
    draws: &'a [Draw],
    at: usize,
}

impl Randomness for Replayed<'_> {
    fn roll(&mut self, sides: u32) -> Result<u32, RandomnessError> {
        let d = self.draws.get(self.at);
        self.at += 1;
        match d {
            Some(Draw::Roll { sides: s, face }) if *s == sides && (1..=sides).contains(face) => {
                Ok(*face)
            }
            _ => Err(RandomnessError::ScriptMismatch {
                given: d.map_or("nothing".into(), |d| d.to_string()),
                wanted: format!("a d{sides}"),
            }),
        }
    }

    fn choose(
        &mut self,
        count: usize,
        _label: &dyn Fn(usize) -> String,
    ) -> Result<usize, RandomnessError> {
        let d = self.draws.get(self.at);
        self.at += 1;
        match d {
            Some(Draw::Pick {
                count: c, index, ..
            }) if *c == count && *index < count => Ok(*index),
            _ => Err(RandomnessError::ScriptMismatch {
                given: d.map_or("nothing".into(), |d| d.to_string()),
                wanted: format!("a pick among {count}"),
            }),
        }
    }
}

/// A seed for the evaluations of step `k`, so that a review is the same every time.
fn seed(k: usize) -> u64 {
    0x005e_ed0f_c1a5_u64 ^ (k as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)
}

impl<R: Reviewed> Driver<R> {
    /// Read `record` through the rules: every command must be legal where it stands and make
    /// exactly the events the record gives it, with the chance the record says it took.
    pub fn new(record: &Record) -> Result<Driver<R>, Refusal> {
        if record.steps.len() > MAX_STEPS {
            return Err(Refusal::TooLong {
                steps: record.steps.len(),
                max: MAX_STEPS,
            });
        }
        let setup: R::Setup = parse("the setup", &record.setup)?;
        let (start, opening) = clash_core::start::<R>(&setup)
            .map_err(|e| Refusal::Unreadable(format!("the setup is refused: {e}")))?;
        let mut state = start.clone();
        let mut steps = Vec::with_capacity(record.steps.len());
        for (k, step) in record.steps.iter().enumerate() {
            let command: R::Command = parse(&format!("command {}", k + 1), &step.command)?;
            let mut replayed = Replayed {
                draws: &step.draws,
                at: 0,
            };
            let events = R::decide(&state, step.seat, &command, &mut replayed).map_err(|e| {
                Refusal::Unreadable(format!("command {} by {}: {e}", k + 1, step.seat))
            })?;
            let logged: Vec<R::Event> = step
                .events
                .iter()
                .map(|e| parse(&format!("an event of command {}", k + 1), e))
                .collect::<Result<_, _>>()?;
            if events != logged || replayed.at != step.draws.len() {
                return Err(Refusal::Unreadable(format!(
                    "command {} by {} does not make the events the record gives it",
                    k + 1,
                    step.seat
                )));
            }
            events.iter().for_each(|e| R::apply(&mut state, e));
            steps.push(Typed {
                seat: step.seat,
                command,
                draws: step.draws.clone(),
                events,
            });
        }
        let names = R::seats(&state)
            .into_iter()
            .map(|s| (s, R::seat_name(&state, s)))
            .collect();
        Ok(Driver {
            steps,
            state: start,
            log: opening,
            next: 0,
            names,
            conflicts: Vec::new(),
            now: None,
            unevaluated: BTreeMap::new(),
            stopped: None,
        })
    }

    fn not_evaluated(&mut self, why: &str) -> String {
        *self.unevaluated.entry(why.to_string()).or_default() += 1;
        why.to_string()
    }

    /// Each side's chance in `state`, mapped onto the open conflict's sides.
    fn chances_in(&mut self, state: &R::State, k: usize) -> Result<Vec<f64>, String> {
        let raw = R::chances(state, seed(k))?;
        self.map_sides(state, raw)
    }

    /// Chances as the game lists its sides in `state`, in the open conflict's order.
    fn map_sides(&mut self, state: &R::State, raw: Vec<f64>) -> Result<Vec<f64>, String> {
        let Some(c) = R::conflict(state) else {
            return Err("outside any conflict".into());
        };
        let acc = self.conflicts.last_mut().ok_or("no conflict is open")?;
        let mut out = vec![f64::NAN; acc.info.sides.len()];
        for (side, p) in c.sides.iter().zip(raw) {
            let i = acc.side_of(side);
            out.resize(acc.info.sides.len(), f64::NAN);
            out[i] = p.clamp(0.0, 1.0);
        }
        Ok(out)
    }

    /// Open a new conflict at step `k`, its first point the chances in `state`, reached after
    /// `played` commands.
    fn open(&mut self, info: Conflict, k: usize, state: &R::State, played: usize) {
        let sides = info.sides.len();
        self.conflicts.push(Acc {
            info,
            first_step: k as u32,
            last_step: k as u32,
            points: Vec::new(),
            moments: Vec::new(),
            decisions: Vec::new(),
            luck: vec![0.0; sides],
            rolls: vec![0; sides],
            result: None,
        });
        let chances = match self.chances_in(state, k) {
            Ok(c) => {
                self.push_point(played, c.clone(), false);
                Some(c)
            }
            Err(why) => {
                self.not_evaluated(&format!("the chances at the start of a conflict: {why}"));
                None
            }
        };
        self.now = Some(chances);
    }

    /// A point of the chart, after `played` commands.
    fn push_point(&mut self, played: usize, chances: Vec<f64>, roll: bool) {
        if let Some(acc) = self.conflicts.last_mut() {
            acc.points.push(ChancePoint {
                step: played as u32,
                chances,
                roll,
            });
        }
    }

    /// Evaluate step `next`.
    fn step(&mut self) {
        let k = self.next;
        let before = self.state.clone();
        let mut after = before.clone();
        for e in &self.steps[k].events {
            R::apply(&mut after, e);
        }
        let (cb, ca) = (R::conflict(&before), R::conflict(&after));
        if R::starts_conflict(&before, &after) {
            // This step starts a conflict: its chart starts after it.
            if let Some(a) = &ca {
                self.open(a.clone(), k, &after, k + 1);
            }
        } else if let (Some(_), Some(a), None) = (&cb, &ca, &self.now) {
            // A conflict under way before this step (a game that is one contest from its
            // setup): its chart starts before the step, and the step is judged.
            self.open(a.clone(), k, &before, k);
            self.judge(k, &before, &after);
        } else if ca.is_some() && self.now.is_some() {
            self.judge(k, &before, &after);
        } else if ca.is_none() {
            self.now = None;
        }
        if let Some(acc) = self.conflicts.last_mut()
            && ca.is_some()
            && self.now.is_some()
        {
            acc.last_step = k as u32;
            if let Some(r) = R::scored(&before, &after) {
                let total = acc.result.get_or_insert_with(|| vec![0.0; r.len()]);
                total.resize(total.len().max(r.len()), 0.0);
                for (t, x) in total.iter_mut().zip(r) {
                    *t += x;
                }
            }
        }
        let events = std::mem::take(&mut self.steps[k].events);
        self.log.extend(events.iter().cloned());
        self.steps[k].events = events;
        self.state = after;
        self.next += 1;
    }

    /// A step inside the open conflict: its decision, its luck, the chances after it.
    fn judge(&mut self, k: usize, before: &R::State, after: &R::State) {
        let seat = self.steps[k].seat;
        let text = R::describe(after, seat, &self.steps[k].events);
        let chances_before = self.now.clone().flatten();
        let after_chances = self.chances_in(after, k);
        let mut moment = Moment {
            step: k as u32,
            seat,
            text,
            before: chances_before.clone(),
            after: after_chances.as_ref().ok().cloned(),
            decision: None,
            luck: None,
            unevaluated: None,
        };
        let mut why = Vec::new();
        if let Err(e) = &after_chances {
            why.push(format!("the chances after this step: {e}"));
        }
        let decision = self.decision(k, before, after, &mut why);
        moment.decision = decision;
        let rolled = !self.steps[k].draws.is_empty();
        if rolled && let Ok(a) = &after_chances {
            match self.luck(k, before, a) {
                Ok(l) => moment.luck = Some(l),
                Err(e) => why.push(format!("the luck of this roll: {e}")),
            }
        }
        if !why.is_empty() {
            let reasons: Vec<String> = why.iter().map(|w| self.not_evaluated(w)).collect();
            moment.unevaluated = Some(reasons.join("; "));
        }
        if let Ok(a) = &after_chances {
            self.push_point(k + 1, a.clone(), rolled);
        }
        self.now = Some(after_chances.ok());
        let keep =
            moment.decision.is_some() || moment.luck.is_some() || moment.unevaluated.is_some();
        if let Some(acc) = self.conflicts.last_mut() {
            if let Some(l) = &moment.luck {
                for (i, x) in l.luck.iter().enumerate() {
                    acc.luck[i] += x;
                    if x.abs() > 1e-9 {
                        acc.rolls[i] += 1;
                    }
                }
            }
            if keep {
                acc.moments.push(moment);
            }
        }
    }

    /// The verdict on step `k`'s decision, from the deciding seat's table.
    fn decision(
        &mut self,
        k: usize,
        before: &R::State,
        after: &R::State,
        why: &mut Vec<String>,
    ) -> Option<Verdict> {
        let step = &self.steps[k];
        let table = SeatTable::<R>::from_state(before, &self.log, step.seat);
        let later = Later::<R> {
            after,
            later: self.steps[k + 1..]
                .iter()
                .map(|s| s.events.as_slice())
                .collect(),
        };
        let v: GameVerdict = match R::decision(&table, &step.command, &later, seed(k)) {
            Judged::NotJudged => return None,
            Judged::Unevaluated(e) => {
                why.push(format!("the decision: {e}"));
                return None;
            }
            Judged::Verdict(v) => v,
        };
        let side = R::conflict(before)
            .and_then(|c| c.sides.get(v.side).cloned())
            .and_then(|s| self.conflicts.last_mut().map(|acc| acc.side_of(&s)))?;
        let loss = (v.best - v.played).max(0.0);
        let grade = Grade::of(loss);
        let acc = self.conflicts.last_mut()?;
        let point = acc.points.len().saturating_sub(1);
        acc.decisions.push((step.seat, side, loss, point));
        Some(Verdict {
            side: side as u32,
            played: v.played,
            best: v.best.max(v.played),
            loss,
            best_choice: (grade != Grade::Best).then_some(v.best_choice),
            grade,
            hindsight: v.hindsight.map(|(played, best, choice)| Hindsight {
                played,
                best: best.max(played),
                loss: (best - played).max(0.0),
                best_choice: (best - played > Grade::EQUAL).then_some(choice),
            }),
            basis: v.basis,
        })
    }

    /// Step `k`'s luck: the chances after it less their average over every result.
    fn luck(&mut self, k: usize, before: &R::State, after: &[f64]) -> Result<Luck, String> {
        let step = &self.steps[k];
        let found = outcomes::<R>(before, step.seat, &step.command, R::luck_key, seed(k))
            .ok_or("the rules refuse the command when played again")?;
        let most = R::max_results(before);
        if found.groups.len() > most {
            return Err(format!(
                "{} different results, more than the {most} a review weighs here",
                found.groups.len()
            ));
        }
        let mut average = vec![0.0; after.len()];
        for (p, state) in &found.groups {
            let raw = R::result_chances(state, seed(k))?;
            let c = self.map_sides(state, raw)?;
            average.resize(c.len().max(average.len()), 0.0);
            for (a, x) in average.iter_mut().zip(&c) {
                *a += p * x;
            }
        }
        let luck = after
            .iter()
            .zip(&average)
            .map(|(a, m)| if a.is_nan() || m.is_nan() { 0.0 } else { a - m })
            .collect();
        Ok(Luck {
            average,
            luck,
            results: found.groups.len() as u32,
            sampled: found.sampled,
        })
    }

    /// Each seat's tally in one conflict.
    fn tallies(&self, acc: &Acc) -> BTreeMap<Seat, Tally> {
        let mut out: BTreeMap<Seat, Tally> = BTreeMap::new();
        for (i, side) in acc.info.sides.iter().enumerate() {
            for seat in &side.seats {
                let t = out.entry(*seat).or_default();
                t.luck += acc.luck.get(i).copied().unwrap_or(0.0);
                t.rolls += acc.rolls.get(i).copied().unwrap_or(0);
                if let Some(r) = acc.result.as_ref().and_then(|r| r.get(i)) {
                    t.result = Some(t.result.unwrap_or(0.0) + r);
                }
            }
        }
        for (i, _) in acc.info.sides.iter().enumerate() {
            let series: Vec<f64> = acc
                .points
                .iter()
                .map(|p| p.chances.get(i).copied().unwrap_or(f64::NAN))
                .filter(|x| !x.is_nan())
                .collect();
            let weights = score::volatility(&series);
            for (seat, side, loss, point) in &acc.decisions {
                if *side == i {
                    let w = weights
                        .get(*point)
                        .or(weights.last())
                        .copied()
                        .unwrap_or(1.0);
                    out.entry(*seat).or_default().add_decision(*loss, w);
                }
            }
        }
        out
    }

    fn name(&self, seat: Seat) -> String {
        self.names
            .get(&seat)
            .cloned()
            .unwrap_or_else(|| seat.to_string())
    }

    fn conflict_review(&self, acc: &Acc) -> ConflictReview {
        let players = self
            .tallies(acc)
            .iter()
            .map(|(seat, t)| t.player(*seat, &self.name(*seat)))
            .collect();
        let (key_moment, swings) = score::swings(&acc.moments);
        let mut c = ConflictReview {
            title: acc.info.title.clone(),
            first_step: acc.first_step,
            last_step: acc.last_step,
            sides: acc.info.sides.clone(),
            points: acc.points.clone(),
            moments: acc.moments.clone(),
            players,
            key_moment,
            swings,
            summary: Vec::new(),
            result: acc.result.clone(),
        };
        c.summary = score::summary(&c);
        c
    }
}

impl<R: Reviewed> Reviewer for Driver<R>
where
    R::State: Send,
    R::Event: Send,
    R::Command: Send,
{
    fn work(&mut self, until: Instant) -> bool {
        let mut first = true;
        while self.next < self.steps.len() {
            if !first && Instant::now() >= until {
                return false;
            }
            first = false;
            self.step();
        }
        true
    }

    fn stop(&mut self, why: &str) {
        if self.next < self.steps.len() {
            self.stopped = Some(why.to_string());
            let left = (self.steps.len() - self.next) as u32;
            *self
                .unevaluated
                .entry(format!("steps not looked at: {why}"))
                .or_default() += left;
            self.next = self.steps.len();
        }
    }

    fn review(&self) -> Review {
        let conflicts: Vec<ConflictReview> = self
            .conflicts
            .iter()
            .map(|a| self.conflict_review(a))
            .collect();
        let mut all: BTreeMap<Seat, Tally> = BTreeMap::new();
        for acc in &self.conflicts {
            for (seat, t) in self.tallies(acc) {
                all.entry(seat).or_default().merge(&t);
            }
        }
        let players = all
            .iter()
            .map(|(seat, t)| t.player(*seat, &self.name(*seat)))
            .collect();
        let unevaluated = self
            .unevaluated
            .iter()
            .map(|(why, n)| match n {
                1 => format!("{why} (once)"),
                n => format!("{why} ({n} times)"),
            })
            .collect();
        Review {
            ruleset: R::ID.to_string(),
            measure: R::measure(),
            players,
            conflicts,
            progress: Progress {
                steps: self.steps.len() as u32,
                evaluated: self.next as u32,
                done: self.next >= self.steps.len(),
                stopped: self.stopped.clone(),
            },
            unevaluated,
        }
    }
}
