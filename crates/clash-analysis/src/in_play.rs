//! Odds in play: the exact odds that bear on a seat's next choice, computed from that seat's own
//! view of the table (the JSON a table page receives) and nothing else, so a seat can never learn
//! through them what the view hides from it. The catalogue hands these to the table server as
//! each ruleset's odds hook; the server shows them only where the GM has switched odds on.
//!
//! * [`triforce`]: each crowded stack's chance of losing for every player in it, and in a sword or
//!   shield window the same with and without the swap;
//! * [`nd_tourists`]: for a party about to bid, the chance that its next draw beats each card
//!   on the other parties' bid lines, with the other Reserves counted but unseen;
//! * [`wicked_age`]: for a character about to answer, the chance of each band for every choice
//!   of forms (and strength) it may roll;
//! * [`iron_triangle`]: the equilibrium stance mix of the current turn for the seat's fighter
//!   (and the move mix once stances are revealed), from [`crate::turn_game`]; a hidden sheet is
//!   taken to know every move.

use std::collections::BTreeSet;

use clash_core::Seat;
use iron_triangle::Move;
use iron_triangle::character::{Combo, PerAction};
use iron_triangle::conflict::{MoveChoice, Stance};
use nd_tourists::cards::{Card, CardSet};
use nd_tourists::probability::Knowledge;
use serde_json::{Value, json};
use triforce::combat::Gear;
use wicked_age::odds::Pool;
use wicked_age::roll::{Outcome, RollValue, Table, judge};

use crate::combat_odds;
use crate::exact::{Probability, ratio};
use crate::turn_game::{
    self, ChainCard, FighterSpec, Mix, Payoff, TurnPosition, TurnSolution, TurnSpec,
};

fn text(v: &Value) -> &str {
    v.as_str().unwrap_or("")
}

fn seat_id(seat: Seat) -> String {
    seat.to_string()
}

// ----- Triforce -----

/// Who fights in a stack and with what (TF-21, TF-23): every owner of a piece, the top player
/// with the sword and the bottom player with the shield; one player who is both uses only the
/// shield. Returns the seats in seat order with their gear.
fn stack_fighters(stack: &[String], sword: bool, shield: bool) -> Vec<(String, Gear)> {
    let owners: Vec<&str> = stack
        .iter()
        .filter_map(|p| p.split_once('-').map(|(who, _)| who))
        .filter(|who| who.starts_with('p'))
        .collect();
    let (Some(bottom), Some(top)) = (owners.first().copied(), owners.last().copied()) else {
        return Vec::new();
    };
    let seats: BTreeSet<&str> = owners.iter().copied().collect();
    seats
        .into_iter()
        .map(|s| {
            let gear = if s == bottom && shield {
                Gear::Shield
            } else if s == top && sword && !(s == bottom && shield) {
                Gear::Sword
            } else {
                Gear::None
            };
            (s.to_string(), gear)
        })
        .collect()
}

fn fight_odds(fighters: &[(String, Gear)]) -> Option<Value> {
    let gears: Vec<Gear> = fighters.iter().map(|(_, g)| *g).collect();
    let report = combat_odds::combat(&gears).ok()?;
    let list: Vec<Value> = fighters
        .iter()
        .zip(report.loses)
        .map(|((seat, gear), loses)| json!({ "seat": seat, "gear": gear, "loses": loses }))
        .collect();
    Some(Value::Array(list))
}

