//! Mechanical replay (机械式排局, 003): an ordinary Go record replayed with the three-colour
//! schedule, every move that the rules forbid (or that cannot be made) replaced by a pass, and
//! a log of what every move did, written like 003's narrative ("黑301.DO，提吃白棋串CO*和EO，并为黑棋串
//! DA*做出私眼CO*，中性花棋串EA/CA皆变为黑性花棋串").

use crate::board::coord::{Labels, Point, MAX_SIZE};
use crate::board::grid::{Board, Colour, Stone};
use crate::board::layers::Attribute;
use crate::board::strings::flood;
use crate::formats::record::Record;
use crate::formats::report::{relabel, relabel_move, relabel_text};
use crate::game::advance::Engine;
use crate::game::notation::{check_playable, max_moves, parse_move_in};
use crate::game::play::{Action, AttributeChange, Illegal, Move, Position, Refusal, Report};
use crate::game::setup::{InputError, Setup};
use crate::judge::analysis::Analysis;
use crate::rules::Rules;
use serde::Serialize;
use std::collections::BTreeMap;

/// Moves given as a list (`m3go play`'s arguments, a server request's `moves`) played in order
/// from `start`, each reported to `each` as it is played, bounded as a record is: at most
/// [`max_moves`] moves (else an error naming `key`, the list), and no move numbered past the
/// last move number m3go plays ([`check_playable`]). A move that cannot be read or played is an
/// error with its text and, when `numbered`, its number in the list (the page sends one move at
/// a time, named by its text alone: its refusal names its number in the game).
pub fn play_listed(
    start: &Position,
    moves: &[String],
    key: &str,
    numbered: bool,
    mut each: impl FnMut(&Report),
) -> Result<(Position, Vec<Report>), InputError> {
    let limit = max_moves(start.board().size());
    if moves.len() > limit {
        return Err(InputError::new(format!(
            "{} moves given: expected at most {limit} on a {1}x{1} board (the limit of a record)",
            moves.len(),
            start.board().size()
        ))
        .key(key));
    }
    let mut p = start.clone();
    let mut reports = Vec::new();
    let placed = |e: InputError, k: usize, m: &str| {
        if numbered {
            e.move_number(k as u32 + 1).text(m)
        } else {
            e.text(m)
        }
    };
    for (k, m) in moves.iter().enumerate() {
        check_playable(p.move_number()).map_err(|e| placed(InputError::new(e), k, m))?;
        let mv = parse_move_in(m, p.rules(), p.board().size())
            .map_err(|e| placed(InputError::new(e.to_string()), k, m))?;
        let (next, r) = p
            .play(&mv)
            .map_err(|e| placed(InputError::illegal_move(e.to_string()), k, m))?;
        each(&r);
        reports.push(r);
        p = next;
    }
    Ok((p, reports))
}

/// A string named in the log: its colour word and its name (`CO*`, or `EO` for one stone).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LoggedString {
    /// black | white | flower
    pub kind: &'static str,
    /// For a flower string: its attribute when it was removed or changed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub attribute: Option<Attribute>,
    pub name: String,
    pub points: Vec<String>,
}

/// A string that gained private eyes, with the eyes (each named like a string).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct EyeEvent {
    pub string: LoggedString,
    pub eyes: Vec<String>,
}

/// What became of the record's move.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case", tag = "status")]
pub enum Status {
    /// Played as recorded.
    Played,
    /// The record itself passes here.
    RecordPass,
    /// Forbidden or impossible under the rules: replaced by a pass.
    Replaced {
        reason: Refusal,
        clause: &'static str,
        message: String,
    },
}

impl Status {
    /// The status of a record's move `action` after a step that refused it (`Some`: it was
    /// replaced by a pass) or played it.
    fn of_step(refusal: Option<Illegal>, action: Action) -> Status {
        match refusal {
            Some(Illegal {
                reason,
                clause,
                message,
            }) => Status::Replaced {
                reason,
                clause,
                message,
            },
            None if action == Action::Pass => Status::RecordPass,
            None => Status::Played,
        }
    }
}

/// One line of the log.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Entry {
    pub number: u32,
    /// The notation of what was played (`黑301.DO`, `华19.pass`).
    pub notation: String,
    /// The record's move at this number (a point, or `pass`).
    pub source: String,
    #[serde(flatten)]
    pub status: Status,
    pub captured: Vec<LoggedString>,
    pub eyes_made: Vec<EyeEvent>,
    pub eyes_lost: Vec<LoggedString>,
    pub attribute_changes: Vec<Change>,
}

