//! The `clash` subcommands of the games whose analysis still lives in this crate (moving into
//! each game's own crate).

pub mod iron;
