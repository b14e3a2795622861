//! The kernel's laws (`clash_core::testkit`) over In A Wicked Age's preset and a campaign with
//! an Owe List, with commands of every kind about every character as probes: replay, refusals
//! that change nothing, legal commands accepted, positions, secrets and narration.

use crate::common;

use clash_core::testkit::{self, Laws};
use clash_core::{Randomness, Seat};
use common::{khan, oren, ysolde};
use proptest::prelude::*;
use serde_json::json;
use wicked_age::{Command, Setup, State, WickedAge};

/// A handful of commands of every kind, about any character (or nobody), from any seat.
fn probes(_state: &State, rng: &mut dyn Randomness) -> Vec<(Seat, Command)> {
    let names = ["Ysolde", "Oren", "The Khan", "Nobody"];
    let mut pick = |n: usize| rng.roll(n as u32).unwrap_or(1) as usize - 1;
    (0..5)
        .filter_map(|_| {
            let (a, b) = (names[pick(4)], names[pick(4)]);
            let all = json!([
                {"type": "start_conflict", "participants": [a, b]},
                {"type": "roll_initiative", "character": a, "forms": ["covertly", "directly"]},
                {"type": "roll_initiative", "character": a, "form": "action", "strength": "Horde"},
                {"type": "challenge", "character": a, "target": b},
                {"type": "challenge", "character": a, "target": b, "forms": ["with_love", "with_love"]},
                {"type": "answer", "character": a, "forms": ["covertly", "for_others"], "strength": "Hidden Blade"},
                {"type": "concede", "character": a, "to": b},
                {"type": "propose_end", "character": a, "terms": "Enough"},
                {"type": "agree_end", "character": a},
                {"type": "cash_in_owe", "pc": a, "entry": b},
                {"type": "choose_consequence", "loser": a, "consequence": "injured"},
                {"type": "propose_alternative", "loser": a, "terms": "x", "costs": [{"type": "step_down", "form": "action"}]},
                {"type": "accept_alternative", "loser": a},
                {"type": "refuse_alternative", "loser": a},
                {"type": "bring_back", "character": a},
                {"type": "end_chapter"},
                {"type": "choose_oracle", "oracle": "O", "story_element": "E"},
            ]);
            let list = all.as_array()?;
            let command: Command = serde_json::from_value(list[pick(list.len())].clone()).ok()?;
            let seat = [Seat::Gm, Seat::Player(1), Seat::Player(2)][pick(3)];
            Some((seat, command))
        })
        .collect()
}

fn laws() -> Laws<WickedAge> {
    let mut setups = testkit::presets::<WickedAge>();
    let campaign: Setup = serde_json::from_value(json!({"characters": [ysolde(), oren(), khan()],
        "owe_list": [{"character": "Ysolde", "player": "p1"}, {"character": "Oren", "player": "p2"}]}))
    .unwrap();
    setups.push(campaign);
    Laws {
        steps: 150,
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
