//! Bots play fair: a bot's command depends only on what its seat may see.
//!
//! For every ruleset, random play reaches tables where a seat must act; a twin table is made that
//! differs only in what that seat cannot see — another seat's secret stance or move, an NPC's
//! hidden sheet (Iron Triangle), another party's Reserve card swapped with an unseen card of
//! the deck (N-Dimensional Tourists). The seat's table (view, legal commands, log as it saw it,
//! whose move it is) must be identical on both, and so must the command each bot strength
//! answers through the catalogue's hook, with the same seed. Triforce and In A Wicked Age hide
//! nothing: there every seat sees what a spectator sees, and the bots answer the same on a table
//! rebuilt from its log.

use clash_analysis::table_bots::{Casual, Seated, bot_commands};
use clash_core::{
    AnyGame, Budget, Game, Listed, Randomness, Ruleset, Seat, SeatBot, SeatTable, SeededRandomness,
    Strength, Viewer,
};
use iron_triangle::conflict::ConflictCommand;
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use serde_json::Value;

/// Small budgets keep the strong bots quick in a debug build; work alone bounds them, so a seed
/// always gives the same command.
fn budget() -> Budget {
    Budget::work(9)
}

fn ask(game: &dyn AnyGame, seat: Seat, strength: Strength, seed: u64) -> Option<Value> {
    let entry = clash_catalogue::find(game.ruleset()).expect("a catalogued ruleset");
    let bots = entry.bots.expect("every ruleset has bots");
    bots(
        game,
        seat,
        strength,
        budget(),
        &mut SeededRandomness::new(seed),
    )
    .expect("the seat plays here")
}

/// `a` and `b` differ, but not to `seat`: its table and every bot's answer are the same, and the
/// answer is a command the rules accept.
fn same_to_the_seat<R: Ruleset>(
    a: &Game<R>,
    b: &Game<R>,
    seat: Seat,
    seed: u64,
) -> Result<(), TestCaseError> {
    let json = |g: &Game<R>| serde_json::to_value(g.state()).expect("a state is JSON");
    prop_assert_ne!(json(a), json(b), "the twins must really differ");
    prop_assert_eq!(
        SeatTable::of(a, seat).to_json(),
        SeatTable::of(b, seat).to_json(),
        "{} sees a difference",
        seat
    );
    for strength in Strength::ALL {
        let here = ask(a, seat, strength, seed);
        let there = ask(b, seat, strength, seed);
        prop_assert_eq!(
            &here,
            &there,
            "the {} bot of {} told the twins apart",
            strength,
            seat
        );
        if let Some(command) = here {
            let mut game = a.boxed_clone();
            let sent = game.command(seat, &command, &mut SeededRandomness::new(seed));
            prop_assert!(sent.is_ok(), "{command} was refused: {sent:?}");
        }
    }
    Ok(())
}

/// What the GM does besides playing, when no bot acts (start, next round).
type Business<R> = dyn Fn(&Game<R>) -> Option<(Seat, <R as Ruleset>::Command)>;

/// One casual step by the first waiting seat that has something to do, else `business`.
fn step<R: Seated>(game: &mut Game<R>, rng: &mut dyn Randomness, business: &Business<R>) -> bool {
    let waiting = R::status(game.state()).waiting_for;
    let casual = Casual::<R>::default();
    let next = waiting
        .into_iter()
        .find_map(|seat| {
            casual
                .choose(&SeatTable::of(game, seat), budget(), rng)
                .map(|c| (seat, c))
        })
        .or_else(|| business(game));
    match next {
        Some((seat, command)) => game.command(seat, &command, rng).is_ok(),
        None => false,
    }
}

fn preset<R: Listed>(index: usize) -> R::Setup {
    let presets = R::PRESETS;
    let text = presets[index % presets.len()].setup;
    serde_json::from_str(text).expect("presets are valid")
}

// ----- Iron Triangle -----

mod iron {
    use super::*;
    use iron_triangle::conflict::MoveChoice;
    use iron_triangle::{Command, IronTriangle, Move, Name};

    pub fn start(setup: iron_triangle::Setup, rng: &mut dyn Randomness) -> Game<IronTriangle> {
        let mut game = Game::<IronTriangle>::new(setup).expect("setup");
        let npcs: Vec<Name> = game
            .state()
            .characters
            .iter()
            .filter(|c| c.controller == Seat::Gm)
            .map(|c| c.name.clone().into())
            .collect();
        let start = Command::Conflict(ConflictCommand::StartConflict {
            stakes: "the bridge".into(),
            npcs,
            lethal: false,
            minor: false,
        });
        game.command(Seat::Gm, &start, rng).expect("start");
        game
    }

