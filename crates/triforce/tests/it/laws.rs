//! The kernel's laws (`clash_core::testkit`) over Triforce's presets and every table size, with
//! wild commands as probes: replay, refusals that change nothing, legal commands accepted,
//! positions, secrets and narration.

use clash_core::testkit::{self, Laws};
use clash_core::{Randomness, Seat};
use proptest::prelude::*;
use triforce::{Command, Setup, Size, State, Triforce};

/// Commands of every kind from any seat, with nonsense positions and levels (TF-…).
fn wild(_state: &State, rng: &mut dyn Randomness) -> Vec<(Seat, Command)> {
    let mut n = |sides: u32| rng.roll(sides).unwrap_or(1) as u8 - 1;
    (0..6)
        .map(|_| {
            let seat = match n(5) {
                0 => Seat::Gm,
                k => Seat::Player(k),
            };
            let command = match n(7) {
                0 => Command::Place {
                    size: Size::from_index(usize::from(n(3))),
                },
                1 => Command::Move {
                    from: n(18),
                    to: n(18),
                },
                2 => Command::EndTurn,
                3 => Command::Resolve { at: n(18) },
                4 => Command::TakeSword { level: n(22) },
                5 => Command::TakeShield { level: n(22) },
                _ => Command::Decline,
            };
            (seat, command)
        })
        .collect()
}

fn laws() -> Laws<Triforce> {
    let mut setups = testkit::presets::<Triforce>();
    setups.extend((3..=6).map(Setup::new));
    // A player's own name among the colours (issue 15: seats are named, never numbered).
    let mut named = Setup::new(3);
    named.names.insert(Seat::Player(1), "Ada".into());
    setups.push(named);
    Laws {
        steps: 120,
        probes: wild,
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
