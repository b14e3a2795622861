//! In A Wicked Age bot: rolls the forms with the best exact odds.
//!
//! * **Answering**, the challenge's value is known: the bot picks the choice whose exact band
//!   probabilities against that value (the engine's [`crate::roll::judge`] over the
//!   pool's exact distribution) score best: knocking the challenger out +2, taking the Advantage
//!   +1, losing it −1, being knocked out −2.
//! * **Rolling initiative or challenging**, the opposing roll is not known yet: the bot picks
//!   the choice maximising its worst-case exact exchange odds over the opponents' possible
//!   choices ([`crate::odds::exchange`]), i.e. a maximin over forms.
//! * Otherwise it settles consequences with the first default, accepts proposed alternatives,
//!   and never concedes, negotiates or starts anything.
//!
//! Exact odds are cached per pair of pools, so a bot gets faster as a game goes on.

use std::collections::HashMap;

use crate::character::Sheet;
use crate::conflict::sample_choices;
use crate::odds::{self, Pool};
use crate::roll::{Outcome, RollChoice, RollValue, Table, judge};
use crate::{Character, Command, State, WickedAge};
use clash_core::{Randomness, Ruleset, Seat};

use clash_analysis::bots::{Bot, pick_random};

/// Plays In A Wicked Age by exact odds.
#[derive(Default)]
pub struct OddsBot {
    exchange_cache: HashMap<(Pool, Pool), f64>,
}

fn utility(outcome: Outcome, as_answerer: bool) -> f64 {
    let u = match outcome {
        Outcome::ChallengerKnockedOut => 2.0,
        Outcome::AnswererTakesAdvantage => 1.0,
        Outcome::ChallengerTakesAdvantage => -1.0,
        Outcome::AnswererKnockedOut => -2.0,
    };
    if as_answerer { u } else { -u }
}

/// The dice a choice rolls for `ch` in the current conflict: its form dice, then the bonus dice
/// it holds (Advantage d6, Owe d6, the strength die). The test `pools_match_the_engine_rolls`
/// checks this against the dice the engine actually rolls.
pub fn pool_of(state: &State, ch: &Character, choice: &RollChoice) -> Option<Pool> {
    let mut form: Vec<u32> = match &ch.sheet {
        Sheet::Pc { forms } => choice.forms.iter().map(|f| forms.get(*f).sides()).collect(),
        Sheet::Npc { forms } => choice
            .form
            .map(|f| forms.get(f).iter().map(|d| d.sides()).collect())
            .unwrap_or_default(),
    };
    form.retain(|s| *s > 0);
    let mut bonus = Vec::new();
    let conflict = state.conflict.as_ref();
    let advantage = conflict.and_then(|c| c.advantage.as_deref()) == Some(ch.name.as_str());
    let owe = conflict
        .and_then(|c| c.participant(&ch.name))
        .is_some_and(|p| p.owe_die);
    bonus.extend(state.rules.bonus_dice(advantage, owe));
    if let Some(s) = choice.strength.as_ref().and_then(|n| ch.strength(n)) {
        bonus.push(s.die.sides());
    }
    (!form.is_empty()).then(|| Pool::new(form).with_bonus(bonus))
}

impl OddsBot {
    /// Expected utility for the challenger of `challenge` against `answer` (rounds 1–2 table).
    fn exchange_score(&mut self, answer: &Pool, challenge: &Pool) -> f64 {
        let key = (answer.clone(), challenge.clone());
        if let Some(v) = self.exchange_cache.get(&key) {
            return *v;
        }
        let v = odds::exchange(answer, challenge).map_or(0.0, |e| {
            Outcome::ALL
                .iter()
                .map(|o| e.of(*o).to_f64() * utility(*o, false))
                .sum()
        });
        self.exchange_cache.insert(key, v);
        v
    }

    /// Exact expected utility of answering `challenge` with `pool`.
    fn answer_score(pool: &Pool, challenge: RollValue, table: Table) -> f64 {
        let Ok(dist) = pool.distribution() else {
            return f64::MIN;
        };
        let total = dist.total() as f64;
        dist.values()
            .map(|(p, t, n)| {
                n as f64 * utility(judge(RollValue::new(p, t), challenge, table), true)
            })
            .sum::<f64>()
            / total
    }

    /// Worst case over the opponents' possible pools of rolling `pool` against them.
    fn maximin_score(&mut self, state: &State, me: &str, pool: &Pool) -> f64 {
        let Some(c) = state.conflict.as_ref() else {
            return 0.0;
        };
        let mut worst = f64::MAX;
        for p in c.remaining().filter(|p| p.name != me) {
            let Some(ch) = state.character(&p.name) else {
                continue;
            };
            for choice in sample_choices(ch) {
                if let Some(theirs) = pool_of(state, ch, &choice) {
                    worst = worst.min(self.exchange_score(&theirs, pool));
                }
            }
        }
        if worst == f64::MAX { 0.0 } else { worst }
    }

    fn score(&mut self, state: &State, command: &Command) -> Option<f64> {
        let (name, choice) = match command {
            Command::RollInitiative { character, choice }
            | Command::Challenge {
                character, choice, ..
            } => (character, choice),
            Command::Answer { character, choice } => (character, choice),
            _ => return None,
        };
        let ch = state.character(name)?;
        let c = state.conflict.as_ref()?;
        if choice.is_empty() {
            // The standing initiative roll: no choice to make.
            return Some(0.0);
        }
        let pool = pool_of(state, ch, choice)?;
        match command {
            Command::Answer { .. } => {
                let challenge = c.pending.as_ref()?.roll.value;
                Some(Self::answer_score(
                    &pool,
                    challenge,
                    Table::for_round(c.round, state.rules.rounds),
                ))
            }
            _ => Some(self.maximin_score(state, name, &pool)),
        }
    }
}

