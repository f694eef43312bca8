//! The native part of the Python package `m3go` (`m3go._m3go`): the m3go library called
//! in-process. Every function answers what the command line or `m3go protocol` answers, through
//! the library's own producers (the analysis report, the play report, the clause trace, the
//! protocol's answer); this file only converts between Python objects and the library's values
//! and turns an input error into a Python exception carrying the protocol's error code.
#![forbid(unsafe_code)]

mod convert;

use convert::{json_text, text_of, ConvError};

use m3go::conform::answer::{answer_line_text, text};
use m3go::conform::capabilities::Capabilities;
use m3go::conform::case::Case;
use m3go::conform::check::check;
use m3go::conform::protocol::{code, error_answer, PROTOCOL};
use m3go_engine::ErrorKind;
/// The largest input read from one source (as the command reads it).
const MAX_INPUT_BYTES: usize = m3go_engine::MAX_INPUT_BYTES;
use m3go::tools::replay::ListedError;
use m3go_engine::formats::report::{AnalysisReport, PlayReport};
use m3go_engine::game::from_yaml;
use m3go_engine::rules::RulesField;
use m3go_engine::{Engine, Notation, Position, Rules, Setup};
use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyTypeError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PySequence, PyString};
use serde::Serialize;

create_exception!(
    m3go,
    M3goError,
    PyException,
    "An input m3go refuses: `code` is the conformance protocol's error code (`bad-position`, \
     `bad-move`, `illegal-move`, `bad-request`, `too-large`), `field` the argument or request \
     field at fault (or None), `message` the message for people."
);
create_exception!(
    m3go,
    BadPositionError,
    M3goError,
    "The position does not read or is not valid (code `bad-position`)."
);
create_exception!(
    m3go,
    BadMoveError,
    M3goError,
    "A move does not read (code `bad-move`): `problem` says what is wrong (`off-board`, \
     `malformed-point`, ...), `reason` is the protocol's refusal code of such a probe (`off-board` \
     or `malformed`), `move` the move as written."
);
create_exception!(
    m3go,
    IllegalMoveError,
    M3goError,
    "A move reads but the rules refuse it (code `illegal-move`): `reason` is the refusal code \
     (`occupied`, `suicide`, `ko`, `tigers-mouth`, `wrong-turn`, ...), `clause` the clause id \
     that refused it, `move` the move as written, as the protocol's probe answers give them."
);
create_exception!(
    m3go,
    BadRequestError,
    M3goError,
    "An argument is not of the expected form (code `bad-request`)."
);
create_exception!(
    m3go,
    TooLargeError,
    M3goError,
    "An input is larger than m3go accepts (code `too-large`)."
);

/// The longest message an exception carries, in characters: a longer one is cut there and
/// ends with how much was left out, so that no input makes an exception grow with it.
const MAX_MESSAGE_CHARS: usize = 2000;

/// `message` cut to [`MAX_MESSAGE_CHARS`] characters, saying how many more there were.
fn bounded(message: String) -> String {
    m3go::io::clip_counted(&message, MAX_MESSAGE_CHARS)
}

/// The exception of protocol error `code`, with its `code`, `field` and `message` attributes
/// (the message at most [`MAX_MESSAGE_CHARS`] characters long).
fn m3go_error(py: Python<'_>, code: &str, field: Option<String>, message: String) -> PyErr {
    m3go_error_with(py, code, field, message, Vec::new())
}

/// [`m3go_error`] with further attributes (an illegal move's `reason`, `clause` and `move`, a
/// bad move's `problem`, `reason` and `move`).
fn m3go_error_with(
    py: Python<'_>,
    code: &str,
    field: Option<String>,
    message: String,
    extra: Vec<(&str, Option<String>)>,
) -> PyErr {
    let message = bounded(message);
    let err = match code {
        code::BAD_POSITION => BadPositionError::new_err(message.clone()),
        code::BAD_MOVE => BadMoveError::new_err(message.clone()),
        code::ILLEGAL_MOVE => IllegalMoveError::new_err(message.clone()),
        code::BAD_REQUEST => BadRequestError::new_err(message.clone()),
        code::TOO_LARGE => TooLargeError::new_err(message.clone()),
        _ => M3goError::new_err(message.clone()),
    };
    let value = err.value(py);
    let attributes = [
        ("code", Some(code.to_string())),
        ("field", field),
        ("message", Some(message)),
    ];
    for (name, v) in attributes.into_iter().chain(extra) {
        if let Err(e) = value.setattr(name, v) {
            return e;
        }
    }
    err
}

