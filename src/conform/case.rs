//! The conformance suite: case files (spec/README.md), the JSON-lines protocol that lets any
//! program answer them (`m3go-conform/1`), the comparison of expectations with answers, and the
//! clause coverage of rules.md.

use crate::board::coord::Point;
use crate::formats::report::AnalysisReport;
use crate::game::advance::Engine;
use crate::game::notation::parse_move_in;
use crate::game::play::{Position, Report};
use crate::game::setup::{from_yaml, read_text, InputError, Place, Setup};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use std::collections::{BTreeMap, BTreeSet};

/// Version tag of the protocol.
pub const PROTOCOL: &str = "m3go-conform/1";

/// Where a case's rule text comes from.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Source {
    pub seed: String,
    pub quote: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AttrExpect {
    pub attribute: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hs: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hw: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bs: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bw: Option<u32>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ForbidExpect {
    pub reason: String,
    /// black | white | both (default both)
    #[serde(default, rename = "for", skip_serializing_if = "Option::is_none")]
    pub for_player: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct IllegalExpect {
    #[serde(rename = "move")]
    pub mv: String,
    pub reason: String,
}

/// Whose turn it is after `moves`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ToMoveExpect {
    /// The next move's number.
    #[serde(default, rename = "move", skip_serializing_if = "Option::is_none")]
    pub number: Option<u32>,
    /// black | white
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub player: Option<String>,
    /// own | flower
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    /// 黑 | 白 | 华 | 花
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub symbol: Option<String>,
    /// Team format: the round and the seat (A | B | C | D).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub round: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seat: Option<String>,
}

/// The Flystone state after `moves`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FlystoneExpect {
    /// Random flystone turns (ordinals of the side's own-colour turns).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub random_black: Option<Vec<u32>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub random_white: Option<Vec<u32>>,
    /// Move numbers of the flystone moves made.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub thrown: Option<Vec<u32>>,
    /// Chosen flystones left before the next move.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chosen_left_black: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chosen_left_white: Option<u32>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EventExpect {
    pub index: usize,
    /// The sentence of the source this event checks (shown in failures, not compared).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub quote: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub captured: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub eyes_made: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub eyes_lost: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attributes: Option<BTreeMap<String, String>>,
    /// String (any point) -> private eyes it must have after the move, each as the empty points
    /// of its closed region ("为白棋串A七*做出私眼O六*"); the string must be among `eyes_made`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub eyes: Option<BTreeMap<String, Vec<Vec<String>>>>,
    /// Strings (any point) the move put in atari (叫吃); others may be too.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ataris: Option<Vec<String>>,
    /// A colour (black | white) at least one of whose strings the move put in atari, when the
    /// text does not name the string ("花290.六三叫吃黑棋串").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub atari_of: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ScoreExpect {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub black: Option<i32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub white: Option<i32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub neutral: Option<i32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub winner: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ViewsExpect {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub holographic: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub upper: Option<String>,
    /// The star points of the board (order free).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub star_points: Option<Vec<String>>,
    /// The move-number diagram of the case's `moves` (tokens compared row by row).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub numbered: Option<String>,
}

/// One expected private eye (M20-EYE-REGION, M20-EYE-FIG6): a list of points is the eye's empty
/// points (as in cases written for `m3go-analysis/1`); a mapping names the closed region's
/// `points` (every point, the stones inside included) and/or its `empty` points.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(untagged)]
pub enum EyeExpect {
    Empty(Vec<String>),
    Region(EyeRegionExpect),
}

/// The mapping form of [`EyeExpect`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EyeRegionExpect {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub points: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub empty: Option<Vec<String>>,
}

/// What a case expects; every key optional, at least one present.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Expect {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub private_eyes: Option<BTreeMap<String, Vec<EyeExpect>>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attributes: Option<BTreeMap<String, AttrExpect>>,
    /// What every flower string not named in `attributes` must have ("其它花棋串仍保持中性").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub other_flowers: Option<AttrExpect>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub forbidden: Option<BTreeMap<String, ForbidExpect>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub playable: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub legal: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub illegal: Option<Vec<IllegalExpect>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub events: Option<Vec<EventExpect>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score: Option<ScoreExpect>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub views: Option<ViewsExpect>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to_move: Option<ToMoveExpect>,
    /// 2016 common eyes (公眼) of black/white upper strings: string -> its common eyes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub common_eyes: Option<BTreeMap<String, Vec<Vec<String>>>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub flystone: Option<FlystoneExpect>,
    /// Refused moves -> text their message must contain (e.g. whose turn it is). Each move is
    /// also probed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub messages: Option<BTreeMap<String, String>>,
    /// The notation the engine writes for each move of `moves`, in order (`黑19.一B`, `33B.H九`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub notations: Option<Vec<String>>,
}

impl Expect {
    fn is_empty(&self) -> bool {
        *self == Expect::default()
    }
}

/// One conformance case file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Case {
    pub id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    pub clauses: Vec<String>,
    pub source: Source,
    #[serde(default)]
    pub reconstructed: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub notes: Option<String>,
    /// The position the moves start from. With `start`, the record's start position (filled in
    /// by [`Case::load`]); without it, required.
    #[serde(default)]
    pub position: Setup,
    /// A game record replayed to give the start: the case then begins on the record's start
    /// position, replays its first `to` moves (`replay`), then plays `moves`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start: Option<RecordStart>,
    /// The record's moves to replay (points or `pass`), filled in by [`Case::load`] from `start`.
    #[serde(skip)]
    pub replay_moves: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub moves: Vec<String>,
    pub expect: Expect,
}

/// How a replay is played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum ReplayMode {
    /// 003's 机械式排局 (M20-REPLAY): a move the rules refuse becomes a pass.
    Mechanical,
    /// Every move must be legal.
    Strict,
}

/// A case's start from a game record: `start: { record: ../records/x.sgf, replay: mechanical,
/// to: 288, rules: m3go-2020 }`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RecordStart {
    /// The record (SGF or game file), relative to the case file's folder.
    pub record: String,
    pub replay: ReplayMode,
    /// Replay the moves numbered up to this one (default: every move).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to: Option<u32>,
    /// The rules of the replay (default m3go-2020).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rules: Option<crate::rules::RulesField>,
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

