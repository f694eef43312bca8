//! m3go's own answers to protocol requests (`m3go protocol`, the built-in oracle of
//! `m3go conform` and `m3go diff`): a request line read, checked against the capabilities,
//! played and analysed.

use crate::conform::capabilities::{Capabilities, SkippedCheck};
use crate::conform::case::ReplayMode;
use crate::conform::protocol::{
    code, error_answer, spoken, CapabilitiesAnswer, Implementation, Request, PROTOCOL, PROTOCOLS,
};
use crate::tools::replay::WrittenFailure;
use m3go_engine::formats::report::{AnalysisReport, ReportScope};
use m3go_engine::{Analysis, Engine, Move, Point, Position, Report, Setup};
use serde_json::{json, Value};

/// The answer to one request line (`m3go protocol`): a `capabilities` request, or a case
/// request answered by [`answer`] when its rules are inside `caps` and with
/// `{"id", "unsupported": true, "reason"}` when they are not. A line that is not a request gets
/// a `bad-request` error answer, with the id when the line has one. The request's position is
/// loaded on `engine` (`--reference`).
pub fn answer_line(line: &str, caps: &Capabilities, engine: Engine) -> Value {
    match serde_json::from_str::<Value>(line) {
        Ok(v) => answer_value(&v, caps, engine),
        Err(e) => error_answer(
            Value::Null,
            code::BAD_REQUEST,
            None,
            format!("the request is not JSON: {e}"),
        ),
    }
}

/// [`answer_line`] of a request already read as JSON.
pub fn answer_value(v: &Value, caps: &Capabilities, engine: Engine) -> Value {
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
            // a request in a version m3go does not speak is refused, not answered in another;
            // the runner's `protocols` is not looked at: m3go says which versions it speaks
            let protocol = obj.get("protocol");
            let Some(version) = protocol.and_then(Value::as_str).and_then(spoken) else {
                return unsupported_protocol(id, protocol);
            };
            return capabilities_answer(id, caps, version);
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
    // a case request in a version m3go does not speak is that, whatever else it lacks
    if let Some(p) = obj
        .get("protocol")
        .filter(|p| p.as_str().and_then(spoken).is_none())
    {
        return unsupported_protocol(id, Some(p));
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
    match screen(&req, caps) {
        Err(unsupported) => unsupported,
        Ok(declined) => answer_declining(&req, engine, &declined),
    }
}

/// The `unsupported-protocol` error answer to a request written in `protocol` (absent: `None`).
fn unsupported_protocol(id: Value, protocol: Option<&Value>) -> Value {
    error_answer(
        id,
        code::UNSUPPORTED_PROTOCOL,
        Some("protocol".into()),
        format!(
            "protocol {} is not supported: expected one of {}",
            protocol.map_or("(none)".to_string(), Value::to_string),
            PROTOCOLS.join(", ")
        ),
    )
}

/// The answer to one request line as the text of its JSON line (what `m3go protocol` writes):
/// the same answer as [`answer_line`]. A case request is read straight into [`Request`] and,
/// when nothing of it is declined, its answer written straight from the typed `CaseAnswer`:
/// the JSON trees of the request and of the answer (a third of the time of a 9×9 answer) are
/// built only for the other lines (capabilities, errors, declined checks).
pub fn answer_line_text(line: &str, caps: &Capabilities, engine: Engine) -> String {
    // a line that does not read as a request (an `action`, a wrong field) takes the JSON
    // value's way, which tells which error it is
    let Ok(req) = serde_json::from_str::<Request>(line) else {
        return echoing(&answer_line(line, caps, engine), line);
    };
    match screen(&req, caps) {
        Err(unsupported) => echoing(&unsupported, line),
        Ok(declined) if declined.is_empty() => match case_answer(&req, engine, AnswerParts::All) {
            // as `answer` makes it a value: a typed answer always serialises
            Ok(a) if !inexact(&req.id.to_value()) => {
                serde_json::to_string(&a).unwrap_or_else(|_| Value::Null.to_string())
            }
            Ok(a) => echoing(&serde_json::to_value(&a).unwrap_or(Value::Null), line),
            Err(e) => echoing(&e, line),
        },
        Ok(declined) => echoing(&answer_declining(&req, engine, &declined), line),
    }
}

/// Whether `id` is a number that a JSON value of serde_json does not hold as written: beyond
/// 64 bits, or with a fraction or exponent (read as the nearest `f64`).
fn inexact(id: &Value) -> bool {
    id.as_number().is_some_and(serde_json::Number::is_f64)
}

/// The text of `ans`, an answer to `line`, its `id` written as `line` wrote it when the value
/// read from it is not that number (an id of 2^70 is echoed `1180591620717411303424`, not
/// `1.1805916207174113e21`); `m3go protocol` and `m3go player` print their answers through here.
pub(crate) fn echoing(ans: &Value, line: &str) -> String {
    #[derive(serde::Deserialize)]
    struct RawId<'a> {
        #[serde(borrow)]
        id: Option<&'a serde_json::value::RawValue>,
    }
    struct Echo<'a> {
        ans: &'a serde_json::Map<String, Value>,
        id: &'a serde_json::value::RawValue,
    }
    impl serde::Serialize for Echo<'_> {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            use serde::ser::SerializeMap;
            let mut m = s.serialize_map(Some(self.ans.len()))?;
            for (k, v) in self.ans {
                if k == "id" {
                    m.serialize_entry(k, self.id)?;
                } else {
                    m.serialize_entry(k, v)?;
                }
            }
            m.end()
        }
    }
    if let (Some(obj), true) = (ans.as_object(), ans.get("id").is_some_and(inexact)) {
        if let Ok(RawId { id: Some(id) }) = serde_json::from_str::<RawId>(line) {
            // the request's id is that number (the answer echoes it), written as JSON writes it
            if serde_json::from_str::<serde_json::Number>(id.get()).is_ok() {
                if let Ok(t) = serde_json::to_string(&Echo { ans: obj, id }) {
                    return t;
                }
            }
        }
    }
    text(ans)
}