/// A position that does not read or is not valid: `bad-position`, as the protocol answers.
fn bad_position(py: Python<'_>, e: impl std::fmt::Display) -> PyErr {
    m3go_error(
        py,
        code::BAD_POSITION,
        Some("position".into()),
        e.to_string(),
    )
}

/// The position of a `Position`, the YAML text of a position file, or a mapping of the same
/// keys (README.md, "Position files").
fn position_of(py: Python<'_>, obj: &Bound<'_, PyAny>) -> PyResult<Position> {
    if let Ok(p) = obj.cast::<PyPosition>() {
        return Ok(p.get().inner.clone());
    }
    if let Ok(text) = obj.cast::<PyString>() {
        return position_of_yaml(py, text);
    }
    if obj.is_instance_of::<PyDict>() {
        let v = json_value_of(py, obj, "position")?;
        let setup: Setup = serde_json::from_value(v).map_err(|e| bad_position(py, e))?;
        return setup
            .to_position("position")
            .map_err(|e| bad_position(py, e));
    }
    Err(PyTypeError::new_err(format!(
        "position: expected a Position, the YAML text of a position or a dict, got {}",
        obj.get_type().name()?
    )))
}

/// The JSON value of a Python object given as argument `field` (a position's dict, an answer),
/// converted as `m3go protocol` reads a line: too deep, recursive or not JSON is `bad-request`,
/// longer than a protocol line (4 MiB of JSON text) `too-large`.
fn json_value_of(
    py: Python<'_>,
    obj: &Bound<'_, PyAny>,
    field: &str,
) -> PyResult<serde_json::Value> {
    let text = json_text(obj, MAX_INPUT_BYTES, false).map_err(|e| match e {
        ConvError::TooLarge { .. } => {
            m3go_error(py, code::TOO_LARGE, Some(field.into()), e.message(field))
        }
        ConvError::Python(e) => e,
        _ => m3go_error(py, code::BAD_REQUEST, Some(field.into()), e.message(field)),
    })?;
    serde_json::from_str(&text).map_err(|e| {
        m3go_error(
            py,
            code::BAD_REQUEST,
            Some(field.into()),
            format!("{field}: not a JSON value: {e}"),
        )
    })
}

/// The text of a string argument `field`; a lone surrogate in it is `bad-request`.
fn str_arg<'a>(py: Python<'_>, s: &'a Bound<'_, PyString>, field: &str) -> PyResult<&'a str> {
    text_of(s).map_err(|m| {
        m3go_error(
            py,
            code::BAD_REQUEST,
            Some(field.into()),
            format!("{field}: {m}"),
        )
    })
}

/// The position of a position file's text: longer than a position file may be (4 MiB) is
/// `too-large`, as `m3go` refuses such a file.
fn position_of_yaml(py: Python<'_>, text: &Bound<'_, PyString>) -> PyResult<Position> {
    let text = str_arg(py, text, "position")?;
    if text.len() > MAX_INPUT_BYTES {
        return Err(m3go_error(
            py,
            code::TOO_LARGE,
            Some("position".into()),
            format!(
                "position: {} bytes is too large: expected at most {MAX_INPUT_BYTES} bytes",
                text.len()
            ),
        ));
    }
    let setup: Setup = from_yaml(text, "position").map_err(|e| bad_position(py, e))?;
    setup
        .to_position("position")
        .map_err(|e| bad_position(py, e))
}

