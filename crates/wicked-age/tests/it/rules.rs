//! One or more tests per numbered rule WA-1 … WA-30 (rule IDs in the names).

use crate::common;

use clash_core::{Game, Ruleset};
use common::*;
use serde_json::json;
use wicked_age::{Event, Setup, WickedAge};

fn setup_error(characters: &[serde_json::Value]) -> Option<&'static str> {
    WickedAge::setup(&setup(characters))
        .err()
        .and_then(|e| e.rule())
}

/// Khan first with (12,1); Ysolde answers (2,1): knocked out in round 1.
fn khan_knocks_out_ysolde(g: &mut Game<WickedAge>) {
    start(g, &["The Khan", "Ysolde"]);
    init(g, "The Khan", form("action"), &[12, 1]);
    init(g, "Ysolde", forms("with_love", "for_myself"), &[1, 1]);
    challenge(g, "The Khan", "Ysolde", none(), &[]);
    answer(g, "Ysolde", forms("with_love", "for_myself"), &[2, 1]);
}

/// Khan first with (9,2); Ysolde answers (5,1): the Khan takes the die; round 2 begins.
fn round_one_middle(g: &mut Game<WickedAge>) {
    start(g, &["The Khan", "Ysolde"]);
    init(g, "The Khan", form("action"), &[9, 2]);
    init(g, "Ysolde", forms("for_myself", "directly"), &[1, 1]);
    challenge(g, "The Khan", "Ysolde", none(), &[]);
    answer(g, "Ysolde", forms("with_love", "covertly"), &[5, 1]);
}

#[test]
fn wa_1_forms_step_down_the_chain_to_zero() {
    let mut g = game(&[ysolde(), khan()]);
    let mut seen = vec![at(&g, "/characters/0/forms/with_violence")];
    for _ in 0..6 {
        if at(&g, "/characters/0/status") != json!("active") {
            break;
        }
        khan_knocks_out_ysolde(&mut g);
        ok(
            &mut g,
            "gm",
            json!({"type": "propose_alternative", "loser": "Ysolde", "terms": "a deep cut",
            "costs": [{"type": "step_down", "form": "with_violence"}]}),
            &[],
        );
        ok(
            &mut g,
            "p1",
            json!({"type": "accept_alternative", "loser": "Ysolde"}),
            &[],
        );
        seen.push(at(&g, "/characters/0/forms/with_violence"));
    }
    // WA-1: d10 → d8 → d6 → d4 → 0, and 0 stays 0.
    assert_eq!(
        seen,
        [
            json!(10),
            json!(8),
            json!(6),
            json!(4),
            json!(0),
            json!(0),
            json!(0)
        ]
    );
}

#[test]
fn wa_2_pc_creation_set_is_enforced() {
    assert_eq!(setup_error(&[ysolde(), khan()]), None);
    let mut bad = ysolde();
    bad["forms"]["directly"] = json!(6); // d6, d6, d6: not {d12, d10, d8, d6, d6, d4}
    assert_eq!(setup_error(&[bad]), Some("WA-2")); // WA-2
    let mut no_seat = ysolde();
    no_seat["seat"] = json!("gm");
    assert_eq!(setup_error(&[no_seat]), Some("WA-2"));
    let mut dup = oren();
    dup["name"] = json!("Ysolde");
    assert_eq!(setup_error(&[ysolde(), dup]), Some("WA-2"));
}

#[test]
fn wa_3_a_pc_rolls_exactly_two_different_forms_above_zero() {
    let mut g = game(&[ysolde(), khan()]);
    start(&mut g, &["The Khan", "Ysolde"]);
    let roll =
        |f: serde_json::Value| with(json!({"type": "roll_initiative", "character": "Ysolde"}), f);
    refused(
        &mut g,
        "p1",
        roll(json!({"forms": ["covertly"]})),
        &[3],
        "WA-3",
    );
    refused(
        &mut g,
        "p1",
        roll(json!({"forms": ["covertly", "covertly"]})),
        &[3, 3],
        "WA-3",
    );
    refused(
        &mut g,
        "p1",
        roll(json!({"forms": ["covertly", "directly", "with_love"]})),
        &[3, 3, 3],
        "WA-3",
    );
    refused(&mut g, "p1", roll(json!({"form": "action"})), &[3], "WA-3");
    ok(
        &mut g,
        "p1",
        roll(json!({"forms": ["covertly", "directly"]})),
        &[3, 2],
    );

    // A form at 0 cannot be chosen.
    let mut g = game(&[
        json!(ysolde().as_object().map(|o| {
            let mut o = o.clone();
            o.insert("losses".into(), json!(["directly"]));
            o
        })),
        khan(),
    ]);
    start(&mut g, &["The Khan", "Ysolde"]);
    refused(
        &mut g,
        "p1",
        roll(json!({"forms": ["covertly", "directly"]})),
        &[3, 2],
        "WA-3",
    );
}

#[test]
fn wa_4_two_forms_at_zero_put_a_pc_out_of_the_chapter() {
    let mut y = ysolde();
    y["losses"] = json!(["directly"]);
    let mut g = game(&[y, khan(), oren()]);
    khan_knocks_out_ysolde(&mut g);
    ok(
        &mut g,
        "gm",
        json!({"type": "propose_alternative", "loser": "Ysolde", "terms": "broken hand",
        "costs": [{"type": "step_down", "form": "for_others"}, {"type": "step_down", "form": "for_others"}]}),
        &[],
    );
    ok(
        &mut g,
        "p1",
        json!({"type": "accept_alternative", "loser": "Ysolde"}),
        &[],
    );
    assert_eq!(at(&g, "/characters/0/status"), json!("out_of_chapter")); // WA-4
    refused(
        &mut g,
        "gm",
        json!({"type": "start_conflict", "participants": ["Ysolde", "Oren"]}),
        &[],
        "WA-4",
    );
    refused(
        &mut g,
        "p1",
        json!({"type": "start_conflict", "participants": ["Oren", "Ysolde"]}),
        &[],
        "WA-4",
    );
}

#[test]
fn wa_5_best_interests_are_required_text_without_effect() {
    let mut one = ysolde();
    one["best_interests"] = json!(["Only one"]);
    assert_eq!(setup_error(&[one]), Some("WA-5")); // WA-5
    let mut contradictory = ysolde();
    contradictory["best_interests"] = json!(["Protect the Khan", "Kill the Khan"]);
    assert_eq!(setup_error(&[contradictory]), None);
}

