//! Mechanical replay (机械式排局, 003): an ordinary Go record replayed with the three-colour
//! schedule, every move that the rules forbid (or that cannot be made) replaced by a pass, and
//! a log of what every move did, written like 003's narrative ("黑301.DO，提吃白棋串CO*和EO，并为黑棋串
//! DA*做出私眼CO*，中性花棋串EA/CA皆变为黑性花棋串").

use m3go_engine::board::flood;
use m3go_engine::formats::record::Record;
use m3go_engine::game::{AttributeChange, NotationError, Text, Written};
use m3go_engine::rules::Ko;
use m3go_engine::{
    Action, Analysis, Attribute, Board, Engine, Illegal, InputError, Labels, Move, Notation, Point,
    Position, Refusal, Report, Rules, Setup, Stone,
};
use serde::Serialize;
use std::collections::BTreeMap;

mod log;
mod narrate;
use log::describe;
pub use log::{Change, Entry, EyeEvent, LogName, LoggedString, Replay, Status};
pub use narrate::Tally;
#[cfg_attr(not(feature = "cli"), allow(unused_imports))] // the command line's
pub(crate) use narrate::{log_text, log_text_in};

/// Moves given as a list (`m3go play`'s arguments, a server request's `moves`) played in order
/// from `start`, each reported to `each` as it is played, bounded as a record is: at most
/// [`Notation::max_moves`](m3go_engine::Notation::max_moves) moves (else an error naming `key`, the list), and no move numbered past the
/// last move number m3go plays ([`Notation::check_move_number`](m3go_engine::Notation::check_move_number)). A move that cannot be read or played is an
/// error with its text and, when `numbered`, its number in the list (the page sends one move at
/// a time, named by its text alone: its refusal names its number in the game); a move the
/// rules refuse keeps the engine's refusal ([`ListedError::Refused`]).
pub fn play_listed(
    start: &Position,
    moves: &[String],
    key: &str,
    numbered: bool,
    each: impl FnMut(&Report),
) -> Result<(Position, Vec<Report>), ListedError> {
    play_listed_until(start, moves, key, numbered, each, &|| false)
}

/// Why [`play_listed`] stopped: a bound of the list (too many moves, a move numbered past the
/// last, the caller's stop) as an input error, or one move's own failure kept typed — its
/// notation problem, or the rules' refusal ([`Illegal`], with its reason and clause) — and
/// worded only when printed ([`ListedError::input_error`]).
#[derive(Clone, Debug)]
pub enum ListedError {
    /// A bound of the list, or the caller's stop.
    Bound(InputError),
    /// The move does not read.
    Unread {
        at: ListedMove,
        error: NotationError,
    },
    /// The rules refuse the move.
    Refused { at: ListedMove, illegal: Illegal },
    /// The move is written as refused and replaced by a pass (`=pass`), but the rules allow it.
    NotRefused { at: ListedMove },
}

/// Which move of a list failed: its index (0-based), its text, and whether the list is named
/// by numbers ([`play_listed`]'s `numbered`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ListedMove {
    pub index: usize,
    pub text: String,
    pub numbered: bool,
}

impl ListedMove {
    /// `error` placed at this move: its text and, in a numbered list, its number in the list.
    fn place(&self, error: InputError) -> InputError {
        if self.numbered {
            error.move_number(self.index as u32 + 1).text(&self.text)
        } else {
            error.text(&self.text)
        }
    }
}

impl ListedError {
    /// The error as m3go words it (`m3go play`'s message, the server's): a refusal is an
    /// illegal move whose reason is the refusal's text.
    pub fn input_error(&self) -> InputError {
        self.input_error_in(m3go_engine::Labels::Chinese)
    }

