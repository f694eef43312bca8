//! The JSON API of `m3go serve`: one function per endpoint, each a thin call into the same
//! library functions the command line uses (`analyze`: [`AnalysisReport::new`]; `render`:
//! [`View::svg`]; `explain`: [`Trace::explain`]; `readings`: [`readings::readings`]; `play`:
//! [`Position::play`]; `replay`: [`replay::mechanical`] / [`replay::strict`]; `export`:
//! [`Record::to_sgf`] / [`Record::to_game_text`]). A position travels as the text of a
//! position file (YAML, spec/README.md) or as the same file's JSON object (`setup` in the
//! answers); bad input is an `ApiError` with the message the CLI
//! prints for the same input and a 4xx status.

use crate::conform::clause_id::cited;
use crate::conform::register;
use crate::serve::{captures, vertices};
use crate::tools::{readings, replay};
use m3go_engine::board::{Labeled, UnknownLabels};
use m3go_engine::formats::explain::Trace;
use m3go_engine::formats::record::Record;
use m3go_engine::formats::render::View;
use m3go_engine::formats::report::AnalysisReport;
use m3go_engine::game::from_yaml;
use m3go_engine::rules::RulesField;
use m3go_engine::{Engine, InputError, Labels, Position, Report, Rules, Setup};
use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::{json, Value};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// One endpoint: its name (under `/api/`), method, request and answer, for the README's table
/// and the router.
#[cfg_attr(feature = "testing", visibility::make(pub))]
// `request` and `answer` are read only by the test that compares the README's table with them.
#[cfg_attr(not(feature = "testing"), allow(dead_code))]
pub(crate) struct Endpoint {
    pub name: &'static str,
    pub method: &'static str,
    pub request: &'static str,
    pub answer: &'static str,
}

/// Every endpoint.
#[cfg_attr(feature = "testing", visibility::make(pub))]
pub(crate) const ENDPOINTS: &[Endpoint] = &[
    Endpoint {
        name: "options",
        method: "GET",
        request: "—",
        answer: "`presets` (name and rules of each), `options` (name, values, meaning, register entries), `labels`, `version` (m3go's)",
    },
    Endpoint {
        name: "analyze",
        method: "POST",
        request: "`position` (a position file: its YAML text, or its JSON object as `setup` answers it, spec/schema/position.schema.json), `layer`, `labels` (chinese, latin: the figure's edges; gtp: GTP's vertices for the edges and `shown`, the engine's texts in latin), `numbers` (move numbers on the stones), `file` (optional: the file the position was read from, named in messages)",
        answer: "`analysis` (m3go-analysis/4, as `analyze --format json`), `text`, `svg` of the layer, `position` (YAML as m3go writes it), `setup` (the same as a JSON object), `score_trace` (m3go-score-trace/2: the count's regions, each with its owner, reason and clause, and the komi; null when the position cannot be counted), `score_clauses` (id, quote, reading of each clause the trace cites), `shown` (each point's label in `labels`), `dead_proposal` (in a finished game, the strings the engine's analysis judges dead, proposed for the count: each string's points; null while the game goes on)",
    },
    Endpoint {
        name: "render",
        method: "POST",
        request: "`position`, `layer` (direct, holographic, upper), `labels` (chinese, latin, gtp), `numbers`",
        answer: "`svg` (as `render --svg`, each point a `rect.point` with `data-point`)",
    },
    Endpoint {
        name: "explain",
        method: "POST",
        request: "`position`, `target` (a point, a string 七九*, a move 华289.一九), `labels`",
        answer: "`trace` (as `explain --labels`), `clauses` (id, quote, reading of each clause cited)",
    },
    Endpoint {
        name: "readings",
        method: "POST",
        request: "`position`, `target` (optional), `labels`",
        answer: "m3go-readings/1 (as `explain --readings --format json`), `register` (title of each entry named)",
    },
    Endpoint {
        name: "play",
        method: "POST",
        request: "`position`, `moves` (notation, as `play`), `labels`, `analysis` (true: the next position's analysis too), `layer`, `numbers`",
        answer: "`reports` (each move's cascade, as `play --format json`), `shown` (the same in `labels`), `position` (YAML), `setup` (the same as a JSON object), `analysis` (with `analysis: true`, `analyze`'s answer for the position after the moves: one request a move; else null)",
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
        request: "`format` (yaml, svg, sgf, game), `position`, `layer`, `labels` (for svg); for sgf and game `start`, `moves`, and optionally `info` (the game information kept: key and value of each, as the `record` answer lists it) and `comments` (each move's, or null)",
        answer: "`text`, `filename`",
    },
    Endpoint {
        name: "record",
        method: "POST",
        request: "`record` (SGF or game-file text), `mechanical`, `rules` (optional), `labels`",
        answer: "`id` (the record kept, every position of its replay: 32 hex digits, kept for the client of the `X-M3go-Client` header), `rules` (the preset's name), `rules_used` (the whole rules replayed under), `moves` (number, notation (in `labels`; gtp: `K9.Q16`), replaced, log line and comment of each), `info` (the game information: key, SGF property, value, `go_only` for the result, rules, komi and handicap of a Go record, one naming no m3go rules, in a mechanical replay), `clauses` (id, quote, reading of each clause the comments and information cite), `log`, `first`, `last`, `replaced`, `variations` (beside the main line, not replayed), `dropped` (what the record read does not hold: variations, properties, an SGF collection's further games)",
    },
    Endpoint {
        name: "record-move",
        method: "POST",
        request: "`id` (the hex string from `record`), `to` (a move number, 0 for the start), `layer`, `labels`, `numbers`, `analysis` (false: the figure only)",
        answer: "`analysis`, `score_trace`, `score_clauses`, `svg`, `position`, `setup`, `shown`, `dead_proposal` as `analyze`'s and `move`, for the kept position after move `to` (nothing replayed), and `at` (the move reached), `captures` (the stones black and white have captured by then: `{ black, white }`)",
    },
];

