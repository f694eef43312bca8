//! Position files in YAML: [`Setup`] is "a position that may be illegal", with public fields,
//! straight from the file; [`Setup::to_position`] is the road from a file to a [`Position`]
//! and reports every problem it finds ([`PositionError`]). (The other positions are the
//! successors of valid ones, made by their moves.)

use crate::board::coord::Point;
use crate::board::grid::Board;
use crate::error::Listed;
use crate::game::notation::{Notation, MAX_MOVE_NUMBER};
use crate::game::order::{
    check_flystone_state, flystone_schedule, flystone_walk, FlystoneRecord, FlystoneState,
};
use crate::game::play::{Position, PositionParts};
use crate::game::text::{text, Text};
use crate::judge::analysis::Analysis;
use crate::rules::{Rules, RulesField, Schedule};
use serde::{Deserialize, Serialize};
use std::fmt;

/// Largest input text m3go parses (the limit of every input, [`crate::error::MAX_INPUT_BYTES`]).
#[cfg_attr(feature = "testing", visibility::make(pub))]
pub(crate) const MAX_FILE_BYTES: usize = crate::error::MAX_INPUT_BYTES;

/// A position as written in a file (spec/README.md).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Setup {
    #[serde(default)]
    pub rules: RulesField,
    /// Board size; when absent, the number of diagram rows.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<usize>,
    /// Number of the next move (1-based).
    #[serde(default, rename = "move", skip_serializing_if = "Option::is_none")]
    pub move_number: Option<u32>,
    pub diagram: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub history: Vec<String>,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub trailing_passes: u32,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub dead: Vec<String>,
    /// Flystone games only: the random flystone turns (drawn from `flystone-seed` when absent)
    /// and the flystone moves made so far (spec/README.md).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub flystone: Option<FlystoneRecord>,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

pub use crate::error::{InputError, Place};

/// Reads a YAML document of type `T`, refusing oversized input; `place` names the source (a file,
/// or the flag whose value the text is).
/// A leading byte-order mark is skipped (a position sent to the server or the Python module).
pub fn from_yaml<T: serde::de::DeserializeOwned>(text: &str, place: &str) -> Result<T, InputError> {
    parse_yaml(without_bom(text)).map_err(|e| e.in_file(place))
}

/// Reads a YAML document of type `T` that is part of a larger input (a header value, a line of a
/// perft file), refusing oversized input; the error's line and column count in `text`.
pub fn parse_yaml<T: serde::de::DeserializeOwned>(text: &str) -> Result<T, InputError> {
    if text.len() > MAX_FILE_BYTES {
        return Err(
            InputError::new(format!("{} bytes is too large", text.len()))
                .expected(format!("at most {MAX_FILE_BYTES} bytes")),
        );
    }
    serde_yaml::from_str(text).map_err(|e| {
        // serde names Rust types; say what the file should hold instead.
        let msg = e
            .to_string()
            .replace(
                "struct Setup",
                "a position mapping (rules, size, move, diagram, …)",
            )
            .replace(
                "struct Case",
                "a conformance case mapping (id, clauses, source, position, expect, …)",
            )
            .replace("struct RulesSpec", "a rules mapping (preset and options)")
            .replace(
                "struct FlystoneRecord",
                "a flystone record mapping (random, thrown)",
            )
            .replace("struct Sides", "a mapping of timings (black, white)")
            .replace("expected usize", "expected a whole number")
            .replace("expected u64", "expected a whole number")
            .replace(
                "expected u32",
                "expected a whole number from 0 to 4294967295",
            )
            .replace("expected f64", "expected a number");
        let msg = field_name_problem(&unnamed_types(&move_number_message(msg)));
        yaml_error(&msg, e.location())
    })
}