    pub fn none(_: &Game<IronTriangle>) -> Option<(Seat, Command)> {
        None
    }

    /// A seat's secret choices open now: its stances or moves (IT-2).
    pub fn secrets(game: &Game<IronTriangle>, seat: Seat) -> Vec<Command> {
        SeatTable::of(game, seat)
            .legal
            .into_iter()
            .filter(|c| {
                matches!(
                    c,
                    Command::Conflict(
                        ConflictCommand::TakeStance { .. }
                            | ConflictCommand::PlayMove {
                                choice: MoveChoice::Play(_),
                                ..
                            }
                    )
                )
            })
            .collect()
    }

    /// The NPC's sheet with one move swapped for another it does not know.
    pub fn other_sheet(mut setup: iron_triangle::Setup, pick: usize) -> iron_triangle::Setup {
        if let Some(npc) = setup
            .characters
            .iter_mut()
            .find(|c| c.controller == Seat::Gm)
        {
            let known: Vec<Move> = npc.moves.iter().map(|k| k.mv).collect();
            let unknown: Vec<Move> = [
                "D-L", "D-M", "D-H", "G-L", "G-M", "G-H", "A-L", "A-M", "A-H",
            ]
            .iter()
            .filter_map(|m| m.parse().ok())
            .filter(|m| !known.contains(m))
            .collect();
            if let (Some(first), Some(new)) = (
                npc.moves.first_mut(),
                unknown.get(pick % unknown.len().max(1)),
            ) {
                first.mv = *new;
            }
        }
        setup
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Iron Triangle: two tables that differ only in the stance or move another seat has
    /// committed and not yet revealed (IT-2).
    #[test]
    fn iron_triangle_bots_cannot_see_a_committed_choice(which in 0usize..4, seed in any::<u64>(), warmup in 0usize..30) {
        let mut rng = SeededRandomness::new(seed);
        let mut game = iron::start(preset::<iron_triangle::IronTriangle>(which), &mut rng);
        for _ in 0..warmup {
            if !step(&mut game, &mut rng, &iron::none) { break; }
        }
        for _ in 0..200 {
            let waiting = iron_triangle::IronTriangle::status(game.state()).waiting_for;
            let fork = waiting.iter().find_map(|o| {
                let mine = iron::secrets(&game, *o);
                let other = waiting.iter().find(|s| *s != o && !iron::secrets(&game, **s).is_empty())?;
                (mine.len() >= 2).then_some((*o, *other, mine))
            });
            if let Some((committer, seat, choices)) = fork {
                let i = rng.choose(choices.len(), &|i| i.to_string()).unwrap_or(0);
                let j = (i + 1 + rng.choose(choices.len() - 1, &|i| i.to_string()).unwrap_or(0)) % choices.len();
                let (mut a, mut b) = (game.clone(), game.clone());
                a.command(committer, &choices[i], &mut SeededRandomness::new(1)).expect("legal");
                b.command(committer, &choices[j], &mut SeededRandomness::new(1)).expect("legal");
                return same_to_the_seat(&a, &b, seat, seed);
            }
            if !step(&mut game, &mut rng, &iron::none) { break; }
        }
    }

    /// Iron Triangle: two tables whose NPC knows different moves, which its sheet hides from the
    /// players (IT-24), until the NPC's first move is revealed; the NPC's own secret choices are
    /// made independently on each.
    #[test]
    fn iron_triangle_bots_cannot_see_a_hidden_sheet(which in 0usize..4, pick in 0usize..6, seed in any::<u64>()) {
        let setup = preset::<iron_triangle::IronTriangle>(which);
        let mut rng = SeededRandomness::new(seed);
        let mut a = iron::start(setup.clone(), &mut SeededRandomness::new(seed));
        let mut b = iron::start(iron::other_sheet(setup, pick), &mut SeededRandomness::new(seed));
        let mut checked = 0;
        for _ in 0..80 {
            let waiting = iron_triangle::IronTriangle::status(a.state()).waiting_for;
            let acting = waiting.into_iter().find(|s| !bot_commands(&SeatTable::of(&a, *s)).is_empty());
            let Some(seat) = acting else { break };
            if seat == Seat::Gm {
                // The NPC acts on each table from its own sheet.
                let casual = Casual::<iron_triangle::IronTriangle>::default();
                let pick_a = casual.choose(&SeatTable::of(&a, seat), budget(), &mut SeededRandomness::new(seed));
                let pick_b = casual.choose(&SeatTable::of(&b, seat), budget(), &mut SeededRandomness::new(seed));
                let (Some(ca), Some(cb)) = (pick_a, pick_b) else { break };
                let moved = matches!(ca, iron_triangle::Command::Conflict(ConflictCommand::PlayMove { .. }));
                if a.command(seat, &ca, &mut SeededRandomness::new(seed)).is_err()
                    || b.command(seat, &cb, &mut SeededRandomness::new(seed)).is_err() {
                    break;
                }
                if moved { break; }
                continue;
            }
            same_to_the_seat(&a, &b, seat, seed)?;
            checked += 1;
            let Some(c) = Casual::<iron_triangle::IronTriangle>::default().choose(&SeatTable::of(&a, seat), budget(), &mut rng) else { break };
            let moved = matches!(c, iron_triangle::Command::Conflict(ConflictCommand::PlayMove { .. }));
            if a.command(seat, &c, &mut SeededRandomness::new(seed)).is_err()
                || b.command(seat, &c, &mut SeededRandomness::new(seed)).is_err() {
                break;
            }
            if moved { break; }
        }
        prop_assert!(checked > 0, "some player decision was compared");
    }
}

// ----- N-Dimensional Tourists -----

mod tourists {
    use super::*;
    use nd_tourists::{Card, Command, NdTourists};

