//! Games played by table bots and written down as a [`Record`], for tests and measurements of
//! reviews (a table's own record comes from its log).

use clash_core::review::{Record, Step};
use clash_core::{Budget, Game, Recorder, SeatTable, SeededRandomness, Strength};
use serde_json::Value;

use crate::table_bots::{Seated, bot};

/// Play `setup`: first the commands of `prelude` (what bots never send: starting a conflict,
/// say), then a bot of `strength` in every seat (the strong bot's work capped at `work`) until
/// the game is over, no bot acts, or `max` commands are played; every command is recorded with
/// the chance it took. `None` if the rules refuse a command of the prelude.
pub fn play<R: Seated>(
    setup: &R::Setup,
    prelude: &[(clash_core::Seat, Value)],
    strength: Strength,
    work: u32,
    seed: u64,
    max: usize,
) -> Option<Record> {
    let mut game = Game::<R>::new(setup.clone()).ok()?;
    let bot = bot::<R>(strength);
    let mut steps = Vec::new();
    let budget = Budget::work(work);
    let mut rng = SeededRandomness::new(seed);
    for (i, (seat, command)) in prelude.iter().enumerate() {
        let c: R::Command = serde_json::from_value(command.clone()).ok()?;
        let mut chance = SeededRandomness::for_command(seed ^ 0xfeed, i as u64);
        let mut recorder = Recorder::new(&mut chance);
        let events = game.command(*seat, &c, &mut recorder).ok()?.to_vec();
        steps.push(Step {
            seat: *seat,
            command: command.clone(),
            draws: recorder.draws,
            events: events.iter().map(to_json).collect(),
        });
    }
    'play: for k in 0..max {
        let status = R::status(game.state());
        if status.over.is_some() {
            break;
        }
        for seat in status.waiting_for {
            let table = SeatTable::of(&game, seat);
            let Some(command) = bot.choose(&table, budget, &mut rng) else {
                continue;
            };
            let mut chance = SeededRandomness::for_command(seed, k as u64);
            let mut recorder = Recorder::new(&mut chance);
            let events = game.command(seat, &command, &mut recorder).ok()?.to_vec();
            steps.push(Step {
                seat,
                command: to_json(&command),
                draws: recorder.draws,
                events: events.iter().map(to_json).collect(),
            });
            continue 'play;
        }
        break;
    }
    Some(Record {
        setup: to_json(setup),
        steps,
    })
}

fn to_json<T: serde::Serialize>(v: &T) -> Value {
    serde_json::to_value(v).unwrap_or(Value::Null)
}