    /// [`input_error`](Self::input_error) with the refusal's points in `labels` (`m3go play
    /// --labels latin`): the refusal worded as [`Illegal`]'s `Display` words it in Chinese.
    pub(crate) fn input_error_in(&self, labels: m3go_engine::Labels) -> InputError {
        match self {
            ListedError::Bound(e) => e.clone(),
            ListedError::Unread { at, error } => at.place(InputError::from(error.clone())),
            ListedError::Refused { at, illegal } => at.place(InputError::illegal_move(format!(
                "{} ({}, {})",
                illegal.message.format(labels),
                illegal.reason,
                illegal.clause
            ))),
            ListedError::NotRefused { at } => at.place(InputError::new(NOT_REFUSED)),
        }
    }
}

impl std::fmt::Display for ListedError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.input_error().fmt(f)
    }
}

impl std::error::Error for ListedError {}

impl From<ListedError> for InputError {
    fn from(e: ListedError) -> Self {
        e.input_error()
    }
}

/// [`play_listed`], `stop` asked before each move: when it says `true` the moves stop there
/// with an error ([`stopped`]; the server's way to end the work of a client that left, or
/// that ran past its budget).
pub(crate) fn play_listed_until(
    start: &Position,
    moves: &[String],
    key: &str,
    numbered: bool,
    mut each: impl FnMut(&Report),
    stop: &dyn Fn() -> bool,
) -> Result<(Position, Vec<Report>), ListedError> {
    let limit = Notation::max_moves(start.board().size());
    if moves.len() > limit {
        return Err(ListedError::Bound(
            InputError::new(format!(
                "{} moves given: expected at most {limit} on a {1}x{1} board (the limit of a record)",
                moves.len(),
                start.board().size()
            ))
            .key(key),
        ));
    }
    let mut p = start.clone();
    let mut reports = Vec::new();
    for (k, m) in moves.iter().enumerate() {
        if stop() {
            return Err(ListedError::Bound(stopped(k as u32 + 1)));
        }
        let at = || ListedMove {
            index: k,
            text: m.clone(),
            numbered,
        };
        Notation::check_move_number(p.move_number())
            .map_err(|e| ListedError::Bound(at().place(InputError::from(e))))?;
        let w = Written::parse_in(m, p.rules(), p.board().size())
            .map_err(|error| ListedError::Unread { at: at(), error })?;
        let (next, r) = play_written(&p, &w, |m| p.play_reported(m)).map_err(|e| match e {
            WrittenFailure::Refused(illegal) => ListedError::Refused { at: at(), illegal },
            WrittenFailure::NotRefused => ListedError::NotRefused { at: at() },
        })?;
        each(&r);
        reports.push(r);
        p = next;
    }
    Ok((p, reports))
}

/// The message of [`WrittenFailure::NotRefused`].
pub(crate) const NOT_REFUSED: &str = "written as refused and replaced by a pass (`=pass`), but \
     the rules allow this move: expected it without `=pass`";

/// Why a written move ([`Written`]) was not played.
pub(crate) enum WrittenFailure {
    /// The rules refuse the move.
    Refused(Illegal),
    /// It is written as refused and replaced by a pass (`=pass`), but the rules allow it.
    NotRefused,
}

/// M20-REPLAY-PASS — `w` played from `pos` by `play` (which gives the next position and what
/// else the caller keeps: a report, an analysis): as written; or, written as refused and
/// replaced by a pass (`=pass`), checked to be a move the rules refuse, then the pass played in
/// its place with the count of trailing passes set back (a replaced pass never ends the game).
/// What `play`, `protocol` and the page do with a listed move.
pub(crate) fn play_written<R>(
    pos: &Position,
    w: &Written,
    play: impl Fn(&Move) -> Result<(Position, R), Illegal>,
) -> Result<(Position, R), WrittenFailure> {
    if w.replaced && pos.play(w.mv).is_ok() {
        return Err(WrittenFailure::NotRefused);
    }
    let (mut next, r) = play(&w.played()).map_err(WrittenFailure::Refused)?;
    if w.replaced {
        next.forget_trailing_passes();
    }
    Ok((next, r))
}

