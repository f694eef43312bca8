//! The integration tests of m3go, one test binary: one module per concern (each was its own
//! file under tests/, and its own binary linking the whole library, before). The harness-less
//! conformance runner (tests/conformance.rs), the exhaustive 3x3 check run in release
//! (tests/exhaustive.rs) and the page in headless Chromium (tests/browser.rs, its own harness)
//! stay separate targets. Data the tests read stays where it was (tests/bad_input/,
//! tests/perft/), named from CARGO_MANIFEST_DIR.

mod advance;
mod analysis_json;
mod bad_input;
mod bom;
mod ci_templates;
mod cli;
mod common;
mod concepts2016_props;
mod contract;
mod diff;
mod diff_declines;
mod docs;
mod engine_choice;
mod errors;
mod fast_analysis_rules;
mod fast_equals_reference;
mod frozen_contract;
mod golden_outputs;
mod gtp;
mod hostile_match;
mod install;
mod json_outputs;
mod labels;
mod layers_errors;
mod layout;
mod match_merge;
mod match_watch;
mod matches;
mod notation_forms;
mod numbers;
mod one_position;
mod output_safety;
mod outputs;
mod package;
mod page_modules;
mod partial_support;
mod perft;
mod player_bounds;
mod presets;
mod properties;
mod protocol_contract;
mod public_api;
mod readings;
mod readme;
mod records;
mod replay_many;
mod replay_save;
mod reports;
mod roundtrips;
mod rules_md;
mod schema;
mod serve_api;
mod serve_load;
mod shards;
mod small_findings;
mod small_findings_53;
mod special_inputs;
mod typed_ring;
