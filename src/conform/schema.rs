//! The machine-readable contract: JSON Schemas generated from the Rust types (schemars) for the
//! analysis (`m3go analyze --format json`), the play report (`m3go play --format json`), the
//! protocol request and answer, the case file, and the summaries of `m3go conform` and `m3go
//! diff --format json`. `m3go schema --write` writes them to
//! `spec/schema/`; tests/it/schema.rs checks that the committed files are what the types generate
//! and validates real outputs and every case file against them.

use crate::formats::report::{AnalysisReport, PlayReport};
use crate::game::play::Report;
use schemars::{JsonSchema, SchemaGenerator};
use serde::Serialize;
use serde_json::Value;

/// The protocol answer to one request (`m3go-conform/2`, or `/1` without `declined`), as m3go
/// writes it (`m3go protocol`). An implementation
/// under test needs only the fields the case checks (README.md); the schema requires `id` alone
/// and describes the rest with the shapes m3go gives them. Other keys are allowed.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct Answer {
    /// The version of the protocol the answer speaks (`m3go-conform/2` or `/1`, the request's; m3go writes it on every
    /// answer, an implementation under test may leave it out).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub protocol: Option<String>,
    /// The request's id (a string or a number), as the request wrote it.
    pub id: super::protocol::Id,
    /// The analysis of the position after `moves` (`m3go-analysis/4`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub analysis: Option<AnalysisReport>,
    /// What each move of `moves` did, in order.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reports: Option<Vec<Report>>,
    /// Each probe, judged alone on the position after `moves`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub probes: Option<Vec<ProbeAnswer>>,
    /// The move-number diagram of `moves`: rows of tokens, top row first.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub numbered: Option<Vec<String>>,
    /// What the analysis does not carry: the team round and seat, the Flystone state, the 2016
    /// common eyes (spec/README.md).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub extras: Option<Value>,
    /// `true`: the implementation does not implement this case (a rule set it lacks).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unsupported: Option<bool>,
    /// Why the case is `unsupported`, for people (shown by the runner with the skip).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// `m3go-conform/2`: the checks of the request (`checks`) the implementation does not
    /// answer, each with why (a reading it lacks): the runner skips and counts them, and makes
    /// the others.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub declined: Option<std::collections::BTreeMap<String, String>>,
    /// The request could not be answered: a message, or an object with `code`, `field` and
    /// `message`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<Value>,
}

/// The answer to one probe.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct ProbeAnswer {
    /// The probe as sent.
    #[serde(rename = "move")]
    pub mv: String,
    pub legal: bool,
    /// Why it is refused (a refusal code, spec/README.md), when it is.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The clause that refuses it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub clause: Option<String>,
    /// The refusal in words.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
}

/// One schema of the contract: its file name under spec/schema/ and its text.
pub struct NamedSchema {
    pub file: &'static str,
    pub schema: Value,
}

/// Every schema of the contract, in a fixed order: analysis, play, request, answer, the
/// capabilities request and answer, the error answer, case, the summaries of conform and diff.
pub fn schemas() -> Vec<NamedSchema> {
    vec![
        NamedSchema {
            file: "analysis.schema.json",
            schema: output::<AnalysisReport>("m3go analyze --format json (m3go-analysis/4)"),
        },
        NamedSchema {
            file: "play.schema.json",
            schema: output::<PlayReport>("m3go play --format json (m3go-play/1)"),
        },
        NamedSchema {
            file: "request.schema.json",
            schema: input::<super::protocol::Request>(
                "a request of the conformance protocol (m3go-conform/2, or /1), one JSON line",
            ),
        },
        NamedSchema {
            file: "answer.schema.json",
            schema: output::<Answer>(
                "an answer of the conformance protocol (m3go-conform/2, or /1), one JSON line",
            ),
        },
        NamedSchema {
            file: "capabilities-request.schema.json",
            schema: input::<super::protocol::CapabilitiesRequest>(
                "the capabilities request of the conformance protocol (m3go-conform/1 in every version), the first line a runner sends",
            ),
        },
        NamedSchema {
            file: "capabilities.schema.json",
            // read as the runner reads it: `options`, `replay` and `protocol` may be left out
            schema: input::<super::protocol::CapabilitiesAnswer>(
                "the answer to the capabilities request (m3go-conform/1 and /2)",
            ),
        },
        NamedSchema {
            file: "error.schema.json",
            schema: output::<super::protocol::ErrorAnswer>(
                "an error answer of the conformance protocol (m3go-conform/2, or /1): a request that could not be answered",
            ),
        },
        NamedSchema {
            file: "case.schema.json",
            schema: input::<super::case::Case>(
                "a conformance case file (spec/cases/*.yaml, YAML read as JSON)",
            ),
        },
        NamedSchema {
            file: "conform-summary.schema.json",
            schema: output::<super::report::ConformSummary>(
                "m3go conform --format json (m3go-conform-summary/1)",
            ),
        },
        NamedSchema {
            file: "diff-summary.schema.json",
            schema: output::<super::report::DiffSummary>(
                "m3go diff --format json (m3go-diff-summary/1)",
            ),
        },
    ]
}

/// The schema of something m3go writes (the serialising side of the types).
fn output<T: JsonSchema>(title: &str) -> Value {
    let g =
        SchemaGenerator::new(schemars::generate::SchemaSettings::draft2020_12().for_serialize());
    finish(g.into_root_schema_for::<T>(), title)
}

/// The schema of something m3go reads (the deserialising side of the types).
fn input<T: JsonSchema>(title: &str) -> Value {
    let g =
        SchemaGenerator::new(schemars::generate::SchemaSettings::draft2020_12().for_deserialize());
    finish(g.into_root_schema_for::<T>(), title)
}

fn finish(s: schemars::Schema, title: &str) -> Value {
    let mut v = s.to_value();
    if let Value::Object(m) = &mut v {
        m.insert("title".into(), Value::String(title.to_string()));
    }
    v
}

/// A schema's file text: pretty JSON with a final newline.
pub fn file_text(schema: &Value) -> String {
    let mut s = serde_json::to_string_pretty(schema).unwrap_or_default();
    s.push('\n');
    s
}
