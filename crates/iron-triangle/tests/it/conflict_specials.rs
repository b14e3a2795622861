//! Specials in play (IT-53 … IT-59, D-23 … D-31, D-34), with TV-10 and TV-11.

use crate::conflict_support;

use conflict_support::*;
use iron_triangle::{ConflictEvent, Event};
use serde_json::{Value, json};

fn special(who: &str, s: &str, action: Option<&str>) -> Value {
    let mut v = json!({"type": "play_special", "character": who, "special": s});
    if let Some(a) = action {
        v["action"] = json!(a);
    }
    v
}

fn knows(sheet: Value, specials: Value) -> Value {
    with(sheet, "specials", specials)
}

fn has_event(events: &[Event], f: impl Fn(&ConflictEvent) -> bool) -> bool {
    events
        .iter()
        .any(|e| matches!(e, Event::Conflict(c) if f(c)))
}

/// You (p1) against Opp (gm), You active and facing Opp, stances taken.
fn tv_11(you_specials: Value, you_stance: Option<(&str, u32)>, current: [u32; 3]) -> T {
    let you = with(
        knows(sheet("You", "p1", [6, 6, 6], &BASIC), you_specials),
        "current",
        json!({"defend": current[0], "grapple": current[1], "attack": current[2]}),
    );
    let mut t = T::new(vec![you, sheet("Opp", "gm", [10, 10, 10], &BASIC)]);
    t.start(&["Opp"], false, false);
    t.face("You", "Opp");
    t.stance("You", you_stance);
    t.stance("Opp", Some(("attack", 2)));
    t
}

#[test]
fn tv_11_without_specials_you_lose_7() {
    let mut t = tv_11(json!([]), None, [6, 6, 6]);
    t.play("You", "G-M");
    t.play("Opp", "A-H");
    t.settle();
    assert_eq!(t.total("You"), 18 - 7); // TV-11: 2×2+3
}

#[test]
fn tv_11_wax_on_stops_the_stance_part_it_59_5() {
    let mut t = tv_11(
        json!([{"special": "wax_on", "action": "attack"}]),
        None,
        [6, 6, 6],
    );
    let ev = t.cmd("p1", special("You", "wax_on", Some("attack")));
    assert!(has_event(&ev, |e| matches!(
        e,
        ConflictEvent::SpecialPlayed {
            face_down: true,
            ..
        }
    ))); // IT-54: reveal W5
    let seen = t.log_seen_by("gm");
    assert!(
        !seen.contains("wax_on"),
        "a face-down special shows only as a special to others (IT-24)"
    );
    assert!(t.log_seen_by("p1").contains("wax_on"));
    t.play("You", "G-M");
    let ev = t.play("Opp", "A-H");
    assert!(has_event(&ev, |e| matches!(
        e,
        ConflictEvent::SpecialsRevealed { .. }
    ))); // IT-54: revealed at W5
    t.settle();
    assert_eq!(t.total("You"), 18 - 3); // TV-11: Wax On (Attack) → 3
}

/// The breakdown of the turn's loss in `events` and its narrated line.
fn breakdown_and_line(t: &T, events: &[Event]) -> (iron_triangle::conflict::LossBreakdown, String) {
    events
        .iter()
        .find_map(|e| match e {
            Event::Conflict(ConflictEvent::TurnResolved { breakdown, .. }) => Some((
                breakdown[0].clone(),
                <iron_triangle::IronTriangle as clash_core::Ruleset>::narrate(&t.table, e),
            )),
            _ => None,
        })
        .expect("a resolved turn")
}

#[test]
fn it_59_5_wax_on_reports_what_it_stopped() {
    // IT-59 #5: the opponent's A-H with stance A2 (× 2) would cost 4 from the stance.
    let mut t = tv_11(
        json!([{"special": "wax_on", "action": "attack"}]),
        None,
        [6, 6, 6],
    );
    t.cmd("p1", special("You", "wax_on", Some("attack")));
    t.play("You", "G-M");
    let ev = t.play("Opp", "A-H");
    let (b, line) = breakdown_and_line(&t, &ev);
    assert!(b.waxed);
    assert_eq!((b.wax_on_stopped, b.from_stance, b.total), (4, 0, 3));
    assert!(
        line.contains("Wax On stops 4 from the winner's stance"),
        "{line}"
    );
}

