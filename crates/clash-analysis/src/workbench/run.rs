//! Playing a workbench trial: many games of one table with one mix of bots, in parallel,
//! each observed as the metrics need it ([`Observed`]).
//!
//! Every seat is a table bot deciding from its own [`SeatTable`], as at a real table. A casual
//! seat's choice needs only the commands its table offers, so it is drawn from those directly
//! (exactly what [`crate::table_bots::Casual`] does, without building the seat's view and log
//! every time); a strong seat gets its whole table. The GM's business (the next round) is the
//! table's own ([`Table::business`]).
//!
//! Game `i` draws all its chance (rolls, draws, the bots' own) from
//! `SeededRandomness::for_command(seed, i)`, so a run is the same whatever the threads.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};

use clash_core::variant::{Params, Variant};
use clash_core::workbench::{
    BenchTable, Ending, Mix, Observed, OptionUse, Suggested, Trial, Workbench,
};
use clash_core::{
    Budget, Game, Randomness, RuleError, Ruleset, Seat, SeatTable, SeededRandomness, Strength,
};
use rayon::prelude::*;

use crate::bot_strength::Table;
use crate::bots::pick_random;
use crate::table_bots::{Seated, Sends, bot, bot_commands};

/// What a workbench needs of a game's table besides playing it ([`Table`]).
pub trait Bench: Table {
    /// How a finished game ended by the rules ([`Table::finished`] is true): won, no winner,
    /// or the table's or the rules' limit.
    fn ending(&self, game: &Game<Self::R>) -> Ending;
    /// The seat that had the initiative, asked of the finished game (its log tells how it
    /// began).
    fn first(&self, game: &Game<Self::R>) -> Option<Seat>;
    /// Each seat's standing now, in [`Table::seats`] order: the seat with the highest alone
    /// is ahead.
    fn standing(&self, state: &<Self::R as Ruleset>::State) -> Vec<f64>;
    /// A command as one of the game's options, in a player's words; `None` leaves it
    /// uncounted.
    fn option(&self, command: &<Self::R as Ruleset>::Command) -> Option<String>;
    /// Each seat's luck over the finished game ([`Observed::luck`]); empty without chance.
    fn luck(&self, game: &Game<Self::R>) -> Vec<f64>;
}

/// The commands a casual seat picks among: its plays, else its last resorts (as
/// [`bot_commands`], from the state's legal commands).
fn sendable<R: Seated>(state: &R::State, seat: Seat) -> Vec<R::Command> {
    let legal = R::legal_commands(state, seat);
    let (plays, rest): (Vec<_>, Vec<_>) = legal
        .into_iter()
        .partition(|c| R::bot_sends(c) == Sends::Play);
    if plays.is_empty() {
        rest.into_iter()
            .filter(|c| R::bot_sends(c) == Sends::LastResort)
            .collect()
    } else {
        plays
    }
}

/// The seat ahead alone, if any.
fn leader(standing: &[f64]) -> Option<u8> {
    let best = standing.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let mut at = standing.iter().enumerate().filter(|(_, s)| **s == best);
    match (at.next(), at.next()) {
        (Some((i, _)), None) => u8::try_from(i).ok(),
        _ => None,
    }
}

/// One game's strong and casual seats.
struct Seating {
    seats: Vec<Seat>,
    strong: Vec<bool>,
    compared: Option<u8>,
}

fn seating(seats: Vec<Seat>, mix: Mix, rng: &mut dyn Randomness) -> Option<Seating> {
    let n = seats.len();
    let mut strong = vec![mix == Mix::Strong; n];
    let mut compared = None;
    if mix == Mix::Mixed && n >= 2 {
        let s = rng.choose(n, &|i| i.to_string()).ok()?.min(n - 1);
        let c = rng.choose(n - 1, &|i| i.to_string()).ok()?.min(n - 2);
        strong[s] = true;
        compared = u8::try_from(if c >= s { c + 1 } else { c }).ok();
    }
    Some(Seating {
        seats,
        strong,
        compared,
    })
}

/// The options a strong seat's decisions offered and took.
#[derive(Default)]
struct Tally(BTreeMap<String, (u32, u32)>);

impl Tally {
    fn note<B: Bench>(
        &mut self,
        bench: &B,
        table: &SeatTable<B::R>,
        chosen: &<B::R as Ruleset>::Command,
    ) {
        let mut offered: Vec<String> = bot_commands(table)
            .iter()
            .filter_map(|c| bench.option(c))
            .collect();
        offered.sort();
        offered.dedup();
        for o in offered {
            self.0.entry(o).or_default().0 += 1;
        }
        if let Some(o) = bench.option(chosen) {
            let e = self.0.entry(o).or_default();
            e.1 += 1;
            e.0 = e.0.max(e.1);
        }
    }

    fn uses(self) -> Vec<OptionUse> {
        self.0
            .into_iter()
            .map(|(option, (offered, chosen))| OptionUse {
                option,
                offered,
                chosen,
            })
            .collect()
    }
}