/// serde's message for a key that is not a name (`{{{`: a mapping as the key, `- a` a list, `5:`
/// a number) — "invalid type: map, expected field identifier" — said as what the file holds
/// instead and what it should hold, keeping the place, the field and the line.
fn field_name_problem(msg: &str) -> String {
    const HEAD: &str = "invalid type: ";
    const TAIL: &str = ", expected field identifier";
    let Some(end) = msg.find(TAIL) else {
        return msg.to_string();
    };
    let Some(start) = msg[..end].rfind(HEAD) else {
        return msg.to_string();
    };
    let found = &msg[start + HEAD.len()..end];
    let found = match found {
        "map" => "a mapping (`{` opens one)",
        "sequence" => "a list (`[` or `- ` opens one)",
        other => other,
    };
    format!(
        "{}a key is {found} where a field name goes: expected a field name and its value, one a line, as `size: 9`{}",
        &msg[..start],
        &msg[end + TAIL.len()..]
    )
}

/// A `move:` that is a whole number but no `u32` (`-1`, `5000000000`) said in the words of
/// [`move_number_problem`]: 1 to [`MAX_MOVE_NUMBER`], as `move: 0` is.
fn move_number_message(msg: String) -> String {
    let number = [
        "move: invalid type: integer `",
        "move: invalid value: integer `",
    ]
    .iter()
    .find_map(|head| msg.strip_prefix(head))
    .and_then(|rest| rest.split_once('`'))
    .map(|(n, _)| n.to_string());
    match number {
        Some(n) => format!("move: {n} is not a move number: expected 1 to {MAX_MOVE_NUMBER}"),
        None => msg,
    }
}

/// `msg` without the Rust type names the reader writes for types not named above
/// (`expected struct Foo` → `expected a mapping`, `expected enum Foo` → `expected one of its
/// values`).
fn unnamed_types(msg: &str) -> String {
    let mut out = String::new();
    let mut rest = msg;
    while let Some(at) = rest
        .find("expected struct ")
        .or_else(|| rest.find("expected enum "))
    {
        let (head, tail) = rest.split_at(at);
        out.push_str(head);
        let is_struct = tail.starts_with("expected struct ");
        let after = tail
            .trim_start_matches("expected struct ")
            .trim_start_matches("expected enum ");
        let name_len = after
            .find(|c: char| !c.is_ascii_alphanumeric() && c != '_')
            .unwrap_or(after.len());
        out.push_str(if is_struct {
            "expected a mapping"
        } else {
            "expected one of its values"
        });
        rest = &after[name_len..];
    }
    out.push_str(rest);
    out
}

/// The error of a YAML reader's message `msg` found at `location`: the position the reader wrote
/// into the message (`… at line 2 column 7`, and the libyaml scanner's `, while scanning … at …`
/// after it) becomes the fields; a position the reader left out (line 1, column 1) is added.
fn yaml_error(msg: &str, location: Option<serde_yaml::Location>) -> InputError {
    let Some(l) = location else {
        return InputError::new(msg);
    };
    let at = format!(" at line {} column {}", l.line(), l.column());
    let (what, during) = match msg.split_once(&at) {
        None => (msg, None),
        Some((what, "")) => (what, None),
        Some((what, rest)) => match rest.strip_prefix(", ") {
            Some(during) => (what, Some(during)),
            // an unknown shape: the position stays in the message as the reader wrote it
            None => return InputError::new(msg),
        },
    };
    let e = InputError::new(what).line(l.line()).column(l.column());
    match during {
        Some(d) => e.during(d),
        None => e,
    }
}

/// The UTF-8 byte-order mark (bytes EF BB BF), skipped at the start of every text m3go reads.
#[cfg_attr(feature = "testing", visibility::make(pub))]
pub(crate) const BOM: char = '\u{feff}';

/// `text` without a leading byte-order mark: the text a file, a request body, a protocol line or
/// a record sent to the server holds.
pub fn without_bom(text: &str) -> &str {
    text.strip_prefix(BOM).unwrap_or(text)
}