#[test]
fn it_59_5_wax_on_against_no_stance_stops_nothing_and_says_nothing() {
    // IT-59 #5: Wax On (Attack) is in play, but the winner took no matching stance: there is
    // nothing to stop, so the flag stays clear and the line does not mention a stance.
    let you = with(
        knows(
            sheet("You", "p1", [6, 6, 6], &BASIC),
            json!([{"special": "wax_on", "action": "attack"}]),
        ),
        "current",
        json!({"defend": 6, "grapple": 6, "attack": 6}),
    );
    let mut t = T::new(vec![you, sheet("Opp", "gm", [10, 10, 10], &BASIC)]);
    t.start(&["Opp"], false, false);
    t.face("You", "Opp");
    t.stance("You", None);
    t.stance("Opp", Some(("defend", 2))); // a feint for an Attack move
    t.cmd("p1", special("You", "wax_on", Some("attack")));
    t.play("You", "G-M");
    let ev = t.play("Opp", "A-H");
    let (b, line) = breakdown_and_line(&t, &ev);
    assert!(!b.waxed);
    assert_eq!((b.wax_on_stopped, b.total), (0, 3));
    assert!(!line.contains("stance"), "{line}");
}

#[test]
fn tv_11_dig_two_graves_mirrors_the_loss_d_24() {
    let mut t = tv_11(
        json!([{"special": "wax_on", "action": "attack"}, {"special": "dig_two_graves", "action": "attack"}]),
        None,
        [6, 6, 6],
    );
    t.cmd("p1", special("You", "dig_two_graves", Some("attack")));
    t.play("You", "G-M");
    t.play("Opp", "A-H");
    t.settle();
    assert_eq!(t.total("You"), 18 - 7); // TV-11
    assert_eq!(t.total("Opp"), 30 - 7); // TV-11: the opponent loses 7 too
    assert_eq!(t.pile("Opp"), Vec::<String>::new()); // D-24: the mirror does not make Opp the loser
}

#[test]
fn tv_11_santa_carla_regains_the_stance_amount_it_59_6() {
    let you = with(
        knows(
            sheet("You", "p1", [6, 6, 6], &BASIC),
            json!([{"special": "santa_carla", "action": "grapple"}]),
        ),
        "current",
        json!({"defend": 6, "grapple": 3, "attack": 6}),
    );
    let mut t = T::new(vec![you, sheet("Opp", "gm", [10, 10, 10], &BASIC)]);
    t.start(&["Opp"], false, false);
    t.face("You", "Opp");
    t.stance("You", Some(("grapple", 3)));
    t.stance("Opp", None);
    t.cmd("p1", special("You", "santa_carla", Some("grapple")));
    t.play("You", "G-H");
    let ev = t.play("Opp", "D-M");
    assert!(has_event(
        &ev,
        |e| matches!(e, ConflictEvent::TurnResolved { breakdown, .. } if breakdown[0].total == 10)
    )); // TV-11: 3×2+4
    t.settle();
    assert_eq!(t.energy("You"), [6, 6, 6]); // TV-11: regain 3, up to max
    assert_eq!(t.total("Opp"), 20);
}

