//! `match`'s time arguments: a number of seconds (`--move-time`) and a clock (`--time`,
//! BASE+INCREMENT).

use crate::referee::game::Clock;
use std::time::Duration;

/// Why a number of seconds (`--move-time`, `--time`'s parts) does not read; each holds the
/// text given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum SecondsError {
    NotANumber(String),
    OutOfRange(String),
    /// A clock whose base is under a millisecond: every game would be lost on the first move.
    NoTime(String),
}

impl std::fmt::Display for SecondsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SecondsError::NotANumber(v) => write!(f, "`{v}` is not a number of seconds"),
            SecondsError::OutOfRange(v) => write!(f, "`{v}`: expected 0 to a year of seconds"),
            SecondsError::NoTime(v) => write!(
                f,
                "`{v}`: a clock with no time, lost on the first move: expected a BASE of at \
                 least 0.001 seconds"
            ),
        }
    }
}

impl std::error::Error for SecondsError {}

fn seconds(v: &str) -> Result<Duration, SecondsError> {
    let s: f64 = v
        .trim()
        .parse()
        .map_err(|_| SecondsError::NotANumber(v.to_string()))?;
    if !(0.0..=86400.0 * 365.0).contains(&s) {
        return Err(SecondsError::OutOfRange(v.to_string()));
    }
    Ok(Duration::from_secs_f64(s))
}

pub(crate) fn parse_clock(v: &str) -> Result<Clock, SecondsError> {
    let (base, inc) = v.split_once('+').unwrap_or((v, "0"));
    let base = seconds(base)?;
    let increment = seconds(inc)?;
    if base < Duration::from_millis(1) {
        return Err(SecondsError::NoTime(v.to_string()));
    }
    Ok(Clock { base, increment })
}