/// A list of moves: one move (a string) or a sequence of them. A move holding a lone surrogate
/// is `bad-request`, naming it.
fn moves_of(py: Python<'_>, obj: &Bound<'_, PyAny>) -> PyResult<Vec<String>> {
    let wrong =
        || PyTypeError::new_err("moves: expected a move (a string) or a list of moves (strings)");
    if let Ok(s) = obj.cast::<PyString>() {
        return Ok(vec![str_arg(py, s, "moves[0]")?.to_string()]);
    }
    let seq = obj.cast::<PySequence>().map_err(|_| wrong())?;
    let mut moves = Vec::new();
    for (n, item) in seq.try_iter()?.enumerate() {
        let item = item?;
        let s = item.cast::<PyString>().map_err(|_| wrong())?;
        moves.push(str_arg(py, s, &format!("moves[{n}]"))?.to_string());
    }
    Ok(moves)
}

/// A Rust value as the Python object of its JSON (the object `--format json` prints: maps with
/// string keys, numbers, strings, lists, None).
fn to_python<'py, T: Serialize>(py: Python<'py>, value: &T) -> PyResult<Bound<'py, PyAny>> {
    json_to_python(py, json_of(value)?)
}

/// The JSON text of a Rust value, as `--format json` writes it (made where the interpreter is
/// not held, for the values that take time to write).
fn json_of<T: Serialize>(value: &T) -> PyResult<String> {
    serde_json::to_string(value).map_err(|e| PyException::new_err(e.to_string()))
}

/// The Python object of a JSON text, read by Python's own `json.loads`: the text is written
/// once and read by the C parser, instead of building a `serde_json::Value` and converting it
/// object by object (the analysis of a dense 19×19 position is about 100 kB of JSON).
fn json_to_python(py: Python<'_>, text: String) -> PyResult<Bound<'_, PyAny>> {
    static LOADS: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
    let loads = LOADS.get_or_try_init(py, || {
        py.import("json")?.getattr("loads").map(Bound::unbind)
    })?;
    loads.bind(py).call1((text,))
}

/// `moves` played from `start` by the library's play loop (`m3go play`'s), an input error
/// raised with the protocol's code: a move that does not read is `bad-move`, one the rules
/// refuse `illegal-move`, each with its field `moves[K]`, the move as written and what the
/// protocol's probe answer says of it (the loop's typed failure, [`ListedError`]); too many
/// moves `too-large`.
fn play_moves(
    py: Python<'_>,
    start: &Position,
    moves: &[String],
) -> PyResult<(Position, Vec<m3go_engine::Report>)> {
    py.detach(|| m3go::tools::replay::play_listed(start, moves, "moves", true, |_| {}))
        .map_err(|f: ListedError| {
            let e = f.input_error();
            let message = e.to_string();
            match e.place.move_number {
                Some(n) => {
                    let k = n.saturating_sub(1) as usize;
                    let field = Some(format!("moves[{k}]"));
                    // The move's place in the game: past the last move m3go plays, the
                    // protocol answers `too-large` (conform::answer), not `bad-move`.
                    let number = start.move_number().saturating_add(n.saturating_sub(1));
                    if e.kind == ErrorKind::Bad && Notation::check_move_number(number).is_err() {
                        return m3go_error(py, code::TOO_LARGE, field, message);
                    }
                    let written = moves.get(k).cloned();
                    match (e.kind, f) {
                        (ErrorKind::IllegalMove, f) => {
                            let (reason, clause) = match f {
                                ListedError::Refused { illegal: i, .. } => (
                                    Some(i.reason.code().to_string()),
                                    Some(i.clause.to_string()),
                                ),
                                _ => (None, None),
                            };
                            m3go_error_with(
                                py,
                                code::ILLEGAL_MOVE,
                                field,
                                message,
                                vec![("reason", reason), ("clause", clause), ("move", written)],
                            )
                        }
                        (_, f) => {
                            let (problem, reason) = match f {
                                ListedError::Unread { error: e, .. } => (
                                    Some(e.problem.code().to_string()),
                                    Some(e.problem.reason().to_string()),
                                ),
                                _ => (None, None),
                            };
                            m3go_error_with(
                                py,
                                code::BAD_MOVE,
                                field,
                                message,
                                vec![("problem", problem), ("reason", reason), ("move", written)],
                            )
                        }
                    }
                }
                None => m3go_error(py, code::TOO_LARGE, Some("moves".into()), message),
            }
        })
}

/// The legal moves of the side to move, in notation, as the analysis lists them.
fn legal_moves_of(pos: &Position) -> Vec<String> {
    let turn = pos.turn();
    pos.legal_moves()
        .into_iter()
        .map(|m| Notation::format_numbered(pos.rules(), pos.move_number(), turn, m.action))
        .collect()
}

/// The clause trace of `target` (a point, a string, a move), as `m3go explain` prints it.
fn explain_of(py: Python<'_>, pos: &Position, target: &str) -> PyResult<String> {
    py.detach(|| m3go_engine::formats::explain::Trace::explain(pos, target).map(|t| t.to_string()))
        .map_err(|e| m3go_error(py, code::BAD_REQUEST, Some("target".into()), e.to_string()))
}

/// The analysis of a position: the object `m3go analyze --format json` prints, as a dict.
#[pyfunction]
fn analyze<'py>(py: Python<'py>, position: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    let pos = position_of(py, position)?;
    let text = py.detach(|| json_of(&AnalysisReport::new(&pos)))?;
    json_to_python(py, text)
}

