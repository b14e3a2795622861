//! The kernel's laws (`clash_core::testkit`) over Morra's presets and a few more setups, with
//! wild commands as probes: replay, refusals that change nothing, legal commands accepted,
//! positions, secrets and narration.

use clash_core::testkit::{self, Laws};
use clash_core::{Randomness, Seat};
use morra::{Command, Morra, Setup};
use proptest::prelude::*;

/// Hands from any seat, most of them against the rules (MO-3 to MO-7).
fn wild(_state: &morra::State, rng: &mut dyn Randomness) -> Vec<(Seat, Command)> {
    let mut n = |sides: u32| rng.roll(sides).unwrap_or(1) as u8 - 1;
    (0..6)
        .map(|_| {
            let seat = match n(4) {
                0 => Seat::Gm,
                k => Seat::Player(k),
            };
            let command = Command::Show {
                fingers: n(5),
                call: n(8),
            };
            (seat, command)
        })
        .collect()
}

fn laws() -> Laws<Morra> {
    let mut setups = testkit::presets::<Morra>();
    setups.push(Setup {
        round_limit: 3,
        ..Setup::default()
    });
    setups.push(Setup {
        names: ["Zoë".into(), "Ngozi".into()],
        target: 6,
        round: 4,
        scores: [5, 4],
        ..Setup::default()
    });
    Laws {
        steps: 80,
        probes: wild,
        ..Laws::new(setups)
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]

    #[test]
    fn the_kernel_laws_hold(seed: u64) {
        testkit::check(&laws(), seed).map_err(TestCaseError::fail)?;
    }
}
