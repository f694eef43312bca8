//! The game-file header reader (`formats::record::header_line`, `game_lines`), the one reading
//! of a header line that both the game-file reader and the server's refusal of `position:` use:
//! a header key is one word of ASCII letters, digits, `-` and `_`; the same text read from disk
//! (a `position:` header names a file in a folder that holds none) and as sent to the server (a
//! `position:` header refused, nothing read) agree but for that header; no line handed on holds
//! a line end, so no message carries a raw CR.
#![no_main]

use libfuzzer_sys::fuzz_target;
use m3go_engine::formats::record::{game_lines, header_line, parse_game_text_with, StartFiles};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let mut names_a_file = false;
    for line in game_lines(text) {
        assert!(
            !line.contains(['\n', '\r']),
            "a line with a line end: {line:?}"
        );
        if let Some((k, v)) = header_line(line.trim_start()) {
            assert!(!k.is_empty(), "an empty key: {line:?}");
            assert!(
                k.chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_'),
                "key {k:?} of {line:?}"
            );
            assert!(line.ends_with(v), "value {v:?} not the end of {line:?}");
            names_a_file |= k == "position";
        }
    }
    // the lines, each ended by `\n`, read back to the same lines
    let joined: String = game_lines(text).map(|l| format!("{l}\n")).collect();
    assert!(
        game_lines(&joined).eq(game_lines(text)),
        "{text:?} reads back as other lines"
    );
    // no file can be read from this folder: an empty one of the fuzzer's own
    let empty = std::env::temp_dir().join("m3go-fuzz-empty");
    let _ = std::fs::create_dir_all(&empty);
    let on_disk = parse_game_text_with(text, "g.txt", StartFiles::In(&empty.to_string_lossy(), &m3go::input::read_text));
    let sent = parse_game_text_with(text, "g.txt", StartFiles::Refused);
    for r in [&on_disk, &sent] {
        if let Err(e) = r {
            let m = e.to_string();
            assert!(m.starts_with("g.txt"), "a message without its file: {m}");
            if !text.contains("\\r") {
                assert!(!m.contains('\r'), "a raw CR in {m:?}");
            }
        }
    }
    match (&on_disk, &sent) {
        (Ok(a), Ok(b)) => assert_eq!(a, b, "{text:?}"),
        (Err(a), Err(b)) if !names_a_file => assert_eq!(a.to_string(), b.to_string()),
        (Ok(_), Err(e)) => assert!(names_a_file, "refused as sent only: {e}"),
        (Err(_), Ok(_)) => panic!("read as sent but not from disk: {text:?}"),
        (Err(_), Err(_)) => {}
    }
});
