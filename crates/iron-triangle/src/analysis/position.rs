//! Iron Triangle positions for the solvers: read from a state file and checked against the
//! rules, in one place, so every solver (turn, move game, duel) reads the same input the same
//! way (and a later position format only needs a reader here).
//!
//! Two inputs are read: the solvers' own turn state file (two fighters and a chain), and a table
//! position — the format a table or scenario starts from and `clash run --json` exports — read
//! as the turn its conflict is at ([`read_position`]); a scenario file holding a position in its
//! `setup` is read the same way.
//!
//! The engine checks each character sheet when the position is set up (known moves IT-7/IT-8,
//! combos D-5, specials' requirements IT-56, energy within 0..max IT-9); a table position is
//! checked by the engine as a whole. What a sheet cannot say is checked here: that the piles and
//! the chain are ones play can leave behind.

use crate::conflict::combo::MAX_RUN;
use crate::conflict::{Conflict, FighterId, Stance, Step};
use crate::special::Special;
use crate::{IronTriangle, Move, Setup, Table};
use clash_core::Ruleset;
use serde_json::Value;

use crate::analysis::turn_game::{ChainCard, FighterSpec, TurnSpec};

/// Why a state file is not a position play can reach, or not one the solvers take.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    #[error("{0}")]
    Read(String),
    #[error("{name} knows {mv} twice: a character knows a set of distinct moves (IT-7)")]
    RepeatedMove { name: String, mv: Move },
    #[error(
        "{name}'s pile holds {mv}, a move {name} does not know: only moves played go to a pile (IT-40)"
    )]
    UnknownPileCard { name: String, mv: Move },
    #[error("{name}'s pile holds {mv} twice: a face-up card cannot be played again (IT-35, IT-40)")]
    RepeatedPileCard { name: String, mv: Move },
    #[error(
        "{mv} follows {previous} in {name}'s pile, but a card joins a pile only when it was disadvantaged, sharing the action or element of the last card (IT-38, IT-40)"
    )]
    BrokenPile {
        name: String,
        previous: Move,
        mv: Move,
    },
    #[error(
        "the chain holds {mv}, a move {name} does not know: a chain is made of its owner's winning moves (IT-42)"
    )]
    UnknownChainCard { name: String, mv: Move },
    #[error("the chain holds {mv} twice (IT-42: each card is a different move of its owner)")]
    RepeatedChainCard { mv: Move },
    #[error(
        "the chain has {0} cards, but a character wins at most 3 turns in one chain and, without a teammate, ends it then (IT-46, D-7)"
    )]
    LongChain(usize),
    #[error(
        "a chain card is owned by {owner}, but the chain belongs to the active character, {active} (IT-42, IT-43)"
    )]
    ChainOwner { owner: String, active: String },
    #[error(
        "{active} has a live chain, so it won the last turn and its pile is empty (IT-40), but the file gives it a pile"
    )]
    ChainWithPile { active: String },
    #[error(
        "{name} knows {special}, unspent: the solvers do not model specials; mark it spent (IT-53) to solve the position as if it cannot be used"
    )]
    UnspentSpecial { name: String, special: Special },
    #[error("the position is not a table's: {0}")]
    Engine(String),
    #[error(
        "the position has no conflict in progress: the solvers analyse a conflict's turn (IT-32)"
    )]
    NoConflict,
    #[error(
        "{active} has not picked an opponent yet (IT-32 step 1): pick one, or write a turn state file naming both"
    )]
    NoOpponent { active: String },
    #[error("the file is a {0} scenario: the solvers read Iron Triangle positions")]
    OtherRuleset(String),
}

/// A turn read from a file: the two fighters and the chain, and the stances when the position
/// has them revealed already (the move game is then the part left to play).
#[derive(Debug, Clone)]
pub struct Position {
    pub turn: TurnSpec,
    /// The active character's and the opponent's revealed stances (IT-32 step 2).
    pub stances: Option<[Stance; 2]>,
}

/// Read a state file's text as a position and check it.
pub fn read_turn(text: &str) -> Result<TurnSpec, PositionError> {
    read_position(text).map(|p| p.turn)
}