/// Triforce: the chance of losing for every player in each crowded stack, and the effect of the
/// open swap when it is this seat's to make.
pub fn triforce(view: &Value, seat: Seat) -> Option<Value> {
    let me = seat_id(seat);
    let positions = view.get("positions")?.as_array()?;
    let pieces = |p: &Value| -> Vec<String> {
        p.get("stack")
            .and_then(Value::as_array)
            .map(|s| s.iter().map(|x| text(x).to_string()).collect())
            .unwrap_or_default()
    };
    let has = |stack: &[String], prefix: &str| stack.iter().any(|x| x.starts_with(prefix));
    let mut fights = Vec::new();
    for p in positions
        .iter()
        .filter(|p| p["contested"].as_bool() == Some(true))
    {
        let stack = pieces(p);
        let fighters = stack_fighters(&stack, has(&stack, "K-"), has(&stack, "C-"));
        if let Some(odds) = fight_odds(&fighters) {
            fights.push(json!({ "at": p["n"], "fighters": odds }));
        }
    }
    let mut out = json!({ "fights": fights });
    let exchange = &view["legal"]["exchange"];
    if text(&view["awaiting"]) == me && exchange.is_object() {
        let at = exchange["at"].as_u64()? as usize;
        let stack = pieces(positions.get(at.checked_sub(1)?)?);
        let sword = text(&exchange["kind"]) == "sword";
        let (has_sword, has_shield) = (has(&stack, "K-"), has(&stack, "C-"));
        let with = if sword {
            stack_fighters(&stack, true, has_shield)
        } else {
            stack_fighters(&stack, has_sword, true)
        };
        let without = stack_fighters(&stack, has_sword, has_shield);
        out["swap"] = json!({
            "at": at,
            "kind": exchange["kind"],
            "take": fight_odds(&with)?,
            "decline": fight_odds(&without)?,
        });
    }
    if fights.is_empty() && out.get("swap").is_none() {
        return None;
    }
    Some(out)
}

// ----- N-Dimensional Tourists -----

fn card(name: &str) -> Option<Card> {
    name.parse().ok()
}

/// What this seat knows of where the cards are: every card on the table and in its own
/// Reserves is out of the deck; the other Reserves are only counted (ND-20).
fn knowledge(view: &Value) -> Option<Knowledge> {
    let mut seen = CardSet::EMPTY;
    let mut unseen = 0usize;
    let mut see = |name: &str| {
        if let Some(c) = card(name) {
            seen.insert(c);
        }
    };
    for d in view["discard"].as_array().into_iter().flatten() {
        see(text(d));
    }
    for p in view["parties"].as_array()? {
        for b in p["bid_line"].as_array().into_iter().flatten() {
            see(text(&b["card"]));
        }
        for t in p["temporary"].as_array().into_iter().flatten() {
            see(text(&t["card"]));
        }
        for l in p["lasting"].as_array().into_iter().flatten() {
            for c in l["cards"].as_array().into_iter().flatten() {
                see(text(&c["card"]));
            }
        }
        for ch in p["characters"].as_array().into_iter().flatten() {
            match ch["reserve"].as_array() {
                Some(own) => own.iter().for_each(|r| see(text(&r["card"]))),
                None => unseen += ch["reserve_count"].as_u64().unwrap_or(0) as usize,
            }
        }
    }
    // The deck's size tells whether the table plays with the ten suit blanks (D-1).
    let deck = view["deck_count"].as_u64().unwrap_or(0) as usize;
    let blanks = CardSet::full_deck(false).minus(seen).len() < deck + unseen;
    Some(Knowledge {
        seen_out: seen,
        unseen_out: unseen,
        blanks,
    })
}

/// N-Dimensional Tourists: for each party of this seat whose turn it is to bid, the chance that
/// its next draw beats each card on the other parties' bid lines (ND-3).
pub fn nd_tourists(view: &Value, seat: Seat) -> Option<Value> {
    let me = seat_id(seat);
    if text(&view["phase"]) != "bidding" || !view["round"]["window"].is_null() {
        return None;
    }
    let turn = view["round"]["turn"].as_u64()? as usize;
    let parties = view["parties"].as_array()?;
    let mine = parties.get(turn)?;
    if text(&mine["seat"]) != me {
        return None;
    }
    let known = knowledge(view)?;
    let mut beats = Vec::new();
    for (i, p) in parties.iter().enumerate().filter(|(i, _)| *i != turn) {
        for b in p["bid_line"].as_array().into_iter().flatten() {
            let name = text(&b["card"]);
            let Some(target) = card(name) else { continue };
            if let Some(f) = known.next_draw_beats(target) {
                beats.push(json!({ "party": parties[i]["name"], "card": name, "chance": Probability::from(f) }));
            }
        }
    }
    Some(json!({ "party": mine["name"], "beats": beats }))
}

// ----- In A Wicked Age -----

const PC_FORMS: [&str; 6] = [
    "covertly",
    "directly",
    "for_myself",
    "for_others",
    "with_love",
    "with_violence",
];
const NPC_FORMS: [&str; 3] = ["action", "maneuvering", "self_protection"];

