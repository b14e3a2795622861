//! The integration tests of this crate, as one test binary: each module was a test file of
//! its own (one binary each); the shared helpers are modules too.

mod campaign_support;
mod conflict_support;

mod analysis;
mod campaign_backgrounds;
mod campaign_countdowns;
mod campaign_creation;
mod campaign_examples;
mod campaign_level_up;
mod campaign_problems;
mod campaign_properties;
mod campaign_replacement;
mod campaign_rest;
mod campaign_veto;
mod conflict_piles_and_chains;
mod conflict_properties;
mod conflict_rules;
mod conflict_specials;
mod conflict_vectors;
mod examples;
mod laws;
mod limits;
mod position;
mod review;
mod status;
mod text;
mod types;
mod variant;
