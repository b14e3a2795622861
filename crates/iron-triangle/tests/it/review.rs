//! The review of a finished table: the chances of a duel are `clash solve iron-triangle
//! conflict`'s, stances and moves are judged against the equilibrium of their turn and, in
//! hindsight, against what the other side really chose; a conflict of more fighters is judged
//! turn by turn.

use std::time::{Duration, Instant};

use clash_analysis::review::hook;
use clash_analysis::review::play::play;
use clash_core::review::Record;
use clash_core::{Seat, Strength};
use iron_triangle::analysis::duel::solve_duel;
use iron_triangle::analysis::position::read_turn;
use iron_triangle::{IronTriangle, Setup};
use serde_json::{Value, json};

fn review(record: &Record) -> clash_core::Review {
    let mut r = hook::<IronTriangle>(record).expect("the record replays");
    while !r.work(Instant::now() + Duration::from_millis(200)) {}
    r.review()
}

/// Ada and the Bruiser with the energy of crates/iron-triangle/data/duel.json.
fn duel_setup() -> Value {
    energies([1, 2, 2], [2, 2, 1])
}

fn energies(ada: [u32; 3], bruiser: [u32; 3]) -> Value {
    let e = |x: [u32; 3]| json!({"defend": x[0], "grapple": x[1], "attack": x[2]});
    let mut v = sheets();
    v["characters"][0]["current"] = e(ada);
    v["characters"][1]["current"] = e(bruiser);
    v
}

fn sheets() -> Value {
    json!({"characters": [
        {"name": "Ada", "controller": "p1", "established": true,
         "energy": {"defend": 3, "grapple": 3, "attack": 4}, "current": {"defend": 1, "grapple": 2, "attack": 2},
         "moves": [{"move": "D-M", "name": "Philly Shell"}, {"move": "G-L", "name": "Trip"}, {"move": "A-H", "name": "Overhand Right"}],
         "backgrounds": [{"name": "Detective", "points": 2}, {"name": "Hockey", "points": 1}], "belief": "Everyone lies", "flaw": "Temper", "goal": "Find the thief"},
        {"name": "Bruiser", "controller": "gm", "established": true,
         "energy": {"defend": 4, "grapple": 4, "attack": 2}, "current": {"defend": 2, "grapple": 2, "attack": 1},
         "moves": [{"move": "D-M", "name": "Guard"}, {"move": "G-L", "name": "Sweep"}, {"move": "A-H", "name": "Swing"}],
         "state": {"revealed": true}}
    ]})
}

fn start(npcs: &[&str], pcs: &[(&str, &str)]) -> Vec<(Seat, Value)> {
    let mut out = vec![(
        Seat::Gm,
        json!({"type": "start_conflict", "stakes": "The ledger", "npcs": npcs}),
    )];
    for (seat, pc) in pcs {
        out.push((
            seat.parse().unwrap(),
            json!({"type": "join_conflict", "character": pc}),
        ));
    }
    out.push((
        pcs[0].0.parse().unwrap(),
        json!({"type": "pick_active", "character": pcs[0].1}),
    ));
    out
}

/// IT-27, IT-32: the chart of a one-on-one conflict starts at the duel solver's answer for the
/// same two characters (`clash solve iron-triangle conflict --state
/// crates/iron-triangle/data/duel.json`: P(Ada wins) = 0.449102), and a whole bot duel is
/// reviewed with every stance and move judged by it, each with its hindsight reply.
#[test]
fn a_duel_is_judged_by_the_duel_solver() {
    let spec = read_turn(include_str!("../../data/duel.json")).unwrap();
    let exact = solve_duel(&spec, &mut |_| {}).unwrap();
    let setup: Setup = serde_json::from_value(duel_setup()).unwrap();
    let prelude = start(&["Bruiser"], &[("p1", "Ada")]);
    let record = play::<IronTriangle>(&setup, &prelude, Strength::Strong, 200, 3, 200).unwrap();
    let review = review(&record);
    assert!(review.progress.done);
    let c = &review.conflicts[0];
    let first = c
        .points
        .first()
        .expect("a chance once the first pick is made");
    assert!(
        (first.chances[0] - exact.first_wins).abs() < 1e-9,
        "{} vs {}",
        first.chances[0],
        exact.first_wins
    );
    assert!((exact.first_wins - 0.449102).abs() < 1e-6);
    let verdicts: Vec<_> = c
        .moments
        .iter()
        .filter_map(|m| m.decision.as_ref())
        .collect();
    assert!(verdicts.len() >= 4, "{:?}", c.summary);
    for v in &verdicts {
        assert!(v.basis.contains("duel solved exactly"), "{}", v.basis);
        assert!(
            v.hindsight.is_some(),
            "every stance and move has its hindsight reply"
        );
        assert!(v.best + 1e-9 >= v.played && v.loss >= 0.0);
    }
    // The strong bot plays the equilibrium of the turn (by the turn's win payoff): nothing it
    // plays is graded as a blunder by the duel's.
    assert!(c.result.is_some());
    // Luck, by hand: Iron Triangle rolls no dice and draws no cards, so no step has a luck,
    // every player's luck is the empty sum 0, and a luck-adjusted result is the result itself
    // (the winner 1 − 0 = 1, the loser 0 − 0 = 0).
    assert!(c.moments.iter().all(|m| m.luck.is_none()));
    for p in &review.players {
        assert_eq!((p.rolls, p.luck), (0, 0.0), "a diceless game has no luck");
        assert_eq!(p.adjusted, p.result);
    }
}