/// Play one game of `bench` with `mix`, each strong seat given `work` per command.
pub fn play_one<B: Bench>(
    bench: &B,
    mix: Mix,
    work: u32,
    rng: &mut SeededRandomness,
) -> Option<Observed> {
    let seating = seating(bench.seats(), mix, rng)?;
    let mut game = bench.start(rng)?;
    let strong_bot = bot::<B::R>(Strength::Strong);
    let budget = Budget::work(work.max(1));
    let mut tally = Tally::default();
    let mut leaders = vec![leader(&bench.standing(game.state()))];
    let mut sent = 0;
    let mut stalled = false;
    while sent < bench.max_commands() && !bench.finished(&game) {
        let waiting = <B::R as Ruleset>::status(game.state()).waiting_for;
        let mut next = None;
        for (i, seat) in seating.seats.iter().enumerate() {
            if !waiting.contains(seat) {
                continue;
            }
            let choice = if seating.strong[i] {
                let table = SeatTable::of(&game, *seat);
                let c = strong_bot.choose(&table, budget, rng);
                if let Some(c) = &c {
                    tally.note(bench, &table, c);
                }
                c
            } else {
                pick_random(sendable::<B::R>(game.state(), *seat), rng)
            };
            if let Some(c) = choice {
                next = Some((*seat, c));
                break;
            }
        }
        let Some((seat, command)) = next.or_else(|| bench.business(&game)) else {
            stalled = true;
            break;
        };
        if game.command(seat, &command, rng).is_err() {
            stalled = true;
            break;
        }
        sent += 1;
        leaders.push(leader(&bench.standing(game.state())));
    }
    let ending = if bench.finished(&game) {
        bench.ending(&game)
    } else if stalled {
        Ending::Stall
    } else {
        Ending::Limit
    };
    let position = |s: Seat| {
        seating
            .seats
            .iter()
            .position(|x| *x == s)
            .and_then(|i| u8::try_from(i).ok())
    };
    // The rules may name winners of a game a limit or a deadlock ended (the most territory).
    let winners = if bench.finished(&game) {
        bench
            .winners(&game)
            .into_iter()
            .filter_map(position)
            .collect()
    } else {
        Vec::new()
    };
    let changes = leaders
        .iter()
        .flatten()
        .collect::<Vec<_>>()
        .windows(2)
        .filter(|w| w[0] != w[1])
        .count();
    Some(Observed {
        winners,
        length: bench.length(&game),
        ending,
        first: bench.first(&game).and_then(position),
        strong: seating
            .strong
            .iter()
            .position(|s| *s)
            .filter(|_| mix == Mix::Mixed)
            .and_then(|i| u8::try_from(i).ok()),
        compared: seating.compared,
        midpoint_leader: leaders.get(leaders.len() / 2).copied().flatten(),
        lead_changes: u32::try_from(changes).unwrap_or(u32::MAX),
        luck: bench.luck(&game),
        options: tally.uses(),
    })
}

/// Play `trial`'s games of `bench` in parallel: every finished game, in game order; once
/// `stop` is set no new game starts, and those done are kept.
pub fn play<B: Bench>(
    bench: &B,
    trial: &Trial,
    progress: &(dyn Fn() + Sync),
    stop: &AtomicBool,
) -> Vec<Observed> {
    let run = || -> Vec<Observed> {
        (0..trial.games)
            .into_par_iter()
            .filter_map(|i| {
                if stop.load(Ordering::Relaxed) {
                    return None;
                }
                let mut rng = SeededRandomness::for_command(trial.seed, i);
                let seen = play_one(bench, trial.mix, trial.work, &mut rng);
                progress();
                seen
            })
            .collect()
    };
    match trial.threads.and_then(|t| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(t.max(1))
            .build()
            .ok()
    }) {
        Some(pool) => pool.install(run),
        None => run(),
    }
}

/// A game's bench as a trial asks for it: one of its workbench's tables under a variant.
pub trait ForTrial: Bench + Sized {
    /// Table `table` of the game's workbench under `variant`, or the rule the variant breaks.
    fn for_trial(table: usize, variant: Option<&Variant>) -> Result<Self, RuleError>;
}

/// Play `trial` on the bench `B` builds for it.
pub fn play_trial<B: ForTrial>(
    trial: &Trial,
    progress: &(dyn Fn() + Sync),
    stop: &AtomicBool,
) -> Result<Vec<Observed>, RuleError> {
    let bench = B::for_trial(trial.table, trial.variant.as_ref())?;
    Ok(play(&bench, trial, progress, stop))
}

/// The workbench of a game whose trials are played on `B` (without an exact balance table; a
/// game with a solver sets [`Workbench::exact`]).
pub fn workbench<B: ForTrial>(
    params: Params,
    tables: &'static [BenchTable],
    suggested: &'static [Suggested],
) -> Workbench {
    Workbench {
        params,
        tables,
        suggested,
        play: play_trial::<B>,
        exact: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_leader_is_the_one_seat_ahead_alone() {
        assert_eq!(leader(&[1.0, 3.0, 2.0]), Some(1));
        assert_eq!(leader(&[3.0, 3.0, 2.0]), None);
        assert_eq!(leader(&[]), None);
    }

    #[test]
    fn a_mixed_game_seats_one_strong_bot_and_compares_it_with_another_seat() {
        for seed in 0..50 {
            let mut rng = SeededRandomness::new(seed);
            let s = seating(
                vec![Seat::Gm, Seat::Player(1), Seat::Player(2)],
                Mix::Mixed,
                &mut rng,
            )
            .unwrap();
            assert_eq!(s.strong.iter().filter(|x| **x).count(), 1);
            let c = s.compared.unwrap() as usize;
            assert!(c < 3 && !s.strong[c]);
        }
        let mut rng = SeededRandomness::new(1);
        let all = seating(vec![Seat::Gm, Seat::Player(1)], Mix::Strong, &mut rng).unwrap();
        assert_eq!(all.strong, vec![true, true]);
        assert_eq!(all.compared, None);
    }
}
