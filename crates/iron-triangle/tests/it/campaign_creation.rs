//! Character creation as a command (IT-1, IT-7, IT-9 … IT-12, TV-12) and renaming moves.

use crate::campaign_support;

use campaign_support::*;
use clash_core::{Ruleset, Seat, Viewer};
use iron_triangle::{Event, IronTriangle, campaign::CampaignEvent};
use serde_json::json;

fn table() -> T {
    T::new(json!({"players": ["p1", "p2"]}))
}

#[test]
fn tv_12_ada_is_created_by_her_player() {
    let mut t = table();
    t.made(P1, json!({"type": "create_character", "sheet": ada("p1")}));
    let ada = t.pc("Ada");
    assert_eq!(ada.level, 0); // IT-9
    assert!(ada.specials.is_empty() && ada.combos.is_empty()); // IT-9
    assert_eq!(ada.energy.current, ada.energy.max); // IT-9: current starts at max
    assert_eq!(ada.energy.max.total(), 10); // IT-9
    assert_eq!(ada.background_points(), 3); // IT-10
    assert!(!ada.belief.marked && !ada.flaw.marked && !ada.goal.achieved); // IT-11
    assert!(ada.veto); // IT-11: one veto
    assert_eq!(
        ada.move_name("A-H".parse().unwrap()),
        Some("Overhand Right")
    ); // IT-12
}

#[test]
fn tv_12_invalid_sheets_are_refused_with_their_rule() {
    let mut t = table();
    let mut s = ada("p1");
    s["energy"] = json!({"defend": 0, "grapple": 5, "attack": 5});
    t.refused(P1, json!({"type": "create_character", "sheet": s}), "IT-9"); // TV-12: D0/G5/A5
    let mut s = ada("p1");
    s["energy"] = json!({"defend": 4, "grapple": 3, "attack": 2});
    t.refused(P1, json!({"type": "create_character", "sheet": s}), "IT-9"); // TV-12: D4/G3/A2
    let mut s = ada("p1");
    s["backgrounds"] = json!([{"name": "Detective", "points": 3}]);
    t.refused(P1, json!({"type": "create_character", "sheet": s}), "IT-10"); // TV-12: 3 points in one
    let mut s = ada("p1");
    s["backgrounds"] = json!([{"name": "Detective", "points": 2}]);
    t.refused(P1, json!({"type": "create_character", "sheet": s}), "IT-10"); // IT-10: all 3 points
}

#[test]
fn it_11_a_new_character_starts_with_clear_marks() {
    let mut t = table();
    let mut s = ada("p1");
    s["marks"] = json!({"belief": true});
    t.refused(P1, json!({"type": "create_character", "sheet": s}), "IT-11"); // IT-11
}

#[test]
fn it_12_starting_moves_are_d_m_g_l_a_h() {
    let mut t = table();
    let mut s = ada("p1");
    s["moves"][2]["move"] = json!("A-M");
    t.refused(P1, json!({"type": "create_character", "sheet": s}), "IT-12"); // IT-12
    let mut s = ada("p1");
    s["specials"] = json!([{"special": "scouter"}]);
    t.refused(P1, json!({"type": "create_character", "sheet": s}), "IT-9"); // IT-9: no specials
    let mut s = ada("p1");
    s["established"] = json!(true);
    t.refused(P1, json!({"type": "create_character", "sheet": s}), "IT-9"); // a player's PC starts at level 0
}

#[test]
fn it_1_a_player_creates_its_own_pc_and_the_gm_creates_npcs() {
    let mut t = table();
    t.refused(
        P2,
        json!({"type": "create_character", "sheet": ada("p1")}),
        "IT-1",
    ); // not its own
    t.refused(
        GM,
        json!({"type": "create_character", "sheet": ada("p1")}),
        "IT-1",
    ); // GM makes NPCs only
    t.refused(
        Seat::Player(3),
        json!({"type": "create_character", "sheet": ada("p3")}),
        "IT-1",
    ); // not seated
    t.made(P1, json!({"type": "create_character", "sheet": ada("p1")}));
    t.refused(
        P1,
        json!({"type": "create_character", "sheet": hero("Ada II", "p1")}),
        "IT-1",
    ); // one PC each
    let mut npc = hero("Boss", "gm");
    npc["established"] = json!(true);
    npc["level"] = json!(5);
    npc["specials"] = json!([{"special": "yojimbo"}]);
    t.ok(GM, json!({"type": "create_character", "sheet": npc}));
    assert!(!t.pc("Boss").is_pc()); // IT-1: the GM controls NPCs
}

