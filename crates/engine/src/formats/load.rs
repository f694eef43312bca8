//! Reading a record file whatever its format: SGF or a move-number game file, told apart by the
//! content.

use crate::formats::record::{ReadText, Record, StartFiles};
use crate::game::setup::InputError;

impl Record {
    /// Whether a text looks like SGF (its first non-blank character is `(`).
    pub fn looks_like_sgf(text: &str) -> bool {
        text.trim_start().starts_with('(')
    }

    /// Parses a record file's text, SGF or game file (by its content); `path` names it in
    /// messages, and its folder is where a game file's header finds its position file, whose
    /// text `read` gives (the engine reads no file).
    pub fn parse(text: &str, path: &str, read: &ReadText) -> Result<Record, InputError> {
        let dir = std::path::Path::new(path)
            .parent()
            .map(|d| d.to_string_lossy().into_owned())
            .unwrap_or_default();
        parse_with(text, path, StartFiles::In(&dir, read))
    }

    /// Parses a record's text that was sent rather than read from a file (a server request):
    /// `place` names it in messages, and a game file's `position:` header is refused, in any
    /// spelling the header reader accepts — no file is read.
    pub fn parse_sent(text: &str, place: &str) -> Result<Record, InputError> {
        parse_with(text, place, StartFiles::Refused)
    }
}

fn parse_with(text: &str, place: &str, files: StartFiles) -> Result<Record, InputError> {
    let text = crate::game::setup::without_bom(text);
    if Record::looks_like_sgf(text) {
        crate::formats::sgf::parse_record(text, place)
    } else {
        crate::formats::record::parse_game_text_with(text, place, files)
    }
}