/// One problem of a setup: the field it is in (`diagram`, `history[2]`, `dead[0]`,
/// `flystone.thrown`, …) and what is wrong there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    pub field: String,
    /// What is wrong, its points typed (written in the label system of the output).
    pub message: Text,
}

impl Problem {
    fn new(field: impl Into<String>, message: impl Into<Text>) -> Problem {
        Problem {
            field: field.into(),
            message: message.into(),
        }
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.field, self.message)
    }
}

/// A setup that is not a position: where it came from, the setup, and every problem found
/// (never just the first). Shown as `PLACE: FIELD: WHAT; FIELD: WHAT; …`.
#[derive(Clone, Debug, PartialEq)]
pub struct PositionError {
    pub place: String,
    pub setup: Box<Setup>,
    /// The problems found: at most `MAX_LISTED` kept, the rest
    /// counted.
    pub problems: Listed<Problem>,
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.place, self.problems)
    }
}

impl PositionError {
    /// The error as a text (`PLACE: FIELD: WHAT; …`), its points typed: written in the label
    /// system of the output by [`Text::format`] (the Display form is the Chinese one).
    pub fn text(&self) -> Text {
        let mut t = text!(self.place.as_str(), ": ");
        for (k, p) in self.problems.iter().enumerate() {
            if k > 0 {
                t.push("; ");
            }
            t.push(p.field.as_str()).push(": ").push(p.message.clone());
        }
        if self.problems.more() > 0 {
            t.push(format!("; and {} more", self.problems.more()));
        }
        t
    }
}

impl std::error::Error for PositionError {}

impl From<PositionError> for InputError {
    fn from(e: PositionError) -> Self {
        InputError::new(e.problems.to_string()).file(e.place)
    }
}

/// The number of the next move counts from 1 and is at most [`MAX_MOVE_NUMBER`].
fn move_number_problem(move_number: u32) -> Option<Problem> {
    if move_number == 0 {
        return Some(Problem::new(
            "move",
            format!("0 is not a move number: expected 1 to {MAX_MOVE_NUMBER}"),
        ));
    }
    (move_number > MAX_MOVE_NUMBER).then(|| {
        Problem::new(
            "move",
            format!("{move_number} is too large: expected 1 to {MAX_MOVE_NUMBER}"),
        )
    })
}

/// The counts that say how much was played before the next move: `trailing_passes` at most the
/// moves played (`move` − 1), `history` at most the longest record on the board (a longer one
/// would only make every ko check slower).
fn count_problems(
    move_number: u32,
    trailing_passes: u32,
    history: usize,
    size: usize,
) -> Vec<Problem> {
    let mut problems = Vec::new();
    let played = move_number.saturating_sub(1);
    if trailing_passes > played {
        problems.push(Problem::new(
            "trailing_passes",
            format!(
                "{trailing_passes} passes, but {played} moves were played before move \
                 {move_number}: expected 0 to {played}"
            ),
        ));
    }
    let limit = Notation::max_moves(size);
    if history > limit {
        problems.push(Problem::new(
            "history",
            format!("{history} boards: expected at most {limit} on a {size}x{size} board"),
        ));
    }
    problems
}

/// A flystone record under another schedule.
fn flystone_without_schedule() -> Problem {
    Problem::new(
        "flystone",
        "a flystone record needs `schedule: flystone` (preset flystone)",
    )
}

/// The Flystone state checked against the rules before move `next` ([`check_flystone_state`]).
fn flystone_problems(rules: &Rules, state: &FlystoneState, size: usize, next: u32) -> Vec<Problem> {
    // bounded before the walk over the moves: each side throws at most its flystones
    let (random, chosen) = crate::game::order::flystone_counts(rules);
    let most = 2 * (u64::from(random) + u64::from(chosen));
    if state.thrown.len() as u64 > most {
        return vec![Problem::new(
            "flystone.thrown",
            format!(
                "{} moves listed: expected at most {most} (each side throws at most {} flystones)",
                state.thrown.len(),
                random + chosen
            ),
        )];
    }
    if next > MAX_MOVE_NUMBER {
        return Vec::new(); // `move` is refused by itself
    }
    check_flystone_state(rules, state, size, next.max(1))
        .into_iter()
        .map(|(field, message)| Problem::new(field, message))
        .collect()
}

