//! A ruleset as the catalogue offers it ([`RulesetEntry`]): how to start a game of it from
//! JSON, how it presents itself, and the hooks it fills (bots, odds in play, reviews, forms).
//!
//! This module sits on top of the rest of the kernel: [`crate::game`], [`crate::bot`],
//! [`crate::odds`] and [`crate::session_zero`] never import it, so the kernel's modules form
//! no cycle.

use serde_json::Value;

use crate::bot::BotFn;
use crate::game::{AnyGame, Game, GameError, from_json};
use crate::listing::{Listed, Panel, Preset, Rules};
use crate::odds::{OddsFn, SeatOdds, seat_odds};
use crate::review::ReviewFn;
use crate::session_zero::{FormsEntry, SessionZero};

/// One ruleset as the catalogue offers it: how to start a game of it from JSON, and how it
/// presents itself.
#[derive(Clone, Copy)]
pub struct RulesetEntry {
    pub id: &'static str,
    /// The game's name for people.
    pub name: &'static str,
    pub blurb: &'static str,
    pub presets: &'static [Preset],
    /// The game's board on the table page.
    pub panel: Panel,
    /// Exact odds for a seat's next choice, where the catalogue supplies them.
    pub odds: Option<OddsFn>,
    /// Bots that can take a seat, where the catalogue supplies them.
    pub bots: Option<BotFn>,
    /// The review of a finished game, where the catalogue supplies one.
    pub review: Option<ReviewFn>,
    /// The game's rules for players, as Markdown, and the sections that are its charts.
    pub rules: Rules,
    pub new_game: fn(&Value) -> Result<Box<dyn AnyGame>, GameError>,
    /// Tables by form and characters made by their players, where the ruleset has them.
    pub forms: Option<FormsEntry>,
    /// The subcommands the ruleset adds to the `clash` command.
    #[cfg(feature = "cli")]
    pub commands: crate::cli::Commands,
    /// The designer's workbench: the game's rule parameters and the hook that plays variants.
    pub workbench: Option<crate::workbench::Workbench>,
    /// An example of how a game plugs in rather than a game to offer players: a server lists it
    /// in its lobby and makes tables of it only when examples are enabled (`clash serve
    /// --examples`); the `clash` command's analyses offer it always.
    pub example: bool,
}

impl RulesetEntry {
    /// The same entry with odds in play, computed by `odds`.
    pub fn with_odds(mut self, odds: OddsFn) -> Self {
        self.odds = Some(odds);
        self
    }

    /// The same entry with the odds in play of ruleset `R` ([`SeatOdds`]).
    pub fn with_seat_odds<R: SeatOdds>(self) -> Self {
        self.with_odds(seat_odds::<R>)
    }

    /// The same entry with bots that can take a seat, played by `bots`.
    pub fn with_bots(mut self, bots: BotFn) -> Self {
        self.bots = Some(bots);
        self
    }

    /// The same entry with a designer's workbench.
    pub fn with_workbench(mut self, workbench: crate::workbench::Workbench) -> Self {
        self.workbench = Some(workbench);
        self
    }

    /// The same entry with reviews of finished games, worked out by `review`.
    pub fn with_review(mut self, review: ReviewFn) -> Self {
        self.review = Some(review);
        self
    }

    /// The same entry marked as an example ([`RulesetEntry::example`]).
    pub fn as_example(mut self) -> Self {
        self.example = true;
        self
    }

    /// The same entry with these subcommands of the `clash` command.
    #[cfg(feature = "cli")]
    pub fn with_commands(mut self, commands: crate::cli::Commands) -> Self {
        self.commands = commands;
        self
    }

    pub fn of<R: Listed>() -> Self {
        RulesetEntry {
            id: R::ID,
            name: R::NAME,
            blurb: R::BLURB,
            presets: R::PRESETS,
            panel: R::PANEL,
            odds: None,
            bots: None,
            review: None,
            rules: R::RULES,
            new_game: |setup| {
                let setup: R::Setup = from_json("setup", setup)?;
                Ok(Box::new(Game::<R>::new(setup)?))
            },
            forms: None,
            workbench: None,
            #[cfg(feature = "cli")]
            commands: crate::cli::Commands::default(),
            example: false,
        }
    }

    /// The entry of a ruleset whose tables are made by form, with a session zero where its
    /// players make their characters ([`crate::session_zero`]): its games start from either
    /// its own setup or a staged one.
    pub fn with_session_zero<R: SessionZero>() -> Self {
        RulesetEntry {
            new_game: crate::session_zero::new_game::<R>,
            forms: Some(FormsEntry {
                forms: R::FORMS,
                sheets: R::SHEETS,
                check_table: crate::session_zero::check_table::<R>,
                check_sheet: R::check_sheet,
                table_setup: crate::session_zero::table_setup::<R>,
                ready_made: crate::session_zero::ready_made::<R>,
            }),
            ..Self::of::<R>()
        }
    }
}