/// The endpoint names.
pub(crate) fn names() -> Vec<&'static str> {
    ENDPOINTS.iter().map(|e| e.name).collect()
}

/// A refused request: the status and the message.
#[derive(Debug)]
pub(crate) struct ApiError {
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
pub(crate) type ApiResult = Result<Value, ApiError>;

/// What one request may spend and who sent it: its client (the `X-M3go-Client` token the page
/// sends, which owns the records it loads; empty for a client that sends none), whether that
/// client is still there (`cancelled` is set when its connection goes), and the time its work
/// may take. The loops of the heavy endpoints (a replay's moves, a list of moves played) ask
/// [`Work::stop`] before each move.
pub(crate) struct Work {
    client: String,
    /// The records the server keeps for its clients (the server's own; a fresh store for a
    /// request answered outside a server).
    records: Arc<Records>,
    cancelled: Arc<AtomicBool>,
    budget: Option<Duration>,
    started: Instant,
}

impl Work {
    /// No client named, never cancelled, no time budget (the fuzz targets, the library).
    #[cfg(any(test, feature = "testing"))]
    pub fn unbounded() -> Work {
        Work {
            client: String::new(),
            records: Arc::new(Records::default()),
            cancelled: Arc::new(AtomicBool::new(false)),
            budget: None,
            started: Instant::now(),
        }
    }

    /// The work of a request of `client` on the server's `records`, stopped when `cancelled` is
    /// set or after `budget` (counted from now).
    pub fn new(
        client: &str,
        records: Arc<Records>,
        cancelled: Arc<AtomicBool>,
        budget: Duration,
    ) -> Work {
        Work {
            client: client.to_string(),
            records,
            cancelled,
            budget: Some(budget),
            started: Instant::now(),
        }
    }

    /// Whether the work must stop: its client left, or it ran past its budget.
    pub fn stop(&self) -> bool {
        self.cancelled.load(Ordering::Relaxed)
            || self.budget.is_some_and(|b| self.started.elapsed() > b)
    }

    /// The error of a loop that stopped (`e`), when it stopped because of [`Work::stop`].
    fn stopped(&self, e: InputError) -> ApiError {
        if self.cancelled.load(Ordering::Relaxed) {
            // nobody reads it: the client left
            return ApiError {
                status: 503,
                message: "the client left before its answer".into(),
            };
        }
        match self.budget {
            Some(b) if self.started.elapsed() > b => ApiError {
                status: 503,
                message: format!(
                    "the request ran past the {} s of work the server gives one request: \
                     expected a shorter record or fewer moves",
                    b.as_secs_f64()
                ),
            },
            _ => e.into(),
        }
    }
}

/// A request to an endpoint, read from its body (and, for a replay, the record read from it).
#[cfg_attr(feature = "testing", visibility::make(pub))]
pub(crate) enum Request {
    Options,
    Analyze(PositionRequest),
    Render(PositionRequest),
    Explain(TargetRequest),
    Readings(TargetRequest),
    Play(PlayRequest),
    Replay(ReplayRequest, Box<Record>),
    Export(ExportRequest),
    Record(RecordRequest, Box<Record>),
    RecordMove(RecordMoveRequest),
}

/// Reads the `body` of a request to endpoint `name` (JSON; ignored by GET endpoints): nothing
/// but the body is read (a record's `position:` header is refused, `record`).
pub(crate) fn parse(name: &str, body: &[u8]) -> Result<Request, ApiError> {
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
        "record" => {
            let r: RecordRequest = request(body)?;
            let rec = record(&r.record)?;
            Request::Record(r, Box::new(rec))
        }
        "record-move" => Request::RecordMove(request(body)?),
        other => {
            return Err(ApiError {
                status: 404,
                message: format!("no API endpoint `{other}`"),
            })
        }
    })
}

impl Request {
    /// Whether the request's work grows with what it sends beyond one position's analysis: a
    /// record replayed (`replay`, `record`), the readings (the position judged under every
    /// value of every rule option), or a list of more than [`LIGHT_MOVES`] moves played (`play`,
    /// `export`). The server runs these on its bounded pool of workers; the others (the page's
    /// files, the options, one position's analysis, figure or trace, a step through a kept
    /// record) are answered at once.
    pub fn heavy(&self) -> bool {
        match self {
            Request::Replay(..) | Request::Record(..) | Request::Readings(_) => true,
            Request::Play(r) => r.moves.len() > LIGHT_MOVES,
            Request::Export(r) => r.moves.len() > LIGHT_MOVES,
            _ => false,
        }
    }
}

