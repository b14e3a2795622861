//! What the catalogue shows of a ruleset besides its rules: the lobby and the table pages read
//! this instead of knowing any game by name.

use crate::ruleset::Ruleset;

/// A ruleset as people meet it: its name, what it is about, and ready-made setups.
pub trait Listed: Ruleset {
    /// The game's name for people, as written on its cover.
    const NAME: &'static str;
    /// One sentence for the lobby: what kind of game it is.
    const BLURB: &'static str;
    /// Ready-made setups, best first. Each is checked against the rules before it is offered.
    const PRESETS: &'static [Preset];
    /// The game's board on the table page, if it has one of its own.
    const PANEL: Panel = Panel::NONE;
    /// The rules a player reads at the table, and the charts among them.
    const RULES: Rules = Rules::NONE;
}

/// A named starting setup, as JSON text.
#[derive(Debug, Clone, Copy)]
pub struct Preset {
    pub name: &'static str,
    pub setup: &'static str,
}

/// A ruleset's board on the table page: a plain script (no build step) that draws the game from
/// the seat's view and sends its commands, and the stylesheet it uses. The server serves both
/// as they are, on that game's pages only; the script registers itself with the page's shared
/// page kit (`kit.js`) under the ruleset's ID.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Panel {
    /// JavaScript, run after the page's shared page kit.
    pub script: &'static str,
    /// CSS for the panel's own classes.
    pub style: &'static str,
}

impl Panel {
    /// No board of its own: the page shows the text picture and the log.
    pub const NONE: Panel = Panel {
        script: "",
        style: "",
    };

    /// Whether the ruleset draws a board of its own.
    pub fn is_some(&self) -> bool {
        !self.script.is_empty()
    }
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