#[test]
fn wa_6_npc_forms_are_the_three_pairs() {
    let mut bad = khan();
    bad["forms"]["self_protection"] = json!([6, 6]);
    assert_eq!(setup_error(&[bad]), Some("WA-6")); // WA-6
    let mut shuffled = khan();
    shuffled["forms"] =
        json!({"action": [6, 4], "maneuvering": [8, 12], "self_protection": [10, 6]});
    assert_eq!(setup_error(&[shuffled]), None);
    let mut seated = khan();
    seated["seat"] = json!("p3");
    assert_eq!(setup_error(&[seated]), Some("WA-6"));
}

#[test]
fn wa_7_an_npc_rolls_one_form_and_both_its_dice() {
    let mut g = game(&[ysolde(), khan()]);
    start(&mut g, &["The Khan", "Ysolde"]);
    refused(
        &mut g,
        "gm",
        json!({"type": "roll_initiative", "character": "The Khan", "forms": ["covertly", "directly"]}),
        &[1, 1],
        "WA-7",
    );
    refused(
        &mut g,
        "gm",
        json!({"type": "roll_initiative", "character": "The Khan"}),
        &[],
        "WA-7",
    );
    let events = init(&mut g, "The Khan", form("maneuvering"), &[7, 5]);
    let Event::InitiativeRolled { roll, .. } = &events[0] else {
        panic!("{events:?}")
    };
    // WA-7: both dice of Maneuvering (d10, d6) are rolled.
    assert_eq!(
        roll.dice.iter().map(|d| d.sides).collect::<Vec<_>>(),
        [10, 6]
    );
    assert_eq!((roll.value.p, roll.value.t), (7, 5));
}

#[test]
fn wa_8_npc_damage_steps_both_dice_and_two_zero_forms_put_it_out() {
    let mut k = khan();
    k["losses"] = json!(["self_protection", "self_protection"]);
    let mut g = game(&[ysolde(), k]);
    assert_eq!(at(&g, "/characters/1/forms/self_protection"), json!([0, 0])); // WA-8
    start(&mut g, &["Ysolde", "The Khan"]);
    refused(
        &mut g,
        "gm",
        json!({"type": "roll_initiative", "character": "The Khan", "form": "self_protection"}),
        &[],
        "WA-8",
    );
    init(
        &mut g,
        "Ysolde",
        forms("with_love", "with_violence"),
        &[12, 10],
    );
    init(&mut g, "The Khan", form("maneuvering"), &[1, 1]);
    challenge(&mut g, "Ysolde", "The Khan", none(), &[]);
    answer(&mut g, "The Khan", form("maneuvering"), &[1, 1]);
    ok(
        &mut g,
        "p1",
        json!({"type": "choose_consequence", "loser": "The Khan", "consequence": "injured"}),
        &[],
    );
    assert_eq!(at(&g, "/characters/1/forms/maneuvering"), json!([8, 4]));
    assert_eq!(at(&g, "/characters/1/status"), json!("active"));
    // Two more Injured: [6, 0] then [4, 0]... the form is at 0 only when both dice are.
    let mut g2 = game(&[ysolde(), {
        let mut k = khan();
        k["losses"] = json!([
            "self_protection",
            "self_protection",
            "maneuvering",
            "maneuvering",
            "maneuvering",
            "maneuvering"
        ]);
        k
    }]);
    assert_eq!(at(&g2, "/characters/1/forms/maneuvering"), json!([0, 0]));
    assert_eq!(at(&g2, "/characters/1/status"), json!("out_of_chapter")); // WA-8: two forms at 0
    refused(
        &mut g2,
        "gm",
        json!({"type": "start_conflict", "participants": ["The Khan", "Ysolde"]}),
        &[],
        "WA-8",
    );
}

#[test]
fn wa_9_strength_significance_sets_the_die_and_unique_is_enforced() {
    let g = game(&[ysolde(), oren(), khan()]);
    assert_eq!(at(&g, "/characters/0/strengths/0/die"), json!(8)); // WA-9: d8 by default
    assert_eq!(at(&g, "/characters/1/strengths/0/die"), json!(10)); // potent: d10
    let mut two = oren();
    two["strengths"][0]["significance"] = json!([{"type": "potent"}, {"type": "unique"}]);
    assert_eq!(setup_error(&[two]), Some("WA-9"));
    let mut uniq = oren();
    uniq["strengths"][0] = json!({"name": "Hidden Blade", "pc_form": "covertly", "npc_form": "maneuvering", "significance": [{"type": "unique"}]});
    assert_eq!(setup_error(&[ysolde(), uniq.clone()]), Some("WA-9"));
    let mut far = oren();
    far["strengths"][0]["significance"] = json!([{"type": "far_reaching"}]);
    let g = game(&[far]);
    assert!(g.state().characters[0].strengths[0].is_far_reaching());
}

#[test]
fn wa_10_strength_needs_an_associated_form() {
    let mut g = game(&[ysolde(), oren()]);
    start(&mut g, &["Ysolde", "Oren"]);
    let roll =
        |f: serde_json::Value| with(json!({"type": "roll_initiative", "character": "Ysolde"}), f);
    refused(
        &mut g,
        "p1",
        roll(json!({"forms": ["with_love", "directly"], "strength": "Hidden Blade"})),
        &[1, 1, 1],
        "WA-10",
    );
    refused(
        &mut g,
        "p1",
        roll(json!({"forms": ["covertly", "directly"], "strength": "Exorcism"})),
        &[1, 1, 1],
        "WA-10",
    );
    let events = ok(
        &mut g,
        "p1",
        roll(json!({"forms": ["with_love", "covertly"], "strength": "Hidden Blade"})),
        &[5, 2, 7],
    );
    let Event::InitiativeRolled { roll, .. } = &events[0] else {
        panic!()
    };
    assert_eq!((roll.value.p, roll.value.t), (12, 2)); // WA-10: the d8 adds to P
    // Broad: the second form qualifies too.
    let mut broad = oren();
    broad["strengths"][0]["significance"] = json!([{"type": "broad", "second_form": "with_love"}]);
    let mut g = game(&[ysolde(), broad]);
    start(&mut g, &["Ysolde", "Oren"]);
    ok(
        &mut g,
        "p2",
        json!({"type": "roll_initiative", "character": "Oren", "forms": ["with_love", "for_myself"], "strength": "Exorcism"}),
        &[1, 1, 1],
    );
}

