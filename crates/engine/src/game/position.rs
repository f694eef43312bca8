//! The position: the direct board, the rules, the history the ko rule needs, whose move it is,
//! when the game ends, and the engine its moves run on. Every `impl Position` is here or in a
//! submodule named by its concept: [`play`] the reference move (with its report), `advance`
//! the engine choice, the next position without a report and the move played in place, `to_setup` the position written
//! back as a setup ([`Position::to_setup`]) or read again under other rules. It is built from a
//! validated setup (the setup module).

#[cfg(feature = "testing")]
pub mod advance;
#[cfg(not(feature = "testing"))]
pub(crate) mod advance;
#[cfg(feature = "testing")]
pub mod play;
#[cfg(not(feature = "testing"))]
pub(crate) mod play;
mod to_setup;

use crate::board::coord::Point;
use crate::board::grid::Board;
use crate::game::advance::Engine;
use crate::game::fast::FastPosition;
use crate::game::history::History;
use crate::game::moves::Action;
use crate::game::order::{
    after_move, flystone_schedule, game_over_in, game_turn, FlystoneState, Turn,
};
use crate::judge::analysis::Analysis;
use crate::judge::freeze::{freezes, frozen_after, frozen_of, FrozenString};
use crate::judge::scoring::{Score, ScoreError};
use crate::rules::{Ko, Rules, Schedule};
use std::sync::{Arc, OnceLock};

/// A legal, settled position: the direct board, the rules, whose move it is, and the history
/// the ko rule needs. Built only from a validated `Setup` (`Setup::to_position` in the setup
/// module above this one, which lists every problem it finds) and by playing moves; read
/// through its accessors. It carries the [`Engine`] its moves are played on (the fast engine
/// unless set otherwise, [`Position::with_engine`]); the positions its moves lead to inherit
/// it. Two positions are equal when their game is: the engine is not compared.
///
/// ```
/// use m3go_engine::game::from_yaml;
/// use m3go_engine::{Move, Setup, StoneKind};
///
/// let yaml = "rules: m3go-2020
/// move: 289
/// diagram: |
///   . . . . .
///   . X X X .
///   . X . X #
///   . X X X .
///   . . . O O
/// ";
/// let pos = from_yaml::<Setup>(yaml, "example.yaml")?.to_position("example.yaml")?;
/// assert_eq!(pos.move_number(), 289);
/// assert_eq!(pos.turn().kind, StoneKind::Flower); // move 289 is black's flower (华)
/// assert!(!pos.legal_moves().is_empty());
///
/// // the next position, decided by the fast engine kept inside the position
/// let mv = Move::parse_in("二二", pos.rules(), pos.board().size())?;
/// let next = pos.play(mv)?;
/// assert_eq!(next.move_number(), 290);
/// // the same move on the clause-by-clause reference, with its report
/// let (same, report) = pos.play_reported(&mv)?;
/// assert_eq!(same, next);
/// assert_eq!(report.notation.to_string(), "华289.二二");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone)]
pub struct Position {
    pub(super) rules: Rules,
    pub(super) board: Board,
    /// Number of the next move (1-based).
    pub(super) move_number: u32,
    /// Earlier direct boards, oldest first; the last is the board before the previous move.
    /// Shared with the positions its moves lead to (a move appends one board).
    pub(super) history: History,
    /// How many of the most recent moves were passes.
    pub(super) trailing_passes: u32,
    /// Points of stones agreed dead, for scoring.
    pub(super) dead: Vec<Point>,
    /// Flystone games: the random timings and the flystones thrown so far (S3-ROUND). `None`
    /// under other schedules; under `flystone`, `None` means the timings drawn from the seed
    /// and no flystone thrown yet.
    pub(super) flystone: Option<FlystoneState>,
    /// The machinery its moves, legal moves, perft and readings run on.
    pub(super) engine: Engine,
    /// M13-FREEZE under `grey-freeze: kept` (D21): the grey strings whose attribute is frozen,
    /// derived from the history and the board ([`frozen_of`]; empty under other rules). Not
    /// compared: it is a function of the compared fields.
    pub(super) frozen: Vec<FrozenString>,
    /// This position on the fast engine (the incremental state): built once, the first time a
    /// move, a legal-move list or a walk needs it, and kept by every move played from here
    /// ([`Position::play`], [`Position::play_reported`], [`Position::play_in_place`]), so that
    /// a move costs the same at move 280 as at move 10. Not compared: it is a function of the
    /// compared fields.
    pub(super) fast: OnceLock<Arc<FastPosition>>,
}

impl std::fmt::Debug for Position {
    /// The position's fields, without the fast form it keeps (derived state, and large).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Position")
            .field("rules", &self.rules)
            .field("board", &self.board)
            .field("move_number", &self.move_number)
            .field("history", &self.history)
            .field("trailing_passes", &self.trailing_passes)
            .field("dead", &self.dead)
            .field("flystone", &self.flystone)
            .field("engine", &self.engine)
            .field("frozen", &self.frozen)
            .finish_non_exhaustive()
    }
}

