//! Walking the game tree on the fast engine: [`FastPosition::count_leaves`] (perft, the number
//! of move sequences of a depth) and complete random games ([`random_game_fast`]), both playing
//! in place with undo (`undo.rs`); the legal-move list, which reads the same per-component
//! table ([`SoleBounds`]).

use super::settle::SoleBounds;
use super::undo::UndoLog;
use super::*;
use crate::game::moves::Action;
use crate::game::order::{SplitMix64, StoneKind, Turn};
use crate::judge::forbidden::is_one_liberty_eye;

impl FastPosition {
    /// Every legal move of the side to move (passes included), in board order, as
    /// `Position::legal_moves`.
    pub fn legal_moves(&self) -> Vec<Action> {
        if self.game_over() {
            return Vec::new();
        }
        let mut scratch = None;
        // Every empty point is asked of this position: the components' sole bounds once.
        let bounds = (self.turn.kind == StoneKind::Own)
            .then(|| SoleBounds::of(self))
            .flatten();
        let mut out: Vec<Action> = self
            .geom
            .points()
            .filter(|&p| {
                self.cells[p & MASK] == EMPTY
                    && self.legal_with(p, self.turn, &mut scratch, bounds.as_ref())
            })
            .map(|p| Action::Place(self.point(p)))
            .collect();
        out.push(Action::Pass);
        out
    }

    /// The number of leaves of the game tree of depth `depth` (perft): the move sequences of length `depth` from this position (every legal
    /// move, passes included, as `Position::legal_moves` lists them, and the special moves of
    /// `Position::special_moves`); the reference is `crate::tools::perft::perft_reference`.
    pub fn count_leaves(&self, depth: u32) -> u64 {
        // One scratch board for the last level's legality tests, cloned only when first
        // needed (a depth-1 perft of a plain position decides every move without a board).
        let mut slot = None;
        if depth <= 1 {
            // No copy of the position for the one level.
            return match depth {
                0 => 1,
                _ => count_last_level(self, &mut slot),
            };
        }
        // The levels above the last are walked on one position, each move played in place
        // and taken back (`FastPosition::play_in_place`, `FastPosition::undo`).
        let mut pos = self.clone();
        let mut log = UndoLog::new();
        count_rec(&mut pos, depth, &mut slot, &mut log)
    }
}

impl FastPosition {
    /// The number of legal black or white stones of the side to move (`stone`, its colour)
    /// where no attribute can change ([`FastPosition::plain`]) and the ko rule is none or
    /// simple: [`FastPosition::place`]'s verdict at every empty point, most of them decided by
    /// one cheap fact. A point with an empty upper neighbour that is no upper string's single
    /// liberty is legal: the stone keeps that empty neighbour as a liberty, and a string next
    /// to the point with one liberty would have the point as that liberty (the point is empty
    /// and next to it), so the stone takes no string's last liberty; the cascade's fresh
    /// round finds no string without liberty (`Fresh::nothing_dies_at`, the test
    /// [`FastPosition::legal_at_once`] makes), no later round comes (plain: nothing is
    /// recomputed), nothing is removed, and without a removal neither ko rule refuses (see
    /// [`FastPosition::place`]). Every other point is decided by `legal_at_once` and `place`,
    /// the cascade over the board. `tests/it/fast_equals_reference.rs` and `tests/it/perft.rs`
    /// compare the counts with the reference's perft; `plain_count_equals_the_move_by_move_count`
    /// (below) with `place` at every point.
    pub(super) fn count_plain_moves(&self, stone: u8, slot: &mut Option<FastPosition>) -> u64 {
        let an = &self.an;
        // The single liberty of every black or white upper string in atari.
        let mut sole = [false; MAXN];
        for s in 0..an.upper_count {
            if an.upper_libs[s] == 1 && (an.upper_colour[s] == BLACK || an.upper_colour[s] == WHITE)
            {
                sole[an.upper_lib[s] as usize & MASK] = true;
            }
        }
        let [d0, d1, d2, d3] = self.geom.dirs();
        let up = &an.upper;
        let mut n = 0;
        for p in self.geom.points() {
            if self.cells[p & MASK] != EMPTY {
                continue;
            }
            let free = up[p.wrapping_add(d0) & MASK] == EMPTY
                || up[p.wrapping_add(d1) & MASK] == EMPTY
                || up[p.wrapping_add(d2) & MASK] == EMPTY
                || up[p.wrapping_add(d3) & MASK] == EMPTY;
            let legal =
                (free && !sole[p & MASK]) || self.legal_by_cascade(p, Some(stone), slot, None);
            n += u64::from(legal);
        }
        n
    }

