//! The kernel's laws (`clash_core::testkit`) over N-Dimensional Tourists' preset and a
//! three-party Conflict with Reserves (with and without the blanks), played by the engine's
//! random driver, with commands of every kind about every party as probes: replay, refusals
//! that change nothing, legal commands accepted, positions, secrets and narration.

use crate::common;

use clash_core::testkit::{self, Laws};
use clash_core::{Randomness, Seat};
use common::{levinulon, tmdf, us};
use nd_tourists::driver::RandomDriver;
use nd_tourists::{Command, NdTourists, Setup, State};
use proptest::prelude::*;
use serde_json::json;

fn three_parties(blanks: bool) -> Setup {
    let mut a = tmdf();
    a["characters"][0]["reserve"] =
        json!(["Rock Lover", {"card": "Paper Lover", "reversed": true}]);
    serde_json::from_value(json!({"parties": [a, us(), levinulon()], "blanks": blanks})).unwrap()
}

/// The engine's random driver, which reaches reactions, the Excuse, Wipe Outs and concessions.
fn driver(state: &State, rng: &mut dyn Randomness) -> Option<(Seat, Command)> {
    let seed = u64::from(rng.roll(u32::MAX).ok()?);
    RandomDriver::new(seed).pick(state)
}

/// A handful of commands of every kind, about any party (or none), from any seat.
fn probes(_state: &State, rng: &mut dyn Randomness) -> Vec<(Seat, Command)> {
    let mut pick = |n: usize| rng.roll(n as u32).unwrap_or(1) as usize - 1;
    (0..5)
        .filter_map(|_| {
            let party = ["TMDF", "US", "Levinulon", "Nobody"][pick(4)];
            let all = json!([
                {"type": "start"}, {"type": "turn"}, {"type": "next_round"}, {"type": "bid"},
                {"type": "pass"}, {"type": "reject"}, {"type": "let_it_stand"},
                {"type": "concede"}, {"type": "reframe"},
                {"type": "keep_loss_cards", "cards": ["XXI"]},
                {"type": "spend_loss", "card": "XXI"},
                {"type": "cover", "card": "Rock Lover", "cite": {"aspect": "Well-trained team"}, "accepted": true},
                {"type": "cover", "card": "XIX", "accepted": true},
                {"type": "declare_tactics", "text": "We hold"},
                {"type": "bid", "party": party, "character": "Ghost"},
                {"type": "reject", "party": party},
                {"type": "let_it_stand", "party": party},
                {"type": "concede", "party": party, "character": "Ghost"},
            ]);
            let list = all.as_array()?;
            let command: Command = serde_json::from_value(list[pick(list.len())].clone()).ok()?;
            let seat = [Seat::Gm, Seat::Player(1), Seat::Player(2), Seat::Player(3)][pick(4)];
            Some((seat, command))
        })
        .collect()
}

fn laws() -> Laws<NdTourists> {
    let mut setups = testkit::presets::<NdTourists>();
    setups.extend([three_parties(false), three_parties(true)]);
    Laws {
        steps: 150,
        driver,
        probes,
        ..Laws::new(setups)
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(8))]

    #[test]
    fn the_kernel_laws_hold(seed: u64) {
        testkit::check(&laws(), seed).map_err(TestCaseError::fail)?;
    }
}
