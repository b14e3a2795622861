//! The integration tests of this crate, as one test binary: each module was a test file of
//! its own (one binary each); the shared helpers are modules too.

mod common;

mod actions;
mod analysis;
mod combat;
mod examples;
mod laws;
mod position;
mod properties;
mod review;
mod setup;
mod text;
mod types;
mod variant;
mod winning;
