//! The integration tests of this crate, as one test binary: each module was a test file of
//! its own (one binary each); the shared helpers are modules too.

mod common;

mod analyse;
mod closed_pipe;
mod db;
mod nodes;
mod refusals;
mod retry;
mod review;
mod run;
mod solve;
mod verify;
