//! Move notation (D3-NOTATION, 004 手数坐标记谱法): `黑1.B二`, `白2.A二`, `华19.一B`, `花20.二B`;
//! 黑 / 白 a black / white stone, 华 black's flower, 花 white's flower, then the move number, a
//! dot and the point. `黑291.pass` is a pass. A bare point (`七A`) or `pass` takes the turn from
//! the schedule.
//!
//! Two claims change the turn a move takes:
//! - Dullstone's emergency conversion (D3-EMERGENCY, register D19): the player's colour prefix
//!   with the number of his flower turn, `黑19.一B` on black's 华 turn 19; `华19.一B=黑` (`=白`
//!   for white) is read the same way. m3go writes `黑19.一B`.
//! - Flystone's chosen flystone (S3-ROUND, register D20): a flower prefix right after the
//!   player's own move, `华16.三三` where move 16 would otherwise be white's.
//!
//! The team format of 000 (M16-NOTATION, "回合式坐标记谱法", register D22) numbers moves by round
//! and seat: `33B.H九` is B's grey stone of round 33, `31A.pass` a pass; `31C.七A` is white's
//! stone of round 31. The other forms (`黑61.七A`) are accepted as well.

use crate::board::coord::{CoordError, Labels, Point};
use crate::board::grid::Colour;
use crate::game::moves::{Action, Move};
use crate::game::order::{seats_of_round, team_move_number, Seat, StoneKind, TeamTurn, Turn};
use crate::rules::{Rules, Schedule};
use std::fmt;

/// The largest move number m3go reads or plays: a position's `move:` (the number of the next
/// move) and a record's moves are at most this, and a move is played only while the number of the
/// position after it stays within it ([`Notation::check_move_number`]), so no move number wraps and every
/// position m3go writes reads back.
pub(crate) const MAX_MOVE_NUMBER: u32 = 1_000_000;

impl Notation {
    /// The most moves m3go reads or plays in one go on a board of `size` (a record, a request's
    /// moves, the moves of `m3go play`, a position's history): ten per point, 3610 on 19×19.
    pub fn max_moves(size: usize) -> usize {
        // saturating: a size not yet checked (a position file's `size:`) must not overflow here
        10usize.saturating_mul(size).saturating_mul(size)
    }

    /// The error of playing the move numbered `n` when that would pass `MAX_MOVE_NUMBER` (the
    /// position after it would be numbered past the limit). `Ok` for the moves that may be played.
    pub fn check_move_number(n: u32) -> Result<(), MovePastLimit> {
        if n < MAX_MOVE_NUMBER {
            Ok(())
        } else {
            Err(MovePastLimit { number: n })
        }
    }
}

/// A move numbered past the last move m3go plays ([`Notation::check_move_number`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MovePastLimit {
    /// The number of the move.
    pub number: u32,
}

impl fmt::Display for MovePastLimit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "move {} is past the last move m3go plays: expected move numbers up to {} (a \
             position's `move:` is at most {MAX_MOVE_NUMBER})",
            self.number,
            MAX_MOVE_NUMBER - 1
        )
    }
}

impl std::error::Error for MovePastLimit {}

impl From<MovePastLimit> for crate::error::InputError {
    fn from(e: MovePastLimit) -> Self {
        crate::error::InputError::new(e.to_string())
    }
}

/// Why a move could not be read: the move as written (when known) and the problem.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotationError {
    /// The move as written (trimmed).
    pub text: Option<String>,
    pub problem: NotationProblem,
}

/// What is wrong with a written move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NotationProblem {
    /// The point is not a coordinate of the board.
    Coord(CoordError),
    /// Nothing was written.
    Empty,
    /// The round of a team-format move is not a number.
    NotARoundNumber(String),
    /// Round 0.
    RoundZero,
    /// The round and seat name a move past the last move number.
    TeamMovePastTheLimit { round: u32, number: u32 },
    /// The seat does not play in that round; `seats` lists who does.
    SeatNotInRound {
        seat: String,
        round: u32,
        seats: String,
    },
    /// A stone symbol without `NUMBER.` after it.
    NoNumber(char),
    /// The move number is not a number.
    NotAMoveNumber(String),
    /// Move 0.
    MoveZero,
    /// A conversion suffix other than `=黑` / `=白`.
    BadConversion(String),
    /// A conversion claimed by a move that is not that player's flower.
    NotOwnFlower { colour: Colour },
    /// `=pass` after a pass: only a move the rules refused is replaced by a pass.
    ReplacedPass,
}

