//! The game file (spec/README.md, "Game files"; D3-NOTATION): its header lines and moves read
//! into a [`Record`] ([`Record::parse_game_text`]), and a record written back as one
//! ([`Record::to_game_text`]).

use super::{
    format_move_labels, reconcile_komi, rules_header, Dropped, Record, RecordMove, MAX_FIRST_MOVE,
};
use crate::board::coord::Labels;
use crate::game::moves::Move;
use crate::game::order::Turn;
use crate::game::play::Action;
use crate::game::setup::{from_yaml, parse_yaml, InputError, Place, Setup, MAX_FILE_BYTES};
use crate::rules::{Rules, RulesField};
use std::fmt::Write as _;

impl Record {
    /// Writes the record as a game file (spec/README.md, "Game files"), ten moves a line.
    /// Turns the record does not name come from `rules`' schedule.
    pub fn to_game_text(&self, rules: &Rules, labels: Labels) -> Result<String, InputError> {
        if self.start.is_some() && self.start_path.is_none() {
            return Err(InputError::new(
                "this record starts from a set-up position, which a game file names by path \
                 (`position:`): write it as SGF instead",
            ));
        }
        let mut o = String::new();
        o.push_str("# m3go game record (spec/README.md, \"Game files\")\n");
        let _ = writeln!(o, "rules: {}", rules_header(rules)?);
        let _ = writeln!(o, "size: {}", self.size);
        if self.first_move != 1 {
            let _ = writeln!(o, "move: {}", self.first_move);
        }
        if let Some(p) = &self.start_path {
            let _ = writeln!(o, "position: {p}");
        }
        for (k, v) in &self.info {
            // the komi is the rules' (written once, in `rules:`)
            if k != "komi" {
                let _ = writeln!(o, "{k}: {}", write_header_value(v));
            }
        }
        let mut line = Vec::new();
        for m in &self.moves {
            let turn = m.claimed.unwrap_or_else(|| Turn::of_move(rules, m.number));
            let mut t = format_move_labels(turn, m.number, m.action, labels);
            if m.replaced {
                t.push_str(crate::game::Written::REPLACED);
            }
            if let Some(c) = &m.comment {
                t.push(' ');
                t.push_str(&write_comment(c));
            }
            line.push(t);
            if m.number % 10 == 0 {
                o.push_str(&line.join(" "));
                o.push('\n');
                line.clear();
            }
        }
        if !line.is_empty() {
            o.push_str(&line.join(" "));
            o.push('\n');
        }
        Ok(o)
    }
}

/// Separators between moves in a game file: white space, and the commas, semicolons and
/// enumeration commas of pasted Chinese text.
fn is_separator(c: char) -> bool {
    c.is_whitespace() || matches!(c, ',' | ';' | '，' | '；' | '、' | '。')
}

/// A game-file header line `key: value`: the one reading of a header line, for the game-file
/// reader and for every check of what a header names (the server's refusal of `position:`).
/// A line is a header line when the text before its first `:` is one word of ASCII letters,
/// digits, `-` and `_`, with white space of any kind (tab, full-width space…) around it: the key
/// is that word as written (`position : x`, `position\t: x` and `Position: x` are the header
/// lines `position`, `position` and `Position`; a key m3go does not know is an error, never a
/// move). A move, a `{…}` comment or a `#` comment never has such a word before a `:`. `line` is
/// the whole line, comments included (a quoted value may hold `#`); the value is what follows
/// the `:`.
#[cfg_attr(feature = "testing", visibility::make(pub))]
pub(crate) fn header_line(line: &str) -> Option<(&str, &str)> {
    let (k, v) = line.split_once(':')?;
    let k = k.trim();
    let is_key_char = |c: char| c.is_ascii_alphanumeric() || c == '-' || c == '_';
    if !k.is_empty() && k.chars().all(is_key_char) {
        Some((k, v))
    } else {
        None
    }
}

/// The lines of a game file, each ended by `\n`, `\r\n` or a lone `\r` (a file saved with
/// classic Mac line ends reads line by line, and no raw CR reaches a message).
#[cfg_attr(feature = "testing", visibility::make(pub))]
pub(crate) fn game_lines(text: &str) -> impl Iterator<Item = &str> {
    let mut rest = text;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let end = rest.find(['\n', '\r']).unwrap_or(rest.len());
        let line = &rest[..end];
        let ending = if rest[end..].starts_with("\r\n") {
            2
        } else {
            usize::from(end < rest.len())
        };
        rest = &rest[end + ending..];
        Some(line)
    })
}

