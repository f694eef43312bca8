//! The JSON API of `m3go serve`: one function per endpoint, each a thin call into the same
//! library functions the command line uses (`analyze`: [`AnalysisReport::new`]; `render`:
//! [`render::svg`]; `explain`: [`explain_target`]; `readings`: [`readings::readings`]; `play`:
//! [`Position::play`]; `replay`: [`replay::mechanical`] / [`replay::strict`]; `export`:
//! [`sgf::write_record`] / [`Record::to_game_text`]). A position travels as the text of a
//! position file (YAML, spec/README.md); bad input is an [`ApiError`] with the message the CLI
//! prints for the same input and a 4xx status.

use crate::board::coord::Labels;
use crate::conform::register;
use crate::formats::explain::explain_target;
use crate::formats::record::{record_of, Record};
use crate::formats::render::{self, View};
use crate::formats::report::AnalysisReport;
use crate::formats::sgf;
use crate::game::play::{Position, Report};
use crate::game::setup::{from_yaml, InputError, Setup};
use crate::rules::{Rules, RulesField, OPTIONS, PRESETS};
use crate::tools::{readings, replay};
use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::{json, Value};

/// One endpoint: its name (under `/api/`), method, request and answer, for the README's table
/// and the router.
pub struct Endpoint {
    pub name: &'static str,
    pub method: &'static str,
    pub request: &'static str,
    pub answer: &'static str,
}

/// Every endpoint.
pub const ENDPOINTS: &[Endpoint] = &[
    Endpoint {
        name: "options",
        method: "GET",
        request: "—",
        answer: "`presets` (name and rules of each), `options` (name, values, meaning, register entries)",
    },
    Endpoint {
        name: "analyze",
        method: "POST",
        request: "`position` (YAML text), `layer`, `labels` (chinese, latin: the figure's edges)",
        answer: "`analysis` (m3go-analysis/3, as `analyze --format json`), `text`, `svg` of the layer, `position` (YAML as m3go writes it)",
    },
    Endpoint {
        name: "render",
        method: "POST",
        request: "`position`, `layer` (direct, holographic, upper), `labels` (chinese, latin)",
        answer: "`svg` (as `render --svg`, each point a `rect.point` with `data-point`)",
    },
    Endpoint {
        name: "explain",
        method: "POST",
        request: "`position`, `target` (a point, a string 七九*, a move 华289.一九)",
        answer: "`trace` (as `explain`), `clauses` (id, quote, reading of each clause cited)",
    },
    Endpoint {
        name: "readings",
        method: "POST",
        request: "`position`, `target` (optional)",
        answer: "m3go-readings/1 (as `explain --readings --format json`), `register` (title of each entry named)",
    },
    Endpoint {
        name: "play",
        method: "POST",
        request: "`position`, `moves` (notation, as `play`)",
        answer: "`reports` (each move's cascade, as `play --format json`), `position` (YAML)",
    },
    Endpoint {
        name: "replay",
        method: "POST",
        request: "`record` (SGF or game-file text), `mechanical`, `rules` (optional), `to` (optional)",
        answer: "`position` (YAML after move `to`), `log` (as `replay`), `moves` (the record's move count), `last` (number of the last move replayed)",
    },
    Endpoint {
        name: "export",
        method: "POST",
        request: "`format` (yaml, svg, sgf, game), `position`, `layer`, `labels` (for svg); for sgf and game `start` and `moves`",
        answer: "`text`, `filename`",
    },
];

/// The endpoint names.
pub fn names() -> Vec<&'static str> {
    ENDPOINTS.iter().map(|e| e.name).collect()
}

/// A refused request: the status and the message.
#[derive(Debug)]
pub struct ApiError {
    pub status: u16,
    pub message: String,
}

impl From<InputError> for ApiError {
    fn from(e: InputError) -> ApiError {
        ApiError {
            status: 400,
            message: e.to_string(),
        }
    }
}