/// TV-10: Pat (p1, Pressure Point) against Opp; Opp's ally Yo (gm) has Yojimbo.
#[test]
fn tv_10_pressure_point_against_yojimbo_d_23_d_25() {
    let pat = knows(
        sheet("Pat", "p1", [6, 6, 6], &BASIC),
        json!([{"special": "pressure_point"}]),
    );
    let yo = knows(
        sheet("Yo", "gm", [8, 8, 8], &BASIC),
        json!([{"special": "yojimbo"}]),
    );
    let mut t = T::new(vec![pat, sheet("Opp", "gm", [10, 10, 10], &BASIC), yo]);
    t.start(&["Opp", "Yo"], false, false);
    t.face("Pat", "Opp");
    t.stance("Pat", None);
    t.stance("Opp", None);
    t.cmd("p1", special("Pat", "pressure_point", None));
    t.play("Pat", "A-H");
    let ev = t.play("Opp", "G-L");
    assert!(has_event(
        &ev,
        |e| matches!(e, ConflictEvent::WindowOpened { who, .. } if who == &["Yo".to_string()])
    )); // IT-55 W5, D-34
    assert_eq!(
        t.refused(
            "gm",
            json!({"type": "play_special", "character": "Yo", "special": "yojimbo", "target": "Yo"})
        ),
        "D-25"
    );
    t.cmd(
        "gm",
        json!({"type": "play_special", "character": "Yo", "special": "yojimbo", "target": "Opp"}),
    );
    // The Yojimbo user splits their own loss; Pat's split would have applied to Opp, who loses 0.
    let waiting = t.view("gm")["conflict"]["split"].clone();
    assert_eq!(waiting["character"], "Yo"); // TV-10: the Yojimbo player decides
    assert_eq!(waiting["splitter"], "gm"); // D-25
    t.settle();
    assert_eq!(t.total("Opp"), 30); // TV-10: the original opponent loses 0
    assert_eq!(t.total("Yo"), 24 - 3);
    assert_eq!(t.pile("Opp"), ["G-L"]); // D-25: still counts as having lost
    assert_eq!(t.chain(), ["A-H"]);
}

#[test]
fn tv_10_scouter_and_samurai_do_not_clash_d_26() {
    let sam = knows(
        with(
            sheet("Sam", "p1", [4, 4, 4], &BASIC),
            "current",
            json!({"defend": 1, "grapple": 1, "attack": 1}),
        ),
        json!([{"special": "way_of_the_samurai"}]),
    );
    let scout = knows(
        sheet("Eye", "gm", [10, 10, 10], &BASIC),
        json!([{"special": "scouter"}]),
    );
    let mut t = T::new(vec![sam, scout]);
    t.start(&["Eye"], false, false);
    t.face("Sam", "Eye");
    t.cmd("p1", special("Sam", "way_of_the_samurai", None));
    assert_eq!(t.energy("Sam"), [4, 4, 4]); // IT-59 #12: refill all types
    let ev = t.cmd("gm", special("Eye", "scouter", None));
    assert!(!has_event(&ev, |e| matches!(
        e,
        ConflictEvent::SpecialsCancelled { .. }
    ))); // TV-10: no clash
    assert!(has_event(&ev, |e| matches!(
        e,
        ConflictEvent::Scouted {
            report: Some(_),
            ..
        }
    ))); // IT-59 #1
    // The snapshot is private to the Scouter's controller (D-26).
    assert_eq!(
        t.view("gm")["conflict"]["scouted"].as_array().map(Vec::len),
        Some(1)
    );
    assert_eq!(
        t.view("p1")["conflict"]["scouted"].as_array().map(Vec::len),
        Some(0)
    );
    assert!(!t.log_seen_by("p1").contains("unspent_specials"));
    assert!(t.log_seen_by("gm").contains("unspent_specials"));
    // The Samurai cannot surrender (D-11).
    t.stance("Sam", None);
    t.stance("Eye", None);
    assert_eq!(
        t.refused(
            "p1",
            json!({"type": "play_move", "character": "Sam", "move": "surrender"})
        ),
        "D-11"
    );
}

#[test]
fn samurai_stays_at_zero_and_dies_when_the_conflict_ends_it_59_12() {
    let sam = knows(
        sheet("Sam", "p1", [1, 1, 1], &BASIC),
        json!([{"special": "way_of_the_samurai"}]),
    );
    let mut t = T::new(vec![sam, sheet("Brute", "gm", [10, 10, 10], &BASIC)]);
    t.start(&["Brute"], false, false);
    t.face("Sam", "Brute");
    t.cmd("p1", special("Sam", "way_of_the_samurai", None));
    t.exchange(("Sam", None, "G-L"), ("Brute", None, "A-M"));
    t.settle();
    assert_eq!(t.total("Sam"), 0);
    assert_eq!(t.fighter("Sam").status, iron_triangle::conflict::Status::In); // IT-59 #12: cannot be removed
    // D-11: the GM may end a conflict stalled by a Samurai at 0 energy.
    t.cmd(
        "gm",
        json!({"type": "settle_conflict", "outcome": "Sam holds the bridge to the last."}),
    );
    assert!(t.table.character("Sam").unwrap().dead); // IT-59 #12: dies when it ends, even a lesser one (D-36)
}