#[test]
fn wa_11_bonus_dice_add_to_high_only() {
    let mut g = game(&[ysolde(), khan()]);
    start(&mut g, &["Ysolde", "The Khan"]);
    let events = init(
        &mut g,
        "Ysolde",
        json!({"forms": ["covertly", "for_others"], "strength": "Hidden Blade"}),
        &[3, 3, 6],
    );
    let Event::InitiativeRolled { roll, .. } = &events[0] else {
        panic!()
    };
    assert_eq!((roll.value.p, roll.value.t), (9, 3)); // WA-11
}

#[test]
fn wa_12_and_wa_13_order_and_ratios_in_play() {
    // TV-5 second half through the engine: (5,4) challenged, (10,1) answers: doubling ignores T.
    let mut g = game(&[ysolde(), khan()]);
    start(&mut g, &["The Khan", "Ysolde"]);
    init(&mut g, "The Khan", form("maneuvering"), &[5, 4]);
    init(&mut g, "Ysolde", forms("for_myself", "directly"), &[1, 1]);
    challenge(&mut g, "The Khan", "Ysolde", none(), &[]);
    answer(&mut g, "Ysolde", forms("with_love", "covertly"), &[10, 1]);
    assert_eq!(
        at(&g, "/conflict/exchanges/0/outcome"),
        json!("challenger_knocked_out")
    ); // WA-13
    // WA-12: equal P, T decides.
    let mut g = game(&[ysolde(), khan()]);
    start(&mut g, &["The Khan", "Ysolde"]);
    init(&mut g, "The Khan", form("action"), &[8, 5]);
    init(&mut g, "Ysolde", forms("for_myself", "directly"), &[1, 1]);
    challenge(&mut g, "The Khan", "Ysolde", none(), &[]);
    answer(&mut g, "Ysolde", forms("for_myself", "covertly"), &[8, 6]);
    assert_eq!(
        at(&g, "/conflict/exchanges/0/outcome"),
        json!("answerer_takes_advantage")
    ); // WA-12
}

#[test]
fn wa_14_npcs_never_go_on_the_owe_list() {
    let bad = serde_json::from_value::<Setup>(json!({"characters": [ysolde(), khan()],
        "owe_list": [{"character": "The Khan", "player": "p1"}]}))
    .unwrap();
    assert_eq!(
        WickedAge::setup(&bad).err().and_then(|e| e.rule()),
        Some("WA-14")
    ); // WA-14
    // The Khan faces Ysolde's bigger dice and survives round 1, yet gets no entry.
    let mut g = game(&[ysolde(), khan()]);
    start(&mut g, &["Ysolde", "The Khan"]);
    init(
        &mut g,
        "Ysolde",
        forms("with_love", "with_violence"),
        &[12, 1],
    );
    init(&mut g, "The Khan", form("maneuvering"), &[1, 1]);
    challenge(&mut g, "Ysolde", "The Khan", none(), &[]);
    answer(&mut g, "The Khan", form("maneuvering"), &[7, 1]); // 14 > 12: Ysolde takes the die
    assert_eq!(at(&g, "/conflict/round"), json!(2));
    assert_eq!(at(&g, "/owe_list"), json!([]));
}

#[test]
fn wa_15_entry_at_round_one_end_only_if_not_knocked_out() {
    let mut g = game(&[ysolde(), khan()]);
    khan_knocks_out_ysolde(&mut g);
    assert_eq!(at(&g, "/owe_list"), json!([])); // WA-15: knocked out in round 1
    ok(
        &mut g,
        "gm",
        json!({"type": "choose_consequence", "loser": "Ysolde", "consequence": "shamed"}),
        &[],
    );
    round_one_middle(&mut g);
    assert_eq!(
        at(&g, "/owe_list"),
        json!([{"character": "Ysolde", "player": "p1"}])
    );
    // A single entry per conflict even though round 2 also faces bigger dice.
    init(&mut g, "The Khan", form("action"), &[2, 1, 1]);
    init(&mut g, "Ysolde", forms("with_love", "covertly"), &[9, 1]);
    challenge(&mut g, "Ysolde", "The Khan", none(), &[]);
    answer(&mut g, "The Khan", form("action"), &[1, 1, 1]);
    assert_eq!(at(&g, "/owe_list").as_array().map(Vec::len), Some(1));
}

#[test]
fn wa_15_entry_kept_when_the_conflict_ends_by_agreement_in_round_two() {
    let mut g = game(&[ysolde(), khan()]);
    round_one_middle(&mut g);
    ok(
        &mut g,
        "p1",
        json!({"type": "propose_end", "character": "Ysolde", "terms": "walk away"}),
        &[],
    );
    ok(
        &mut g,
        "gm",
        json!({"type": "agree_end", "character": "The Khan"}),
        &[],
    );
    assert_eq!(at(&g, "/conflict"), json!(null));
    assert_eq!(at(&g, "/owe_list/0/character"), json!("Ysolde")); // WA-15
}

#[test]
fn wa_16_bigger_dice_ignore_bonus_dice_and_equal_is_not_bigger() {
    // Khan d10+d6 against Ysolde d10 (with_violence) + d6 (covertly) with her strength: equal.
    let mut g = game(&[ysolde(), khan()]);
    start(&mut g, &["The Khan", "Ysolde"]);
    init(&mut g, "The Khan", form("maneuvering"), &[9, 1]);
    init(
        &mut g,
        "Ysolde",
        json!({"forms": ["with_violence", "covertly"], "strength": "Hidden Blade"}),
        &[1, 1, 1],
    );
    challenge(&mut g, "The Khan", "Ysolde", none(), &[]);
    answer(&mut g, "Ysolde", forms("with_love", "covertly"), &[5, 1]);
    assert_eq!(at(&g, "/conflict/round"), json!(2));
    assert_eq!(at(&g, "/owe_list"), json!([])); // WA-16: d10+d6 vs d10+d6 is not bigger
}

