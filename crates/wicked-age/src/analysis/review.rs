//! The review of a finished In A Wicked Age table ([`Reviewed`]): one chart per conflict, each
//! participant a side.
//!
//! **A side's chance** is its share of the conflict's end: a character still in when the
//! conflict ends shares 1 with the others still in (a knockout win is 1, an agreed ending
//! between two is ½ each), a character knocked out or conceding gets 0.
//!
//! * **Two participants: exact odds** ([`Duel`]). The rest of the conflict is played with each
//!   character rolling its strongest choice (the forms and strength with the highest average
//!   total; the Advantage d6 while it holds it, an Owe d6 it has cashed in), exactly as
//!   `clash odds wicked-age conflict` plays a whole conflict (P10): initiative with ties
//!   rerolled, the first's roll standing as the round's one challenge, the answer judged by
//!   WA-23, the Advantage die moving, round 3 with no middle ground. Every position within a
//!   round is valued too: one initiative rolled, a challenge standing or waiting for its
//!   answer. All in floating point from the engine's exact dice distributions
//!   ([`crate::odds::Distribution`]).
//! * **Decisions, two participants** ("against exact odds"): an initiative roll or an answer is
//!   worth the exact average over its dice of the position it leads to, for every choice of
//!   forms (and strength) the character had; conceding is worth 0 against playing on;
//!   agreeing to an ending is worth the share it gives against playing on.
//! * **More than two participants**: chances are sampled ([`SAMPLES`] conflicts played on
//!   through the rules, every roll with the character's usual forms, targets at random);
//!   conceding and agreeing are judged against them; choices of forms and the luck of rolls
//!   whose value still matters are not evaluated (said so), the luck of an answer is.
//! * Consequences, the Owe List and narration are not conflict decisions and are not judged.

use std::cell::RefCell;
use std::collections::HashMap;

use clash_analysis::review::{Conflict, GameVerdict, Judged, Later, Reviewed};
use clash_core::review::Side;
use clash_core::{Ruleset, Seat, SeatTable, SeededRandomness, execute};

use crate::character::{Character, Sheet};
use crate::conflict::{Conflict as Fight, EndReason, Stage, sample_choices};
use crate::odds::{Distribution, Pool};
use crate::roll::{Outcome, RollChoice, RollValue, Table, judge};
use crate::{Command, State, WickedAge};

/// Conflicts played on per sampled chance (more than two participants).
pub const SAMPLES: u32 = 300;
/// Commands a sampled conflict may take before it is scored as it stands.
const SAMPLE_COMMANDS: usize = 200;

/// The dice a choice rolls for `ch`, without the Advantage die: form dice, its Owe d6 when
/// `owe`, the strength die.
fn pool(ch: &Character, choice: &RollChoice, owe: bool) -> Option<Pool> {
    let mut form: Vec<u32> = match &ch.sheet {
        Sheet::Pc { forms } => choice.forms.iter().map(|f| forms.get(*f).sides()).collect(),
        Sheet::Npc { forms } => choice
            .form
            .map(|f| forms.get(f).iter().map(|d| d.sides()).collect())
            .unwrap_or_default(),
    };
    form.retain(|s| *s > 0);
    let mut bonus = Vec::new();
    if owe {
        bonus.push(6);
    }
    if let Some(s) = choice.strength.as_ref().and_then(|n| ch.strength(n)) {
        bonus.push(s.die.sides());
    }
    (!form.is_empty()).then(|| Pool::new(form).with_bonus(bonus))
}

fn mean(d: &Distribution) -> (f64, f64) {
    let total = d.total() as f64;
    let (mut p, mut t) = (0.0, 0.0);
    for (vp, vt, n) in d.values() {
        p += f64::from(vp) * n as f64;
        t += f64::from(vt) * n as f64;
    }
    (p / total, t / total)
}

thread_local! {
    /// The strongest choice of each sheet met, by the sheet.
    static STRONGEST: RefCell<HashMap<String, Option<(RollChoice, Pool)>>> = RefCell::new(HashMap::new());
}

/// The choice the model rolls for `ch`: the highest average total, then tie-break.
fn strongest(ch: &Character, owe: bool) -> Option<(RollChoice, Pool)> {
    let key = serde_json::to_string(&(&ch.sheet, &ch.strengths, owe)).unwrap_or_default();
    if let Some(found) = STRONGEST.with(|s| s.borrow().get(&key).cloned()) {
        return found;
    }
    let found = strongest_now(ch, owe);
    STRONGEST.with(|s| {
        let mut s = s.borrow_mut();
        if s.len() > 256 {
            s.clear();
        }
        s.insert(key, found.clone());
    });
    found
}