/// Moves played from a position: the object `m3go play --format json` prints (what each move
/// did, then the analysis of the position after the last one), as a dict.
#[pyfunction]
fn play<'py>(
    py: Python<'py>,
    position: &Bound<'py, PyAny>,
    moves: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let start = position_of(py, position)?;
    let (end, reports) = play_moves(py, &start, &moves_of(py, moves)?)?;
    let report = py.detach(|| PlayReport::new(reports, &end));
    to_python(py, &report)
}

/// The legal moves of the side to move, in notation (the analysis' `legal_moves`).
#[pyfunction]
fn legal_moves(py: Python<'_>, position: &Bound<'_, PyAny>) -> PyResult<Vec<String>> {
    let pos = position_of(py, position)?;
    Ok(py.detach(|| legal_moves_of(&pos)))
}

/// The clause trace of a point (`六四`), a string (`七九*`) or a move (`华289.一九`), as
/// `m3go explain` prints it.
#[pyfunction]
fn explain(
    py: Python<'_>,
    position: &Bound<'_, PyAny>,
    target: &Bound<'_, PyString>,
) -> PyResult<String> {
    let pos = position_of(py, position)?;
    explain_of(py, &pos, str_arg(py, target, "target")?)
}

/// The answer `m3go protocol` gives to one `m3go-conform/2` (or `/1`) request (a dict, or one
/// JSON line): a capabilities answer, a case answer, `unsupported`, or an error answer
/// (`{"error": {"code", "field", "message"}}`) — never an exception, as the protocol answers
/// every line. A dict is
/// read as the line `json.dumps` makes of it: too deep or recursive, or not JSON, is the
/// protocol's `bad-request`, longer than a protocol line (4 MiB) `too-large`; the answer's `id`
/// is the request's own (an integer of any size).
#[pyfunction]
fn conform_case<'py>(py: Python<'py>, request: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    let line = match request.cast::<PyString>() {
        Ok(line) => text_of(line)
            .map(str::to_string)
            .map_err(|m| format!("the request is not Unicode text: {m}")),
        Err(_) => json_text(request, MAX_INPUT_BYTES, true).map_err(|e| match e {
            ConvError::TooLarge { .. } => String::new(),
            e => format!("the request is not JSON: {}", e.message("request")),
        }),
    };
    let answer = match line {
        Ok(line) if line.len() > MAX_INPUT_BYTES => text(&too_large_answer()),
        Ok(line) => py.detach(|| answer_line_text(&line, &Capabilities::m3go(), Engine::Fast)),
        Err(m) if m.is_empty() => text(&too_large_answer()),
        Err(m) => text(&error_answer(
            serde_json::Value::Null,
            code::BAD_REQUEST,
            None,
            m,
        )),
    };
    // Python's own reader: an id beyond 64 bits, echoed as written, reads back as that integer
    let answer = py.import("json")?.call_method1("loads", (answer,))?;
    Ok(answer)
}

