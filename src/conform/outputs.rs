//! The JSON outputs of the command line that are not the contract's own (the analysis, the play
//! report, the protocol's messages and the summaries of `conform` and `diff` are in
//! `formats::report`, `conform::protocol` and `conform::report`): each a typed value with a
//! `format` tag naming its version, so that `m3go schema` generates its schema from the type
//! (docs/src/json.md lists them all). `ErrorReport` is the one error object every command
//! taking `--format json` prints on standard output when it fails.

use m3go_engine::game::Text;
use m3go_engine::{ErrorKind, InputError, Place};
use schemars::JsonSchema;
use serde::Serialize;
use std::collections::BTreeMap;

/// The format tag of the error object.
pub(crate) const ERROR_FORMAT: &str = "m3go-error/1";
/// The format tag of `replay --format json` (one record).
pub(crate) const REPLAY_FORMAT: &str = "m3go-replay/1";
/// The format tag of `replay --format json` given several records.
pub(crate) const REPLAYS_FORMAT: &str = "m3go-replays/1";
/// The format tag of `perft --format json`.
pub(crate) const PERFT_FORMAT: &str = "m3go-perft/1";
/// The format tag of `clause ID --format json` and `clause --list --format json`.
pub(crate) const CLAUSE_FORMAT: &str = "m3go-clause/1";
/// The format tag of `rules --format json` and `rules check FILE --format json`.
pub(crate) const RULES_FORMAT: &str = "m3go-rules/1";

/// What kind of failure an [`ErrorReport`] is: a stable code, as written in JSON.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
#[cfg_attr(feature = "testing", visibility::make(pub))]
pub(crate) enum ErrorCode {
    /// The command line does not parse: an unknown flag, a flag's value out of its range or not
    /// one of its values, a missing argument (found before the command runs).
    Usage,
    /// An input is malformed or inconsistent: a position, a record, a rules mapping, a move's
    /// notation, a flag's value the command refuses.
    BadInput,
    /// A move reads, but the rules refuse it.
    IllegalMove,
    /// A file or stream cannot be read.
    Unreadable,
    /// An output cannot be written (what the path is, or the write failed); nothing written is
    /// left half done (the file is unchanged) unless `message` says so.
    Unwritable,
    /// A bound on the work was reached (`perft --max-nodes`).
    LimitExceeded,
    /// The program under test (`conform --impl`, `diff`) could not be started or could not
    /// answer the first request.
    ProgramFailed,
    /// m3go failed in a way that is not the input's fault (a thread pool, a serialisation).
    Internal,
}

impl ErrorCode {
    /// The code of an input error, by its kind.
    pub fn of_kind(kind: ErrorKind) -> ErrorCode {
        match kind {
            ErrorKind::Bad => ErrorCode::BadInput,
            ErrorKind::IllegalMove => ErrorCode::IllegalMove,
            ErrorKind::Unreadable => ErrorCode::Unreadable,
            ErrorKind::Internal => ErrorCode::Internal,
        }
    }

    /// The code of a command's error: an input error's by its kind, else the error's own.
    pub fn of_error(e: &crate::errors::Error) -> ErrorCode {
        match e {
            crate::errors::Error::Input(e) => ErrorCode::of_kind(e.kind),
            crate::errors::Error::Unwritable(_) => ErrorCode::Unwritable,
            crate::errors::Error::LimitExceeded(_) => ErrorCode::LimitExceeded,
        }
    }
}

/// Where an error is, as far as it is known; every field may be absent.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, JsonSchema)]
pub(crate) struct ErrorPlace {
    /// The file, or the stream or flag the text came from (`stdin`, `--rules`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    /// The line, 1-based.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1))]
    pub line: Option<u64>,
    /// The column, 1-based.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1))]
    pub column: Option<u64>,
    /// The flag (`--max-nodes`, `-o`), the argument (`MOVE`, `ID`) or the key of the file
    /// (`rules`, `history[0]`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,
    /// The number of the move.
    #[serde(rename = "move", skip_serializing_if = "Option::is_none")]
    pub move_number: Option<u32>,
    /// The place in words where no line says it (`SGF node 4`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub at: Option<String>,
    /// The offending text as written.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
}

