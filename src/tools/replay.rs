//! Mechanical replay (机械式排局, 003): an ordinary Go record replayed with the three-colour
//! schedule, every move that the rules forbid (or that cannot be made) replaced by a pass, and
//! a log of what every move did, written like 003's narrative ("黑301.DO，提吃白棋串CO*和EO，并为黑棋串
//! DA*做出私眼CO*，中性花棋串EA/CA皆变为黑性花棋串").

use m3go_engine::board::flood;
use m3go_engine::formats::record::Record;
use m3go_engine::game::{AttributeChange, Prefix, Text};
use m3go_engine::rules::Ko;
use m3go_engine::{
    Action, Analysis, Attribute, Board, Colour, Engine, Illegal, InputError, Labels, Move,
    Notation, Point, Position, Refusal, Report, Rules, Setup, Stone,
};
use serde::Serialize;
use std::collections::BTreeMap;

mod log;
mod narrate;
use log::describe;
pub use log::{log_name, Change, Entry, EyeEvent, LogName, LoggedString, Replay, Status};
pub use narrate::{log_text, log_text_in, player_of, Tally};

/// Moves given as a list (`m3go play`'s arguments, a server request's `moves`) played in order
/// from `start`, each reported to `each` as it is played, bounded as a record is: at most
/// [`Notation::max_moves`](m3go_engine::Notation::max_moves) moves (else an error naming `key`, the list), and no move numbered past the
/// last move number m3go plays ([`Notation::check_move_number`](m3go_engine::Notation::check_move_number)). A move that cannot be read or played is an
/// error with its text and, when `numbered`, its number in the list (the page sends one move at
/// a time, named by its text alone: its refusal names its number in the game).
pub fn play_listed(
    start: &Position,
    moves: &[String],
    key: &str,
    numbered: bool,
    each: impl FnMut(&Report),
) -> Result<(Position, Vec<Report>), InputError> {
    play_listed_until(start, moves, key, numbered, each, &|| false)
}

/// [`play_listed`], `stop` asked before each move: when it says `true` the moves stop there
/// with an error ([`stopped`]; the server's way to end the work of a client that left, or
/// that ran past its budget).
pub fn play_listed_until(
    start: &Position,
    moves: &[String],
    key: &str,
    numbered: bool,
    each: impl FnMut(&Report),
    stop: &dyn Fn() -> bool,
) -> Result<(Position, Vec<Report>), InputError> {
    play_listed_typed(start, moves, key, numbered, each, stop).map_err(|f| f.error)
}

/// Why [`play_listed_typed`] stopped: the error as [`play_listed`] gives it, and the move's own
/// failure typed when a move was read or played (its notation problem, or the rules' refusal
/// with its reason code and clause), for callers that report it as values (the Python module).
pub struct ListedFailure {
    pub error: InputError,
    pub cause: Option<MoveFailure>,
}

/// Why one listed move was not played.
pub enum MoveFailure {
    /// It does not read.
    Unread(m3go_engine::game::NotationError),
    /// The rules refuse it.
    Refused(Illegal),
}

/// [`play_listed_until`] with the failing move's cause kept typed ([`ListedFailure`]).
pub fn play_listed_typed(
    start: &Position,
    moves: &[String],
    key: &str,
    numbered: bool,
    mut each: impl FnMut(&Report),
    stop: &dyn Fn() -> bool,
) -> Result<(Position, Vec<Report>), Box<ListedFailure>> {
    let plain = |error: InputError| Box::new(ListedFailure { error, cause: None });
    let limit = Notation::max_moves(start.board().size());
    if moves.len() > limit {
        return Err(plain(
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
    let placed = |e: InputError, k: usize, m: &str| {
        if numbered {
            e.move_number(k as u32 + 1).text(m)
        } else {
            e.text(m)
        }
    };
    for (k, m) in moves.iter().enumerate() {
        if stop() {
            return Err(plain(stopped(k as u32 + 1)));
        }
        Notation::check_move_number(p.move_number())
            .map_err(|e| plain(placed(InputError::from(e), k, m)))?;
        let mv = Move::parse_in(m, p.rules(), p.board().size()).map_err(|e| {
            Box::new(ListedFailure {
                error: placed(InputError::from(e.clone()), k, m),
                cause: Some(MoveFailure::Unread(e)),
            })
        })?;
        let (next, r) = p.play(&mv).map_err(|e| {
            Box::new(ListedFailure {
                error: placed(InputError::illegal_move(e.to_string()), k, m),
                cause: Some(MoveFailure::Refused(e)),
            })
        })?;
        each(&r);
        reports.push(r);
        p = next;
    }
    Ok((p, reports))
}

/// The error of a replay or a list of moves stopped by its caller before move `number`.
pub fn stopped(number: u32) -> InputError {
    InputError::new("stopped by the caller before this move").move_number(number)
}

/// The history the ko rule needs, written to a position file: none, the last board (simple),
/// or all of it; under `grey-freeze: kept` (2013 rule) at least the boards back to the one on
/// which the earliest grey string still frozen was frozen (M13-FREEZE, D21:
/// [`m3go_engine::judge::boards_needed`]), so that the file gives the same frozen strings.
/// Trims the history of `setup`, a position under `rules`.
pub fn trim_history(rules: &Rules, setup: &mut Setup) {
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
pub fn position_setup(pos: &Position) -> Setup {
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
pub fn mechanical_keeping(
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
pub fn strict_keeping(
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
        let r = Record::parse_game_text(text, "t", ".").unwrap();
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