impl ApiError {
    fn bad(message: impl Into<String>) -> ApiError {
        ApiError {
            status: 400,
            message: message.into(),
        }
    }
}

/// An endpoint's answer.
pub type Answer = Result<Value, ApiError>;

/// Answers endpoint `name` with the request `body` (JSON; ignored by GET endpoints).
pub fn call(name: &str, body: &[u8]) -> Answer {
    answer(parse(name, body)?)
}

/// A request to an endpoint, read from its body (and, for a replay, the record read from it).
pub enum Request {
    Options,
    Analyze(PositionRequest),
    Render(PositionRequest),
    Explain(TargetRequest),
    Readings(TargetRequest),
    Play(PlayRequest),
    Replay(ReplayRequest, Box<Record>),
    Export(ExportRequest),
}

/// Reads the `body` of a request to endpoint `name` (JSON; ignored by GET endpoints): nothing
/// but the body is read (a record's `position:` header is refused, [`record`]).
pub fn parse(name: &str, body: &[u8]) -> Result<Request, ApiError> {
    Ok(match name {
        "options" => Request::Options,
        "analyze" => Request::Analyze(request(body)?),
        "render" => Request::Render(request(body)?),
        "explain" => Request::Explain(request(body)?),
        "readings" => Request::Readings(request(body)?),
        "play" => Request::Play(request(body)?),
        "replay" => {
            let r: ReplayRequest = request(body)?;
            let rec = record(&r.record)?;
            Request::Replay(r, Box::new(rec))
        }
        "export" => Request::Export(request(body)?),
        other => {
            return Err(ApiError {
                status: 404,
                message: format!("no API endpoint `{other}`"),
            })
        }
    })
}

/// The answer to a request.
pub fn answer(request: Request) -> Answer {
    match request {
        Request::Options => Ok(options()),
        Request::Analyze(r) => analyze(r),
        Request::Render(r) => render_layer(r),
        Request::Explain(r) => explain(r),
        Request::Readings(r) => readings_of(r),
        Request::Play(r) => play(r),
        Request::Replay(r, rec) => replay_record(r, &rec),
        Request::Export(r) => export(r),
    }
}

/// The request body as `T`; a body that is not JSON of that shape is a 400 naming the problem.
fn request<T: DeserializeOwned>(body: &[u8]) -> Result<T, ApiError> {
    let text = std::str::from_utf8(body)
        .map_err(|e| ApiError::bad(format!("request body: not UTF-8: {e}")))?;
    serde_json::from_str(text).map_err(|e| ApiError::bad(format!("request body: {e}")))
}

/// Where a position from a request is said to come from in messages.
const POSITION: &str = "position";

/// A position file's text, read and validated as `Setup::load` reads a file.
fn position(text: &str, place: &str) -> Result<Position, ApiError> {
    let setup: Setup = from_yaml(text, place)?;
    Ok(setup.to_position(place).map_err(InputError::from)?)
}

/// The YAML m3go writes for a position (as `play -o`).
fn position_yaml(p: &Position) -> Result<String, ApiError> {
    serde_yaml::to_string(&p.to_setup()).map_err(|e| ApiError::bad(e.to_string()))
}

fn view(layer: Option<&str>) -> Result<View, ApiError> {
    View::parse(layer.unwrap_or("holographic")).map_err(|e| ApiError::bad(format!("`layer`: {e}")))
}

/// The `labels` of a request: `chinese` (the default) or `latin`.
fn labels(v: Option<&str>) -> Result<Labels, ApiError> {
    match v.unwrap_or("chinese") {
        "chinese" => Ok(Labels::Chinese),
        "latin" => Ok(Labels::Latin),
        other => Err(ApiError::bad(format!(
            "`labels: {other}`: expected chinese or latin"
        ))),
    }
}

fn to_json<T: serde::Serialize>(v: &T) -> Result<Value, ApiError> {
    serde_json::to_value(v).map_err(|e| ApiError::bad(e.to_string()))
}

