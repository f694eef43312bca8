//! Engine only, large regions: on arbitrary boards of every size up to 19×19, the
//! clause-by-clause private eyes (m3go_engine::testing::reference_eye_verdicts: the judgement of every
//! string's closed regions, as Analysis::new makes it) against the fast engine's closed form per
//! component, string by string, with the shape of every closed region checked
//! (m3go_engine::testing::compare_eyes_with_fast). No literal oracle: its every-subset fill is for
//! small regions (the `eye_simulation` target). Most of an execution is the reference
//! judgement itself (every string floods its closed regions: strings × board).
#![no_main]

use libfuzzer_sys::fuzz_target;
use m3go_engine::testing::{compare_eyes_with_fast, ArbLargeEyeCase};

fuzz_target!(|case: ArbLargeEyeCase| {
    if let Err(e) = compare_eyes_with_fast(&case.board) {
        panic!("{e}");
    }
});