/// The reader of the file a `position:` header names: its text, or the error that says why it
/// cannot be had (of kind [`Unreadable`](crate::error::ErrorKind::Unreadable), naming the file).
/// The engine reads no file: the caller gives the reader (the `m3go` crate reads files within
/// the bounds of every input).
pub type ReadText = dyn Fn(&str) -> Result<String, InputError>;

/// Whether a game file may name a start position file (`position:`): a file read from disk may
/// (the path is resolved in a folder and read by the caller's reader), a text sent from elsewhere
/// (a server request) may not.
#[derive(Clone, Copy)]
pub enum StartFiles<'a> {
    /// A `position:` header names a file in this folder, whose text the reader gives.
    In(&'a str, &'a ReadText),
    /// A `position:` header is refused: nothing is read.
    Refused,
}

impl std::fmt::Debug for StartFiles<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StartFiles::In(dir, _) => f.debug_tuple("In").field(dir).finish_non_exhaustive(),
            StartFiles::Refused => f.write_str("Refused"),
        }
    }
}

/// The message of a `position:` header in a text that may not name a file ([`StartFiles::Refused`]).
pub(crate) const START_FILE_REFUSED: &str = "a game file sent to the server may not name a start \
     position file (`position:`): expected a record from the empty board, or an SGF with its \
     set-up";

/// A header value as written after `key:`: a JSON string (`"Cup #5"`, with `\n` and `\"`
/// escapes) followed by nothing but a `#` comment, or plain text up to a `#` comment, trimmed.
fn header_value(raw: &str) -> Result<String, HeaderValueError> {
    let t = raw.trim_start();
    if t.starts_with('"') {
        let mut it = serde_json::Deserializer::from_str(t).into_iter::<String>();
        let v = match it.next() {
            Some(Ok(v)) => v,
            _ => return Err(HeaderValueError::Unclosed),
        };
        let rest = t[it.byte_offset()..].trim_start();
        if !(rest.is_empty() || rest.starts_with('#')) {
            return Err(HeaderValueError::TextAfter(rest.to_owned()));
        }
        return Ok(v);
    }
    Ok(t.split('#').next().unwrap_or("").trim().to_string())
}

/// Why a header value does not read ([`header_value`]).
#[derive(Debug)]
enum HeaderValueError {
    /// A quoted value without its closing quote.
    Unclosed,
    /// Text (not a comment) after a quoted value.
    TextAfter(String),
}

impl std::fmt::Display for HeaderValueError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            HeaderValueError::Unclosed => {
                f.write_str("the quoted value does not end: expected a JSON string `\"…\"`")
            }
            HeaderValueError::TextAfter(rest) => write!(
                f,
                "text `{}` after the quoted value: expected a `#` comment or nothing",
                crate::error::InputError::quote(rest)
            ),
        }
    }
}

impl std::error::Error for HeaderValueError {}

/// As a bad input, with this error's message.
impl From<HeaderValueError> for crate::error::InputError {
    fn from(e: HeaderValueError) -> Self {
        crate::error::InputError::new(e.to_string())
    }
}

/// A header value as a game file writes it: plain when it reads back the same, else quoted as
/// a JSON string.
fn write_header_value(v: &str) -> String {
    let plain = !v.is_empty()
        && v.trim() == v
        && !v.starts_with('"')
        && !v.contains('#')
        && !v.chars().any(char::is_control);
    if plain {
        v.to_string()
    } else {
        serde_json::Value::String(v.to_string()).to_string()
    }
}

/// A move comment as a game file writes it: `{…}` with `\`, `}` and line breaks escaped.
fn write_comment(c: &str) -> String {
    let mut o = String::from("{");
    for ch in c.chars() {
        match ch {
            '\\' => o.push_str("\\\\"),
            '}' => o.push_str("\\}"),
            '\n' => o.push_str("\\n"),
            '\r' => o.push_str("\\r"),
            c => o.push(c),
        }
    }
    o.push('}');
    o
}

/// What a line of moves holds: move tokens and `{…}` comments, in order.
enum Piece {
    Token(String),
    Comment(String),
}

/// Why a line of moves does not split ([`move_pieces`]).
#[derive(Debug)]
enum PieceError {
    /// A `\` in a comment followed by something other than `\`, `}`, `n` or `r` (or by
    /// nothing).
    BadEscape(Option<char>),
    /// A `{` comment not closed on its line.
    UnclosedComment,
}

