//! The GM sets the table's clock and reminders: a table event in the log, so everyone reads
//! "The GM sets a clock: …" and a table read back knows its clock (see [`crate::notify::clock`]).

use super::{At, Decision, Operation, When, Who, sealed};
use crate::error::TableError;
use crate::log::TableEvent;
use crate::notify::rule::ClockRule;

pub struct SetClock {
    pub key: String,
    pub rule: ClockRule,
}

impl sealed::Sealed for SetClock {}

impl Operation for SetClock {
    type Answer = ();

    fn who(&self) -> Who<'_> {
        Who::Gm {
            key: &self.key,
            refusal: "only the GM (the table's owner) can set the clock",
        }
    }

    fn when(&self) -> When {
        When::OPEN
    }

    async fn decide(&self, at: &At<'_>) -> Result<Decision<()>, TableError> {
        self.rule.check().map_err(TableError::malformed)?;
        if at.play.clock == self.rule {
            return Ok(Decision::nothing(()));
        }
        let events = vec![TableEvent::ClockSet { rule: self.rule }];
        Ok(Decision::table(events, Vec::new()))
    }
}