fn dice(v: &Value) -> Vec<u32> {
    match v {
        Value::Array(xs) => xs
            .iter()
            .filter_map(|x| x.as_u64())
            .map(|x| x as u32)
            .collect(),
        x => x.as_u64().map(|n| vec![n as u32]).unwrap_or_default(),
    }
    .into_iter()
    .filter(|d| *d > 0)
    .collect()
}

/// The bands of answering a fixed challenge with `pool` (WA-23), exactly.
fn bands(pool: &Pool, challenge: RollValue, table: Table) -> Option<Vec<Value>> {
    let dist = pool.distribution().ok()?;
    let total = dist.total();
    let mut counts = [0u128; 4];
    for (p, t, n) in dist.values() {
        let o = judge(RollValue::new(p, t), challenge, table);
        counts[Outcome::ALL.iter().position(|x| *x == o)?] += n;
    }
    Some(
        Outcome::ALL
            .iter()
            .zip(counts)
            .filter(|(o, _)| table == Table::Ordinary || matches!(o, Outcome::ChallengerKnockedOut | Outcome::AnswererKnockedOut))
            .map(|(o, n)| json!({ "outcome": o, "text": o.describe(), "probability": Probability::of(&ratio(n, total)) }))
            .collect(),
    )
}

/// In A Wicked Age: for a character of this seat that must answer, every choice of forms (and
/// of a strength that fits them) with the chance of each band against the challenge rolled.
pub fn wicked_age(view: &Value, seat: Seat) -> Option<Value> {
    let me = seat_id(seat);
    let c = &view["conflict"];
    let pending = c.get("pending").filter(|p| p.is_object())?;
    let name = text(&pending["target"]);
    let ch = view["characters"]
        .as_array()?
        .iter()
        .find(|x| text(&x["name"]) == name)?;
    if text(&ch["controller"]) != me {
        return None;
    }
    let value = &pending["roll"]["value"];
    let challenge = RollValue::new(value["p"].as_u64()? as u32, value["t"].as_u64()? as u32);
    let round = c["round"].as_u64().unwrap_or(1) as u8;
    let table = Table::for_round(round);
    let part = c["participants"]
        .as_array()?
        .iter()
        .find(|p| text(&p["name"]) == name)?;
    let mut bonus = Vec::new();
    if text(&c["advantage"]) == name {
        bonus.push(6);
    }
    if part["owe_die"].as_bool() == Some(true) {
        bonus.push(6);
    }
    let npc = text(&ch["kind"]) == "npc";
    let forms = &ch["forms"];
    let choices: Vec<Vec<&str>> = if npc {
        NPC_FORMS
            .iter()
            .filter(|f| !dice(&forms[**f]).is_empty())
            .map(|f| vec![*f])
            .collect()
    } else {
        let live: Vec<&str> = PC_FORMS
            .iter()
            .copied()
            .filter(|f| !dice(&forms[*f]).is_empty())
            .collect();
        let mut pairs = Vec::new();
        for (i, a) in live.iter().enumerate() {
            for b in &live[i + 1..] {
                pairs.push(vec![*a, *b]);
            }
        }
        pairs
    };
    let strengths: Vec<&Value> = ch["strengths"]
        .as_array()
        .map(|s| {
            s.iter()
                .filter(|x| x["die"].as_u64().unwrap_or(0) > 0)
                .collect()
        })
        .unwrap_or_default();
    let mut options = Vec::new();
    for chosen in choices {
        let form_dice: Vec<u32> = chosen.iter().flat_map(|f| dice(&forms[*f])).collect();
        let fits = |s: &Value| {
            if npc {
                chosen.contains(&text(&s["npc_form"]))
            } else {
                let second = s["significance"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter(|x| text(&x["type"]) == "broad")
                    .map(|x| text(&x["second_form"]));
                std::iter::once(text(&s["pc_form"]))
                    .chain(second)
                    .any(|f| chosen.contains(&f))
            }
        };
        let mut extras: Vec<Option<&Value>> = vec![None];
        extras.extend(strengths.iter().filter(|s| fits(s)).map(|s| Some(*s)));
        for strength in extras {
            let mut b = bonus.clone();
            if let Some(s) = strength {
                b.push(s["die"].as_u64()? as u32);
            }
            let pool = Pool::new(form_dice.clone()).with_bonus(b);
            options.push(json!({
                "forms": chosen,
                "strength": strength.map(|s| s["name"].clone()),
                "bands": bands(&pool, challenge, table)?,
            }));
        }
    }
    Some(json!({ "answerer": name, "round": round, "options": options }))
}

// ----- Iron Triangle -----

fn fighter_spec(view: &Value, name: &str) -> Option<FighterSpec> {
    let conflict = &view["conflict"];
    let fighter = conflict["fighters"]
        .as_array()?
        .iter()
        .find(|f| text(&f["name"]) == name)?;
    let sheet = view["characters"]
        .as_array()?
        .iter()
        .find(|c| text(&c["name"]) == name)?;
    let energy: PerAction<u32> = serde_json::from_value(fighter["energy"].clone()).ok()?;
    let max: Option<PerAction<u32>> = serde_json::from_value(sheet["energy"]["max"].clone()).ok();
    let hidden = sheet["sheet_hidden"].as_bool() == Some(true) || sheet["moves"].is_null();
    // A sheet this seat may not see is taken to know every move and no combo.
    let moves: Vec<Move> = if hidden {
        Move::ALL.to_vec()
    } else {
        sheet["moves"]
            .as_array()?
            .iter()
            .filter_map(|m| text(&m["move"]).parse().ok())
            .collect()
    };
    let combos: Vec<Combo> = if hidden {
        Vec::new()
    } else {
        serde_json::from_value(sheet["combos"].clone()).unwrap_or_default()
    };
    let pile: Vec<Move> = fighter["pile"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|m| text(m).parse().ok())
        .collect();
    Some(FighterSpec {
        name: name.to_string(),
        energy,
        max,
        moves: Some(moves),
        combos,
        pile,
        level: 0,
        specials: Vec::new(),
    })
}

fn revealed_stance(p: &Value) -> Option<Stance> {
    if text(&p["stance"]["state"]) != "revealed" {
        return None;
    }
    serde_json::from_value(p["stance"]["value"].clone()).ok()
}

fn stance_json(s: &Stance) -> Value {
    json!({ "action": s.action, "amount": s.amount })
}

fn choice_json(m: &MoveChoice) -> Value {
    match m {
        MoveChoice::Play(mv) => json!(mv.to_string()),
        MoveChoice::Surrender => json!("surrender"),
    }
}

/// The chances that the fighter wins and loses the turn when both sides play `rows` and
/// `cols` on `matrix`, which pays the active fighter A (+1 A wins, −1 B wins, 0 a tie).
fn chances(matrix: &[Vec<i64>], rows: &[f64], cols: &[f64], mine_is_a: bool) -> (f64, f64) {
    let (mut a, mut b) = (0.0, 0.0);
    for (row, p) in matrix.iter().zip(rows) {
        for (x, q) in row.iter().zip(cols) {
            match x.signum() {
                1 => a += p * q,
                -1 => b += p * q,
                _ => {}
            }
        }
    }
    if mine_is_a { (a, b) } else { (b, a) }
}

/// Each option's probability in `mix` (0 for an option it leaves out).
fn weights<T: PartialEq>(options: &[T], mix: &[Mix<T>]) -> Vec<f64> {
    options
        .iter()
        .map(|o| {
            mix.iter()
                .find(|m| m.option == *o)
                .map_or(0.0, |m| m.probability.decimal)
        })
        .collect()
}

/// The chances to win and to lose the whole turn, stances and moves both played at the
/// equilibrium: each stance pair weighs the chances of its own move game.
fn turn_chances(spec: &TurnSpec, s: &TurnSolution, mine_is_a: bool) -> Option<(f64, f64)> {
    let pos = TurnPosition::new(spec).ok()?;
    let (mut win, mut lose) = (0.0, 0.0);
    for m in &s.moves {
        let w = weights(&[m.stance_active], &s.stances_active)[0]
            * weights(&[m.stance_opponent], &s.stances_opponent)[0];
        let g = pos
            .move_matrix(m.stance_active, m.stance_opponent, Payoff::Win)
            .ok()?;
        let rows = weights(&g.rows, &m.active);
        let cols = weights(&g.cols, &m.opponent);
        let (a, b) = chances(&g.matrix, &rows, &cols, mine_is_a);
        win += w * a;
        lose += w * b;
    }
    Some((win, lose))
}

/// A chance as the pages take it: `{decimal}` (worked out in floating point, so no fraction).
fn chance(x: f64) -> Value {
    json!({ "decimal": x })
}

/// Iron Triangle: the equilibrium of the current turn for this seat's fighter, scored as the
/// chance of winning the turn minus the chance of losing it: its stance mix while stances are
/// secret, its move mix once they are revealed.
pub fn iron_triangle(view: &Value, seat: Seat) -> Option<Value> {
    let me = seat_id(seat);
    let turn = &view["conflict"]["turn"];
    let step = text(&turn["step"]);
    if step != "stances" && step != "moves" {
        return None;
    }
    let (a, b) = (text(&turn["active"]), text(&turn["opponent"]));
    let controller = |name: &str| {
        view["characters"]
            .as_array()
            .and_then(|cs| cs.iter().find(|c| text(&c["name"]) == name))
            .map(|c| text(&c["controller"]).to_string())
    };
    let mine_is_a = controller(a)? == me;
    if !mine_is_a && controller(b)? != me {
        return None;
    }
    let chain = view["conflict"]["chain"]
        .as_object()
        .filter(|c| c.get("against").and_then(Value::as_str) == Some(b))
        .and_then(|c| c.get("cards"))
        .and_then(Value::as_array)
        .map(|cards| {
            cards
                .iter()
                .filter_map(|c| c.get(1).and_then(Value::as_str)?.parse::<Move>().ok())
                .map(ChainCard::from)
                .collect()
        })
        .unwrap_or_default();
    let spec = TurnSpec {
        active: fighter_spec(view, a)?,
        opponent: fighter_spec(view, b)?,
        chain,
    };
    let parts = turn["participants"].as_array()?;
    let stance_of = |name: &str| {
        parts
            .iter()
            .find(|p| text(&p["name"]) == name)
            .and_then(revealed_stance)
    };
    let fighter = if mine_is_a { a } else { b };
    if let (Some(sa), Some(sb)) = (stance_of(a), stance_of(b)) {
        let game = turn_game::move_game(&spec, sa, sb, Payoff::Win).ok()?;
        let solution = turn_game::solve_moves(&game).ok()?;
        let (options, probs) = if mine_is_a {
            (&game.rows, &solution.row)
        } else {
            (&game.cols, &solution.col)
        };
        let mix: Vec<Value> = options
            .iter()
            .zip(probs)
            .map(|(m, p)| json!({ "move": choice_json(m), "probability": Probability::of(p) }))
            .collect();
        let value = if mine_is_a {
            solution.value.clone()
        } else {
            -solution.value.clone()
        };
        let to_f64 = |v: &Vec<num_rational::BigRational>| -> Vec<f64> {
            v.iter().map(crate::matrix_game::Scalar::to_f64).collect()
        };
        let (win, lose) = chances(
            &game.matrix,
            &to_f64(&solution.row),
            &to_f64(&solution.col),
            mine_is_a,
        );
        return Some(json!({
            "fighter": fighter, "step": "moves", "moves": mix, "value": Probability::of(&value),
            "win": chance(win), "lose": chance(lose),
        }));
    }
    let solution = turn_game::solve_turn(&spec, Payoff::Win).ok()?;
    let mix = if mine_is_a {
        &solution.stances_active
    } else {
        &solution.stances_opponent
    };
    let stances: Vec<Value> = mix
        .iter()
        .map(|m| json!({ "stance": stance_json(&m.option), "probability": m.probability.clone() }))
        .collect();
    let value = solution
        .value
        .exact()
        .map(|v| if mine_is_a { v } else { -v })?;
    let (win, lose) = turn_chances(&spec, &solution, mine_is_a)?;
    Some(json!({
        "fighter": fighter, "step": "stances", "stances": stances, "value": Probability::of(&value),
        "win": chance(win), "lose": chance(lose),
    }))
}
