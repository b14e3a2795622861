//! Spec §9 test vectors: each checked directly and through its worked example in
//! `examples/wicked-age/tv-NN-*.json` (run through the scenario runner).

use crate::common;

use clash_core::RulesetEntry;
use clash_core::scenario::run_str;
use common::*;
use serde_json::json;
use wicked_age::roll::{Outcome, RollValue, Table, bigger_dice, judge};
use wicked_age::{Event, WickedAge};

fn v(p: u32, t: u32) -> RollValue {
    RollValue::new(p, t)
}

/// Run the example whose file name starts with `tv-NN-`.
fn example(n: u32) {
    let dir =
        std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../examples/wicked-age");
    let prefix = format!("tv-{n:02}-");
    let file = std::fs::read_dir(&dir)
        .expect("examples")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .find(|p| {
            p.file_name()
                .is_some_and(|f| f.to_string_lossy().starts_with(&prefix))
        })
        .unwrap_or_else(|| panic!("no example for TV-{n}"));
    let json = std::fs::read_to_string(&file).expect("readable");
    if let Err(e) = run_str(&[RulesetEntry::of::<WickedAge>()], &json) {
        panic!("{}: {e}", file.display());
    }
}

#[test]
fn tv_01_doubling_knocks_out_the_challenger() {
    assert_eq!(RollValue::from_faces(&[6, 3], 0), v(6, 3));
    assert_eq!(RollValue::from_faces(&[12, 1], 0), v(12, 1));
    assert_eq!(
        judge(v(12, 1), v(6, 3), Table::Ordinary),
        Outcome::ChallengerKnockedOut
    );
    example(1);
}

#[test]
fn tv_02_equal_rolls_go_to_the_answerer() {
    assert_eq!(
        judge(v(8, 5), v(8, 5), Table::Ordinary),
        Outcome::AnswererTakesAdvantage
    );
    example(2);
}

#[test]
fn tv_03_lower_but_more_than_half() {
    assert_eq!(
        judge(v(8, 2), v(8, 5), Table::Ordinary),
        Outcome::ChallengerTakesAdvantage
    );
    example(3);
}

#[test]
fn tv_04_half_or_less() {
    assert_eq!(
        judge(v(4, 1), v(9, 1), Table::Ordinary),
        Outcome::AnswererKnockedOut
    );
    assert_eq!(
        judge(v(5, 1), v(9, 1), Table::Ordinary),
        Outcome::ChallengerTakesAdvantage
    );
    example(4);
}

#[test]
fn tv_05_inclusive_boundaries_without_tie_breaker() {
    assert_eq!(
        judge(v(5, 12), v(10, 1), Table::Ordinary),
        Outcome::AnswererKnockedOut
    );
    assert_eq!(
        judge(v(10, 1), v(5, 4), Table::Ordinary),
        Outcome::ChallengerKnockedOut
    );
    example(5);
}

#[test]
fn tv_06_advantage_face_never_counts_as_high() {
    // d4=4, d8=2, Advantage d6=5 → (9,2), against (9,9).
    assert_eq!(RollValue::from_faces(&[4, 2], 5), v(9, 2));
    assert_eq!(
        judge(v(9, 2), v(9, 9), Table::Ordinary),
        Outcome::ChallengerTakesAdvantage
    );
    example(6);
}

#[test]
fn tv_07_strength_die() {
    assert_eq!(RollValue::from_faces(&[3, 3], 6), v(9, 3));
    example(7);
}

#[test]
fn tv_08_round_three() {
    let c = v(7, 3);
    assert_eq!(
        judge(v(7, 3), c, Table::Final),
        Outcome::ChallengerKnockedOut
    );
    assert_eq!(
        judge(v(7, 4), c, Table::Final),
        Outcome::ChallengerKnockedOut
    );
    assert_eq!(judge(v(7, 2), c, Table::Final), Outcome::AnswererKnockedOut);
    assert_eq!(judge(v(3, 1), c, Table::Final), Outcome::AnswererKnockedOut);
    example(8);
}

#[test]
fn tv_09_initiative_order() {
    let mut g = game(&[ysolde(), oren(), khan()]);
    start(&mut g, &["Ysolde", "Oren", "The Khan"]);
    init(&mut g, "Ysolde", forms("with_love", "covertly"), &[9, 2]);
    init(&mut g, "Oren", forms("covertly", "for_myself"), &[9, 5]);
    let ev = init(&mut g, "The Khan", form("action"), &[11, 1]);
    assert!(matches!(ev.last(), Some(Event::InitiativeOrdered { .. })));
    assert_eq!(
        at(&g, "/conflict/order"),
        json!(["The Khan", "Oren", "Ysolde"])
    );
    assert_eq!(at(&g, "/conflict/standing/value"), json!({"p": 11, "t": 1}));
    example(9);
}

#[test]
fn tv_10_answerer_takes_the_die_from_a_third_participant() {
    let mut g = three_way_after_initiative();
    challenge(&mut g, "The Khan", "Ysolde", none(), &[]);
    answer(&mut g, "Ysolde", forms("with_love", "covertly"), &[6, 1]);
    challenge(
        &mut g,
        "Oren",
        "Ysolde",
        forms("covertly", "directly"),
        &[5, 3],
    );
    let ev = answer(&mut g, "Ysolde", forms("with_love", "covertly"), &[6, 1]);
    assert!(ev.contains(&Event::AdvantageTaken {
        by: "Ysolde".into(),
        from: Some("The Khan".into())
    }));
    example(10);
}

#[test]
fn tv_11_owe_list_entry_for_the_smaller_dice() {
    assert!(bigger_dice(&[10, 6], &[8, 6]));
    example(11);
}

#[test]
fn tv_12_pc_out_of_the_chapter() {
    example(12);
}

#[test]
fn tv_13_npc_form_damage() {
    assert_eq!(RollValue::from_faces(&[3], 0), v(3, 0));
    example(13);
}