/// The most moves a `play` or `export` request may list and still be light ([`Request::heavy`]):
/// the page sends one move at a time, or a game of a few hundred for an export.
pub(crate) const LIGHT_MOVES: usize = 400;

/// The answer to a request.
#[cfg(any(test, feature = "testing"))]
pub(crate) fn answer(request: Request) -> ApiResult {
    answer_within(request, &Work::unbounded())
}

/// The answer to a request, its work bounded by `work` (its client's records, its budget).
pub(crate) fn answer_within(request: Request, work: &Work) -> ApiResult {
    match request {
        Request::Options => Ok(options()),
        Request::Analyze(r) => analyze(r),
        Request::Render(r) => render_layer(r),
        Request::Explain(r) => explain(r),
        Request::Readings(r) => readings_of(r),
        Request::Play(r) => play(r, work),
        Request::Replay(r, rec) => replay_record(r, &rec, work),
        Request::Export(r) => export(r, work),
        Request::Record(r, rec) => load_record(r, &rec, work),
        Request::RecordMove(r) => record_move(r, work),
    }
}

/// The request body as `T`; a body that is not JSON of that shape is a 400 naming the problem.
fn request<T: DeserializeOwned>(body: &[u8]) -> Result<T, ApiError> {
    let text = std::str::from_utf8(body)
        .map_err(|e| ApiError::bad(format!("request body: not UTF-8: {e}")))?;
    serde_json::from_str(m3go_engine::game::without_bom(text))
        .map_err(|e| ApiError::bad(format!("request body: {e}")))
}

/// Where a position from a request is said to come from in messages.
const POSITION: &str = "position";

/// A position as a request sends it: the text of a position file (YAML), read and validated as
/// `input::load_position` reads a file, or the same file as a JSON object (spec/schema/position.schema.json:
/// the page sends these and builds no YAML).
fn position(sent: &Value, place: &str) -> Result<Position, ApiError> {
    let setup: Setup = match sent {
        Value::String(text) => from_yaml(text, place)?,
        // read from the tree in place: no copy of the (history-long) object
        Value::Object(_) => {
            Setup::deserialize(sent).map_err(|e| ApiError::bad(format!("{place}: {e}")))?
        }
        _ => {
            return Err(ApiError::bad(format!(
                "`{place}`: expected a position file's text (YAML) or its JSON object"
            )))
        }
    };
    Ok(setup.to_position(place).map_err(InputError::from)?)
}

/// The position file m3go writes for a position, as a JSON object (the `setup` of the
/// answers: the page keeps it and sends it back as the `position` of its requests).
fn setup_json(p: &Position) -> Result<Value, ApiError> {
    to_json(&p.to_setup())
}

/// The YAML m3go writes for a position (as `play -o`).
fn position_yaml(p: &Position) -> Result<String, ApiError> {
    serde_yaml::to_string(&p.to_setup()).map_err(|e| ApiError::bad(e.to_string()))
}

fn view(layer: Option<&str>) -> Result<View, ApiError> {
    View::parse(layer.unwrap_or("holographic")).map_err(|e| ApiError::bad(format!("`layer`: {e}")))
}

/// The `labels` of a request: `chinese` (the default), `latin`, or `gtp` (GTP's vertices for
/// the points' names, the figure's edges and a record's moves; the engine's texts in the Latin
/// labels: [`vertices`]).
fn labels(v: Option<&str>) -> Result<Labels, ApiError> {
    match v {
        None => Ok(Labels::Chinese),
        Some(vertices::GTP) => Ok(Labels::Latin),
        Some(v) => v.parse().map_err(|_: UnknownLabels| {
            ApiError::bad(format!(
                "`labels: {}`: expected chinese, latin or gtp",
                InputError::quote(&v.chars().take(40).collect::<String>())
            ))
        }),
    }
}

/// The `shown` map of a request's labels: each point's label by its Chinese one.
fn shown_of(size: usize, v: Option<&str>) -> Result<Value, ApiError> {
    let l = labels(v)?;
    Ok(if vertices::is_gtp(v) {
        vertices::shown(size)
    } else {
        shown_labels(size, l)
    })
}

/// The figure `svg` of a board of `size` framed in the request's labels (GTP's drawn over the
/// Latin edges).
fn framed(svg: String, size: usize, v: Option<&str>) -> String {
    if vertices::is_gtp(v) {
        vertices::framed(&svg, size)
    } else {
        svg
    }
}

fn to_json<T: serde::Serialize>(v: &T) -> Result<Value, ApiError> {
    serde_json::to_value(v).map_err(|e| ApiError::bad(e.to_string()))
}

/// The presets with their rules and every option with its values.
fn options() -> Value {
    let presets: Vec<Value> = Rules::PRESETS
        .iter()
        .filter_map(|n| {
            Rules::preset(n)
                .ok()
                .map(|r| json!({ "name": n, "rules": r }))
        })
        .collect();
    let reg = crate::conform::register::option_entries();
    let options: Vec<Value> = Rules::OPTIONS
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
    json!({
        "presets": presets,
        "options": options,
        "labels": ["chinese", "latin", vertices::GTP],
        "version": env!("CARGO_PKG_VERSION"),
    })
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "testing", visibility::make(pub))]
pub(crate) struct PositionRequest {
    position: Value,
    #[serde(default)]
    layer: Option<String>,
    /// The label system of the figure's edges (`chinese`, the default, or `latin`); the
    /// points' `data-point` names stay Chinese.
    #[serde(default)]
    labels: Option<String>,
    /// Each stone's move number written on it (as `render --numbers`).
    #[serde(default)]
    numbers: bool,
    /// The name of the file the position was read from (a file opened in the page): messages
    /// name it, as the CLI's name the file.
    #[serde(default)]
    file: Option<String>,
}

