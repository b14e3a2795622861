//! Entering, turns, surrender, going out, dying, minor conflicts, stances, views (IT-2,
//! IT-22 … IT-52 outside the test vectors).

use crate::conflict_support;

use clash_core::Seat;
use conflict_support::*;
use iron_triangle::conflict::{Phase, Picker, Side, Status};
use iron_triangle::{ConflictEvent, Event};
use serde_json::json;

fn pc(name: &str, seat: &str) -> serde_json::Value {
    sheet(name, seat, [4, 4, 4], &BASIC)
}

fn npc(name: &str) -> serde_json::Value {
    sheet(name, "gm", [6, 6, 6], &BASIC)
}

fn ended(t: &T) -> iron_triangle::conflict::Outcome {
    t.table
        .conflict
        .as_ref()
        .and_then(|c| c.outcome.clone())
        .expect("the conflict ended")
}

#[test]
fn it_22_only_the_gm_escalates_with_stakes() {
    let mut t = T::new(vec![pc("Ada", "p1"), npc("Goon")]);
    assert_eq!(
        t.refused(
            "p1",
            json!({"type": "start_conflict", "stakes": "x", "npcs": ["Goon"]})
        ),
        "IT-22"
    );
    assert_eq!(
        t.refused(
            "gm",
            json!({"type": "start_conflict", "stakes": " ", "npcs": ["Goon"]})
        ),
        "IT-22"
    );
    assert_eq!(
        t.refused(
            "gm",
            json!({"type": "start_conflict", "stakes": "x", "npcs": ["Ada"]})
        ),
        "IT-23"
    ); // the GM picks NPCs
    assert_eq!(
        t.refused(
            "gm",
            json!({"type": "start_conflict", "stakes": "x", "npcs": []})
        ),
        "IT-23"
    );
    t.cmd("gm", json!({"type": "start_conflict", "stakes": "Win: the ledger. Lose: the docks burn.", "npcs": ["Goon"]}));
    assert_eq!(
        t.refused(
            "gm",
            json!({"type": "start_conflict", "stakes": "x", "npcs": ["Goon"]})
        ),
        "IT-22"
    ); // already running
    assert_eq!(
        t.table.conflict.as_ref().unwrap().stakes,
        "Win: the ledger. Lose: the docks burn."
    ); // IT-22
}

#[test]
fn it_23_lethal_needs_every_player_and_every_pc() {
    let mut t = T::new(vec![pc("Ada", "p1"), pc("Bo", "p2"), npc("Goon")]);
    t.cmd("gm", json!({"type": "start_conflict", "stakes": "to the death", "npcs": ["Goon"], "lethal": true}));
    assert_eq!(
        t.refused("p1", json!({"type": "sit_out", "character": "Ada"})),
        "IT-23"
    ); // lethal: every PC is in
    assert_eq!(
        t.refused("p1", json!({"type": "join_conflict", "character": "Bo"})),
        "IT-23"
    ); // not p1's PC
    t.cmd("p1", json!({"type": "join_conflict", "character": "Ada"}));
    t.cmd("p2", json!({"type": "refuse_lethal"})); // IT-23: all players must agree
    assert!(!t.table.conflict.as_ref().unwrap().lethal);
    let ev = t.cmd("p2", json!({"type": "sit_out", "character": "Bo"})); // now a lesser conflict
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::Conflict(ConflictEvent::FightBegan { lethal: false })
    ))); // IT-22
    assert_eq!(t.fighter("Bo").status, Status::SatOut);
}

#[test]
fn it_23_zero_energy_bars_entry() {
    let tired = with(
        pc("Ada", "p1"),
        "current",
        json!({"defend": 0, "grapple": 0, "attack": 0}),
    );
    let mut t = T::new(vec![tired, pc("Bo", "p2"), npc("Goon")]);
    t.cmd(
        "gm",
        json!({"type": "start_conflict", "stakes": "x", "npcs": ["Goon"]}),
    );
    assert_eq!(t.fighter("Ada").status, Status::Barred); // IT-23
    assert_eq!(
        t.refused("p1", json!({"type": "join_conflict", "character": "Ada"})),
        "IT-23"
    );
}

#[test]
fn it_23_gm_settles_a_stalled_conflict_without_death() {
    let mut t = T::new(vec![pc("Ada", "p1"), npc("Goon")]);
    t.cmd(
        "gm",
        json!({"type": "start_conflict", "stakes": "x", "npcs": ["Goon"], "lethal": true}),
    );
    assert_eq!(
        t.refused("p1", json!({"type": "settle_conflict", "outcome": "x"})),
        "IT-23"
    );
    t.cmd(
        "gm",
        json!({"type": "settle_conflict", "outcome": "The docks burn: a countdown is marked."}),
    );
    let outcome = ended(&t);
    assert_eq!(outcome.winner, None);
    assert!(outcome.dead.is_empty()); // IT-23: never death
}

