//! How strong the table bots are: simulated tables where every seat is a table bot
//! ([`crate::table_bots`]) deciding from its own [`SeatTable`], as at a real table, one seat
//! strong and the others casual. What a GM does besides playing (starting the conflict, calling
//! the next round) the harness does itself, since no bot does it.
//!
//! Each [`Match`] is a [`Contest`] between two [`Entrant`]s, by default `strong` and `casual`:
//! one seat is the first entrant's, every other seat the second's. For every game the first
//! entrant's seat is drawn at random, so seat advantages even out, and so is one of the other
//! seats to compare it with: the second entrant wins a game when that seat wins. Both rates so
//! estimate one seat's chance of winning, and would be equal if the first entrant were no
//! better.
//! [`crate::simulate::simulate`] plays many games in parallel and reports win rates with 95%
//! Wilson intervals.

use clash_core::{
    Budget, Game, Randomness, Ruleset, Seat, SeatBot, SeatTable, SeededRandomness, Strength,
};

use crate::simulate::{Contest, GameResult};
use crate::table_bots::{Seated, bot};

/// One kind of table to measure the bots on.
pub trait Table: Sync {
    type R: Seated;
    /// The game as the GM sets it up (the conflict already started where the GM starts it).
    fn start(&self, rng: &mut dyn Randomness) -> Option<Game<Self::R>>;
    /// The seats the bots play (one of them strong).
    fn seats(&self) -> Vec<Seat>;
    /// Table business the GM does when no bot acts (the next round).
    fn business(&self, game: &Game<Self::R>) -> Option<(Seat, <Self::R as Ruleset>::Command)>;
    /// The game is over for this measurement.
    fn finished(&self, game: &Game<Self::R>) -> bool;
    /// The seats that won (empty: nobody).
    fn winners(&self, game: &Game<Self::R>) -> Vec<Seat>;
    /// The game's length, and its unit.
    fn length(&self, game: &Game<Self::R>) -> u32;
    fn length_unit(&self) -> &'static str;
    /// Commands after which a game is cut off.
    fn max_commands(&self) -> u32;
}

/// A bot taking part in a [`Match`], by name.
pub struct Entrant<R: Ruleset> {
    pub name: &'static str,
    pub make: fn() -> Box<dyn SeatBot<R>>,
}

impl<R: Seated> Entrant<R> {
    pub fn strong() -> Entrant<R> {
        Entrant {
            name: "strong",
            make: || bot::<R>(Strength::Strong),
        }
    }

    pub fn casual() -> Entrant<R> {
        Entrant {
            name: "casual",
            make: || bot::<R>(Strength::Casual),
        }
    }
}

/// One bot against another on table `T`, each given `budget` per command.
pub struct Match<T: Table> {
    pub table: T,
    pub budget: Budget,
    /// Plays one seat.
    pub first: Entrant<T::R>,
    /// Plays every other seat.
    pub second: Entrant<T::R>,
}

impl<T: Table> Match<T> {
    /// Strong against casual.
    pub fn new(table: T, budget: Budget) -> Match<T> {
        Match {
            table,
            budget,
            first: Entrant::strong(),
            second: Entrant::casual(),
        }
    }
}

/// Play one game with the strong bot in `strong` and casual bots elsewhere: returns the finished
/// game, the commands sent and whether it was cut off, or `None` if the table could not be set
/// up.
pub fn play<T: Table>(
    table: &T,
    strong: Seat,
    budget: Budget,
    rng: &mut SeededRandomness,
) -> Option<(Game<T::R>, u32, bool)> {
    let strength = |s: Seat| {
        if s == strong {
            Strength::Strong
        } else {
            Strength::Casual
        }
    };
    let players: Vec<_> = table
        .seats()
        .into_iter()
        .map(|s| (s, bot::<T::R>(strength(s))))
        .collect();
    play_with(table, &players, budget, rng)
}

/// A seat and the bot that plays it.
pub type Player<R> = (Seat, Box<dyn SeatBot<R>>);

/// Play one game with the given bot in each seat.
pub fn play_with<T: Table>(
    table: &T,
    players: &[Player<T::R>],
    budget: Budget,
    rng: &mut SeededRandomness,
) -> Option<(Game<T::R>, u32, bool)> {
    let mut game = table.start(rng)?;
    let mut sent = 0;
    while sent < table.max_commands() && !table.finished(&game) {
        let waiting = <T::R as Ruleset>::status(game.state()).waiting_for;
        let mut next = None;
        for (seat, player) in players {
            if !waiting.contains(seat) {
                continue;
            }
            let seen = SeatTable::of(&game, *seat);
            if let Some(c) = player.choose(&seen, budget, rng) {
                next = Some((*seat, c));
                break;
            }
        }
        let Some((seat, command)) = next.or_else(|| table.business(&game)) else {
            break;
        };
        if game.command(seat, &command, rng).is_err() {
            break;
        }
        sent += 1;
    }
    let cut_off = !table.finished(&game);
    Some((game, sent, cut_off))
}

impl<T: Table> Contest for Match<T> {
    fn contestants(&self) -> Vec<String> {
        vec![self.first.name.into(), self.second.name.into()]
    }

    fn length_unit(&self) -> &'static str {
        self.table.length_unit()
    }

    fn play(&self, rng: &mut SeededRandomness) -> GameResult {
        let unplayed = GameResult {
            winners: Vec::new(),
            length: 0,
            commands: 0,
            cut_off: true,
        };
        let mut seats = self.table.seats();
        let mut draw = |seats: &mut Vec<Seat>| {
            let i = rng.choose(seats.len(), &|i| i.to_string()).ok()?;
            (i < seats.len()).then(|| seats.remove(i))
        };
        let (Some(first), Some(second)) = (draw(&mut seats), draw(&mut seats)) else {
            return unplayed;
        };
        let players: Vec<_> = self
            .table
            .seats()
            .into_iter()
            .map(|s| {
                let entrant = if s == first {
                    &self.first
                } else {
                    &self.second
                };
                (s, (entrant.make)())
            })
            .collect();
        let Some((game, commands, cut_off)) = play_with(&self.table, &players, self.budget, rng)
        else {
            return unplayed;
        };
        let won = self.table.winners(&game);
        let mut winners = Vec::new();
        if won.contains(&first) {
            winners.push(self.first.name.to_string());
        }
        if won.contains(&second) {
            winners.push(self.second.name.to_string());
        }
        GameResult {
            winners,
            length: self.table.length(&game),
            commands,
            cut_off,
        }
    }
}