fn strongest_now(ch: &Character, owe: bool) -> Option<(RollChoice, Pool)> {
    sample_choices(ch)
        .into_iter()
        .filter_map(|c| {
            let p = pool(ch, &c, owe)?;
            let m = mean(&p.distribution().ok()?);
            Some((c, p, m))
        })
        .max_by(|a, b| a.2.0.total_cmp(&b.2.0).then(a.2.1.total_cmp(&b.2.1)))
        .map(|(c, p, _)| (c, p))
}

/// Who holds the Advantage die, by side (0 or 1), in a two-party conflict.
type Holder = Option<usize>;

/// A two-party conflict with fixed pools, valued exactly: every value is side 0's chance of
/// winning.
pub struct Duel {
    /// Per side: [without, with the Advantage die].
    dists: [[Distribution; 2]; 2],
    /// The conflict's rounds (three as written, WA-21; a variant may change them).
    rounds: u8,
    starts: HashMap<(u8, Holder), f64>,
    answers: HashMap<(u8, Holder, usize, RollValue), f64>,
}

fn with_advantage(p: &Pool) -> Option<Distribution> {
    p.with_advantage().distribution().ok()
}

impl Duel {
    /// A duel of a conflict of three rounds, as the rules have it.
    pub fn new(pools: [&Pool; 2]) -> Option<Duel> {
        Duel::with_rounds(pools, 3)
    }

    /// A duel of a conflict of `rounds` rounds.
    pub fn with_rounds(pools: [&Pool; 2], rounds: u8) -> Option<Duel> {
        let side = |p: &Pool| Some([p.distribution().ok()?, with_advantage(p)?]);
        Some(Duel {
            dists: [side(pools[0])?, side(pools[1])?],
            rounds,
            starts: HashMap::new(),
            answers: HashMap::new(),
        })
    }

    fn dist(&self, side: usize, h: Holder) -> &Distribution {
        &self.dists[side][usize::from(h == Some(side))]
    }

    /// Side 0's chance once an exchange of round `r` ends in `o`.
    fn after(&mut self, r: u8, challenger: usize, o: Outcome) -> f64 {
        let answerer = 1 - challenger;
        let winner = |s: usize| if s == 0 { 1.0 } else { 0.0 };
        match o {
            Outcome::ChallengerKnockedOut => winner(answerer),
            Outcome::AnswererKnockedOut => winner(challenger),
            Outcome::AnswererTakesAdvantage => self.round_start(r + 1, Some(answerer)),
            Outcome::ChallengerTakesAdvantage => self.round_start(r + 1, Some(challenger)),
        }
    }

    /// Side 0's chance when side `answerer` answers a challenge of value `c` in round `r`.
    pub fn answer(&mut self, r: u8, h: Holder, answerer: usize, c: RollValue) -> f64 {
        let key = (r, h, answerer, c);
        if let Some(v) = self.answers.get(&key) {
            return *v;
        }
        let dist = self.dist(answerer, h).clone();
        let v = self.answer_with(r, answerer, c, &dist);
        self.answers.insert(key, v);
        v
    }

    /// The same with the answer rolled from `dist`.
    pub fn answer_with(
        &mut self,
        r: u8,
        answerer: usize,
        c: RollValue,
        dist: &Distribution,
    ) -> f64 {
        let table = Table::for_round(r, self.rounds);
        let mut counts = [0u128; 4];
        for (p, t, n) in dist.values() {
            let o = judge(RollValue::new(p, t), c, table);
            counts[outcome_index(o)] += n;
        }
        let total = dist.total() as f64;
        Outcome::ALL
            .iter()
            .zip(counts)
            .filter(|(_, n)| *n > 0)
            .map(|(o, n)| n as f64 / total * self.after(r, 1 - answerer, *o))
            .sum()
    }

    /// Side 0's chance at the start of round `r` (nobody has rolled initiative yet).
    pub fn round_start(&mut self, r: u8, h: Holder) -> f64 {
        if r > self.rounds {
            return 0.5;
        }
        if let Some(v) = self.starts.get(&(r, h)) {
            return *v;
        }
        let (d0, d1) = (self.dist(0, h).clone(), self.dist(1, h).clone());
        let v = self.initiative(r, h, &d0, &d1);
        self.starts.insert((r, h), v);
        v
    }