/// A JSON answer as the text of one line.
pub fn text(v: &Value) -> String {
    serde_json::to_string(v).unwrap_or_else(|_| v.to_string())
}

/// A case request's rules against `caps`: the `unsupported` answer (`Err`) when they are
/// outside them, otherwise the checks declined under them (none for m3go's own capabilities).
fn screen(req: &Request, caps: &Capabilities) -> Result<Vec<SkippedCheck>, Value> {
    let Ok(rules) = req.position.rules.resolve() else {
        // rules that do not resolve are the answer's bad-position error
        return Ok(Vec::new());
    };
    if let Some(why) = caps.refuses(&rules, req.replay.as_ref().map(|r| r.mode)) {
        return Err(
            json!({"protocol": req.protocol, "id": req.id, "unsupported": true, "reason": why}),
        );
    }
    Ok(caps.declined(&rules))
}

/// [`answer`] with the fields of the `declined` checks left out ([`decline`]).
fn answer_declining(req: &Request, engine: Engine, declined: &[SkippedCheck]) -> Value {
    let mut ans = answer(req, engine);
    if ans.get("error").is_none() && !declined.is_empty() {
        decline(&mut ans, req, declined);
    }
    ans
}

/// The answer to a `capabilities` request in `version`: the protocol versions m3go speaks, its
/// name and version, and `caps`.
pub(crate) fn capabilities_answer(id: Value, caps: &Capabilities, version: &str) -> Value {
    let ans = CapabilitiesAnswer {
        protocol: Some(version.to_string()),
        id,
        protocols: PROTOCOLS.iter().map(|p| p.to_string()).collect(),
        implementation: Implementation {
            name: "m3go".into(),
            version: env!("CARGO_PKG_VERSION").into(),
        },
        capabilities: caps.clone(),
    };
    serde_json::to_value(ans).unwrap_or(Value::Null)
}