    /// Whether the side to move may play at the empty point `p`: by the fresh round alone
    /// ([`FastPosition::legal_at_once`]) for a black or white stone (`own`, its colour), else
    /// by [`FastPosition::place`], the cascade over the board (into `slot`).
    fn legal_by_cascade(
        &self,
        p: usize,
        own: Option<u8>,
        slot: &mut Option<FastPosition>,
        bounds: Option<&SoleBounds>,
    ) -> bool {
        own.is_some_and(|stone| self.legal_at_once(p, stone))
            || self.legal_with(p, self.turn, slot, bounds)
    }
}

impl FastPosition {
    /// Whether a stone of the side to move at `pt` would go into a one-liberty eye of its own
    /// colour (upper layer, as M20-FORBID-EYE sees it): the test [`random_move`]'s policy
    /// applies before it tries a point, for players that choose among the legal moves
    /// (`m3go player`). `false` on a flower turn and off the board.
    pub fn fills_own_eye(&self, pt: crate::board::coord::Point) -> bool {
        self.turn.kind == StoneKind::Own
            && pt.on_board(self.geom.size)
            && is_one_liberty_eye(&self.an, self.geom.pad(self.board_index(pt)))
                == Some(self.turn.player)
    }
}

/// The leaves of depth `depth` (at least 2) under `pos`, each child played in place on `pos`
/// and taken back; `pos` is as it was when this returns.
fn count_rec(
    pos: &mut FastPosition,
    depth: u32,
    slot: &mut Option<FastPosition>,
    log: &mut UndoLog,
) -> u64 {
    if pos.game_over() {
        return 0;
    }
    let specials = pos.special_candidates();
    let mut child = |pos: &mut FastPosition, t: Turn, p: Option<usize>| -> u64 {
        if pos.place_in_place(p, t, log).is_err() {
            return 0;
        }
        let n = if depth == 2 {
            count_last_level(pos, slot)
        } else {
            count_rec(pos, depth - 1, slot, log)
        };
        pos.undo(log);
        n
    };
    let mut n = 0;
    let turn = pos.turn;
    for p in pos.geom.points() {
        if pos.cells[p & MASK] == EMPTY {
            n += child(pos, turn, Some(p));
        }
    }
    n += child(pos, turn, None);
    for (t, p) in specials {
        n += child(pos, t, p);
    }
    n
}