impl Case {
    /// Reads and checks a case file: the id must match the file name, the expectation must say
    /// something, and (if given) every clause id must exist in rules.md.
    pub fn load(path: &str, known_clauses: Option<&BTreeSet<String>>) -> Result<Case, InputError> {
        let text = suite_text(path)?;
        let case: Case = from_yaml(&text, path)?;
        let stem = std::path::Path::new(path)
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or_default();
        if case.id != stem {
            return Err(
                InputError::new(format!("id `{}` does not match the file name", case.id))
                    .file(path)
                    .expected(format!("`{stem}`")),
            );
        }
        if !case
            .id
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
        {
            return Err(InputError::expecting("lowercase letters, digits and `-`")
                .file(path)
                .key(format!("id `{}`", case.id)));
        }
        if case.expect.is_empty() {
            return Err(InputError::new("`expect` is empty")
                .file(path)
                .expected("at least one check"));
        }
        if case.clauses.is_empty() {
            return Err(InputError::new("`clauses` is empty")
                .file(path)
                .expected("clause ids from rules.md"));
        }
        let mut case = case;
        if let Some(start) = case.start.clone() {
            if case.position != Setup::default() {
                return Err(InputError::new("both `position` and `start` are given")
                    .file(path)
                    .expected("one of them"));
            }
            let dir = std::path::Path::new(path)
                .parent()
                .map(|d| d.to_string_lossy().into_owned())
                .unwrap_or_default();
            let file = std::path::Path::new(&dir).join(&start.record);
            let file = file.to_string_lossy().into_owned();
            let (setup, moves) = record_start(&file, &start)
                .map_err(|e| e.within(Place::default().file(path).key("start")))?;
            case.position = setup;
            case.replay_moves = moves;
        } else if case.position == Setup::default() {
            return Err(InputError::new("missing `position`")
                .file(path)
                .expected("a position or a `start` record"));
        }
        if let Some(known) = known_clauses {
            for c in &case.clauses {
                if !known.contains(c) {
                    return Err(
                        InputError::new(format!("clause `{c}` is not in rules.md")).file(path)
                    );
                }
            }
        }
        Ok(case)
    }

    /// The probes: moves tried one by one on the position after `moves`.
    pub fn probes(&self) -> Vec<String> {
        let mut p: Vec<String> = self.expect.legal.clone().unwrap_or_default();
        p.extend(self.expect.illegal.iter().flatten().map(|i| i.mv.clone()));
        for m in self.expect.messages.iter().flat_map(|m| m.keys()) {
            if !p.contains(m) {
                p.push(m.clone());
            }
        }
        p
    }

    /// The protocol request for this case.
    pub fn request(&self) -> Value {
        let mut r = json!({
            "protocol": PROTOCOL,
            "id": self.id,
            "position": self.position,
            "moves": self.moves,
            "probes": self.probes(),
        });
        if let Some(start) = &self.start {
            r["replay"] = json!(ReplayRequest {
                mode: start.replay,
                moves: self.replay_moves.clone(),
            });
        }
        r
    }
}

/// The start position (the record's, under the start's rules) and the moves to replay (its
/// moves numbered up to `to`, as points or `pass`).
fn record_start(file: &str, start: &RecordStart) -> Result<(Setup, Vec<String>), InputError> {
    let record = if file.starts_with(BUILTIN) {
        crate::formats::load::parse(&suite_text(file)?, file)?
    } else {
        crate::formats::load::load(file)?
    };
    let rules = match &start.rules {
        Some(r) => r
            .resolve()
            .map_err(|e| InputError::new(e.to_string()).key("rules"))?,
        None => crate::rules::Rules::m3go_2020(),
    };
    let pos = record.start_position(&rules)?;
    let mut setup = pos.to_setup();
    setup.rules = crate::formats::record::rules_field(&rules);
    let mut moves = Vec::new();
    for m in &record.moves {
        if start.to.is_some_and(|t| m.number > t) {
            break;
        }
        moves.push(match m.action {
            crate::game::play::Action::Pass => "pass".to_string(),
            crate::game::play::Action::Place(p) => p.to_string(),
        });
    }
    if let Some(t) = start.to {
        let last = record.moves.last().map(|m| m.number).unwrap_or(0);
        if t > last {
            return Err(InputError::new(format!(
                "`to: {t}` is past the record's last move {last}"
            ))
            .file(file));
        }
    }
    Ok((setup, moves))
}

/// The request as an implementation receives it (a case request: no `action`).
#[derive(Clone, Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Request {
    /// `m3go-conform/1`
    #[schemars(extend("const" = PROTOCOL))]
    pub protocol: String,
    pub id: String,
    pub position: Setup,
    #[serde(default)]
    pub replay: Option<ReplayRequest>,
    #[serde(default)]
    pub moves: Vec<String>,
    #[serde(default)]
    pub probes: Vec<String>,
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
pub struct ErrorAnswer {
    /// The version of the protocol the answer speaks (`m3go-conform/1`; m3go writes it on every
    /// answer).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub protocol: Option<String>,
    /// The request's id (a string or a number), null when the line could not be read.
    pub id: Value,
    pub error: ErrorObject,
}

/// What went wrong with a request.
#[derive(Clone, Debug, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ErrorObject {
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
    /// `m3go-conform/1`
    pub protocol: String,
    pub id: String,
    /// `capabilities`
    pub action: String,
    /// The protocol versions the runner speaks.
    #[serde(default)]
    pub protocols: Vec<String>,
}

/// The answer to the `capabilities` request (`spec/schema/capabilities.schema.json`).
#[derive(Clone, Debug, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CapabilitiesAnswer {
    /// The version of the protocol the answer speaks (`m3go-conform/1`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub protocol: Option<String>,
    /// The request's id.
    pub id: Value,
    /// The protocol versions the implementation speaks.
    pub protocols: Vec<String>,
    pub implementation: Implementation,
    pub capabilities: Capabilities,
}

/// Who answers: the implementation's name and version.
#[derive(Clone, Debug, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Implementation {
    pub name: String,
    pub version: String,
}

/// The message of an error answer (`error.message`, or `error` itself when a program writes
/// a bare string), or `None` when the answer is not an error.
pub fn error_message(ans: &Value) -> Option<String> {
    let e = ans.get("error")?;
    if e.is_null() {
        return None;
    }
    Some(match e {
        Value::String(s) => s.clone(),
        Value::Object(o) => {
            let msg = o.get("message").and_then(Value::as_str).unwrap_or("");
            match (o.get("code").and_then(Value::as_str), o.get("field")) {
                (Some(c), Some(Value::String(f))) => format!("{c} ({f}): {msg}"),
                (Some(c), _) => format!("{c}: {msg}"),
                _ => msg.to_string(),
            }
        }
        other => other.to_string(),
    })
}

/// What an implementation declares it supports: the answer to the `capabilities` request
/// (spec/README.md "Capabilities"). A case is run only when its rules' preset is among
/// `presets`, every option its rules set away from that preset's value is declared in
/// `options` (`"any"`, or a list holding the value), and its `replay` mode (if any) is among
/// `replay`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Capabilities {
    /// The presets supported, with their own option values.
    pub presets: Vec<String>,
    /// Option (its YAML key) -> `"any"` or the list of values supported away from a preset's.
    #[serde(default)]
    pub options: BTreeMap<String, Value>,
    /// The replay modes supported (mechanical, strict).
    #[serde(default = "all_replay_modes")]
    pub replay: Vec<ReplayMode>,
}

fn all_replay_modes() -> Vec<ReplayMode> {
    vec![ReplayMode::Mechanical, ReplayMode::Strict]
}

/// The presets m3go implements, by their canonical names.
pub const PRESETS: &[&str] = &[
    "m3go-2020",
    "m3go-2016",
    "m3go-2013",
    "dullstone",
    "flystone",
];

impl Capabilities {
    /// m3go's own: every preset, every value of every option, both replay modes.
    pub fn m3go() -> Capabilities {
        Capabilities {
            presets: PRESETS.iter().map(|p| p.to_string()).collect(),
            options: crate::rules::OPTIONS
                .iter()
                .map(|(name, _, _)| (name.to_string(), json!("any")))
                .collect(),
            replay: all_replay_modes(),
        }
    }