/// The presets with their rules and every option with its values.
fn options() -> Value {
    let presets: Vec<Value> = PRESETS
        .iter()
        .filter_map(|n| {
            Rules::preset(n)
                .ok()
                .map(|r| json!({ "name": n, "rules": r }))
        })
        .collect();
    let reg = register_options();
    let options: Vec<Value> = OPTIONS
        .iter()
        .map(|&(name, values, meaning)| {
            json!({
                "name": name,
                "values": readings::enumerated_values(values),
                "text": values,
                "meaning": meaning,
                "register": readings::entries_of(name, meaning, &reg),
            })
        })
        .collect();
    json!({ "presets": presets, "options": options, "labels": ["chinese", "latin"] })
}

fn register_options() -> Vec<(String, String)> {
    register::disputed_points()
        .into_iter()
        .map(|d| (d.id, d.option))
        .collect()
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PositionRequest {
    position: String,
    #[serde(default)]
    layer: Option<String>,
    /// The label system of the figure's edges (`chinese`, the default, or `latin`); the
    /// points' `data-point` names stay Chinese.
    #[serde(default)]
    labels: Option<String>,
}

fn analyze(r: PositionRequest) -> Answer {
    let p = position(&r.position, POSITION)?;
    let v = view(r.layer.as_deref())?;
    let report = AnalysisReport::new(&p);
    Ok(json!({
        "analysis": to_json(&report)?,
        "text": report.to_text(),
        "svg": render::svg_labelled(&p, v, labels(r.labels.as_deref())?),
        "position": position_yaml(&p)?,
    }))
}

fn render_layer(r: PositionRequest) -> Answer {
    let p = position(&r.position, POSITION)?;
    let (v, l) = (view(r.layer.as_deref())?, labels(r.labels.as_deref())?);
    Ok(json!({ "svg": render::svg_labelled(&p, v, l) }))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TargetRequest {
    position: String,
    #[serde(default)]
    target: Option<String>,
}

/// The clause ids a text cites (`M20-EYE-SIM`, `GO-CASCADE`), each once, in order.
pub fn cited_clauses(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let is_id_char = |c: char| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '-';
    for word in text.split(|c: char| !is_id_char(c)) {
        let word = word.trim_matches('-');
        if word.contains('-') && !out.iter().any(|w| w == word) && register::clause(word).is_some()
        {
            out.push(word.to_string());
        }
    }
    out
}

fn explain(r: TargetRequest) -> Answer {
    let p = position(&r.position, POSITION)?;
    let target = r
        .target
        .ok_or_else(|| ApiError::bad("request body: missing field `target`"))?;
    let trace = explain_target(&p, &target)?;
    let clauses: Vec<Value> = cited_clauses(&trace)
        .into_iter()
        .filter_map(|id| register::clause(&id))
        .map(|c| {
            json!({
                "id": c.id,
                "seed": c.seed,
                "quote": c.quote,
                "reading": c.reading,
                "function": c.function,
            })
        })
        .collect();
    Ok(json!({ "trace": trace, "clauses": clauses }))
}

fn readings_of(r: TargetRequest) -> Answer {
    let p = position(&r.position, POSITION)?;
    let rd = readings::readings(&p, r.target.as_deref(), &register_options())?;
    let mut v = to_json(&rd)?;
    let mut titles = serde_json::Map::new();
    for reading in &rd.readings {
        for id in &reading.register {
            if let Some(d) = register::disputed(id) {
                titles.insert(id.clone(), Value::String(d.title));
            }
        }
    }
    if let Some(m) = v.as_object_mut() {
        m.insert("register".into(), Value::Object(titles));
    }
    Ok(v)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayRequest {
    position: String,
    moves: Vec<String>,
}

/// The moves played in order on `p`, with the errors and the bounds of `m3go play` (the same
/// code: [`replay::play_listed`]).
fn play_moves(p: &Position, moves: &[String]) -> Result<(Position, Vec<Report>), ApiError> {
    Ok(replay::play_listed(p, moves, "moves", |_| ())?)
}

fn play(r: PlayRequest) -> Answer {
    let p = position(&r.position, POSITION)?;
    let (next, reports) = play_moves(&p, &r.moves)?;
    Ok(json!({ "reports": to_json(&reports)?, "position": position_yaml(&next)? }))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReplayRequest {
    record: String,
    #[serde(default)]
    mechanical: bool,
    #[serde(default)]
    rules: Option<String>,
    #[serde(default)]
    to: Option<u32>,
}

/// Where a record from a request is said to come from in messages.
const RECORD: &str = "record";

/// A record's text, SGF or game file (by its content, read by `formats::load::parse_sent`). A
/// pasted game file may not name a start position file, in any spelling of `position:`: the
/// server reads no file, so no message can echo one.
fn record(text: &str) -> Result<Record, ApiError> {
    if text.len() > super::MAX_BODY {
        return Err(ApiError::bad("record: too large"));
    }
    Ok(crate::formats::load::parse_sent(text, RECORD)?)
}

fn replay_record(r: ReplayRequest, rec: &Record) -> Answer {
    let rules = match &r.rules {
        Some(text) => {
            let f: RulesField = from_yaml(text, "rules")?;
            f.resolve()
                .map_err(|e| InputError::new(e.to_string()).key("rules"))?
        }
        None if r.mechanical => Rules::m3go_2020(),
        None => rec.resolve_rules(None)?,
    };
    let rep = if r.mechanical {
        replay::mechanical(rec, &rules, r.to)?
    } else {
        replay::strict(rec, &rules, r.to)?
    };
    let setup = replay::position_setup(&rep.position);
    let yaml = serde_yaml::to_string(&setup).map_err(|e| ApiError::bad(e.to_string()))?;
    Ok(json!({
        "position": yaml,
        "log": replay::log_text(&rep, false),
        "moves": rec.moves.len(),
        "first": rec.moves.first().map(|m| m.number),
        "last": rep.entries.last().map(|e| e.number),
        "replaced": rep.replaced_by_reason(),
    }))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExportRequest {
    format: String,
    #[serde(default)]
    position: Option<String>,
    #[serde(default)]
    layer: Option<String>,
    /// As [`PositionRequest`]'s.
    #[serde(default)]
    labels: Option<String>,
    #[serde(default)]
    start: Option<String>,
    #[serde(default)]
    moves: Vec<String>,
}

fn export(r: ExportRequest) -> Answer {
    let need = |v: &Option<String>, field: &str| {
        v.clone().ok_or_else(|| {
            ApiError::bad(format!(
                "request body: missing field `{field}` for format `{}`",
                r.format
            ))
        })
    };
    let (text, filename) = match r.format.as_str() {
        "yaml" => {
            let p = position(&need(&r.position, "position")?, POSITION)?;
            (position_yaml(&p)?, "position.yaml")
        }
        "svg" => {
            let p = position(&need(&r.position, "position")?, POSITION)?;
            let (v, l) = (view(r.layer.as_deref())?, labels(r.labels.as_deref())?);
            (render::svg_labelled(&p, v, l), "position.svg")
        }
        "sgf" | "game" => {
            let start = position(&need(&r.start, "start")?, "start")?;
            let (_, reports) = play_moves(&start, &r.moves)?;
            let rec = record_of(&start, &reports);
            if r.format == "sgf" {
                (sgf::write_record(&rec, start.rules())?, "game.sgf")
            } else {
                (
                    rec.to_game_text(start.rules(), Labels::Chinese)?,
                    "game.txt",
                )
            }
        }
        other => {
            return Err(ApiError::bad(format!(
                "`format: {other}`: expected one of yaml, svg, sgf, game"
            )))
        }
    };
    Ok(json!({ "text": text, "filename": filename }))
}