impl std::fmt::Display for PieceError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PieceError::BadEscape(other) => write!(
                f,
                "`\\{}` in a comment: expected `\\\\`, `\\}}`, `\\n` or `\\r`",
                other.map(String::from).unwrap_or_default()
            ),
            PieceError::UnclosedComment => {
                f.write_str("the comment `{` is not closed on its line: expected `}`")
            }
        }
    }
}

impl std::error::Error for PieceError {}

/// As a bad input, with this error's message.
impl From<PieceError> for crate::error::InputError {
    fn from(e: PieceError) -> Self {
        crate::error::InputError::new(e.to_string())
    }
}

/// Splits a line of moves into tokens and comments; `#` outside a comment ends the line.
fn move_pieces(line: &str) -> Result<Vec<Piece>, PieceError> {
    let mut out = Vec::new();
    let mut token = String::new();
    let mut chars = line.chars();
    let flush = |token: &mut String, out: &mut Vec<Piece>| {
        if !token.is_empty() {
            out.push(Piece::Token(std::mem::take(token)));
        }
    };
    while let Some(c) = chars.next() {
        match c {
            '#' => break,
            '{' => {
                flush(&mut token, &mut out);
                let mut comment = String::new();
                let mut closed = false;
                while let Some(c) = chars.next() {
                    match c {
                        '}' => {
                            closed = true;
                            break;
                        }
                        '\\' => match chars.next() {
                            Some('n') => comment.push('\n'),
                            Some('r') => comment.push('\r'),
                            Some(c @ ('\\' | '}')) => comment.push(c),
                            other => return Err(PieceError::BadEscape(other)),
                        },
                        c => comment.push(c),
                    }
                }
                if !closed {
                    return Err(PieceError::UnclosedComment);
                }
                out.push(Piece::Comment(comment));
            }
            c if is_separator(c) => flush(&mut token, &mut out),
            c => token.push(c),
        }
    }
    flush(&mut token, &mut out);
    Ok(out)
}

impl Record {
    /// Reads a game file. `place` names the file in messages; `files` says where a `position:`
    /// header's path is resolved and who reads it, or that none may be named. A header key given
    /// twice is an error (as in YAML).
    pub fn parse_game_text(
        text: &str,
        place: &str,
        files: StartFiles,
    ) -> Result<Record, InputError> {
        parse_game_text_with(text, place, files)
    }
}

/// [`Record::parse_game_text`], with `files` saying whether a `position:` header may name a file (for
/// a text sent to the server it may not: [`StartFiles::Refused`], and no file is read).
#[cfg_attr(feature = "testing", visibility::make(pub))]
pub(crate) fn parse_game_text_with(
    text: &str,
    place: &str,
    files: StartFiles,
) -> Result<Record, InputError> {
    if text.len() > MAX_FILE_BYTES {
        return Err(
            InputError::new(format!("{} bytes is too large", text.len()))
                .file(place)
                .expected(format!("at most {MAX_FILE_BYTES} bytes")),
        );
    }
    let (mut header, tokens) = read_lines(text, place, files)?;
    header.take_start_defaults(place)?;
    let Header {
        rules,
        size,
        first_move,
        start,
        start_path,
        start_place,
        mut info,
        ..
    } = header;
    reconcile_komi(&mut info, rules.as_ref(), "komi").map_err(|e| e.file(place))?;
    let size = size.unwrap_or(19);
    let first = first_move.unwrap_or(1);
    check_move_count(&tokens, place, size, first)?;
    let moves = read_moves(tokens, place, size, first)?;
    Ok(Record {
        rules,
        size,
        start,
        start_path,
        start_place,
        first_move: first,
        info,
        moves,
        dropped: Dropped::default(),
    })
}

/// A move token of a game file: its line, the token, and the comment after it.
type Token = (usize, String, Option<String>);

/// What a game file's header lines said so far.
#[derive(Default)]
struct Header {
    rules: Option<RulesField>,
    size: Option<usize>,
    first_move: Option<u32>,
    start: Option<Setup>,
    start_path: Option<String>,
    start_place: Option<String>,
    info: Vec<(String, String)>,
    /// The keys given, with their line (a key given twice is an error).
    seen: Vec<(String, usize)>,
}