/// A flower string whose attribute changed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Change {
    pub name: String,
    pub points: Vec<String>,
    pub from: Attribute,
    pub to: Attribute,
}

/// The result of a replay: the final position and the log.
#[derive(Clone, Debug)]
pub struct Replay {
    pub start: Position,
    pub position: Position,
    pub entries: Vec<Entry>,
    /// The reports of the moves actually made (replaced moves as passes), for writing a record.
    pub reports: Vec<Report>,
    /// Whether this was a mechanical replay (else a strict one).
    pub mechanical: bool,
}

/// The name of a set of points as 003 writes it: the first point (top row first, then left to
/// right), with `*` when there is more than one.
pub fn log_name(board: &Board, points: &[usize]) -> String {
    match points.iter().min() {
        None => String::new(),
        Some(&i) if points.len() == 1 => board.point(i).to_string(),
        Some(&i) => format!("{}*", board.point(i)),
    }
}

fn names(board: &Board, points: &[usize]) -> Vec<String> {
    let mut v = points.to_vec();
    v.sort_unstable();
    v.iter().map(|&i| board.point(i).to_string()).collect()
}

fn kind_of(s: Stone) -> &'static str {
    match s {
        Stone::Black => "black",
        Stone::White => "white",
        Stone::Flower => "flower",
    }
}

/// The removed stones of a move, grouped into strings of the board before the move `b`; a
/// flower string with its attribute there (`attribute_at`, asked only for a removed flower).
fn captured_strings(
    b: &Board,
    captured: &[usize],
    mut attribute_at: impl FnMut(usize) -> Option<Attribute>,
) -> Vec<LoggedString> {
    let mut seen = vec![false; b.len()];
    let mut out = Vec::new();
    let mut sorted = captured.to_vec();
    sorted.sort_unstable();
    for &i in &sorted {
        if seen[i] {
            continue;
        }
        let Some(stone) = b.get(i) else { continue };
        let group: Vec<usize> = flood(b.size(), i, |j| {
            b.get(j) == Some(stone) && sorted.binary_search(&j).is_ok()
        });
        for &j in &group {
            seen[j] = true;
        }
        out.push(LoggedString {
            kind: kind_of(stone),
            attribute: if stone == Stone::Flower {
                attribute_at(i)
            } else {
                None
            },
            name: log_name(b, &group),
            points: names(b, &group),
        });
    }
    out
}

/// The logged form of a lower string of `a` through point `p`.
fn logged_at(a: &Analysis, p: Point) -> Option<(usize, LoggedString)> {
    if !p.on_board(a.board.size()) {
        return None;
    }
    let i = a.board.index(p);
    let g = a.lower_strings.of[i]?;
    let s = &a.lower_strings.groups[g];
    Some((
        g,
        LoggedString {
            kind: s.colour.map(|c| c.name()).unwrap_or("flower"),
            attribute: None,
            name: log_name(&a.board, &s.points),
            points: names(&a.board, &s.points),
        },
    ))
}

/// What a played move logs: the strings it removed, the private eyes it made, the strings
/// that lost their private eyes, the attribute changes.
type Described = (
    Vec<LoggedString>,
    Vec<EyeEvent>,
    Vec<LoggedString>,
    Vec<Change>,
);

/// What a played move did, in the log's terms, on the position's engine: `Engine::Reference` reads it from
/// the analyses of the boards before and after the move ([`describe_by_analysis`]);
/// `Engine::Fast` from the report alone ([`describe_by_report`]), which already holds the same
/// strings and eyes, so that no board is analysed again (`tests/it/engine_choice.rs` checks the
/// two logs are the same).
fn describe(before: &Position, after: &Position, report: &Report) -> Described {
    match before.engine() {
        Engine::Fast => describe_by_report(before, after, report),
        Engine::Reference => describe_by_analysis(before, after, report),
    }
}

/// The board indices of points of a report.
fn indices(board: &Board, points: &[Point]) -> Vec<usize> {
    points
        .iter()
        .filter(|p| p.on_board(board.size()))
        .map(|&p| board.index(p))
        .collect()
}

/// The lower string of `board` through `i` (its black or white stones joined 4-connected: the
/// lower layer holds flowers off-board, M20-STRING), logged; `None` on an empty point or a
/// flower.
fn lower_string_at(board: &Board, i: usize) -> Option<LoggedString> {
    let stone = board.get(i).filter(|s| *s != Stone::Flower)?;
    let points = flood(board.size(), i, |j| board.get(j) == Some(stone));
    Some(LoggedString {
        kind: kind_of(stone),
        attribute: None,
        name: log_name(board, &points),
        points: names(board, &points),
    })
}

