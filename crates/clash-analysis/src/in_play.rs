//! Odds in play: the exact odds that bear on a seat's next choice, computed from that seat's own
//! view of the table (the JSON a table page receives) and nothing else, so a seat can never learn
//! through them what the view hides from it. The catalogue hands these to the table server as
//! each ruleset's odds hook; the server shows them only where the GM has switched odds on.
//!
//! * [`nd_tourists`]: for a party about to bid, the chance that its next draw beats each card
//!   on the other parties' bid lines, with the other Reserves counted but unseen;
//! * [`iron_triangle`]: the equilibrium stance mix of the current turn for the seat's fighter
//!   (and the move mix once stances are revealed), from [`crate::turn_game`]; a hidden sheet is
//!   taken to know every move.

use clash_core::{AnyGame, Game, Ruleset, Seat, Viewer};
use iron_triangle::Move;
use iron_triangle::character::{Combo, PerAction};
use iron_triangle::conflict::{MoveChoice, Stance};
use nd_tourists::cards::{Card, CardSet};
use nd_tourists::probability::Knowledge;
use serde_json::{Value, json};

use crate::exact::Probability;
use crate::turn_game::{self, ChainCard, FighterSpec, Payoff, TurnSpec};

/// The catalogue's odds hook ([`clash_core::OddsFn`]) for ruleset `R`: `odds` of the JSON of
/// the seat's own view.
fn through_view<R: Ruleset>(
    game: &dyn AnyGame,
    seat: Seat,
    odds: fn(&Value, Seat) -> Option<Value>,
) -> Option<Value> {
    let game = game.as_any().downcast_ref::<Game<R>>()?;
    let view = serde_json::to_value(R::view(game.state(), Viewer::Seat(seat))).ok()?;
    odds(&view, seat)
}

/// [`nd_tourists`] as the catalogue's odds hook.
pub fn nd_tourists_hook(game: &dyn AnyGame, seat: Seat) -> Option<Value> {
    through_view::<::nd_tourists::NdTourists>(game, seat, nd_tourists)
}

/// [`iron_triangle`] as the catalogue's odds hook.
pub fn iron_triangle_hook(game: &dyn AnyGame, seat: Seat) -> Option<Value> {
    through_view::<::iron_triangle::IronTriangle>(game, seat, iron_triangle)
}

fn text(v: &Value) -> &str {
    v.as_str().unwrap_or("")
}

fn seat_id(seat: Seat) -> String {
    seat.to_string()
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
        return Some(
            json!({ "fighter": fighter, "step": "moves", "moves": mix, "value": Probability::of(&value) }),
        );
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
    Some(
        json!({ "fighter": fighter, "step": "stances", "stances": stances, "value": Probability::of(&value) }),
    )
}