impl NotationProblem {
    /// Every code [`NotationProblem::code`] gives, once each.
    pub const CODES: [&'static str; 13] = [
        "off-board",
        "malformed-point",
        "empty",
        "bad-round",
        "round-zero",
        "round-past-the-limit",
        "seat-not-in-round",
        "no-number",
        "bad-move-number",
        "move-zero",
        "bad-conversion",
        "not-own-flower",
        "replaced-pass",
    ];

    /// A stable code for the problem, one per variant (a coordinate's split into `off-board`,
    /// a point off the board, and `malformed-point`, one that is no coordinate at all): what
    /// the Python package's `BadMoveError.problem` says.
    pub fn code(&self) -> &'static str {
        use crate::board::coord::CoordProblem;
        match self {
            NotationProblem::Coord(CoordError {
                problem: CoordProblem::OffBoard { .. },
                ..
            }) => "off-board",
            NotationProblem::Coord(_) => "malformed-point",
            NotationProblem::Empty => "empty",
            NotationProblem::NotARoundNumber(_) => "bad-round",
            NotationProblem::RoundZero => "round-zero",
            NotationProblem::TeamMovePastTheLimit { .. } => "round-past-the-limit",
            NotationProblem::SeatNotInRound { .. } => "seat-not-in-round",
            NotationProblem::NoNumber(_) => "no-number",
            NotationProblem::NotAMoveNumber(_) => "bad-move-number",
            NotationProblem::MoveZero => "move-zero",
            NotationProblem::BadConversion(_) => "bad-conversion",
            NotationProblem::NotOwnFlower { .. } => "not-own-flower",
            NotationProblem::ReplacedPass => "replaced-pass",
        }
    }

    /// The refusal reason the protocol gives a probe with this problem (spec/README.md, the
    /// reason codes): `off-board` for a point off the board, `malformed` for anything else.
    pub fn reason(&self) -> &'static str {
        match self.code() {
            "off-board" => "off-board",
            _ => "malformed",
        }
    }
}

impl NotationError {
    fn of(text: &str, problem: NotationProblem) -> NotationError {
        NotationError {
            text: Some(text.to_string()),
            problem,
        }
    }
}

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(t) = &self.text {
            write!(f, "move `{}`: ", crate::error::InputError::quote(t))?;
        }
        match &self.problem {
            NotationProblem::Coord(e) => write!(f, "{e}"),
            NotationProblem::Empty => {
                f.write_str("empty move: expected e.g. `黑291.七A`, `七A` or `pass`")
            }
            NotationProblem::TeamMovePastTheLimit { round, number } => write!(
                f,
                "round {round} names move {number}: expected a move number of 1 to {MAX_MOVE_NUMBER}"
            ),
            NotationProblem::NotARoundNumber(d) => write!(
                f,
                "`{}` is not a round number: expected 1 to {}",
                crate::error::InputError::quote(d),
                MAX_MOVE_NUMBER / 2
            ),
            NotationProblem::RoundZero => f.write_str("rounds start at 1"),
            NotationProblem::SeatNotInRound { seat, round, seats } => write!(
                f,
                "{seat} does not play in round {round}: round {round} is {seats}"
            ),
            NotationProblem::NoNumber(first) => write!(
                f,
                "expected a move number and a dot after `{first}`, as in `{first}291.七A`"
            ),
            NotationProblem::NotAMoveNumber(n) => write!(
                f,
                "`{}` is not a move number: expected 1 to {MAX_MOVE_NUMBER}",
                crate::error::InputError::quote(n)
            ),
            NotationProblem::MoveZero => f.write_str("move numbers start at 1"),
            NotationProblem::ReplacedPass => f.write_str(
                "a pass cannot be replaced by a pass: expected a point before `=pass`",
            ),
            NotationProblem::BadConversion(other) => {
                write!(f, "`={other}`: expected `=黑` or `=白`")
            }
            NotationProblem::NotOwnFlower { colour } => write!(
                f,
                "only a flower of {} (`{}`) can become a {} stone",
                colour.name(),
                Turn {
                    player: *colour,
                    kind: StoneKind::Flower
                }
                .symbol(),
                colour.name()
            ),
        }
    }
}