/// The error of a replay or a list of moves stopped by its caller before move `number`.
pub(crate) fn stopped(number: u32) -> InputError {
    InputError::new("stopped by the caller before this move").move_number(number)
}

/// The history the ko rule needs, written to a position file: none, the last board (simple),
/// or all of it; under `grey-freeze: kept` (2013 rule) at least the boards back to the one on
/// which the earliest grey string still frozen was frozen (M13-FREEZE, D21:
/// [`m3go_engine::judge::boards_needed`]), so that the file gives the same frozen strings.
/// Trims the history of `setup`, a position under `rules`.
#[cfg_attr(feature = "testing", visibility::make(pub))]
pub(crate) fn trim_history(rules: &Rules, setup: &mut Setup) {
    // every ko option named, so that a new one is given its history when it is added
    let keep = match rules.ko {
        Ko::None => 0,
        Ko::Simple => 1,
        Ko::Positional | Ko::Situational => setup.history.len(),
    };
    let n = setup.history.len();
    let keep = keep.max(freeze_boards_needed(rules, setup));
    setup.history.drain(..n.saturating_sub(keep));
}

/// How many of the latest boards of `setup`'s history the freeze of the 2013 rule needs
/// ([`m3go_engine::judge::boards_needed`]; 0 under rules that do not freeze, all of them
/// when a board does not read).
fn freeze_boards_needed(rules: &Rules, setup: &Setup) -> usize {
    use m3go_engine::Board;
    if !m3go_engine::judge::freezes(rules) {
        return 0;
    }
    let size = setup
        .diagram
        .lines()
        .filter(|l| !l.trim().is_empty())
        .count();
    let size = setup.size.unwrap_or(size);
    let boards: Result<Vec<Board>, _> = setup
        .history
        .iter()
        .map(|d| Board::from_diagram(d, size))
        .collect();
    match (boards, Board::from_diagram(&setup.diagram, size)) {
        (Ok(history), Ok(board)) => m3go_engine::judge::boards_needed(rules, &history, &board),
        _ => setup.history.len(),
    }
}

/// The position file of a replay's final position (history trimmed to what ko needs).
pub(crate) fn position_setup(pos: &Position) -> Setup {
    let mut s = pos.to_setup();
    trim_history(pos.rules(), &mut s);
    s.rules = m3go_engine::rules::RulesField::of(pos.rules());
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
    mechanical_keeping(record, rules, to, engine, |_| {}, &|| false)
}

