//! The GM switches odds in play on or off: a table event in the log, so the switch replays,
//! exports and verifies with the table.

use super::{At, Decision};
use crate::error::TableError;
use crate::log::TableEvent;

pub struct SetOdds {
    pub key: String,
    pub enabled: bool,
}

gm_operation!(SetOdds => (), super::When::ANY, "only the GM (the table's owner) can switch odds on or off");

impl SetOdds {
    async fn decided(&self, at: &At<'_>) -> Result<Decision<()>, TableError> {
        if at.play.odds == self.enabled {
            return Ok(Decision::nothing(()));
        }
        let events = vec![TableEvent::OddsSwitched {
            enabled: self.enabled,
        }];
        Ok(Decision::table(events, Vec::new()))
    }
}
