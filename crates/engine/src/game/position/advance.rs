//! Advancing a position: the engine choice ([`Engine`]), [`Position::play`], the next position
//! of a move on the fast engine the position keeps (no report), and [`Position::play_in_place`]
//! with [`Position::undo`], the same move made on the position itself and taken back. The
//! commands that play moves only to reach a position (perft, replays, random games,
//! conformance answers, the readings' verdicts, the players' searches) go through here; those
//! that print what a move did (`m3go play`, the narrated replay, `explain` of a move) use
//! [`Position::play_reported`] and its report. No rule is decided here: the fast engine and the
//! reference decide, and the tests check that `play` on the fast engine equals the reference's
//! `play_reported(..).0` (and its refusal) under every preset. A refusal of the fast engine is
//! worded from its reason, by the one step of the reference that words that reason (the move is
//! not played again on the reference).

use crate::board::coord::Point;
use crate::board::grid::Board;
use crate::game::fast::{random_game_fast, UndoLog};
use crate::game::move_report::Illegal;
use crate::game::moves::{Action, Move};
use crate::game::order::StoneKind;
use crate::game::position::Position;
use crate::game::refusal::Refusal;
use crate::game::text::text;
use std::sync::Arc;

/// Which machinery a command runs on. Both give the same answers (the test suite plays random
/// positions and move sequences of every preset on both and compares the positions, the
/// refusals and the legal moves); the reference is the specification, the fast engine the
/// default.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Engine {
    /// The fast engine: the incremental state every position keeps, which implements every
    /// rule set; its refusals are worded as the reference words them.
    #[default]
    Fast,
    /// The clause-by-clause reference alone: [`Position::play_reported`]'s steps for
    /// [`Position::play`], [`Position::play_in_place`] and [`Position::legal_moves`].
    Reference,
}

impl Engine {
    /// `Reference` when `reference` is set (the `--reference` flag), else `Fast`.
    pub fn from_flag(reference: bool) -> Engine {
        if reference {
            Engine::Reference
        } else {
            Engine::Fast
        }
    }
}

/// What [`Position::play_in_place`] changed, for [`Position::undo`] to take it back: the
/// position before the move and the fast engine's log of the move. Opaque.
#[derive(Debug)]
pub struct Undo {
    before: Box<Position>,
    log: Option<UndoLog>,
}

impl Position {
    /// The position after `m` ([`Position::play_reported`] without the report), on the
    /// position's engine: `Engine::Reference` is `play_reported(&m)` without its report;
    /// `Engine::Fast` lets the fast engine decide from the state this position keeps, giving the
    /// same position (board, history, move number, trailing passes, dead stones, Flystone state)
    /// or the same refusal (reason, clause and message) as `play_reported`. The next position
    /// keeps the fast engine's state for its own moves.
    pub fn play(&self, m: Move) -> Result<Position, Illegal> {
        match self.engine() {
            Engine::Fast => self.play_fast(&m),
            Engine::Reference => self.play_reported(&m).map(|(next, _)| next),
        }
    }

    /// Plays `m` on this position itself, as [`Position::play`] would into a new one, and
    /// returns what [`Position::undo`] needs to take it back. The fast engine changes its state
    /// in place (no copy of it while no other position shares it). A refused move leaves the
    /// position as it was.
    pub fn play_in_place(&mut self, m: Move) -> Result<Undo, Illegal> {
        if self.engine() == Engine::Reference {
            let next = self.play_reported(&m)?.0;
            let before = std::mem::replace(self, next);
            return Ok(Undo {
                before: Box::new(before),
                log: None,
            });
        }
        self.refuse_claimed_number(&m)?;
        let turn = m.turn.unwrap_or_else(|| self.turn());
        let mut fast = self.take_fast();
        let mut log = UndoLog::new();
        if let Err(reason) = Arc::make_mut(&mut fast).play_in_place(m.action, turn, &mut log) {
            self.put_fast(fast);
            return Err(self.word_refusal(&m, reason));
        }
        let next = self.successor(turn, m.action, fast.board());
        let before = std::mem::replace(self, next);
        self.put_fast(fast);
        Ok(Undo {
            before: Box::new(before),
            log: Some(log),
        })
    }

    /// Takes back the move `u` logged ([`Position::play_in_place`], the last one played on this
    /// position): the position is again the one before it, field by field, its fast state
    /// included.
    pub fn undo(&mut self, u: Undo) {
        let Undo { before, log } = u;
        let fast = self.fast.take();
        *self = *before;
        if let (Some(mut log), Some(mut fast)) = (log, fast) {
            Arc::make_mut(&mut fast).undo(&mut log);
            self.put_fast(fast);
        }
    }

    /// Perft: the number of legal move sequences of length `depth` from this position (every
    /// move of [`Position::legal_moves`], the pass among them, and of
    /// [`Position::special_moves`]; a sequence that ends the game before `depth` adds nothing;
    /// perft(0) is 1), on the position's engine: the fast engine walks the tree on its own
    /// state, each move made in place and taken back; the reference goes level by level.
    pub fn perft(&self, depth: u32) -> u64 {
        if self.engine() == Engine::Fast {
            return self.with_fast(|f| f.count_leaves(depth));
        }
        if depth == 0 {
            return 1;
        }
        if self.game_over() {
            return 0;
        }
        let moves = self.legal_moves().into_iter().chain(self.special_moves());
        if depth == 1 {
            return moves.count() as u64;
        }
        moves
            .filter_map(|m| self.play(m).ok())
            .map(|next| next.perft(depth - 1))
            .sum()
    }

