//! Issue 38 (D-4 for play at a distance, see `nd_tourists::reactions`): in a whole Conflict
//! played by scripted players who never react (the most "let it stand" taps a table can
//! need), a table made by the forms asks each party fewer times to let a card stand than it
//! bids; asked at every chance (as tables were before), every party taps more than it bids.

use clash_core::session_zero::{Maker, SessionZero, TableChoices};
use clash_core::{Ruleset, Seat, SeededRandomness, execute, start};
use nd_tourists::state::{Asking, Phase, RoundKind};
use nd_tourists::{Command, NdTourists, State};
use serde_json::json;

/// What one party did and was asked.
#[derive(Debug, Default, Clone, Copy)]
struct Count {
    bids: u32,
    taps: u32,
}

/// Three players' parties and the GM's, made as the lobby's forms make them (each player's
/// Reserve of 3 drawn as the Conflict starts); `asking` as the table's form chose.
fn form_table(asking: Option<Asking>) -> State {
    let mut options = json!({});
    if let Some(a) = asking {
        options["reactions"] = serde_json::to_value(a).unwrap();
    }
    let choices = TableChoices {
        players: 3,
        options,
        removed: Vec::new(),
    };
    let pcs: Vec<(Seat, serde_json::Value)> = (1..=3)
        .map(|n| {
            let mut sheet = NdTourists::example_sheet(Maker::Player, n as usize);
            sheet["name"] = json!(format!("Party {n}"));
            (Seat::Player(n), sheet)
        })
        .collect();
    let npc = NdTourists::example_sheet(Maker::Gm, 9);
    let setup = NdTourists::assemble(&choices, &pcs, &[npc]).expect("a valid table");
    start::<NdTourists>(&setup).expect("it starts").0
}

/// The scripted players: bid while fewer than two of their cards are reversed (always in a
/// Balance Breaker), else pass; never react; the GM moves each round on.
fn next(st: &State) -> Option<(Seat, Command)> {
    let r = &st.round;
    let seat_of = |p: u8| st.table.parties[p as usize].seat;
    let name_of = |p: u8| Some(st.table.parties[p as usize].name.clone());
    Some(match st.phase {
        Phase::Ended => return None,
        Phase::Preparing => (Seat::Gm, Command::Start {}),
        Phase::Aftermath => (Seat::Gm, Command::NextRound {}),
        Phase::Bidding => match (r.window, r.reacting) {
            (Some(_), Some(now)) => (
                seat_of(now.party),
                Command::LetItStand {
                    party: name_of(now.party),
                },
            ),
            _ => {
                let p = r.turn?;
                let reversed = st.parties[p as usize].reversed_count();
                let command = match r.kind == RoundKind::BalanceBreaker || reversed < 2 {
                    true => Command::Bid {
                        party: name_of(p),
                        character: None,
                    },
                    false => Command::Pass { party: name_of(p) },
                };
                (seat_of(p), command)
            }
        },
    })
}

/// Play up to 14 rounds; each party's bids and taps.
fn play(mut st: State, seed: u64) -> Vec<Count> {
    let mut rng = SeededRandomness::new(seed);
    let mut counts = vec![Count::default(); st.parties.len()];
    for _ in 0..5000 {
        if st.round.number > 14 {
            break;
        }
        let Some((seat, command)) = next(&st) else {
            break;
        };
        match &command {
            Command::Bid { .. } => counts[st.round.turn.unwrap() as usize].bids += 1,
            Command::LetItStand { .. } => {
                counts[st.round.reacting.unwrap().party as usize].taps += 1
            }
            _ => {}
        }
        if execute::<NdTourists>(&mut st, seat, &command, &mut rng).is_err() {
            // No card left to bid (D-3): the party passes.
            let p = st.round.turn.unwrap();
            let pass = Command::Pass {
                party: Some(st.table.parties[p as usize].name.clone()),
            };
            counts[p as usize].bids -= 1;
            execute::<NdTourists>(&mut st, seat, &pass, &mut rng).expect("a pass");
        }
    }
    counts
}

#[test]
fn d4_a_form_made_table_asks_each_party_fewer_times_than_it_bids() {
    for seed in 0..6 {
        let counts = play(form_table(None), seed);
        let asked: u32 = counts.iter().map(|c| c.taps).sum();
        assert!(asked > 0, "seed {seed}: nobody was ever asked: {counts:?}");
        for (party, c) in counts.iter().enumerate() {
            assert!(
                c.bids > 0,
                "seed {seed}: party {party} never bid: {counts:?}"
            );
            assert!(
                c.taps < c.bids,
                "seed {seed}: party {party} tapped {} times for {} bids: {counts:?}",
                c.taps,
                c.bids
            );
        }
    }
}

#[test]
fn d4_asked_at_every_chance_a_party_taps_more_than_it_bids() {
    // The same Conflicts (the same players, the same cards) with every chance asked about, as
    // every table was before issue 38.
    for seed in 0..6 {
        let counts = play(form_table(Some(Asking::Every)), seed);
        assert!(
            counts.iter().all(|c| c.taps > c.bids),
            "seed {seed}: {counts:?}"
        );
        let quiet = play(form_table(None), seed);
        for (every, own) in counts.iter().zip(&quiet) {
            assert_eq!(every.bids, own.bids, "the same Conflict, seed {seed}");
        }
    }
}

#[test]
fn d4_a_party_asked_about_its_own_reversed_card_answers_once() {
    // Find a window where the Dominant is asked about a reversed card of its own, which it
    // could both turn and cover: one "let it stand" answers both chances (D-4's order kept:
    // any other party's chance between them would still be asked first).
    for seed in 0..40 {
        let mut st = form_table(None);
        let mut rng = SeededRandomness::new(seed);
        for _ in 0..2000 {
            let (r, d) = (&st.round, st.dominant);
            if let (Some(drawer), Some(now), Some(dominant)) = (r.window, r.reacting, d)
                && drawer == dominant
                && now.party == dominant
                && now.step == nd_tourists::state::ReactionStep::Turn
            {
                let seat = st.table.parties[dominant as usize].seat;
                let stand = Command::LetItStand { party: None };
                let events =
                    NdTourists::decide(&st, seat, &stand, &mut rng).expect("it may let it stand");
                for e in &events {
                    NdTourists::apply(&mut st, e);
                }
                assert!(
                    st.round.reacting.is_none_or(|n| n.party != dominant),
                    "asked again about the same card: {events:?}"
                );
                return;
            }
            let Some((seat, command)) = next(&st) else {
                break;
            };
            if execute::<NdTourists>(&mut st, seat, &command, &mut rng).is_err() {
                break;
            }
        }
    }
    panic!("no seed gave the Dominant a reversed card of its own to save");
}
