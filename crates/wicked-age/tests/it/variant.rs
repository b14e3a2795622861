//! Rule variants: each changed number changes exactly what its rule says, and nothing changes
//! without one.

use crate::common::*;

use clash_core::Game;
use serde_json::{Value, json};
use wicked_age::{Event, Setup, WickedAge};

fn game_with(changes: Value, characters: &[Value]) -> Game<WickedAge> {
    let s: Setup = serde_json::from_value(
        json!({"characters": characters, "variant": {"name": "test", "changes": changes}}),
    )
    .unwrap();
    Game::new(s).unwrap()
}

/// Round 1 of the Khan against Ysolde: the Khan challenges, Ysolde's (5,1) against (9,2) lets
/// the Khan take the Advantage die (WA-23).
fn round_one(g: &mut Game<WickedAge>) {
    start(g, &["The Khan", "Ysolde"]);
    init(g, "The Khan", form("action"), &[9, 2]);
    init(g, "Ysolde", forms("for_myself", "directly"), &[1, 1]);
    challenge(g, "The Khan", "Ysolde", none(), &[]);
    answer(g, "Ysolde", forms("with_love", "covertly"), &[5, 1]);
}

fn initiative_dice(events: &[Event]) -> Vec<u32> {
    match &events[0] {
        Event::InitiativeRolled { roll, .. } => roll.dice.iter().map(|d| d.sides).collect(),
        other => panic!("initiative expected, got {other:?}"),
    }
}

#[test]
fn a_setup_without_a_variant_is_written_exactly_as_before() {
    let g = game(&[ysolde(), khan()]);
    assert!(
        serde_json::to_value(g.setup())
            .unwrap()
            .get("variant")
            .is_none()
    );
    assert!(state_json(&g).get("rules").is_none());
}

#[test]
fn wa21_two_rounds_make_round_two_the_final_one() {
    let play_round_two = |g: &mut Game<WickedAge>| {
        round_one(g);
        init(g, "The Khan", form("action"), &[9, 2, 1]); // (10,2) with the Advantage d6
        init(g, "Ysolde", forms("for_myself", "directly"), &[1, 1]);
        challenge(g, "The Khan", "Ysolde", none(), &[]);
        answer(g, "Ysolde", forms("with_love", "covertly"), &[12, 1]) // (12,1) ≥ (10,2)
    };
    let mut written = game(&[ysolde(), khan()]);
    play_round_two(&mut written);
    assert_eq!(at(&written, "/conflict/advantage"), json!("Ysolde")); // WA-23, rounds 1–2
    assert_eq!(at(&written, "/conflict/round"), json!(3));
    let mut g = game_with(json!({"rounds": 2}), &[ysolde(), khan()]);
    play_round_two(&mut g);
    assert_eq!(at(&g, "/conflict/knockouts/0/loser"), json!("The Khan")); // the last round
    assert_eq!(at(&g, "/conflict/ended/kind"), json!("knockouts"));
}

#[test]
fn wa20_a_bigger_advantage_die_and_none() {
    let mut written = game(&[ysolde(), khan()]);
    round_one(&mut written);
    let ev = init(&mut written, "The Khan", form("action"), &[9, 2, 6]);
    assert_eq!(initiative_dice(&ev), vec![12, 8, 6]); // WA-20: a d6
    let mut g = game_with(json!({"advantage": 10}), &[ysolde(), khan()]);
    round_one(&mut g);
    let ev = init(&mut g, "The Khan", form("action"), &[9, 2, 10]);
    assert_eq!(initiative_dice(&ev), vec![12, 8, 10]);
    let mut bare = game_with(json!({"advantage": 0}), &[ysolde(), khan()]); // none
    round_one(&mut bare);
    assert_eq!(at(&bare, "/conflict/advantage"), json!("The Khan")); // it still changes hands
    let ev = init(&mut bare, "The Khan", form("action"), &[9, 2]);
    assert_eq!(initiative_dice(&ev), vec![12, 8]); // … but adds no die
}

#[test]
fn wa18_a_bigger_owe_die() {
    let s: Setup = serde_json::from_value(json!({"characters": [ysolde(), khan()],
        "owe_list": [{"character": "Ysolde", "player": "p1"}],
        "variant": {"name": "big debts", "changes": {"owe": 10}}}))
    .unwrap();
    let mut g = Game::<WickedAge>::new(s).unwrap();
    start(&mut g, &["The Khan", "Ysolde"]);
    ok(
        &mut g,
        "p1",
        json!({"type": "cash_in_owe", "pc": "Ysolde", "entry": "Ysolde"}),
        &[],
    );
    init(&mut g, "The Khan", form("action"), &[9, 2]);
    let ev = init(
        &mut g,
        "Ysolde",
        forms("for_myself", "directly"),
        &[1, 1, 9],
    );
    assert_eq!(initiative_dice(&ev), vec![8, 4, 10]); // WA-18: the Owe d10
}

#[test]
fn a_number_out_of_bounds_is_refused_naming_its_rule() {
    let refused = |changes: Value| {
        let s: Setup = serde_json::from_value(
            json!({"characters": [ysolde(), khan()], "variant": {"name": "bad", "changes": changes}}),
        )
        .unwrap();
        Game::<WickedAge>::new(s).err().and_then(|e| e.rule())
    };
    assert_eq!(refused(json!({"rounds": 7})), Some("WA-21"));
    assert_eq!(refused(json!({"advantage": 7})), Some("WA-20"));
    assert_eq!(refused(json!({"strength": 10})), Some("WA-variant"));
}

#[test]
fn a_position_keeps_the_variants_numbers() {
    let mut g = game_with(json!({"rounds": 2, "owe": 8}), &[ysolde(), khan()]);
    round_one(&mut g);
    let pos = wicked_age::position::export(g.state());
    let again = Game::<WickedAge>::new(pos).unwrap();
    assert_eq!(again.state().rules, g.state().rules);
    assert_eq!(again.state().rules.rounds, 2);
}
