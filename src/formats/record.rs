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
pub const MAX_FIRST_MOVE: u32 = 1_000_000;

/// The longest record m3go reads: ten moves per point of the board (3610 on 19×19).
pub fn max_moves(size: usize) -> usize {
    10 * size * size
}

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
    /// Number of the first move.
    pub first_move: u32,
    /// Game information: (key, value), e.g. (`black`, `Lee Sedol 9p`), (`result`, `W+Resign`).
    pub info: Vec<(String, String)>,
    pub moves: Vec<RecordMove>,
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

/// Game-information keys of the game-file header, with their SGF property.
pub const INFO_KEYS: [(&str, &str); 9] = [
    ("black", "PB"),
    ("white", "PW"),
    ("black-rank", "BR"),
    ("white-rank", "WR"),
    ("result", "RE"),
    ("date", "DT"),
    ("event", "EV"),
    ("komi", "KM"),
    ("original-rules", "RU"),
];

impl Record {
    /// An empty record on an empty board.
    pub fn new(size: usize, rules: Option<RulesField>) -> Record {
        Record {
            rules,
            size,
            start: None,
            start_path: None,
            first_move: 1,
            info: Vec::new(),
            moves: Vec::new(),
        }
    }

    /// The record's rules; when it names none, `fallback` (or two-colour Go if that is `None`).
    pub fn resolve_rules(&self, fallback: Option<&Rules>) -> Result<Rules, InputError> {
        match (&self.rules, fallback) {
            (_, Some(r)) => Ok(r.clone()),
            (Some(f), None) => f
                .resolve()
                .map_err(|e| InputError::new(e.to_string()).key("record rules")),
            (None, None) => two_colour_rules(),
        }
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
        let p = setup
            .to_position("record start position")?
            .with_rules(rules, "record start position")?;
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
            let (next, r) = pos
                .play(&self.claimed_move(k))
                .map_err(|e| move_error(m, &e))?;
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
            let v = v.replace(['\n', '\r'], " ");
            let _ = writeln!(o, "{k}: {v}");
        }
        let mut line = Vec::new();
        for m in &self.moves {
            let turn = m.claimed.unwrap_or_else(|| turn_of_move(rules, m.number));
            line.push(format_move_labels(turn, m.number, m.action, labels));
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

/// A header line `key: value` (key of lowercase letters and `-`).
fn header_line(line: &str) -> Option<(&str, &str)> {
    let (k, v) = line.split_once(':')?;
    let k = k.trim();
    if !k.is_empty() && k.chars().all(|c| c.is_ascii_lowercase() || c == '-') {
        Some((k, v.trim()))
    } else {
        None
    }
}

/// Reads a game file. `place` names the file in messages; `base_dir` is where a `position:`
/// header's path is resolved.
pub fn parse_game_text(text: &str, place: &str, base_dir: &str) -> Result<Record, InputError> {
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
    let mut info = Vec::new();
    let mut in_moves = false;
    let mut tokens: Vec<(usize, String)> = Vec::new();
    for (ln, raw) in text.lines().enumerate() {
        let ln = ln + 1;
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        if let Some((k, v)) = header_line(line) {
            if in_moves {
                return Err(InputError::new(format!(
                    "header line `{k}:` after the moves: the header comes first"
                ))
                .file(place)
                .line(ln));
            }
            let bad = |what: &str| InputError::new(what).file(place).line(ln).key(k).text(v);
            match k {
                "rules" => {
                    let f: RulesField = parse_yaml(v).map_err(|e| {
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
                    let path = std::path::Path::new(base_dir).join(v);
                    let path = path.to_string_lossy().into_owned();
                    let t = crate::game::setup::read_text(&path)?;
                    let s: Setup = from_yaml(&t, &path)?;
                    start = Some(s);
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
        in_moves = true;
        for t in line.split(is_separator).filter(|t| !t.is_empty()) {
            tokens.push((ln, t.to_string()));
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
    let mut moves = Vec::new();
    for (k, (ln, t)) in tokens.into_iter().enumerate() {
        let expected = first + k as u32;
        let m = parse_move(&t, size).map_err(|e| {
            InputError::new(e.to_string())
                .file(place)
                .line(ln)
                .move_number(expected)
        })?;
        if let Some(n) = m.number {
            if n != expected {
                return Err(InputError::new(format!(
                    "`{t}` is numbered {n}, but it is move {expected} of the record (moves are \
                     numbered in order from {first})"
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
        });
    }
    Ok(Record {
        rules,
        size,
        start,
        start_path,
        first_move: first,
        info,
        moves,
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
        first_move: start.move_number(),
        info: Vec::new(),
        moves: reports
            .iter()
            .map(|r| RecordMove {
                number: r.number,
                action: r.action,
                claimed: Some(r.turn),
                place: format!("move {}", r.number),
                text: r.notation.clone(),
            })
            .collect(),
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