impl ErrorPlace {
    /// `None` when nothing is known.
    fn of(p: &Place) -> Option<ErrorPlace> {
        if p.is_empty() {
            return None;
        }
        Some(ErrorPlace {
            file: p.file.clone(),
            line: p.line.map(|l| l as u64),
            column: p.column.map(|c| c as u64),
            key: p.key.clone(),
            move_number: p.move_number,
            at: p.at.clone(),
            text: p
                .text
                .as_deref()
                .map(m3go_engine::InputError::shorten_words),
        })
    }
}

/// The error object (`m3go-error/1`): what a command given `--format json` prints on standard
/// output, alone, when it fails (the one-line message still goes to standard error; the exit
/// code is the command's: 2 for bad input).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub(crate) struct ErrorReport {
    /// `m3go-error/1`.
    #[schemars(extend("const" = ERROR_FORMAT))]
    pub format: String,
    pub code: ErrorCode,
    /// Where the problem is; null when nothing is known.
    pub place: Option<ErrorPlace>,
    /// The enclosing places, outermost first (the case file whose `start:` names the record
    /// that holds the error); absent when none.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub within: Vec<ErrorPlace>,
    /// What the input should have been, when the message says it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expected: Option<String>,
    /// The whole message, as standard error gets it (without `error: `).
    pub message: String,
    /// The exit code the command ends with.
    pub exit: i32,
}

impl ErrorReport {
    /// The report of an input error (exit 2).
    pub fn of_input(e: &InputError) -> ErrorReport {
        ErrorReport {
            format: ERROR_FORMAT.to_string(),
            code: ErrorCode::of_kind(e.kind),
            place: ErrorPlace::of(&e.place),
            within: e.outer.iter().filter_map(ErrorPlace::of).collect(),
            expected: e.expected.clone(),
            message: e.to_string(),
            exit: 2,
        }
    }

    /// The report of a command's error (exit 2): an input error's, its code the error's kind.
    pub fn of_error(e: &crate::errors::Error) -> ErrorReport {
        ErrorReport {
            code: ErrorCode::of_error(e),
            ..ErrorReport::of_input(e.input())
        }
    }

    /// A report of `code` with a message and no known place.
    pub fn new(code: ErrorCode, message: impl Into<String>, exit: i32) -> ErrorReport {
        ErrorReport {
            format: ERROR_FORMAT.to_string(),
            code,
            place: None,
            within: Vec::new(),
            expected: None,
            message: message.into(),
            exit,
        }
    }
}

/// `explain --format json` (`m3go-explain/1`).
#[derive(Debug, Serialize, JsonSchema)]
pub(crate) struct ExplainReport {
    /// `m3go-explain/1`.
    #[schemars(extend("const" = m3go_engine::formats::explain::Trace::FORMAT))]
    pub format: String,
    /// The target explained, as given (its point or move in the Chinese labels).
    pub target: Text,
    /// The whole trace as text (the text output, with the Chinese labels).
    pub trace: Text,
    /// The trace's steps, in order: one line of `trace` each (a refused move's, two).
    pub steps: Vec<m3go_engine::formats::explain::TraceStep>,
    /// `--readings`: the readings of the position and of the target (`m3go-readings/1`); null
    /// without it.
    pub readings: Option<crate::tools::readings::Readings>,
}

