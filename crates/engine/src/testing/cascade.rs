//! The capture cascade re-read step by step from its definition (GO-CASCADE), round by round:
//! the oracle [`crate::testing::check_move`] compares `Position::play` with.

use crate::board::grid::{Board, Colour};
use crate::board::layers::Attribute;
use crate::game::play::Position;
use crate::judge::analysis::Analysis;
use crate::judge::freeze::FrozenString;
use crate::rules::{CaptureTiming, Rules, Suicide, SuicideTiming};

/// One round of the cascade: the analysis it judged and the points it removed.
#[derive(Clone, Debug)]
pub struct Round {
    pub analysis: Analysis,
    pub removed: Vec<usize>,
}

/// The cascade after a stone is placed (GO-CASCADE, as rules.md restates it, and
/// register D8): each round analyses the board — with the flower attributes `held` from before
/// the move while they are held (`capture-timing: holographic-first`: until a round removes
/// nothing), recomputed after — and removes the opponent's upper strings without a liberty;
/// if there is none, the mover's (suicide: `Err` when forbidden; under `suicide-timing:
/// fixpoint`, register D10, not while the attributes are held). The grey strings `frozen`
/// before the move keep their attribute in the recomputed rounds (M13-FREEZE, register D21).
/// Gives the settled board and the rounds, or `Err("suicide")`, or `Err("no end")` when
/// `limit` rounds were not enough.
pub fn trace_cascade(
    mut board: Board,
    rules: &Rules,
    mover: Colour,
    mut held: Option<&[Option<Attribute>]>,
    frozen: &[FrozenString],
    limit: usize,
) -> Result<(Board, Vec<Round>), &'static str> {
    let mut rounds = Vec::new();
    for _ in 0..limit {
        let a = match held {
            Some(h) => Analysis::with_held_attributes(&board, rules, h),
            None => Analysis::with_frozen(&board, rules, frozen),
        };
        let without = |c: Colour| -> Vec<usize> {
            a.upper_strings
                .groups
                .iter()
                .filter(|s| s.colour == Some(c) && s.liberties.is_empty())
                .flat_map(|s| s.points.iter().copied())
                .collect()
        };
        let mut removed = without(mover.opponent());
        if removed.is_empty() {
            removed = without(mover);
            if !removed.is_empty()
                && held.is_some()
                && rules.suicide_timing == SuicideTiming::Fixpoint
            {
                // register D10: the mover's strings are judged at the fixpoint
                held = None;
                continue;
            }
            if !removed.is_empty() && rules.suicide == Suicide::Forbidden {
                return Err("suicide");
            }
        }
        if removed.is_empty() {
            if held.take().is_some() {
                continue;
            }
            return Ok((board, rounds));
        }
        removed.sort_unstable();
        for &i in &removed {
            board.set(i, None);
        }
        rounds.push(Round {
            analysis: a,
            removed,
        });
    }
    Err("no end")
}

/// The attributes a move's first captures are judged with: those of the position before the
/// move under `capture-timing: holographic-first`, none (recomputed) otherwise.
pub fn held_attributes(pos: &Position) -> Option<Vec<Option<Attribute>>> {
    (pos.rules().capture_timing == CaptureTiming::HolographicFirst)
        .then(|| pos.analysis().attribute_at)
}
