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
    /// The rules a player reads at the table, and the charts among them.
    const RULES: Rules = Rules::NONE;
}

/// A named starting setup, as JSON text.
#[derive(Debug, Clone, Copy)]
pub struct Preset {
    pub name: &'static str,
    pub setup: &'static str,
}

/// A game's rules for players, carried with the ruleset so every table page can show them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rules {
    /// The player rules as Markdown, with rule IDs (`IT-12`) in the text and a "Rule finder"
    /// table that links each rule to its section.
    pub markdown: &'static str,
    /// The headings of the sections a player looks up mid-game (a move chart, the combat
    /// odds), shown first and one tap away.
    pub charts: &'static [&'static str],
}

impl Rules {
    /// No rules text.
    pub const NONE: Rules = Rules {
        markdown: "",
        charts: &[],
    };
}