#[test]
fn it_1_a_table_is_two_to_six_people() {
    let setup: iron_triangle::Setup =
        serde_json::from_value(json!({"players": ["p1", "p2", "p3", "p4", "p5", "p6"]})).unwrap();
    assert_eq!(
        IronTriangle::setup(&setup).unwrap_err().rule(),
        Some("IT-1")
    ); // IT-1: at most 5 players + GM
}

#[test]
fn it_7_character_names_are_unique() {
    let mut t = table();
    t.made(P1, json!({"type": "create_character", "sheet": ada("p1")}));
    t.refused(
        P2,
        json!({"type": "create_character", "sheet": ada("p2")}),
        "IT-7",
    ); // IT-7
}

#[test]
fn it_24_an_npc_sheet_is_hidden_from_players_in_the_event() {
    let mut t = table();
    let mut npc = hero("Boss", "gm");
    npc["established"] = json!(true);
    let events = t.ok(GM, json!({"type": "create_character", "sheet": npc}));
    let Some(Event::Campaign(CampaignEvent::CharacterCreated { character })) =
        IronTriangle::event_view(&events[0], Viewer::Seat(P1))
    else {
        panic!("the creation is public");
    };
    assert!(character.moves.is_empty()); // IT-24: NPC moves hidden
    let Some(Event::Campaign(CampaignEvent::CharacterCreated { character })) =
        IronTriangle::event_view(&events[0], Viewer::Seat(GM))
    else {
        panic!();
    };
    assert_eq!(character.moves.len(), 3);
}

#[test]
fn it_7_renaming_a_move_is_free() {
    let mut t = table();
    t.made(P1, json!({"type": "create_character", "sheet": ada("p1")}));
    let before = t.pc("Ada").clone();
    t.ok(
        P1,
        json!({"type": "rename_move", "character": "Ada", "move": "A-H", "name": "Haymaker"}),
    );
    let after = t.pc("Ada");
    assert_eq!(after.move_name("A-H".parse().unwrap()), Some("Haymaker")); // IT-7
    assert_eq!(
        (after.energy, after.background_points(), after.veto),
        (before.energy, before.background_points(), before.veto)
    ); // free
    t.refused(
        P2,
        json!({"type": "rename_move", "character": "Ada", "move": "A-H", "name": "Mine"}),
        "IT-1",
    );
    t.refused(
        P1,
        json!({"type": "rename_move", "character": "Ada", "move": "G-S", "name": "Spin"}),
        "IT-7",
    ); // not known
    t.refused(
        P1,
        json!({"type": "rename_move", "character": "Ada", "move": "D-M", "name": ""}),
        "IT-7",
    );
}

#[test]
fn it_1_a_players_character_made_in_play_goes_through_the_gm() {
    // Issue 38: as in session zero, a player's character is handed in, and the GM keeps it or
    // sends it back with a comment.
    let mut t = table();
    t.ok(P1, json!({"type": "create_character", "sheet": ada("p1")}));
    assert!(t.state().character("Ada").is_none(), "not at the table yet");
    assert_eq!(
        t.view(Viewer::Seat(P2))["campaign"]["handed_in"][0]["sheet"]["name"],
        "Ada"
    );
    assert_eq!(
        iron_triangle::status::asked(t.state(), Seat::Gm).as_deref(),
        Some("keep the character a player handed in, or send it back")
    );
    t.refused(P1, json!({"type": "keep_character", "seat": "p1"}), "IT-1"); // the GM's call
    t.refused(
        P1,
        json!({"type": "create_character", "sheet": ada("p1")}),
        "IT-1",
    ); // the same again
    t.refused(
        GM,
        json!({"type": "send_back_character", "seat": "p1", "comment": " "}),
        "IT-1",
    );
    t.refused(GM, json!({"type": "keep_character", "seat": "p2"}), "IT-1"); // nothing from p2
    let back = t.ok(
        GM,
        json!({"type": "send_back_character", "seat": "p1", "comment": "Give Ada a goal for this story."}),
    );
    assert_eq!(
        IronTriangle::narrate(t.state(), &back[0]),
        "The GM sends Ada back to the first player: Give Ada a goal for this story."
    );
    assert!(t.state().campaign.handed_in.is_empty());
    let mut again = ada("p1");
    again["goal"] = json!("Find the thief before the GM does");
    t.made(P1, json!({"type": "create_character", "sheet": again}));
    assert_eq!(t.pc("Ada").goal.text, "Find the thief before the GM does");
    assert!(t.state().campaign.handed_in.is_empty());
}