#[test]
fn it_25_d_13_players_pick_a_pc_first_and_the_gm_may_step_in() {
    let mut t = T::new(vec![pc("Ada", "p1"), npc("Goon")]);
    t.start(&["Goon"], false, false);
    assert_eq!(
        t.refused("p1", json!({"type": "pick_active", "character": "Goon"})),
        "D-13"
    );
    assert_eq!(
        t.refused("gm", json!({"type": "pick_active", "character": "Goon"})),
        "D-13"
    );
    t.cmd("gm", json!({"type": "pick_active", "character": "Ada"})); // the players stalled (D-13)
    assert_eq!(t.fighter("Ada").turns, 1); // IT-25
}

#[test]
fn it_26_winner_picks_from_its_side_with_fewest_turns() {
    let mut t = T::new(vec![
        pc("P", "p1"),
        pc("Q", "p2"),
        sheet("X", "gm", [20, 20, 20], &BASIC),
    ]);
    t.start(&["X"], false, false);
    t.face("P", "X");
    t.exchange(("P", None, "A-M"), ("X", None, "A-L")); // Mid beats Low: P wins
    t.settle();
    assert_eq!(
        t.phase(),
        Phase::PickActive {
            picker: Picker::Seat {
                seat: Seat::Player(1)
            },
            side: Some(Side::Players),
            capped: None
        }
    ); // IT-26, D-9
    assert_eq!(
        t.refused("p2", json!({"type": "pick_active", "character": "Q"})),
        "IT-26"
    ); // the winner's controller picks
    t.cmd("p1", json!({"type": "pick_active", "character": "P"})); // continuing counts no turn (D-8)
    assert_eq!(t.fighter("P").turns, 1);
    t.cmd("p1", json!({"type": "end_chain"})); // IT-43
    t.cmd("p1", json!({"type": "pick_opponent", "opponent": "X"}));
    t.exchange(("P", None, "A-H"), ("X", None, "D-H")); // X wins
    t.settle();
    t.face("X", "Q");
    t.exchange(("X", None, "G-L"), ("Q", None, "A-H")); // Q wins as the chosen opponent
    t.settle();
    assert_eq!(
        t.refused("p2", json!({"type": "pick_active", "character": "P"})),
        "IT-26"
    ); // P has more turns than Q
    t.cmd("p2", json!({"type": "pick_active", "character": "Q"}));
    assert_eq!((t.fighter("P").turns, t.fighter("Q").turns), (1, 1));
}

#[test]
fn d_3_it_43_chain_ends_when_another_opponent_is_picked() {
    let mut t = T::new(vec![pc("P", "p1"), npc("X"), npc("Y")]);
    t.start(&["X", "Y"], false, false);
    t.face("P", "X");
    t.exchange(("P", None, "A-M"), ("X", None, "A-L"));
    t.cmd("gm", json!({"type": "pass_window", "character": "Y"}));
    t.settle();
    assert_eq!(t.chain(), ["A-M"]);
    t.cmd("p1", json!({"type": "pick_active", "character": "P"}));
    let ev = t.cmd("p1", json!({"type": "pick_opponent", "opponent": "Y"}));
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::Conflict(ConflictEvent::ChainEnded { .. })))
    ); // IT-43, D-3
    assert!(t.chain().is_empty());
}

