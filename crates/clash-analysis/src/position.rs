//! Iron Triangle positions for the solvers: read from a state file and checked against the
//! rules, in one place, so every solver (turn, move game, duel) reads the same input the same
//! way (and a later position format only needs a reader here).
//!
//! The engine checks each character sheet when the position is set up (known moves IT-7/IT-8,
//! combos D-5, specials' requirements IT-56, energy within 0..max IT-9). What a sheet cannot say
//! is checked here: that the piles and the chain are ones play can leave behind.

use iron_triangle::Move;
use iron_triangle::conflict::combo::MAX_RUN;
use iron_triangle::special::Special;

use crate::turn_game::{FighterSpec, TurnSpec};

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
}

/// Read a state file's text as a position and check it.
pub fn read_turn(text: &str) -> Result<TurnSpec, PositionError> {
    let spec: TurnSpec =
        serde_json::from_str(text).map_err(|e| PositionError::Read(e.to_string()))?;
    check(&spec)?;
    Ok(spec)
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
        .unwrap_or_else(|| iron_triangle::character::STARTING_MOVES.to_vec())
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
}
