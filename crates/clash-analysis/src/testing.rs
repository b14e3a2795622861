//! Checks every game's bots must pass, for the games' own tests: on a [`Table`] of the game,
//! bots play to the end ([`finishes`]), every answer along a random game is a fair play
//! ([`answers_are_fair_plays`]), and a strong bot answers even with no budget left
//! ([`answers_without_budget`]).

use clash_core::{Budget, Ruleset, Seat, SeatTable, SeededRandomness, Strength};

use crate::bot_strength::{Table, play};
use crate::table_bots::{Seated, Sends, bot};

/// With the strong bot in each seat in turn (and casual bots elsewhere), the table's game
/// reaches its end, with some command sent. Panics otherwise.
pub fn finishes<T: Table>(table: &T, budget: Budget) {
    for (i, strong) in table.seats().into_iter().enumerate() {
        let mut rng = SeededRandomness::new(i as u64 + 1);
        let (game, sent, cut_off) = play(table, strong, budget, &mut rng).expect("set up");
        assert!(sent > 0, "some command was sent");
        assert!(!cut_off, "the game reached its end");
        assert!(table.finished(&game));
    }
}

/// Every answer of every bot along a random game is a command the seat's table offers, of a
/// kind bots send (a last resort only when no play is left), accepted by the rules; a seat the
/// game is not waiting on gets `None`. Returns how many answers were checked, or what broke.
pub fn answers_are_fair_plays<T: Table>(
    table: &T,
    seed: u64,
    steps: usize,
    budget: Budget,
) -> Result<u32, String> {
    let mut rng = SeededRandomness::new(seed);
    let Some(mut game) = table.start(&mut rng) else {
        return Err("the table could not be set up".into());
    };
    let strong = bot::<T::R>(Strength::Strong);
    let casual = bot::<T::R>(Strength::Casual);
    let mut checked = 0;
    for _ in 0..steps {
        if table.finished(&game) {
            break;
        }
        let waiting = <T::R as Ruleset>::status(game.state()).waiting_for;
        let mut next = None;
        for seat in table.seats() {
            let seen = SeatTable::of(&game, seat);
            let plays = seen
                .legal
                .iter()
                .any(|c| <T::R as Seated>::bot_sends(c) == Sends::Play);
            for player in [&strong, &casual] {
                let answer = player.choose(&seen, budget, &mut rng);
                if !waiting.contains(&seat) {
                    check(answer.is_none(), || format!("{seat} answered out of turn"))?;
                    continue;
                }
                let Some(c) = answer else { continue };
                let kind = <T::R as Seated>::bot_sends(&c);
                check(kind != Sends::Never, || format!("{seat} sent {c:?}"))?;
                check(kind == Sends::Play || !plays, || {
                    format!("{seat} gave up with plays left: {c:?}")
                })?;
                let mut copy = game.clone();
                let accepted = copy.command(seat, &c, &mut rng).is_ok();
                check(accepted, || format!("{seat}: {c:?} refused"))?;
                checked += 1;
                next.get_or_insert((seat, c));
            }
        }
        let Some((seat, c)) = next.or_else(|| table.business(&game)) else {
            break;
        };
        if game.command(seat, &c, &mut rng).is_err() {
            break;
        }
    }
    Ok(checked)
}

fn check(holds: bool, why: impl FnOnce() -> String) -> Result<(), String> {
    if holds { Ok(()) } else { Err(why()) }
}

/// Whether, at the table's start, some seat the casual bot would play also gets an answer from
/// the strong bot with this `budget` (however little it is).
pub fn answers_without_budget<T: Table>(table: &T, budget: Budget) -> bool {
    let mut rng = SeededRandomness::new(3);
    let Some(game) = table.start(&mut rng) else {
        return false;
    };
    let strong = bot::<T::R>(Strength::Strong);
    let casual = bot::<T::R>(Strength::Casual);
    table.seats().into_iter().any(|seat: Seat| {
        let seen = SeatTable::of(&game, seat);
        let wanted = casual.choose(&seen, budget, &mut rng).is_some();
        wanted && strong.choose(&seen, budget, &mut rng).is_some()
    })
}