#[test]
fn one_special_per_turn_and_spent_until_full_rest_it_53() {
    let you = knows(
        sheet("You", "p1", [6, 6, 6], &BASIC),
        json!([{"special": "scouter"}, {"special": "i_already_know", "action": "attack"}]),
    );
    let mut t = T::new(vec![you, sheet("Opp", "gm", [10, 10, 10], &BASIC)]);
    t.start(&["Opp"], false, false);
    t.cmd("p1", json!({"type": "pick_active", "character": "You"}));
    assert_eq!(t.refused("p1", special("You", "scouter", None)), "D-26"); // W1 needs a named opponent
    t.cmd(
        "p1",
        json!({"type": "play_special", "character": "You", "special": "scouter", "target": "Opp"}),
    );
    t.cmd("p1", json!({"type": "pick_opponent", "opponent": "Opp"}));
    assert_eq!(
        t.refused("p1", special("You", "i_already_know", Some("attack"))),
        "IT-53"
    ); // one per turn
    t.exchange(("You", None, "A-H"), ("Opp", None, "G-L"));
    t.settle();
    let spent = &t.table.character("You").unwrap().specials;
    assert!(
        spent
            .iter()
            .any(|k| k.special == iron_triangle::Special::Scouter && k.spent)
    ); // IT-53: spent until a full rest
    t.face("You", "Opp");
    assert_eq!(
        t.refused(
            "p1",
            json!({"type": "play_special", "character": "You", "special": "scouter"})
        ),
        "IT-53"
    );
}

#[test]
fn i_already_know_forbids_an_action_it_59_8() {
    let you = knows(
        sheet("You", "p1", [6, 6, 6], &BASIC),
        json!([{"special": "i_already_know", "action": "attack"}]),
    );
    let mut t = T::new(vec![
        you,
        sheet("Opp", "gm", [10, 10, 10], &["A-L", "A-M", "A-H"]),
    ]);
    t.start(&["Opp"], false, false);
    t.face("You", "Opp");
    assert_eq!(
        t.refused("p1", special("You", "pressure_point", None)),
        "IT-59"
    ); // not known
    t.cmd("p1", special("You", "i_already_know", Some("attack")));
    t.stance("You", None);
    t.stance("Opp", None);
    assert_eq!(
        t.refused(
            "gm",
            json!({"type": "play_move", "character": "Opp", "move": "A-H"})
        ),
        "IT-59"
    );
    // No move left: Surrender is all that remains (IT-59 #8, IT-35).
    let legal = serde_json::to_string(
        &<iron_triangle::IronTriangle as clash_core::Ruleset>::legal_commands(
            &t.table,
            clash_core::Seat::Gm,
        )
        .into_iter()
        .filter(|c| {
            matches!(
                c,
                iron_triangle::Command::Conflict(iron_triangle::ConflictCommand::PlayMove { .. })
            )
        })
        .collect::<Vec<_>>(),
    )
    .unwrap();
    assert_eq!(
        legal,
        r#"[{"type":"play_move","character":"Opp","move":"surrender"}]"#
    );
}

#[test]
fn identical_specials_cancel_d_31() {
    let you = knows(
        sheet("You", "p1", [6, 6, 6], &BASIC),
        json!([{"special": "i_already_know", "action": "attack"}]),
    );
    let opp = knows(
        sheet("Opp", "gm", [10, 10, 10], &BASIC),
        json!([{"special": "i_already_know", "action": "attack"}]),
    );
    let mut t = T::new(vec![you, opp]);
    t.start(&["Opp"], false, false);
    t.face("You", "Opp");
    t.cmd("p1", special("You", "i_already_know", Some("attack")));
    let ev = t.cmd("gm", special("Opp", "i_already_know", Some("attack")));
    assert!(has_event(&ev, |e| matches!(
        e,
        ConflictEvent::SpecialsCancelled { .. }
    ))); // IT-57, D-31
    t.stance("You", None);
    t.stance("Opp", None);
    t.play("You", "A-H"); // neither takes effect
    t.play("Opp", "A-L");
    assert!(
        t.table
            .characters
            .iter()
            .all(|c| c.specials.iter().all(|k| k.spent))
    ); // D-31: both spent
}