impl std::error::Error for NotationError {}

/// As a bad input, with this error's message.
impl From<NotationError> for crate::error::InputError {
    fn from(e: NotationError) -> Self {
        crate::error::InputError::new(e.to_string())
    }
}

/// The turn named by a notation symbol (Q20-HUA, D3-HUA: 华 black's flower, 花 white's), or by
/// its ASCII name of the Latin labels ([`Turn::symbol_in`]: `K` 黑, `W` 白, `U` 华, `V` 花).
pub(crate) fn turn_of_symbol(c: char) -> Option<Turn> {
    let (player, kind) = match c {
        '黑' | 'K' => (Colour::Black, StoneKind::Own),
        '白' | 'W' => (Colour::White, StoneKind::Own),
        '华' | 'U' => (Colour::Black, StoneKind::Flower),
        '花' | 'V' => (Colour::White, StoneKind::Flower),
        _ => return None,
    };
    Some(Turn { player, kind })
}

/// `e` as the error of the move written `t`.
fn with_text(t: &str, e: NotationError) -> NotationError {
    NotationError {
        text: Some(t.to_string()),
        problem: e.problem,
    }
}

/// Whether `t` is a pass written without a move number: `pass` (any case) or 003's `虚着`.
pub(crate) fn is_pass_word(t: &str) -> bool {
    t.eq_ignore_ascii_case("pass") || t == "虚着"
}

impl Action {
    /// A point in either label system, or a pass (`pass`, `虚着`), with no move number: what a record
    /// or a replay lists.
    pub fn parse(text: &str, size: usize) -> Result<Action, NotationError> {
        let t = text.trim();
        if is_pass_word(t) {
            return Ok(Action::Pass);
        }
        Point::parse(t, size)
            .map(Action::Place)
            .map_err(|e| NotationError {
                text: None,
                problem: NotationProblem::Coord(e),
            })
    }
}

impl Move {
    /// D3-NOTATION — "手数坐标记谱法，如上图：黑1.B二，白2.A二；……华19.一B，花20.二B" (004). Reads a move on a
    /// board of `size`; team-format moves (`33B.H九`) are numbered with the grey players joining in
    /// round 31 (use [`Move::parse_in`] for other rules).
    pub fn parse(text: &str, size: usize) -> Result<Move, NotationError> {
        parse_with(text, size, 31)
    }

    /// D3-NOTATION / M16-NOTATION — reads a move under `rules` (the team format's
    /// `team-grey-start` decides the move number of `33B.H九`).
    pub fn parse_in(text: &str, rules: &Rules, size: usize) -> Result<Move, NotationError> {
        parse_with(text, size, rules.team_grey_start)
    }
}

/// A move as m3go writes it in the list of moves a game went through (a game file, the moves of
/// the play protocol's and the referee's requests, `m3go play`'s and `protocol`'s moves): a move
/// played as written, or a move the rules refused with the pass played in its place, which does
/// not count towards the end of the game (M20-REPLAY-PASS), written `黑7.七A=pass` (or
/// `=虚着`).
///
/// ```
/// use m3go_engine::game::Written;
/// use m3go_engine::{Action, Rules};
///
/// let rules = Rules::preset("m3go-2020")?;
/// let w = Written::parse_in("白64.四O=pass", &rules, 19)?;
/// assert!(w.replaced);
/// assert_eq!(w.played().action, Action::Pass);
/// assert_eq!(w.played().number, Some(64));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Written {
    /// The move as written (before `=pass`).
    pub mv: Move,
    /// Whether the rules refused it and a pass was played instead.
    pub replaced: bool,
}