/// [`describe`] from the report: its captured points grouped on the board before the move
/// (the attribute of a removed flower string read from the analysis before the move, made only
/// then), its strings that made eyes with those eyes, its strings that lost their eyes named as
/// they stand after the move.
fn describe_by_report(before: &Position, after: &Position, report: &Report) -> Described {
    let (b0, b1) = (before.board(), after.board());
    let mut a0: Option<Analysis> = None;
    let captured = captured_strings(b0, &indices(b0, &report.captured), |i| {
        a0.get_or_insert_with(|| Analysis::new(b0, before.rules()))
            .attribute_at[i]
    });
    let eyes_made = report
        .eyes_made
        .iter()
        .filter_map(|n| {
            let first = *indices(b1, &n.points).first()?;
            let string = lower_string_at(b1, first)?;
            let eyes = n
                .eyes
                .iter()
                .map(|e| log_name(b1, &indices(b1, e)))
                .collect();
            Some(EyeEvent { string, eyes })
        })
        .collect();
    let eyes_lost = report
        .eyes_lost
        .iter()
        .filter_map(|n| {
            indices(b1, &n.points)
                .into_iter()
                .find_map(|i| lower_string_at(b1, i))
        })
        .collect();
    (captured, eyes_made, eyes_lost, changes_of(after, report))
}

/// [`describe`] from the analyses of the boards before and after the move.
fn describe_by_analysis(before: &Position, after: &Position, report: &Report) -> Described {
    let a0 = Analysis::new(before.board(), before.rules());
    let a1 = Analysis::new(after.board(), after.rules());
    let captured_idx = indices(before.board(), &report.captured);
    let captured = captured_strings(&a0.board, &captured_idx, |i| a0.attribute_at[i]);
    let eyes_made = report
        .eyes_made
        .iter()
        .filter_map(|n| {
            let p = *n.points.first()?;
            let (g, string) = logged_at(&a1, p)?;
            let eyes = a1
                .private_eyes(g)
                .map(|r| log_name(&a1.board, &r.empty))
                .collect();
            Some(EyeEvent { string, eyes })
        })
        .collect();
    let eyes_lost = report
        .eyes_lost
        .iter()
        .filter_map(|n| {
            // name the string as it stands after the move
            n.points
                .iter()
                .find_map(|&p| logged_at(&a1, p).map(|(_, l)| l))
        })
        .collect();
    (captured, eyes_made, eyes_lost, changes_of(after, report))
}

/// The attribute changes of a report, each flower string named as 003 does.
fn changes_of(after: &Position, report: &Report) -> Vec<Change> {
    report
        .attribute_changes
        .iter()
        .map(|c: &AttributeChange| {
            let idx = indices(after.board(), &c.points);
            Change {
                name: log_name(after.board(), &idx),
                points: c.points.iter().map(|p| p.to_string()).collect(),
                from: c.from,
                to: c.to,
            }
        })
        .collect()
}

/// The history the ko rule needs, written to a position file: none, the last board (simple),
/// or all of it. Trims the history of `setup`, a position under `rules`.
pub fn trim_history(rules: &Rules, setup: &mut Setup) {
    // by the option's name, so that new ko options keep the whole history
    let keep = match serde_json::to_value(rules.ko)
        .ok()
        .as_ref()
        .and_then(|v| v.as_str())
    {
        Some("none") => 0,
        Some("simple") => 1,
        _ => setup.history.len(),
    };
    let n = setup.history.len();
    setup.history.drain(..n.saturating_sub(keep));
}

/// The position file of a replay's final position (history trimmed to what ko needs).
pub fn position_setup(pos: &Position) -> Setup {
    let mut s = pos.to_setup();
    trim_history(pos.rules(), &mut s);
    s.rules = crate::formats::record::rules_field(pos.rules());
    s
}

/// M20-REPLAY — "将围棋棋谱中的全部下子点坐标序列或前面部分下子点坐标序列，按照萌式三色围棋规则次序和棋子
/// 颜色，重新摆放一遍。如果某手棋为萌式三色围棋规则下新产生的禁着点，那么这手棋就用虚着（Pass）代替，其它下子点则
/// 无论其好坏程度（包括可能产生新的提吃），一律按原手数和坐标摆放" (003). Move n of the record is played at
/// the record's point with the turn `rules`' schedule gives move n (the record's colours are
/// ignored); a move the rules refuse (a flower's forbidden point, an occupied point, suicide,
/// ko) becomes a pass, logged with its reason code and clause. Replaced passes never end the
/// game: after one, the count of trailing passes is set to 0 (only the record's own passes
/// count towards the end). A record that goes on after its own passes ended the game is
/// refused with the move number. Stops after move `to` when given.
/// The replay starts from the record's start position on `engine` (the moves, their log and
/// the final position all on it).
pub fn mechanical(
    record: &Record,
    rules: &Rules,
    to: Option<u32>,
    engine: Engine,
) -> Result<Replay, InputError> {
    mechanical_keeping(record, rules, to, engine, |_| {})
}