    /// Side 0's chance when both roll initiative from these distributions (`d0` for side 0),
    /// ties rerolled with the same dice (WA-22), the higher's roll standing as the challenge.
    pub fn initiative(&mut self, r: u8, h: Holder, d0: &Distribution, d1: &Distribution) -> f64 {
        // Side 1's values with, above each, the chance weighted by side 0 answering them.
        let ones = sorted(d1);
        let mut above = vec![0.0; ones.len() + 1];
        for (i, (b, w)) in ones.iter().enumerate().rev() {
            above[i] = above[i + 1] + w * self.answer(r, h, 0, *b);
        }
        let (mut decided, mut tie) = (0.0, 0.0);
        let (mut j, mut below) = (0usize, 0.0);
        for (a, w) in sorted(d0) {
            while j < ones.len() && ones[j].0 < a {
                below += ones[j].1;
                j += 1;
            }
            let equal = if j < ones.len() && ones[j].0 == a {
                ones[j].1
            } else {
                0.0
            };
            let higher = above[j + usize::from(equal > 0.0)];
            decided += w * (below * self.answer(r, h, 1, a) + higher);
            tie += w * equal;
        }
        if tie >= 1.0 - 1e-12 {
            return 0.5;
        }
        decided / (1.0 - tie)
    }

    /// Side 0's chance when side `me` has rolled `a` for initiative and the other rolls from
    /// `other`, not counting ties; and the chance of a tie.
    fn against(
        &mut self,
        r: u8,
        h: Holder,
        me: usize,
        a: RollValue,
        other: &Distribution,
    ) -> (f64, f64) {
        let (mut v, mut lower, mut tied) = (0.0, 0.0, 0.0);
        for (b, w) in sorted(other) {
            if a > b {
                lower += w;
            } else if b > a {
                v += w * self.answer(r, h, me, b);
            } else {
                tied += w;
            }
        }
        (v + lower * self.answer(r, h, 1 - me, a), tied)
    }

    /// Side 0's chance when side `me` rolled `a` for initiative with `mine` and the other is
    /// still to roll from `other` (a tie rerolls both with the same dice).
    pub fn one_rolled(
        &mut self,
        r: u8,
        h: Holder,
        me: usize,
        a: RollValue,
        mine: &Distribution,
        other: &Distribution,
    ) -> f64 {
        let (v, tied) = self.against(r, h, me, a, other);
        if tied <= 0.0 {
            return v;
        }
        let restart = if me == 0 {
            self.initiative(r, h, mine, other)
        } else {
            self.initiative(r, h, other, mine)
        };
        v + tied * restart
    }
}

/// A distribution's values ascending, each with its chance.
fn sorted(d: &Distribution) -> Vec<(RollValue, f64)> {
    let total = d.total() as f64;
    d.values()
        .map(|(p, t, n)| (RollValue::new(p, t), n as f64 / total))
        .collect()
}

fn outcome_index(o: Outcome) -> usize {
    Outcome::ALL.iter().position(|x| *x == o).unwrap_or(0)
}

/// A two-party conflict as the model reads it from the table.
struct Two<'a> {
    fight: &'a Fight,
    chars: [&'a Character; 2],
    owe: [bool; 2],
    model: [Pool; 2],
    holder: Holder,
    rounds: u8,
}

fn two(state: &State) -> Option<Two<'_>> {
    let fight = state.conflict.as_ref()?;
    let [a, b] = fight.participants.as_slice() else {
        return None;
    };
    let chars = [state.character(&a.name)?, state.character(&b.name)?];
    let owe = [a.owe_die, b.owe_die];
    let model = [
        strongest(chars[0], owe[0])?.1,
        strongest(chars[1], owe[1])?.1,
    ];
    let holder = fight
        .advantage
        .as_deref()
        .and_then(|n| fight.participants.iter().position(|p| p.name == n));
    Some(Two {
        fight,
        chars,
        owe,
        model,
        holder,
        rounds: state.rules.rounds,
    })
}

thread_local! {
    /// Duels already valued, by their pools (a review meets the same few again and again).
    static DUELS: RefCell<HashMap<([Pool; 2], u8), Duel>> = RefCell::new(HashMap::new());
}

/// `f` on the duel of these pools, valued once per thread.
fn with_duel<T>(pools: &[Pool; 2], rounds: u8, f: impl FnOnce(&mut Duel) -> T) -> Option<T> {
    DUELS.with(|d| {
        let mut d = d.borrow_mut();
        if d.len() > 64 {
            d.clear();
        }
        let key = (pools.clone(), rounds);
        if !d.contains_key(&key) {
            let duel = Duel::with_rounds([&pools[0], &pools[1]], rounds)?;
            d.insert(key.clone(), duel);
        }
        d.get_mut(&key).map(f)
    })
}

