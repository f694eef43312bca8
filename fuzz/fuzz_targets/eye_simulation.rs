//! The engine's private-eye verdicts (closed regions, conditions 1 and 2, the closed form of the
//! fill simulation) against the literal oracle, which fills opponent stones into every subset of
//! a region's empty points (m3go_engine::testing::literal_private_eyes), on regions small enough for
//! that to be cheap (FUZZ_LITERAL_MAX_EMPTY empty points; larger regions are left to the
//! engine-only target `eye_engine`).
#![no_main]

use libfuzzer_sys::fuzz_target;
// The engine crate alone (m3go-engine), not the root crate m3go: the eye code and its oracle.
use m3go_engine::testing::{compare_eyes_with_oracle, ArbEyeCase, FUZZ_LITERAL_MAX_EMPTY};

fuzz_target!(|case: ArbEyeCase| {
    if let Err(e) =
        compare_eyes_with_oracle(&case.board, case.closed_region, FUZZ_LITERAL_MAX_EMPTY)
    {
        panic!("{e}");
    }
});