impl PositionRequest {
    /// Where the position is said to come from in messages: its file's name (clipped, without
    /// control characters), else `position`.
    fn place(&self) -> String {
        match self.file.as_deref().map(str::trim) {
            Some(f) if !f.is_empty() => {
                let clean: String = f.chars().filter(|c| !c.is_control()).take(120).collect();
                format!("position file {clean}")
            }
            _ => POSITION.to_string(),
        }
    }
}

/// The figure of a request: the layer, the labels, move numbers on the stones or not.
fn figure(p: &Position, r: &PositionRequest) -> Result<String, ApiError> {
    let (v, l) = (view(r.layer.as_deref())?, labels(r.labels.as_deref())?);
    let svg = if r.numbers {
        v.svg_numbered(p, l)
    } else {
        v.svg(p, l)
    };
    Ok(framed(svg, p.board().size(), r.labels.as_deref()))
}

fn analyze(r: PositionRequest) -> ApiResult {
    let p = position(&r.position, &r.place())?;
    analysis_answer(&p, &r)
}

/// `analyze`'s answer for `p`, drawn as `r` asks (its layer, labels and numbers).
fn analysis_answer(p: &Position, r: &PositionRequest) -> ApiResult {
    analysis_with(p, r, position_yaml(p)?, setup_json(p)?)
}

/// [`analysis_answer`] with `p`'s position file already written, as YAML and as JSON (`play`
/// writes them once for its own answer and the analysis's).
fn analysis_with(p: &Position, r: &PositionRequest, yaml: String, setup: Value) -> ApiResult {
    let report = AnalysisReport::new(p);
    let l = labels(r.labels.as_deref())?;
    let (trace, clauses) = trace_json(p, l)?;
    Ok(json!({
        "analysis": to_json(&report)?,
        "text": report.to_text(),
        "svg": figure(p, r)?,
        "position": yaml,
        "setup": setup,
        "score_trace": trace,
        "score_clauses": clauses,
        "shown": shown_of(p.board().size(), r.labels.as_deref())?,
        "dead_proposal": dead_proposal(p),
    }))
}

/// The dead stones proposed for the count of a finished game ([`m3go_engine::Score::proposed_dead`]:
/// the strings the engine's analysis judges dead), each string's points in Chinese labels (as a
/// position file's `dead` list names them); null while the game goes on.
fn dead_proposal(p: &Position) -> Value {
    if !p.game_over() {
        return Value::Null;
    }
    let dead = m3go_engine::Score::proposed_dead(&p.analysis(), p.rules());
    dead.iter()
        .map(|s| {
            s.iter()
                .map(|q| q.format(Labels::Chinese))
                .collect::<Vec<_>>()
        })
        .collect::<Vec<_>>()
        .into()
}

/// The score's clause trace (m3go-score-trace/2), or null when the position cannot be counted
/// (the analysis's `score_error` says why), and the register's clauses it cites (id, seed,
/// quote, reading of each, as `explain`'s).
fn trace_json(p: &Position, l: Labels) -> Result<(Value, Vec<Value>), ApiError> {
    match m3go_engine::formats::score_trace::ScoreTrace::of(p, l) {
        Ok(t) => {
            let mut ids: Vec<&str> = vec![t.komi.clause];
            for r in &t.regions {
                for id in std::iter::once(&r.clause).chain(&r.also) {
                    if !ids.contains(id) {
                        ids.push(id);
                    }
                }
            }
            let clauses = ids
                .iter()
                .filter_map(|id| register::clause(id))
                .map(|c| clause_json(&c))
                .collect();
            Ok((to_json(&t)?, clauses))
        }
        Err(_) => Ok((Value::Null, Vec::new())),
    }
}

fn render_layer(r: PositionRequest) -> ApiResult {
    let p = position(&r.position, POSITION)?;
    Ok(json!({ "svg": figure(&p, &r)? }))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "testing", visibility::make(pub))]
pub(crate) struct TargetRequest {
    position: Value,
    #[serde(default)]
    target: Option<String>,
    /// As [`PositionRequest`]'s: the points of the answer's text written in this system.
    #[serde(default)]
    labels: Option<String>,
}

fn explain(r: TargetRequest) -> ApiResult {
    let p = position(&r.position, POSITION)?;
    let target = r
        .target
        .ok_or_else(|| ApiError::bad("request body: missing field `target`"))?;
    let trace = Trace::explain(&p, &target)?;
    let l = labels(r.labels.as_deref())?;
    let clauses: Vec<Value> = cited(&trace.to_string())
        .iter()
        .filter_map(|id| register::clause(id))
        .map(|c| clause_json(&c))
        .collect();
    Ok(json!({ "trace": trace.format(l), "clauses": clauses }))
}