/// The fields of an answer each check reads (spec/README.md, the table of `expect` keys), as
/// paths from the answer's root: a check declined leaves them out (null), so that the answer
/// says nothing it was not asked.
const CHECK_FIELDS: [(&str, &[&str]); 16] = [
    ("private_eyes", &["analysis", "strings"]),
    ("attributes", &["analysis", "flowers"]),
    ("other_flowers", &["analysis", "flowers"]),
    ("forbidden", &["analysis", "forbidden"]),
    ("playable", &["analysis", "forbidden"]),
    ("legal", &["probes"]),
    ("illegal", &["probes"]),
    ("events", &["reports"]),
    ("score", &["analysis", "score"]),
    ("to_move", &["analysis", "to_move"]),
    ("common_eyes", &["extras", "common_eyes"]),
    ("flystone", &["extras", "flystone"]),
    ("messages", &["probes"]),
    ("notations", &["reports"]),
    ("views", &["analysis", "boards"]),
    ("m2016", &["analysis", "m2016"]),
];

/// A program that lacks the readings `declined` (`m3go protocol --decline`): the fields of the
/// declined checks are null, and under `m3go-conform/2` the answer says which checks it
/// declines (those of the request's `checks`, or all of them without `checks`) and why.
fn decline(ans: &mut Value, req: &Request, declined: &[SkippedCheck]) {
    let mut said = serde_json::Map::new();
    for d in declined {
        let field = CHECK_FIELDS.iter().find(|(k, _)| *k == d.check);
        if let Some((last, parents)) = field.and_then(|(_, path)| path.split_last()) {
            let mut v = &mut *ans;
            for p in parents {
                v = &mut v[*p];
            }
            if v.is_object() {
                v[*last] = Value::Null;
            }
        }
        let asked = req.checks.as_ref().is_none_or(|c| c.contains(&d.check));
        if asked {
            said.insert(d.check.clone(), Value::String(d.reason.clone()));
        }
    }
    if req.protocol == PROTOCOL && !said.is_empty() {
        ans["declined"] = Value::Object(said);
    }
}

/// m3go's own answer to a case request (what `m3go protocol` prints for each line), the
/// request's position loaded on `engine`: `case_answer` as JSON, or its error answer.
pub fn answer(req: &Request, engine: Engine) -> Value {
    match case_answer(req, engine, AnswerParts::All) {
        Ok(a) => serde_json::to_value(a).unwrap_or(Value::Null),
        Err(e) => e,
    }
}

/// The fields of an answer to a case request (answer-m3go.schema.json), typed: written straight to
/// the protocol's line ([`answer_line_text`]) or made a JSON value ([`answer`]).
#[derive(Debug, serde::Serialize)]
#[cfg_attr(feature = "testing", visibility::make(pub))]
pub(crate) struct CaseAnswer {
    pub protocol: &'static str,
    pub id: crate::conform::protocol::Id,
    pub analysis: AnalysisReport,
    pub reports: Vec<Report>,
    pub probes: Vec<Value>,
    /// The numbered diagram of the moves; absent when only [`AnswerParts::Compared`] were asked.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub numbered: Option<Vec<String>>,
    /// [`extras`]; absent when only [`AnswerParts::Compared`] were asked.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub extras: Option<Extras>,
}

/// Which fields of a [`CaseAnswer`] are worked out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "testing", visibility::make(pub))]
pub(crate) enum AnswerParts {
    /// Every field: the protocol's answer.
    All,
    /// Only those `m3go diff` compares ([`crate::conform::diff::compare`]): no numbered
    /// diagram and no extras, and the analysis only its verdicts ([`ReportScope::Verdicts`]).
    Compared,
}