#[test]
fn wa_16_multi_party_opponents_are_those_met_in_round_one() {
    // Khan (d12+d8) challenges Oren; Ysolde (d8+d4) challenges Oren. Ysolde never met the Khan.
    let mut g = game(&[ysolde(), oren(), khan()]);
    start(&mut g, &["The Khan", "Ysolde", "Oren"]);
    init(&mut g, "The Khan", form("action"), &[11, 1]);
    init(&mut g, "Ysolde", forms("for_myself", "directly"), &[8, 4]);
    init(&mut g, "Oren", forms("for_myself", "for_others"), &[2, 1]);
    challenge(&mut g, "The Khan", "Oren", none(), &[]);
    answer(&mut g, "Oren", forms("covertly", "directly"), &[7, 1]); // 14 > 11: Khan takes
    challenge(
        &mut g,
        "Ysolde",
        "Oren",
        forms("for_myself", "directly"),
        &[8, 4],
    );
    answer(&mut g, "Oren", forms("covertly", "directly"), &[6, 1]); // 12 > 8: Ysolde takes
    assert_eq!(at(&g, "/conflict/round"), json!(2));
    // Oren (d6+d4 at initiative) met the Khan's bigger dice; Ysolde only met Oren's smaller ones.
    assert_eq!(
        at(&g, "/owe_list"),
        json!([{"character": "Oren", "player": "p2"}])
    ); // WA-16
}

#[test]
fn wa_17_the_three_uses_of_the_owe_list() {
    let owe = json!([{"character": "Ysolde", "player": "p1"}, {"character": "Oren", "player": "p2"},
                     {"character": "Ysolde", "player": "p1"}, {"character": "Oren", "player": "p2"}]);
    let s: Setup =
        serde_json::from_value(json!({"characters": [ysolde(), oren(), khan()], "owe_list": owe}))
            .unwrap();
    let mut g = Game::<WickedAge>::new(s).unwrap();
    // 1. End of chapter: the oldest entry (Ysolde, p1) returns; p1 picks the Oracle; crossed off.
    refused(&mut g, "p1", json!({"type": "end_chapter"}), &[], "WA-17");
    ok(&mut g, "gm", json!({"type": "end_chapter"}), &[]);
    assert_eq!(at(&g, "/chapter"), json!(2));
    assert_eq!(at(&g, "/oracle/entry/character"), json!("Ysolde"));
    refused(
        &mut g,
        "p2",
        json!({"type": "choose_oracle", "oracle": "X", "story_element": "Y"}),
        &[],
        "WA-17",
    );
    ok(
        &mut g,
        "p1",
        json!({"type": "choose_oracle", "oracle": "The Pleasure Gardens", "story_element": "A wounded god"}),
        &[],
    );
    assert_eq!(at(&g, "/oracle/oracle"), json!("The Pleasure Gardens"));
    assert_eq!(at(&g, "/owe_list/0/character"), json!("Oren"));
    // 2. Any player crosses off an entry to bring a character back.
    refused(
        &mut g,
        "gm",
        json!({"type": "bring_back", "character": "Oren"}),
        &[],
        "WA-17",
    );
    ok(
        &mut g,
        "p1",
        json!({"type": "bring_back", "character": "Oren"}),
        &[],
    );
    assert_eq!(at(&g, "/returning/1/character"), json!("Oren"));
    assert_eq!(
        at(&g, "/owe_list"),
        json!([{"character": "Ysolde", "player": "p1"}, {"character": "Oren", "player": "p2"}])
    );
    // 3. Cash in an entry of a character you control for your PC's Owe d6.
    start(&mut g, &["The Khan", "Oren"]);
    refused(
        &mut g,
        "p1",
        json!({"type": "cash_in_owe", "pc": "Oren", "entry": "Ysolde"}),
        &[],
        "WA-17",
    );
    refused(
        &mut g,
        "p2",
        json!({"type": "cash_in_owe", "pc": "Oren", "entry": "Ysolde"}),
        &[],
        "WA-17",
    );
    ok(
        &mut g,
        "p2",
        json!({"type": "cash_in_owe", "pc": "Oren", "entry": "Oren"}),
        &[],
    );
    assert_eq!(
        at(&g, "/owe_list"),
        json!([{"character": "Ysolde", "player": "p1"}])
    );
}

#[test]
fn wa_18_owe_d6_adds_to_every_roll_once_per_conflict_and_stays() {
    let s: Setup = serde_json::from_value(json!({"characters": [ysolde(), khan()],
        "owe_list": [{"character": "Ysolde", "player": "p1"}, {"character": "Ysolde", "player": "p1"}]})).unwrap();
    let mut g = Game::<WickedAge>::new(s).unwrap();
    start(&mut g, &["The Khan", "Ysolde"]);
    ok(
        &mut g,
        "p1",
        json!({"type": "cash_in_owe", "pc": "Ysolde", "entry": "Ysolde"}),
        &[],
    );
    refused(
        &mut g,
        "p1",
        json!({"type": "cash_in_owe", "pc": "Ysolde", "entry": "Ysolde"}),
        &[],
        "WA-18",
    );
    init(&mut g, "The Khan", form("action"), &[9, 2]);
    let ev = init(
        &mut g,
        "Ysolde",
        forms("for_myself", "directly"),
        &[1, 1, 4],
    );
    let Event::InitiativeRolled { roll, .. } = &ev[0] else {
        panic!()
    };
    assert_eq!((roll.value.p, roll.value.t), (5, 1)); // WA-18: initiative included
    challenge(&mut g, "The Khan", "Ysolde", none(), &[]);
    // Answer with the Owe d6: (5+1, 1) = (6,1); 12 > 9 so the Khan takes the Advantage die.
    answer(&mut g, "Ysolde", forms("with_love", "covertly"), &[5, 1, 1]);
    assert_eq!(at(&g, "/conflict/advantage"), json!("The Khan"));
    assert_eq!(at(&g, "/conflict/participants/1/owe_die"), json!(true)); // never lost
    // Round 2: Ysolde still rolls the Owe d6 (three dice).
    let ev = init(
        &mut g,
        "Ysolde",
        forms("for_myself", "directly"),
        &[1, 1, 6],
    );
    let Event::InitiativeRolled { roll, .. } = &ev[0] else {
        panic!()
    };
    assert_eq!(roll.dice.len(), 3);
}