fn readings_of(r: TargetRequest) -> ApiResult {
    let p = position(&r.position, POSITION)?;
    let rd = readings::readings(
        &p,
        r.target.as_deref(),
        &crate::conform::register::option_entries(),
    )?;
    let mut v = to_json(&Labeled::new(&rd, labels(r.labels.as_deref())?))?;
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
#[cfg_attr(feature = "testing", visibility::make(pub))]
pub(crate) struct PlayRequest {
    position: Value,
    moves: Vec<String>,
    /// As [`PositionRequest`]'s, for the reports' text (`shown`; `reports` stay Chinese) and the
    /// figure of `analysis`.
    #[serde(default)]
    labels: Option<String>,
    /// With `analysis: true`, the answer carries `analyze`'s answer for the position after the
    /// moves, drawn in `layer` with `numbers` as [`PositionRequest`]'s: one request a move.
    #[serde(default)]
    analysis: bool,
    #[serde(default)]
    layer: Option<String>,
    #[serde(default)]
    numbers: bool,
}

/// The moves played in order on `p`, with the errors and the bounds of `m3go play` (the same
/// code: [`replay::play_listed`]).
fn play_moves(
    p: &Position,
    moves: &[String],
    work: &Work,
) -> Result<(Position, Vec<Report>), ApiError> {
    // one move sent (as the page does) is named by its text, several by their place too
    replay::play_listed_until(p, moves, "moves", moves.len() > 1, |_| (), &|| work.stop())
        .map_err(|e| work.stopped(e.into()))
}

fn play(r: PlayRequest, work: &Work) -> ApiResult {
    let p = position(&r.position, POSITION)?;
    let (next, reports) = play_moves(&p, &r.moves, work)?;
    let shown = to_json(&Labeled::new(&reports, labels(r.labels.as_deref())?))?;
    let (yaml, setup) = (position_yaml(&next)?, setup_json(&next)?);
    let analysis = if r.analysis {
        let view = PositionRequest {
            position: Value::Null,
            layer: r.layer,
            labels: r.labels,
            numbers: r.numbers,
            file: None,
        };
        analysis_with(&next, &view, yaml.clone(), setup.clone())?
    } else {
        Value::Null
    };
    Ok(json!({
        "reports": to_json(&reports)?,
        "shown": shown,
        "position": yaml,
        "setup": setup,
        "analysis": analysis,
    }))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "testing", visibility::make(pub))]
