//! Triforce at the table. Triforce hides nothing: every piece, stash and supply is on the
//! board for all to see, and only the dice of a fight are unknown until they are rolled. So
//! the seat's view carries the whole table ([`crate::view::View::table`]), and the strong
//! bot searches ahead from it exactly as a person could with the board in front of them.
//!
//! * **casual**: a uniformly random legal command;
//! * **strong**: Monte-Carlo tree search ([`MctsBot`]) with one playout per unit of work,
//!   stopped early when the clock runs out.

use crate::{Command, Triforce};
use clash_core::{Budget, Randomness, SeatBot, SeatTable};

use crate::analysis::mcts::MctsBot;
use clash_analysis::bots::Bot;
use clash_analysis::table_bots::{Seated, Sends, bot_commands, or_casual};

impl Seated for Triforce {
    /// Every Triforce command is play: there is no table business and no free text.
    fn bot_sends(_command: &Command) -> Sends {
        Sends::Play
    }

    fn strong() -> Box<dyn SeatBot<Self>> {
        Box::new(Strong::default())
    }
}

/// The strong Triforce bot: MCTS from the table in the view.
#[derive(Debug, Clone)]
pub struct Strong {
    /// Turns a playout runs past the current one before the territory count scores it.
    pub playout_turns: u32,
    /// UCB1 exploration constant.
    pub exploration: f64,
}

impl Default for Strong {
    fn default() -> Self {
        let mcts = MctsBot::default();
        Strong {
            playout_turns: mcts.playout_turns,
            exploration: mcts.exploration,
        }
    }
}

impl SeatBot<Triforce> for Strong {
    fn choose(
        &self,
        table: &SeatTable<Triforce>,
        budget: Budget,
        rng: &mut dyn Randomness,
    ) -> Option<Command> {
        if !table.to_act() {
            return None;
        }
        let options = bot_commands(table);
        if options.len() <= 1 {
            return options.into_iter().next();
        }
        let mut search = MctsBot {
            playouts: budget.work.max(1),
            playout_turns: self.playout_turns,
            time_limit: Some(budget.time),
            exploration: self.exploration,
        };
        or_casual(
            search.choose(&table.view.table, table.seat, rng),
            |c| options.contains(c),
            table,
            budget,
            rng,
        )
    }
}
