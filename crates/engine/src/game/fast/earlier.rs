//! The earlier boards of a game on the fast engine (the ko rule's memory) and the Zobrist hashes
//! that compare them: shared by the position (`position.rs`), the settling of a move
//! (`settle.rs`) and its undo (`undo.rs`), below all three.

use super::*;
use std::sync::Arc;

/// An earlier board of the game (positional and situational ko): its cells, a hash of them,
/// the number of the move played on it, and the board before it.
#[derive(Debug)]
pub(super) struct Earlier {
    pub(super) cells: [u8; MAXN],
    pub(super) hash: u64,
    pub(super) number: u32,
    pub(super) prev: Option<Arc<Earlier>>,
}

/// The earlier boards, newest first.
pub(super) fn earlier_boards(mut e: Option<&Arc<Earlier>>) -> impl Iterator<Item = &Earlier> {
    std::iter::from_fn(move || {
        let here = e?;
        e = here.prev.as_ref();
        Some(here.as_ref())
    })
}

/// The Zobrist keys (GO-KO's board comparisons, positional and situational): one random key per
/// padded point and stone (black, white, flower), SplitMix64 from a fixed seed, built at compile
/// time. The hash of a board is the XOR of the keys of its stones, kept as stones are placed and
/// removed; a match is confirmed by comparing the boards.
static ZOBRIST: [[u64; MAXN]; 3] = {
    let mut t = [[0u64; MAXN]; 3];
    let mut state = 0x6d33_676f_2023_u64;
    let mut v = 0;
    while v < 3 {
        let mut p = 0;
        while p < MAXN {
            // SplitMix64 (game::order::splitmix64), written out: a const item calls no fn of
            // another module that is not const.
            state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            t[v][p] = z ^ (z >> 31);
            p += 1;
        }
        v += 1;
    }
    t
};

/// The Zobrist key of cell value `v` at padded point `p` (0 for an empty point or the frame).
#[inline]
pub(super) fn zobrist(p: usize, v: u8) -> u64 {
    match v {
        BLACK | WHITE | FLOWER => ZOBRIST[usize::from(v - 1)][p & MASK],
        _ => 0,
    }
}

/// The Zobrist hash of a whole board, from scratch.
pub(super) fn board_hash(geom: Geom, cells: &[u8; MAXN]) -> u64 {
    geom.points()
        .fold(0, |h, p| h ^ zobrist(p, cells[p & MASK]))
}
