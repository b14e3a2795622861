//! What people read (issue 15): narration, the text picture, status and refusals name
//! characters and players — never a seat id, an index or debug text — over every example and
//! over random campaigns with conflicts. Also: every accepted command changes the table (no
//! repeat writes a second identical line) and refused ones change nothing.

use crate::campaign_support;

use campaign_support::{ada, hero};
use clash_core::text::raw_tokens;
use clash_core::{
    Game, Randomness, RuleError, Ruleset, RulesetEntry, Seat, SeededRandomness, Viewer, execute,
};
use iron_triangle::{Command, IronTriangle, Setup, Table};
use proptest::prelude::*;
use serde_json::{Value, json};

fn assert_clean(what: &str, text: &str) -> Result<(), TestCaseError> {
    let found = raw_tokens(text);
    prop_assert!(found.is_empty(), "{what} shows raw text {found:?}: {text}");
    Ok(())
}

fn reason(e: &RuleError) -> String {
    match e {
        RuleError::IllegalMove { reason, .. }
        | RuleError::NotYourCall { reason, .. }
        | RuleError::InvalidSetup { reason, .. } => reason.clone(),
        RuleError::Randomness(r) => r.to_string(),
    }
}

/// Commands, mostly refused, that touch every kind of refusal text.
fn probes() -> Vec<Value> {
    vec![
        json!({"type": "pick_active", "character": "Nobody"}),
        json!({"type": "pick_active", "character": "Ada"}),
        json!({"type": "pick_opponent", "opponent": "Boss"}),
        json!({"type": "take_stance", "character": "Ada", "action": "attack", "amount": 99}),
        json!({"type": "play_move", "character": "Ada", "move": "G-J"}),
        json!({"type": "play_special", "character": "Ada", "special": "scouter"}),
        json!({"type": "pass_window", "character": "Boss"}),
        json!({"type": "split_loss", "character": "Ada", "split": {"defend": 9, "grapple": 0, "attack": 0}}),
        json!({"type": "kill_surrendered"}),
        json!({"type": "end_chain"}),
        json!({"type": "start_conflict", "stakes": "x", "npcs": ["Ada"]}),
        json!({"type": "join_conflict", "character": "Bo"}),
        json!({"type": "settle_conflict", "outcome": "x"}),
        json!({"type": "narrate_conflict", "text": "x"}),
        json!({"type": "choose_option", "option": 3, "trait": "belief"}),
        json!({"type": "pick_decider", "seat": "p2"}),
        json!({"type": "narrate_outcome", "text": "x", "background": "Nope"}),
        json!({"type": "veto", "substitute": 1}),
        json!({"type": "pick_veto", "seat": "p3"}),
        json!({"type": "rest", "kind": "short_rest", "picks": {"Nobody": "defend"}}),
        json!({"type": "level_up", "character": "Ada", "improvement": {"kind": "energy", "action": "attack"}}),
        json!({"type": "rename_move", "character": "Boss", "move": "A-H", "name": "x"}),
        json!({"type": "mark_countdown", "name": "Nothing"}),
        json!({"type": "create_character", "sheet": {"name": "Ada", "controller": "p2", "energy": {"defend": 3, "grapple": 3, "attack": 4}, "moves": []}}),
        json!({"type": "change_background", "character": "Ada", "background": "Nope", "new_name": "x"}),
    ]
}

fn check_table(table: &Table, rng: &mut dyn Randomness) -> Result<(), TestCaseError> {
    for viewer in [
        Viewer::Spectator,
        Viewer::Seat(Seat::Gm),
        Viewer::Seat(Seat::Player(1)),
    ] {
        assert_clean("render", &IronTriangle::render(table, viewer))?;
    }
    for seat in IronTriangle::seats(table) {
        assert_clean("seat name", &IronTriangle::seat_name(table, seat))?;
        for probe in probes() {
            let command: Command = serde_json::from_value(probe).expect("probe parses");
            if let Err(e) = IronTriangle::decide(table, seat, &command, rng) {
                assert_clean("refusal", &reason(&e))?;
            }
        }
    }
    Ok(())
}

