//! The errors of m3go's outer ring: the engine's [`InputError`] (a bad input, an illegal move),
//! and the failures that belong to the command rather than to the rules: an output that cannot
//! be written, a bound on the work reached. Each is worded as an input error is (a place, what,
//! what was expected); only the kind, and so the JSON error code, tells them apart.

use m3go_engine::InputError;
use std::fmt;

/// An error of a command: its message is the [`InputError`]'s it holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Error {
    /// A bad input, an illegal move, an unreadable file: the engine's error.
    Input(InputError),
    /// An output cannot be written (refused by what the path is, or the write failed).
    Unwritable(InputError),
    /// A bound on the work was reached (`perft --max-nodes`).
    LimitExceeded(InputError),
}

impl Error {
    /// The error as an input error: where, what, what was expected.
    pub fn input(&self) -> &InputError {
        match self {
            Error::Input(e) | Error::Unwritable(e) | Error::LimitExceeded(e) => e,
        }
    }

    /// The same error, its input error changed by `f`.
    pub fn map(self, f: impl FnOnce(InputError) -> InputError) -> Error {
        match self {
            Error::Input(e) => Error::Input(f(e)),
            Error::Unwritable(e) => Error::Unwritable(f(e)),
            Error::LimitExceeded(e) => Error::LimitExceeded(f(e)),
        }
    }

    /// Names the key, field or flag ([`InputError::key`]).
    pub fn key(self, key: impl Into<String>) -> Error {
        self.map(|e| e.key(key))
    }
}

/// Turns an error into one of the outer ring's kinds, whatever kind it had.
pub trait OfKind: Into<Error> {
    /// The error as an output that cannot be written.
    fn unwritable(self) -> Error {
        match self.into() {
            Error::Input(e) | Error::Unwritable(e) | Error::LimitExceeded(e) => {
                Error::Unwritable(e)
            }
        }
    }

    /// The error as a bound on the work reached.
    fn limit_exceeded(self) -> Error {
        match self.into() {
            Error::Input(e) | Error::Unwritable(e) | Error::LimitExceeded(e) => {
                Error::LimitExceeded(e)
            }
        }
    }
}

impl OfKind for InputError {}
impl OfKind for Error {}

impl From<InputError> for Error {
    fn from(e: InputError) -> Self {
        Error::Input(e)
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.input().fmt(f)
    }
}

impl std::error::Error for Error {}