#[test]
fn it_33_stances_within_current_energy_it_2_final() {
    let weak = with(
        pc("Ada", "p1"),
        "current",
        json!({"defend": 0, "grapple": 2, "attack": 4}),
    );
    let mut t = T::new(vec![weak, npc("Goon")]);
    t.start(&["Goon"], false, false);
    t.face("Ada", "Goon");
    assert_eq!(
        t.refused(
            "p1",
            json!({"type": "take_stance", "character": "Ada", "action": "defend", "amount": 1})
        ),
        "IT-33"
    ); // a type at 0 allows only 0
    assert_eq!(
        t.refused(
            "p1",
            json!({"type": "take_stance", "character": "Ada", "action": "attack", "amount": 5})
        ),
        "IT-33"
    );
    assert_eq!(
        t.refused(
            "gm",
            json!({"type": "take_stance", "character": "Ada", "amount": 0})
        ),
        "IT-32"
    ); // not the GM's character
    t.stance("Ada", Some(("attack", 4)));
    assert_eq!(
        t.refused(
            "p1",
            json!({"type": "take_stance", "character": "Ada", "amount": 0})
        ),
        "IT-2"
    ); // final
    // IT-2: hidden until both are ready.
    assert_eq!(
        t.view("gm")["conflict"]["turn"]["participants"][0]["stance"]["state"],
        "ready"
    );
    assert_eq!(
        t.view("p1")["conflict"]["turn"]["participants"][0]["stance"]["state"],
        "chosen"
    );
    assert!(!t.log_seen_by("gm").contains("\"amount\":4"));
    t.stance("Goon", None);
    assert_eq!(
        t.view("gm")["conflict"]["turn"]["participants"][0]["stance"]["value"]["amount"],
        4
    ); // revealed together
    t.play("Ada", "D-M"); // IT-33: its moves stay playable at 0
}

#[test]
fn it_36_d_10_surrender_out_at_once_no_loss() {
    let mut t = T::new(vec![pc("Ada", "p1"), pc("Bo", "p2"), npc("Goon")]);
    t.start(&["Goon"], false, false);
    t.face("Ada", "Goon");
    let ev = t.exchange(
        ("Ada", Some(("attack", 3)), "surrender"),
        ("Goon", None, "A-H"),
    );
    assert!(losses(&ev).is_empty()); // IT-36: no loss this turn
    assert_eq!(t.fighter("Ada").status, Status::Out);
    assert_eq!(t.energy("Ada"), [4, 4, 4]);
    // D-10: the other participant counts as winner for picking the next turn.
    assert_eq!(
        t.phase(),
        Phase::PickActive {
            picker: Picker::Seat { seat: Seat::Gm },
            side: Some(Side::Gm),
            capped: None
        }
    );
    assert!(t.chain().is_empty()); // D-10: no chain starts
}

#[test]
fn it_36_lethal_surrender_may_be_killed_on_the_spot() {
    let mut t = T::new(vec![pc("Ada", "p1"), pc("Bo", "p2"), npc("Goon")]);
    t.start(&["Goon"], true, false);
    t.face("Ada", "Goon");
    t.exchange(("Ada", None, "surrender"), ("Goon", None, "A-H"));
    assert!(matches!(
        t.phase(),
        Phase::Mercy {
            decider: Seat::Gm,
            ..
        }
    ));
    assert_eq!(
        t.refused("p2", json!({"type": "kill_surrendered"})),
        "IT-36"
    );
    t.cmd("gm", json!({"type": "kill_surrendered"}));
    assert!(t.table.character("Ada").unwrap().dead); // IT-36
}

#[test]
fn d_10_both_surrender_gm_picks() {
    let mut t = T::new(vec![
        pc("Ada", "p1"),
        pc("Bo", "p2"),
        npc("Goon"),
        npc("Thug"),
    ]);
    t.start(&["Goon", "Thug"], false, false);
    t.face("Ada", "Goon");
    t.exchange(("Ada", None, "surrender"), ("Goon", None, "surrender"));
    assert!(matches!(
        t.phase(),
        Phase::PickActive {
            picker: Picker::Seat { seat: Seat::Gm },
            side: None,
            ..
        }
    )); // D-10
}

#[test]
fn it_27_both_last_out_together_gm_side_wins_it_28_lethal_dead_it_52_zero_marks() {
    let you = with(
        sheet("You", "p1", [1, 1, 1], &BASIC),
        "specials",
        json!([{"special": "wax_on", "action": "attack"}, {"special": "dig_two_graves", "action": "attack"}]),
    );
    let mut t = T::new(vec![you, sheet("Opp", "gm", [1, 1, 1], &BASIC)]);
    t.start(&["Opp"], true, false);
    t.face("You", "Opp");
    t.stance("You", None);
    t.stance("Opp", None);
    t.cmd("p1", json!({"type": "play_special", "character": "You", "special": "dig_two_graves", "action": "attack"}));
    t.play("You", "G-M");
    let ev = t.play("Opp", "A-H");
    assert_eq!(t.total("You"), 0);
    assert_eq!(t.total("Opp"), 0); // D-24 mirrored, D-36: both reach 0 in one turn
    let outcome = ended(&t);
    assert_eq!(outcome.winner, Some(Side::Gm)); // IT-27
    assert!(t.table.character("You").unwrap().dead && t.table.character("Opp").unwrap().dead); // IT-28, IT-52: lethal
    assert!(ev.iter().any(|e| matches!(e, Event::Conflict(ConflictEvent::EnergyLost { zero_marked, .. }) if zero_marked.len() == 3)));
    assert_eq!(
        t.table.character("You").unwrap().marks.zero,
        iron_triangle::PerAction {
            defend: true,
            grapple: true,
            attack: true
        }
    ); // IT-52, D-17
}