/// `replay --format json` of one record (`m3go-replay/1`).
#[derive(Debug, Serialize, JsonSchema)]
pub(crate) struct ReplayReport {
    /// `m3go-replay/1`.
    #[schemars(extend("const" = REPLAY_FORMAT))]
    pub format: String,
    /// One entry a move of the record, in order.
    pub entries: Vec<crate::tools::replay::Entry>,
    /// The moves replaced by passes, counted by refusal code.
    pub replaced: BTreeMap<String, usize>,
    /// The final position, as a position file holds it.
    pub position: m3go_engine::Setup,
}

/// `replay --format json` of several records (`m3go-replays/1`).
#[derive(Debug, Serialize, JsonSchema)]
pub(crate) struct ReplaysReport {
    /// `m3go-replays/1`.
    #[schemars(extend("const" = REPLAYS_FORMAT))]
    pub format: String,
    /// One line a record, in the order given.
    pub records: Vec<RecordLine>,
    /// The total line (`N records replayed, N failed; N moves, N replaced by passes`).
    pub total: String,
}

/// One record of a replay of several.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(untagged)]
pub(crate) enum RecordLine {
    /// Replayed: the summary line (Chinese and English), the moves and the replaced ones by
    /// refusal code.
    Replayed {
        record: String,
        summary: String,
        summary_en: String,
        moves: usize,
        replaced: BTreeMap<String, usize>,
    },
    /// It failed to replay: the message.
    Failed { record: String, error: String },
}

/// `perft --format json` (`m3go-perft/1`).
#[derive(Debug, Serialize, JsonSchema)]
pub(crate) struct PerftReport {
    /// `m3go-perft/1`.
    #[schemars(extend("const" = PERFT_FORMAT))]
    pub format: String,
    /// The number of moves.
    pub depth: u32,
    /// The number of legal move sequences of `depth` moves.
    pub total: u64,
    /// `--divide`: the count under each first move, in the order listed; absent without it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub divide: Option<Vec<DivideLine>>,
}

/// One first move of `perft --divide`.
#[derive(Debug, Serialize, JsonSchema)]
pub(crate) struct DivideLine {
    /// The move, in the documents' notation.
    #[serde(rename = "move")]
    pub mv: String,
    pub count: u64,
}

/// `clause ID --format json` and `clause --list --format json` (`m3go-clause/1`): a clause, a
/// disputed point, or the whole register.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(untagged)]
pub(crate) enum ClauseReport {
    /// One clause of rules.md's register.
    Clause {
        #[schemars(extend("const" = CLAUSE_FORMAT))]
        format: String,
        #[serde(flatten)]
        clause: crate::conform::register::Clause,
    },
    /// One entry of the disputed-points register.
    Disputed {
        #[schemars(extend("const" = CLAUSE_FORMAT))]
        format: String,
        #[serde(flatten)]
        disputed: crate::conform::register::Disputed,
    },
    /// `--list`: every clause and every disputed point.
    List {
        #[schemars(extend("const" = CLAUSE_FORMAT))]
        format: String,
        clauses: Vec<crate::conform::register::Clause>,
        disputed: Vec<crate::conform::register::Disputed>,
    },
}

/// `rules --format json` and `rules check FILE --format json` (`m3go-rules/1`).
#[derive(Debug, Serialize, JsonSchema)]
#[serde(untagged)]
pub(crate) enum RulesReport {
    /// The presets with their rules, and every option a `rules:` mapping accepts.
    List {
        #[schemars(extend("const" = RULES_FORMAT))]
        format: String,
        presets: BTreeMap<String, m3go_engine::Rules>,
        options: Vec<OptionLine>,
    },
    /// `rules check FILE`: the file is valid, and what it resolves to.
    Check {
        #[schemars(extend("const" = RULES_FORMAT))]
        format: String,
        file: String,
        rules: m3go_engine::Rules,
    },
}

/// One rule option (rules.md's options table).
#[derive(Debug, Serialize, JsonSchema)]
pub(crate) struct OptionLine {
    /// Its YAML key (`tigers-mouth`).
    pub name: String,
    /// Its values, as the options table writes them.
    pub values: String,
    pub meaning: String,
}
