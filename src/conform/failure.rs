//! A failure of a program driven by m3go ([`crate::conform::runner::External`], a GTP player of
//! `m3go match`): it could not be started, did not answer in time, wrote something that is not
//! an answer, or exited. Typed, so that a caller tells the kinds apart by the variant (the
//! referee's forfeit kinds, `crate::referee::game::failure_kind`); worded by `Display` as the
//! runner reports it.

use crate::io::clip;
use std::fmt;
use std::time::Duration;

/// How much of a program's answer a message quotes.
const QUOTED_ANSWER_CHARS: usize = 200;

/// A program stopped after a failure: how it ended and its command, the end of the failure's
/// message (` (exit status 1; `prog` was stopped)`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stopped {
    /// How it ended (`exit status 1`, `killed by a signal`), empty when it was not running.
    pub how: String,
    /// The command it was started with.
    pub command: String,
}

impl fmt::Display for Stopped {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, " ({}; `{}` was stopped)", self.how, self.command)
    }
}

/// Why an answer line could not be read at all (before it could be read as JSON).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UnreadableLine {
    /// Reading the program's output failed.
    Io(String),
    /// The line is longer than the limit (in bytes).
    TooLong(usize),
    /// The line is not UTF-8.
    NotUtf8(String),
    /// The program wrote more than the bound (in bytes, each line counting 64 more) of lines
    /// that were not taken: lines ahead of its requests, or an answer that does not end.
    Unrequested(usize),
}

impl fmt::Display for UnreadableLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UnreadableLine::Io(e) => write!(f, "cannot read its answer: {e}"),
            UnreadableLine::TooLong(max) => {
                write!(f, "an answer line is longer than {max} bytes")
            }
            UnreadableLine::NotUtf8(e) => write!(f, "an answer line is not UTF-8: {e}"),
            UnreadableLine::Unrequested(max) => write!(
                f,
                "it wrote more than {max} bytes of lines not yet read (ahead of what was asked, or an answer that does not end); no more is read"
            ),
        }
    }
}

/// A failure of a program under test or a player: never a rules answer (an answer with
/// `error` is an answer).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProgramFailure {
    /// `sh` could not start the command.
    Start { command: String, error: String },
    /// m3go is stopping (Ctrl-C): no program is started.
    Stopping,
    /// The program's input or output could not be taken (`stdin`, `stdout`).
    NoPipe(&'static str),
    /// The program is not running when it is asked.
    NotRunning,
    /// No answer within `limit`; `scaled_from` is the `--timeout` when the limit was scaled by
    /// the size of a replay.
    Timeout {
        limit: Duration,
        scaled_from: Option<Duration>,
        stopped: Stopped,
    },
    /// An answer line that cannot be read.
    Unreadable {
        why: UnreadableLine,
        stopped: Stopped,
    },
    /// An answer line that is not JSON (`line` clipped for the message).
    NotJson {
        error: String,
        line: String,
        stopped: Stopped,
    },
    /// A JSON answer that is not an object (`answer` clipped for the message).
    NotObject { answer: String, stopped: Stopped },
    /// The program exited (or closed its output) without answering.
    Exited { stopped: Stopped },
    /// The program exited before it could read the request.
    ExitedBeforeRequest { stopped: Stopped },
    /// A JSON object that is not an answer to the request.
    NotAnAnswer(AnswerFault),
    /// A GTP answer that begins with neither `=` nor `?` (`command` and `line` clipped).
    GtpUnreadable { command: String, line: String },
    /// A GTP player that breaks the protocol: a `?` answer where `=` is due, a missing command,
    /// another version, an answer that does not read.
    Protocol(String),
    /// The referee's request could not be put to the player (a GTP player is sent commands made
    /// from it).
    Request(String),
}

impl ProgramFailure {
    /// An answer line that is not JSON, quoting its start.
    pub fn not_json(error: String, line: &str, stopped: Stopped) -> ProgramFailure {
        ProgramFailure::NotJson {
            error,
            line: clip(line, QUOTED_ANSWER_CHARS),
            stopped,
        }
    }

    /// A JSON answer that is not an object, quoting its start.
    pub fn not_object(answer: &str, stopped: Stopped) -> ProgramFailure {
        ProgramFailure::NotObject {
            answer: clip(answer, QUOTED_ANSWER_CHARS),
            stopped,
        }
    }

    /// A GTP answer to `command` that begins with neither `=` nor `?`, quoting both.
    pub fn gtp_unreadable(command: &str, line: &str) -> ProgramFailure {
        ProgramFailure::GtpUnreadable {
            command: clip(command, 60),
            line: clip(line, QUOTED_ANSWER_CHARS),
        }
    }
}

/// Seconds rounded to the millisecond, as a message shows a time limit (`0.099`, `2.5`, `60`):
/// a limit taken from a clock's remaining time is not shown to the nanosecond.
fn in_ms(d: std::time::Duration) -> f64 {
    let ms = (d.as_micros() + 500) / 1000;
    ms as f64 / 1000.0
}