/// The protocol's answer to a line longer than 4 MiB (`m3go protocol`'s).
fn too_large_answer() -> serde_json::Value {
    error_answer(
        serde_json::Value::Null,
        code::TOO_LARGE,
        None,
        format!(
            "the line is longer than {MAX_INPUT_BYTES} bytes: expected at most {MAX_INPUT_BYTES} bytes"
        ),
    )
}

/// A conformance case file (spec/cases/*.yaml) read as the runner reads it.
fn case_of(py: Python<'_>, path: &Bound<'_, PyString>) -> PyResult<Case> {
    let path = str_arg(py, path, "case")?;
    py.detach(|| Case::load(path, None))
        .map_err(|e| m3go_error(py, code::BAD_REQUEST, Some("case".into()), e.to_string()))
}

/// The `m3go-conform/2` request the runner sends for a case file (its record replay included).
#[pyfunction]
fn case_request<'py>(py: Python<'py>, path: &Bound<'py, PyString>) -> PyResult<Bound<'py, PyAny>> {
    let case = case_of(py, path)?;
    to_python(py, &case.request())
}

/// What the runner finds wrong in `answer` (a dict) for a case file: one message per failed
/// check, an empty list when the answer passes.
#[pyfunction]
fn check_case(
    py: Python<'_>,
    path: &Bound<'_, PyString>,
    answer: &Bound<'_, PyAny>,
) -> PyResult<Vec<String>> {
    let case = case_of(py, path)?;
    let ans = json_value_of(py, answer, "answer")?;
    Ok(py.detach(|| check(&case, &ans)))
}

/// The library's own call behind [`analyze`], `n` times in a loop on the text of a position
/// (read, validated, analysed, made the JSON value `m3go analyze --format json` prints): the
/// seconds each call took, for python/bench/analyze_speed.py's comparison in one process.
#[pyfunction]
fn _analyze_loop(py: Python<'_>, position: &str, n: u32) -> PyResult<f64> {
    let position = position.to_string();
    let took = py.detach(|| -> Result<std::time::Duration, m3go_engine::InputError> {
        let start = std::time::Instant::now();
        for _ in 0..n {
            let setup: Setup = from_yaml(&position, "position")?;
            let pos = setup.to_position("position")?;
            let v = serde_json::to_value(AnalysisReport::new(&pos))
                .map_err(m3go_engine::InputError::internal)?;
            std::hint::black_box(v);
        }
        Ok(start.elapsed())
    });
    let took = took.map_err(|e| bad_position(py, e))?;
    Ok(took.as_secs_f64() / f64::from(n.max(1)))
}

/// The rules of a replay: `rules` when given (a preset name or YAML mapping as text, or a
/// dict, as a position file's `rules:`), else m3go-2020 for the mechanical replay (003
/// replays a Go record under m3go's rules), else the record's own (as `m3go replay`).
fn replay_rules(
    py: Python<'_>,
    record: &m3go_engine::formats::record::Record,
    rules: Option<&Bound<'_, PyAny>>,
    mechanical: bool,
) -> PyResult<Rules> {
    let bad = |e: &dyn std::fmt::Display| {
        m3go_error(py, code::BAD_REQUEST, Some("rules".into()), e.to_string())
    };
    let field: RulesField = match rules {
        None => {
            return if mechanical {
                Ok(Rules::m3go_2020())
            } else {
                record.resolve_rules(None).map_err(|e| {
                    m3go_error(py, code::BAD_REQUEST, Some("record".into()), e.to_string())
                })
            }
        }
        Some(r) => match r.cast::<PyString>() {
            Ok(text) => from_yaml(str_arg(py, text, "rules")?, "rules").map_err(|e| bad(&e))?,
            Err(_) if r.is_instance_of::<PyDict>() => {
                serde_json::from_value(json_value_of(py, r, "rules")?).map_err(|e| bad(&e))?
            }
            Err(_) => {
                return Err(PyTypeError::new_err(format!(
                    "rules: expected a preset name, a YAML mapping or a dict, got {}",
                    r.get_type().name()?
                )))
            }
        },
    };
    field.resolve().map_err(|e| bad(&e))
}

