//! Position files in YAML: [`Setup`] is "a position that may be illegal", with public fields,
//! straight from the file; [`Setup::into_position`] is the only road to a [`Position`] and
//! reports every problem it finds.

use crate::board::coord::Point;
use crate::board::grid::Board;
use crate::game::order::{
    check_flystone_state, flystone_schedule, flystone_walk, FlystoneRecord, FlystoneState,
};
use crate::game::play::{string_name, Position};
use crate::judge::analysis::Analysis;
use crate::rules::{RulesField, Schedule};
use serde::{Deserialize, Serialize};

/// Largest input file m3go reads.
pub const MAX_FILE_BYTES: usize = 4 << 20;

/// A position as written in a file (spec/README.md).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
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
pub fn from_yaml<T: serde::de::DeserializeOwned>(text: &str, place: &str) -> Result<T, InputError> {
    parse_yaml(text).map_err(|e| e.in_file(place))
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
            .replace("struct RulesSpec", "a rules mapping (preset and options)");
        yaml_error(&msg, e.location())
    })
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

/// Reads a file as UTF-8 text, refusing oversized files.
pub fn read_text(path: &str) -> Result<String, InputError> {
    let cannot_read = |e| InputError::new(format!("cannot read: {e}")).file(path);
    let meta = std::fs::metadata(path).map_err(cannot_read)?;
    if meta.len() > MAX_FILE_BYTES as u64 {
        return Err(
            InputError::new(format!("{} bytes is too large", meta.len()))
                .file(path)
                .expected(format!("at most {MAX_FILE_BYTES} bytes")),
        );
    }
    let bytes = std::fs::read(path).map_err(cannot_read)?;
    String::from_utf8(bytes).map_err(|e| InputError::new(format!("not UTF-8 text: {e}")).file(path))
}

impl Setup {
    /// Validates the setup; every problem found is listed, each naming its place.
    pub fn into_position(&self, place: &str) -> Result<Position, InputError> {
        let mut problems: Vec<String> = Vec::new();
        let rules = match self.rules.resolve() {
            Ok(r) => Some(r),
            Err(e) => {
                problems.push(format!("rules: {e}"));
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
                problems.push(format!("diagram: {e}"));
                None
            }
        };
        let move_number = self.move_number.unwrap_or(1);
        if move_number == 0 {
            problems.push("move: 0 is not a move number: expected 1 or more".into());
        }
        let mut history = Vec::new();
        for (k, h) in self.history.iter().enumerate() {
            match Board::from_diagram(h, size) {
                Ok(b) => history.push(b),
                Err(e) => problems.push(format!("history[{k}]: {e}")),
            }
        }
        let mut dead = Vec::new();
        for (k, d) in self.dead.iter().enumerate() {
            match Point::parse(d.trim_end_matches('*'), size) {
                Ok(p) => dead.push(p),
                Err(e) => problems.push(format!("dead[{k}]: {e}")),
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
                    if !given {
                        // No record: the random flystones due before `move` were thrown, no
                        // chosen one was (spec/README.md).
                        state.thrown = flystone_walk(&state, move_number.saturating_sub(1))
                            .moves
                            .iter()
                            .enumerate()
                            .filter(|(_, m)| m.random)
                            .map(|(k, _)| k as u32 + 1)
                            .collect();
                    }
                    problems.extend(check_flystone_state(
                        rules,
                        &state,
                        size,
                        move_number.max(1),
                    ));
                    flystone = Some(state);
                }
                (_, Some(_)) => problems.push(
                    "flystone: a flystone record needs `schedule: flystone` (preset flystone)"
                        .into(),
                ),
                _ => {}
            }
        }
        if let (Some(rules), Some(board)) = (&rules, &board) {
            let a = Analysis::new(board, rules);
            for s in &a.upper_strings.groups {
                if s.liberties.is_empty() {
                    problems.push(format!(
                        "diagram: the {} upper string {} has no liberty: a settled position has none \
                         (it would have been captured)",
                        s.colour.map(|c| c.name()).unwrap_or("?"),
                        string_name(board, &s.points)
                    ));
                }
            }
            for (k, &p) in dead.iter().enumerate() {
                if board.at(p).is_none() {
                    problems.push(format!("dead[{k}]: {p} is empty: expected a stone"));
                }
            }
        }
        match (rules, board) {
            (Some(rules), Some(board)) if problems.is_empty() => Ok(Position {
                rules,
                board,
                move_number,
                history,
                trailing_passes: self.trailing_passes,
                dead,
                flystone,
            }),
            _ => Err(InputError::new(problems.join("; ")).file(place)),
        }
    }

    /// Reads and validates a position file.
    pub fn load(path: &str) -> Result<Position, InputError> {
        let text = read_text(path)?;
        let setup: Setup = from_yaml(&text, path)?;
        setup.into_position(path)
    }
}

impl Position {
    /// The setup that writes this position back (rules as the full option mapping).
    pub fn to_setup(&self) -> Setup {
        let spec: crate::rules::RulesSpec = serde_yaml::from_value(
            serde_yaml::to_value(&self.rules).unwrap_or(serde_yaml::Value::Null),
        )
        .unwrap_or_default();
        Setup {
            rules: RulesField::Spec(spec),
            size: Some(self.board.size()),
            move_number: Some(self.move_number),
            diagram: self.board.to_diagram(),
            history: self.history.iter().map(|b| b.to_diagram()).collect(),
            trailing_passes: self.trailing_passes,
            dead: self.dead.iter().map(|p| p.to_string()).collect(),
            flystone: self.flystone_state().map(|s| FlystoneRecord {
                random: Some(s.random),
                thrown: s.thrown,
            }),
        }
    }
}