impl Written {
    /// What m3go writes after a refused move replaced by a pass.
    pub const REPLACED: &'static str = "=pass";

    /// Reads a move of a list under `rules` on a board of `size` ([`Move::parse_in`]), with
    /// `=pass` or `=虚着` after a move the rules refused.
    pub fn parse_in(text: &str, rules: &Rules, size: usize) -> Result<Written, NotationError> {
        let (written, replaced) = strip_replaced(text.trim());
        let mv = Move::parse_in(written, rules, size)?;
        if replaced && mv.action == Action::Pass {
            return Err(NotationError::of(text.trim(), NotationProblem::ReplacedPass));
        }
        Ok(Written { mv, replaced })
    }

    /// The move played: the written move, or the pass played in its place (with the written
    /// move's number and turn).
    pub fn played(&self) -> Move {
        if self.replaced {
            Move {
                action: Action::Pass,
                ..self.mv
            }
        } else {
            self.mv
        }
    }
}

/// `text` without its `=pass` (or `=虚着`), and whether it had one: a move refused and replaced
/// by a pass ([`Written`]; a game file's moves are read with it too).
pub(crate) fn strip_replaced(text: &str) -> (&str, bool) {
    match text
        .strip_suffix(Written::REPLACED)
        .or_else(|| text.strip_suffix("=虚着"))
    {
        Some(w) => (w, true),
        None => (text, false),
    }
}

impl std::str::FromStr for Move {
    type Err = NotationError;

    /// Reads a move as [`Move::parse`] does, on the label table of the largest board (19×19,
    /// `I`…`九`): a point is written by its tengen-origin labels, the same on every board, and
    /// whether it lies on the board of the game is checked when the move is played (an
    /// off-board point is refused then). A move number is read as [`Move::parse`] reads it (the
    /// team format's rounds with the grey players joining in round 31; [`Move::parse_in`] reads
    /// them under other rules). [`Move::parse`] with the board's size refuses an off-board point
    /// as it reads it.
    ///
    /// ```
    /// use m3go_engine::{Action, Move, Point};
    ///
    /// let m: Move = "黑291.七A".parse().unwrap();
    /// assert_eq!(m.action, Action::Place(Point::new(7, -1)));
    /// assert_eq!(m.number, Some(291));
    /// assert_eq!(m.turn.map(|t| t.symbol()), Some('黑'));
    /// assert_eq!("pass".parse::<Move>().unwrap(), Move::pass());
    /// assert_eq!("七A".parse::<Move>().unwrap(), Move::stone(Point::new(7, -1)));
    /// assert!("七Q".parse::<Move>().is_err());
    /// ```
    fn from_str(text: &str) -> Result<Move, NotationError> {
        Move::parse(text, crate::board::coord::MAX_SIZE)
    }
}

/// Whether `t` is written in 000's round notation (`33B.H九`: digits, a seat letter A–D, a dot),
/// whether or not its round, seat and point are valid: no point is written so.
pub(crate) fn is_round_notation(t: &str) -> bool {
    let rest = t.trim_start_matches(|c: char| c.is_ascii_digit());
    rest.len() < t.len() && {
        let mut chars = rest.chars();
        chars.next().and_then(Seat::from_letter).is_some() && chars.as_str().starts_with('.')
    }
}