    pub fn business(game: &Game<NdTourists>) -> Option<(Seat, Command)> {
        match game.state().phase {
            nd_tourists::state::Phase::Preparing => Some((Seat::Gm, Command::Start {})),
            nd_tourists::state::Phase::Aftermath => Some((Seat::Gm, Command::NextRound {})),
            _ => None,
        }
    }

    fn names(v: &Value, out: &mut Vec<String>) {
        match v {
            Value::String(s) => out.push(s.clone()),
            Value::Array(xs) => xs.iter().for_each(|x| names(x, out)),
            Value::Object(m) => m.values().for_each(|x| names(x, out)),
            _ => {}
        }
    }

    /// Every string anywhere in `v` (card names among them).
    pub fn strings(v: &Value) -> Vec<String> {
        let mut out = Vec::new();
        names(v, &mut out);
        out
    }

    /// `v` with the card names `x` and `z` exchanged everywhere.
    pub fn swap(v: &Value, x: &str, z: &str) -> Value {
        match v {
            Value::String(s) if s == x => Value::String(z.into()),
            Value::String(s) if s == z => Value::String(x.into()),
            Value::Array(xs) => Value::Array(xs.iter().map(|e| swap(e, x, z)).collect()),
            Value::Object(m) => {
                Value::Object(m.iter().map(|(k, e)| (k.clone(), swap(e, x, z))).collect())
            }
            other => other.clone(),
        }
    }