/// [`mechanical`], the position after each move handed to `keep` as it is reached (the
/// page keeps them all, so that stepping through a loaded record replays nothing).
pub fn mechanical_keeping(
    record: &Record,
    rules: &Rules,
    to: Option<u32>,
    engine: Engine,
    mut keep: impl FnMut(&Position),
) -> Result<Replay, InputError> {
    let mut entries = Vec::new();
    let mut reports = Vec::new();
    let (start, position) = mechanical_steps(
        record,
        rules,
        to,
        engine,
        mechanical_step,
        |pos, next, report, logged| {
            entries.push(entry(pos, next, &report, logged));
            reports.push(report);
            keep(next);
        },
    )?;
    Ok(Replay {
        start,
        position,
        entries,
        reports,
        mechanical: true,
    })
}

/// The summary of [`mechanical`] (what `replay --quiet` and a replay of many records print)
/// and the final position, each move advanced without a report on `engine`
/// ([`mechanical_advance`]): the same counts as the log's ([`Replay::tally`]).
pub fn mechanical_tally(
    record: &Record,
    rules: &Rules,
    to: Option<u32>,
    engine: Engine,
) -> Result<(Tally, Position), InputError> {
    let mut tally = Tally::new(true);
    let (_, position) = mechanical_steps(
        record,
        rules,
        to,
        engine,
        |pos, action| mechanical_advance(pos, action).map(|(next, refusal)| (next, (), refusal)),
        |pos, next, (), (number, _, status)| tally.add(number, &status, removed(pos, next)),
    )?;
    Ok((tally, position))
}

/// The stones a move removed, by colour (black, white, flower): those on the board before it
/// that are gone after it (a cascade only removes; the stone placed was not on the board
/// before).
fn removed(before: &Position, after: &Position) -> (usize, usize, usize) {
    let (b0, b1) = (before.board(), after.board());
    let mut c = (0, 0, 0);
    for i in 0..b0.len() {
        match (b0.get(i), b1.get(i)) {
            (Some(Stone::Black), None) => c.0 += 1,
            (Some(Stone::White), None) => c.1 += 1,
            (Some(Stone::Flower), None) => c.2 += 1,
            _ => {}
        }
    }
    c
}

/// The record's move as logged: its number, its move as written (`source`), what became of it.
type Logged = (u32, String, Status);

/// M20-REPLAY's loop: the record's moves (up to `to`) from its start position under `rules`,
/// each checked to be the next move of a game that goes on, played by `step` (the next
/// position, what it keeps — a report or nothing — and the refusal of a replaced move) and
/// handed to `visit` with the position before it. Returns the start and the final position.
fn mechanical_steps<R>(
    record: &Record,
    rules: &Rules,
    to: Option<u32>,
    engine: Engine,
    mut step: impl FnMut(&Position, Action) -> Result<(Position, R, Option<Illegal>), Illegal>,
    mut visit: impl FnMut(&Position, &Position, R, Logged),
) -> Result<(Position, Position), InputError> {
    let start = record.start_position(rules)?.with_engine(engine);
    let mut pos = start.clone();
    for m in &record.moves {
        if to.is_some_and(|t| m.number > t) {
            break;
        }
        if m.number != pos.move_number() {
            return Err(
                InputError::expecting(format!("move {} here", pos.move_number()))
                    .move_number(m.number)
                    .at(&m.place),
            );
        }
        if pos.game_over() {
            return Err(InputError::new(
                "the game ended with the passes before it; the record goes on",
            )
            .move_number(m.number)
            .at(&m.place)
            .text(&m.text));
        }
        let (next, kept, refusal) = step(&pos, m.action).map_err(|e| {
            InputError::new(format!("could not pass after refusing `{}`: {e}", m.text))
                .move_number(m.number)
                .at(&m.place)
        })?;
        // M20-REPLAY-PASS: a move the rules refuse becomes a pass; M20-REPLAY-KEEP: a move the
        // rules allow is placed at its number and point
        let status = Status::of_step(refusal, m.action);
        visit(&pos, &next, kept, (m.number, source_of(m.action), status));
        pos = next;
    }
    Ok((start, pos))
}

/// The record's move as the log writes it: its point, or `pass`.
fn source_of(action: Action) -> String {
    match action {
        Action::Pass => "pass".to_string(),
        Action::Place(p) => p.to_string(),
    }
}

