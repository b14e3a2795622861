//! The integration tests of this crate, as one test binary: each module was a test file of
//! its own (one binary each); the shared helpers are modules too.

mod common;

mod analysis;
mod examples;
mod laws;
mod limits;
mod odds_spec;
mod position;
mod properties;
mod review;
mod rules;
mod text;
mod types;
mod variant;
mod vectors;