    /// A twin of `game` where a Reserve card of a party `seat` does not play is exchanged with
    /// a card still in the deck that was never seen by anyone (so neither appears in anything
    /// `seat` was shown); optionally the Reserve card's orientation is flipped as well.
    pub fn twin(
        game: &Game<NdTourists>,
        setup: &nd_tourists::Setup,
        seat: Seat,
        pick: usize,
        flip: bool,
    ) -> Option<Game<NdTourists>> {
        let state = game.state();
        let log: Vec<Value> = game
            .log()
            .iter()
            .map(|e| serde_json::to_value(e).expect("JSON"))
            .collect();
        let everything = strings(&Value::Array(log.clone()));
        let seen = strings(&SeatTable::of(game, seat).to_json());
        let hidden: Vec<Card> = state
            .parties
            .iter()
            .zip(&state.table.parties)
            .filter(|(_, sheet)| sheet.seat != seat)
            .flat_map(|(p, _)| {
                p.characters
                    .iter()
                    .flat_map(|c| c.reserve.iter().map(|r| r.card))
            })
            .filter(|c| !seen.iter().any(|s| s == c.name()))
            .collect();
        let unseen: Vec<Card> = state
            .deck
            .iter()
            .filter(|c| !everything.iter().any(|s| s == c.name()))
            .collect();
        let x = *hidden.get(pick % hidden.len().max(1))?;
        let z = *unseen.get(pick % unseen.len().max(1))?;
        let mut events: Vec<Value> = log.iter().map(|e| swap(e, x.name(), z.name())).collect();
        if flip {
            for e in &mut events {
                if e["type"] == "reserve_drawn"
                    && e["card"] == z.name()
                    && let Some(r) = e.get_mut("reversed")
                    && let Some(b) = r.as_bool()
                {
                    *r = Value::Bool(!b);
                }
            }
        }
        let mut b = Game::<NdTourists>::new(setup.clone()).ok()?;
        for e in events.iter().skip(b.log().len()) {
            AnyGame::restore(&mut b, e).ok()?;
        }
        Some(b)
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// N-Dimensional Tourists: two tables that differ only in which unseen card another party
    /// holds in its Reserve, and which is still in the deck (ND-20: a Reserve is its owner's
    /// alone; ND-4: nobody sees the deck).
    #[test]
    fn tourists_bots_cannot_see_other_reserves_or_the_deck(which in 0usize..2, seed in any::<u64>(), warmup in 0usize..60, pick in any::<usize>(), flip in any::<bool>()) {
        use nd_tourists::NdTourists;
        // The catalogue's four sides, or the Kaiju Conflict of two.
        let setup: nd_tourists::Setup = if which == 0 {
            preset::<NdTourists>(0)
        } else {
            serde_json::from_value(nd_tourists::analysis::contests::default_tourists_setup()).expect("kaiju")
        };
        let mut rng = SeededRandomness::new(seed);
        let mut game = Game::<NdTourists>::new(setup.clone()).expect("setup");
        for _ in 0..warmup {
            if !step(&mut game, &mut rng, &tourists::business) { break; }
        }
        let mut compared = false;
        for _ in 0..400 {
            let waiting = NdTourists::status(game.state()).waiting_for;
            let acting = waiting.iter().copied().find(|s| {
                let table = SeatTable::of(&game, *s);
                !bot_commands(&table).is_empty()
            });
            if let Some(seat) = acting
                && let Some(b) = tourists::twin(&game, &setup, seat, pick, flip)
            {
                same_to_the_seat(&game, &b, seat, seed)?;
                compared = true;
                break;
            }
            if !step(&mut game, &mut rng, &tourists::business) { break; }
        }
        prop_assume!(compared, "no seat had a hidden card to compare");
    }
}

// ----- Triforce and In A Wicked Age: nothing hidden -----

/// Every seat sees exactly what a spectator sees, and each bot answers the same on the table
/// rebuilt from its setup and log.
fn open_table<R: Ruleset>(game: &Game<R>) -> Result<(), TestCaseError> {
    let json = |v: &R::View| serde_json::to_value(v).expect("JSON");
    let public = json(&R::view(game.state(), Viewer::Spectator));
    let mut rebuilt = Game::<R>::new(game.setup().clone()).expect("setup");
    for e in game.log().iter().skip(rebuilt.log().len()) {
        rebuilt.restore(e.clone());
    }
    for seat in R::seats(game.state()) {
        let mut seen = json(&R::view(game.state(), Viewer::Seat(seat)));
        if let (Some(a), Some(b)) = (seen.as_object_mut(), public.as_object()) {
            // The view names its viewer; everything else must match.
            for key in ["viewer"] {
                if let Some(v) = b.get(key) {
                    a.insert(key.into(), v.clone());
                }
            }
        }
        prop_assert_eq!(&seen, &public, "{} sees more than a spectator", seat);
        for strength in Strength::ALL {
            prop_assert_eq!(
                ask(game, seat, strength, 7),
                ask(&rebuilt, seat, strength, 7)
            );
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(16))]

    /// Triforce hides nothing but the dice to come, which no view holds (TF-24).
    #[test]
    fn triforce_bots_see_only_the_open_table(players in 3u8..=6, seed in any::<u64>(), warmup in 0usize..120) {
        let mut game = Game::<triforce::Triforce>::new(triforce::Setup::new(players)).expect("setup");
        let mut rng = SeededRandomness::new(seed);
        for _ in 0..warmup {
            if !step(&mut game, &mut rng, &|_| None) { break; }
        }
        open_table(&game)?;
    }

    /// In A Wicked Age hides nothing: sheets, rolls and the Owe List are public.
    #[test]
    fn wicked_age_bots_see_only_the_open_table(seed in any::<u64>(), warmup in 0usize..20) {
        use wicked_age::{Command, WickedAge};
        let setup = preset::<WickedAge>(0);
        let mut game = Game::<WickedAge>::new(setup).expect("setup");
        let names: Vec<String> = game.state().characters.iter().map(|c| c.name.clone()).collect();
        let start = Command::StartConflict { participants: names, action: "blocks the road".into() };
        let mut rng = SeededRandomness::new(seed);
        game.command(Seat::Gm, &start, &mut rng).expect("start");
        for _ in 0..warmup {
            if !step(&mut game, &mut rng, &|_| None) { break; }
        }
        open_table(&game)?;
    }
}