/// Read either a turn state file or a table position (bare, or as a scenario's `setup`).
pub fn read_position(text: &str) -> Result<Position, PositionError> {
    let value: Value =
        serde_json::from_str(text).map_err(|e| PositionError::Read(e.to_string()))?;
    let setup = match (value.get("setup"), value.get("characters")) {
        (Some(setup), _) => {
            if let Some(other) = value.get("ruleset").and_then(Value::as_str)
                && other != IronTriangle::ID
            {
                return Err(PositionError::OtherRuleset(other.to_string()));
            }
            setup.clone()
        }
        (None, Some(_)) => value,
        (None, None) => {
            let turn: TurnSpec =
                serde_json::from_value(value).map_err(|e| PositionError::Read(e.to_string()))?;
            check(&turn)?;
            return Ok(Position {
                turn,
                stances: None,
            });
        }
    };
    let setup: Setup =
        serde_json::from_value(setup).map_err(|e| PositionError::Read(e.to_string()))?;
    let table = IronTriangle::setup(&setup).map_err(|e| PositionError::Engine(e.to_string()))?;
    turn_at(&table)
}

/// The turn a table's conflict is at, as the solvers see it.
pub fn turn_at(table: &Table) -> Result<Position, PositionError> {
    let conflict = table.conflict.as_ref().ok_or(PositionError::NoConflict)?;
    let turn = conflict.turn.as_ref().ok_or(PositionError::NoConflict)?;
    let Some(opponent) = turn.opponent else {
        return Err(PositionError::NoOpponent {
            active: conflict.f(turn.active).name.to_string(),
        });
    };
    let chain = match &conflict.chain {
        // A chain is live only against the loser it was won from (IT-42, IT-43).
        Some(c) if c.against == opponent && c.side == conflict.f(turn.active).side => c
            .cards
            .iter()
            .map(|card| ChainCard::Owned {
                mv: card.mv,
                owner: conflict.f(card.owner).name.to_string(),
            })
            .collect(),
        _ => Vec::new(),
    };
    let spec = TurnSpec {
        active: fighter(table, conflict, turn.active),
        opponent: fighter(table, conflict, opponent),
        chain,
    };
    check(&spec)?;
    let revealed = turn.stances_revealed && turn.step != Step::Stances;
    let stances = match turn.stances {
        [Some(a), Some(b)] if revealed => Some([a, b]),
        _ => None,
    };
    Ok(Position {
        turn: spec,
        stances,
    })
}

fn fighter(table: &Table, conflict: &Conflict, id: FighterId) -> FighterSpec {
    let f = conflict.f(id);
    let c = &table.characters[f.character];
    FighterSpec {
        name: c.name.clone(),
        energy: c.energy.current,
        max: Some(c.energy.max),
        moves: Some(c.moves.iter().map(|k| k.mv).collect()),
        combos: c.combos.clone(),
        pile: f.pile.clone(),
        level: c.level,
        specials: c.specials.clone(),
    }
}

/// Check a position against the rules its sheets cannot express (see the module notes).
pub fn check(spec: &TurnSpec) -> Result<(), PositionError> {
    for f in [&spec.active, &spec.opponent] {
        check_fighter(f)?;
    }
    check_chain(spec)
}

fn known(f: &FighterSpec) -> Vec<Move> {
    f.moves
        .clone()
        .unwrap_or_else(|| crate::character::STARTING_MOVES.to_vec())
}

fn check_fighter(f: &FighterSpec) -> Result<(), PositionError> {
    let name = f.name.clone();
    let moves = known(f);
    for (i, mv) in moves.iter().enumerate() {
        if moves[..i].contains(mv) {
            return Err(PositionError::RepeatedMove { name, mv: *mv });
        }
    }
    for (i, mv) in f.pile.iter().enumerate() {
        if !moves.contains(mv) {
            return Err(PositionError::UnknownPileCard { name, mv: *mv });
        }
        if f.pile[..i].contains(mv) {
            return Err(PositionError::RepeatedPileCard { name, mv: *mv });
        }
        if let Some(previous) = i.checked_sub(1).map(|p| f.pile[p])
            && !mv.shares_with(previous)
        {
            return Err(PositionError::BrokenPile {
                name,
                previous,
                mv: *mv,
            });
        }
    }
    // To Blave is a bluff with no effect (IT-59 #2), so it changes no payoff.
    if let Some(k) = f
        .specials
        .iter()
        .find(|k| !k.spent && k.special != Special::ToBlave)
    {
        return Err(PositionError::UnspentSpecial {
            name,
            special: k.special,
        });
    }
    Ok(())
}

