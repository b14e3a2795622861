//! What the catalogue shows of a ruleset besides its rules: the lobby and the table pages read
//! this instead of knowing any game by name.

use crate::ruleset::Ruleset;

/// A ruleset as people meet it: its name, what it is about, and ready-made setups.
pub trait Listed: Ruleset {
    /// The game's name for people ("Iron Triangle").
    const NAME: &'static str;
    /// One sentence for the lobby: what kind of game it is.
    const BLURB: &'static str;
    /// Ready-made setups, best first. Each is checked against the rules before it is offered.
    const PRESETS: &'static [Preset];
}

/// A named starting setup, as JSON text.
#[derive(Debug, Clone, Copy)]
pub struct Preset {
    pub name: &'static str,
    pub setup: &'static str,
}
