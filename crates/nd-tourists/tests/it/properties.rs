//! Properties over random legal play: card conservation (ND-1, ND-4) and views that hide other
//! parties' Reserves. (The kernel's laws, replay and refusals among them, are in `laws.rs`.)

use crate::common;

use clash_core::{Ruleset, Seat, SeededRandomness, Viewer, execute};
use common::*;
use nd_tourists::command::Citation;
use nd_tourists::driver::RandomDriver;
use nd_tourists::{CardSet, Command, Event, NdTourists, Setup, State};
use proptest::prelude::*;
use serde_json::json;

fn three_party_setup(blanks: bool) -> Setup {
    let mut a = tmdf();
    a["characters"][0]["reserve"] =
        json!(["Rock Lover", {"card": "Paper Lover", "reversed": true}]);
    serde_json::from_value(json!({"parties": [a, us(), levinulon()], "blanks": blanks})).unwrap()
}

/// Play random legal commands, calling `check` after each one.
fn random_play(
    seed: u64,
    blanks: bool,
    steps: usize,
    mut check: impl FnMut(&State, &[Event], &Setup),
) {
    let setup = three_party_setup(blanks);
    let mut st = NdTourists::setup(&setup).unwrap();
    let mut driver = RandomDriver::new(seed);
    let mut rng = SeededRandomness::new(seed ^ 0xABCD);
    let mut log = Vec::new();
    for _ in 0..steps {
        let Some((seat, cmd)) = driver.pick(&st) else {
            break;
        };
        let events = execute::<NdTourists>(&mut st, seat, &cmd, &mut rng)
            .unwrap_or_else(|e| panic!("driver picked an illegal {cmd:?}: {e}"));
        log.extend(events);
        check(&st, &log, &setup);
    }
}

/// Commands of every kind, from every seat, many of them illegal at any given moment.
fn any_command() -> impl Strategy<Value = (Seat, Command)> {
    let seat = prop_oneof![Just(Seat::Gm), (1u8..4).prop_map(Seat::Player)];
    let party = prop_oneof![
        Just(None),
        Just(Some("TMDF".to_string())),
        Just(Some("US".to_string())),
        Just(Some("Levinulon".to_string()))
    ];
    let card = (0u8..67).prop_map(|i| nd_tourists::Card::from_id(i).unwrap());
    let cite = prop_oneof![
        Just(None),
        Just(Some(Citation::Weakness(
            "The second-in-command is severely wounded".into()
        ))),
        Just(Some(Citation::Aspect("Well-trained team".into()))),
    ];
    let cmd = prop_oneof![
        Just(Command::Start {}),
        party.clone().prop_map(|party| Command::Bid {
            party,
            character: None
        }),
        party.clone().prop_map(|party| Command::Pass { party }),
        party.clone().prop_map(|party| Command::Reject { party }),
        Just(Command::Turn {}),
        (party.clone(), card, cite, any::<bool>()).prop_map(|(party, card, cite, accepted)| {
            Command::Cover {
                party,
                character: None,
                card,
                cite,
                accepted,
            }
        }),
        party
            .clone()
            .prop_map(|party| Command::LetItStand { party }),
        party.prop_map(|party| Command::Concede {
            party,
            character: None
        }),
        any::<bool>().prop_map(|confirmed| Command::Reframe { confirmed }),
        Just(Command::NextRound {}),
        proptest::collection::vec(
            (0u8..67).prop_map(|i| nd_tourists::Card::from_id(i).unwrap()),
            0..4
        )
        .prop_map(|cards| Command::KeepLossCards { party: None, cards }),
    ];
    (seat, cmd)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn nd1_nd4_the_cards_are_conserved_at_every_step(seed: u64, blanks: bool) {
        let full = CardSet::full_deck(blanks);
        random_play(seed, blanks, 400, |st, _, _| {
            // ND-1 / ND-4: every card is in exactly one place: deck, discards, bid lines,
            // Loss lines or Reserves.
            assert_eq!(st.card_count(), full.len());
            assert_eq!(st.all_cards(), full);
        });
    }

    #[test]
    fn views_never_show_another_partys_reserve(seed: u64) {
        random_play(seed, false, 200, |st, log, _| {
            for viewer in [Viewer::Spectator, Viewer::Seat(Seat::Gm), Viewer::Seat(Seat::Player(1)), Viewer::Seat(Seat::Player(2))] {
                let text = serde_json::to_string(&NdTourists::view(st, viewer)).unwrap();
                for (i, p) in st.parties.iter().enumerate() {
                    let mine = viewer.is(st.table.parties[i].seat);
                    for c in p.characters.iter().flat_map(|c| &c.reserve) {
                        let quoted = format!("\"{}\"", c.card.name());
                        assert_eq!(text.contains(&quoted), mine, "{viewer} and {}'s reserve card {}", st.table.parties[i].name, c.card);
                    }
                }
                assert!(!text.contains("\"deck\""), "the deck's contents are hidden");
                for e in log {
                    if let Some(Event::ReserveDrawn { seat, card, .. }) = NdTourists::event_view(e, viewer) {
                        assert_eq!(card.is_some(), viewer.is(seat));
                    }
                }
            }
        });
    }

    /// Commands of every kind, most of them illegal, never lose or make a card when the rules
    /// accept them (ND-1). (That a refusal names a rule and changes nothing, and that every
    /// legal command is accepted, are the kernel's laws: see `laws.rs`.)
    #[test]
    fn accepted_probes_keep_every_card(seed: u64, probes in proptest::collection::vec(any_command(), 1..40)) {
        let setup = three_party_setup(false);
        let mut st = NdTourists::setup(&setup).unwrap();
        let mut driver = RandomDriver::new(seed);
        let mut rng = SeededRandomness::new(seed);
        for (seat, cmd) in probes {
            let mut probe_rng = SeededRandomness::new(seed.wrapping_add(1));
            if execute::<NdTourists>(&mut st, seat, &cmd, &mut probe_rng).is_ok() {
                prop_assert_eq!(st.card_count(), 67);
            }
            if let Some((seat, cmd)) = driver.pick(&st) {
                execute::<NdTourists>(&mut st, seat, &cmd, &mut rng).unwrap();
            }
        }
    }
}

