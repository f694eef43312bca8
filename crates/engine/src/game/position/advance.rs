//! Advancing a position where no report is needed: the engine choice ([`Engine`]) and
//! [`Position::advance`], the next position of a move on the fast engine (the reference words
//! its refusals, [`Position::play`]). The commands that play moves
//! only to reach a position (perft, replays, random games, conformance answers, the readings'
//! verdicts) go through here; those that print what a move did (`m3go play`, the narrated
//! replay, `explain` of a move) use [`Position::play`] and its report. No rule is decided here:
//! the fast engine and the reference decide, and `tests/it/advance.rs` checks that
//! `advance` on the fast engine equals the reference's `play(..).0` (and its refusal) under
//! every preset.

use crate::game::move_report::Illegal;
use crate::game::moves::Move;
use crate::game::position::Position;
use crate::game::refusal::Refusal;

/// Which machinery a command runs on. Both give the same answers (the test suite plays random
/// positions and move sequences of every preset on both and compares the positions, the
/// refusals and the legal moves); the reference is the specification, the fast engine the
/// default.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Engine {
    /// The fast engine ([`crate::game::fast::FastPosition`]), which implements every rule
    /// set; the reference words its refusals.
    #[default]
    Fast,
    /// The clause-by-clause reference alone: [`Position::play`],
    /// [`Position::legal_moves`] and `tools::perft::perft` on the reference.
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
    /// The position after `m` ([`Position::play`] without the report), on the position's
    /// engine: `Engine::Reference` is `play(m)` without its report; `Engine::Fast` lets the
    /// fast engine decide (`Position::advance_fast`), giving the same position (board,
    /// history, move number, trailing passes, dead stones, Flystone state) or the same refusal
    /// (reason, clause and message) as `play`.
    pub fn advance(&self, m: &Move) -> Result<Position, Illegal> {
        match self.engine() {
            Engine::Fast => self.advance_fast(m),
            Engine::Reference => self.play(m).map(|(next, _)| next),
        }
    }

    /// The next position on the fast engine, which decides whether the move is legal: the move
    /// takes the schedule's turn or the special turn it claims (an emergency conversion, a
    /// chosen flystone: [`FastPosition::play_as`](crate::game::fast::FastPosition::play_as)). A refusal is worded by the reference (its
    /// reason, clause and message: [`Position::play`]), which also judges a claimed number
    /// that is not the next move's (the fast engine reads no numbers). A move the fast engine
    /// refuses and the reference accepts is never played by the reference in its place: it is
    /// refused, saying so, so that the disagreement shows (`tests/it/advance.rs` fails on it).
    fn advance_fast(&self, m: &Move) -> Result<Position, Illegal> {
        let turn = m.turn.unwrap_or_else(|| self.turn());
        let fast = if m.number.is_some_and(|n| n != self.move_number()) {
            None
        } else {
            match self.with_fast(|f| f.play_as(m.action, turn)) {
                Ok(next) => {
                    return Ok(self
                        .successor(turn, m.action, next.board())
                        .keeping_fast(next))
                }
                Err(refusal) => Some(refusal),
            }
        };
        let (_, by_reference) = self.play(m)?;
        let reason = fast.unwrap_or(Refusal::WrongTurn(self.rules().schedule));
        Err(Illegal {
            reason,
            clause: reason.clause(),
            message: crate::game::text::text!(
                "move ",
                self.move_number(),
                ": the fast engine refuses ",
                by_reference.notation,
                format!(
                    " ({}) where the reference plays it (run with --reference)",
                    reason.code()
                )
            ),
        })
    }
}