impl PartialEq for Position {
    fn eq(&self, other: &Position) -> bool {
        self.rules == other.rules
            && self.board == other.board
            && self.move_number == other.move_number
            && self.history == other.history
            && self.trailing_passes == other.trailing_passes
            && self.dead == other.dead
            && self.flystone == other.flystone
    }
}

impl Eq for Position {}

/// The parts of a position, not yet validated: what crate code assembles (test generators,
/// symmetric images), checked by `PositionParts::validate` (in the setup module, the check
/// `Setup::to_position` also runs). The next position of a move is built from the parts of a
/// valid one without that check (`Position::successor`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct PositionParts {
    pub rules: Rules,
    pub board: Board,
    pub move_number: u32,
    pub history: Vec<Board>,
    pub trailing_passes: u32,
    pub dead: Vec<Point>,
    pub flystone: Option<FlystoneState>,
}

impl Position {
    /// The position of parts already checked: called by the validation in the setup module,
    /// after it found no problem.
    pub(super) fn from_checked(parts: PositionParts) -> Position {
        let PositionParts {
            rules,
            board,
            move_number,
            history,
            trailing_passes,
            dead,
            flystone,
        } = parts;
        let frozen = frozen_of(&rules, &history, &board);
        Position {
            rules,
            board,
            move_number,
            history: History::from_boards(history),
            trailing_passes,
            dead,
            flystone,
            engine: Engine::default(),
            frozen,
            fast: OnceLock::new(),
        }
    }

    /// The parts of this position (to build a changed copy that is validated again).
    pub(crate) fn to_parts(&self) -> PositionParts {
        PositionParts {
            rules: self.rules.clone(),
            board: self.board.clone(),
            move_number: self.move_number,
            history: self.history.to_vec(),
            trailing_passes: self.trailing_passes,
            dead: self.dead.clone(),
            flystone: self.flystone.clone(),
        }
    }

    /// The engine this position's moves are played on ([`Engine::Fast`] unless set).
    pub fn engine(&self) -> Engine {
        self.engine
    }

    /// This position on `engine`: its moves, legal moves, perft and readings run there, and so
    /// do those of the positions they lead to. Set once where a command loads its position
    /// (`--reference`, [`Engine::from_flag`]).
    pub fn with_engine(mut self, engine: Engine) -> Position {
        self.engine = engine;
        self
    }

    /// The rules the game is played under.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The direct board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The number of the next move (1-based).
    pub fn move_number(&self) -> u32 {
        self.move_number
    }

    /// Earlier direct boards, oldest first; the last is the board before the previous move.
    pub fn history(&self) -> &History {
        &self.history
    }

    /// How many of the most recent moves were passes.
    pub fn trailing_passes(&self) -> u32 {
        self.trailing_passes
    }

    /// Points of stones agreed dead, for scoring.
    pub fn dead(&self) -> &[Point] {
        &self.dead
    }

    /// M13-FREEZE (`grey-freeze: kept`, D21): the grey strings whose attribute is frozen, as
    /// the board and the history give them (`frozen_of`); empty under rules that do not
    /// freeze.
    pub fn frozen(&self) -> &[FrozenString] {
        &self.frozen
    }

    /// The analysis of the board ([`Analysis::with_frozen`]: the frozen grey strings keep
    /// their attribute).
    pub fn analysis(&self) -> Analysis {
        Analysis::with_frozen(&self.board, &self.rules, &self.frozen)
    }

    /// The score of this position: its analysis, its rules and its dead stones
    /// ([`Score::of`]).
    pub fn score(&self) -> Result<Score, ScoreError> {
        Score::of(&self.analysis(), &self.rules, &self.dead)
    }

    /// The Flystone record as given (`None` under other schedules, and under `flystone` for the
    /// timings drawn from the seed with nothing thrown); [`Position::flystone_state`] gives the
    /// state it stands for.
    pub fn flystone(&self) -> Option<&FlystoneState> {
        self.flystone.as_ref()
    }

    /// Starts the count of trailing passes again at 0: in 003's mechanical replay a refused move
    /// of the record is replaced by a pass that never ends the game (M20-REPLAY-PASS).
    pub fn forget_trailing_passes(&mut self) {
        self.trailing_passes = 0;
        // the fast form counted the pass: its count set back too, the form kept (building it
        // again would analyse the whole board at the next move)
        if let Some(fast) = self.fast.take() {
            let mut fast = Arc::unwrap_or_clone(fast);
            fast.forget_trailing_passes();
            self.put_fast(Arc::new(fast));
        }
    }
}

impl FastPosition {
    /// The fast form of `pos` (its rules, board, history, move number, trailing passes and
    /// Flystone state), built afresh; total, as [`FastPosition::from_state`] is: the fast
    /// engine implements every rule set. Inside the crate the position's own, kept form is
    /// reached through `Position::with_fast`.
    #[cfg_attr(feature = "testing", visibility::make(pub))]
    pub(crate) fn new(pos: &Position) -> FastPosition {
        // the earlier boards it reads: every one under positional and situational ko, else
        // only the board before the previous move (simple ko), so that building it does not
        // grow with the game
        let earlier: Vec<Board> = if matches!(pos.rules.ko, Ko::Positional | Ko::Situational) {
            pos.history.to_vec()
        } else {
            pos.history.last().cloned().into_iter().collect()
        };
        FastPosition::from_state_frozen(
            &pos.rules,
            &pos.board,
            &earlier,
            pos.move_number,
            pos.trailing_passes,
            pos.flystone_state(),
            pos.frozen.clone(),
        )
    }
}