    /// Only these presets, with their own option values (`m3go protocol --presets`).
    pub fn only_presets(presets: &[String]) -> Capabilities {
        Capabilities {
            presets: presets.to_vec(),
            options: BTreeMap::new(),
            replay: all_replay_modes(),
        }
    }

    /// Why a request with these rules and this replay mode is outside the declaration, or
    /// `None` when it is inside.
    pub fn refuses(
        &self,
        rules: &crate::rules::Rules,
        replay: Option<ReplayMode>,
    ) -> Option<String> {
        use crate::rules::canonical_preset;
        let preset = canonical_preset(&rules.preset);
        if !self.presets.iter().any(|p| canonical_preset(p) == preset) {
            return Some(format!(
                "preset `{preset}` is not declared (presets: {})",
                self.presets.join(", ")
            ));
        }
        if let Ok(base) = crate::rules::Rules::preset(preset) {
            let (mine, theirs) = (json!(rules), json!(base));
            for (name, _, _) in crate::rules::OPTIONS {
                let v = &mine[*name];
                if *v == theirs[*name] {
                    continue;
                }
                let ok = match self.options.get(*name) {
                    Some(Value::String(a)) => a == "any",
                    Some(Value::Array(vals)) => vals.contains(v),
                    _ => false,
                };
                if !ok {
                    let shown = v
                        .as_str()
                        .map(str::to_string)
                        .unwrap_or_else(|| v.to_string());
                    return Some(format!(
                        "option `{name}: {shown}` (away from {preset}'s) is not declared"
                    ));
                }
            }
        }
        if let Some(m) = replay {
            if !self.replay.contains(&m) {
                return Some(format!("replay mode `{}` is not declared", json!(m)));
            }
        }
        None
    }
}

/// The answer to a `capabilities` request: the protocol versions spoken, the implementation's
/// name and version, and its capabilities.
pub fn capabilities_answer(id: Value, caps: &Capabilities) -> Value {
    let ans = CapabilitiesAnswer {
        protocol: Some(PROTOCOL.to_string()),
        id,
        protocols: vec![PROTOCOL.to_string()],
        implementation: Implementation {
            name: "m3go".into(),
            version: env!("CARGO_PKG_VERSION").into(),
        },
        capabilities: caps.clone(),
    };
    serde_json::to_value(ans).unwrap_or(Value::Null)
}

/// The answer to one request line (`m3go protocol`): a `capabilities` request, or a case
/// request answered by [`answer`] when its rules are inside `caps` and with
/// `{"id", "unsupported": true, "reason"}` when they are not. A line that is not a request gets
/// a `bad-request` error answer, with the id when the line has one.
pub fn answer_line(line: &str, caps: &Capabilities) -> Value {
    answer_line_with(line, caps, Engine::Fast)
}

/// [`answer_line`] on `engine`.
pub fn answer_line_with(line: &str, caps: &Capabilities, engine: Engine) -> Value {
    match serde_json::from_str::<Value>(line) {
        Ok(v) => answer_value_with(&v, caps, engine),
        Err(e) => error_answer(
            Value::Null,
            code::BAD_REQUEST,
            None,
            format!("the request is not JSON: {e}"),
        ),
    }
}

/// [`answer_line`] of a request already read as JSON.
pub fn answer_value(v: &Value, caps: &Capabilities) -> Value {
    answer_value_with(v, caps, Engine::Fast)
}

/// [`answer_value`] on `engine`.
pub fn answer_value_with(v: &Value, caps: &Capabilities, engine: Engine) -> Value {
    let Some(obj) = v.as_object() else {
        return error_answer(
            Value::Null,
            code::BAD_REQUEST,
            None,
            "the request is not a JSON object".into(),
        );
    };
    let id = match obj.get("id") {
        Some(i @ (Value::String(_) | Value::Number(_))) => i.clone(),
        _ => Value::Null,
    };
    match obj.get("action") {
        None => {}
        Some(Value::String(a)) if a == "capabilities" => {
            // a request in another protocol version is refused, not answered in this one
            let protocol = obj.get("protocol");
            if protocol != Some(&json!(PROTOCOL)) {
                return error_answer(
                    id,
                    code::UNSUPPORTED_PROTOCOL,
                    Some("protocol".into()),
                    format!(
                        "protocol {} is not supported: expected `{PROTOCOL}`",
                        protocol.map_or("(none)".to_string(), Value::to_string)
                    ),
                );
            }
            return capabilities_answer(id, caps);
        }
        Some(a) => {
            return error_answer(
                id,
                code::UNSUPPORTED_ACTION,
                Some("action".into()),
                format!(
                "action {a} is not known: expected `capabilities`, or no action for a case request"
            ),
            )
        }
    }
    let req: Request = match serde_json::from_value(v.clone()) {
        Ok(r) => r,
        Err(e) => {
            // a position that does not read (a komi of 0.3, an unknown rule value) is a bad
            // position, as one that reads but is not valid; the rest of the request is the
            // runner's fault
            if let Some(Err(pe)) = obj
                .get("position")
                .map(|p| serde_json::from_value::<Setup>(p.clone()))
            {
                return error_answer(
                    id,
                    code::BAD_POSITION,
                    Some("position".into()),
                    format!("position: {pe}"),
                );
            }
            return error_answer(id, code::BAD_REQUEST, None, format!("request: {e}"));
        }
    };
    if let Ok(rules) = req.position.rules.resolve() {
        if let Some(why) = caps.refuses(&rules, req.replay.as_ref().map(|r| r.mode)) {
            return json!({"protocol": PROTOCOL, "id": req.id, "unsupported": true, "reason": why});
        }
    }
    answer_with(&req, engine)
}

/// m3go's own answer to a case request (what `m3go protocol` prints for each line).
pub fn answer(req: &Request) -> Value {
    answer_with(req, Engine::Fast)
}

