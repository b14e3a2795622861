//! The integration tests of this crate, as one test binary.

mod analysis;
mod laws;
mod rules;
mod types;