impl fmt::Display for ProgramFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProgramFailure::Start { command, error } => {
                write!(f, "cannot start `{command}`: {error}")
            }
            ProgramFailure::Stopping => write!(f, "m3go is stopping: no program is started"),
            ProgramFailure::NoPipe(which) => write!(f, "no {which}"),
            ProgramFailure::NotRunning => write!(f, "the program is not running"),
            ProgramFailure::Timeout {
                limit,
                scaled_from,
                stopped,
            } => {
                write!(f, "no answer within {} s", in_ms(*limit))?;
                if let Some(t) = scaled_from {
                    write!(
                        f,
                        " (--timeout {} s scaled by the size of the replay)",
                        in_ms(*t)
                    )?;
                }
                write!(f, ": the program hung and was stopped{stopped}")
            }
            ProgramFailure::Unreadable { why, stopped } => {
                write!(f, "the program's answer is unreadable: {why}{stopped}")
            }
            ProgramFailure::NotJson {
                error,
                line,
                stopped,
            } => write!(f, "the answer is not JSON ({error}): `{line}`{stopped}"),
            ProgramFailure::NotObject { answer, stopped } => {
                write!(f, "the answer is not a JSON object: `{answer}`{stopped}")
            }
            ProgramFailure::Exited { stopped } => write!(
                f,
                "the program exited without answering (it crashed or closed its output){stopped}"
            ),
            ProgramFailure::ExitedBeforeRequest { stopped } => {
                write!(f, "the program exited before reading the request{stopped}")
            }
            ProgramFailure::NotAnAnswer(fault) => write!(f, "{fault}"),
            ProgramFailure::Request(m) => f.write_str(m),
            ProgramFailure::GtpUnreadable { command, line } => write!(
                f,
                "the GTP answer to `{command}` is unreadable: `{line}` (a GTP answer begins with `=` or `?`)"
            ),
            ProgramFailure::Protocol(m) => write!(f, "protocol error: {m}"),
        }
    }
}

impl std::error::Error for ProgramFailure {}

/// What makes a JSON object from the program not an answer to its request (the quoted parts
/// clipped).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AnswerFault {
    /// It does not echo the request's id (both as JSON).
    WrongId { got: String, expected: String },
    /// It is not a JSON object.
    NotObject,
    /// It has a field no answer has (a program that echoes its request).
    UnknownField { field: String, answer: String },
    /// Its `declined` is not an object.
    DeclinedNotObject { declined: String },
    /// Its `declined` names something that is not a check.
    DeclinedUnknownCheck { check: String },
    /// A reason in its `declined` is not a string.
    DeclinedReasonNotText { check: String, reason: String },
    /// It says nothing besides its id; `capabilities` when it answers the capabilities request.
    Empty { capabilities: bool },
}

impl fmt::Display for AnswerFault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AnswerFault::WrongId { got, expected } => {
                write!(f, "the answer's id is {got}, expected {expected}")
            }
            AnswerFault::NotObject => write!(f, "the answer is not a JSON object"),
            AnswerFault::UnknownField { field, answer } => write!(
                f,
                "the answer has a field `{field}` that no answer has (does the program echo its requests?): `{answer}`"
            ),
            AnswerFault::DeclinedNotObject { declined } => write!(
                f,
                "the answer's `declined` is not an object: `{declined}`: expected {{\"CHECK\": \"reason\", …}}"
            ),
            AnswerFault::DeclinedUnknownCheck { check } => write!(
                f,
                "the answer's `declined` names `{check}`, which is not a check: expected some of {}",
                crate::conform::check::all_checks()
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            AnswerFault::DeclinedReasonNotText { check, reason } => write!(
                f,
                "the answer's `declined.{check}` is `{reason}`, not a string: expected the reason as text"
            ),
            AnswerFault::Empty { capabilities } => write!(
                f,
                "the answer carries nothing but its id: expected {} (or an error or `unsupported`)",
                if *capabilities {
                    "protocols and capabilities"
                } else {
                    "analysis, reports, probes or numbered"
                }
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stopped() -> Stopped {
        Stopped {
            how: "exit status 1".into(),
            command: "prog --x".into(),
        }
    }

    #[test]
    fn messages_are_worded_as_the_runner_words_them() {
        let t = ProgramFailure::Timeout {
            limit: Duration::from_millis(2500),
            scaled_from: Some(Duration::from_secs(1)),
            stopped: stopped(),
        };
        assert_eq!(
            t.to_string(),
            "no answer within 2.5 s (--timeout 1 s scaled by the size of the replay): the program \
             hung and was stopped (exit status 1; `prog --x` was stopped)"
        );
        // a limit from a clock's remaining time, rounded to the millisecond
        let t = ProgramFailure::Timeout {
            limit: Duration::from_nanos(98_691_767),
            scaled_from: None,
            stopped: stopped(),
        };
        assert!(
            t.to_string().starts_with("no answer within 0.099 s: "),
            "{t}"
        );
        let u = ProgramFailure::Unreadable {
            why: UnreadableLine::TooLong(16),
            stopped: stopped(),
        };
        assert_eq!(
            u.to_string(),
            "the program's answer is unreadable: an answer line is longer than 16 bytes \
             (exit status 1; `prog --x` was stopped)"
        );
        let long = "x".repeat(300);
        let j = ProgramFailure::not_json("expected value".into(), &long, stopped());
        assert_eq!(
            j.to_string(),
            format!(
                "the answer is not JSON (expected value): `{}…` (exit status 1; `prog --x` was stopped)",
                "x".repeat(200)
            )
        );
        assert_eq!(
            ProgramFailure::Protocol("the GTP player does not list `play`".into()).to_string(),
            "protocol error: the GTP player does not list `play`"
        );
        assert_eq!(
            ProgramFailure::gtp_unreadable("genmove b", "C3").to_string(),
            "the GTP answer to `genmove b` is unreadable: `C3` (a GTP answer begins with `=` or `?`)"
        );
        let wrong_id = ProgramFailure::NotAnAnswer(AnswerFault::WrongId {
            got: "\"x\"".into(),
            expected: "\"capabilities\"".into(),
        });
        assert_eq!(
            wrong_id.to_string(),
            "the answer's id is \"x\", expected \"capabilities\""
        );
        assert_eq!(
            AnswerFault::Empty { capabilities: true }.to_string(),
            "the answer carries nothing but its id: expected protocols and capabilities (or an \
             error or `unsupported`)"
        );
    }
}
