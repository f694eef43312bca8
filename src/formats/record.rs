//! Game records (D3-NOTATION, 004 手数坐标记谱法 "黑1.B二，白2.A二；……华19.一B，花20.二B"): the moves of
//! a game in order, with the header that names the rules and the board, and the game-file
//! format (spec/README.md, "Game files") read and written here. SGF lives in the sibling module `sgf`;
//! both produce a [`Record`].

use crate::board::coord::{Labels, Point};
use crate::board::grid::Board;
use crate::game::notation::parse_move;
use crate::game::order::{turn_of_move, Turn};
use crate::game::play::{Action, Illegal, Move, Position, Report};
use crate::game::setup::{from_yaml, parse_yaml, InputError, Place, Setup, MAX_FILE_BYTES};
use crate::rules::{Rules, RulesField};
use std::fmt::Write as _;

/// The largest number a record's first move may have.
pub const MAX_FIRST_MOVE: u32 = crate::game::notation::MAX_MOVE_NUMBER - 1;

/// The longest record m3go reads: ten moves per point of the board (3610 on 19×19).
pub use crate::game::notation::max_moves;

/// One move of a record, as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordMove {
    /// The move number (1-based).
    pub number: u32,
    pub action: Action,
    /// The turn the record names (`黑` in `黑7.七A`, `B` in `B[pd]`, `B` + `FL[]` for 华); `None`
    /// for a bare point, whose turn comes from the schedule.
    pub claimed: Option<Turn>,
    /// Where it was written (`line 3`, `SGF node 12`), for messages.
    pub place: String,
    /// The text as written (`白2.A二`, `W[dd]`).
    pub text: String,
    /// M20-REPLAY-PASS in the record: the rules refused the move at `action`'s point and a pass
    /// was played instead (what a mechanical replay saves; written `黑277.四四=pass`, SGF
    /// `B[]RF[dd]`). A replay checks that the move is refused, then passes without the pass
    /// counting towards the end of the game.
    pub replaced: bool,
    /// The comment after the move (`{…}` in a game file, `C[…]` in SGF).
    pub comment: Option<String>,
}

/// A game record: header and moves.
#[derive(Clone, Debug, PartialEq)]
pub struct Record {
    /// The rules the record names; `None` when it names none m3go knows (an ordinary SGF).
    pub rules: Option<RulesField>,
    pub size: usize,
    /// The position the game starts from; `None` = an empty board.
    pub start: Option<Setup>,
    /// Where the start position was read from (a game file's `position:` header).
    pub start_path: Option<String>,
    /// The start position's place in messages (`game.txt: position: start.yaml`,
    /// `x.sgf: SGF set-up (AB/AW/AF)`).
    pub start_place: Option<String>,
    /// Number of the first move.
    pub first_move: u32,
    /// Game information: (key, value), e.g. (`black`, `Lee Sedol 9p`), (`result`, `W+Resign`).
    pub info: Vec<(String, String)>,
    pub moves: Vec<RecordMove>,
    /// What the reader read but the record does not hold (SGF variations, properties, further
    /// games of a collection): a conversion or a saved replay says it drops them.
    pub dropped: Dropped,
}

/// What a record read from a file does not hold (SGF only: a game file's every line is kept).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Dropped {
    /// Nodes of variations off the main line.
    pub variation_nodes: usize,
    /// Properties read but not kept, each with the number of nodes holding it.
    pub properties: Vec<(String, usize)>,
    /// The games of the collection after the first (only the first is read).
    pub further_games: usize,
}

impl Dropped {
    /// One note per kind of thing dropped ("2 nodes of variations off the main line").
    pub fn notes(&self) -> Vec<String> {
        let plural =
            |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
        let mut out = Vec::new();
        if self.variation_nodes > 0 {
            out.push(format!(
                "{} of variations off the main line",
                plural(self.variation_nodes, "node", "nodes")
            ));
        }
        if !self.properties.is_empty() {
            let list: Vec<String> = self
                .properties
                .iter()
                .map(|(id, n)| format!("{id} ({})", plural(*n, "node", "nodes")))
                .collect();
            out.push(format!(
                "the properties m3go does not keep: {}",
                list.join(", ")
            ));
        }
        out.extend(self.games_note());
        out
    }