/// One move of M20-REPLAY's 机械式排局: `action` is played as the next move with the turn the
/// schedule gives it; if the rules refuse it, a pass is played instead ("那么这手棋就用虚着（Pass）
/// 代替") and the count of trailing passes is reset (a replaced pass never ends the game).
/// Returns the next position, the report, and the refusal when the move was replaced; fails
/// only when the pass itself is refused (the game is over).
pub fn mechanical_step(
    pos: &Position,
    action: Action,
) -> Result<(Position, Report, Option<Illegal>), Illegal> {
    replace_refused(action, |m| pos.play(m))
}

/// [`mechanical_step`] without the report, on the position's engine ([`Position::advance`]): the next
/// position and the refusal when the move was replaced by a pass.
pub fn mechanical_advance(
    pos: &Position,
    action: Action,
) -> Result<(Position, Option<Illegal>), Illegal> {
    replace_refused(action, |m| pos.advance(m).map(|n| (n, ())))
        .map(|(next, (), refusal)| (next, refusal))
}

/// The rule of [`mechanical_step`], written once for both engines: `play` plays a move from the
/// position (giving the next position and what else the caller keeps: the report, or
/// nothing); a refused `action` is replaced by a pass whose trailing-pass count is reset.
fn replace_refused<R>(
    action: Action,
    play: impl Fn(&Move) -> Result<(Position, R), Illegal>,
) -> Result<(Position, R, Option<Illegal>), Illegal> {
    let attempt = play(&Move {
        action,
        number: None,
        turn: None,
    });
    match attempt {
        Ok((next, r)) => Ok((next, r, None)),
        Err(refusal) => {
            let (mut next, r) = play(&Move::pass())?;
            next.forget_trailing_passes();
            Ok((next, r, Some(refusal)))
        }
    }
}

/// The log entry of one move, played from `pos` to `next` (a pass describes nothing): the
/// record's move number, its move as written (`source`) and what became of it.
fn entry(
    pos: &Position,
    next: &Position,
    report: &Report,
    (number, source, status): Logged,
) -> Entry {
    let (captured, eyes_made, eyes_lost, attribute_changes) = if report.action == Action::Pass {
        (vec![], vec![], vec![], vec![])
    } else {
        describe(pos, next, report)
    };
    Entry {
        number,
        notation: report.notation.clone(),
        source,
        status,
        captured,
        eyes_made,
        eyes_lost,
        attribute_changes,
    }
}

/// Replays a record strictly: every move must be legal under `rules`, with the turn the
/// record names (if it names one); the first illegal move is refused with its number, place
/// and reason. The log is the same as the mechanical replay's.
pub fn strict(
    record: &Record,
    rules: &Rules,
    to: Option<u32>,
    engine: Engine,
) -> Result<Replay, InputError> {
    strict_keeping(record, rules, to, engine, |_| {})
}

/// [`strict`], the position after each move handed to `keep` (as [`mechanical_keeping`]).
pub fn strict_keeping(
    record: &Record,
    rules: &Rules,
    to: Option<u32>,
    engine: Engine,
    mut keep: impl FnMut(&Position),
) -> Result<Replay, InputError> {
    let mut entries = Vec::new();
    let mut reports = Vec::new();
    let (start, position) = strict_steps(
        record,
        rules,
        to,
        engine,
        |pos, k| record.play_move(pos, k),
        |pos, next, report, logged| {
            entries.push(entry(pos, next, &report, logged));
            reports.push(report);
            keep(next);
        },
    )?;
    Ok(Replay {
        start,
        position,
        entries,
        reports,
        mechanical: false,
    })
}

/// The summary of [`strict`] and the final position, each move advanced without a report on
/// `engine` ([`Record::advance_move`], on the start position's engine).
pub fn strict_tally(
    record: &Record,
    rules: &Rules,
    to: Option<u32>,
    engine: Engine,
) -> Result<(Tally, Position), InputError> {
    let mut tally = Tally::new(false);
    let (_, position) = strict_steps(
        record,
        rules,
        to,
        engine,
        |pos, k| {
            record
                .advance_move(pos, k)
                .map(|(next, refusal)| (next, (), refusal))
        },
        |pos, next, (), (number, _, status)| tally.add(number, &status, removed(pos, next)),
    )?;
    Ok((tally, position))
}