#[test]
fn every_example_reads_cleanly() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/iron-triangle");
    let mut files = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "json") {
            continue;
        }
        files += 1;
        let shown = path.display().to_string();
        let json = std::fs::read_to_string(&path).unwrap();
        let report = clash_core::scenario::run_str(&[RulesetEntry::of::<IronTriangle>()], &json)
            .unwrap_or_else(|e| panic!("{shown}: {e}"));
        for step in &report.steps {
            assert_clean(&shown, &step.rendered).unwrap();
            for event in &step.events {
                assert_clean(&shown, &event.text).unwrap();
            }
            if let Some(refusal) = &step.error {
                // The kernel prefixes the rule; the reason after it must read cleanly.
                let reason = refusal.message.split_once(": ").map_or("", |(_, r)| r);
                assert_clean(&shown, reason).unwrap();
            }
        }
        // Every seat's own log reads cleanly too (its hidden choices included).
        let scenario: clash_core::scenario::Scenario = serde_json::from_str(&json).unwrap();
        let mut game = (RulesetEntry::of::<IronTriangle>().new_game)(&scenario.setup).unwrap();
        let mut rng = scenario.randomness.build();
        for step in &scenario.steps {
            let _ = game.command(step.seat, &step.command, rng.as_mut());
        }
        for seat in game.seats() {
            for event in game.events_for(Viewer::Seat(seat), 0) {
                assert_clean(&shown, &event.text).unwrap();
            }
        }
        let state: Table = serde_json::from_value(game.state_json()).unwrap();
        check_table(&state, &mut SeededRandomness::new(0)).unwrap();
    }
    assert!(files >= 13);
}

/// A campaign table: three players, an NPC, a countdown, and a rest due.
fn campaign_setup() -> Setup {
    let mut boss = hero("Boss", "gm");
    boss["established"] = json!(true);
    boss["specials"] = json!([{"special": "wax_on", "action": "attack"}]);
    let mut thug = hero("Thug", "gm");
    thug["established"] = json!(true);
    serde_json::from_value(json!({
        "players": ["p4"],
        "characters": [ada("p1"), hero("Bo", "p2"), hero("Cy", "p3"), boss, thug],
        "countdowns": [{"name": "Flood", "boxes": 4}],
        "campaign": {"rest_due": true}
    }))
    .expect("setup")
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(16))]

    /// Random legal play of the whole table (campaign and conflicts): every accepted command
    /// changes the table, and repeating it is a new step or refused without a change. (That
    /// everything people read there names characters and players is the kernel's law, checked
    /// in `laws.rs`.)
    #[test]
    fn random_campaign_commands_change_the_table(seed: u64, steps in 10usize..160) {
        let mut game = Game::<IronTriangle>::new(campaign_setup()).unwrap();
        let mut rng = SeededRandomness::new(seed);
        let seats = IronTriangle::seats(game.state());
        for _ in 0..steps {
            let seat = seats[rng.choose(seats.len(), &|_| String::new()).unwrap()];
            let legal = IronTriangle::legal_commands(game.state(), seat);
            if legal.is_empty() {
                continue;
            }
            let command = legal[rng.choose(legal.len(), &|_| String::new()).unwrap()].clone();
            let before = game.state().clone();
            let events = game.command(seat, &command, &mut rng).unwrap().to_vec();
            prop_assert!(!events.is_empty());
            prop_assert!(&before != game.state(), "{:?} changed nothing", command);
            // Repeating it is either a new legal step or refused without a change.
            let mut again = game.state().clone();
            let after = again.clone();
            if execute::<IronTriangle>(&mut again, seat, &command, &mut rng).is_err() {
                prop_assert!(again == after, "a refused {:?} changed the table", command);
            } else {
                prop_assert!(again != after, "{:?} repeated changed nothing", command);
            }
        }
    }
}
