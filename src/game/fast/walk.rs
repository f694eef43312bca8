//! Walking the game tree on the fast engine: [`FastPosition::count_leaves`] (perft, the number
//! of move sequences of a depth) and complete random games ([`random_game_fast`]).

use super::*;
use crate::game::order::{SplitMix64, StoneKind, Turn};
use crate::judge::forbidden::is_one_liberty_eye;

impl FastPosition {
    /// The number of leaves of the game tree of depth `depth` (perft): the move sequences of length `depth` from this position (every legal
    /// move, passes included, as `Position::legal_moves` lists them, and the special moves of
    /// `Position::special_moves`); the reference is `crate::tools::perft::perft_reference`.
    pub fn count_leaves(&self, depth: u32) -> u64 {
        // One buffer per level, cloned only when first needed (a depth-1 perft of a plain
        // position decides every move without a board and needs none).
        let mut bufs: Vec<Option<FastPosition>> = (0..depth).map(|_| None).collect();
        count_rec(self, depth, &mut bufs)
    }
}

fn count_rec(pos: &FastPosition, depth: u32, bufs: &mut [Option<FastPosition>]) -> u64 {
    if depth == 0 {
        return 1;
    }
    if pos.game_over() {
        return 0;
    }
    let Some((slot, rest)) = bufs.split_first_mut() else {
        return 0;
    };
    let specials = pos.special_candidates();
    let mut n = 0;
    if depth == 1 {
        let own = (pos.turn.kind == StoneKind::Own).then(|| colour_code(pos.turn.player));
        for p in pos.geom.points() {
            if pos.cells[p & MASK] == EMPTY {
                let at_once = own.is_some_and(|stone| pos.legal_at_once(p, stone));
                n += u64::from(at_once || pos.place(p, pos.turn, slot, false).is_ok());
            }
        }
        for (t, p) in specials {
            n += u64::from(p.is_none_or(|p| pos.place(p, t, slot, false).is_ok()));
        }
        return n + 1;
    }
    let mut child = |t: Turn, p: Option<usize>, slot: &mut Option<FastPosition>| -> u64 {
        match p {
            Some(p) => {
                if pos.place(p, t, slot, true).is_err() {
                    return 0;
                }
            }
            None => {
                let out = slot.get_or_insert_with(|| pos.clone());
                pos.pass_into(t, out);
            }
        }
        match slot {
            Some(c) => count_rec(c, depth - 1, rest),
            None => 0,
        }
    };
    for p in pos.geom.points() {
        if pos.cells[p & MASK] == EMPTY {
            n += child(pos.turn, Some(p), slot);
        }
    }
    n += child(pos.turn, None, slot);
    for (t, p) in specials {
        n += child(t, p, slot);
    }
    n
}

/// The random-game policy, shared by both paths: empty points are tried in random order; a
/// black/white stone is not put into a one-liberty eye of its own colour (upper layer, as
/// M20-FORBID-EYE sees it) — the usual playout rule that lets random games end; the first move
/// the rules accept is played, else a pass. `try_point(i)` applies the eye test and the rules to
/// reference index `i`.
pub fn random_move(
    rng: &mut SplitMix64,
    empty: &mut Vec<usize>,
    mut try_point: impl FnMut(usize) -> bool,
) -> Option<usize> {
    while !empty.is_empty() {
        let k = rng.below(empty.len());
        let i = empty.swap_remove(k);
        if try_point(i) {
            return Some(i);
        }
    }
    None
}

/// A complete random game on the fast path from `start`: at most `max_moves` moves, or until the
/// game is over. Returns the final position and the number of moves played.
pub fn random_game_fast(start: &FastPosition, seed: u64, max_moves: u32) -> (FastPosition, u32) {
    let mut rng = SplitMix64(seed);
    let mut pos = start.clone();
    let mut next = Some(start.clone());
    let mut empty = Vec::with_capacity(MAXS);
    let mut played = 0;
    while played < max_moves && !pos.game_over() {
        empty.clear();
        empty.extend(
            pos.geom
                .points()
                .filter(|&p| pos.cells[p & MASK] == EMPTY)
                .map(|p| pos.geom.unpad(p)),
        );
        let turn = pos.turn;
        let chosen = random_move(&mut rng, &mut empty, |i| {
            let p = pos.geom.pad(i);
            if turn.kind == StoneKind::Own && is_one_liberty_eye(&pos.an, p) == Some(turn.player) {
                return false;
            }
            pos.place(p, turn, &mut next, true).is_ok()
        });
        let out = next.get_or_insert_with(|| pos.clone());
        if chosen.is_none() {
            pos.pass_into(turn, out);
        }
        std::mem::swap(&mut pos, out);
        played += 1;
    }
    (pos, played)
}
