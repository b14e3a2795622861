//! The review of a finished game: every decision judged by the strong bot's search, the luck
//! of every combat weighed against every result of its dice.

use clash_analysis::review::hook;
use clash_analysis::review::play::play;
use clash_core::Strength;
use std::time::{Duration, Instant};
use triforce::{Setup, Triforce};

#[test]
fn a_short_game_is_reviewed_whole() {
    let mut setup = Setup::new(3);
    setup.turn_limit = Some(9);
    let record = play::<Triforce>(&setup, &[], Strength::Strong, 60, 4, 400).unwrap();
    let started = Instant::now();
    let mut reviewer = hook::<Triforce>(&record).unwrap();
    while !reviewer.work(Instant::now() + Duration::from_millis(200)) {}
    let review = reviewer.review();
    eprintln!("{} steps in {:?}", record.steps.len(), started.elapsed());
    eprintln!("{}", serde_json::to_string_pretty(&review.players).unwrap());
    eprintln!("{:?}", review.conflicts[0].summary);
    eprintln!("{:?}", review.unevaluated);
    assert!(review.progress.done);
}