fn check_chain(spec: &TurnSpec) -> Result<(), PositionError> {
    let active = &spec.active;
    if spec.chain.is_empty() {
        return Ok(());
    }
    if spec.chain.len() > MAX_RUN as usize - 1 {
        // A third win ends a lone character's chain (D-7), so at most two cards stay live.
        return Err(PositionError::LongChain(spec.chain.len()));
    }
    if !active.pile.is_empty() {
        return Err(PositionError::ChainWithPile {
            active: active.name.clone(),
        });
    }
    let moves = known(active);
    for (i, card) in spec.chain.iter().enumerate() {
        if let Some(owner) = card.owner()
            && owner != active.name
        {
            return Err(PositionError::ChainOwner {
                owner: owner.to_string(),
                active: active.name.clone(),
            });
        }
        if !moves.contains(&card.mv()) {
            return Err(PositionError::UnknownChainCard {
                name: active.name.clone(),
                mv: card.mv(),
            });
        }
        if spec.chain[..i].iter().any(|c| c.mv() == card.mv()) {
            return Err(PositionError::RepeatedChainCard { mv: card.mv() });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(json: serde_json::Value) -> Result<TurnSpec, PositionError> {
        read_turn(&json.to_string())
    }

    fn with(
        active: serde_json::Value,
        chain: serde_json::Value,
    ) -> Result<TurnSpec, PositionError> {
        read(
            serde_json::json!({"active": active, "opponent": {"name": "B", "energy": {"defend": 2, "grapple": 2, "attack": 2}, "pile": ["A-H"]}, "chain": chain}),
        )
    }

    fn ada(extra: serde_json::Value) -> serde_json::Value {
        let mut a =
            serde_json::json!({"name": "Ada", "energy": {"defend": 3, "grapple": 2, "attack": 5}});
        if let (Some(a), Some(e)) = (a.as_object_mut(), extra.as_object()) {
            a.extend(e.clone());
        }
        a
    }

    #[test]
    fn it_42_chain_cards_may_name_their_owner() {
        let spec = with(
            ada(serde_json::json!({})),
            serde_json::json!([{"move": "D-M", "owner": "Ada"}]),
        )
        .unwrap();
        assert_eq!(spec.chain[0].mv(), "D-M".parse().unwrap());
        let err = with(
            ada(serde_json::json!({})),
            serde_json::json!([{"move": "D-M", "owner": "B"}]),
        )
        .unwrap_err();
        assert!(
            matches!(err, PositionError::ChainOwner { .. }) && err.to_string().contains("IT-42")
        );
    }

    #[test]
    fn chains_and_piles_play_cannot_leave_are_refused() {
        let cases = [
            (
                ada(serde_json::json!({})),
                serde_json::json!(["G-J"]),
                "IT-42",
            ),
            (
                ada(serde_json::json!({})),
                serde_json::json!(["D-M", "D-M"]),
                "IT-42",
            ),
            (
                ada(serde_json::json!({})),
                serde_json::json!(["D-M", "G-L", "A-H"]),
                "IT-46",
            ),
            (
                ada(serde_json::json!({"pile": ["A-H"]})),
                serde_json::json!(["D-M"]),
                "IT-40",
            ),
            (
                ada(serde_json::json!({"pile": ["A-L"]})),
                serde_json::json!([]),
                "IT-40",
            ),
            (
                ada(
                    serde_json::json!({"moves": ["D-M", "G-L", "A-H", "A-L"], "pile": ["A-L", "D-M"]}),
                ),
                serde_json::json!([]),
                "IT-38",
            ),
            (
                ada(serde_json::json!({"moves": ["D-M", "D-M"]})),
                serde_json::json!([]),
                "IT-7",
            ),
        ];
        for (active, chain, rule) in cases {
            let err = with(active, chain.clone()).unwrap_err();
            assert!(err.to_string().contains(rule), "{chain}: {err}");
        }
    }

    #[test]
    fn spent_specials_are_read_and_unspent_ones_refused() {
        let spent = ada(
            serde_json::json!({"specials": [{"special": "scouter", "spent": true}, {"special": "to_blave", "spent": false}]}),
        );
        let spec = with(spent, serde_json::json!([])).unwrap();
        assert_eq!(spec.active.specials.len(), 2);
        let unspent = ada(
            serde_json::json!({"specials": [{"special": "wax_on", "action": "attack", "spent": false}]}),
        );
        let err = with(unspent, serde_json::json!([])).unwrap_err();
        assert!(
            matches!(err, PositionError::UnspentSpecial { .. })
                && err.to_string().contains("IT-53")
        );
    }

    const MID_TURN: &str =
        include_str!("../../../../examples/iron-triangle/position-mid-turn.json");

    #[test]
    fn it_42_a_table_position_is_read_as_the_turn_its_conflict_is_at() {
        let p = read_position(MID_TURN).unwrap();
        assert_eq!(p.turn.active.name, "Ada");
        assert_eq!(p.turn.opponent.name, "Brute");
        // The Brute's current energy, not his maximum; his pile as the table left it (IT-37).
        assert_eq!(p.turn.opponent.energy.grapple, 4);
        assert_eq!(p.turn.opponent.max.unwrap().grapple, 5);
        assert_eq!(p.turn.opponent.pile, vec!["G-L".parse::<Move>().unwrap()]);
        // The live chain keeps each card's owner (IT-42).
        assert_eq!(
            p.turn.chain,
            vec![ChainCard::Owned {
                mv: "A-H".parse().unwrap(),
                owner: "Ada".into()
            }]
        );
        // IT-32 step 2 is done: the stances revealed are the ones the move game is played under.
        let [a, b] = p.stances.unwrap();
        assert_eq!((a.action, a.amount), (Some(crate::Action::Grapple), 2));
        assert_eq!(b.amount, 0);
    }

    #[test]
    fn it_42_the_move_game_from_a_position_scores_the_scenarios_turn() {
        use crate::analysis::turn_game::{Options, move_game};
        let p = read_position(MID_TURN).unwrap();
        let [a, b] = p.stances.unwrap();
        let g = move_game(&p.turn, a, b, Options::default()).unwrap();
        let row = g.rows.iter().position(|m| m.to_string() == "G-M").unwrap();
        let col = g.cols.iter().position(|m| m.to_string() == "D-L").unwrap();
        // The scenario's own figure: Bear Hug beats Stomp Guard for 10, and Ada loses nothing.
        assert_eq!(g.matrix[row][col], 10);
        // A-H is face up in Ada's chain, so she cannot play it (IT-42).
        assert!(g.rows.iter().all(|m| m.to_string() != "A-H"));
    }

    #[test]
    fn it_32_a_position_without_a_turn_to_solve_is_refused_naming_the_rule() {
        let mut scenario: serde_json::Value = serde_json::from_str(MID_TURN).unwrap();
        scenario["setup"]["conflict"] = serde_json::Value::Null;
        let err = read_position(&scenario.to_string()).unwrap_err();
        assert_eq!(err, PositionError::NoConflict);
        assert!(err.to_string().contains("IT-32"));
        let other = serde_json::json!({"ruleset": "triforce", "setup": {}});
        let err = read_position(&other.to_string()).unwrap_err();
        assert!(matches!(err, PositionError::OtherRuleset(_)));
    }

    #[test]
    fn an_impossible_table_position_is_refused_by_the_engine() {
        let mut scenario: serde_json::Value = serde_json::from_str(MID_TURN).unwrap();
        // A pile card must be a move its owner knows (IT-40).
        scenario["setup"]["conflict"]["fighters"][2]["pile"] = serde_json::json!(["A-H"]);
        let err = read_position(&scenario.to_string()).unwrap_err();
        assert!(matches!(err, PositionError::Engine(_)), "{err}");
    }
}