    /// Whether a stone of the side to move at `p` would go into a one-liberty eye of its own
    /// colour (upper layer, as M20-FORBID-EYE sees it): the test the random games' policy
    /// applies before it tries a point, for players that choose among the legal moves.
    /// `false` on a flower turn and off the board.
    pub fn fills_own_eye(&self, p: Point) -> bool {
        self.with_fast(|f| f.fills_own_eye(p))
    }

    /// A random game from this position on the fast engine: at most `max_moves` moves of the
    /// random games' policy (empty points tried in an order drawn from `seed`, never a
    /// black/white stone into its own one-liberty eye, a pass when no point is accepted), or
    /// until the game is over. Returns the final board and the number of moves played (a
    /// playout: the board is counted, [`crate::Score`]).
    pub fn random_game(&self, seed: u64, max_moves: u32) -> (Board, u32) {
        self.with_fast(|f| {
            let (end, played) = random_game_fast(f, seed, max_moves);
            (end.board(), played)
        })
    }

    /// The next position on the fast engine, which decides whether the move is legal: the move
    /// takes the schedule's turn or the special turn it claims (an emergency conversion, a
    /// chosen flystone: [`FastPosition::play_as`](crate::game::fast::FastPosition::play_as)). A claimed number that is not the next
    /// move's is refused first (the fast engine reads no numbers).
    fn play_fast(&self, m: &Move) -> Result<Position, Illegal> {
        self.refuse_claimed_number(m)?;
        let turn = m.turn.unwrap_or_else(|| self.turn());
        match self.with_fast(|f| f.play_as(m.action, turn)) {
            Ok(next) => Ok(self
                .successor(turn, m.action, next.board())
                .keeping_fast(next)),
            Err(reason) => Err(self.word_refusal(m, reason)),
        }
    }

    /// A move claiming a number other than the next move's: refused as the reference refuses it
    /// (after the end of the game, GO-END; else the wrong turn).
    fn refuse_claimed_number(&self, m: &Move) -> Result<(), Illegal> {
        if m.number.is_some_and(|n| n != self.move_number()) {
            self.refuse_after_end()?;
            self.resolve_turn(m)?;
            return Err(self.disagreement(m, Refusal::WrongTurn(self.rules().schedule)));
        }
        Ok(())
    }

    /// The refusal of `m` for `reason`, the fast engine's decision, worded as the reference
    /// words it: the reference's steps that come first and cost little are run in their order
    /// (the end of the game, the turn, a pass, the point, the special turn; the flower's
    /// forbidden points, on the analysis before the move, for a flower), then the one step that
    /// refuses for `reason` (the cascade for a suicide, the ko or flower-capture wording), not
    /// the whole move. The first of these steps that refuses gives the refusal (the reference
    /// is the specification: a turn claim it refuses as `no-flystone` the fast engine refuses
    /// as a wrong turn). Should none refuse, the fast engine and the reference disagree: the
    /// move is refused saying so ([`Position::disagreement`]), never played by the reference in
    /// the fast engine's place.
    fn word_refusal(&self, m: &Move, reason: Refusal) -> Illegal {
        match self.reference_refusal(m, reason) {
            Some(e) => e,
            None => self.disagreement(m, reason),
        }
    }

    /// The reference's refusal of `m` by its steps up to the one that refuses for `reason`
    /// (`None` when they accept it).
    fn reference_refusal(&self, m: &Move, reason: Refusal) -> Option<Illegal> {
        if let Err(e) = self.refuse_after_end() {
            return Some(e);
        }
        let (turn, special) = match self.resolve_turn(m) {
            Ok(resolved) => resolved,
            Err(e) => return Some(e),
        };
        let p = match m.action {
            Action::Pass => return self.pass(turn, special).err(),
            Action::Place(p) => p,
        };
        let i = match self.empty_point(p) {
            Ok(i) => i,
            Err(e) => return Some(e),
        };
        if let Err(e) = self.take_special_turn(turn, special, i) {
            return Some(e);
        }
        if !matches!(
            reason,
            Refusal::CapturePoint
                | Refusal::OneLibertyEye
                | Refusal::TigersMouth
                | Refusal::Suicide
                | Refusal::Ko
        ) {
            return None;
        }
        let before =
            (turn.kind == StoneKind::Flower || reason == Refusal::Suicide).then(|| self.analysis());
        if let Some(before) = &before {
            if let Err(e) = self.refuse_forbidden_flower(before, turn, p, i) {
                return Some(e);
            }
        }
        match (reason, &before) {
            (Refusal::Suicide, Some(before)) => self.place_and_settle(before, turn, p, i).err(),
            // a flower whose attribute cascade would remove stones (D9)
            (Refusal::CapturePoint, _) => Some(self.flower_capture_refusal(p)),
            (Refusal::Ko, _) => Some(self.ko_refusal(p)),
            _ => None,
        }
    }

    /// The refusal of a move the fast engine refuses for `reason` where the reference's step
    /// for that reason does not: it names the disagreement, so that it shows.
    fn disagreement(&self, m: &Move, reason: Refusal) -> Illegal {
        let turn = m.turn.unwrap_or_else(|| self.turn());
        Illegal {
            reason,
            clause: reason.clause(),
            message: text!(
                "move ",
                self.move_number(),
                ": the fast engine refuses ",
                crate::game::notation::Notation::new(
                    self.rules(),
                    m.number.unwrap_or_else(|| self.move_number()),
                    turn,
                    m.action
                ),
                format!(
                    " ({}) where the reference plays it (run with --reference)",
                    reason.code()
                )
            ),
        }
    }
}