    /// The note of a collection's further games, if any.
    pub fn games_note(&self) -> Option<String> {
        match self.further_games {
            0 => None,
            1 => Some("game 2 of the collection (2 games: only the first is read)".into()),
            n => Some(format!(
                "games 2 to {} of the collection ({} games: only the first is read)",
                n + 1,
                n + 1
            )),
        }
    }
}

/// The rules of a two-colour game, as a rules mapping: M3Go 2020 with plain alternation. With
/// no flower ever placed, they are ordinary Go with area scoring, simple ko and no suicide.
pub const TWO_COLOUR_RULES: &str = "{preset: m3go-2020, schedule: alternate}";

/// The rules of [`TWO_COLOUR_RULES`].
pub fn two_colour_rules() -> Result<Rules, InputError> {
    let f: RulesField = from_yaml(TWO_COLOUR_RULES, "two-colour rules")?;
    f.resolve().map_err(|e| {
        InputError::new(format!(
            "the record names no m3go rules and the two-colour rules `{TWO_COLOUR_RULES}` are not available ({e}): give --rules"
        ))
    })
}

/// Game-information keys of the game-file header, with their SGF property. `comment` is the
/// comment before the first move (the root node's `C`); `komi` is kept only when the record
/// names no m3go rules (else the rules' komi is the komi); `original-rules` is an `RU` that
/// names no m3go preset.
pub const INFO_KEYS: [(&str, &str); 24] = [
    ("black", "PB"),
    ("white", "PW"),
    ("black-rank", "BR"),
    ("white-rank", "WR"),
    ("black-team", "BT"),
    ("white-team", "WT"),
    ("result", "RE"),
    ("date", "DT"),
    ("event", "EV"),
    ("round", "RO"),
    ("place", "PC"),
    ("game-name", "GN"),
    ("game-comment", "GC"),
    ("opening", "ON"),
    ("source", "SO"),
    ("annotator", "AN"),
    ("user", "US"),
    ("copyright", "CP"),
    ("time", "TM"),
    ("overtime", "OT"),
    ("handicap", "HA"),
    ("komi", "KM"),
    ("original-rules", "RU"),
    ("comment", "C"),
];

/// The komi a record's `komi` information gives, in quarter points (`None` when it is not a
/// number of points that is a multiple of 0.25).
pub fn komi_quarters(v: &str) -> Option<i32> {
    let f: f64 = v.trim().parse().ok()?;
    let q = f * 4.0;
    (f.is_finite() && q.fract() == 0.0 && q.abs() <= 1600.0).then_some(q as i32)
}

/// The record's `komi` information checked: without rules, it must be a komi m3go can hold (a
/// multiple of 0.25); against the rules the record names, the same komi is the rules' (and is
/// dropped from the information: it is written once, with the rules), another one is an error
/// naming both. `name` is how the record writes it (`komi` in a game file, `KM` in SGF), for
/// the message.
pub fn reconcile_komi(
    info: &mut Vec<(String, String)>,
    rules: Option<&RulesField>,
    name: &str,
) -> Result<(), InputError> {
    let Some(at) = info.iter().position(|(k, _)| k == "komi") else {
        return Ok(());
    };
    let v = info[at].1.clone();
    let named = |e: InputError| {
        let q = crate::error::quote(&v);
        if name == "komi" {
            e.key("komi").text(q)
        } else {
            e.key(format!("{name}[{q}]"))
        }
    };
    let Some(f) = rules else {
        if komi_quarters(&v).is_none() {
            return Err(named(InputError::new(String::new())).expected(
                "a number of points that is a multiple of 0.25, between -400 and 400 (or give --rules)",
            ));
        }
        return Ok(());
    };
    let Ok(r) = f.resolve() else {
        return Ok(());
    };
    if komi_quarters(&v) == Some(r.komi.quarters()) {
        info.remove(at);
        return Ok(());
    }
    Err(named(InputError::new(format!(
        "the record's komi disagrees with the komi {} of its rules `{}`",
        r.komi.points(),
        r.preset
    )))
    .expected("the same komi, or no komi"))
}

impl Record {
    /// An empty record on an empty board.
    pub fn new(size: usize, rules: Option<RulesField>) -> Record {
        Record {
            rules,
            size,
            start: None,
            start_path: None,
            start_place: None,
            first_move: 1,
            info: Vec::new(),
            moves: Vec::new(),
            dropped: Dropped::default(),
        }
    }

