//! The machine-readable contract: JSON Schemas generated from the Rust types (schemars) for the
//! analysis (`m3go analyze --format json`), the play report (`m3go play --format json`), the
//! protocol request and answer, the case file, and the summaries of `m3go conform` and `m3go
//! diff --format json`. `m3go schema --write` writes them to
//! `spec/schema/`; tests/it/schema.rs checks that the committed files are what the types generate
//! and validates real outputs and every case file against them.

use super::outputs;
use m3go_engine::formats::report::{AnalysisReport, PlayReport};
use m3go_engine::Report;
use schemars::{JsonSchema, SchemaGenerator};
use serde::Serialize;
use serde_json::Value;

/// The protocol answer to one request (`m3go-conform/2`, or `/1` without `declined`), as m3go
/// writes it (`m3go protocol`). An implementation
/// under test needs only the fields the case checks (README.md); the schema requires `id` alone
/// and describes the rest with the shapes m3go gives them. Other keys are allowed.
#[derive(Clone, Debug, Serialize, JsonSchema)]
#[schemars(rename = "Answer")]
pub(crate) struct ProtocolAnswer {
    /// The version of the protocol the answer speaks (`m3go-conform/2` or `/1`, the request's; m3go writes it on every
    /// answer, an implementation under test may leave it out).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub protocol: Option<String>,
    /// The request's id (a string or a number), as the request wrote it; null in the error
    /// answer to a line whose id could not be read (not JSON, not an object), as in
    /// error.schema.json.
    pub id: Option<super::protocol::Id>,
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
pub(crate) struct ProbeAnswer {
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
#[cfg_attr(feature = "testing", visibility::make(pub))]
pub(crate) struct NamedSchema {
    pub file: &'static str,
    pub schema: Value,
}

/// Every schema of the contract, in a fixed order: analysis, play, request, answer (a
/// conforming program's, then m3go's own), the capabilities request and answer, the error
/// answer, case, the summaries of conform and diff, then the other outputs of the command line
/// (`super::outputs`): its error object, explain, readings, replay, perft, clause, rules; then
/// the position file and the page's score trace.
#[cfg_attr(feature = "testing", visibility::make(pub))]
pub(crate) fn schemas() -> Vec<NamedSchema> {
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
            schema: conforming(output::<ProtocolAnswer>(
                "an answer of the conformance protocol (m3go-conform/2, or /1), one JSON line, as a conforming program may write it: `id` alone is required, every other field only where a check reads it, an analysis field may be left out or null",
            )),
        },
        NamedSchema {
            file: "answer-m3go.schema.json",
            schema: output::<ProtocolAnswer>(
                "an answer of the conformance protocol as m3go writes it (`m3go protocol`): every field of its analysis present",
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
        NamedSchema {
            file: "player-request.schema.json",
            schema: input::<super::play_protocol::GenmoveRequest>(
                "the request for a move of the play protocol (m3go-player/1, spec/play-protocol.md), one JSON line",
            ),
        },
        NamedSchema {
            file: "player-answer.schema.json",
            schema: input::<super::play_protocol::GenmoveAnswer>(
                "the answer to a move request of the play protocol (m3go-player/1), one JSON line",
            ),
        },
        NamedSchema {
            file: "player-capabilities.schema.json",
            schema: input::<super::play_protocol::PlayerCapabilitiesAnswer>(
                "a player's answer to the capabilities request of the play protocol (m3go-player/1)",
            ),
        },
        NamedSchema {
            file: "match-game.schema.json",
            schema: output::<super::play_protocol::GameLine>(
                "one game of m3go match --results FILE (m3go-match-game/1), one JSON line",
            ),
        },
        NamedSchema {
            file: "match-results.schema.json",
            schema: output::<super::play_protocol::ResultsHeader>(
                "the first line of m3go match --results FILE (m3go-match-results/1): the match's selection, the shard and the number of game lines that follow",
            ),
        },
        NamedSchema {
            file: "cli-error.schema.json",
            schema: output::<outputs::ErrorReport>(
                "the error object of every command given --format json, on standard output (m3go-error/1)",
            ),
        },
        NamedSchema {
            file: "explain.schema.json",
            schema: output::<outputs::ExplainReport>(
                "m3go explain --format json (m3go-explain/1)",
            ),
        },
        NamedSchema {
            file: "readings.schema.json",
            schema: output::<crate::tools::readings::Readings>(
                "the readings of a position (m3go-readings/1): `readings` of analyze --readings and explain --readings",
            ),
        },
        NamedSchema {
            file: "replay.schema.json",
            schema: output::<outputs::ReplayReport>(
                "m3go replay --format json of one record (m3go-replay/1)",
            ),
        },
        NamedSchema {
            file: "replays.schema.json",
            schema: output::<outputs::ReplaysReport>(
                "m3go replay --format json of several records (m3go-replays/1)",
            ),
        },
        NamedSchema {
            file: "perft.schema.json",
            schema: output::<outputs::PerftReport>("m3go perft --format json (m3go-perft/1)"),
        },
        NamedSchema {
            file: "clause.schema.json",
            schema: output::<outputs::ClauseReport>(
                "m3go clause ID --format json and clause --list --format json (m3go-clause/1)",
            ),
        },
        NamedSchema {
            file: "rules.schema.json",
            schema: output::<outputs::RulesReport>(
                "m3go rules --format json and rules check FILE --format json (m3go-rules/1)",
            ),
        },
        NamedSchema {
            file: "position.schema.json",
            schema: input::<m3go_engine::Setup>(
                "a position file (spec/README.md): its YAML read as JSON, and the JSON object `m3go serve`'s API takes as `position` and answers as `setup`",
            ),
        },
        NamedSchema {
            file: "score-trace.schema.json",
            schema: output::<m3go_engine::formats::score_trace::ScoreTrace>(
                "the score's clause trace `m3go serve`'s analyze answers as `score_trace` (m3go-score-trace/2)",
            ),
        },
    ]
}

/// The answer schema a conforming program is held to, made from m3go's own (`strict`): only the
/// answer's `id` is required (spec/README.md: "only the fields a case checks must be
/// present"), no object below it requires a field, and each field of the analysis may be null
/// (a declined check's field "may be left out or null"). What is present keeps its type.
fn conforming(mut strict: Value) -> Value {
    fn optional(v: &mut Value) {
        match v {
            Value::Object(m) => {
                m.remove("required");
                m.values_mut().for_each(optional);
            }
            Value::Array(a) => a.iter_mut().for_each(optional),
            _ => {}
        }
    }
    if let Some(defs) = strict.get_mut("$defs") {
        optional(defs);
        if let Some(Value::Object(props)) = defs.pointer_mut("/AnalysisReport/properties") {
            for p in props.values_mut() {
                let field = std::mem::take(p);
                *p = serde_json::json!({ "anyOf": [field, { "type": "null" }] });
            }
        }
    }
    if let Some(Value::Object(props)) = strict.get_mut("properties") {
        props.values_mut().for_each(optional);
    }
    strict
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
    standard_formats(&mut v);
    safe_integers(&mut v, false);
    if let Value::Object(m) = &mut v {
        m.insert("title".into(), Value::String(title.to_string()));
    }
    v
}

/// The integer formats schemars names after Rust types (`int32`, `uint32`, `uint`, `uint64`, …),
/// which JSON Schema does not define (`ajv --strict` refuses them), written as the bounds they
/// stand for: each `format` of them is removed and its range kept as `minimum` / `maximum`.
fn standard_formats(v: &mut Value) {
    match v {
        Value::Object(m) => {
            let bounds: Option<(i128, i128)> = match m.get("format").and_then(Value::as_str) {
                Some("int8") => Some((i8::MIN.into(), i8::MAX.into())),
                Some("uint8") => Some((0, u8::MAX.into())),
                Some("int16") => Some((i16::MIN.into(), i16::MAX.into())),
                Some("uint16") => Some((0, u16::MAX.into())),
                Some("int32") => Some((i32::MIN.into(), i32::MAX.into())),
                Some("uint32") => Some((0, u32::MAX.into())),
                Some("int64" | "int") => Some((i64::MIN.into(), i64::MAX.into())),
                Some("uint64" | "uint") => Some((0, u64::MAX.into())),
                _ => None,
            };
            if let Some((lo, hi)) = bounds {
                m.remove("format");
                let tighter = |m: &serde_json::Map<String, Value>,
                               key: &str,
                               keep: fn(f64, f64) -> bool,
                               bound: i128| {
                    m.get(key)
                        .and_then(Value::as_f64)
                        .is_some_and(|old| keep(old, bound as f64))
                };
                if !tighter(m, "minimum", |old, b| old >= b, lo) {
                    m.insert("minimum".into(), number(lo));
                }
                if !tighter(m, "maximum", |old, b| old <= b, hi) {
                    m.insert("maximum".into(), number(hi));
                }
            }
            m.values_mut().for_each(standard_formats);
        }
        Value::Array(a) => a.iter_mut().for_each(standard_formats),
        _ => {}
    }
}

/// The largest integer every JSON reader keeps exactly (JavaScript's `Number.MAX_SAFE_INTEGER`,
/// 2^53 − 1): above it, `JSON.parse` rounds.
pub(crate) const SAFE_INTEGER: u64 = (1 << 53) - 1;

/// What a seed's description says (appended once): the one kind of integer m3go writes and
/// reads across the whole 64-bit range.
const SEED_NOTE: &str = "Any 64-bit integer: above 2^53 JavaScript's `JSON.parse` rounds it, so \
     read it as a big integer (or as text).";

/// Bounds every integer by what a JSON reader keeps exactly, so that a schema says which of
/// its integers may pass 2^53: a count, a size, a line, a time (a `usize` or `u64` in Rust,
/// whose 64-bit range [`standard_formats`] wrote) never reaches 2^53 − 1, which becomes its
/// documented `maximum`; a seed (a property named `…seed…`, `seed` true here) is any 64-bit
/// integer, keeps its range and says so ([`SEED_NOTE`]).
fn safe_integers(v: &mut Value, seed: bool) {
    let Value::Object(m) = v else {
        if let Value::Array(a) = v {
            a.iter_mut().for_each(|x| safe_integers(x, seed));
        }
        return;
    };
    let integer = match m.get("type") {
        Some(Value::String(t)) => t == "integer",
        Some(Value::Array(ts)) => ts.iter().any(|t| t == "integer"),
        _ => false,
    };
    let safe = SAFE_INTEGER as f64;
    let wide = m
        .get("maximum")
        .and_then(Value::as_f64)
        .is_some_and(|x| x > safe)
        || m.get("minimum")
            .and_then(Value::as_f64)
            .is_some_and(|x| x < -safe);
    if integer && wide && seed {
        let said = m.get("description").and_then(Value::as_str).unwrap_or("");
        if !said.contains("2^53") {
            let text = if said.is_empty() {
                SEED_NOTE.to_string()
            } else {
                format!("{said}\n{SEED_NOTE}")
            };
            m.insert("description".into(), Value::String(text));
        }
    } else if integer && wide {
        if m.get("maximum")
            .and_then(Value::as_f64)
            .is_some_and(|x| x > safe)
        {
            m.insert("maximum".into(), Value::from(SAFE_INTEGER));
        }
        if m.get("minimum")
            .and_then(Value::as_f64)
            .is_some_and(|x| x < -safe)
        {
            m.insert("minimum".into(), Value::from(-(SAFE_INTEGER as i64)));
        }
    }
    for (k, child) in m.iter_mut() {
        match (k.as_str(), child) {
            ("properties", Value::Object(props)) => {
                for (name, p) in props.iter_mut() {
                    safe_integers(p, name.contains("seed"));
                }
            }
            // a nullable seed: `anyOf: [integer, null]`
            ("anyOf" | "oneOf", c) => safe_integers(c, seed),
            (_, c) => safe_integers(c, false),
        }
    }
}

/// `n` as a JSON number (every bound of [`standard_formats`] is an `i64` or a `u64`).
fn number(n: i128) -> Value {
    i64::try_from(n)
        .map(Value::from)
        .or_else(|_| u64::try_from(n).map(Value::from))
        .unwrap_or(Value::Null)
}

/// A schema's file text: pretty JSON with a final newline.
#[cfg_attr(feature = "testing", visibility::make(pub))]
pub(crate) fn file_text(schema: &Value) -> String {
    let mut s = serde_json::to_string_pretty(schema).unwrap_or_default();
    s.push('\n');
    s
}