/// M16-NOTATION — "类似国际象棋记谱方式的回合式坐标记谱法" (000): `33B.H九` = round 33, seat B, point
/// H九. `None` when `t` is not of that form (digits, a seat letter A–D, a dot).
fn parse_team(t: &str, size: usize, grey_start: u32) -> Option<Result<Move, NotationError>> {
    if !is_round_notation(t) {
        return None;
    }
    let digits: String = t.chars().take_while(|c| c.is_ascii_digit()).collect();
    let mut chars = t[digits.len()..].chars();
    let seat = chars.next().and_then(Seat::from_letter)?;
    let point = chars.as_str().strip_prefix('.')?;
    Some((|| {
        let round: u32 = digits
            .parse()
            .ok()
            .filter(|&r| r <= MAX_MOVE_NUMBER / 2)
            .ok_or_else(|| {
                NotationError::of(t, NotationProblem::NotARoundNumber(digits.clone()))
            })?;
        if round == 0 {
            return Err(NotationError::of(t, NotationProblem::RoundZero));
        }
        let number = team_move_number(round, seat, grey_start).ok_or_else(|| {
            let seats: Vec<String> = seats_of_round(round, grey_start)
                .iter()
                .map(|s| s.describe().to_string())
                .collect();
            NotationError::of(
                t,
                NotationProblem::SeatNotInRound {
                    seat: seat.describe().to_string(),
                    round,
                    seats: seats.join(", "),
                },
            )
        })?;
        if number > MAX_MOVE_NUMBER {
            return Err(NotationError::of(
                t,
                NotationProblem::TeamMovePastTheLimit { round, number },
            ));
        }
        let action = Action::parse(point, size).map_err(|e| with_text(t, e))?;
        Ok(Move {
            action,
            number: Some(number),
            turn: Some(seat.turn()),
        })
    })())
}

fn parse_with(text: &str, size: usize, grey_start: u32) -> Result<Move, NotationError> {
    let t = text.trim();
    if let Some(m) = parse_team(t, size, grey_start) {
        return m;
    }
    let mut chars = t.chars();
    let Some(first) = chars.next() else {
        return Err(NotationError {
            text: None,
            problem: NotationProblem::Empty,
        });
    };
    let Some(turn) = turn_of_symbol(first) else {
        return Action::parse(t, size)
            .map(|action| Move {
                action,
                number: None,
                turn: None,
            })
            .map_err(|e| with_text(t, e));
    };
    let rest = chars.as_str();
    let Some((num, point)) = rest.split_once('.') else {
        return Err(NotationError::of(t, NotationProblem::NoNumber(first)));
    };
    let number: u32 = num
        .trim()
        .parse()
        .ok()
        .filter(|&n| n <= MAX_MOVE_NUMBER)
        .ok_or_else(|| NotationError::of(t, NotationProblem::NotAMoveNumber(num.to_string())))?;
    if number == 0 {
        return Err(NotationError::of(t, NotationProblem::MoveZero));
    }
    let (point, turn) = match point.split_once('=') {
        None => (point, turn),
        Some((pt, colour)) => (pt, converted_turn(t, turn, colour.trim())?),
    };
    let action = Action::parse(point, size).map_err(|e| with_text(t, e))?;
    Ok(Move {
        action,
        number: Some(number),
        turn: Some(turn),
    })
}

/// D3-EMERGENCY-COLOUR — "此方为黑方时，则本手花子变为黑子；此方为白方时，则本手花子变为白子" (004): the
/// `=黑` / `=白` suffix of a flower move (`华19.一B=黑`) claims the player's own-colour stone.
fn converted_turn(t: &str, turn: Turn, colour: &str) -> Result<Turn, NotationError> {
    let c = match colour {
        "黑" | "B" | "b" | "K" => Colour::Black,
        "白" | "W" | "w" => Colour::White,
        other => {
            return Err(NotationError::of(
                t,
                NotationProblem::BadConversion(other.to_string()),
            ))
        }
    };
    if turn.kind != StoneKind::Flower || turn.player != c {
        return Err(NotationError::of(
            t,
            NotationProblem::NotOwnFlower { colour: c },
        ));
    }
    Ok(Turn {
        player: c,
        kind: StoneKind::Own,
    })
}

/// A move in notation, typed: what the rules' records write before the dot (a turn's prefix and
/// move number, `黑291`; a team round and seat, `33B`: no point label in either) and the action.
/// Its point is written in a label system only at the edge ([`Notation::format`]); displayed
/// and serialized in the Chinese labels (`黑291.七A`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Notation {
    pub prefix: Prefix,
    pub action: Action,
}

/// What a move's notation writes before the dot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Prefix {
    /// The turn's symbol and the move number (`华19`).
    Numbered(Turn, u32),
    /// The team format's round and seat (`33B`).
    Round(TeamTurn),
}