/// A record replayed as `m3go replay [--mechanical] --format json` replays it: a dict of
/// `entries` (the log, one per record move, as the command writes them, each with `replaced`
/// and its `reason`, `clause` and `message`, None when the move was not replaced), `replaced`
/// (the replaced moves counted by reason), `mechanical`, and `position`, the final `Position`.
/// `record` is the text of an SGF record or a game file (a game file may not name a position
/// file: nothing is read from disk). A record that does not read, or rules that do not, is
/// `bad-request`; a move a strict replay refuses `illegal-move` (field `record`, with the
/// move's `reason`, `clause` and `move`); a text over 4 MiB `too-large`.
#[pyfunction]
#[pyo3(signature = (record, mechanical = false, rules = None, to = None))]
fn replay<'py>(
    py: Python<'py>,
    record: &Bound<'py, PyString>,
    mechanical: bool,
    rules: Option<&Bound<'py, PyAny>>,
    to: Option<u32>,
) -> PyResult<Bound<'py, PyDict>> {
    let text = str_arg(py, record, "record")?;
    if text.len() > MAX_INPUT_BYTES {
        return Err(m3go_error(
            py,
            code::TOO_LARGE,
            Some("record".into()),
            format!(
                "record: {} bytes is too large: expected at most {MAX_INPUT_BYTES} bytes",
                text.len()
            ),
        ));
    }
    let rec = py
        .detach(|| m3go_engine::formats::record::Record::parse_sent(text, "record"))
        .map_err(|e| m3go_error(py, code::BAD_REQUEST, Some("record".into()), e.to_string()))?;
    let rules = replay_rules(py, &rec, rules, mechanical)?;
    let replayed = py.detach(|| {
        if mechanical {
            m3go::tools::replay::mechanical(&rec, &rules, to, Engine::Fast)
        } else {
            m3go::tools::replay::strict(&rec, &rules, to, Engine::Fast)
        }
    });
    let rep = match replayed {
        Ok(rep) => rep,
        Err(e) if e.kind == ErrorKind::IllegalMove => {
            let (reason, clause, written) = match e.place.move_number {
                Some(n) => py.detach(|| strict_refusal(&rec, &rules, n)),
                None => (None, None, None),
            };
            return Err(m3go_error_with(
                py,
                code::ILLEGAL_MOVE,
                Some("record".into()),
                e.to_string(),
                vec![("reason", reason), ("clause", clause), ("move", written)],
            ));
        }
        Err(e) => {
            return Err(m3go_error(
                py,
                code::BAD_REQUEST,
                Some("record".into()),
                e.to_string(),
            ))
        }
    };
    let mut entries =
        serde_json::to_value(&rep.entries).map_err(|e| PyException::new_err(e.to_string()))?;
    for entry in entries.as_array_mut().into_iter().flatten() {
        if let Some(o) = entry.as_object_mut() {
            let replaced = o.get("status").and_then(|s| s.as_str()) == Some("replaced");
            o.insert("replaced".into(), serde_json::Value::Bool(replaced));
            for key in ["reason", "clause", "message"] {
                o.entry(key).or_insert(serde_json::Value::Null);
            }
        }
    }
    let d = PyDict::new(py);
    d.set_item("entries", to_python(py, &entries)?)?;
    d.set_item("replaced", to_python(py, &rep.replaced_by_reason())?)?;
    d.set_item("mechanical", mechanical)?;
    d.set_item(
        "position",
        Bound::new(
            py,
            PyPosition {
                inner: rep.position,
            },
        )?,
    )?;
    Ok(d)
}

