//! A client seed for chance from now on, from the GM's link or a seat's player.

use super::{At, Decision};
use crate::error::TableError;
use crate::log::TableEvent;
use crate::table::links::plain_word;
use crate::table::play::contributor;

pub struct AddSeed {
    pub key: String,
    pub seed: String,
}

key_operation!(AddSeed => (), super::When::OPEN);

impl AddSeed {
    async fn decided(&self, at: &At<'_>) -> Result<Decision<()>, TableError> {
        let by = at
            .actor
            .access()
            .and_then(contributor)
            .ok_or_else(|| TableError::forbidden("only the GM and the players add seeds"))?;
        if !plain_word(&self.seed, 64) {
            return Err(TableError::malformed(
                "a seed is 1 to 64 letters, digits, '-', '_', '.' or ':'",
            ));
        }
        if at.play.seeds.get(&by) == Some(&self.seed) {
            return Ok(Decision::nothing(()));
        }
        let seed = self.seed.clone();
        Ok(Decision::table(
            vec![TableEvent::SeedAdded { by, seed }],
            Vec::new(),
        ))
    }
}
