//! What the contests of every game share: which bot takes a seat. Each game's contests (its
//! setups, bots and scoring, as [`crate::simulate::Contest`]s) live in the game's crate.

/// Which bot takes a seat.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BotKind {
    /// The ruleset's own strong bot (equilibrium, MCTS, threshold, odds).
    Smart,
    /// Uniformly random legal commands.
    Random,
}

impl std::str::FromStr for BotKind {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "smart" | "bot" | "mcts" | "odds" | "threshold" | "equilibrium" => Ok(BotKind::Smart),
            "random" => Ok(BotKind::Random),
            other => Err(format!("{other:?} is not a bot: write smart or random")),
        }
    }
}