/// [`answer`] on `engine`: the replayed moves and the probes are advanced without a report
/// ([`Position::advance_with`]), the legal moves listed on it; the moves, whose reports are
/// part of the answer, are played with [`Position::play`].
pub fn answer_with(req: &Request, engine: Engine) -> Value {
    let fail = |code: &str, field: String, msg: String| {
        error_answer(json!(req.id), code, Some(field), msg)
    };
    if req.protocol != PROTOCOL {
        return fail(
            code::UNSUPPORTED_PROTOCOL,
            "protocol".into(),
            format!(
                "protocol `{}` is not supported: expected `{PROTOCOL}`",
                req.protocol
            ),
        );
    }
    let mut pos: Position = match req.position.to_position("position") {
        Ok(p) => p,
        Err(e) => return fail(code::BAD_POSITION, "position".into(), e.to_string()),
    };
    if let Some(rp) = &req.replay {
        let limit = crate::formats::record::max_moves(pos.board().size());
        if rp.moves.len() > limit {
            return fail(
                code::TOO_LARGE,
                "replay.moves".into(),
                format!(
                "replay.moves has {} moves: expected at most {limit} on this board (the limit of a record)",
                rp.moves.len()
            ),
            );
        }
        for (k, m) in rp.moves.iter().enumerate() {
            if let Err(e) = crate::game::notation::check_playable(pos.move_number()) {
                return fail(
                    code::TOO_LARGE,
                    format!("replay.moves[{k}]"),
                    format!("replay.moves[{k}] `{m}`: {e}"),
                );
            }
            let action = match crate::game::notation::parse_action(m, pos.board().size()) {
                Ok(a) => a,
                Err(e) => {
                    return fail(
                        code::BAD_MOVE,
                        format!("replay.moves[{k}]"),
                        format!("replay.moves[{k}] `{m}`: {e}"),
                    )
                }
            };
            pos = match req_replay_step(&pos, action, rp.mode, engine) {
                Ok(next) => next,
                Err(e) => {
                    return fail(
                        code::ILLEGAL_MOVE,
                        format!("replay.moves[{k}]"),
                        format!("replay.moves[{k}] `{m}` is illegal: {e}"),
                    )
                }
            };
        }
    }
    let limit = crate::formats::record::max_moves(pos.board().size());
    for (field, n) in [("moves", req.moves.len()), ("probes", req.probes.len())] {
        if n > limit {
            return fail(
                code::TOO_LARGE,
                field.into(),
                format!(
                    "{field} has {n} entries: expected at most {limit} on this board (the limit of a record)"
                ),
            );
        }
    }
    let mut reports: Vec<Report> = Vec::new();
    for (k, m) in req.moves.iter().enumerate() {
        if let Err(e) = crate::game::notation::check_playable(pos.move_number()) {
            return fail(
                code::TOO_LARGE,
                format!("moves[{k}]"),
                format!("moves[{k}] `{m}`: {e}"),
            );
        }
        let mv = match parse_move_in(m, pos.rules(), pos.board().size()) {
            Ok(mv) => mv,
            Err(e) => {
                return fail(
                    code::BAD_MOVE,
                    format!("moves[{k}]"),
                    format!("moves[{k}]: {e}"),
                )
            }
        };
        match pos.play(&mv) {
            Ok((next, r)) => {
                pos = next;
                reports.push(r);
            }
            Err(e) => {
                return fail(
                    code::ILLEGAL_MOVE,
                    format!("moves[{k}]"),
                    format!("moves[{k}] `{m}` is illegal: {e}"),
                )
            }
        }
    }
    let probes: Vec<Value> = req
        .probes
        .iter()
        .map(|m| match parse_move_in(m, pos.rules(), pos.board().size()) {
            Err(e) => json!({"move": m, "legal": false, "reason": "malformed", "message": e.to_string()}),
            Ok(mv) => match pos.advance_with(&mv, engine) {
                Ok(_) => json!({"move": m, "legal": true}),
                Err(e) => json!({"move": m, "legal": false, "reason": e.reason, "clause": e.clause, "message": e.message}),
            },
        })
        .collect();
    json!({
        "protocol": PROTOCOL,
        "id": req.id,
        "analysis": AnalysisReport::new_with(&pos, engine),
        "reports": reports,
        "probes": probes,
        "numbered": crate::formats::report::numbered_diagram(pos.board(), &reports).lines().collect::<Vec<_>>(),
        "extras": extras(&pos),
    })
}

/// One replayed move of a request: mechanical (a refused move becomes a pass, M20-REPLAY) or
/// strict.
fn req_replay_step(
    pos: &Position,
    action: crate::game::play::Action,
    mode: ReplayMode,
    engine: Engine,
) -> Result<Position, crate::game::play::Illegal> {
    match mode {
        ReplayMode::Mechanical => {
            crate::tools::replay::mechanical_advance(pos, action, engine).map(|(p, _)| p)
        }
        ReplayMode::Strict => pos.advance_with(
            &crate::game::play::Move {
                action,
                number: None,
                turn: None,
            },
            engine,
        ),
    }
}

/// What the analysis report does not carry: the team round and seat of the next move, the
/// Flystone state, and the 2016 common eyes of every black/white upper string (with whether
/// each is a true eye).
pub fn extras(pos: &Position) -> Value {
    use crate::judge::eyes2016::{common_eyes_2016, true_eye_2016};
    let team = (pos.rules().schedule == crate::rules::Schedule::Team2016).then(|| {
        let t = crate::game::order::team_turn(pos.move_number(), pos.rules().team_grey_start);
        json!({"round": t.round, "seat": t.seat.letter().to_string()})
    });
    let flystone = pos.flystone_state().map(|s| {
        let left =
            |c| crate::game::order::chosen_flystones_left(pos.rules(), &s, c, pos.move_number());
        json!({
            "random": s.random,
            "thrown": s.thrown,
            "chosen_left": {
                "black": left(crate::board::grid::Colour::Black),
                "white": left(crate::board::grid::Colour::White),
            },
        })
    });
    let a = crate::judge::analysis::Analysis::new(pos.board(), pos.rules());
    let b = &pos.board();
    let common: Vec<Value> = a
        .upper_strings
        .groups
        .iter()
        .enumerate()
        .filter_map(|(g, s)| {
            let colour = s.colour?;
            let eyes: Vec<Value> = common_eyes_2016(&a.upper, &a.upper_strings, g)
                .into_iter()
                .map(|e| {
                    json!({
                        "points": e.iter().map(|&i| b.point(i).to_string()).collect::<Vec<_>>(),
                        "true_eye": true_eye_2016(&a.upper, &a.upper_strings, colour, &e),
                    })
                })
                .collect();
            Some(json!({
                "string": crate::game::play::string_name(b, &s.points),
                "points": s.points.iter().map(|&i| b.point(i).to_string()).collect::<Vec<_>>(),
                "common_eyes": eyes,
            }))
        })
        .collect();
    json!({"team": team, "flystone": flystone, "common_eyes": common})
}

/// A point written in a case or an answer, normalised (Chinese labels), or the text itself.
pub(crate) fn norm(p: &str, size: usize) -> String {
    let t = p.trim().trim_end_matches('*');
    Point::parse(t, size)
        .map(|q| q.to_string())
        .unwrap_or_else(|_| t.to_string())
}