/// The refusal of move `number` of a record a strict replay refused (its error carries only
/// the message): the record replayed up to the move before, then that move played as the
/// record claims it. The reason code, the clause and the move as written; None where the move
/// is not found or plays.
fn strict_refusal(
    rec: &m3go_engine::formats::record::Record,
    rules: &Rules,
    number: u32,
) -> (Option<String>, Option<String>, Option<String>) {
    let Some(k) = rec.moves.iter().position(|m| m.number == number) else {
        return (None, None, None);
    };
    let written = rec.moves.get(k).map(|m| m.text.clone());
    let before =
        m3go::tools::replay::strict(rec, rules, Some(number.saturating_sub(1)), Engine::Fast);
    match before.map(|r| r.position.play_reported(&rec.claimed_move(k))) {
        Ok(Err(i)) => (
            Some(i.reason.code().to_string()),
            Some(i.clause.to_string()),
            written,
        ),
        _ => (None, None, written),
    }
}

/// A hash of every part of a position its equality compares (rules, board, move number,
/// earlier boards, trailing passes, dead stones, Flystone state; not the engine): equal
/// positions hash equal. The rules and the Flystone state are hashed through their JSON text
/// (they do not implement `Hash`); `DefaultHasher::new` has fixed keys, so the hash is the same
/// in every run.
fn position_hash(pos: &Position) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    serde_json::to_string(pos.rules())
        .unwrap_or_default()
        .hash(&mut h);
    pos.board().hash(&mut h);
    pos.move_number().hash(&mut h);
    pos.history().hash(&mut h);
    pos.trailing_passes().hash(&mut h);
    pos.dead().hash(&mut h);
    serde_json::to_string(&pos.flystone())
        .unwrap_or_default()
        .hash(&mut h);
    h.finish()
}

/// A valid position (immutable): read from the YAML text of a position file, a dict of the same
/// keys, or another `Position`.
#[pyclass(name = "Position", module = "m3go", frozen)]
struct PyPosition {
    inner: Position,
}

#[pymethods]
impl PyPosition {
    #[new]
    fn new(py: Python<'_>, position: &Bound<'_, PyAny>) -> PyResult<PyPosition> {
        Ok(PyPosition {
            inner: position_of(py, position)?,
        })
    }

    /// The position of a position file's text.
    #[staticmethod]
    fn from_yaml(py: Python<'_>, text: &Bound<'_, PyString>) -> PyResult<PyPosition> {
        Ok(PyPosition {
            inner: position_of_yaml(py, text)?,
        })
    }

    /// The position file that reads back as this position (rules as the full option mapping).
    fn to_yaml(&self) -> PyResult<String> {
        serde_yaml::to_string(&self.inner.to_setup())
            .map_err(|e| PyException::new_err(e.to_string()))
    }

    /// The position file's keys as a dict (`Position(d)` reads it back).
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_python(py, &self.inner.to_setup())
    }

    /// The position after `moves` (one move or a list), each played as `m3go play` plays it.
    fn play(&self, py: Python<'_>, moves: &Bound<'_, PyAny>) -> PyResult<PyPosition> {
        let (end, _) = play_moves(py, &self.inner, &moves_of(py, moves)?)?;
        Ok(PyPosition { inner: end })
    }

    /// The legal moves of the side to move, in notation.
    fn legal_moves(&self, py: Python<'_>) -> Vec<String> {
        py.detach(|| legal_moves_of(&self.inner))
    }

    /// The analysis, as `m3go.analyze` returns it.
    fn analyze<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let text = py.detach(|| json_of(&AnalysisReport::new(&self.inner)))?;
        json_to_python(py, text)
    }

    /// The clause trace of a point, a string or a move, as `m3go.explain` returns it.
    fn explain(&self, py: Python<'_>, target: &Bound<'_, PyString>) -> PyResult<String> {
        explain_of(py, &self.inner, str_arg(py, target, "target")?)
    }

    /// The board size.
    #[getter]
    fn size(&self) -> usize {
        self.inner.board().size()
    }

    /// The number of the next move.
    #[getter]
    fn move_number(&self) -> u32 {
        self.inner.move_number()
    }

    /// The stone of the next move as the notation writes it (黑, 白, 华, 花, …).
    #[getter]
    fn to_move(&self) -> String {
        self.inner.turn().symbol().to_string()
    }

    /// Whether the game is over.
    #[getter]
    fn game_over(&self) -> bool {
        self.inner.game_over()
    }

    /// The direct board as a diagram (top row first; `.` empty, `X` black, `O` white, `#`
    /// flower).
    #[getter]
    fn diagram(&self) -> String {
        self.inner.board().to_diagram()
    }

    /// How many of the most recent moves were passes that count towards the end of the game
    /// (a mechanical replay's replaced pass resets it: register D25).
    #[getter]
    fn trailing_passes(&self) -> u32 {
        self.inner.trailing_passes()
    }

    /// Equal when the game state is: rules, board, move number, earlier boards, trailing
    /// passes, dead stones and the Flystone state (the library's equality of positions).
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<PyPosition>()
            .is_ok_and(|o| o.get().inner == self.inner)
    }

    /// A hash of what `__eq__` compares, so that equal positions hash equal.
    fn __hash__(&self) -> u64 {
        position_hash(&self.inner)
    }

    fn __repr__(&self) -> String {
        format!(
            "Position(size={}, move={}, to_move={:?})",
            self.size(),
            self.move_number(),
            self.to_move()
        )
    }
}