#[test]
fn there_can_be_only_one_binds_both_d_27() {
    let you = knows(
        sheet("You", "p1", [6, 6, 6], &BASIC),
        json!([{"special": "there_can_be_only_one"}]),
    );
    let mut t = T::new(vec![
        you,
        sheet("A", "gm", [10, 10, 10], &BASIC),
        sheet("B", "gm", [10, 10, 10], &BASIC),
    ]);
    t.start(&["A", "B"], false, false);
    t.cmd("p1", json!({"type": "pick_active", "character": "You"}));
    t.cmd("p1", json!({"type": "play_special", "character": "You", "special": "there_can_be_only_one", "target": "B"}));
    assert_eq!(
        t.refused("p1", json!({"type": "pick_opponent", "opponent": "A"})),
        "IT-59"
    ); // IT-59 #3
    t.cmd("p1", json!({"type": "pick_opponent", "opponent": "B"}));
    let ev = t.exchange(("You", None, "A-H"), ("B", None, "A-L"));
    assert!(has_event(
        &ev,
        |e| matches!(e, ConflictEvent::WindowOpened { who, .. } if who == &["A".to_string()])
    )); // W5: idle NPCs are always asked (IT-24)
    t.cmd("gm", json!({"type": "pass_window", "character": "A"}));
    t.settle();
    // B won; B's side picks B, who must pick You.
    t.cmd("gm", json!({"type": "pick_active", "character": "B"}));
    assert_eq!(t.fighter("B").bound_to, Some(0));
}

#[test]
fn to_blave_bluffs_twice_per_conflict_d_28() {
    let you = knows(
        sheet("You", "p1", [9, 9, 9], &BASIC),
        json!([{"special": "to_blave"}, {"special": "pressure_point"}]),
    );
    let mut t = T::new(vec![you, sheet("Opp", "gm", [20, 20, 20], &BASIC)]);
    t.start(&["Opp"], false, false);
    for round in 0..3 {
        t.face("You", "Opp");
        let rule = t.refused("p1", special("You", "to_blave", None));
        assert_eq!(rule, if round < 2 { "IT-55" } else { "D-28" }); // W1: no known special acts there
        t.stance("You", None);
        t.stance("Opp", None);
        if round < 2 {
            let ev = t.cmd("p1", special("You", "to_blave", None));
            assert!(has_event(&ev, |e| matches!(
                e,
                ConflictEvent::SpecialPlayed {
                    face_down: true,
                    ..
                }
            ))); // looks like a W3 special
            assert_eq!(
                t.refused("p1", special("You", "pressure_point", None)),
                "IT-53"
            ); // it counts as the turn's special
        } else {
            assert_eq!(t.refused("p1", special("You", "to_blave", None)), "D-28"); // only twice per conflict
        }
        t.play("You", ["A-H", "A-M", "A-L"][round]);
        t.play("Opp", ["G-L", "G-M", "G-H"][round]);
        t.settle();
    }
}

