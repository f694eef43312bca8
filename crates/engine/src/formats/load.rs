//! Reading a record file whatever its format: SGF or a move-number game file, told apart by the
//! content.

use crate::formats::record::{Record, StartFiles};
use crate::game::setup::InputError;

impl Record {
    /// Whether a text looks like SGF (its first non-blank character is `(`).
    pub fn looks_like_sgf(text: &str) -> bool {
        text.trim_start().starts_with('(')
    }

    /// Reads a record file, SGF or game file (by its content).
    pub fn load(path: &str) -> Result<Record, InputError> {
        Self::parse(&crate::game::setup::read_text(path)?, path)
    }

    /// Parses a record's text, SGF or game file (by its content); `path` names it in messages (and
    /// its folder is where a game file's header finds its position file).
    ///
    /// ```
    /// use m3go_engine::formats::record::Record;
    ///
    /// // a game file: a header, then the moves in order, a point each
    /// let game = Record::parse("size: 5\nBB 二二 一二", "game.txt")?;
    /// assert_eq!(game.moves.len(), 3);
    ///
    /// // an SGF record: told apart by its first character
    /// let sgf = Record::parse("(;GM[1]FF[4]SZ[5];B[cc];W[bb])", "game.sgf")?;
    /// assert_eq!(sgf.moves.len(), 2);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn parse(text: &str, path: &str) -> Result<Record, InputError> {
        let dir = std::path::Path::new(path)
            .parent()
            .map(|d| d.to_string_lossy().into_owned())
            .unwrap_or_default();
        parse_with(text, path, StartFiles::In(&dir))
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
