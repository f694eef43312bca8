//! The integration tests of m3go, one test binary: one module per concern (each was its own
//! file under tests/, and its own binary linking the whole library, before). The harness-less
//! conformance runner (tests/conformance.rs), the exhaustive 3x3 check run in release
//! (tests/exhaustive.rs) and the page in headless Chromium (tests/browser.rs, feature
//! `browser`) stay separate targets. Data the tests read stays where it was (tests/bad_input/,
//! tests/perft/), named from CARGO_MANIFEST_DIR.

mod advance;
mod analysis_json;
mod bad_input;
mod bom;
mod cli;
mod common;
mod contract;
mod diff;
mod engine_choice;
mod errors;
mod fast_analysis_rules;
mod fast_equals_reference;
mod labels;
mod notation_forms;
mod numbers;
mod outputs;
mod partial_support;
mod perft;
mod presets;
mod properties;
mod protocol_contract;
mod readings;
mod records;
mod replay_many;
mod reports;
mod roundtrips;
mod rules_md;
mod schema;
mod serve_api;
mod serve_load;
mod shards;

/// CI sets M3GO_BROWSER_REQUIRED=1 to make the page test fail, not skip, without a browser; the
/// page test exists only with the feature `browser`, so a run that sets it without the feature
/// fails here instead of leaving the page untested.
#[test]
fn browser_test_is_built_when_it_is_required() {
    let required = std::env::var("M3GO_BROWSER_REQUIRED").as_deref() == Ok("1");
    let built = cfg!(feature = "browser");
    assert!(
        built || !required,
        "M3GO_BROWSER_REQUIRED=1, but the page test (tests/browser.rs) is built only with the \
         feature `browser`: run cargo test --features browser"
    );
}