fn dist_of(p: &Pool, advantage: bool) -> Option<Distribution> {
    if advantage {
        with_advantage(p)
    } else {
        p.distribution().ok()
    }
}

/// Side 0's chance in a two-party conflict still under way, exactly.
fn duel_chance(t: &Two) -> Option<f64> {
    let f = t.fight;
    let r = f.round;
    let h = t.holder;
    let side = |n: &str| f.participants.iter().position(|p| p.name == n);
    match f.stage {
        Stage::Over => None,
        Stage::Turns => {
            if let Some(p) = &f.pending {
                let answerer = side(&p.target)?;
                return with_duel(&t.model, t.rounds, |d| {
                    d.answer(r, h, answerer, p.roll.value)
                });
            }
            let first = side(f.order.first()?)?;
            let standing = f.standing.as_ref()?;
            with_duel(&t.model, t.rounds, |d| {
                d.answer(r, h, 1 - first, standing.value)
            })
        }
        Stage::Initiative => {
            let rolled: Vec<usize> = (0..2)
                .filter(|i| f.participants[*i].initiative.is_some())
                .collect();
            match rolled.as_slice() {
                [] => with_duel(&t.model, t.rounds, |d| d.round_start(r, h)),
                [me] => {
                    let init = f.participants[*me].initiative.as_ref()?;
                    let mine = pool(t.chars[*me], &init.choice, t.owe[*me])?;
                    let mine = dist_of(&mine, h == Some(*me))?;
                    let other = dist_of(&t.model[1 - me], h == Some(1 - me))?;
                    with_duel(&t.model, t.rounds, |d| {
                        d.one_rolled(r, h, *me, init.last().value, &mine, &other)
                    })
                }
                _ => None,
            }
        }
    }
}

/// Each participant's share once the conflict has ended: those still in share 1.
fn shares(f: &Fight) -> Vec<f64> {
    let left = f.participants.iter().filter(|p| p.in_conflict).count();
    f.participants
        .iter()
        .map(|p| {
            if p.in_conflict && left > 0 {
                1.0 / left as f64
            } else {
                0.0
            }
        })
        .collect()
}

/// A random command among the rolls the rules offer for the seats awaited (their usual
/// forms, any target): how a sampled conflict is played on.
fn sample_move(state: &State, rng: &mut SeededRandomness) -> Option<(Seat, Command)> {
    let waiting = WickedAge::status(state).waiting_for;
    let mut moves: Vec<(Seat, Command)> = Vec::new();
    for seat in waiting {
        for c in WickedAge::legal_commands(state, seat) {
            if matches!(
                c,
                Command::RollInitiative { .. } | Command::Challenge { .. } | Command::Answer { .. }
            ) {
                moves.push((seat, c));
            }
        }
    }
    let i = clash_core::Randomness::choose(rng, moves.len(), &|_| String::new()).ok()?;
    moves.into_iter().nth(i)
}

/// Each participant's chance, sampled by playing the conflict on [`SAMPLES`] times.
fn sampled(state: &State, seed: u64) -> Option<Vec<f64>> {
    let n = state.conflict.as_ref()?.participants.len();
    let mut total = vec![0.0; n];
    for k in 0..SAMPLES {
        let mut s = state.clone();
        let mut rng = SeededRandomness::for_command(seed, u64::from(k));
        for _ in 0..SAMPLE_COMMANDS {
            if s.conflict.as_ref().is_none_or(|f| f.ended.is_some()) {
                break;
            }
            let Some((seat, c)) = sample_move(&s, &mut rng) else {
                break;
            };
            if execute::<WickedAge>(&mut s, seat, &c, &mut rng).is_err() {
                break;
            }
        }
        let f = s.conflict.as_ref()?;
        for (t, x) in total.iter_mut().zip(shares(f)) {
            *t += x;
        }
    }
    Some(total.into_iter().map(|t| t / f64::from(SAMPLES)).collect())
}

fn chances_of(state: &State, seed: u64) -> Result<Vec<f64>, String> {
    let f = state.conflict.as_ref().ok_or("no conflict")?;
    if f.ended.is_some() {
        return Ok(shares(f));
    }
    if let Some(t) = two(state) {
        let p = duel_chance(&t).ok_or("this point of the conflict has no exact odds")?;
        return Ok(vec![p, 1.0 - p]);
    }
    sampled(state, seed).ok_or_else(|| "the conflict could not be played on".into())
}

