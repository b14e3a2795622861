//! A game under way written back as a [`Setup`]: the names, target, limit, round and scores,
//! without the hands of the round in progress, the same for every viewer.

use crate::setup::Setup;
use crate::state::State;

/// The position of `state`.
pub(crate) fn position(state: &State) -> Option<Setup> {
    Some(Setup {
        names: state.names.clone(),
        target: state.target,
        round_limit: state.round_limit,
        round: state.round,
        scores: state.scores,
    })
}