impl Notation {
    /// D3-NOTATION — a move as the rules' records write it: the team format by round and seat
    /// (the seat of move `number`, M16-NOTATION), every other schedule by move number and the
    /// turn's prefix (`黑19.一B`, which on a flower turn is the emergency conversion).
    pub fn new(rules: &Rules, number: u32, turn: Turn, action: Action) -> Notation {
        let prefix = if rules.schedule == Schedule::Team2016 {
            // M16-NOTATION — "萌式三色围棋通常采用类似国际象棋记谱方式的回合式坐标记谱法" (000): by round
            // and seat, then a dot and the point (`33B.H九`, `31A.pass`)
            Prefix::Round(TeamTurn::of_move(number, rules.team_grey_start))
        } else {
            Prefix::Numbered(turn, number)
        };
        Notation { prefix, action }
    }

    /// The notation with its point in the label system `labels` (`华19.一B`, `31A.pass`).
    pub fn format(&self, labels: Labels) -> String {
        let mut out = String::new();
        // writing into a String cannot fail
        let _ = self.write_in(labels, &mut out);
        out
    }

    /// [`Notation::format`] written to `w` piece by piece, without a string of its own.
    fn write_in(&self, labels: Labels, w: &mut impl fmt::Write) -> fmt::Result {
        match self.prefix {
            Prefix::Numbered(turn, number) => write!(w, "{}{number}.", turn.symbol_in(labels))?,
            Prefix::Round(turn) => write!(w, "{turn}.")?,
        }
        match self.action {
            Action::Pass => w.write_str("pass"),
            Action::Place(p) => w.write_str(p.write_in(labels, &mut Default::default())),
        }
    }
}

impl fmt::Display for Notation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write_in(Labels::Chinese, f)
    }
}

impl serde::Serialize for Notation {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(&InLabels(self, crate::board::coord::Labels::serializing()))
    }
}

/// A notation written in a label system (what [`Notation`]'s JSON writes).
struct InLabels<'a>(&'a Notation, Labels);

impl fmt::Display for InLabels<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.write_in(self.1, f)
    }
}

impl Notation {
    /// D3-NOTATION — writes a move in the documents' notation: prefix, number, `.`, point (`华19.一B`).
    pub fn format_move(turn: Turn, number: u32, action: Action) -> String {
        Notation {
            prefix: Prefix::Numbered(turn, number),
            action,
        }
        .to_string()
    }