/// The side index of `name` among the participants.
fn side_of(state: &State, name: &str) -> Option<usize> {
    state
        .conflict
        .as_ref()?
        .participants
        .iter()
        .position(|p| p.name == name)
}

/// A choice of forms (and strength) in words.
fn choice_words(choice: &RollChoice) -> String {
    let mut parts: Vec<String> = choice.forms.iter().map(|f| f.label().to_string()).collect();
    if let Some(f) = choice.form {
        parts.push(f.label().to_string());
    }
    let mut s = parts.join(" and ");
    if let Some(st) = &choice.strength {
        s.push_str(&format!(" with {st}"));
    }
    s
}

/// Every choice `ch` could roll, each with its dice (Advantage included when it holds it).
fn options(state: &State, ch: &Character, owe: bool) -> Vec<(RollChoice, Distribution)> {
    let holds =
        state.conflict.as_ref().and_then(|f| f.advantage.as_deref()) == Some(ch.name.as_str());
    sample_choices(ch)
        .into_iter()
        .filter_map(|c| {
            let d = dist_of(&pool(ch, &c, owe)?, holds)?;
            Some((c, d))
        })
        .collect()
}

/// Side `me`'s chance after each choice of a roll in a two-party conflict, exactly.
fn duel_options(state: &State, me: usize, command: &Command) -> Option<Vec<(RollChoice, f64)>> {
    let t = two(state)?;
    let f = t.fight;
    let (r, h) = (f.round, t.holder);
    let mine = |v: f64| if me == 0 { v } else { 1.0 - v };
    let opts = options(state, t.chars[me], t.owe[me]);
    let mut out = Vec::new();
    match command {
        Command::Answer { .. } => {
            let c = f.pending.as_ref()?.roll.value;
            for (choice, d) in opts {
                let v = with_duel(&t.model, t.rounds, |duel| duel.answer_with(r, me, c, &d))?;
                out.push((choice, mine(v)));
            }
        }
        Command::RollInitiative { .. } => {
            let other = &f.participants[1 - me];
            for (choice, d) in opts {
                let v = match &other.initiative {
                    None => {
                        let od = dist_of(&t.model[1 - me], h == Some(1 - me))?;
                        with_duel(&t.model, t.rounds, |duel| {
                            if me == 0 {
                                duel.initiative(r, h, &d, &od)
                            } else {
                                duel.initiative(r, h, &od, &d)
                            }
                        })?
                    }
                    Some(init) => {
                        let used = pool(t.chars[1 - me], &init.choice, t.owe[1 - me])?;
                        let od = dist_of(&used, h == Some(1 - me))?;
                        let b = init.last().value;
                        with_duel(&t.model, t.rounds, |duel| {
                            duel.one_rolled(r, h, 1 - me, b, &od, &d)
                        })?
                    }
                };
                out.push((choice, mine(v)));
            }
        }
        _ => return None,
    }
    Some(out)
}

/// The verdict on a roll's choice of forms, from the value of every choice.
fn roll_verdict(
    side: usize,
    chosen: &RollChoice,
    values: &[(RollChoice, f64)],
) -> Option<GameVerdict> {
    let played = values.iter().find(|(c, _)| c == chosen)?.1;
    let (best_choice, best) = values
        .iter()
        .max_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(c, v)| (choice_words(c), *v))?;
    Some(GameVerdict {
        side,
        played,
        best,
        best_choice,
        hindsight: None,
        basis: "the exact odds of every choice of forms and strength, the rest of the conflict \
                played with each side's strongest dice"
            .into(),
    })
}