/// The problems of a board that is not settled (`field` names it: `diagram`, `history[2]`): a
/// black or white upper string without a liberty would have been captured. The fast engine's
/// analysis gives the verdict (a few microseconds on 19×19, where the reference analysis takes
/// a millisecond: a position file of a long game validates hundreds of history boards); the
/// reference analysis words the problems of a board the verdict finds unsettled, so a board
/// is refused only when both find a string without a liberty (the upper layers of the two are
/// compared on random boards, tests/it/fast_equals_reference.rs).
fn unsettled(board: &Board, rules: &Rules, field: &str) -> Vec<Problem> {
    let fast = crate::game::fast::FastAnalysis::new(board, rules);
    let captured = (0..board.len()).any(|i| {
        matches!(fast.upper_at(i), Some(Some(_))) && fast.upper_liberties_at(i) == Some(0)
    });
    if !captured {
        return Vec::new();
    }
    Analysis::new(board, rules)
        .upper_strings
        .groups
        .iter()
        .filter(|s| s.liberties.is_empty())
        .map(|s| {
            Problem::new(
                field,
                text!(
                    "the ",
                    s.colour.map(|c| c.name()).unwrap_or("?"),
                    " upper string ",
                    board.string_name(&s.points),
                    " has no liberty: a settled position has none (it would have been captured)"
                ),
            )
        })
        .collect()
}

/// The board as a settled position needs it: no black or white upper string without a
/// liberty (it would have been captured), every dead stone on a stone of the board.
fn board_problems(board: &Board, rules: &Rules, dead: &[Point], problems: &mut Listed<Problem>) {
    problems.extend(unsettled(board, rules, "diagram"));
    for (k, &p) in dead.iter().enumerate() {
        if !p.on_board(board.size()) {
            problems.push(Problem::new(
                format!("dead[{k}]"),
                format!("({},{}) is off the board", p.x, p.y),
            ));
        } else if board.at(p).is_none() {
            problems.push(Problem::new(
                format!("dead[{k}]"),
                text!(p, " is empty: expected a stone"),
            ));
        }
    }
}

impl PositionParts {
    /// Validates parts assembled in the crate, as [`Setup::to_position`] validates a file: the
    /// move number, the history boards' size, the Flystone record, a settled board, the dead
    /// stones. Every problem found is listed; `place` names the source.
    pub(crate) fn validate(self, place: &str) -> Result<Position, PositionError> {
        let size = self.board.size();
        let mut problems: Listed<Problem> =
            move_number_problem(self.move_number).into_iter().collect();
        problems.extend(count_problems(
            self.move_number,
            self.trailing_passes,
            self.history.len(),
            size,
        ));
        for (k, h) in self.history.iter().enumerate() {
            if h.size() != size {
                problems.push(Problem::new(
                    format!("history[{k}]"),
                    format!("the board is {0}x{0}: expected {size}x{size}", h.size()),
                ));
            } else if self.history.len() <= Notation::max_moves(size) {
                problems.extend(unsettled(h, &self.rules, &format!("history[{k}]")));
            }
        }
        match (self.rules.schedule, &self.flystone) {
            (Schedule::Flystone, state) => {
                let state = state.clone().unwrap_or_else(|| FlystoneState {
                    random: flystone_schedule(&self.rules, size),
                    thrown: Vec::new(),
                });
                problems.extend(flystone_problems(
                    &self.rules,
                    &state,
                    size,
                    self.move_number,
                ));
            }
            (_, Some(_)) => problems.push(flystone_without_schedule()),
            _ => {}
        }
        board_problems(&self.board, &self.rules, &self.dead, &mut problems);
        if problems.is_empty() {
            return Ok(Position::from_checked(self));
        }
        Err(PositionError {
            place: place.to_string(),
            setup: Box::new(setup_of(&self)),
            problems,
        })
    }
}