#[test]
fn wa_19_a_conflict_starts_between_two_or_more_available_characters() {
    let mut g = game(&[ysolde(), oren(), khan()]);
    refused(
        &mut g,
        "gm",
        json!({"type": "start_conflict", "participants": ["Ysolde"]}),
        &[],
        "WA-19",
    );
    refused(
        &mut g,
        "gm",
        json!({"type": "start_conflict", "participants": ["Ysolde", "Ysolde"]}),
        &[],
        "WA-19",
    );
    refused(
        &mut g,
        "gm",
        json!({"type": "start_conflict", "participants": ["Ysolde", "Nobody"]}),
        &[],
        "WA-19",
    );
    refused(
        &mut g,
        "p1",
        json!({"type": "start_conflict", "participants": ["Oren", "The Khan"]}),
        &[],
        "WA-19",
    );
    ok(
        &mut g,
        "p1",
        json!({"type": "start_conflict", "participants": ["Ysolde", "The Khan"], "action": "I cut the rope"}),
        &[],
    );
    assert_eq!(at(&g, "/conflict/advantage"), json!(null)); // WA-19: the die starts unheld
    refused(
        &mut g,
        "gm",
        json!({"type": "start_conflict", "participants": ["Oren", "The Khan"]}),
        &[],
        "WA-19",
    );
}

#[test]
fn wa_20_advantage_is_added_to_initiative_and_dropped_on_knockout() {
    let mut g = three_way_after_initiative();
    challenge(&mut g, "The Khan", "Ysolde", none(), &[]);
    answer(&mut g, "Ysolde", forms("with_love", "covertly"), &[6, 1]);
    assert_eq!(at(&g, "/conflict/advantage"), json!("The Khan"));
    // Oren's challenge knocks out the Khan? No: Oren challenges the Khan, whose answer is weak.
    challenge(
        &mut g,
        "Oren",
        "The Khan",
        forms("covertly", "directly"),
        &[12, 3],
    );
    let ev = answer(&mut g, "The Khan", form("self_protection"), &[2, 1, 1]); // d6, d4, Advantage d6
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::AdvantageDropped { .. }))
    );
    assert_eq!(at(&g, "/conflict/advantage"), json!(null)); // WA-20
    // Round 2: the die is unheld, so nobody rolls it at initiative.
    let ev = init(&mut g, "Oren", forms("covertly", "for_myself"), &[9, 5]);
    let Event::InitiativeRolled { roll, .. } = &ev[0] else {
        panic!()
    };
    assert_eq!(roll.dice.len(), 2);
}

#[test]
fn wa_21_rounds_run_negotiation_initiative_turns_and_stop_after_three() {
    let mut g = game(&[ysolde(), khan()]);
    round_one_middle(&mut g);
    for round in [2, 3] {
        assert_eq!(at(&g, "/conflict/round"), json!(round));
        assert_eq!(at(&g, "/conflict/stage"), json!("initiative"));
        refused(
            &mut g,
            "gm",
            json!({"type": "challenge", "character": "The Khan", "target": "Ysolde"}),
            &[],
            "WA-21",
        );
        init(&mut g, "The Khan", form("action"), &[9, 2, 1]);
        init(&mut g, "Ysolde", forms("for_myself", "directly"), &[1, 1]);
        challenge(&mut g, "The Khan", "Ysolde", none(), &[]);
        if round == 2 {
            answer(&mut g, "Ysolde", forms("with_love", "covertly"), &[6, 1]);
        } else {
            answer(&mut g, "Ysolde", forms("with_love", "covertly"), &[12, 1]);
        }
    }
    assert_eq!(at(&g, "/conflict/ended/kind"), json!("knockouts")); // WA-21: three rounds at most
}

#[test]
fn wa_22_ties_reroll_only_to_sort_and_the_first_roll_stands() {
    let mut g = game(&[ysolde(), oren(), khan()]);
    start(&mut g, &["Ysolde", "Oren", "The Khan"]);
    init(&mut g, "Ysolde", forms("with_love", "covertly"), &[9, 2]);
    init(&mut g, "Oren", forms("covertly", "for_myself"), &[9, 2]);
    // The Khan rolls (5,1); Ysolde and Oren tie at (9,2), reroll (1,1) and (3,1): Oren first.
    let ev = init(&mut g, "The Khan", form("action"), &[5, 1, 1, 1, 3, 1]);
    assert_eq!(
        ev.iter()
            .filter(|e| matches!(e, Event::InitiativeTieRerolled { .. }))
            .count(),
        2
    );
    assert_eq!(
        at(&g, "/conflict/order"),
        json!(["Oren", "Ysolde", "The Khan"])
    ); // WA-22
    assert_eq!(at(&g, "/conflict/standing/value"), json!({"p": 3, "t": 1})); // final roll stands
    refused(
        &mut g,
        "p2",
        json!({"type": "challenge", "character": "Oren", "target": "Ysolde", "forms": ["covertly", "directly"]}),
        &[1, 1],
        "WA-22",
    );
    refused(
        &mut g,
        "p2",
        json!({"type": "roll_initiative", "character": "Oren", "forms": ["covertly", "directly"]}),
        &[1, 1],
        "WA-21",
    );
}

#[test]
fn wa_23_turn_order_answers_cost_turns_and_the_first_roll_stands() {
    let mut g = three_way_after_initiative();
    refused(
        &mut g,
        "p2",
        json!({"type": "challenge", "character": "Oren", "target": "Ysolde", "forms": ["covertly", "directly"]}),
        &[1, 1],
        "WA-23",
    );
    refused(
        &mut g,
        "gm",
        json!({"type": "challenge", "character": "The Khan", "target": "The Khan"}),
        &[],
        "WA-23",
    );
    challenge(&mut g, "The Khan", "Oren", none(), &[]);
    refused(
        &mut g,
        "p1",
        json!({"type": "answer", "character": "Ysolde", "forms": ["covertly", "directly"]}),
        &[1, 1],
        "WA-23",
    );
    answer(&mut g, "Oren", forms("covertly", "directly"), &[7, 1]);
    // Oren answered, so his turn is used: Ysolde challenges next.
    assert_eq!(at(&g, "/conflict/participants/1/turn_used"), json!(true)); // WA-23
    challenge(
        &mut g,
        "Ysolde",
        "Oren",
        forms("for_myself", "directly"),
        &[3, 1],
    );
    answer(&mut g, "Oren", forms("covertly", "directly"), &[6, 1]); // still answers, no further cost
    assert_eq!(at(&g, "/conflict/round"), json!(2)); // every turn used: the round is over
}