    /// D3-NOTATION — a move as the rules' records write it ([`Notation::new`], in the Chinese
    /// labels).
    pub fn format_numbered(rules: &Rules, number: u32, turn: Turn, action: Action) -> String {
        Notation::new(rules, number, turn, action).to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A team-format move written by round and seat (`33B.H九`, `31A.pass`).
    fn format_round(turn: TeamTurn, action: Action) -> String {
        Notation {
            prefix: Prefix::Round(turn),
            action,
        }
        .to_string()
    }

    /// A team-format round whose seat names a move past [`MAX_MOVE_NUMBER`] is refused (the fuzz
    /// target `notation` found `468888C.E八`, read as move 1250348, which did not read back).
    #[test]
    fn d3_notation_team_round_past_the_last_move_number_is_refused() {
        let e = Move::parse("468888C.E八", 19).expect_err("past the limit");
        assert!(
            e.to_string()
                .contains("names move 1250348: expected a move number of 1 to 1000000"),
            "{e}"
        );
        assert!(Move::parse("1C.E八", 19).is_ok());
    }

    /// Each problem has its stable code (the Python package's `BadMoveError.problem`), listed in
    /// `CODES`; the protocol's probe reason is `off-board` for a point off the board and
    /// `malformed` for every other.
    #[test]
    fn d3_notation_problem_codes() {
        let code = |text: &str, size: usize| {
            let e = Move::parse(text, size).expect_err(text);
            assert!(NotationProblem::CODES.contains(&e.problem.code()), "{text}");
            (e.problem.code(), e.problem.reason())
        };
        assert_eq!(code("黑1.九九", 3), ("off-board", "off-board"));
        assert_eq!(code("(5,0)", 3), ("off-board", "off-board"));
        assert_eq!(code("黑1.Z九", 19), ("malformed-point", "malformed"));
        assert_eq!(code("hello", 19), ("malformed-point", "malformed"));
        assert_eq!(code("", 19), ("empty", "malformed"));
        assert_eq!(code("黑0.七A", 19), ("move-zero", "malformed"));
        assert_eq!(code("黑x.七A", 19), ("bad-move-number", "malformed"));
        assert_eq!(code("黑七A", 19), ("no-number", "malformed"));
        assert_eq!(code("0A.七A", 19), ("round-zero", "malformed"));
        assert_eq!(code("32B.H九", 19), ("seat-not-in-round", "malformed"));
        assert_eq!(
            code("468888C.E八", 19),
            ("round-past-the-limit", "malformed")
        );
        let mut codes = NotationProblem::CODES.to_vec();
        codes.sort_unstable();
        codes.dedup();
        assert_eq!(codes.len(), NotationProblem::CODES.len());
    }

    #[test]
    fn d3_notation_examples_of_004() {
        let m = Move::parse("黑1.B二", 9).unwrap();
        assert_eq!(m.action, Action::Place(Point::new(-2, 2)));
        assert_eq!(m.number, Some(1));
        assert_eq!(m.turn.unwrap().symbol(), '黑');
        let m = Move::parse("花20.二B", 9).unwrap();
        assert_eq!(m.action, Action::Place(Point::new(2, -2)));
        assert_eq!(m.turn.unwrap().kind, StoneKind::Flower);
        assert_eq!(
            Notation::format_move(m.turn.unwrap(), 20, m.action),
            "花20.二B"
        );
        assert_eq!(Move::parse("黑291.pass", 19).unwrap().action, Action::Pass);
        assert!(Move::parse("黑1.Z九", 19).is_err());
        assert!(Move::parse("黑1.一B=黑", 19).is_err());
        assert!(Move::parse("黑.七A", 19).is_err());
        assert!(Move::parse("黑七A", 19).is_err());
    }

    #[test]
    fn m16_notation_round_and_seat() {
        let m = Move::parse("33B.H九", 19).unwrap();
        assert_eq!(m.number, Some(67));
        assert_eq!(m.turn.unwrap().symbol(), '华');
        assert_eq!(m.action, Action::Place(Point::new(-8, 9)));
        let m = Move::parse("31A.pass", 19).unwrap();
        assert_eq!((m.number, m.action), (Some(61), Action::Pass));
        let e = Move::parse("32B.H九", 19).unwrap_err();
        assert!(
            e.to_string()
                .contains("round 32 is A (black stones), C (white stones)"),
            "{e}"
        );
        let rules = Rules::preset("m3go-2016").unwrap();
        let t = crate::game::order::TeamTurn::of_move(67, 31).seat.turn();
        assert_eq!(
            Notation::format_numbered(&rules, 67, t, Action::Place(Point::new(-8, 9))),
            "33B.H九"
        );
        let r5 = Rules {
            team_grey_start: 5,
            ..rules.clone()
        };
        assert_eq!(Move::parse_in("5D.七A", &r5, 19).unwrap().number, Some(11));
        let t = crate::game::order::TeamTurn {
            round: 36,
            seat: Seat::B,
        };
        assert_eq!(format_round(t, Action::Pass), "36B.pass");
    }

    #[test]
    fn d3_emergency_conversion_notation() {
        let m = Move::parse("华19.一B=黑", 9).unwrap();
        assert_eq!(
            m.turn,
            Some(Turn {
                player: Colour::Black,
                kind: StoneKind::Own
            })
        );
        assert_eq!(m.number, Some(19));
        assert_eq!(Move::parse("黑19.一B", 9).unwrap().turn, m.turn);
        assert!(Move::parse("华19.一B=白", 9).is_err());
        assert!(Move::parse("花20.一B=白", 9).is_ok());
        assert!(Move::parse("花20.一B=X", 9).is_err());
    }
}