fn judge_decision(state: &State, seat: Seat, command: &Command, seed: u64) -> Judged {
    let Some(f) = state.conflict.as_ref().filter(|f| f.ended.is_none()) else {
        return Judged::NotJudged;
    };
    let roll = match command {
        Command::RollInitiative { character, choice } | Command::Answer { character, choice } => {
            Some((character, choice))
        }
        _ => None,
    };
    if let Some((character, choice)) = roll {
        let Some(me) = side_of(state, character) else {
            return Judged::NotJudged;
        };
        if f.participants.len() != 2 {
            return Judged::Unevaluated(
                "choices of forms are judged in conflicts of two; this one has more".into(),
            );
        }
        return match duel_options(state, me, command)
            .filter(|v| v.len() > 1)
            .and_then(|v| roll_verdict(me, choice, &v))
        {
            Some(v) => Judged::Verdict(v),
            None => Judged::NotJudged,
        };
    }
    let (character, share) = match command {
        Command::Concede { character, .. } => (character, 0.0),
        Command::AgreeEnd { character } => (character, 1.0 / f.remaining().count().max(1) as f64),
        _ => return Judged::NotJudged,
    };
    let Some(me) = side_of(state, character) else {
        return Judged::NotJudged;
    };
    let _ = seat;
    match chances_of(state, seed)
        .ok()
        .and_then(|c| c.get(me).copied())
    {
        Some(on) => Judged::Verdict(GameVerdict {
            side: me,
            played: share,
            best: on.max(share),
            best_choice: if on > share {
                "play on".into()
            } else {
                "end it here".into()
            },
            hindsight: None,
            basis: if f.participants.len() == 2 {
                "the exact odds of playing on".into()
            } else {
                format!("{SAMPLES} conflicts played on")
            },
        }),
        None => Judged::Unevaluated("the chance of playing on could not be found".into()),
    }
}

impl Reviewed for WickedAge {
    fn measure() -> Vec<String> {
        vec![
            "A character's chance is its share of the conflict's end: those still in when it ends share 1 (a knockout win is 1, an ending agreed between two is a half each), a character knocked out or conceding gets 0.".into(),
            "In a conflict of two it is exact: the rest of the conflict is played with each character rolling its strongest forms (and strength), as `clash odds wicked-age conflict` plays one, from wherever the conflict stands.".into(),
            format!("With more than two, chances are sampled ({SAMPLES} conflicts played on, each roll with the character's usual forms and any target); their choices of forms, and the luck of rolls other than answers, are not evaluated."),
            "A roll's choice of forms is judged against every other choice the character had, by the exact odds of where each leads; conceding and agreeing to an ending against playing on.".into(),
        ]
    }

    fn conflict(state: &State) -> Option<Conflict> {
        let f = state.conflict.as_ref()?;
        let sides: Vec<Side> = f
            .participants
            .iter()
            .map(|p| Side {
                name: p.name.clone(),
                seats: state
                    .character(&p.name)
                    .map(|c| vec![c.controller])
                    .unwrap_or_default(),
            })
            .collect();
        let names: Vec<&str> = sides.iter().map(|s| s.name.as_str()).collect();
        Some(Conflict {
            title: format!("Chapter {}: {}", state.chapter, names.join(" against ")),
            sides,
        })
    }

    fn chances(state: &State, seed: u64) -> Result<Vec<f64>, String> {
        chances_of(state, seed)
    }

    fn result(state: &State) -> Option<Vec<f64>> {
        let f = state.conflict.as_ref()?;
        f.ended.as_ref()?;
        Some(shares(f))
    }

    fn decision(
        table: &SeatTable<WickedAge>,
        command: &Command,
        _later: &Later<'_, WickedAge>,
        seed: u64,
    ) -> Judged {
        judge_decision(&table.view.table, table.seat, command, seed)
    }

    fn luck_key(state: &State) -> String {
        // What the rest of the conflict reads: not the faces shown, nor the exchanges past.
        let Some(f) = state.conflict.as_ref() else {
            return String::new();
        };
        let participants: Vec<_> = f
            .participants
            .iter()
            .map(|p| {
                (
                    &p.name,
                    p.in_conflict,
                    p.turn_used,
                    p.owe_die,
                    // Initiative rolls matter until the order is set; then the standing one does.
                    p.initiative
                        .as_ref()
                        .filter(|_| f.stage == Stage::Initiative)
                        .map(|i| (&i.choice, i.last().value)),
                )
            })
            .collect();
        let key = (
            f.round,
            f.stage,
            &f.advantage,
            &f.order,
            f.standing.as_ref().map(|s| s.value),
            f.pending
                .as_ref()
                .map(|p| (&p.challenger, &p.target, p.roll.value)),
            participants,
            f.knockouts
                .iter()
                .map(|k| (&k.winner, &k.loser))
                .collect::<Vec<_>>(),
            matches!(f.ended, Some(EndReason::Agreement { .. })),
            f.ended.is_some(),
        );
        serde_json::to_string(&key).unwrap_or_default()
    }

    fn max_results(state: &State) -> usize {
        // Sampled chances are too dear to weigh many results.
        match state.conflict.as_ref().map(|f| f.participants.len()) {
            Some(2) => 800,
            _ => 6,
        }
    }
}