impl Position {
    /// A copy of this position's fast form (the one it keeps, built now if it has none).
    #[cfg(feature = "testing")]
    pub fn fast(&self) -> FastPosition {
        self.with_fast(FastPosition::clone)
    }

    /// `work` on this position's fast form, borrowed: the one it keeps, built (and kept) the
    /// first time it is needed.
    pub(crate) fn with_fast<R>(&self, work: impl FnOnce(&FastPosition) -> R) -> R {
        work(self.fast.get_or_init(|| Arc::new(FastPosition::new(self))))
    }

    /// The fast form, taken out of this position to be changed in place (built if it had none);
    /// put back with [`Position::put_fast`].
    pub(super) fn take_fast(&mut self) -> Arc<FastPosition> {
        match self.fast.take() {
            Some(f) => f,
            None => Arc::new(FastPosition::new(self)),
        }
    }

    /// Gives this position its fast form back (after [`Position::take_fast`]).
    pub(super) fn put_fast(&mut self, fast: Arc<FastPosition>) {
        self.fast = OnceLock::from(fast);
    }

    /// This position with `fast`, its form on the fast engine, kept for the next move.
    pub(super) fn keeping_fast(mut self, fast: FastPosition) -> Position {
        self.fast = OnceLock::from(Arc::new(fast));
        self
    }

    /// Whether this position keeps its fast form (for the tests that check it).
    #[cfg(feature = "testing")]
    pub fn keeps_fast(&self) -> bool {
        self.fast.get().is_some()
    }
}

impl Position {
    /// The turn of the next move.
    pub fn turn(&self) -> Turn {
        self.turn_of(self.move_number)
    }

    /// The turn of move `n` of this game: the rules' schedule (M20-ORDER, M16-TEAM-CYCLE), and
    /// under Flystone the flystones of this game (S3-ROUND, `crate::game::order::flystone_turn`).
    pub fn turn_of(&self, n: u32) -> Turn {
        game_turn(&self.rules, self.flystone_state().as_ref(), n)
    }

    /// The Flystone state under the `flystone` schedule (the timings drawn from the seed when
    /// the position has none); `None` under other schedules.
    pub fn flystone_state(&self) -> Option<FlystoneState> {
        if self.rules.schedule != Schedule::Flystone {
            return None;
        }
        Some(self.flystone.clone().unwrap_or_else(|| FlystoneState {
            random: flystone_schedule(&self.rules, self.board.size()),
            thrown: Vec::new(),
        }))
    }

    /// The position after this one's move `action`, taking `turn`, left `board`: the one
    /// bookkeeping of a next position, for the reference's stones and passes
    /// ([`Position::play_reported`]) and the fast engine's moves ([`Position::play`]). The board
    /// before the move is appended to the history; the move number, the trailing passes
    /// (counted on a pass, reset by a stone) and the Flystone record of the turn are
    /// [`after_move`]'s (the counters the fast engine keeps too); the rules, the dead stones and
    /// the engine are kept.
    pub(super) fn successor(&self, turn: Turn, action: Action, board: Board) -> Position {
        let (move_number, trailing_passes, flystone) = after_move(
            self.move_number,
            self.trailing_passes,
            self.flystone_state().as_ref(),
            turn,
            matches!(action, Action::Pass),
        );
        let history = self.history.pushed(self.board.clone());
        let frozen = if freezes(&self.rules) {
            frozen_after(&self.rules, &self.frozen, &board)
        } else {
            Vec::new()
        };
        Position {
            rules: self.rules.clone(),
            board,
            move_number,
            history,
            trailing_passes,
            dead: self.dead.clone(),
            flystone,
            engine: self.engine,
            frozen,
            fast: OnceLock::new(),
        }
    }

    /// Whether the game is over by passes: `crate::game::order::game_over_by_passes` with this game's schedule
    /// (under Flystone, its flystones; `game_over_in`).
    pub fn game_over(&self) -> bool {
        game_over_in(
            &self.rules,
            self.flystone_state().as_ref(),
            self.move_number,
            self.trailing_passes,
        )
    }
}

impl Position {
    /// `m` named as this position's next move by the rules' records: numbered
    /// with this position's move number, with the turn `m` claims (a special move's, the
    /// emergency conversion's) or else the turn to move (`黑19.一B`; `33B.H九` in the team
    /// format). The number `m` claims is not used.
    pub fn notation(&self, m: &crate::game::moves::Move) -> crate::game::notation::Notation {
        crate::game::notation::Notation::new(
            self.rules(),
            self.move_number(),
            m.turn.unwrap_or_else(|| self.turn()),
            m.action,
        )
    }
}
