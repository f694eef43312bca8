//! Reading a record file whatever its format: SGF or a move-number game file, told apart by the
//! content.

use crate::formats::record::Record;
use crate::game::setup::InputError;

/// Whether a text looks like SGF (its first non-blank character is `(`).
pub fn looks_like_sgf(text: &str) -> bool {
    text.trim_start().starts_with('(')
}

/// Reads a record file, SGF or game file (by its content).
pub fn load(path: &str) -> Result<Record, InputError> {
    parse(&crate::game::setup::read_text(path)?, path)
}

/// Parses a record's text, SGF or game file (by its content); `path` names it in messages (and
/// its folder is where a game file's header finds its position file).
pub fn parse(text: &str, path: &str) -> Result<Record, InputError> {
    let text = text.to_string();
    if looks_like_sgf(&text) {
        crate::formats::sgf::parse_record(&text, path)
    } else {
        let dir = std::path::Path::new(path)
            .parent()
            .map(|d| d.to_string_lossy().into_owned())
            .unwrap_or_default();
        crate::formats::record::parse_game_text(&text, path, &dir)
    }
}
