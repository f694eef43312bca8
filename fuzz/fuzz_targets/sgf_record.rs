//! SGF records: reading any text never panics; every refusal names the file; a record that
//! reads is written back as SGF and as a game file, and reads back to the same moves and game
//! information; its first moves replay strictly and mechanically without a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use m3go_engine::formats::record::Record;
use m3go_engine::formats::sgf::parse_record;
use m3go_engine::testing::{record_info_but_komi, same_record_moves};
use m3go_engine::{Labels, Rules};

/// Moves replayed per input (a whole 19×19 record would make every run slow).
const REPLAYED: u32 = 120;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let record = match parse_record(text, "fuzz.sgf") {
        Ok(r) => r,
        Err(e) => {
            assert!(
                e.to_string().starts_with("fuzz.sgf"),
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
    let _ = m3go::tools::replay::mechanical(
        &record,
        &Rules::m3go_2020(),
        to,
        m3go_engine::Engine::Fast,
    );
    let sgf = record
        .to_sgf(&rules)
        .unwrap_or_else(|e| panic!("cannot write: {e}"));
    let back = parse_record(&sgf, "back.sgf")
        .unwrap_or_else(|e| panic!("written SGF does not read back: {e}\n{sgf}"));
    assert!(same_record_moves(&record, &back), "moves differ:\n{sgf}");
    assert_eq!(
        record_info_but_komi(&record),
        record_info_but_komi(&back),
        "game information differs:\n{sgf}"
    );
    assert_eq!(record.size, back.size);
    let again = back
        .resolve_rules(None)
        .unwrap_or_else(|e| panic!("written rules do not resolve: {e}\n{sgf}"));
    assert_eq!(again.komi, rules.komi, "komi differs:\n{sgf}");
    if record.start.is_none() {
        let game = record
            .to_game_text(&rules, Labels::Chinese)
            .unwrap_or_else(|e| panic!("cannot write a game file: {e}"));
        let back = Record::parse_game_text(&game, "back.txt", m3go_engine::formats::record::StartFiles::Refused)
            .unwrap_or_else(|e| panic!("written game file does not read back: {e}\n{game}"));
        assert!(same_record_moves(&record, &back), "moves differ:\n{game}");
        assert_eq!(
            record_info_but_komi(&record),
            record_info_but_komi(&back),
            "game information differs:\n{game}"
        );
    }
});