/// Read from YAML ([`crate::game::from_yaml`], or [`Setup::position_from_text`] for a file's text), then checked
/// into a [`Position`](crate::Position) by [`Setup::to_position`], which lists every problem.
///
/// ```
/// use m3go_engine::game::from_yaml;
/// use m3go_engine::Setup;
///
/// let yaml = "rules: m3go-2020
/// move: 289
/// diagram: |
///   . . . . .
///   . X X X .
///   . X . X #
///   . X X X .
///   . . . O O
/// ";
/// let setup = from_yaml::<Setup>(yaml, "example.yaml")?;
/// let pos = setup.to_position("example.yaml")?;
/// assert_eq!(pos.board().size(), 5);
///
/// // a board with a string without a liberty is no position: the error says where
/// let bad = from_yaml::<Setup>("rules: m3go-2020\ndiagram: |\n  X O\n  O .\n", "bad.yaml")?;
/// assert!(bad.to_position("bad.yaml").is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
impl Setup {
    /// Validates the setup into a position; every problem found is listed, each naming its
    /// field, in the error.
    pub fn to_position(&self, place: &str) -> Result<Position, PositionError> {
        let mut problems: Listed<Problem> = Listed::new();
        let rules = match self.rules.resolve() {
            Ok(r) => Some(r),
            Err(e) => {
                problems.push(Problem::new("rules", e.to_string()));
                None
            }
        };
        let rows = self
            .diagram
            .lines()
            .filter(|l| !l.trim().is_empty())
            .count();
        let size = self.size.unwrap_or(rows);
        let board = match Board::from_diagram(&self.diagram, size) {
            Ok(b) => Some(b),
            Err(e) => {
                problems.push(Problem::new("diagram", e.to_string()));
                None
            }
        };
        let move_number = self.move_number.unwrap_or(1);
        problems.extend(move_number_problem(move_number));
        problems.extend(count_problems(
            move_number,
            self.trailing_passes,
            self.history.len(),
            size,
        ));
        let mut history = Vec::new();
        if self.history.len() <= Notation::max_moves(size) {
            for (k, h) in self.history.iter().enumerate() {
                match Board::from_diagram(h, size) {
                    Ok(b) => {
                        if let Some(rules) = &rules {
                            problems.extend(unsettled(&b, rules, &format!("history[{k}]")));
                        }
                        history.push(b);
                    }
                    Err(e) => problems.push(Problem::new(format!("history[{k}]"), e.to_string())),
                }
            }
        }
        let mut dead = Vec::new();
        for (k, d) in self.dead.iter().enumerate() {
            match Point::parse(d.trim_end_matches('*'), size) {
                Ok(p) => dead.push(p),
                Err(e) => problems.push(Problem::new(format!("dead[{k}]"), e.to_string())),
            }
        }
        let mut flystone = None;
        if let Some(rules) = &rules {
            match (rules.schedule, &self.flystone) {
                (Schedule::Flystone, record) => {
                    let given = record.is_some();
                    let record = record.clone().unwrap_or_default();
                    let mut state = FlystoneState {
                        random: record
                            .random
                            .unwrap_or_else(|| flystone_schedule(rules, size)),
                        thrown: record.thrown,
                    };
                    if !given && move_number <= MAX_MOVE_NUMBER {
                        // No record: the random flystones due before `move` were thrown, no
                        // chosen one was (spec/README.md).
                        state.thrown = flystone_walk(&state, move_number.saturating_sub(1))
                            .flowers
                            .iter()
                            .filter(|f| f.random)
                            .map(|f| f.number)
                            .collect();
                    }
                    problems.extend(flystone_problems(rules, &state, size, move_number));
                    flystone = Some(state);
                }
                (_, Some(_)) => problems.push(flystone_without_schedule()),
                _ => {}
            }
        }
        if let (Some(rules), Some(board)) = (&rules, &board) {
            board_problems(board, rules, &dead, &mut problems);
        }
        match (rules, board) {
            (Some(rules), Some(board)) if problems.is_empty() => {
                Ok(Position::from_checked(PositionParts {
                    rules,
                    board,
                    move_number,
                    history,
                    trailing_passes: self.trailing_passes,
                    dead,
                    flystone,
                }))
            }
            _ => Err(PositionError {
                place: place.to_string(),
                setup: Box::new(self.clone()),
                problems,
            }),
        }
    }