#[test]
fn wa_24_knocked_out_participants_leave_and_cannot_be_targeted() {
    let mut g = three_way_after_initiative();
    challenge(&mut g, "The Khan", "Ysolde", none(), &[]);
    answer(&mut g, "Ysolde", forms("for_myself", "directly"), &[2, 1]); // 4 ≤ 11: out
    assert_eq!(at(&g, "/conflict/knockouts/0/loser"), json!("Ysolde")); // WA-24
    refused(
        &mut g,
        "p2",
        json!({"type": "challenge", "character": "Oren", "target": "Ysolde", "forms": ["covertly", "directly"]}),
        &[1, 1],
        "WA-24",
    );
    challenge(
        &mut g,
        "Oren",
        "The Khan",
        forms("covertly", "directly"),
        &[6, 1],
    );
    answer(&mut g, "The Khan", form("action"), &[6, 3]);
    assert_eq!(at(&g, "/conflict/round"), json!(2));
    refused(
        &mut g,
        "p1",
        json!({"type": "roll_initiative", "character": "Ysolde", "forms": ["covertly", "directly"]}),
        &[1, 1],
        "WA-24",
    );
}

#[test]
fn wa_25_negotiation_and_concession_at_the_start_of_rounds_two_and_three() {
    let mut g = game(&[ysolde(), khan()]);
    start(&mut g, &["The Khan", "Ysolde"]);
    refused(
        &mut g,
        "p1",
        json!({"type": "concede", "character": "Ysolde", "to": "The Khan"}),
        &[],
        "WA-25",
    );
    refused(
        &mut g,
        "p1",
        json!({"type": "propose_end", "character": "Ysolde", "terms": "stop"}),
        &[],
        "WA-25",
    );
    let mut g = game(&[ysolde(), khan()]);
    round_one_middle(&mut g);
    refused(
        &mut g,
        "gm",
        json!({"type": "agree_end", "character": "The Khan"}),
        &[],
        "WA-25",
    );
    refused(
        &mut g,
        "p1",
        json!({"type": "concede", "character": "Ysolde", "to": "Ysolde"}),
        &[],
        "WA-25",
    );
    ok(
        &mut g,
        "p1",
        json!({"type": "concede", "character": "Ysolde", "to": "The Khan"}),
        &[],
    );
    assert_eq!(at(&g, "/conflict/knockouts/0/cause"), json!("concession")); // WA-25
    assert_eq!(at(&g, "/conflict/knockouts/0/winner"), json!("The Khan"));
    assert_eq!(at(&g, "/conflict/ended/kind"), json!("knockouts"));
    // Once someone rolls initiative, the window has closed.
    let mut g = game(&[ysolde(), khan()]);
    round_one_middle(&mut g);
    init(&mut g, "Ysolde", forms("for_myself", "directly"), &[1, 1]);
    refused(
        &mut g,
        "p1",
        json!({"type": "concede", "character": "Ysolde", "to": "The Khan"}),
        &[],
        "WA-25",
    );
}

#[test]
fn wa_26_uninvolved_survivors_pay_nothing_and_the_dice_vanish() {
    let s: Setup = serde_json::from_value(json!({"characters": [ysolde(), oren(), khan()],
        "owe_list": [{"character": "Oren", "player": "p2"}]}))
    .unwrap();
    let mut g = Game::<WickedAge>::new(s).unwrap();
    start(&mut g, &["The Khan", "Oren", "Ysolde"]);
    ok(
        &mut g,
        "p2",
        json!({"type": "cash_in_owe", "pc": "Oren", "entry": "Oren"}),
        &[],
    );
    init(&mut g, "The Khan", form("action"), &[6, 1]);
    init(&mut g, "Oren", forms("covertly", "for_myself"), &[4, 1, 1]);
    init(&mut g, "Ysolde", forms("for_myself", "directly"), &[2, 1]);
    challenge(&mut g, "The Khan", "Ysolde", none(), &[]);
    answer(&mut g, "Ysolde", forms("with_love", "covertly"), &[12, 1]); // 12 ≥ 2×6: Khan out
    challenge(
        &mut g,
        "Oren",
        "Ysolde",
        forms("covertly", "directly"),
        &[5, 3, 1],
    ); // Owe d6: (6,3)
    answer(&mut g, "Ysolde", forms("with_love", "covertly"), &[6, 4]); // Ysolde takes the die
    assert_eq!(at(&g, "/conflict/advantage"), json!("Ysolde"));
    ok(
        &mut g,
        "p1",
        json!({"type": "propose_end", "character": "Ysolde", "terms": "Oren lets her go"}),
        &[],
    );
    ok(
        &mut g,
        "p2",
        json!({"type": "agree_end", "character": "Oren"}),
        &[],
    );
    // WA-26: the Advantage die vanished; Oren, never in a pair, lost nothing.
    assert_eq!(at(&g, "/conflict/advantage"), json!(null));
    assert_eq!(at(&g, "/conflict/participants/1/owe_die"), json!(false));
    assert_eq!(at(&g, "/conflict/ended/kind"), json!("agreement"));
    ok(
        &mut g,
        "p1",
        json!({"type": "choose_consequence", "loser": "The Khan", "consequence": "shamed"}),
        &[],
    );
    assert_eq!(at(&g, "/conflict"), json!(null));
    assert_eq!(at(&g, "/characters/1/forms/covertly"), json!(12));
    // The next conflict starts without an Owe d6.
    start(&mut g, &["Oren", "Ysolde"]);
    assert_eq!(at(&g, "/conflict/participants/0/owe_die"), json!(false));
}