/// [`mechanical`], the position after each move handed to `keep` as it is reached (the
/// page keeps them all, so that stepping through a loaded record replays nothing); `stop` is
/// asked before each move, and when it says `true` the replay ends there with an error
/// ([`stopped`]: the server's client left, or the request ran past its budget).
pub(crate) fn mechanical_keeping(
    record: &Record,
    rules: &Rules,
    to: Option<u32>,
    engine: Engine,
    mut keep: impl FnMut(&Position),
    stop: &dyn Fn() -> bool,
) -> Result<Replay, InputError> {
    let mut entries = Vec::new();
    let mut reports = Vec::new();
    let (start, position) = mechanical_steps(
        record,
        rules,
        to,
        engine,
        stop,
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
#[cfg_attr(feature = "testing", visibility::make(pub))]
pub(crate) fn mechanical_tally(
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
        &|| false,
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
type Logged = (u32, Action, Status);

/// M20-REPLAY's loop: the record's moves (up to `to`) from its start position under `rules`,
/// each checked to be the next move of a game that goes on, played by `step` (the next
/// position, what it keeps — a report or nothing — and the refusal of a replaced move) and
/// handed to `visit` with the position before it. Returns the start and the final position.
fn mechanical_steps<R>(
    record: &Record,
    rules: &Rules,
    to: Option<u32>,
    engine: Engine,
    stop: &dyn Fn() -> bool,
    mut step: impl FnMut(&Position, Action) -> Result<(Position, R, Option<Illegal>), Illegal>,
    mut visit: impl FnMut(&Position, &Position, R, Logged),
) -> Result<(Position, Position), InputError> {
    let start = record.start_position(rules)?.with_engine(engine);
    let mut pos = start.clone();
    for m in &record.moves {
        if to.is_some_and(|t| m.number > t) {
            break;
        }
        if stop() {
            return Err(stopped(m.number));
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
        visit(&pos, &next, kept, (m.number, m.action, status));
        pos = next;
    }
    Ok((start, pos))
}

/// One move of M20-REPLAY's 机械式排局: `action` is played as the next move with the turn the
/// schedule gives it; if the rules refuse it, a pass is played instead ("那么这手棋就用虚着（Pass）
/// 代替") and the count of trailing passes is reset (a replaced pass never ends the game).
/// Returns the next position, the report, and the refusal when the move was replaced; fails
/// only when the pass itself is refused (the game is over).
pub(crate) fn mechanical_step(
    pos: &Position,
    action: Action,
) -> Result<(Position, Report, Option<Illegal>), Illegal> {
    replace_refused(action, |m| pos.play_reported(m))
}

/// [`mechanical_step`] without the report, on the position's engine ([`Position::play`]): the next
/// position and the refusal when the move was replaced by a pass.
pub(crate) fn mechanical_advance(
    pos: &Position,
    action: Action,
) -> Result<(Position, Option<Illegal>), Illegal> {
    replace_refused(action, |m| pos.play(*m).map(|n| (n, ())))
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
        notation: Notation::new(pos.rules(), report.number, report.turn, report.action),
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
    strict_keeping(record, rules, to, engine, |_| {}, &|| false)
}

/// [`strict`], the position after each move handed to `keep` and `stop` asked before each
/// move (as [`mechanical_keeping`]).
#[cfg_attr(feature = "testing", visibility::make(pub))]
pub(crate) fn strict_keeping(
    record: &Record,
    rules: &Rules,
    to: Option<u32>,
    engine: Engine,
    mut keep: impl FnMut(&Position),
    stop: &dyn Fn() -> bool,
) -> Result<Replay, InputError> {
    let mut entries = Vec::new();
    let mut reports = Vec::new();
    let (start, position) = strict_steps(
        record,
        rules,
        to,
        engine,
        stop,
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
pub(crate) fn strict_tally(
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
        &|| false,
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
    stop: &dyn Fn() -> bool,
    mut step: impl FnMut(&Position, usize) -> Result<(Position, R, Option<Illegal>), InputError>,
    mut visit: impl FnMut(&Position, &Position, R, Logged),
) -> Result<(Position, Position), InputError> {
    let start = record.start_position(rules)?.with_engine(engine);
    let mut pos = start.clone();
    for (k, m) in record.moves.iter().enumerate() {
        if to.is_some_and(|t| m.number > t) {
            break;
        }
        if stop() {
            return Err(stopped(m.number));
        }
        // a move the record marks replaced (M20-REPLAY-PASS) is checked to be refused
        let (next, kept, refusal) = step(&pos, k)?;
        let status = Status::of_step(refusal, m.action);
        visit(&pos, &next, kept, (m.number, m.action, status));
        pos = next;
    }
    Ok((start, pos))
}

#[cfg(test)]
mod tests {
    use super::*;
    use m3go_engine::formats::record::Record;

    #[test]
    fn m20_replay_flower_turn_on_a_capture_point_becomes_a_pass() {
        // 5x5: the white stone 二二 in the corner has one liberty, 二一, after 黑3.一二; the
        // record puts move 9 (华, black's flower) there: a capture point, so it becomes a pass.
        let text = "size: 5\nBB 二二 一二 B二 OB A二 一B B一 二一 pass";
        let r =
            Record::parse_game_text(text, "t", m3go_engine::formats::record::StartFiles::Refused)
                .unwrap();
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