    /// Reads and validates the text of a position file; `place` names it (a file, a flag) in
    /// messages. The caller reads the file (the `m3go` crate's `input::load_position` reads it
    /// within the bounds of every input).
    pub fn position_from_text(text: &str, place: &str) -> Result<Position, InputError> {
        let setup: Setup = from_yaml(text, place)?;
        Ok(setup.to_position(place)?)
    }
}

/// The setup that writes `parts` back (rules in their smallest form, [`RulesField::of`]: the
/// preset's name, or the preset and the options that differ from it; under Flystone the state
/// written out).
pub(super) fn setup_of(parts: &PositionParts) -> Setup {
    let flystone = (parts.rules.schedule == Schedule::Flystone).then(|| {
        parts.flystone.clone().unwrap_or_else(|| FlystoneState {
            random: flystone_schedule(&parts.rules, parts.board.size()),
            thrown: Vec::new(),
        })
    });
    Setup {
        rules: RulesField::of(&parts.rules),
        size: Some(parts.board.size()),
        move_number: Some(parts.move_number),
        diagram: parts.board.to_diagram(),
        history: parts.history.iter().map(|b| b.to_diagram()).collect(),
        trailing_passes: parts.trailing_passes,
        dead: parts.dead.iter().map(|p| p.to_string()).collect(),
        flystone: flystone.map(|s| FlystoneRecord {
            random: Some(s.random),
            thrown: s.thrown,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_setup_reports_every_problem_with_its_field() {
        let setup = Setup {
            move_number: Some(0),
            diagram: "X O .\nO . .\n. . .\n".into(),
            dead: vec!["三三".into(), "O二".into()],
            ..Setup::default()
        };
        let e = setup.to_position("bad.yaml").expect_err("four problems");
        let fields: Vec<&str> = e.problems.iter().map(|p| p.field.as_str()).collect();
        assert_eq!(fields, ["move", "dead[0]", "dead[1]", "diagram"], "{e}");
        assert_eq!(e.place, "bad.yaml");
        assert_eq!(*e.setup, setup);
        let text = e.to_string();
        assert!(
            text.starts_with("bad.yaml: move: 0 is not a move number"),
            "{text}"
        );
        assert!(
            text.contains("; dead[0]: ") && text.contains("; diagram: the black upper string"),
            "{text}"
        );
    }

    #[test]
    fn parts_are_validated_like_a_file() {
        let pos = Setup {
            diagram: ". . .\n. X .\n. . .\n".into(),
            ..Setup::default()
        }
        .to_position("ok")
        .expect("settled");
        let bad = PositionParts {
            move_number: 0,
            history: vec![Board::empty(5).expect("odd size")],
            ..pos.to_parts()
        }
        .validate("parts")
        .expect_err("two problems");
        assert_eq!(bad.problems.len(), 2, "{bad}");
        assert_eq!(bad.problems[1].field, "history[0]");
        assert_eq!(
            PositionParts { ..pos.to_parts() }.validate("same"),
            Ok(pos.clone())
        );
    }
}
