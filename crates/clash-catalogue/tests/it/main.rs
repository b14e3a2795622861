//! The integration tests of this crate, as one test binary: each module was a test file of
//! its own (one binary each); the shared helpers are modules too.

mod bots_after_session_zero;
mod fair_bots;