/// [`answer`] typed: the replayed moves and the probes are advanced without a report
/// ([`Position::play`]), the legal moves listed on it; the moves, whose reports are part of
/// the answer, are played with [`Position::play`]. `Err` is the error answer.
#[cfg_attr(feature = "testing", visibility::make(pub))]
pub(crate) fn case_answer(
    req: &Request,
    engine: Engine,
    parts: AnswerParts,
) -> Result<CaseAnswer, Value> {
    let version = request_version(req)?;
    let pos: Position = match req.position.to_position("position") {
        Ok(p) => p.with_engine(engine),
        Err(e) => return fail(req, code::BAD_POSITION, "position".into(), e.to_string()),
    };
    let pos = replay(req, pos)?;
    let (pos, reports, settled) = play_moves(req, pos)?;
    let probes = probe_answers(req, &pos);
    // one analysis of the board for the report and the extras: the last move's, when it
    // placed a stone (the probes only advance copies of `pos`)
    let a = settled.unwrap_or_else(|| pos.analysis());
    let all = parts == AnswerParts::All;
    Ok(CaseAnswer {
        protocol: version,
        id: req.id.clone(),
        analysis: AnalysisReport::of_scope(
            &pos,
            &a,
            if all {
                ReportScope::Whole
            } else {
                ReportScope::Verdicts
            },
        ),
        numbered: all.then(|| {
            m3go_engine::formats::report::AnalysisReport::numbered_diagram(pos.board(), &reports)
                .lines()
                .map(str::to_string)
                .collect()
        }),
        extras: all.then(|| extras(&pos, &a)),
        reports,
        probes,
    })
}

/// The error answer to `req` with `code`, naming the request's `field`.
fn fail<T>(req: &Request, code: &str, field: String, msg: String) -> Result<T, Value> {
    Err(error_answer(json!(req.id), code, Some(field), msg))
}

/// The protocol version a request speaks, when m3go speaks it and every check it names is one.
fn request_version(req: &Request) -> Result<&'static str, Value> {
    let Some(version) = spoken(&req.protocol) else {
        return Err(unsupported_protocol(
            json!(req.id),
            Some(&json!(req.protocol)),
        ));
    };
    if let Some(x) = req
        .checks
        .iter()
        .flatten()
        .find(|x| !crate::conform::check::is_check(x))
    {
        return Err(error_answer(
            json!(req.id),
            code::BAD_REQUEST,
            None,
            format!(
                "checks: `{x}` is not a check: expected one of {}",
                crate::conform::check::all_checks()
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        ));
    }
    Ok(version)
}

/// The position after the request's `replay` moves (as many as a record holds), each advanced
/// in the replay's mode.
fn replay(req: &Request, mut pos: Position) -> Result<Position, Value> {
    let Some(rp) = &req.replay else {
        return Ok(pos);
    };
    let limit = m3go_engine::Notation::max_moves(pos.board().size());
    if rp.moves.len() > limit {
        return fail(
            req,
            code::TOO_LARGE,
            "replay.moves".into(),
            format!(
                "replay.moves has {} moves: expected at most {limit} on this board (the limit of a record)",
                rp.moves.len()
            ),
        );
    }
    for (k, m) in rp.moves.iter().enumerate() {
        if let Err(e) = m3go_engine::Notation::check_move_number(pos.move_number()) {
            return fail(
                req,
                code::TOO_LARGE,
                format!("replay.moves[{k}]"),
                format!("replay.moves[{k}] `{m}`: {e}"),
            );
        }
        let action = match m3go_engine::Action::parse(m, pos.board().size()) {
            Ok(a) => a,
            Err(e) => {
                return fail(
                    req,
                    code::BAD_MOVE,
                    format!("replay.moves[{k}]"),
                    format!("replay.moves[{k}] `{m}`: {e}"),
                )
            }
        };
        pos = match req_replay_step(&pos, action, rp.mode) {
            Ok(next) => next,
            Err(e) => {
                return fail(
                    req,
                    code::ILLEGAL_MOVE,
                    format!("replay.moves[{k}]"),
                    format!("replay.moves[{k}] `{m}` is illegal: {e}"),
                )
            }
        };
    }
    Ok(pos)
}