#[test]
fn d_17_a_type_already_at_zero_gets_no_mark() {
    let you = with(
        pc("You", "p1"),
        "current",
        json!({"defend": 0, "grapple": 4, "attack": 4}),
    );
    let mut t = T::new(vec![you, npc("Opp")]);
    t.start(&["Opp"], false, false);
    t.face("You", "Opp");
    t.exchange(("You", None, "A-H"), ("Opp", None, "D-M"));
    t.split("You", "p1", [0, 2, 0]);
    assert!(!t.table.character("You").unwrap().marks.zero.defend); // D-17
    assert!(!t.table.character("You").unwrap().marks.zero.grapple);
}

#[test]
fn it_29_minor_conflict_lasts_one_turn_d_12_tie_goes_to_gm() {
    let mut t = T::new(vec![pc("Ada", "p1"), npc("Goon")]);
    t.start(&["Goon"], false, true);
    t.face("Ada", "Goon");
    t.exchange(("Ada", None, "A-M"), ("Goon", None, "A-L"));
    t.settle();
    assert_eq!(ended(&t).winner, Some(Side::Players)); // IT-29
    let mut t = T::new(vec![pc("Ada", "p1"), npc("Goon")]);
    t.start(&["Goon"], false, true);
    t.face("Ada", "Goon");
    t.exchange(("Ada", None, "A-M"), ("Goon", None, "A-M"));
    t.settle();
    assert_eq!(ended(&t).winner, Some(Side::Gm)); // D-12
}

#[test]
fn it_27_last_npc_out_players_win_and_it_40_piles_clear() {
    let mut t = T::new(vec![
        sheet("Ada", "p1", [9, 9, 9], &BASIC),
        sheet("Goon", "gm", [1, 1, 1], &BASIC),
    ]);
    t.start(&["Goon"], false, false);
    t.face("Ada", "Goon");
    let ev = t.exchange(("Ada", None, "A-M"), ("Goon", None, "A-L"));
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::Conflict(ConflictEvent::EnergyLost { discarded: 0, .. })
    )));
    let outcome = ended(&t);
    assert_eq!(outcome.winner, Some(Side::Players)); // IT-27
    assert!(t.pile("Goon").is_empty()); // IT-40: cleared at conflict end
    assert!(t.chain().is_empty()); // IT-45: chains end with the conflict
    assert!(!t.table.character("Goon").unwrap().dead); // IT-22: only lethal conflicts kill
}

#[test]
fn it_27_winners_narrate_within_the_stakes_and_the_gm_settles_disputes() {
    let narrate = |text: &str| json!({"type": "narrate_conflict", "text": text});
    let mut t = T::new(vec![
        sheet("Ada", "p1", [9, 9, 9], &BASIC),
        sheet("Bo", "p2", [9, 9, 9], &BASIC),
        sheet("Goon", "gm", [1, 1, 1], &BASIC),
    ]);
    t.cmd(
        "gm",
        json!({"type": "start_conflict", "stakes": "the ledger", "npcs": ["Goon"]}),
    );
    assert_eq!(t.refused("p1", narrate("Too soon")), "IT-27"); // only once a side has won
    t.cmd("p1", json!({"type": "join_conflict", "character": "Ada"}));
    t.cmd("p2", json!({"type": "sit_out", "character": "Bo"}));
    t.face("Ada", "Goon");
    t.exchange(("Ada", None, "A-M"), ("Goon", None, "A-L"));
    assert_eq!(ended(&t).winner, Some(Side::Players));
    assert_eq!(t.refused("p1", narrate("  ")), "IT-27"); // a narration says something
    t.cmd("p1", narrate("Ada walks out with the ledger."));
    assert_eq!(
        ended(&t).narration.as_deref(),
        Some("Ada walks out with the ledger.")
    ); // IT-27
    // Bo sat out but shares the players' win, so Bo's player may narrate too.
    t.cmd("p2", narrate("Bo was there all along."));
    t.cmd(
        "gm",
        narrate("Ada walks out with the ledger; Bo holds the door."),
    ); // the GM settles it
    assert_eq!(
        ended(&t).narration.as_deref(),
        Some("Ada walks out with the ledger; Bo holds the door.")
    );
}