#[test]
fn wa_27_winner_picks_a_default_or_an_alternative_the_loser_may_refuse() {
    let mut g = game(&[ysolde(), khan()]);
    khan_knocks_out_ysolde(&mut g);
    refused(
        &mut g,
        "p1",
        json!({"type": "choose_consequence", "loser": "Ysolde", "consequence": "shamed"}),
        &[],
        "WA-27",
    );
    refused(
        &mut g,
        "gm",
        json!({"type": "choose_consequence", "loser": "The Khan", "consequence": "shamed"}),
        &[],
        "WA-27",
    );
    refused(
        &mut g,
        "gm",
        json!({"type": "propose_alternative", "loser": "Ysolde", "terms": "x",
        "costs": [{"type": "step_down", "form": "action"}]}),
        &[],
        "WA-27",
    );
    refused(
        &mut g,
        "gm",
        json!({"type": "propose_alternative", "loser": "Ysolde", "terms": "x",
        "costs": [{"type": "remove_strength", "strength": "Horde"}]}),
        &[],
        "WA-27",
    );
    refused(
        &mut g,
        "p1",
        json!({"type": "accept_alternative", "loser": "Ysolde"}),
        &[],
        "WA-27",
    );
    ok(
        &mut g,
        "gm",
        json!({"type": "propose_alternative", "loser": "Ysolde", "terms": "She loses her blade",
        "costs": [{"type": "step_down_strength", "strength": "Hidden Blade"}]}),
        &[],
    );
    ok(
        &mut g,
        "p1",
        json!({"type": "refuse_alternative", "loser": "Ysolde"}),
        &[],
    );
    refused(
        &mut g,
        "gm",
        json!({"type": "propose_alternative", "loser": "Ysolde", "terms": "again"}),
        &[],
        "WA-27",
    );
    ok(
        &mut g,
        "gm",
        json!({"type": "choose_consequence", "loser": "Ysolde", "consequence": "exhausted"}),
        &[],
    );
    assert_eq!(at(&g, "/characters/0/forms/directly"), json!(0)); // WA-27: Exhausted
    assert_eq!(at(&g, "/characters/0/forms/with_violence"), json!(8));
    assert_eq!(at(&g, "/characters/0/strengths/0/die"), json!(8));
    // An accepted alternative: strength removed, or death.
    khan_knocks_out_ysolde(&mut g);
    ok(
        &mut g,
        "gm",
        json!({"type": "propose_alternative", "loser": "Ysolde", "terms": "death before dishonour", "costs": [{"type": "death"}]}),
        &[],
    );
    ok(
        &mut g,
        "p1",
        json!({"type": "accept_alternative", "loser": "Ysolde"}),
        &[],
    );
    assert_eq!(at(&g, "/characters/0/status"), json!("dead"));
    refused(
        &mut g,
        "gm",
        json!({"type": "start_conflict", "participants": ["The Khan", "Ysolde"]}),
        &[],
        "WA-27",
    );
}

#[test]
fn wa_27_npc_defaults_step_the_npc_forms() {
    for (what, form, after) in [
        ("exhausted", "action", [10, 6]),
        ("injured", "maneuvering", [8, 4]),
        ("shamed", "self_protection", [4, 0]),
    ] {
        let mut g = game(&[ysolde(), khan()]);
        start(&mut g, &["Ysolde", "The Khan"]);
        init(
            &mut g,
            "Ysolde",
            forms("with_love", "with_violence"),
            &[12, 10],
        );
        init(&mut g, "The Khan", form_json("maneuvering"), &[1, 1]);
        challenge(&mut g, "Ysolde", "The Khan", none(), &[]);
        answer(&mut g, "The Khan", form_json("maneuvering"), &[1, 1]);
        ok(
            &mut g,
            "p1",
            json!({"type": "choose_consequence", "loser": "The Khan", "consequence": what}),
            &[],
        );
        assert_eq!(
            at(&g, &format!("/characters/1/forms/{form}")),
            json!(after),
            "{what}"
        ); // WA-27
    }
}

fn form_json(f: &str) -> serde_json::Value {
    form(f)
}

#[test]
fn wa_28_a_form_at_zero_is_unaffected_then_the_out_check_runs() {
    let mut y = ysolde();
    y["losses"] = json!(["directly"]);
    let mut g = game(&[y, khan()]);
    khan_knocks_out_ysolde(&mut g);
    let ev = ok(
        &mut g,
        "gm",
        json!({"type": "choose_consequence", "loser": "Ysolde", "consequence": "exhausted"}),
        &[],
    );
    // WA-28: Directly was already 0: only With Violence loses a size.
    assert_eq!(
        ev.iter()
            .filter(|e| matches!(e, Event::FormLost { .. }))
            .count(),
        1
    );
    assert_eq!(at(&g, "/characters/0/forms/directly"), json!(0));
    assert_eq!(at(&g, "/characters/0/forms/with_violence"), json!(8));
}

#[test]
fn wa_29_settling_during_the_conflict_does_not_change_it() {
    let mut g = three_way_after_initiative();
    challenge(&mut g, "The Khan", "Ysolde", none(), &[]);
    answer(&mut g, "Ysolde", forms("for_myself", "directly"), &[2, 1]);
    // WA-29: the Khan settles with Ysolde at once; the conflict goes on for him and Oren.
    ok(
        &mut g,
        "gm",
        json!({"type": "choose_consequence", "loser": "Ysolde", "consequence": "shamed"}),
        &[],
    );
    assert_eq!(
        at(&g, "/conflict/knockouts/0/settlement/state"),
        json!("settled")
    );
    assert_eq!(at(&g, "/conflict/ended"), json!(null));
    challenge(
        &mut g,
        "Oren",
        "The Khan",
        forms("covertly", "directly"),
        &[6, 1],
    );
    answer(&mut g, "The Khan", form("action"), &[6, 3]);
    assert_eq!(at(&g, "/conflict/round"), json!(2));
}