/// The request's moves played, with their reports and the analysis of the board the last move
/// left (none before a move or after a pass); the moves and probes at most a record's length.
fn play_moves(
    req: &Request,
    mut pos: Position,
) -> Result<(Position, Vec<Report>, Option<Analysis>), Value> {
    let limit = m3go_engine::Notation::max_moves(pos.board().size());
    for (field, n) in [("moves", req.moves.len()), ("probes", req.probes.len())] {
        if n > limit {
            return fail(
                req,
                code::TOO_LARGE,
                field.into(),
                format!(
                    "{field} has {n} entries: expected at most {limit} on this board (the limit of a record)"
                ),
            );
        }
    }
    let mut reports: Vec<Report> = Vec::new();
    let mut settled = None;
    for (k, m) in req.moves.iter().enumerate() {
        if let Err(e) = m3go_engine::Notation::check_move_number(pos.move_number()) {
            return fail(
                req,
                code::TOO_LARGE,
                format!("moves[{k}]"),
                format!("moves[{k}] `{m}`: {e}"),
            );
        }
        let w = match m3go_engine::game::Written::parse_in(m, pos.rules(), pos.board().size()) {
            Ok(w) => w,
            Err(e) => {
                return fail(
                    req,
                    code::BAD_MOVE,
                    format!("moves[{k}]"),
                    format!("moves[{k}]: {e}"),
                )
            }
        };
        let played = crate::tools::replay::play_written(&pos, &w, |mv| {
            pos.play_analysed(mv).map(|(next, r, a)| (next, (r, a)))
        });
        match played {
            Ok((next, (r, a))) => {
                pos = next;
                reports.push(r);
                settled = a;
            }
            Err(WrittenFailure::Refused(e)) => {
                return fail(
                    req,
                    code::ILLEGAL_MOVE,
                    format!("moves[{k}]"),
                    format!("moves[{k}] `{m}` is illegal: {e}"),
                )
            }
            Err(WrittenFailure::NotRefused) => {
                return fail(
                    req,
                    code::BAD_MOVE,
                    format!("moves[{k}]"),
                    format!("moves[{k}] `{m}`: {}", crate::tools::replay::NOT_REFUSED),
                )
            }
        }
    }
    Ok((pos, reports, settled))
}

/// Each probe's verdict on the position: legal, or the reason it is not.
fn probe_answers(req: &Request, pos: &Position) -> Vec<Value> {
    req.probes
        .iter()
        .map(|m| match Move::parse_in(m, pos.rules(), pos.board().size()) {
            Err(e) => json!({"move": m, "legal": false, "reason": unread_reason(&e), "message": e.to_string()}),
            Ok(mv) => match pos.play(mv) {
                Ok(_) => json!({"move": m, "legal": true}),
                Err(e) => json!({"move": m, "legal": false, "reason": e.reason, "clause": e.clause, "message": e.message}),
            },
        })
        .collect()
}

/// The reason of a probe that does not read as a move of this board: `off-board` when it names
/// a point off the board (`黑1.九九` on 3×3, `(5,0)`), `malformed` for anything else.
fn unread_reason(e: &m3go_engine::game::NotationError) -> &'static str {
    e.problem.reason()
}

/// One replayed move of a request: mechanical (a refused move becomes a pass, M20-REPLAY) or
/// strict.
fn req_replay_step(
    pos: &Position,
    action: m3go_engine::Action,
    mode: ReplayMode,
) -> Result<Position, m3go_engine::Illegal> {
    match mode {
        ReplayMode::Mechanical => {
            crate::tools::replay::mechanical_advance(pos, action).map(|(p, _)| p)
        }
        ReplayMode::Strict => pos.play(m3go_engine::Move {
            action,
            number: None,
            turn: None,
        }),
    }
}