/// The strings of a JSON array (other elements skipped).
pub(crate) fn strs(v: &Value) -> Vec<String> {
    v.as_array()
        .map(|a| {
            a.iter()
                .filter_map(|x| x.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

fn set(v: &[String], size: usize) -> BTreeSet<String> {
    v.iter().map(|p| norm(p, size)).collect()
}

/// The entry of `list` (an array of objects with `points`) whose points include `p`.
fn find_by_point<'a>(list: &'a Value, p: &str, size: usize) -> Option<&'a Value> {
    let p = norm(p, size);
    list.as_array()?
        .iter()
        .find(|e| strs(&e["points"]).iter().any(|q| norm(q, size) == p))
}

/// A set of normalised points.
type Points = BTreeSet<String>;

/// An answer's private eye as (region points, empty points): `m3go-analysis/2` gives
/// `{points, empty}`; a bare list (`m3go-analysis/1`) is the empty points, the region unknown.
fn answered_eye(eye: &Value, size: usize) -> (Option<Points>, Points) {
    if eye.is_array() {
        (None, set(&strs(eye), size))
    } else {
        (
            Some(set(&strs(&eye["points"]), size)),
            set(&strs(&eye["empty"]), size),
        )
    }
}

/// M20-EYE-REGION / M20-EYE-FIG6 — compares a string's expected private eyes with the
/// answer's (order free): each expected eye must match a distinct answered eye on the fields it
/// names (a list: the empty points; a mapping: `points`, the whole closed region, and/or
/// `empty`), and there must be as many answered eyes as expected. `None` when they agree.
fn compare_private_eyes(want: &[EyeExpect], got: &Value, size: usize) -> Option<String> {
    let got: Vec<(Option<Points>, Points)> = got
        .as_array()
        .map(|v| v.iter().map(|eye| answered_eye(eye, size)).collect())
        .unwrap_or_default();
    let want: Vec<(Option<Points>, Option<Points>)> = want
        .iter()
        .map(|w| match w {
            EyeExpect::Empty(e) => (None, Some(set(e, size))),
            EyeExpect::Region(r) => (
                r.points.as_ref().map(|p| set(p, size)),
                r.empty.as_ref().map(|e| set(e, size)),
            ),
        })
        .collect();
    let matches = |(wp, we): &(Option<Points>, Option<Points>),
                   (gp, ge): &(Option<Points>, Points)| {
        we.as_ref().is_none_or(|we| we == ge)
            && wp.as_ref().is_none_or(|wp| gp.as_ref() == Some(wp))
    };
    let mut used = vec![false; got.len()];
    let all_matched =
        want.iter().all(
            |w| match (0..got.len()).find(|&k| !used[k] && matches(w, &got[k])) {
                Some(k) => {
                    used[k] = true;
                    true
                }
                None => false,
            },
        );
    if all_matched && want.len() == got.len() {
        return None;
    }
    let fw = |(p, e): &(Option<Points>, Option<Points>)| match (p, e) {
        (Some(p), Some(e)) => format!("region {} empty {}", fmt_set(p), fmt_set(e)),
        (Some(p), None) => format!("region {}", fmt_set(p)),
        (None, Some(e)) => fmt_set(e),
        (None, None) => "any eye".into(),
    };
    let fg = |(p, e): &(Option<Points>, Points)| match p {
        Some(p) => format!("region {} empty {}", fmt_set(p), fmt_set(e)),
        None => fmt_set(e),
    };
    Some(format!(
        "expected {{{}}}, got {{{}}}",
        want.iter().map(fw).collect::<Vec<_>>().join(", "),
        got.iter().map(fg).collect::<Vec<_>>().join(", ")
    ))
}

fn fmt_set(s: &BTreeSet<String>) -> String {
    format!("[{}]", s.iter().cloned().collect::<Vec<_>>().join(" "))
}

/// Compares a case's expectations with an answer; returns the differences (empty = pass). One
/// step per kind of expectation, in the order of spec/README.md's `expect` keys; each pushes
/// its differences.
pub fn check(case: &Case, ans: &Value) -> Vec<String> {
    if let Some(e) = error_message(ans) {
        return vec![format!("the implementation answered an error: {e}")];
    }
    let answer = Answer::of(ans, case_size(case));
    let e = &case.expect;
    let mut d = Vec::new();
    check_private_eyes(e, &answer, &mut d);
    check_attributes(e, &answer, &mut d);
    check_other_flowers(e, &answer, &mut d);
    check_forbidden(e, &answer, &mut d);
    check_playable(e, &answer, &mut d);
    check_probes(e, &answer, &mut d);
    check_events(e, &answer, &mut d);
    check_score(e, &answer, &mut d);
    check_to_move(e, &answer, &mut d);
    check_common_eyes(e, &answer, &mut d);
    check_flystone(e, &answer, &mut d);
    check_messages(e, &answer, &mut d);
    check_notations(e, &answer, &mut d);
    check_views(e, &answer, &mut d);
    d
}

/// The board size of a case: `size:`, or the rows of its diagram.
fn case_size(case: &Case) -> usize {
    case.position.size.unwrap_or_else(|| {
        case.position
            .diagram
            .lines()
            .filter(|l| !l.trim().is_empty())
            .count()
    })
}

/// An implementation's answer to a case, as the checks read it.
struct Answer<'a> {
    /// The analysis of the position after the moves.
    analysis: &'a Value,
    /// What the analysis report does not carry (see [`extras`]).
    extras: &'a Value,
    /// The move-number diagram.
    numbered: &'a Value,
    /// One answer per probe.
    probes: &'a [Value],
    /// One report per move.
    reports: &'a [Value],
    size: usize,
}

impl<'a> Answer<'a> {
    fn of(ans: &'a Value, size: usize) -> Answer<'a> {
        let list = |k: &str| ans[k].as_array().map(Vec::as_slice).unwrap_or(&[]);
        Answer {
            analysis: &ans["analysis"],
            extras: &ans["extras"],
            numbered: &ans["numbered"],
            probes: list("probes"),
            reports: list("reports"),
            size,
        }
    }

    /// The answer to the probe of move `m`.
    fn probe(&self, m: &str) -> Option<&'a Value> {
        self.probes.iter().find(|x| x["move"].as_str() == Some(m))
    }

    /// Why `p` is forbidden to `player`'s flower, if it is.
    fn forbidden_reason(&self, player: &str, p: &str) -> Option<String> {
        let size = self.size;
        self.analysis["forbidden"][player].as_array().and_then(|v| {
            v.iter()
                .find(|f| {
                    f["point"]
                        .as_str()
                        .is_some_and(|q| norm(q, size) == norm(p, size))
                })
                .and_then(|f| f["reason"].as_str().map(str::to_string))
        })
    }
}

/// `private_eyes`: each named black or white string's private eyes.
fn check_private_eyes(e: &Expect, ans: &Answer, d: &mut Vec<String>) {
    let (a, size) = (ans.analysis, ans.size);
    if let Some(pe) = &e.private_eyes {
        for (s, eyes) in pe {
            match find_by_point(&a["strings"], s, size) {
                None => d.push(format!(
                    "private_eyes {s}: expected a black or white string there, found none"
                )),
                Some(st) => {
                    if let Some(diff) = compare_private_eyes(eyes, &st["private_eyes"], size) {
                        d.push(format!("private_eyes {s}: {diff}"));
                    }
                }
            }
        }
    }
}

/// `attributes`: each named flower string's attribute and counts.
fn check_attributes(e: &Expect, ans: &Answer, d: &mut Vec<String>) {
    let (a, size) = (ans.analysis, ans.size);
    if let Some(attrs) = &e.attributes {
        for (s, want) in attrs {
            match find_by_point(&a["flowers"], s, size) {
                None => d.push(format!(
                    "attributes {s}: expected a flower string there, found none"
                )),
                Some(f) => compare_attribute(&format!("attributes {s}"), want, f, d),
            }
        }
    }
}

/// One flower string of the answer (`f`) against an attribute expectation: the attribute and
/// each count the expectation names.
fn compare_attribute(label: &str, want: &AttrExpect, f: &Value, d: &mut Vec<String>) {
    let got = f["attribute"].as_str().unwrap_or("?");
    if got != want.attribute {
        d.push(format!("{label}: expected {}, got {got}", want.attribute));
    }
    for (k, w) in [
        ("hs", want.hs),
        ("hw", want.hw),
        ("bs", want.bs),
        ("bw", want.bw),
    ] {
        if let Some(w) = w {
            let g = f[k].as_u64().map(|x| x as i64).unwrap_or(-1);
            if g != i64::from(w) {
                d.push(format!("{label}: expected {k}={w}, got {k}={g}"));
            }
        }
    }
}

/// `other_flowers`: what every flower string not named in `attributes` must have.
fn check_other_flowers(e: &Expect, ans: &Answer, d: &mut Vec<String>) {
    let (a, size) = (ans.analysis, ans.size);
    if let Some(want) = &e.other_flowers {
        let named: Vec<String> = e
            .attributes
            .iter()
            .flat_map(|m| m.keys().cloned())
            .collect();
        for f in a["flowers"].as_array().into_iter().flatten() {
            let pts = strs(&f["points"]);
            if named
                .iter()
                .any(|s| pts.iter().any(|q| norm(q, size) == norm(s, size)))
            {
                continue;
            }
            let name = pts.first().cloned().unwrap_or_default();
            compare_attribute(&format!("other_flowers {name}*"), want, f, d);
        }
    }
}

/// `forbidden`: each named point forbidden to the flower of the players named, for the reason
/// named.
fn check_forbidden(e: &Expect, ans: &Answer, d: &mut Vec<String>) {
    if let Some(fb) = &e.forbidden {
        for (p, want) in fb {
            let players: &[&str] = match want.for_player.as_deref() {
                Some("black") => &["black"],
                Some("white") => &["white"],
                None | Some("both") => &["black", "white"],
                Some(other) => {
                    d.push(format!(
                        "forbidden {p}: `for: {other}` is not black, white or both"
                    ));
                    &[]
                }
            };
            for pl in players {
                match ans.forbidden_reason(pl, p) {
                    Some(r) if r == want.reason => {}
                    Some(r) => d.push(format!(
                        "forbidden {p} ({pl}'s flower): expected {}, got {r}",
                        want.reason
                    )),
                    None => d.push(format!(
                        "forbidden {p} ({pl}'s flower): expected {}, got playable",
                        want.reason
                    )),
                }
            }
        }
    }
}

/// `playable`: each named point open to both players' flowers.
fn check_playable(e: &Expect, ans: &Answer, d: &mut Vec<String>) {
    if let Some(pl) = &e.playable {
        for p in pl {
            for who in ["black", "white"] {
                if let Some(r) = ans.forbidden_reason(who, p) {
                    d.push(format!(
                        "playable {p}: expected open to {who}'s flower, got forbidden ({r})"
                    ));
                }
            }
        }
    }
}

/// `legal` and `illegal`: each probed move legal, or refused for the reason named.
fn check_probes(e: &Expect, ans: &Answer, d: &mut Vec<String>) {
    for m in e.legal.iter().flatten() {
        match ans.probe(m) {
            Some(p) if p["legal"] == json!(true) => {}
            Some(p) => d.push(format!(
                "legal {m}: expected legal, got refused ({})",
                p["reason"].as_str().unwrap_or("?")
            )),
            None => d.push(format!("legal {m}: no answer for this probe")),
        }
    }
    for il in e.illegal.iter().flatten() {
        match ans.probe(&il.mv) {
            Some(p) if p["legal"] == json!(true) => d.push(format!(
                "illegal {}: expected {}, got legal",
                il.mv, il.reason
            )),
            Some(p) => {
                let r = p["reason"].as_str().unwrap_or("?");
                if r != il.reason {
                    d.push(format!(
                        "illegal {}: expected {}, got {r}",
                        il.mv, il.reason
                    ));
                }
            }
            None => d.push(format!("illegal {}: no answer for this probe", il.mv)),
        }
    }
}

/// `events`: what each move did, against its report; every difference of an event with a
/// `quote` ends with the quote.
fn check_events(e: &Expect, ans: &Answer, d: &mut Vec<String>) {
    let size = ans.size;
    for ev in e.events.iter().flatten() {
        let Some(r) = ans.reports.get(ev.index) else {
            d.push(format!("events[{}]: no report for that move", ev.index));
            continue;
        };
        let before = d.len();
        check_event_captured(ev, r, size, d);
        check_event_eyes_made_and_lost(ev, r, size, d);
        check_event_attributes(ev, r, size, d);
        check_event_eyes_and_ataris(ev, r, size, d);
        if let Some(q) = &ev.quote {
            for line in &mut d[before..] {
                line.push_str(&format!(" (「{q}」)"));
            }
        }
    }
}

/// The stones a move captured (`events[].captured`).
fn check_event_captured(ev: &EventExpect, r: &Value, size: usize, d: &mut Vec<String>) {
    if let Some(c) = &ev.captured {
        let want = set(c, size);
        let got = set(&strs(&r["captured"]), size);
        if want != got {
            d.push(format!(
                "events[{}].captured: expected {}, got {}",
                ev.index,
                fmt_set(&want),
                fmt_set(&got)
            ));
        }
    }
}

/// The strings that gained or lost a private eye (`events[].eyes_made`, `events[].eyes_lost`):
/// each named, and no other.
fn check_event_eyes_made_and_lost(ev: &EventExpect, r: &Value, size: usize, d: &mut Vec<String>) {
    for (key, list) in [("eyes_made", &ev.eyes_made), ("eyes_lost", &ev.eyes_lost)] {
        if let Some(list) = list {
            let entries = &r[key];
            for s in list {
                if find_by_point(entries, s, size).is_none() {
                    d.push(format!(
                        "events[{}].{key}: expected {s}, got [{}]",
                        ev.index,
                        names_of(entries)
                    ));
                }
            }
            let n = entries.as_array().map(|v| v.len()).unwrap_or(0);
            if n != list.len() {
                d.push(format!(
                    "events[{}].{key}: expected {} string(s), got {n} [{}]",
                    ev.index,
                    list.len(),
                    names_of(entries)
                ));
            }
        }
    }
}

/// The flower strings whose attribute a move changed (`events[].attributes`): each named, to
/// the attribute named, and no other.
fn check_event_attributes(ev: &EventExpect, r: &Value, size: usize, d: &mut Vec<String>) {
    if let Some(attrs) = &ev.attributes {
        let changes = &r["attribute_changes"];
        for (s, want) in attrs {
            match find_by_point(changes, s, size) {
                Some(c) if c["to"].as_str() == Some(want.as_str()) => {}
                Some(c) => d.push(format!(
                    "events[{}].attributes {s}: expected {want}, got {}",
                    ev.index,
                    c["to"].as_str().unwrap_or("?")
                )),
                None => d.push(format!(
                    "events[{}].attributes {s}: expected a change to {want}, got no change",
                    ev.index
                )),
            }
        }
        let n = changes.as_array().map(|v| v.len()).unwrap_or(0);
        if n != attrs.len() {
            d.push(format!(
                "events[{}].attributes: expected {} change(s), got {n} [{}]",
                ev.index,
                attrs.len(),
                names_of(changes)
            ));
        }
    }
}

/// The private eyes a move made (`events[].eyes`) and the strings it put in atari
/// (`events[].ataris`, `events[].atari_of`).
fn check_event_eyes_and_ataris(ev: &EventExpect, r: &Value, size: usize, d: &mut Vec<String>) {
    for (s, eyes) in ev.eyes.iter().flatten() {
        let Some(made) = find_by_point(&r["eyes_made"], s, size) else {
            d.push(format!(
                "events[{}].eyes {s}: expected the string among eyes_made, got [{}]",
                ev.index,
                names_of(&r["eyes_made"])
            ));
            continue;
        };
        let got: BTreeSet<BTreeSet<String>> = made["eyes"]
            .as_array()
            .map(|v| v.iter().map(|eye| set(&strs(eye), size)).collect())
            .unwrap_or_default();
        for eye in eyes {
            let want = set(eye, size);
            if !got.contains(&want) {
                d.push(format!(
                    "events[{}].eyes {s}: expected a private eye {}, got {{{}}}",
                    ev.index,
                    fmt_set(&want),
                    got.iter().map(fmt_set).collect::<Vec<_>>().join(", ")
                ));
            }
        }
    }
    for s in ev.ataris.iter().flatten() {
        if find_by_point(&r["ataris"], s, size).is_none() {
            d.push(format!(
                "events[{}].ataris: expected {s} put in atari, got [{}]",
                ev.index,
                names_of(&r["ataris"])
            ));
        }
    }
    if let Some(colour) = &ev.atari_of {
        let n = r["ataris"].as_array().map(|v| v.len()).unwrap_or(0);
        if n == 0 {
            d.push(format!(
                "events[{}].atari_of: expected a {colour} string put in atari, got none",
                ev.index
            ));
        }
    }
}

/// `score`: the areas in half-points and the winner.
fn check_score(e: &Expect, ans: &Answer, d: &mut Vec<String>) {
    let a = ans.analysis;
    if let Some(s) = &e.score {
        let sc = &a["score"];
        if sc.is_null() {
            d.push(format!(
                "score: expected a score, got none ({})",
                a["score_error"].as_str().unwrap_or("no reason given")
            ));
        } else {
            for (k, w) in [
                ("black", s.black),
                ("white", s.white),
                ("neutral", s.neutral),
            ] {
                if let Some(w) = w {
                    let g = sc[k].as_i64().unwrap_or(i64::MIN);
                    if g != i64::from(w) {
                        d.push(format!("score.{k}: expected {w} half-points, got {g}"));
                    }
                }
            }
            if let Some(w) = &s.winner {
                let g = sc["winner"].as_str().unwrap_or("?");
                if g != w {
                    d.push(format!("score.winner: expected {w}, got {g}"));
                }
            }
        }
    }
}

/// `to_move`: the number, player, kind and symbol of the next move, its team round and seat.
fn check_to_move(e: &Expect, ans: &Answer, d: &mut Vec<String>) {
    let (a, x) = (ans.analysis, ans.extras);
    if let Some(t) = &e.to_move {
        let tm = &a["to_move"];
        let got_kind = tm["kind"].as_str().unwrap_or("?");
        let fields: [(&str, Option<String>, String); 6] = [
            (
                "move",
                t.number.map(|n| n.to_string()),
                a["move"]
                    .as_u64()
                    .map(|n| n.to_string())
                    .unwrap_or_default(),
            ),
            (
                "player",
                t.player.clone(),
                tm["player"].as_str().unwrap_or("?").to_string(),
            ),
            ("kind", t.kind.clone(), got_kind.to_string()),
            (
                "symbol",
                t.symbol.clone(),
                tm["symbol"].as_str().unwrap_or("?").to_string(),
            ),
            (
                "round",
                t.round.map(|n| n.to_string()),
                x["team"]["round"]
                    .as_u64()
                    .map(|n| n.to_string())
                    .unwrap_or_else(|| "none".into()),
            ),
            (
                "seat",
                t.seat.clone(),
                x["team"]["seat"].as_str().unwrap_or("none").to_string(),
            ),
        ];
        for (k, want, got) in fields {
            if let Some(w) = want {
                if w != got {
                    d.push(format!("to_move.{k}: expected {w}, got {got}"));
                }
            }
        }
    }
}

/// `common_eyes`: the 2016 common eyes of each named black or white upper string.
fn check_common_eyes(e: &Expect, ans: &Answer, d: &mut Vec<String>) {
    let (x, size) = (ans.extras, ans.size);
    if let Some(ce) = &e.common_eyes {
        for (s, eyes) in ce {
            let want: BTreeSet<BTreeSet<String>> = eyes.iter().map(|eye| set(eye, size)).collect();
            match find_by_point(&x["common_eyes"], s, size) {
                None => d.push(format!(
                    "common_eyes {s}: expected a black or white upper string there, found none"
                )),
                Some(st) => {
                    let got: BTreeSet<BTreeSet<String>> = st["common_eyes"]
                        .as_array()
                        .map(|v| {
                            v.iter()
                                .map(|eye| set(&strs(&eye["points"]), size))
                                .collect()
                        })
                        .unwrap_or_default();
                    if got != want {
                        let f = |x: &BTreeSet<BTreeSet<String>>| {
                            x.iter().map(fmt_set).collect::<Vec<_>>().join(", ")
                        };
                        d.push(format!(
                            "common_eyes {s}: expected {{{}}}, got {{{}}}",
                            f(&want),
                            f(&got)
                        ));
                    }
                }
            }
        }
    }
}

/// `flystone`: the random flystone turns, the flystones thrown and the chosen ones left.
fn check_flystone(e: &Expect, ans: &Answer, d: &mut Vec<String>) {
    let x = ans.extras;
    if let Some(f) = &e.flystone {
        let fs = &x["flystone"];
        if fs.is_null() {
            d.push(
                "flystone: expected a Flystone state, got none (not a flystone schedule)".into(),
            );
            return;
        }
        let nums = |v: &Value| -> Vec<u64> {
            v.as_array()
                .map(|a| a.iter().filter_map(|n| n.as_u64()).collect())
                .unwrap_or_default()
        };
        let lists = [
            (
                "random_black",
                &f.random_black,
                nums(&fs["random"]["black"]),
            ),
            (
                "random_white",
                &f.random_white,
                nums(&fs["random"]["white"]),
            ),
            ("thrown", &f.thrown, nums(&fs["thrown"])),
        ];
        for (k, want, got) in lists {
            if let Some(w) = want {
                let w: Vec<u64> = w.iter().map(|&n| u64::from(n)).collect();
                if w != got {
                    d.push(format!("flystone.{k}: expected {w:?}, got {got:?}"));
                }
            }
        }
        for (k, want, got) in [
            (
                "chosen_left_black",
                f.chosen_left_black,
                &fs["chosen_left"]["black"],
            ),
            (
                "chosen_left_white",
                f.chosen_left_white,
                &fs["chosen_left"]["white"],
            ),
        ] {
            if let Some(w) = want {
                let g = got.as_u64().map(|n| n as i64).unwrap_or(-1);
                if g != i64::from(w) {
                    d.push(format!("flystone.{k}: expected {w}, got {g}"));
                }
            }
        }
    }
}

/// `messages`: each probed move refused with a message containing the text named.
fn check_messages(e: &Expect, ans: &Answer, d: &mut Vec<String>) {
    for (m, want) in e.messages.iter().flatten() {
        match ans.probe(m) {
            Some(p) if p["legal"] == json!(true) => d.push(format!(
                "messages {m}: expected a refusal mentioning `{want}`, got legal"
            )),
            Some(p) => {
                let got = p["message"].as_str().unwrap_or("");
                if !got.contains(want.as_str()) {
                    d.push(format!(
                        "messages {m}: expected the message to contain `{want}`, got `{got}`"
                    ));
                }
            }
            None => d.push(format!("messages {m}: no answer for this probe")),
        }
    }
}

/// `notations`: the notation written for each move, in order.
fn check_notations(e: &Expect, ans: &Answer, d: &mut Vec<String>) {
    if let Some(want) = &e.notations {
        let got: Vec<String> = ans
            .reports
            .iter()
            .map(|r| r["notation"].as_str().unwrap_or("?").to_string())
            .collect();
        if *want != got {
            d.push(format!(
                "notations: expected [{}], got [{}]",
                want.join(" "),
                got.join(" ")
            ));
        }
    }
}

/// `views`: the holographic and upper boards (whitespace free), the star points and the
/// move-number diagram.
fn check_views(e: &Expect, ans: &Answer, d: &mut Vec<String>) {
    let (a, size) = (ans.analysis, ans.size);
    if let Some(v) = &e.views {
        for (k, want) in [("holographic", &v.holographic), ("upper", &v.upper)] {
            if let Some(want) = want {
                let squash = |s: &str| -> Vec<String> {
                    s.lines()
                        .map(|l| l.chars().filter(|c| !c.is_whitespace()).collect::<String>())
                        .filter(|l| !l.is_empty())
                        .collect()
                };
                let got: Vec<String> = strs(&a["boards"][k])
                    .iter()
                    .flat_map(|l| squash(l))
                    .collect();
                if squash(want) != got {
                    d.push(format!(
                        "views.{k}: expected\n{}\ngot\n{}",
                        squash(want).join("\n"),
                        got.join("\n")
                    ));
                }
            }
        }
        if let Some(want) = &v.star_points {
            let got = set(&strs(&a["boards"]["star_points"]), size);
            if set(want, size) != got {
                d.push(format!(
                    "views.star_points: expected {}, got {}",
                    fmt_set(&set(want, size)),
                    fmt_set(&got)
                ));
            }
        }
        if let Some(want) = &v.numbered {
            let tokens = |s: &str| -> Vec<Vec<String>> {
                s.lines()
                    .map(|l| l.split_whitespace().map(str::to_string).collect::<Vec<_>>())
                    .filter(|l| !l.is_empty())
                    .collect()
            };
            let got: Vec<Vec<String>> = strs(ans.numbered).iter().flat_map(|l| tokens(l)).collect();
            if tokens(want) != got {
                let show = |t: &Vec<Vec<String>>| {
                    t.iter().map(|r| r.join(" ")).collect::<Vec<_>>().join("\n")
                };
                d.push(format!(
                    "views.numbered: expected\n{}\ngot\n{}",
                    show(&tokens(want)),
                    show(&got)
                ));
            }
        }
    }
}

fn names_of(v: &Value) -> String {
    v.as_array()
        .map(|a| {
            a.iter()
                .filter_map(|x| x["string"].as_str().map(str::to_string))
                .collect::<Vec<_>>()
                .join(" ")
        })
        .unwrap_or_default()
}

/// Clause ids of rules.md: the first cell of every table row that looks like an id.
pub fn clause_ids(rules_md: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in rules_md.lines() {
        let Some(rest) = line.trim_start().strip_prefix('|') else {
            continue;
        };
        let Some(cell) = rest.split('|').next() else {
            continue;
        };
        let id = cell.trim().trim_matches('`');
        if is_clause_id(id) && !out.contains(&id.to_string()) {
            out.push(id.to_string());
        }
    }
    out
}

/// `^[A-Z0-9]+(-[A-Z0-9]+)+$`
pub fn is_clause_id(s: &str) -> bool {
    let parts: Vec<&str> = s.split('-').collect();
    parts.len() >= 2
        && parts.iter().all(|p| {
            !p.is_empty()
                && p.chars()
                    .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit())
        })
        && parts[0].chars().any(|c| c.is_ascii_uppercase())
}

