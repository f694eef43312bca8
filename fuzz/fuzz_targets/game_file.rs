//! Game files (move-number notation): reading any text never panics; every refusal names the
//! file; a record that reads is written back as a game file and as SGF and reads back to the
//! same moves and game information; its first moves replay without a panic. A `position:`
//! header is resolved in fuzz/ (absolute paths such as `/dev/zero` included: reads are bounded).
#![no_main]

use libfuzzer_sys::fuzz_target;
use m3go_engine::formats::record::Record;
use m3go_engine::formats::sgf::parse_record;
use m3go_engine::testing::{record_info_but_komi, same_record_moves};
use m3go_engine::Labels;

/// Moves replayed per input.
const REPLAYED: u32 = 120;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let record = match Record::parse_game_text(text, "fuzz.txt", m3go_engine::formats::record::StartFiles::Refused) {
        Ok(r) => r,
        Err(e) => {
            assert!(
                e.to_string().starts_with("fuzz.txt"),
                "error without its file: {e}"
            );
            return;
        }
    };
    let Ok(rules) = record.resolve_rules(None) else {
        return;
    };
    let to = Some(record.first_move.saturating_add(REPLAYED));
    let _ = m3go::tools::replay::strict(&record, &rules, to, m3go_engine::Engine::Fast);
    if record.start.is_some() {
        return;
    }
    let game = record
        .to_game_text(&rules, Labels::Latin)
        .unwrap_or_else(|e| panic!("cannot write a game file: {e}"));
    let back = Record::parse_game_text(&game, "back.txt", m3go_engine::formats::record::StartFiles::Refused)
        .unwrap_or_else(|e| panic!("written game file does not read back: {e}\n{game}"));
    assert!(same_record_moves(&record, &back), "moves differ:\n{game}");
    assert_eq!(
        record_info_but_komi(&record),
        record_info_but_komi(&back),
        "game information differs:\n{game}"
    );
    let sgf = record
        .to_sgf(&rules)
        .unwrap_or_else(|e| panic!("cannot write: {e}"));
    let back = parse_record(&sgf, "back.sgf")
        .unwrap_or_else(|e| panic!("written SGF does not read back: {e}\n{sgf}"));
    assert!(same_record_moves(&record, &back), "moves differ:\n{sgf}");
});