#[test]
fn random_conflicts_finish() {
    let mut ended = 0;
    for seed in 0..40 {
        let mut st = NdTourists::setup(&three_party_setup(false)).unwrap();
        let stats = nd_tourists::driver::play_out(
            &mut st,
            &mut RandomDriver::new(seed),
            &mut SeededRandomness::new(seed),
            20_000,
        )
        .unwrap();
        assert!(stats.bids > 0);
        ended += usize::from(stats.ended);
    }
    assert!(ended >= 35, "only {ended} of 40 random conflicts ended");
}

#[test]
fn random_play_reaches_every_kind_of_event() {
    // The driver must exercise reactions, the Excuse, Wipe Outs and concessions, or the
    // properties above would say little about them.
    let mut seen = std::collections::BTreeSet::new();
    for seed in 0..60 {
        let mut read = 0;
        random_play(seed, false, 3_000, |_, log, _| {
            for e in &log[read..] {
                let v = serde_json::to_value(e).unwrap();
                seen.insert(v["type"].as_str().unwrap_or("").to_string());
            }
            read = log.len();
        });
    }
    for kind in [
        "card_rejected",
        "card_turned",
        "card_covered",
        "excuse_drawn",
        "wiped_out",
        "conceded",
        "loss_taken",
        "conflict_ended",
    ] {
        assert!(
            seen.contains(kind),
            "random play never produced {kind}: {seen:?}"
        );
    }
}

/// A state and the same state rebuilt from a position, compared through `viewer`'s eyes.
fn view_json(st: &State, viewer: Viewer) -> serde_json::Value {
    serde_json::to_value(NdTourists::view(st, viewer)).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// Issue 18: the whole position (every Reserve named) starts a table exactly where the
    /// game stands, through JSON and back.
    #[test]
    fn a_full_position_round_trips_to_the_same_state(seed: u64) {
        random_play(seed, seed % 2 == 0, 250, |st, _, _| {
            let Some(setup) = nd_tourists::position::export_all(st) else {
                assert_eq!(st.phase, nd_tourists::state::Phase::Ended);
                return;
            };
            let json = serde_json::to_string(&setup).unwrap();
            let setup: Setup = serde_json::from_str(&json).unwrap();
            let (rebuilt, opening) = clash_core::start::<NdTourists>(&setup)
                .unwrap_or_else(|e| panic!("{e}\n{json}"));
            assert!(opening.is_empty());
            assert_eq!(&rebuilt, st, "{json}");
        });
    }

    /// Issue 18: a viewer's position never shows a Reserve card hidden from it; started anew
    /// (the GM's `start` deals the unseen cards fresh), the viewer sees the table it saw.
    #[test]
    fn a_viewers_position_hides_what_it_cannot_see_and_resumes_its_view(seed: u64) {
        let viewers = [Viewer::Spectator, Viewer::Seat(Seat::Gm), Viewer::Seat(Seat::Player(1)), Viewer::Seat(Seat::Player(2))];
        random_play(seed, false, 150, |st, _, _| {
            for viewer in viewers {
                let Some(setup) = NdTourists::position(st, viewer) else {
                    assert_eq!(st.phase, nd_tourists::state::Phase::Ended);
                    continue;
                };
                for (sheet, party) in st.table.parties.iter().zip(&st.parties) {
                    let written = setup.parties.iter().find(|p| p.name == sheet.name).unwrap();
                    for (c, w) in party.characters.iter().zip(&written.characters) {
                        let shown = w.reserve.len();
                        if viewer.is(sheet.seat) {
                            assert_eq!(shown, c.reserve.len());
                        } else {
                            assert_eq!((shown, w.reserve_unseen as usize), (0, c.reserve.len() + c.unseen as usize));
                        }
                    }
                }
                let (mut rebuilt, _) = clash_core::start::<NdTourists>(&setup).unwrap();
                if rebuilt.resume.is_some() {
                    execute::<NdTourists>(&mut rebuilt, Seat::Gm, &Command::Start {}, &mut SeededRandomness::new(seed)).unwrap();
                }
                assert_eq!(view_json(&rebuilt, viewer), view_json(st, viewer), "{viewer}");
                assert_eq!(NdTourists::status(&rebuilt), NdTourists::status(st));
            }
        });
    }
}
