//! The protocol, one request per input: any bytes as one request line get one line of JSON, an
//! answer that echoes the request's id or says `"error"`; never a panic, never a hang.
#![no_main]

use libfuzzer_sys::fuzz_target;
use m3go::cli::protocol::answer_line;

fuzz_target!(|data: &[u8]| {
    let text = answer_line(
        data,
        &m3go::conform::capabilities::Capabilities::m3go(),
        m3go_engine::Engine::Fast,
    );
    assert!(!text.contains('\n'), "an answer is one line");
    let ans: serde_json::Value = serde_json::from_str(&text).expect("the answer line is JSON");
    assert!(ans.is_object(), "not an object: {ans}");
    assert!(
        ans.get("error").is_some() || ans.get("analysis").is_some(),
        "neither an analysis nor an error: {ans}"
    );
});
