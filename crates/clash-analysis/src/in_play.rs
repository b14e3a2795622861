//! Odds in play: the exact odds that bear on a seat's next choice, computed from that seat's own
//! view of the table (the JSON a table page receives) and nothing else, so a seat can never learn
//! through them what the view hides from it. The catalogue hands these to the table server as
//! each ruleset's odds hook; the server shows them only where the GM has switched odds on.
//!
//! * [`iron_triangle`]: the equilibrium stance mix of the current turn for the seat's fighter
//!   (and the move mix once stances are revealed), from [`crate::turn_game`]; a hidden sheet is
//!   taken to know every move.

use clash_core::{AnyGame, Game, Ruleset, Seat, Viewer};
use iron_triangle::Move;
use iron_triangle::character::{Combo, PerAction};
use iron_triangle::conflict::{MoveChoice, Stance};
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