/// The `m3go` command line run in this process on `args` (the program's name first, as the
/// binary's `main` passes `std::env::args_os`): what the package's `m3go` command and
/// `python -m m3go` call (m3go/__main__.py). Returns the exit code. The command runs without the
/// interpreter's lock; standard output is flushed at the end, as the binary's exit flushes it
/// (a line the command left unfinished is written too; as there, a failed flush is not reported).
#[pyfunction]
fn _run_command(py: Python<'_>, args: Vec<std::ffi::OsString>) -> i32 {
    let code = py.detach(|| m3go::cli::run(args));
    let _ = std::io::Write::flush(&mut std::io::stdout());
    code
}

#[pymodule]
fn _m3go(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add_class::<PyPosition>()?;
    m.add_function(wrap_pyfunction!(analyze, m)?)?;
    m.add_function(wrap_pyfunction!(play, m)?)?;
    m.add_function(wrap_pyfunction!(legal_moves, m)?)?;
    m.add_function(wrap_pyfunction!(explain, m)?)?;
    m.add_function(wrap_pyfunction!(conform_case, m)?)?;
    m.add_function(wrap_pyfunction!(case_request, m)?)?;
    m.add_function(wrap_pyfunction!(check_case, m)?)?;
    m.add_function(wrap_pyfunction!(replay, m)?)?;
    m.add_function(wrap_pyfunction!(_analyze_loop, m)?)?;
    m.add_function(wrap_pyfunction!(_run_command, m)?)?;
    m.add("M3goError", py.get_type::<M3goError>())?;
    m.add("BadPositionError", py.get_type::<BadPositionError>())?;
    m.add("BadMoveError", py.get_type::<BadMoveError>())?;
    m.add("IllegalMoveError", py.get_type::<IllegalMoveError>())?;
    m.add("BadRequestError", py.get_type::<BadRequestError>())?;
    m.add("TooLargeError", py.get_type::<TooLargeError>())?;
    // the attributes every stub declares, None on an exception made without them (a
    // refused move's, on the class of its error)
    for name in ["code", "field", "message"] {
        py.get_type::<M3goError>().setattr(name, py.None())?;
    }
    for name in ["reason", "clause", "move"] {
        py.get_type::<IllegalMoveError>().setattr(name, py.None())?;
    }
    for name in ["problem", "reason", "move"] {
        py.get_type::<BadMoveError>().setattr(name, py.None())?;
    }
    m.add(
        "ANALYSIS_FORMAT",
        m3go_engine::formats::report::AnalysisReport::FORMAT,
    )?;
    m.add(
        "PLAY_FORMAT",
        m3go_engine::formats::report::PlayReport::FORMAT,
    )?;
    m.add("PROTOCOL", PROTOCOL)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