#[test]
fn wa_30_consequential_strength_costs_its_form_unless_waived() {
    for waive in [false, true] {
        let mut g = game(&[ysolde(), khan()]);
        start(&mut g, &["Ysolde", "The Khan"]);
        init(
            &mut g,
            "Ysolde",
            json!({"forms": ["covertly", "with_love"], "strength": "Hidden Blade"}),
            &[1, 12, 8],
        );
        init(&mut g, "The Khan", form("maneuvering"), &[1, 1]);
        challenge(&mut g, "Ysolde", "The Khan", none(), &[]);
        answer(&mut g, "The Khan", form("maneuvering"), &[2, 1]);
        ok(
            &mut g,
            "p1",
            json!({"type": "propose_alternative", "loser": "The Khan", "terms": "He loses his banner",
            "waive_consequential": waive}),
            &[],
        );
        ok(
            &mut g,
            "gm",
            json!({"type": "accept_alternative", "loser": "The Khan"}),
            &[],
        );
        // WA-30: Hidden Blade threatens the NPC form Action, on top of the agreed consequence.
        let expected = if waive {
            json!([12, 8])
        } else {
            json!([10, 6])
        };
        assert_eq!(at(&g, "/characters/1/forms/action"), expected);
    }
    // A PC loser loses the strength's PC form.
    let mut g = game(&[ysolde(), khan()]);
    start(&mut g, &["The Khan", "Ysolde"]);
    init(
        &mut g,
        "The Khan",
        json!({"form": "action", "strength": "Horde"}),
        &[12, 1, 1],
    );
    init(&mut g, "Ysolde", forms("for_myself", "directly"), &[1, 1]);
    challenge(&mut g, "The Khan", "Ysolde", none(), &[]);
    answer(&mut g, "Ysolde", forms("for_myself", "directly"), &[1, 1]);
    ok(
        &mut g,
        "gm",
        json!({"type": "choose_consequence", "loser": "Ysolde", "consequence": "injured"}),
        &[],
    );
    assert_eq!(at(&g, "/characters/0/forms/with_love"), json!(10)); // WA-30
    assert_eq!(at(&g, "/characters/0/forms/covertly"), json!(4));
}

fn waiting(g: &Game<WickedAge>) -> Vec<clash_core::Seat> {
    WickedAge::status(g.state()).waiting_for
}

#[test]
fn wa_22_wa_23_wa_27_status_names_who_must_act_now() {
    let mut g = game(&[ysolde(), oren(), khan()]);
    assert_eq!(waiting(&g), vec![seat("gm")]); // no conflict: the GM starts one
    start(&mut g, &["The Khan", "Oren", "Ysolde"]);
    // WA-22: everyone still to roll initiative, at once.
    assert_eq!(waiting(&g), vec![seat("gm"), seat("p1"), seat("p2")]);
    init(&mut g, "The Khan", form("action"), &[11, 1]);
    assert_eq!(waiting(&g), vec![seat("p1"), seat("p2")]);
    init(&mut g, "Oren", forms("covertly", "for_myself"), &[9, 5]);
    init(&mut g, "Ysolde", forms("for_myself", "directly"), &[2, 1]);
    // WA-23: the first in order challenges, then the target must answer.
    assert_eq!(waiting(&g), vec![seat("gm")]);
    challenge(&mut g, "The Khan", "Ysolde", none(), &[]);
    assert_eq!(waiting(&g), vec![seat("p1")]);
    assert_eq!(
        WickedAge::view(g.state(), clash_core::Viewer::Spectator).waiting,
        "Waiting for Ysolde to answer The Khan's challenge"
    );
    answer(&mut g, "Ysolde", forms("with_love", "covertly"), &[1, 1]); // knocked out
    // Oren's turn; Ysolde's fate does not hold the conflict up, but the Khan's player (the GM)
    // has it to choose now and is waited on too (WA-27).
    assert_eq!(waiting(&g), vec![seat("gm"), seat("p2")]);
    assert_eq!(
        WickedAge::view(g.state(), clash_core::Viewer::Spectator).waiting,
        "Waiting for Oren to challenge someone, and for The Khan to choose Ysolde's consequence"
    );
    let mut g = game(&[ysolde(), khan()]);
    khan_knocks_out_ysolde(&mut g);
    // WA-27: the conflict is over; the winner must choose, then the loser answer an offer.
    assert_eq!(waiting(&g), vec![seat("gm")]);
    ok(
        &mut g,
        "gm",
        json!({"type": "propose_alternative", "loser": "Ysolde", "terms": "She flees"}),
        &[],
    );
    assert_eq!(waiting(&g), vec![seat("p1")]);
}

#[test]
fn wa_17_wa_25_wa_27_repeated_commands_are_refused() {
    // WA-27: the same offer twice, or a second refusal, changes nothing: refused.
    let mut g = game(&[ysolde(), khan()]);
    khan_knocks_out_ysolde(&mut g);
    let offer = json!({"type": "propose_alternative", "loser": "Ysolde", "terms": "She flees"});
    ok(&mut g, "gm", offer.clone(), &[]);
    refused(&mut g, "gm", offer, &[], "WA-27");
    ok(
        &mut g,
        "p1",
        json!({"type": "refuse_alternative", "loser": "Ysolde"}),
        &[],
    );
    refused(
        &mut g,
        "p1",
        json!({"type": "refuse_alternative", "loser": "Ysolde"}),
        &[],
        "WA-27",
    );
    // WA-25: proposing the ending already proposed.
    let mut g = game(&[ysolde(), khan()]);
    round_one_middle(&mut g);
    let propose = json!({"type": "propose_end", "character": "Ysolde", "terms": "We part"});
    ok(&mut g, "p1", propose.clone(), &[]);
    refused(&mut g, "p1", propose, &[], "WA-25");
    // WA-17: the chapter cannot end again before its Oracle is picked.
    let s: Setup = serde_json::from_value(json!({"characters": [ysolde(), khan()],
        "owe_list": [{"character": "Ysolde", "player": "p1"}]}))
    .unwrap();
    let mut g = Game::<WickedAge>::new(s).unwrap();
    ok(&mut g, "gm", json!({"type": "end_chapter"}), &[]);
    assert_eq!(waiting(&g), vec![seat("p1")]); // Ysolde's player picks the Oracle
    refused(&mut g, "gm", json!({"type": "end_chapter"}), &[], "WA-17");
}

#[test]
fn legal_commands_are_compact() {
    let mut g = game(&[ysolde(), oren(), khan()]);
    start(&mut g, &["The Khan", "Oren", "Ysolde"]);
    // One initiative roll per character, not one per pair of forms.
    for (s, n) in [("gm", 1), ("p1", 1), ("p2", 1)] {
        let rolls = WickedAge::legal_commands(g.state(), seat(s))
            .into_iter()
            .filter(|c| matches!(c, wicked_age::Command::RollInitiative { .. }))
            .count();
        assert_eq!(rolls, n, "{s}");
    }
}