/// Commands the bot is willing to send; rolls are scored separately.
fn acceptable(command: &Command) -> bool {
    matches!(
        command,
        Command::RollInitiative { .. }
            | Command::Challenge { .. }
            | Command::Answer { .. }
            | Command::ChooseConsequence { .. }
            | Command::AcceptAlternative { .. }
    )
}

/// The engine lists one typical roll per character; the bot weighs every choice of forms the
/// character could roll instead ([`sample_choices`]).
fn every_choice(state: &State, command: Command) -> Vec<Command> {
    let with = |choice: RollChoice| match &command {
        Command::RollInitiative { character, .. } => Command::RollInitiative {
            character: character.clone(),
            choice,
        },
        Command::Answer { character, .. } => Command::Answer {
            character: character.clone(),
            choice,
        },
        Command::Challenge {
            character, target, ..
        } => Command::Challenge {
            character: character.clone(),
            target: target.clone(),
            choice,
        },
        other => other.clone(),
    };
    let roller = match &command {
        Command::RollInitiative { character, .. } | Command::Answer { character, .. } => {
            Some(character)
        }
        // The standing initiative roll (no choice) is the only challenge the first may make.
        Command::Challenge {
            character, choice, ..
        } if !choice.is_empty() => Some(character),
        _ => None,
    };
    match roller.and_then(|n| state.character(n)) {
        Some(ch) => sample_choices(ch).into_iter().map(with).collect(),
        None => vec![command],
    }
}

impl Bot<WickedAge> for OddsBot {
    fn choose(&mut self, state: &State, seat: Seat, rng: &mut dyn Randomness) -> Option<Command> {
        let legal: Vec<Command> = WickedAge::legal_commands(state, seat)
            .into_iter()
            .filter(acceptable)
            .flat_map(|c| every_choice(state, c))
            .collect();
        let mut best: Vec<Command> = Vec::new();
        let mut best_score = f64::MIN;
        let mut others = Vec::new();
        for command in legal {
            match self.score(state, &command) {
                Some(s) if s > best_score + 1e-12 => {
                    best_score = s;
                    best = vec![command];
                }
                Some(s) if (s - best_score).abs() <= 1e-12 => best.push(command),
                Some(_) => {}
                None => others.push(command),
            }
        }
        // Consequences first: the first default keeps games moving.
        if let Some(c) = others.iter().find(|c| {
            matches!(
                c,
                Command::ChooseConsequence { .. } | Command::AcceptAlternative { .. }
            )
        }) {
            return Some(c.clone());
        }
        pick_random(best, rng)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::Event;
    use clash_core::SeededRandomness;

    pub fn duel() -> State {
        let setup: crate::Setup =
            serde_json::from_value(crate::analysis::contests::default_wicked_setup())
                .expect("setup");
        let mut state = WickedAge::setup(&setup).expect("valid");
        let start = Command::StartConflict {
            participants: vec!["Ash".into(), "The Ogre".into()],
            action: "blocks the road".into(),
        };
        clash_core::execute::<WickedAge>(
            &mut state,
            Seat::Gm,
            &start,
            &mut SeededRandomness::new(0),
        )
        .expect("start");
        state
    }

    #[test]
    fn pools_match_the_engine_rolls() {
        let state = duel();
        for (seat, name) in [(Seat::Player(1), "Ash"), (Seat::Gm, "The Ogre")] {
            let ch = state.character(name).unwrap();
            for choice in sample_choices(ch) {
                let cmd = Command::RollInitiative {
                    character: name.into(),
                    choice: choice.clone(),
                };
                let events =
                    WickedAge::decide(&state, seat, &cmd, &mut SeededRandomness::new(3)).unwrap();
                let roll = events
                    .iter()
                    .find_map(|e| {
                        if let Event::InitiativeRolled { roll, .. } = e {
                            Some(roll.clone())
                        } else {
                            None
                        }
                    })
                    .unwrap();
                let form: Vec<u32> = roll
                    .dice
                    .iter()
                    .filter(|d| d.source.is_form())
                    .map(|d| d.sides)
                    .collect();
                let bonus: Vec<u32> = roll
                    .dice
                    .iter()
                    .filter(|d| !d.source.is_form())
                    .map(|d| d.sides)
                    .collect();
                let ours = pool_of(&state, ch, &choice).unwrap();
                assert_eq!((ours.form, ours.bonus), (form, bonus), "{name} {choice:?}");
            }
        }
    }

    #[test]
    fn initiative_uses_the_biggest_dice() {
        let state = duel();
        let cmd = OddsBot::default()
            .choose(&state, Seat::Player(1), &mut SeededRandomness::new(1))
            .unwrap();
        let Command::RollInitiative { choice, .. } = cmd else {
            panic!("expected initiative, got {cmd:?}")
        };
        let pool = pool_of(&state, state.character("Ash").unwrap(), &choice).unwrap();
        assert_eq!(pool.form, vec![12, 10]);
        let cmd = OddsBot::default()
            .choose(&state, Seat::Gm, &mut SeededRandomness::new(1))
            .unwrap();
        let Command::RollInitiative { choice, .. } = cmd else {
            panic!("expected initiative")
        };
        assert_eq!(choice.form, Some(crate::NpcForm::Action));
    }
}
