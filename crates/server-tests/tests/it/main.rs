//! The table server's tests, in one binary: each module covers one part of the server through
//! its HTTP API or its library, with the sealed-duel test ruleset (`common`) and Clash's real
//! games.

/// The server crate's directory, for tests that read its sources and assets.
pub const SERVER: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../clash-server");

#[path = "common/client.rs"]
#[allow(dead_code)]
mod client;
mod common;
#[path = "common/conformance.rs"]
mod conformance;
#[path = "common/sinks.rs"]
#[allow(dead_code)]
mod sinks;
#[path = "common/wire.rs"]
#[allow(dead_code)]
mod wire;

mod abuse;
mod bots;
mod clock;
mod cross_site;
mod delivery;
mod email;
mod final_record;
mod holding;
mod http;
mod notify;
mod notify_content;
mod notify_secrecy;
mod notify_storage;
mod odds;
mod operate;
mod page_text;
mod page_types;
mod panels;
mod paths;
mod readable;
mod requests;
mod review;
mod room;
mod rules;
mod secrecy;
mod session_zero;
mod storage;
mod trust;
mod types;
mod verification_doc;
mod verify_page;
mod whole_record;
mod workbench;