    /// The record's rules; when it names none, `fallback` (or two-colour Go if that is `None`).
    pub fn resolve_rules(&self, fallback: Option<&Rules>) -> Result<Rules, InputError> {
        match (&self.rules, fallback) {
            (_, Some(r)) => Ok(r.clone()),
            (Some(f), None) => f
                .resolve()
                .map_err(|e| InputError::new(e.to_string()).key("record rules")),
            (None, None) => {
                let mut r = two_colour_rules()?;
                if let Some(v) = self.info("komi") {
                    let q = komi_quarters(v).ok_or_else(|| {
                        InputError::new(String::new())
                            .key("komi")
                            .text(crate::error::quote(v))
                            .expected(
                                "a number of points that is a multiple of 0.25 (or give --rules)",
                            )
                    })?;
                    r.komi = crate::rules::Komi(q);
                }
                Ok(r)
            }
        }
    }

    /// What a message about a refused move adds when the record names no rules and none were
    /// given: the two-colour rules were assumed.
    pub fn assumed_rules_note(&self, given: Option<&Rules>) -> Option<String> {
        (self.rules.is_none() && given.is_none()).then(|| {
            format!(
                "the record names no m3go rules, so two-colour rules `{TWO_COLOUR_RULES}` were \
                 assumed (no flower moves): give `rules:` in the record or --rules"
            )
        })
    }

    /// The position before the first move, under `rules`. M20-START, Q20-START: without a
    /// start position the game starts on an empty board.
    pub fn start_position(&self, rules: &Rules) -> Result<Position, InputError> {
        let mut setup = match &self.start {
            Some(s) => s.clone(),
            // M20-START, Q20-START
            None => Setup {
                size: Some(self.size),
                diagram: Board::empty(self.size)
                    .map_err(|e| InputError::new(e.to_string()).key("record"))?
                    .to_diagram(),
                ..Setup::default()
            },
        };
        setup.move_number = Some(self.first_move);
        let place = self
            .start_place
            .as_deref()
            .unwrap_or("record start position");
        let p = setup.to_position(place)?.with_rules(rules, place)?;
        if p.board().size() != self.size {
            return Err(InputError::new(format!(
                "the start position is {}x{}, the record says size {}",
                p.board().size(),
                p.board().size(),
                self.size
            ))
            .key("record"));
        }
        Ok(p)
    }

    /// Plays the move at `k` (0-based) on `pos`: as the record claims it, or, for a move the
    /// record marks `replaced` (M20-REPLAY-PASS), checks that the rules refuse it and plays the
    /// pass that replaced it (a pass that does not count towards the end of the game). Returns
    /// the refusal of a replaced move.
    pub fn play_move(
        &self,
        pos: &Position,
        k: usize,
    ) -> Result<(Position, Report, Option<Illegal>), InputError> {
        self.step_move(pos, k, |p, m| p.play(m))
    }

    /// [`Record::play_move`] without the report, on the position's engine
    /// ([`Position::advance`]).
    pub fn advance_move(
        &self,
        pos: &Position,
        k: usize,
    ) -> Result<(Position, Option<Illegal>), InputError> {
        self.step_move(pos, k, |p, m| p.advance(m).map(|n| (n, ())))
            .map(|(next, (), refusal)| (next, refusal))
    }

    /// The steps of [`Record::play_move`], each move played by `play` (which returns the next
    /// position and what else the caller keeps: the report, or nothing).
    fn step_move<R>(
        &self,
        pos: &Position,
        k: usize,
        play: impl Fn(&Position, &Move) -> Result<(Position, R), Illegal>,
    ) -> Result<(Position, R, Option<Illegal>), InputError> {
        let m = &self.moves[k];
        if !m.replaced {
            let (next, r) = play(pos, &self.claimed_move(k)).map_err(|e| move_error(m, &e))?;
            return Ok((next, r, None));
        }
        let tried = Move {
            action: m.action,
            number: Some(m.number),
            turn: None,
        };
        match play(pos, &tried) {
            Ok(_) => Err(InputError::new(
                "the record says this move was refused and replaced by a pass, but the rules \
                 allow it",
            )
            .move_number(m.number)
            .at(&m.place)
            .text(&m.text)),
            Err(refusal) => {
                let (mut next, r) = play(
                    pos,
                    &Move {
                        action: Action::Pass,
                        number: Some(m.number),
                        turn: None,
                    },
                )
                .map_err(|e| move_error(m, &e))?;
                next.forget_trailing_passes();
                Ok((next, r, Some(refusal)))
            }
        }
    }