/// The folder name that stands for the suite built into the binary: `m3go conform` without a
/// directory, outside a checkout, runs the cases of `spec/cases` and the records of
/// `spec/records` as they were when the binary was built.
pub const BUILTIN_CASES: &str = "built-in:spec/cases";

/// The prefix of the paths of files in the built-in suite.
const BUILTIN: &str = "built-in:";

/// `spec/` as it was when the binary was built: the case files, the records they start from.
static SPEC: include_dir::Dir<'static> = include_dir::include_dir!("$CARGO_MANIFEST_DIR/spec");

/// The suite `m3go conform` runs without a directory: `spec/cases` of the current directory if
/// there is one (a checkout), else the built-in one ([`BUILTIN_CASES`]).
pub fn default_cases_dir() -> String {
    if std::path::Path::new("spec/cases").is_dir() {
        "spec/cases".to_string()
    } else {
        BUILTIN_CASES.to_string()
    }
}

/// The text of a suite file: a built-in one (`built-in:spec/…`) from the binary, any other from
/// the file system.
pub fn suite_text(path: &str) -> Result<String, InputError> {
    let Some(rel) = path.strip_prefix(BUILTIN) else {
        return read_text(path);
    };
    let inner = normalise(rel)
        .and_then(|r| r.strip_prefix("spec/").map(str::to_string))
        .ok_or_else(|| InputError::new("not in the built-in suite").file(path))?;
    let file = SPEC
        .get_file(&inner)
        .ok_or_else(|| InputError::new("not in the built-in suite").file(path))?;
    file.contents_utf8()
        .map(str::to_string)
        .ok_or_else(|| InputError::new("not UTF-8 text").file(path))
}

