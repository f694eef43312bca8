//! The protocol's messages (`m3go-conform/2` and `/1`, spec/README.md "The protocol"): the case
//! request, the capabilities request and answer, error answers and their stable codes.

use crate::conform::capabilities::Capabilities;
use crate::conform::case::ReplayMode;
use m3go_engine::Setup;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The version of the protocol m3go speaks first: `m3go-conform/2` (a request names the checks
/// of its case, `checks`; an answer may decline some, `declined`; capabilities per preset).
pub const PROTOCOL: &str = "m3go-conform/2";

/// The first version: `/2` without `checks`, `declined` and `by_preset`. m3go still answers
/// it, a runner speaks it to a program that speaks nothing newer, and `m3go diff` (which needs
/// none of them) speaks it to every program; the capabilities request is always sent in it.
#[cfg_attr(feature = "testing", visibility::make(pub))]
pub(crate) const PROTOCOL_1: &str = "m3go-conform/1";

/// Every version m3go speaks, newest first.
#[cfg_attr(feature = "testing", visibility::make(pub))]
pub(crate) const PROTOCOLS: [&str; 2] = [PROTOCOL, PROTOCOL_1];

/// The version named by `protocol`, if m3go speaks it.
pub(crate) fn spoken(protocol: &str) -> Option<&'static str> {
    PROTOCOLS.iter().copied().find(|p| *p == protocol)
}

/// The id of a request, echoed by its answer: a string or a number (as in JSON-RPC), the same
/// JSON value in the request and the answer.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(untagged)]
pub enum Id {
    Text(String),
    Number(serde_json::Number),
}

impl Id {
    /// The id as the JSON value an answer echoes.
    pub fn to_value(&self) -> Value {
        match self {
            Id::Text(s) => Value::String(s.clone()),
            Id::Number(n) => Value::Number(n.clone()),
        }
    }
}

/// The replay part of a request: moves played one by one on `position` before `moves`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ReplayRequest {
    pub mode: ReplayMode,
    /// Each a point (either label system) or `pass`, played as the next move with the stone the
    /// schedule gives.
    pub moves: Vec<String>,
}
/// The request as an implementation receives it (a case request: no `action`).
#[derive(Clone, Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Request {
    /// `m3go-conform/2` (or `m3go-conform/1`, without `checks`)
    #[schemars(extend("enum" = PROTOCOLS))]
    pub protocol: String,
    pub id: Id,
    /// A position file as JSON (spec/README.md "Position file").
    pub position: Setup,
    #[serde(default)]
    pub replay: Option<ReplayRequest>,
    #[serde(default)]
    pub moves: Vec<String>,
    #[serde(default)]
    pub probes: Vec<String>,
    /// `m3go-conform/2`: the checks of the case the answer is compared on (`expect` keys:
    /// `score`, `private_eyes`, …; spec/README.md "Partial support"). Absent: every field.
    #[serde(default)]
    pub checks: Option<Vec<String>>,
}

/// The stable codes of error answers (`{"id", "error": {"code", "field", "message"}}`,
/// spec/README.md "Error answers").
pub mod code {
    /// The line is not a JSON object, or a field has the wrong type, or a field is unknown.
    pub const BAD_REQUEST: &str = "bad-request";
    /// `protocol` names a version the implementation does not speak.
    pub const UNSUPPORTED_PROTOCOL: &str = "unsupported-protocol";
    /// `action` names a request the implementation does not know.
    pub const UNSUPPORTED_ACTION: &str = "unsupported-action";
    /// `position` is not a valid position.
    pub const BAD_POSITION: &str = "bad-position";
    /// A move of `replay.moves` or `moves` does not read, or `replay` is too long.
    pub const BAD_MOVE: &str = "bad-move";
    /// A move of `replay.moves` (strict) or `moves` is refused by the rules.
    pub const ILLEGAL_MOVE: &str = "illegal-move";
    /// The request is larger than the implementation accepts (a line, a replay).
    pub const TOO_LARGE: &str = "too-large";
}

/// An error answer: the request's id (null when it could not be read), a stable code, the
/// field of the request at fault (null when none) and a message for people.
pub fn error_answer(id: Value, code: &str, field: Option<String>, message: String) -> Value {
    let ans = ErrorAnswer {
        protocol: Some(PROTOCOL.to_string()),
        id,
        error: ErrorObject {
            code: code.to_string(),
            field,
            message,
        },
    };
    serde_json::to_value(ans).unwrap_or(Value::Null)
}

/// An error answer (`spec/schema/error.schema.json`): the request's id and what went wrong.
#[derive(Clone, Debug, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct ErrorAnswer {
    /// The version of the protocol the answer speaks (`m3go-conform/2` or `/1`, the request's; m3go writes it on every
    /// answer).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub protocol: Option<String>,
    /// The request's id (a string or a number), null when the line could not be read.
    #[schemars(with = "Option<Id>")]
    pub id: Value,
    pub error: ErrorObject,
}

/// What went wrong with a request.
#[derive(Clone, Debug, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct ErrorObject {
    /// A stable code ([`code`]): `bad-request`, `unsupported-protocol`, `unsupported-action`,
    /// `bad-position`, `bad-move`, `illegal-move`, `too-large`.
    pub code: String,
    /// The field of the request at fault (`position`, `moves[3]`, …), null when none.
    pub field: Option<String>,
    /// The problem in words, for people.
    pub message: String,
}

/// The `capabilities` request (spec/README.md "Capabilities"), the first a runner sends.
#[derive(Clone, Debug, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CapabilitiesRequest {
    /// `m3go-conform/1`: the capabilities request is the same in every version, and a runner
    /// sends it in the first, which every program reads.
    pub protocol: String,
    pub id: Id,
    /// `capabilities`
    pub action: String,
    /// The protocol versions the runner speaks, newest first: it sends the case requests in the
    /// first of them the program speaks too.
    #[serde(default)]
    pub protocols: Vec<String>,
}

/// The answer to the `capabilities` request (`spec/schema/capabilities.schema.json`).
#[derive(Clone, Debug, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct CapabilitiesAnswer {
    /// The version of the protocol the answer speaks (the request's, `m3go-conform/1`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub protocol: Option<String>,
    /// The request's id (a string or a number).
    #[schemars(with = "Id")]
    pub id: Value,
    /// The protocol versions the implementation speaks.
    pub protocols: Vec<String>,
    pub implementation: Implementation,
    pub capabilities: Capabilities,
}

/// Who answers: the implementation's name and version.
#[derive(Clone, Debug, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct Implementation {
    pub name: String,
    pub version: String,
}