pub(crate) struct ReplayRequest {
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

/// A record's text, SGF or game file (by its content, read by `formats::record::Record::parse_sent`). A
/// pasted game file may not name a start position file, in any spelling of `position:`: the
/// server reads no file, so no message can echo one.
/// A record sent: at most [`super::MAX_BODY`] bytes (the page unpacks a link's record to that
/// bound too), with something in it besides white space (an empty text is no record of no moves).
fn record(text: &str) -> Result<Record, ApiError> {
    if text.len() > super::MAX_BODY {
        return Err(ApiError::bad(format!(
            "record: {} bytes: expected at most {} (1 MiB)",
            text.len(),
            super::MAX_BODY
        )));
    }
    if text.trim_start_matches('\u{feff}').trim().is_empty() {
        return Err(ApiError::bad(
            "record: empty: expected the text of a game record (SGF, or an m3go game file with \
             its moves)",
        ));
    }
    Ok(m3go_engine::formats::record::Record::parse_sent(
        text, RECORD,
    )?)
}

fn replay_record(r: ReplayRequest, rec: &Record, work: &Work) -> ApiResult {
    let rules = replay_rules(rec, r.rules.as_deref(), r.mechanical)?;
    let stop = || work.stop();
    let rep = if r.mechanical {
        replay::mechanical_keeping(rec, &rules, r.to, Engine::Fast, |_| {}, &stop)
    } else {
        replay::strict_keeping(rec, &rules, r.to, Engine::Fast, |_| {}, &stop)
    }
    .map_err(|e| work.stopped(e))?;
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
#[cfg_attr(feature = "testing", visibility::make(pub))]
pub(crate) struct ExportRequest {
    format: String,
    #[serde(default)]
    position: Option<Value>,
    #[serde(default)]
    layer: Option<String>,
    /// As [`PositionRequest`]'s.
    #[serde(default)]
    labels: Option<String>,
    #[serde(default)]
    start: Option<Value>,
    #[serde(default)]
    moves: Vec<String>,
    /// The game information the SGF or game file keeps (a record's players, event, date,
    /// result, game comment…), each `key` as a game file writes it (`black`, `event`…).
    #[serde(default)]
    info: Vec<InfoEntry>,
    /// The comment of each of `moves`, in their order (null: none).
    #[serde(default)]
    comments: Vec<Option<String>>,
}

/// One entry of a record's game information, as the `record` answer lists it.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct InfoEntry {
    key: String,
    value: String,
}

fn export(r: ExportRequest, work: &Work) -> ApiResult {
    let need = |v: &Option<Value>, field: &str| {
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
            let svg = framed(v.svg(&p, l), p.board().size(), r.labels.as_deref());
            (svg, "position.svg")
        }
        "sgf" | "game" => {
            let start = position(&need(&r.start, "start")?, "start")?;
            let (_, reports) = play_moves(&start, &r.moves, work)?;
            let mut rec = Record::from_reports(&start, &reports);
            // the record's game information and comments, kept (a key no record holds is left)
            rec.info = r
                .info
                .iter()
                .filter(|e| Record::INFO_KEYS.iter().any(|(k, _)| *k == e.key))
                .map(|e| (e.key.clone(), e.value.clone()))
                .collect();
            for (m, c) in rec.moves.iter_mut().zip(&r.comments) {
                m.comment.clone_from(c);
            }
            if r.format == "sgf" {
                (rec.to_sgf(start.rules())?, "game.sgf")
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

// ---- records loaded once, stepped through without replaying -----------------------------------

/// Most moves of a record the page keeps every position of (a game of go has a few hundred).
pub(crate) const MAX_KEPT_MOVES: usize = 2000;

/// Most records one client keeps at once; its loading one more forgets its own least recently
/// used one (never another client's).
#[cfg_attr(feature = "testing", visibility::make(pub))]
pub(crate) const MAX_KEPT_PER_CLIENT: usize = 4;

/// Most records the server keeps at once, over all its clients.
pub(crate) const MAX_KEPT_RECORDS: usize = 64;

/// How long a kept record may go unused before another client's load may forget it (when the
/// server keeps [`MAX_KEPT_RECORDS`]).
pub(crate) const KEPT_IDLE: Duration = Duration::from_secs(15 * 60);

/// A record replayed once, every position of it kept: position `k` (after `k` of its moves) is
/// `setups[k]` with the earlier boards `boards[k + base - earlier[k] .. k + base]`, `boards`
/// holding the start's own earlier boards (`base` of them) and then the board of every
/// position, so that the boards are stored once, not once per position.
struct Kept {
    /// 128 random bits, hex: only the client it was answered to knows it.
    id: String,
    setups: Vec<Setup>,
    earlier: Vec<usize>,
    boards: Vec<String>,
    base: usize,
    /// The rules of the replay (every kept position's).
    rules: Rules,
    /// The record's number of each kept position's last move (0 for the start).
    numbers: Vec<u32>,
    /// Black's and white's captures at each kept position ([`captures::running`]).
    captures: Vec<[u32; 2]>,
}

impl Kept {
    fn new(id: String, start: &Position, rules: &Rules) -> Kept {
        let (setup, earlier) = start.to_setup_without_history();
        let boards = start.to_setup().history;
        Kept {
            id,
            boards: boards.into_iter().chain([setup.diagram.clone()]).collect(),
            base: earlier,
            rules: rules.clone(),
            setups: vec![setup],
            earlier: vec![earlier],
            numbers: vec![0],
            captures: vec![[0, 0]],
        }
    }

    fn keep(&mut self, p: &Position, number: u32) {
        let (setup, earlier) = p.to_setup_without_history();
        self.boards.push(setup.diagram.clone());
        self.setups.push(setup);
        self.earlier.push(earlier);
        self.numbers.push(number);
    }

    /// The position file of kept position `k`, its history trimmed to what ko needs (as
    /// [`replay::position_setup`] writes it), and the position.
    fn at(&self, k: usize) -> Result<(Position, Setup), ApiError> {
        let mut s = self.setups[k].clone();
        let end = k + self.base;
        let from = end.checked_sub(self.earlier[k]).ok_or_else(|| ApiError {
            status: 500,
            message: format!("kept position {k}: more earlier boards than the game has"),
        })?;
        s.history = self.boards[from..end].to_vec();
        replay::trim_history(&self.rules, &mut s);
        s.rules = m3go_engine::rules::RulesField::of(&self.rules);
        let p = s.to_position(RECORD).map_err(InputError::from)?;
        Ok((p, s))
    }

    /// The record's number of the move that placed each stone of kept position `k` (by point
    /// index), read from the kept boards: the position after which the point last changed to
    /// the stone it holds; `None` for the stones of the start.
    fn move_numbers(&self, k: usize) -> Vec<Option<u32>> {
        let rows = |d: &str| -> Vec<String> { d.split_whitespace().map(str::to_string).collect() };
        let boards: Vec<Vec<String>> = (0..=k).map(|j| rows(&self.boards[j + self.base])).collect();
        let now = &boards[k];
        (0..now.len())
            .map(|i| {
                if now[i] == "." {
                    return None;
                }
                let since = (0..=k)
                    .rev()
                    .take_while(|&j| boards[j][i] == now[i])
                    .last()?;
                (since > 0).then(|| self.numbers[since])
            })
            .collect()
    }
}

/// A kept record, the client that loaded it, and when it was last used (loaded or stepped).
struct Held {
    kept: Arc<Kept>,
    client: String,
    used: Instant,
}

/// The records a server keeps for its clients, the least recently used first: owned by the
/// server and handed to each request's [`Work`] (no process-global state).
#[derive(Default)]
pub(crate) struct Records(Mutex<Vec<Held>>);

/// 128 random bits from the system's generator, as 32 hex digits.
fn new_id() -> Result<String, ApiError> {
    let mut bits = [0u8; 16];
    getrandom::fill(&mut bits).map_err(|e| ApiError {
        status: 500,
        message: format!("cannot draw a record id: {e}"),
    })?;
    Ok(bits.iter().map(|b| format!("{b:02x}")).collect())
}

/// Keeps `kept` for `client`: past [`MAX_KEPT_PER_CLIENT`] the client's own least recently used
/// record is forgotten; past [`MAX_KEPT_RECORDS`] the least recently used record of any client
/// idle for [`KEPT_IDLE`]; when none has aged out, the load is refused (503) and nothing is
/// forgotten.
fn hold(records: &Records, kept: Kept, client: &str) -> Result<(), ApiError> {
    let mut list = records.0.lock().unwrap_or_else(|e| e.into_inner());
    let own = list.iter().filter(|h| h.client == client).count();
    if own >= MAX_KEPT_PER_CLIENT {
        if let Some(i) = list.iter().position(|h| h.client == client) {
            list.remove(i);
        }
    } else if list.len() >= MAX_KEPT_RECORDS {
        match list.iter().position(|h| h.used.elapsed() >= KEPT_IDLE) {
            Some(i) => {
                list.remove(i);
            }
            None => {
                return Err(ApiError {
                    status: 503,
                    message: format!(
                        "the server keeps {MAX_KEPT_RECORDS} records of its clients, none unused \
                         for {} min: try again later",
                        KEPT_IDLE.as_secs() / 60
                    ),
                })
            }
        }
    }
    list.push(Held {
        kept: Arc::new(kept),
        client: client.to_string(),
        used: Instant::now(),
    });
    Ok(())
}

/// The kept record `id` (marked used now: it moves to the end of the list).
fn kept(records: &Records, id: &str) -> Result<Arc<Kept>, ApiError> {
    let mut list = records.0.lock().unwrap_or_else(|e| e.into_inner());
    let gone = || ApiError {
        status: 404,
        message: format!(
            "record `{}` is not loaded (any more): load it again",
            m3go_engine::InputError::quote(&id.chars().take(40).collect::<String>())
        ),
    };
    let i = list.iter().position(|h| h.kept.id == id).ok_or_else(gone)?;
    let mut held = list.remove(i);
    held.used = Instant::now();
    let k = Arc::clone(&held.kept);
    list.push(held);
    Ok(k)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "testing", visibility::make(pub))]
pub(crate) struct RecordRequest {
    record: String,
    #[serde(default)]
    mechanical: bool,
    #[serde(default)]
    rules: Option<String>,
    #[serde(default)]
    labels: Option<String>,
}

/// The rules a record is replayed under: `rules` when sent (a preset name or a mapping, as a
/// position file's `rules:`), else m3go-2020 for the mechanical replay (003 replays a go record
/// under m3go's rules), else the record's own.
fn replay_rules(rec: &Record, rules: Option<&str>, mechanical: bool) -> Result<Rules, ApiError> {
    Ok(match rules {
        Some(text) => {
            let f: RulesField = from_yaml(text, "rules")?;
            f.resolve().map_err(|e| InputError::from(e).key("rules"))?
        }
        None if mechanical => Rules::m3go_2020(),
        None => rec.resolve_rules(None)?,
    })
}

/// `record`: the record replayed once, with its log; every position kept under the answer's
/// `id` for [`record_move`].
fn load_record(r: RecordRequest, rec: &Record, work: &Work) -> ApiResult {
    if rec.moves.len() > MAX_KEPT_MOVES {
        return Err(ApiError::bad(format!(
            "record: {} moves; the page steps through records of at most {MAX_KEPT_MOVES}",
            rec.moves.len()
        )));
    }
    let rules = replay_rules(rec, r.rules.as_deref(), r.mechanical)?;
    let l = labels(r.labels.as_deref())?;
    let gtp = vertices::is_gtp(r.labels.as_deref());
    let id = new_id()?;
    let start = rec.start_position(&rules)?;
    let size = start.board().size();
    let mut kept = Kept::new(id.clone(), &start, &rules);
    let mut numbers = rec.moves.iter().map(|m| m.number);
    let keep = |p: &Position| kept.keep(p, numbers.next().unwrap_or(0));
    let stop = || work.stop();
    let rep = if r.mechanical {
        replay::mechanical_keeping(rec, &rules, None, Engine::Fast, keep, &stop)
    } else {
        replay::strict_keeping(rec, &rules, None, Engine::Fast, keep, &stop)
    }
    .map_err(|e| work.stopped(e))?;
    // one entry per move of the record, in its order (as the positions kept above)
    let moves: Vec<Value> = rep
        .entries
        .iter()
        .zip(&rec.moves)
        .map(|(e, m)| {
            json!({
                "number": e.number,
                "notation": if gtp {
                    vertices::notation(&e.notation, size)
                } else {
                    e.notation.format(l)
                },
                "chinese": e.notation.to_string(),
                "replaced": e.replaced(),
                "line": e.line_zh_in(l),
                "comment": m.comment,
            })
        })
        .collect();
    kept.captures = captures::running(&rep.reports);
    hold(&work.records, kept, &work.client)?;
    Ok(json!({
        "id": id,
        "rules": rules.preset,
        "rules_used": to_json(&rules)?,
        "mechanical": r.mechanical,
        "log": replay::log_text_in(&rep, false, l),
        "moves": moves,
        "info": record_info(rec, r.mechanical),
        "clauses": record_clauses(rec),
        "first": rec.moves.first().map(|m| m.number),
        "last": rep.entries.last().map(|e| e.number),
        "replaced": rep.replaced_by_reason(),
        "variations": sgf_variations(&r.record),
        "dropped": rec.dropped.notes(),
    }))
}

/// A record's game information (players, result, event, round, date, the game comment…) in its
/// order: each entry's key (as a game file writes it), SGF property and value; `go_only` marks,
/// in a mechanical replay of a Go record (one that names no m3go rules), its own result, rules,
/// komi and handicap, which do not hold for the three-colour game replayed.
fn record_info(rec: &Record, mechanical: bool) -> Vec<Value> {
    let go = mechanical && rec.rules.is_none();
    rec.info
        .iter()
        .map(|(k, v)| {
            let property = Record::INFO_KEYS
                .iter()
                .find(|(key, _)| key == k)
                .map(|(_, p)| *p);
            json!({
                "key": k,
                "property": property,
                "value": v,
                "go_only": go && Record::GO_ONLY_INFO.contains(&k.as_str()),
            })
        })
        .collect()
}

/// The register's clauses cited by a record's comments and game information (a referee's
/// forfeit names the clause that refused the move): id, seed, quote, reading, as `explain`'s.
fn record_clauses(rec: &Record) -> Vec<Value> {
    let texts = rec
        .info
        .iter()
        .map(|(_, v)| v.as_str())
        .chain(rec.moves.iter().filter_map(|m| m.comment.as_deref()));
    let mut ids: Vec<String> = Vec::new();
    for t in texts {
        for id in cited(t) {
            if !ids.contains(&id) {
                ids.push(id);
            }
        }
    }
    ids.iter()
        .filter_map(|id| register::clause(id))
        .map(|c| clause_json(&c))
        .collect()
}

/// A register clause as the API answers it.
fn clause_json(c: &register::Clause) -> Value {
    json!({
        "id": c.id,
        "seed": c.seed,
        "quote": c.quote,
        "reading": c.reading,
        "function": c.function,
    })
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "testing", visibility::make(pub))]
pub(crate) struct RecordMoveRequest {
    /// The `id` `record` answered (32 hex digits).
    id: String,
    /// The record's move number to show the position after (0: the start).
    to: u32,
    #[serde(default)]
    layer: Option<String>,
    #[serde(default)]
    labels: Option<String>,
    #[serde(default)]
    numbers: bool,
    /// `false`: the figure only (no analysis), for drawing the board at once.
    #[serde(default = "yes")]
    analysis: bool,
}

fn yes() -> bool {
    true
}

/// `record-move`: the kept position after move `to` of a loaded record, analysed as `analyze`
/// answers (nothing is replayed).
fn record_move(r: RecordMoveRequest, work: &Work) -> ApiResult {
    let k = kept(&work.records, &r.id)?;
    let at = k.numbers.iter().rposition(|&n| n <= r.to).unwrap_or(0);
    let (p, setup) = k.at(at)?;
    let yaml = serde_yaml::to_string(&setup).map_err(|e| ApiError::bad(e.to_string()))?;
    let (v, l) = (view(r.layer.as_deref())?, labels(r.labels.as_deref())?);
    let svg = if r.numbers {
        v.svg_with_numbers(&p, l, &k.move_numbers(at))
    } else {
        v.svg(&p, l)
    };
    let size = p.board().size();
    let mut answer = json!({
        "svg": framed(svg, size, r.labels.as_deref()),
        "shown": shown_of(size, r.labels.as_deref())?,
        "position": yaml,
        "setup": to_json(&setup)?,
        "move": p.move_number(),
        "at": k.numbers[at],
        "captures": captures::to_json(k.captures.get(at).copied().unwrap_or_default()),
    });
    if r.analysis {
        answer["analysis"] = to_json(&AnalysisReport::new(&p))?;
        let (trace, clauses) = trace_json(&p, l)?;
        answer["score_trace"] = trace;
        answer["score_clauses"] = Value::Array(clauses);
        answer["dead_proposal"] = dead_proposal(&p);
    }
    Ok(answer)
}

/// How many variations an SGF record has beside its main line (the replay follows the main
/// line only; the page says so rather than dropping them without a word). 0 for a game file.
fn sgf_variations(text: &str) -> usize {
    if !m3go_engine::formats::record::Record::looks_like_sgf(text) {
        return 0;
    }
    let Ok(trees) = sgf_parse::go::parse(text) else {
        return 0;
    };
    let mut extra = 0;
    let mut stack: Vec<&sgf_parse::SgfNode<sgf_parse::go::Prop>> = trees.iter().take(1).collect();
    while let Some(n) = stack.pop() {
        let children: Vec<_> = n.children().collect();
        extra += children.len().saturating_sub(1);
        stack.extend(children);
    }
    extra
}

/// Every point's label in `labels`, by its Chinese label (the page shows names in the labels
/// chosen without rewriting any text); empty for the Chinese labels.
fn shown_labels(size: usize, l: Labels) -> Value {
    let mut m = serde_json::Map::new();
    if l != Labels::Chinese {
        let h = m3go_engine::Point::half(size);
        for y in -h..=h {
            for x in -h..=h {
                let q = m3go_engine::Point::new(x, y);
                m.insert(q.format(Labels::Chinese), Value::String(q.format(l)));
            }
        }
    }
    Value::Object(m)
}