/// What the analysis report does not carry: the team round and seat of the next move, the
/// Flystone state, and the 2016 common eyes of every black/white upper string (with whether
/// each is a true eye); `a` is the analysis of the position's board. The fields are declared in
/// the order of their names, the order of a JSON object m3go writes.
#[derive(Clone, Debug, serde::Serialize)]
#[cfg_attr(feature = "testing", visibility::make(pub))]
pub(crate) struct Extras {
    pub common_eyes: Vec<CommonEyesOf>,
    pub flystone: Option<FlystoneExtras>,
    pub team: Option<TeamExtras>,
}

/// The common eyes of one black or white upper string ([`Extras`]).
#[derive(Clone, Debug, serde::Serialize)]
#[cfg_attr(feature = "testing", visibility::make(pub))]
pub(crate) struct CommonEyesOf {
    pub common_eyes: Vec<CommonEye>,
    pub points: Vec<Point>,
    pub string: m3go_engine::board::StringName,
}

/// One common eye: its points, and whether it is a true eye (M16-TRUE-EYE).
#[derive(Clone, Debug, serde::Serialize)]
#[cfg_attr(feature = "testing", visibility::make(pub))]
pub(crate) struct CommonEye {
    pub points: Vec<Point>,
    pub true_eye: bool,
}

/// The Flystone state ([`Extras`]): the drawn timings, the flystones thrown, and the chosen
/// flystones each player has left.
#[derive(Clone, Debug, serde::Serialize)]
#[cfg_attr(feature = "testing", visibility::make(pub))]
pub(crate) struct FlystoneExtras {
    pub chosen_left: ByPlayer<u32>,
    pub random: m3go_engine::game::Sides,
    pub thrown: Vec<u32>,
}

/// A value for each player.
#[derive(Clone, Debug, serde::Serialize)]
#[cfg_attr(feature = "testing", visibility::make(pub))]
pub(crate) struct ByPlayer<T> {
    pub black: T,
    pub white: T,
}

/// The team round and seat of the next move ([`Extras`]).
#[derive(Clone, Debug, serde::Serialize)]
#[cfg_attr(feature = "testing", visibility::make(pub))]
pub(crate) struct TeamExtras {
    pub round: u32,
    pub seat: String,
}

/// The [`Extras`] of `pos`, `a` the analysis of its board.
pub(crate) fn extras(pos: &Position, a: &m3go_engine::Analysis) -> Extras {
    use m3go_engine::judge::common_eyes_2016;
    use m3go_engine::Colour;
    let team = (pos.rules().schedule == m3go_engine::rules::Schedule::Team2016).then(|| {
        let t =
            m3go_engine::game::TeamTurn::of_move(pos.move_number(), pos.rules().team_grey_start);
        TeamExtras {
            round: t.round,
            seat: t.seat.letter().to_string(),
        }
    });
    let flystone = pos.flystone_state().map(|s| {
        let left = |c| s.chosen_flystones_left(pos.rules(), c, pos.move_number());
        FlystoneExtras {
            chosen_left: ByPlayer {
                black: left(Colour::Black),
                white: left(Colour::White),
            },
            random: s.random.clone(),
            thrown: s.thrown.clone(),
        }
    });
    let b = &pos.board();
    let points = |v: &[usize]| v.iter().map(|&i| b.point(i)).collect::<Vec<_>>();
    let common = common_eyes_2016(&a.upper, &a.upper_strings, pos.rules().false_eye_2016);
    let common_eyes = a
        .upper_strings
        .groups
        .iter()
        .enumerate()
        .filter(|(_, s)| s.colour.is_some())
        .map(|(u, s)| CommonEyesOf {
            common_eyes: common
                .iter()
                .filter(|e| e.owners.contains(&u))
                .map(|e| CommonEye {
                    true_eye: e.true_eye,
                    points: points(&e.empty),
                })
                .collect(),
            points: points(&s.points),
            string: b.string_name(&s.points),
        })
        .collect();
    Extras {
        common_eyes,
        flystone,
        team,
    }
}