/// The moves of `pos` (perft of depth 1): each decided without being played, the scratch board
/// `slot` written where a board is needed.
fn count_last_level(pos: &FastPosition, slot: &mut Option<FastPosition>) -> u64 {
    if pos.game_over() {
        return 0;
    }
    let mut n = 0;
    let own = (pos.turn.kind == StoneKind::Own).then(|| colour_code(pos.turn.player));
    match own {
        Some(stone) if pos.plain(stone) && matches!(pos.choices.ko, Ko::None | Ko::Simple) => {
            n += pos.count_plain_moves(stone, slot);
        }
        _ => {
            // Every empty point is asked of the same position: the components' sole bounds
            // once for all of them.
            let bounds = own.and_then(|_| SoleBounds::of(pos));
            for p in pos.geom.points() {
                if pos.cells[p & MASK] == EMPTY {
                    n += u64::from(pos.legal_by_cascade(p, own, slot, bounds.as_ref()));
                }
            }
        }
    }
    for (t, p) in pos.special_candidates() {
        n += u64::from(p.is_none_or(|p| pos.place(p, t, slot, false).is_ok()));
    }
    n + 1
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
    // Each move played in place (`FastPosition::play_in_place`); none is taken back, so the
    // log is cleared after each (its buffers kept).
    let mut log = UndoLog::new();
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
            pos.place_in_place(Some(p), turn, &mut log).is_ok()
        });
        if chosen.is_none() {
            // GO-PASS: a pass is always legal while the game goes on.
            let _ = pos.place_in_place(None, turn, &mut log);
        }
        log.clear();
        played += 1;
    }
    (pos, played)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::grid::Board;
    use crate::game::moves::Action;

    /// [`FastPosition::count_plain_moves`] equals `place` asked at every empty point, through
    /// random plain-Go games (captures and ko fights among their positions) under simple and no
    /// ko, suicide forbidden and allowed.
    #[test]
    fn plain_count_equals_the_move_by_move_count() {
        let mut checked = 0;
        for (ko, suicide) in [
            (Ko::Simple, Suicide::Forbidden),
            (Ko::None, Suicide::Allowed),
            (Ko::Simple, Suicide::Allowed),
        ] {
            let rules = Rules {
                schedule: Schedule::Alternate,
                attribute: AttributeRule::AlwaysNeutral,
                ko,
                suicide,
                ..Rules::m3go_2020()
            };
            for (size, seed) in [(5usize, 1u64), (9, 2), (9, 3)] {
                let board = Board::empty(size).expect("an odd size");
                let mut pos = FastPosition::from_state(&rules, &board, &[], 1, 0, None);
                let mut rng = SplitMix64(seed);
                for _ in 0..200 {
                    if pos.game_over() {
                        break;
                    }
                    let stone = colour_code(pos.turn.player);
                    let mut slot = None;
                    let by_point = pos
                        .geom
                        .points()
                        .filter(|&p| {
                            pos.cells[p & MASK] == EMPTY
                                && pos.place(p, pos.turn, &mut slot, false).is_ok()
                        })
                        .count() as u64;
                    assert_eq!(
                        pos.count_plain_moves(stone, &mut None),
                        by_point,
                        "{ko:?} {suicide:?} on\n{}",
                        pos.board().to_diagram()
                    );
                    checked += 1;
                    let moves = pos.legal_moves();
                    let action = match moves.len() {
                        1 => Action::Pass,
                        n => moves[rng.below(n - 1)],
                    };
                    pos = pos.play(action).expect("a listed move");
                }
            }
        }
        assert!(checked > 500, "only {checked} positions");
    }

    /// A flower that stays neutral is settled by the local decision (`local_flower`): its
    /// analysis is updated and logged entry by entry, not saved whole after a whole-board
    /// analysis. Through random 19x19 M3Go 2020 games played in place (the consistency check
    /// after every move in this build; 1,000 moves each), most flowers played take that path
    /// and some do not (those that take an attribute).
    #[test]
    fn most_flowers_played_are_updated_locally() {
        let rules = Rules::m3go_2020();
        let board = Board::empty(19).expect("an odd size");
        let start = FastPosition::from_state(&rules, &board, &[], 1, 0, None);
        let (mut local, mut whole) = (0u64, 0u64);
        for seed in 0..3u64 {
            let mut rng = SplitMix64(seed);
            let mut pos = start.clone();
            let mut log = UndoLog::new();
            let mut empty = Vec::new();
            let mut played = 0;
            while played < 1000 && !pos.game_over() {
                played += 1;
                empty.clear();
                empty.extend(
                    pos.geom
                        .points()
                        .filter(|&p| pos.cells[p & MASK] == EMPTY)
                        .map(|p| pos.geom.unpad(p)),
                );
                let turn = pos.turn;
                let before = log.paths();
                let chosen = random_move(&mut rng, &mut empty, |i| {
                    let p = pos.geom.pad(i);
                    if turn.kind == StoneKind::Own
                        && is_one_liberty_eye(&pos.an, p) == Some(turn.player)
                    {
                        return false;
                    }
                    pos.place_in_place(Some(p), turn, &mut log).is_ok()
                });
                if chosen.is_none() {
                    let _ = pos.place_in_place(None, turn, &mut log);
                }
                if turn.kind == StoneKind::Flower {
                    let after = log.paths();
                    local += after.0 - before.0;
                    whole += after.1 - before.1;
                }
                log.clear();
            }
        }
        assert!(
            local > 2 * whole && whole > 0,
            "flowers updated locally {local}, analysed whole {whole}"
        );
    }
}
