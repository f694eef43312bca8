//! Position files: reading any text as YAML never panics; every refusal is an InputError that
//! names the source; a position that loads analyses, scores and round-trips.
#![no_main]

use libfuzzer_sys::fuzz_target;
use m3go_engine::game::from_yaml;
use m3go_engine::testing::{check_round_trips, check_settled};
use m3go_engine::{Analysis, Setup};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let setup: Setup = match from_yaml(text, "fuzz.yaml") {
        Ok(s) => s,
        Err(e) => {
            assert!(
                e.place.file.as_deref() == Some("fuzz.yaml")
                    && e.to_string().starts_with("fuzz.yaml"),
                "error without its place: {e}"
            );
            return;
        }
    };
    match setup.to_position("fuzz.yaml") {
        Err(e) => assert!(
            e.place == "fuzz.yaml"
                && !e.problems.is_empty()
                && e.to_string().starts_with("fuzz.yaml: "),
            "error without its place or its problems: {e}"
        ),
        Ok(pos) => {
            let _ = Analysis::new(pos.board(), pos.rules());
            let _ = m3go_engine::Score::of_board(pos.board(), pos.rules(), pos.dead());
            if let Err(e) = check_settled(&pos) {
                panic!("a loaded position is not settled: {e}");
            }
            if let Err(e) = check_round_trips(&pos) {
                panic!("{e}");
            }
        }
    }
});