    /// The move at `k` (0-based) as a [`Move`] carrying the number and the claimed turn.
    pub fn claimed_move(&self, k: usize) -> Move {
        let m = &self.moves[k];
        Move {
            action: m.action,
            number: Some(m.number),
            turn: m.claimed,
        }
    }

    /// Replays every move (or the first `to`) under `rules`, refusing the first illegal one
    /// with its move number, place and reason. A move after the end of the game is refused
    /// (`game-over`).
    pub fn replay_strict(
        &self,
        rules: &Rules,
        to: Option<u32>,
    ) -> Result<(Position, Vec<Report>), InputError> {
        let mut pos = self.start_position(rules)?;
        let mut reports = Vec::new();
        for (k, m) in self.moves.iter().enumerate() {
            if to.is_some_and(|t| m.number > t) {
                break;
            }
            let (next, r, _) = self.play_move(&pos, k)?;
            pos = next;
            reports.push(r);
        }
        Ok((pos, reports))
    }

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
            let turn = m.claimed.unwrap_or_else(|| turn_of_move(rules, m.number));
            let mut t = format_move_labels(turn, m.number, m.action, labels);
            if m.replaced {
                t.push_str("=pass");
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

    /// An info value by key.
    pub fn info(&self, key: &str) -> Option<&str> {
        self.info
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }
}

/// The `rules:` header value: the preset name when the rules are exactly a preset, else the
/// full option mapping as a one-line YAML (JSON) mapping.
pub fn rules_header(rules: &Rules) -> Result<String, InputError> {
    if Rules::preset(&rules.preset).is_ok_and(|p| p == *rules) {
        return Ok(rules.preset.clone());
    }
    serde_json::to_string(rules).map_err(|e| InputError::new(e.to_string()).key("rules"))
}

/// The rules field that names `rules` (a preset name when it is exactly one).
pub fn rules_field(rules: &Rules) -> RulesField {
    if Rules::preset(&rules.preset).is_ok_and(|p| p == *rules) {
        return RulesField::Name(rules.preset.clone());
    }
    serde_json::to_value(rules)
        .ok()
        .and_then(|v| serde_json::from_value(v).ok())
        .map(RulesField::Spec)
        .unwrap_or_else(|| RulesField::Name(rules.preset.clone()))
}

/// A refused move of a record, with its number, place and text.
pub fn move_error(m: &RecordMove, e: &Illegal) -> InputError {
    InputError::illegal_move(e.to_string())
        .move_number(m.number)
        .at(&m.place)
        .text(&m.text)
}

/// Writes a move in the documents' notation in either label system (`黑7.七A` / `黑7.7a`).
pub fn format_move_labels(turn: Turn, number: u32, action: Action, labels: Labels) -> String {
    match action {
        Action::Pass => format!("{}{}.pass", turn.symbol(), number),
        Action::Place(p) => format!("{}{}.{}", turn.symbol(), number, p.format(labels)),
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
pub fn header_line(line: &str) -> Option<(&str, &str)> {
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
pub fn game_lines(text: &str) -> impl Iterator<Item = &str> {
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

/// Whether a game file may name a start position file (`position:`): a file read from disk may
/// (the path is resolved in `base_dir`), a text sent from elsewhere (a server request) may not.
#[derive(Clone, Copy, Debug)]
pub enum StartFiles<'a> {
    /// A `position:` header names a file in this folder.
    In(&'a str),
    /// A `position:` header is refused: nothing is read.
    Refused,
}

/// The message of a `position:` header in a text that may not name a file ([`StartFiles::Refused`]).
pub const START_FILE_REFUSED: &str = "a game file sent to the server may not name a start \
     position file (`position:`): expected a record from the empty board, or an SGF with its \
     set-up";

/// A header value as written after `key:`: a JSON string (`"Cup #5"`, with `\n` and `\"`
/// escapes) followed by nothing but a `#` comment, or plain text up to a `#` comment, trimmed.
fn header_value(raw: &str) -> Result<String, String> {
    let t = raw.trim_start();
    if t.starts_with('"') {
        let mut it = serde_json::Deserializer::from_str(t).into_iter::<String>();
        let v = match it.next() {
            Some(Ok(v)) => v,
            _ => {
                return Err("the quoted value does not end: expected a JSON string `\"…\"`".into())
            }
        };
        let rest = t[it.byte_offset()..].trim_start();
        if !(rest.is_empty() || rest.starts_with('#')) {
            return Err(format!(
                "text `{}` after the quoted value: expected a `#` comment or nothing",
                crate::error::quote(rest)
            ));
        }
        return Ok(v);
    }
    Ok(t.split('#').next().unwrap_or("").trim().to_string())
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

/// Splits a line of moves into tokens and comments; `#` outside a comment ends the line.
fn move_pieces(line: &str) -> Result<Vec<Piece>, String> {
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
                            other => {
                                return Err(format!(
                                    "`\\{}` in a comment: expected `\\\\`, `\\}}`, `\\n` or `\\r`",
                                    other.map(String::from).unwrap_or_default()
                                ))
                            }
                        },
                        c => comment.push(c),
                    }
                }
                if !closed {
                    return Err("the comment `{` is not closed on its line: expected `}`".into());
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

/// Reads a game file. `place` names the file in messages; `base_dir` is where a `position:`
/// header's path is resolved. A header key given twice is an error (as in YAML).
pub fn parse_game_text(text: &str, place: &str, base_dir: &str) -> Result<Record, InputError> {
    parse_game_text_with(text, place, StartFiles::In(base_dir))
}

/// [`parse_game_text`], with `files` saying whether a `position:` header may name a file (for
/// a text sent to the server it may not: [`StartFiles::Refused`], and no file is read).
pub fn parse_game_text_with(
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
    let mut rules: Option<RulesField> = None;
    let mut size: Option<usize> = None;
    let mut first_move: Option<u32> = None;
    let mut start: Option<Setup> = None;
    let mut start_path: Option<String> = None;
    let mut start_place: Option<String> = None;
    let mut info = Vec::new();
    let mut seen: Vec<(String, usize)> = Vec::new();
    let mut in_moves = false;
    // move tokens with their line, and the comment after each
    let mut tokens: Vec<(usize, String, Option<String>)> = Vec::new();
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
            let v = header_value(v).map_err(|e| InputError::new(e).file(place).line(ln).key(k))?;
            if let Some((_, first)) = seen.iter().find(|(key, _)| key == k) {
                return Err(InputError::new(format!(
                    "`{k}:` is given twice (first on line {first}): expected each header key once"
                ))
                .file(place)
                .line(ln));
            }
            seen.push((k.to_string(), ln));
            let bad = |what: &str| {
                InputError::new(what)
                    .file(place)
                    .line(ln)
                    .key(k)
                    .text(crate::error::quote(&v))
            };
            match k {
                "rules" => {
                    let f: RulesField = parse_yaml(&v).map_err(|e| {
                        e.within(Place::default().file(place).line(ln).key("rules"))
                    })?;
                    f.resolve().map_err(|e| bad(&e.to_string()))?;
                    rules = Some(f);
                }
                "size" => {
                    let n: usize = v
                        .parse()
                        .map_err(|_| bad("expected an odd board size, 3 to 19"))?;
                    crate::board::grid::check_size(n).map_err(|e| bad(&e.to_string()))?;
                    size = Some(n);
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
                    first_move = Some(n);
                }
                "position" => {
                    let StartFiles::In(base_dir) = files else {
                        // the server reads no file a request names
                        return Err(InputError::new(START_FILE_REFUSED)
                            .file(place)
                            .line(ln)
                            .key(k));
                    };
                    let path = std::path::Path::new(base_dir).join(&v);
                    let path = path.to_string_lossy().into_owned();
                    let within = Place::default().file(place).line(ln).key("position");
                    let t = crate::game::setup::read_text(&path)
                        .map_err(|e| e.within(within.clone()))?;
                    let s: Setup = from_yaml(&t, &path).map_err(|e| e.within(within))?;
                    start = Some(s);
                    start_place = Some(format!("{place}: line {ln}: position: {path}"));
                    start_path = Some(v.to_string());
                }
                _ if INFO_KEYS.iter().any(|(key, _)| *key == k) => {
                    info.push((k.to_string(), v.to_string()));
                }
                _ => {
                    return Err(bad(&format!(
                        "unknown header key: expected rules, size, move, position, {}",
                        INFO_KEYS.map(|(k, _)| k).join(", ")
                    )))
                }
            }
            continue;
        }
        let pieces = move_pieces(raw).map_err(|e| InputError::new(e).file(place).line(ln))?;
        in_moves |= !pieces.is_empty();
        for piece in pieces {
            match piece {
                Piece::Token(t) => tokens.push((ln, t, None)),
                Piece::Comment(c) => match tokens.last_mut() {
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
                },
            }
        }
    }
    if let Some(s) = &start {
        // the start position decides the defaults
        let rows = s.diagram.lines().filter(|l| !l.trim().is_empty()).count();
        let n = s.size.unwrap_or(rows);
        if size.is_some_and(|m| m != n) {
            return Err(InputError::new(format!(
                "`size: {}` disagrees with the {n}x{n} start position",
                size.unwrap_or(0)
            ))
            .file(place));
        }
        size = Some(n);
        if first_move.is_none() {
            first_move = s.move_number;
        }
        if rules.is_none() {
            rules = Some(s.rules.clone());
        }
    }
    reconcile_komi(&mut info, rules.as_ref(), "komi").map_err(|e| e.file(place))?;
    let size = size.unwrap_or(19);
    let first = first_move.unwrap_or(1);
    if tokens.len() > max_moves(size) {
        return Err(InputError::new(format!(
            "{} moves: a {size}x{size} record is limited to {} moves",
            tokens.len(),
            max_moves(size)
        ))
        .file(place));
    }
    if let Some(last) = (first as usize + tokens.len()).checked_sub(1) {
        if !tokens.is_empty() {
            crate::game::notation::check_move_number(u32::try_from(last).unwrap_or(u32::MAX))
                .map_err(|e| InputError::new(e).file(place))?;
        }
    }
    let mut moves = Vec::new();
    for (k, (ln, t, comment)) in tokens.into_iter().enumerate() {
        let expected = first + k as u32;
        let (written, replaced) = match t.strip_suffix("=pass").or_else(|| t.strip_suffix("=虚着"))
        {
            Some(w) => (w, true),
            None => (t.as_str(), false),
        };
        let m = parse_move(written, size).map_err(|e| {
            InputError::new(e.to_string())
                .file(place)
                .line(ln)
                .move_number(expected)
        })?;
        if replaced && m.action == Action::Pass {
            return Err(InputError::new(format!(
                "`{}`: a pass cannot be replaced by a pass: expected a point before `=pass`",
                crate::error::quote(&t)
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
                    crate::error::quote(&t)
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

/// A record of the moves that led from `start` to the reports' end (for writing what was played).
pub fn record_of(start: &Position, reports: &[Report]) -> Record {
    let size = start.board().size();
    let empty = start.board().is_empty() && start.history().is_empty();
    Record {
        rules: Some(rules_field(start.rules())),
        size,
        start: if empty { None } else { Some(start.to_setup()) },
        start_path: None,
        start_place: None,
        first_move: start.move_number(),
        info: Vec::new(),
        moves: reports
            .iter()
            .map(|r| RecordMove {
                number: r.number,
                action: r.action,
                claimed: Some(r.turn),
                place: format!("move {}", r.number),
                text: r.notation.to_string(),
                replaced: false,
                comment: None,
            })
            .collect(),
        dropped: Dropped::default(),
    }
}

/// The point of an action, if any.
pub fn point_of(a: Action) -> Option<Point> {
    match a {
        Action::Place(p) => Some(p),
        Action::Pass => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::grid::Colour;
    use crate::game::order::Kind;

    #[test]
    fn d3_notation_game_file_reads_numbers_turns_and_both_label_systems() {
        let text = "rules: m3go-2020\nsize: 9\n黑1.B二 白2.A二\n3c 4d\n黑5.pass";
        let r = parse_game_text(text, "t", ".").unwrap();
        assert_eq!(r.size, 9);
        assert_eq!(r.moves.len(), 5);
        assert_eq!(r.moves[0].action, Action::Place(Point::new(-2, 2)));
        assert_eq!(r.moves[2].action, Action::Place(Point::new(3, -3)));
        assert_eq!(r.moves[2].claimed, None);
        assert_eq!(
            r.moves[1].claimed,
            Some(Turn {
                player: Colour::White,
                kind: Kind::Own
            })
        );
        assert_eq!(r.moves[4].action, Action::Pass);
    }

    #[test]
    fn d3_notation_game_file_refuses_a_wrong_number_with_its_line() {
        let e = parse_game_text("size: 9\n黑1.B二\n白3.A二\n", "g.txt", ".").unwrap_err();
        assert!(e.to_string().contains("line 3"), "{e}");
        assert!(e.to_string().contains("move 2"), "{e}");
    }
}