/// The strict replay's loop: the record's moves (up to `to`), each played by `step` (a move
/// the record marks replaced checked to be refused, [`Record::play_move`]) and handed to
/// `visit` with the position before it. Returns the start and the final position.
fn strict_steps<R>(
    record: &Record,
    rules: &Rules,
    to: Option<u32>,
    engine: Engine,
    mut step: impl FnMut(&Position, usize) -> Result<(Position, R, Option<Illegal>), InputError>,
    mut visit: impl FnMut(&Position, &Position, R, Logged),
) -> Result<(Position, Position), InputError> {
    let start = record.start_position(rules)?.with_engine(engine);
    let mut pos = start.clone();
    for (k, m) in record.moves.iter().enumerate() {
        if to.is_some_and(|t| m.number > t) {
            break;
        }
        // a move the record marks replaced (M20-REPLAY-PASS) is checked to be refused
        let (next, kept, refusal) = step(&pos, k)?;
        let status = Status::of_step(refusal, m.action);
        visit(&pos, &next, kept, (m.number, source_of(m.action), status));
        pos = next;
    }
    Ok((start, pos))
}

/// The log as text: one line per move in 003's style, each followed by its English gloss when
/// `gloss` is set; then the summary.
pub fn log_text(rep: &Replay, gloss: bool) -> String {
    log_text_in(rep, gloss, Labels::Chinese)
}

/// [`log_text`] with every point in `labels`.
pub fn log_text_in(rep: &Replay, gloss: bool, labels: Labels) -> String {
    let size = rep.position.board().size();
    let mut o = String::new();
    for e in &rep.entries {
        o.push_str(&e.line_zh_in(labels, size));
        o.push('\n');
        if gloss {
            o.push_str("    ");
            o.push_str(&e.line_en_in(labels, size));
            o.push('\n');
        }
    }
    let (zh, en) = rep.summary();
    o.push_str(&zh);
    o.push('\n');
    if gloss {
        o.push_str("    ");
        o.push_str(&en);
        o.push('\n');
    }
    o
}

fn colour_zh(kind: &str) -> &'static str {
    match kind {
        "black" => "黑",
        "white" => "白",
        _ => "花",
    }
}

fn attr_zh(a: Attribute) -> &'static str {
    match a {
        Attribute::Neutral => "中性",
        Attribute::Black => "黑性",
        Attribute::White => "白性",
    }
}

/// Strings of one colour word joined as 003 does: `白棋串CO*和EO`.
fn join_zh(items: &[String]) -> String {
    match items.len() {
        0 => String::new(),
        1 => items[0].clone(),
        n => format!("{}和{}", items[..n - 1].join("、"), items[n - 1]),
    }
}

fn join_en(items: &[String]) -> String {
    match items.len() {
        0 => String::new(),
        1 => items[0].clone(),
        n => format!("{} and {}", items[..n - 1].join(", "), items[n - 1]),
    }
}

/// Groups strings by a key, keeping first-seen order.
fn grouped<T, K: Ord + Clone>(items: &[T], key: impl Fn(&T) -> K) -> Vec<(K, Vec<&T>)> {
    let mut order: Vec<K> = Vec::new();
    let mut map: BTreeMap<K, Vec<&T>> = BTreeMap::new();
    for it in items {
        let k = key(it);
        if !map.contains_key(&k) {
            order.push(k.clone());
        }
        map.entry(k).or_default().push(it);
    }
    order
        .into_iter()
        .map(|k| {
            let v = map.remove(&k).unwrap_or_default();
            (k, v)
        })
        .collect()
}

fn string_word_zh(s: &LoggedString) -> String {
    match (s.kind, s.attribute) {
        ("flower", Some(a)) if a != Attribute::Neutral => format!("{}花棋串", attr_zh(a)),
        ("flower", _) => "花棋串".into(),
        (k, _) => format!("{}棋串", colour_zh(k)),
    }
}

fn string_word_en(s: &LoggedString) -> String {
    match (s.kind, s.attribute) {
        ("flower", Some(a)) if a != Attribute::Neutral => format!("{}-attributed flower", a.name()),
        ("flower", _) => "flower".into(),
        (k, _) => k.to_string(),
    }
}

impl Entry {
    /// The log line in 003's style.
    pub fn line_zh(&self) -> String {
        self.line_zh_in(Labels::Chinese, MAX_SIZE)
    }