#[test]
fn liquid_metal_copies_a_revealed_special_d_29() {
    let you = knows(
        sheet("You", "p1", [9, 9, 9], &BASIC),
        json!([{"special": "liquid_metal"}]),
    );
    let opp = knows(
        sheet("Opp", "gm", [20, 20, 20], &BASIC),
        json!([{"special": "i_already_know", "action": "grapple"}, {"special": "drunken_monkey"}]),
    );
    let mut t = T::new(vec![you, opp]);
    t.start(&["Opp"], false, false);
    t.face("You", "Opp");
    assert_eq!(t.refused("p1", json!({"type": "play_special", "character": "You", "special": "liquid_metal", "copy": {"special": "i_already_know", "action": "grapple"}})), "D-29");
    t.cmd("gm", special("Opp", "i_already_know", Some("grapple")));
    t.stance("You", None);
    t.stance("Opp", None);
    t.play("You", "A-H");
    t.play("Opp", "A-H");
    t.settle();
    t.cmd("gm", json!({"type": "pick_active", "character": "Opp"}));
    t.cmd("gm", json!({"type": "pick_opponent", "opponent": "You"}));
    t.cmd("p1", json!({"type": "play_special", "character": "You", "special": "liquid_metal", "copy": {"special": "i_already_know", "action": "grapple"}}));
    let turn = t.table.conflict.as_ref().unwrap().turn.clone().unwrap();
    assert_eq!(turn.forbidden[0], Some(iron_triangle::Action::Grapple)); // the copy works like the original
    let you = t.table.character("You").unwrap();
    assert!(you.specials.iter().all(|k| k.spent)); // only Liquid Metal is spent
    assert_eq!(
        t.refused(
            "gm",
            json!({"type": "play_move", "character": "Opp", "move": "A-H"})
        ),
        "IT-32"
    ); // stances first
}

#[test]
fn drunken_monkey_swaps_with_injected_randomness_d_30() {
    let you = knows(
        sheet("You", "p1", [9, 9, 9], &BASIC),
        json!([{"special": "drunken_monkey"}]),
    );
    let pal = sheet("Pal", "p2", [3, 3, 3], &BASIC);
    let mut t = T::new(vec![you, pal, sheet("Opp", "gm", [20, 20, 20], &BASIC)]);
    t.cmd(
        "gm",
        json!({"type": "start_conflict", "stakes": "the bridge", "npcs": ["Opp"]}),
    );
    t.cmd("p1", json!({"type": "join_conflict", "character": "You"}));
    t.cmd("p2", json!({"type": "sit_out", "character": "Pal"})); // IT-23: lesser conflicts let PCs sit out
    t.face("You", "Opp");
    t.stance("You", None);
    t.stance("Opp", None);
    t.cmd("p1", special("You", "drunken_monkey", None));
    assert!(t.table.character("You").unwrap().drunken_monkey_ban); // IT-59 #11
    t.play("You", "A-H");
    let ev = t.play("Opp", "G-L");
    assert!(has_event(&ev, |e| matches!(
        e,
        ConflictEvent::WindowOpened { .. }
    ))); // W4
    t.rng = clash_core::ScriptedRandomness::new([clash_core::Scripted::Pick("D-M".into())]);
    let ev = t.cmd("p1", json!({"type": "drunken_swap", "character": "You"}));
    assert!(has_event(
        &ev,
        |e| matches!(e, ConflictEvent::MoveSwapped { to: Some(m), .. } if m.to_string() == "D-M")
    )); // D-30: recorded in the event
    assert_eq!(
        t.refused("p1", json!({"type": "drunken_swap", "character": "You"})),
        "D-30"
    ); // once per turn
    t.cmd("gm", json!({"type": "pass_window", "character": "Opp"}));
    t.settle();
    assert_eq!(t.pile("You"), ["D-M"]); // G-L beat the swapped D-M; disadvantage is judged on the new move
    // Play the rest out; the next conflict bars the monkey (IT-23), and the ban lifts after it.
    let mut rng = seeded(5);
    iron_triangle::conflict::driver::play_out(&mut t.table, &mut rng, 5000, true)
        .expect("legal play");
    assert!(!t.table.conflict.as_ref().unwrap().is_running());
    let ev = t.cmd(
        "gm",
        json!({"type": "start_conflict", "stakes": "the tower", "npcs": ["Opp"]}),
    );
    assert!(has_event(
        &ev,
        |e| matches!(e, ConflictEvent::ConflictStarted { barred, .. } if barred.iter().any(|(n, _)| n == "You"))
    )); // IT-23
    assert_eq!(
        t.refused("p1", json!({"type": "join_conflict", "character": "You"})),
        "IT-23"
    );
    t.cmd(
        "gm",
        json!({"type": "settle_conflict", "outcome": "Pal talks the guard down."}),
    );
    assert!(!t.table.character("You").unwrap().drunken_monkey_ban); // cleared once that next conflict has happened
}
