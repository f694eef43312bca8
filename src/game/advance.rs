//! Advancing a position where no report is needed: the engine choice ([`Engine`]) and
//! [`Position::advance`], the next position of a move on the fast engine where it supports the
//! rules, else (and for the exact refusal) by [`Position::play`]. The commands that play moves
//! only to reach a position (perft, replays, random games, conformance answers, the readings'
//! verdicts) go through here; those that print what a move did (`m3go play`, the narrated
//! replay, `explain` of a move) use [`Position::play`] and its report. No rule is decided here:
//! the fast engine and the reference decide, and `tests/it/advance.rs` checks that
//! `advance` equals `play(..).0` (and its refusal) under every preset.

use crate::game::fast::FastPosition;
use crate::game::moves::{Action, Move};
use crate::game::order::Turn;
use crate::game::play::{Illegal, Parts, Position};

/// Which machinery a command runs on. Both give the same answers (fast equals reference,
/// `tests/it/fast_equals_reference.rs`, `tests/it/advance.rs`, `tests/it/engine_choice.rs`); the
/// reference is the specification, the fast engine the default.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Engine {
    /// The fast engine ([`FastPosition`]) wherever `game::fast::supports` accepts the rules
    /// and the move takes the schedule's turn; the reference elsewhere and for every refusal.
    #[default]
    Fast,
    /// The clause-by-clause reference alone: [`Position::play`],
    /// [`Position::legal_moves_reference`], `tools::perft::perft_reference`.
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

impl Position {
    /// The position after `m` ([`Position::play`] without the report), on the fast engine:
    /// the same position (board, history, move number, trailing passes, dead stones, Flystone
    /// state) or the same refusal (reason, clause and message) as `play`.
    pub fn advance(&self, m: &Move) -> Result<Position, Illegal> {
        self.advance_with(m, Engine::Fast)
    }

    /// [`Position::advance`] on `engine`: `Engine::Reference` is `play(m)` without its report.
    pub fn advance_with(&self, m: &Move, engine: Engine) -> Result<Position, Illegal> {
        if engine == Engine::Fast {
            if let Some(next) = self.advance_fast(m) {
                return Ok(next);
            }
        }
        self.play(m).map(|(next, _)| next)
    }

    /// The next position on the fast engine, when it plays the move: any claimed number is the
    /// next move's, the move takes the schedule's turn or the special turn it claims (an
    /// emergency conversion, a chosen flystone: [`FastPosition::play_as`]), the fast engine
    /// supports the rules and accepts the move. `None` otherwise: the reference decides, and
    /// alone words a refusal.
    fn advance_fast(&self, m: &Move) -> Option<Position> {
        if m.number.is_some_and(|n| n != self.move_number()) {
            return None;
        }
        let turn = m.turn.unwrap_or_else(|| self.turn());
        let next = FastPosition::new(self)?.play_as(m.action, turn).ok()?;
        Some(self.successor(turn, m.action, next.board()))
    }

    /// The position after this one's move `action`, taking the schedule's `turn`, left
    /// `board`: what [`Position::play`] builds (the board before the move appended to the
    /// history, the move number one more, the trailing passes counted on a pass and reset by a
    /// stone, the dead stones kept, the Flystone record of the turn).
    fn successor(&self, turn: Turn, action: Action, board: crate::board::grid::Board) -> Position {
        let mut parts: Parts = self.to_parts();
        parts
            .history
            .push(std::mem::replace(&mut parts.board, board));
        parts.move_number += 1;
        parts.trailing_passes = match action {
            Action::Pass => self.trailing_passes() + 1,
            Action::Place(_) => 0,
        };
        parts.flystone = self.next_flystone(turn);
        Position::from_checked(parts)
    }

    /// Every legal move of the side to move on `engine`: [`Position::legal_moves`] (fast where
    /// supported) or [`Position::legal_moves_reference`].
    pub fn legal_moves_with(&self, engine: Engine) -> Vec<Action> {
        match engine {
            Engine::Fast => self.legal_moves(),
            Engine::Reference => self.legal_moves_reference(),
        }
    }
}