    /// The log line in 003's style, every point in `labels` (on a board of `size`).
    pub fn line_zh_in(&self, labels: Labels, size: usize) -> String {
        let pt = |q: &str| relabel(q, size, labels);
        let notation = relabel_move(&self.notation, size, labels);
        let head = match &self.status {
            Status::Played => notation.clone(),
            Status::RecordPass => format!("{}（原谱虚着）", notation.replace("pass", "虚着")),
            Status::Replaced { reason, clause, .. } => format!(
                "{}（原谱{}：{}，{reason}，{clause}）",
                notation.replace("pass", "虚着"),
                pt(&self.source),
                reason.zh()
            ),
        };
        let mut parts = vec![head];
        if !self.captured.is_empty() {
            let g = grouped(&self.captured, string_word_zh);
            let txt: Vec<String> = g
                .iter()
                .map(|(w, v)| {
                    let n: Vec<String> = v.iter().map(|s| pt(&s.name)).collect();
                    format!("{w}{}", join_zh(&n))
                })
                .collect();
            parts.push(format!("提吃{}", txt.join("和")));
        }
        for (k, e) in self.eyes_made.iter().enumerate() {
            let eyes: Vec<String> = e.eyes.iter().map(|x| format!("私眼{}", pt(x))).collect();
            parts.push(format!(
                "{}为{}{}做出{}",
                if k == 0 && !self.captured.is_empty() {
                    "并"
                } else {
                    ""
                },
                string_word_zh(&e.string),
                pt(&e.string.name),
                join_zh(&eyes)
            ));
        }
        for s in &self.eyes_lost {
            parts.push(format!("{}{}失去私眼", string_word_zh(s), pt(&s.name)));
        }
        for (_, v) in grouped(&self.attribute_changes, |c| (c.from.name(), c.to.name())) {
            let (from, to) = (v[0].from, v[0].to);
            let n: Vec<String> = v.iter().map(|c| pt(&c.name)).collect();
            parts.push(format!(
                "{}花棋串{}{}变为{}花棋串",
                attr_zh(from),
                n.join("/"),
                if n.len() > 1 { "皆" } else { "" },
                attr_zh(to)
            ));
        }
        format!("{}。", parts.join("，"))
    }

    /// The English gloss of the line.
    pub fn line_en(&self) -> String {
        self.line_en_in(Labels::Chinese, MAX_SIZE)
    }

    /// The English gloss, every point in `labels` (on a board of `size`).
    pub fn line_en_in(&self, labels: Labels, size: usize) -> String {
        let pt = |q: &str| relabel(q, size, labels);
        let notation = relabel_move(&self.notation, size, labels);
        let head = match &self.status {
            Status::Played => format!("{notation}: played"),
            Status::RecordPass => format!("{notation}: the record passes"),
            Status::Replaced {
                reason,
                clause,
                message,
            } => format!(
                "{notation}: the record's {} is refused — {} [{reason}, {clause}]: {message}; replaced by a pass",
                pt(&self.source),
                reason.en(),
                message = relabel_text(message, size, labels)
            ),
        };
        let mut parts = vec![head];
        if !self.captured.is_empty() {
            let g = grouped(&self.captured, string_word_en);
            let txt: Vec<String> = g
                .iter()
                .map(|(w, v)| {
                    let n: Vec<String> = v.iter().map(|s| pt(&s.name)).collect();
                    format!(
                        "{w} string{} {}",
                        if n.len() > 1 { "s" } else { "" },
                        join_en(&n)
                    )
                })
                .collect();
            parts.push(format!("captures {}", txt.join(" and ")));
        }
        for e in &self.eyes_made {
            parts.push(format!(
                "makes private eye{} {} for {} string {}",
                if e.eyes.len() > 1 { "s" } else { "" },
                join_en(&e.eyes.iter().map(|x| pt(x)).collect::<Vec<_>>()),
                string_word_en(&e.string),
                pt(&e.string.name)
            ));
        }
        for s in &self.eyes_lost {
            parts.push(format!(
                "{} string {} loses its private eye",
                string_word_en(s),
                pt(&s.name)
            ));
        }
        for (_, v) in grouped(&self.attribute_changes, |c| (c.from.name(), c.to.name())) {
            let (from, to) = (v[0].from, v[0].to);
            let n: Vec<String> = v.iter().map(|c| pt(&c.name)).collect();
            parts.push(format!(
                "{} flower string{} {} become{} {}",
                from.name(),
                if n.len() > 1 { "s" } else { "" },
                n.join(", "),
                if n.len() > 1 { "" } else { "s" },
                to.name()
            ));
        }
        format!("{}.", parts.join("; "))
    }

    /// Whether the record's move was replaced by a pass.
    pub fn replaced(&self) -> bool {
        matches!(self.status, Status::Replaced { .. })
    }
}