/// `a/b/../c` → `a/c`; `None` if `..` leaves the root.
fn normalise(path: &str) -> Option<String> {
    let mut parts: Vec<&str> = Vec::new();
    for p in path.split('/') {
        match p {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            p => parts.push(p),
        }
    }
    Some(parts.join("/"))
}

/// The `*.yaml` files of the built-in suite under `dir` (a path inside `spec/`), as
/// `built-in:` paths.
fn builtin_case_files(dir: &str) -> Result<Vec<String>, InputError> {
    let inner = normalise(dir)
        .and_then(|r| r.strip_prefix("spec/").map(str::to_string))
        .and_then(|r| SPEC.get_dir(&r))
        .ok_or_else(|| {
            InputError::new("not in the built-in suite").file(format!("{BUILTIN}{dir}"))
        })?;
    let mut out = Vec::new();
    let mut stack = vec![inner];
    while let Some(d) = stack.pop() {
        for e in d.entries() {
            match e {
                include_dir::DirEntry::Dir(sub) => stack.push(sub),
                include_dir::DirEntry::File(f) => {
                    if f.path().extension().and_then(|x| x.to_str()) == Some("yaml") {
                        out.push(format!("{BUILTIN}spec/{}", f.path().to_string_lossy()));
                    }
                }
            }
        }
    }
    out.sort();
    Ok(out)
}

/// All `*.yaml` files under `dir`, sorted; under a `built-in:` directory, those of the suite
/// built into the binary.
pub fn case_files(dir: &str) -> Result<Vec<String>, InputError> {
    if let Some(rel) = dir.strip_prefix(BUILTIN) {
        return builtin_case_files(rel);
    }
    let mut out = Vec::new();
    let mut stack = vec![std::path::PathBuf::from(dir)];
    while let Some(d) = stack.pop() {
        let entries = std::fs::read_dir(&d).map_err(|e| {
            InputError::new(format!("cannot read: {e}")).file(d.display().to_string())
        })?;
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().and_then(|x| x.to_str()) == Some("yaml") {
                out.push(p.to_string_lossy().into_owned());
            }
        }
    }
    out.sort();
    Ok(out)
}
