//! Everything on the table ([`Table`], the game's state): the players, the characters, the
//! campaign, the conflict under way and the numbers its rules use.

use clash_core::{RuleError, Seat};
use serde::{Deserialize, Serialize};

use crate::{Campaign, Character, Conflict, limits, names, variant};

/// Everything on the table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Table {
    pub players: Vec<Seat>,
    pub characters: Vec<Character>,
    pub campaign: Campaign,
    pub conflict: Option<Conflict>,
    /// The numbers this table's rules use ([`variant`](crate::variant)).
    #[serde(default, skip_serializing_if = "variant::Rules::is_default")]
    pub rules: variant::Rules,
}

impl Table {
    pub fn character(&self, name: &str) -> Option<&Character> {
        self.characters.iter().find(|c| c.name == name)
    }

    pub fn character_mut(&mut self, name: &str) -> Option<&mut Character> {
        self.characters.iter_mut().find(|c| c.name == name)
    }

    /// The character called `name`, or an error naming `rule` when there is none.
    pub fn find(&self, name: &str, rule: &'static str) -> Result<&Character, RuleError> {
        self.character(name).ok_or_else(|| {
            RuleError::illegal(
                rule,
                format!("there is no character called {}", limits::shown(name)),
            )
        })
    }

    /// The name people at the table know `seat` by: "the GM"; a player by their living PC
    /// ("Ada", or "Ada and Bo" in the rare case of two), else by their dead PC ("Ada's
    /// player"), else by their place at the table ("the second player").
    pub fn seat_name(&self, seat: Seat) -> String {
        let Seat::Player(n) = seat else {
            return "the GM".into();
        };
        let pcs = |dead: bool| -> Vec<&str> {
            self.characters
                .iter()
                .filter(|c| c.controller == seat && c.is_pc() && c.dead == dead)
                .map(|c| c.name.as_str())
                .collect()
        };
        let living = pcs(false);
        if !living.is_empty() {
            return names::list(&living);
        }
        match pcs(true).last() {
            Some(dead) => format!("{dead}'s player"),
            None => names::ordinal_player(n),
        }
    }

    /// Several seats by name, as one phrase ("Ada, Bo and the GM").
    pub fn seat_names(&self, seats: &[Seat]) -> String {
        let names: Vec<String> = seats.iter().map(|s| self.seat_name(*s)).collect();
        names::list(&names)
    }
}