/// Reads the lines of a game file: the header lines into a [`Header`], the move lines into
/// tokens with their comments.
fn read_lines(
    text: &str,
    place: &str,
    files: StartFiles,
) -> Result<(Header, Vec<Token>), InputError> {
    let mut header = Header::default();
    let mut in_moves = false;
    let mut tokens: Vec<Token> = Vec::new();
    for (ln, raw) in game_lines(text).enumerate() {
        let ln = ln + 1;
        let bare = raw.split('#').next().unwrap_or("").trim();
        if bare.is_empty() && !raw.contains('{') {
            continue;
        }
        if let Some((k, v)) = header_line(raw.trim_start()).filter(|_| !bare.is_empty()) {
            if in_moves {
                return Err(InputError::new(format!(
                    "header line `{k}:` after the moves: the header comes first"
                ))
                .file(place)
                .line(ln));
            }
            header.read(k, v, place, ln, files)?;
            continue;
        }
        let pieces = move_pieces(raw).map_err(|e| InputError::from(e).file(place).line(ln))?;
        in_moves |= !pieces.is_empty();
        push_pieces(&mut tokens, pieces, place, ln)?;
    }
    Ok((header, tokens))
}

/// Adds the pieces of a move line to the tokens: a comment goes to the move before it.
fn push_pieces(
    tokens: &mut Vec<Token>,
    pieces: Vec<Piece>,
    place: &str,
    ln: usize,
) -> Result<(), InputError> {
    for piece in pieces {
        match piece {
            Piece::Token(t) => tokens.push((ln, t, None)),
            Piece::Comment(c) => {
                match tokens.last_mut() {
                    Some((_, _, slot @ None)) => *slot = Some(c),
                    Some(_) => {
                        return Err(InputError::new(
                            "a second comment after one move: expected one `{…}` per move",
                        )
                        .file(place)
                        .line(ln))
                    }
                    None => return Err(InputError::new(
                        "a comment `{…}` before the first move: expected it in a `comment:` header",
                    )
                    .file(place)
                    .line(ln)),
                }
            }
        }
    }
    Ok(())
}

impl Header {
    /// Reads the header line `k: raw` (line `ln`).
    fn read(
        &mut self,
        k: &str,
        raw: &str,
        place: &str,
        ln: usize,
        files: StartFiles,
    ) -> Result<(), InputError> {
        let v = header_value(raw).map_err(|e| InputError::from(e).file(place).line(ln).key(k))?;
        if let Some((_, first)) = self.seen.iter().find(|(key, _)| key == k) {
            return Err(InputError::new(format!(
                "`{k}:` is given twice (first on line {first}): expected each header key once"
            ))
            .file(place)
            .line(ln));
        }
        self.seen.push((k.to_string(), ln));
        let bad = |what: &str| {
            InputError::new(what)
                .file(place)
                .line(ln)
                .key(k)
                .text(crate::error::InputError::quote(&v))
        };
        match k {
            "rules" => {
                let f: RulesField = parse_yaml(&v)
                    .map_err(|e| e.within(Place::default().file(place).line(ln).key("rules")))?;
                f.resolve().map_err(|e| bad(&e.to_string()))?;
                self.rules = Some(f);
            }
            "size" => {
                let n: usize = v
                    .parse()
                    .map_err(|_| bad("expected an odd board size, 3 to 19"))?;
                crate::board::grid::Board::check_size(n).map_err(|e| bad(&e.to_string()))?;
                self.size = Some(n);
            }
            "move" => {
                let n: u32 = v
                    .parse()
                    .ok()
                    .filter(|n| (1..=MAX_FIRST_MOVE).contains(n))
                    .ok_or_else(|| {
                        bad(&format!(
                            "expected the number of the first move (1 to {MAX_FIRST_MOVE})"
                        ))
                    })?;
                self.first_move = Some(n);
            }
            "position" => {
                let StartFiles::In(base_dir, read) = files else {
                    // the server reads no file a request names
                    return Err(InputError::new(START_FILE_REFUSED)
                        .file(place)
                        .line(ln)
                        .key(k));
                };
                let path = std::path::Path::new(base_dir).join(&v);
                let path = path.to_string_lossy().into_owned();
                let within = Place::default().file(place).line(ln).key("position");
                let t = read(&path).map_err(|e| e.within(within.clone()))?;
                let s: Setup = from_yaml(&t, &path).map_err(|e| e.within(within))?;
                self.start = Some(s);
                self.start_place = Some(format!("{place}: line {ln}: position: {path}"));
                self.start_path = Some(v.to_string());
            }
            _ if Record::INFO_KEYS.iter().any(|(key, _)| *key == k) => {
                self.info.push((k.to_string(), v.to_string()));
            }
            _ => {
                return Err(bad(&format!(
                    "unknown header key: expected rules, size, move, position, {}",
                    Record::INFO_KEYS.map(|(k, _)| k).join(", ")
                )))
            }
        }
        Ok(())
    }