/// A stance outside the duel's equilibrium gives its side's chance away, graded exactly: the
/// loss is the duel's value less the stance's value against the other side's equilibrium mix
/// (halved: values run from −1 to 1, chances from 0 to 1). Ada (Defend 2, Attack 1) against
/// the Bruiser (1 of each): taking no stance costs her 0.15 of the duel's value, 7.5 points of
/// her chance, an inaccuracy.
#[test]
fn a_stance_is_judged_against_the_equilibrium() {
    use iron_triangle::PerAction;
    use iron_triangle::analysis::duel::{DuelPosition, Solved};
    use iron_triangle::analysis::turn_game::FighterSpec;
    let setup: Setup = serde_json::from_value(energies([2, 0, 1], [1, 1, 1])).unwrap();
    let mut prelude = start(&["Bruiser"], &[("p1", "Ada")]);
    prelude.push((
        Seat::Player(1),
        json!({"type": "pick_opponent", "opponent": "Bruiser"}),
    ));
    prelude.push((
        Seat::Player(1),
        json!({"type": "take_stance", "character": "Ada", "amount": 0}),
    ));
    prelude.push((
        Seat::Gm,
        json!({"type": "take_stance", "character": "Bruiser", "amount": 0}),
    ));
    let record = play::<IronTriangle>(&setup, &prelude, Strength::Strong, 200, 3, 0).unwrap();
    let review = review(&record);
    let c = &review.conflicts[0];
    let ada = c
        .moments
        .iter()
        .find(|m| m.seat == Seat::Player(1) && m.decision.is_some())
        .unwrap();
    let v = ada.decision.as_ref().unwrap();
    // The same position solved here: the value, and no stance against the Bruiser's mix.
    let e = |d, g, a| PerAction {
        defend: d,
        grapple: g,
        attack: a,
    };
    let (pc, npc) = (
        FighterSpec::new("Ada", e(2, 0, 1)),
        FighterSpec::new("Bruiser", e(1, 1, 1)),
    );
    let stage = Solved::new(&pc, &npc)
        .stage(&DuelPosition {
            energy: [pc.energy, npc.energy],
            piles: [vec![], vec![]],
            active: 0,
            chain: vec![],
        })
        .unwrap();
    let none: f64 = stage.stance_values[0]
        .iter()
        .zip(&stage.stance_mix[1])
        .map(|(x, q)| x * q)
        .sum();
    assert!((v.loss - (stage.value - none) / 2.0).abs() < 1e-9, "{v:?}");
    assert!((v.loss - 0.075).abs() < 1e-9, "{v:?}");
    assert_eq!(v.grade, clash_core::review::Grade::Inaccuracy);
    assert!(v.best_choice.is_some());
    let h = v
        .hindsight
        .as_ref()
        .expect("the Bruiser's real stance is known afterwards");
    assert!(h.best >= h.played);
}

/// Two PCs against one NPC: beyond the duel solver, stances and moves are judged on their
/// turn alone, and the chart says it has no whole-conflict chance.
#[test]
fn a_team_conflict_is_judged_turn_by_turn() {
    let mut setup = duel_setup();
    setup["characters"].as_array_mut().unwrap().push(json!(
        {"name": "Bo", "controller": "p2", "established": true,
         "energy": {"defend": 4, "grapple": 3, "attack": 3}, "current": {"defend": 1, "grapple": 1, "attack": 1},
         "moves": [{"move": "D-M", "name": "Wall"}, {"move": "G-L", "name": "Sweep"}, {"move": "A-H", "name": "Hook"}],
         "backgrounds": [{"name": "Boxer", "points": 2}, {"name": "Cook", "points": 1}], "belief": "Fair fights", "flaw": "Pride", "goal": "Win the belt"}));
    let setup: Setup = serde_json::from_value(setup).unwrap();
    let prelude = start(&["Bruiser"], &[("p1", "Ada"), ("p2", "Bo")]);
    let record = play::<IronTriangle>(&setup, &prelude, Strength::Strong, 100, 5, 120).unwrap();
    let review = review(&record);
    let c = &review.conflicts[0];
    let v = c
        .moments
        .iter()
        .find_map(|m| m.decision.as_ref())
        .expect("a verdict");
    assert!(v.basis.contains("this turn's equilibrium"), "{}", v.basis);
    assert!(c.points.is_empty(), "{:?}", c.points);
    assert!(
        review
            .unevaluated
            .iter()
            .any(|u| u.contains("one PC against one NPC")),
        "{:?}",
        review.unevaluated
    );
}
