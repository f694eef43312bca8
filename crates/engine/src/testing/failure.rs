//! The error of a checker ([`checks`](super::checks), [`eye_checks`](super::eye_checks),
//! [`round_trips`](super::round_trips)): an invariant that does not hold, described with the
//! position and the failing part, or a step of the check that was refused.

use crate::error::InputError;
use crate::game::setup::PositionError;
use crate::judge::scoring::ScoreError;
use std::fmt;

/// Why a check failed.
#[derive(Debug)]
pub enum CheckFailure {
    /// An invariant does not hold: what differs, on which position (and move).
    Broken(String),
    /// Scoring the position was refused (in the score-sum check).
    ScoreRefused(ScoreError),
    /// Scoring a position (or its image) was refused.
    Score(ScoreError),
    /// A setup read back from its YAML was refused.
    Setup(InputError),
    /// A position (an image, a swapped or fresh copy) was refused.
    Position(PositionError),
    /// A setup read back from its YAML was refused as a position; the YAML.
    PositionOfYaml { source: PositionError, yaml: String },
    /// A setup could not be written as YAML.
    ToYaml(serde_yaml::Error),
    /// A setup could not be written as JSON.
    ToJson(serde_json::Error),
    /// A setup's JSON did not read back; the JSON.
    FromJson {
        source: serde_json::Error,
        json: String,
    },
    /// A check of the position after a move failed (`here` names the move and the position).
    After {
        here: String,
        source: Box<CheckFailure>,
    },
}

impl fmt::Display for CheckFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CheckFailure::Broken(what) => f.write_str(what),
            CheckFailure::ScoreRefused(e) => write!(f, "score refused: {e}"),
            CheckFailure::Score(e) => write!(f, "{e}"),
            CheckFailure::Setup(e) => write!(f, "{e}"),
            CheckFailure::Position(e) => write!(f, "{e}"),
            CheckFailure::PositionOfYaml { source, yaml } => write!(f, "{source}; YAML:\n{yaml}"),
            CheckFailure::ToYaml(e) => write!(f, "to YAML: {e}"),
            CheckFailure::ToJson(e) => write!(f, "to JSON: {e}"),
            CheckFailure::FromJson { source, json } => write!(f, "from JSON: {source}; {json}"),
            CheckFailure::After { here, source } => write!(f, "after {here}: {source}"),
        }
    }
}

impl std::error::Error for CheckFailure {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            CheckFailure::Broken(_) => None,
            CheckFailure::ScoreRefused(e) | CheckFailure::Score(e) => Some(e),
            CheckFailure::Setup(e) => Some(e),
            CheckFailure::Position(e) | CheckFailure::PositionOfYaml { source: e, .. } => Some(e),
            CheckFailure::ToYaml(e) => Some(e),
            CheckFailure::ToJson(e) | CheckFailure::FromJson { source: e, .. } => Some(e),
            CheckFailure::After { source, .. } => Some(source.as_ref()),
        }
    }
}