    /// With a start position, its size, move number and rules are the defaults.
    fn take_start_defaults(&mut self, place: &str) -> Result<(), InputError> {
        let Some(s) = &self.start else {
            return Ok(());
        };
        let rows = s.diagram.lines().filter(|l| !l.trim().is_empty()).count();
        let n = s.size.unwrap_or(rows);
        if self.size.is_some_and(|m| m != n) {
            return Err(InputError::new(format!(
                "`size: {}` disagrees with the {n}x{n} start position",
                self.size.unwrap_or(0)
            ))
            .file(place));
        }
        self.size = Some(n);
        if self.first_move.is_none() {
            self.first_move = s.move_number;
        }
        if self.rules.is_none() {
            self.rules = Some(s.rules.clone());
        }
        Ok(())
    }
}

/// The record's length and the number of its last move are within m3go's limits.
fn check_move_count(
    tokens: &[Token],
    place: &str,
    size: usize,
    first: u32,
) -> Result<(), InputError> {
    if tokens.len() > crate::game::notation::Notation::max_moves(size) {
        return Err(InputError::new(format!(
            "{} moves: a {size}x{size} record is limited to {} moves",
            tokens.len(),
            crate::game::notation::Notation::max_moves(size)
        ))
        .file(place));
    }
    if let Some(last) = (first as usize + tokens.len()).checked_sub(1) {
        if !tokens.is_empty() {
            crate::game::notation::Notation::check_move_number(
                u32::try_from(last).unwrap_or(u32::MAX),
            )
            .map_err(|e| InputError::from(e).file(place))?;
        }
    }
    Ok(())
}

/// Reads the move tokens, numbered from `first`, into the record's moves.
fn read_moves(
    tokens: Vec<Token>,
    place: &str,
    size: usize,
    first: u32,
) -> Result<Vec<RecordMove>, InputError> {
    let mut moves = Vec::new();
    for (k, (ln, t, comment)) in tokens.into_iter().enumerate() {
        let expected = first + k as u32;
        let (written, replaced) = crate::game::notation::strip_replaced(&t);
        let m = Move::parse(written, size).map_err(|e| {
            InputError::from(e)
                .file(place)
                .line(ln)
                .move_number(expected)
        })?;
        if replaced && m.action == Action::Pass {
            return Err(InputError::new(format!(
                "`{}`: a pass cannot be replaced by a pass: expected a point before `=pass`",
                crate::error::InputError::quote(&t)
            ))
            .file(place)
            .line(ln)
            .move_number(expected));
        }
        if let Some(n) = m.number {
            if n != expected {
                return Err(InputError::new(format!(
                    "`{}` is numbered {n}, but it is move {expected} of the record (moves are \
                     numbered in order from {first})",
                    crate::error::InputError::quote(&t)
                ))
                .file(place)
                .line(ln));
            }
        }
        moves.push(RecordMove {
            number: expected,
            action: m.action,
            claimed: m.turn,
            place: format!("{place} line {ln}"),
            text: t,
            replaced,
            comment,
        });
    }
    Ok(moves)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::coord::Point;
    use crate::board::grid::Colour;
    use crate::game::order::StoneKind;
    use crate::game::order::Turn;

    #[test]
    fn d3_notation_game_file_reads_numbers_turns_and_both_label_systems() {
        let text = "rules: m3go-2020\nsize: 9\n黑1.B二 白2.A二\n3c 4d\n黑5.pass";
        let r = Record::parse_game_text(text, "t", crate::formats::record::StartFiles::Refused)
            .unwrap();
        assert_eq!(r.size, 9);
        assert_eq!(r.moves.len(), 5);
        assert_eq!(r.moves[0].action, Action::Place(Point::new(-2, 2)));
        assert_eq!(r.moves[2].action, Action::Place(Point::new(3, -3)));
        assert_eq!(r.moves[2].claimed, None);
        assert_eq!(
            r.moves[1].claimed,
            Some(Turn {
                player: Colour::White,
                kind: StoneKind::Own
            })
        );
        assert_eq!(r.moves[4].action, Action::Pass);
    }

    #[test]
    fn d3_notation_game_file_refuses_a_wrong_number_with_its_line() {
        let e = Record::parse_game_text(
            "size: 9\n黑1.B二\n白3.A二\n",
            "g.txt",
            crate::formats::record::StartFiles::Refused,
        )
        .unwrap_err();
        assert!(e.to_string().contains("line 3"), "{e}");
        assert!(e.to_string().contains("move 2"), "{e}");
    }
}