#[test]
fn it_27_losers_do_not_narrate() {
    let mut t = T::new(vec![
        sheet("Ada", "p1", [1, 1, 1], &BASIC),
        sheet("Goon", "gm", [9, 9, 9], &BASIC),
    ]);
    t.start(&["Goon"], false, false);
    t.face("Ada", "Goon");
    t.exchange(("Ada", None, "A-L"), ("Goon", None, "A-M"));
    assert_eq!(ended(&t).winner, Some(Side::Gm));
    assert_eq!(
        t.refused(
            "p1",
            json!({"type": "narrate_conflict", "text": "We won really"})
        ),
        "IT-27"
    );
    t.cmd(
        "gm",
        json!({"type": "narrate_conflict", "text": "Goon keeps the bridge."}),
    );
}

#[test]
fn it_24_npc_sheets_hidden_until_the_gm_reveals() {
    let mut t = T::new(vec![pc("Ada", "p1"), npc("Goon")]);
    let goon = |t: &T, v: &str| t.view(v)["characters"][1].clone();
    assert_eq!(goon(&t, "p1")["sheet_hidden"], true);
    assert!(goon(&t, "p1").get("moves").is_none());
    assert!(goon(&t, "gm")["moves"].is_array());
    assert!(t.view("gm")["characters"][0]["moves"].is_array()); // PC moves are public
    assert_eq!(
        t.refused("p1", json!({"type": "reveal_npc", "character": "Goon"})),
        "IT-24"
    );
    t.cmd("gm", json!({"type": "reveal_npc", "character": "Goon"}));
    assert!(goon(&t, "spectator")["moves"].is_array()); // IT-24
}

#[test]
fn it_24_a_hidden_npc_move_played_face_up_is_shown_by_its_name() {
    let mut t = T::new(vec![pc("Ada", "p1"), npc("Goon")]);
    let goon = |t: &T| t.view("p1")["characters"][1].clone();
    assert!(goon(&t).get("shown").is_none(), "nothing played yet");
    t.start(&["Goon"], false, false);
    t.face("Ada", "Goon");
    t.exchange(("Ada", None, "A-H"), ("Goon", None, "A-L"));
    // The sheet stays hidden (IT-24), but the move the log names is shown by that name; the
    // moves Goon has not played stay unknown.
    let seen = goon(&t);
    assert_eq!(seen["sheet_hidden"], true);
    assert!(seen.get("moves").is_none());
    assert_eq!(
        seen["shown"],
        json!([{"move": "A-L", "name": "Goon's A-L"}])
    );
    assert!(
        t.view("p1")["characters"][0].get("shown").is_none(),
        "a PC's sheet is open"
    );
}

#[test]
fn it_32_only_the_active_picks_an_opponent() {
    let mut t = T::new(vec![pc("Ada", "p1"), npc("Goon")]);
    t.start(&["Goon"], false, false);
    t.cmd("p1", json!({"type": "pick_active", "character": "Ada"}));
    assert_eq!(
        t.refused("gm", json!({"type": "pick_opponent", "opponent": "Ada"})),
        "IT-32"
    );
    assert_eq!(
        t.refused("p1", json!({"type": "pick_opponent", "opponent": "Ada"})),
        "IT-32"
    ); // not an opponent
    t.cmd("p1", json!({"type": "pick_opponent", "opponent": "Goon"}));
}

#[test]
fn it_2_a_hidden_stance_or_move_is_a_pending_secret_of_its_seat_until_revealed() {
    use clash_core::Ruleset;
    let pending = |t: &T, s: &str| iron_triangle::IronTriangle::secret_pending(&t.table, seat(s));
    let mut t = T::new(vec![pc("Ada", "p1"), pc("Bo", "p2"), npc("Goon")]);
    t.start(&["Goon"], false, false);
    t.face("Ada", "Goon");
    assert!(!pending(&t, "p1"), "nothing chosen yet");
    t.stance("Ada", Some(("attack", 3)));
    assert!(pending(&t, "p1"), "IT-2: Ada's stance is hidden");
    assert!(
        !pending(&t, "p2") && !pending(&t, "gm"),
        "only the seat that chose holds the secret"
    );
    t.stance("Goon", None);
    assert!(!pending(&t, "p1"), "stances revealed together");
    t.play("Ada", "A-H");
    assert!(pending(&t, "p1"), "IT-2: Ada's move is hidden");
    t.play("Goon", "A-L");
    assert!(!pending(&t, "p1") && !pending(&t, "gm"), "moves revealed");
}