/// What a replay's summary counts: the moves played, replaced by a pass (by reason code) and
/// passed by the record, the stones removed by colour, the last move number.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Whether this was a mechanical replay (else a strict one).
    pub mechanical: bool,
    /// The record's moves replayed.
    pub moves: usize,
    pub played: usize,
    pub record_passes: usize,
    /// Replaced moves by reason code.
    pub replaced: BTreeMap<&'static str, usize>,
    /// Stones removed: (black, white, flower).
    pub captured: (usize, usize, usize),
    /// The number of the last move replayed (0 if none).
    pub last: u32,
}

impl Tally {
    fn new(mechanical: bool) -> Tally {
        Tally {
            mechanical,
            ..Tally::default()
        }
    }

    /// Counts move `number`, which ended as `status` and removed `captured` stones.
    fn add(&mut self, number: u32, status: &Status, captured: (usize, usize, usize)) {
        self.moves += 1;
        self.last = number;
        match status {
            Status::Played => self.played += 1,
            Status::RecordPass => self.record_passes += 1,
            Status::Replaced { reason, .. } => {
                *self.replaced.entry(reason.code()).or_insert(0) += 1
            }
        }
        self.captured.0 += captured.0;
        self.captured.1 += captured.1;
        self.captured.2 += captured.2;
    }

    /// The number of moves replaced by a pass.
    pub fn replaced_count(&self) -> usize {
        self.replaced.values().sum()
    }

    /// The summary line (Chinese, then English).
    pub fn summary(&self) -> (String, String) {
        let (played, record_passes, last) = (self.played, self.record_passes, self.last);
        let replaced = self.replaced_count();
        let (b, w, f) = self.captured;
        let reasons: Vec<String> = self
            .replaced
            .iter()
            .map(|(k, v)| format!("{k} {v}"))
            .collect();
        let (zh_kind, en_kind) = if self.mechanical {
            ("机械式排局", "mechanical replay")
        } else {
            ("打谱", "replay")
        };
        let zh = format!(
            "{zh_kind}至第{last}手：实着{played}手，虚着代替{replaced}手（{}），原谱虚着{record_passes}手；提吃黑子{b}、白子{w}、花子{f}。",
            if reasons.is_empty() { "无".into() } else { reasons.join("，") }
        );
        let en = format!(
            "{en_kind} to move {last}: {played} played, {replaced} replaced by a pass ({}), {record_passes} record passes; removed {b} black, {w} white, {f} flower stones.",
            if reasons.is_empty() { "none".into() } else { reasons.join(", ") }
        );
        (zh, en)
    }
}

impl Replay {
    /// The counts of the log.
    pub fn tally(&self) -> Tally {
        let mut t = Tally::new(self.mechanical);
        for e in &self.entries {
            let mut c = (0, 0, 0);
            for s in &e.captured {
                match s.kind {
                    "black" => c.0 += s.points.len(),
                    "white" => c.1 += s.points.len(),
                    _ => c.2 += s.points.len(),
                }
            }
            t.add(e.number, &e.status, c);
        }
        t
    }

    /// Counts of the replaced moves by reason code.
    pub fn replaced_by_reason(&self) -> BTreeMap<&'static str, usize> {
        self.tally().replaced
    }

    /// Stones removed, by the colour of the removed stones: (black, white, flower).
    pub fn captured_counts(&self) -> (usize, usize, usize) {
        self.tally().captured
    }

    /// The summary line (Chinese, then English).
    pub fn summary(&self) -> (String, String) {
        self.tally().summary()
    }
}

/// The player a log line belongs to (for colouring).
pub fn player_of(e: &Entry) -> Option<Colour> {
    match e.notation.chars().next() {
        Some('黑') | Some('华') => Some(Colour::Black),
        Some('白') | Some('花') => Some(Colour::White),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::record::parse_game_text;

    #[test]
    fn m20_replay_flower_turn_on_a_capture_point_becomes_a_pass() {
        // 5x5: the white stone 二二 in the corner has one liberty, 二一, after 黑3.一二; the
        // record puts move 9 (华, black's flower) there: a capture point, so it becomes a pass.
        let text = "size: 5\nBB 二二 一二 B二 OB A二 一B B一 二一 pass";
        let r = parse_game_text(text, "t", ".").unwrap();
        let rules = Rules::m3go_2020();
        let rep = mechanical(&r, &rules, None, Engine::Fast).unwrap();
        assert_eq!(rep.entries.len(), 10);
        let e9 = &rep.entries[8];
        assert!(
            matches!(
                e9.status,
                Status::Replaced {
                    reason: Refusal::CapturePoint,
                    ..
                }
            ),
            "{e9:?}"
        );
        assert!(
            e9.line_zh().starts_with("华9.虚着（原谱二一"),
            "{}",
            e9.line_zh()
        );
        assert_eq!(rep.position.trailing_passes(), 1);
    }
}
