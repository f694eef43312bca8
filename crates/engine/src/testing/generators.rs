//! The generators (`arbitrary::Arbitrary`) of settled positions, move sequences and
//! eye-simulation cases, each with its encoder (the inverse), so that seed corpora can be written
//! from `spec/cases`.

use super::boards::{board_from_codes, codes_of_board, position, settle, ODD_SIZES};
use super::rule_sets::preset;
use crate::board::coord::Point;
use crate::board::grid::Board;
use crate::game::play::{Move, Position};
use crate::rules::{ClosedRegion, Rules};
use arbitrary::{Arbitrary, Unstructured};

fn byte(u: &mut Unstructured<'_>) -> u8 {
    u.arbitrary::<u8>().unwrap_or(0)
}

fn decode_position(u: &mut Unstructured<'_>, sizes: &[usize]) -> Position {
    let size = sizes[byte(u) as usize % sizes.len()];
    let rules = preset(Rules::PRESETS[byte(u) as usize % Rules::PRESETS.len()]);
    let move_number = 1 + u32::from(byte(u) % 10);
    let mut codes = vec![0u8; size * size];
    for c in codes.iter_mut() {
        *c = byte(u);
    }
    let board = settle(board_from_codes(size, &codes), &rules);
    position(board, rules, move_number)
}

/// A settled position of any odd size 3–19 with black, white and flower stones, under one of the
/// presets, with a move number 1–10 (every turn of the ten-move cycle). Bytes: size
/// index, preset index, move number − 1, then one cell code per point (see [`encode_position`]).
#[derive(Clone, Debug)]
pub struct ArbPosition(pub Position);

impl<'a> Arbitrary<'a> for ArbPosition {
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Self> {
        Ok(ArbPosition(decode_position(u, &ODD_SIZES)))
    }
}

/// The bytes [`ArbPosition`] (and [`ArbGame`]) decode to `pos` (history and dead stones are not
/// written; the move number is kept modulo 10, which keeps the turn of the ten-move cycle).
pub fn encode_position(pos: &Position) -> Vec<u8> {
    let size_index = ODD_SIZES
        .iter()
        .position(|&s| s == pos.board().size())
        .unwrap_or(0) as u8;
    let preset_index = Rules::PRESETS
        .iter()
        .position(|&p| p == pos.rules().preset.name())
        .unwrap_or(0) as u8;
    let mut out = vec![
        size_index,
        preset_index,
        ((pos.move_number() + 9) % 10) as u8,
    ];
    out.extend(codes_of_board(pos.board()));
    out
}

/// One move of a generated sequence: a point index (row-major, top row first) or a pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveChoice {
    Point(usize),
    Pass,
}

impl MoveChoice {
    /// The move on a board of `size`.
    pub fn to_move(self, size: usize) -> Move {
        match self {
            MoveChoice::Pass => Move::pass(),
            MoveChoice::Point(i) => {
                let h = Point::half(size);
                let p = Point::new((i % size) as i32 - h, h - (i / size) as i32);
                Move::stone(p)
            }
        }
    }
}

/// Most moves an [`ArbGame`] holds.
pub const MAX_GAME_MOVES: usize = 24;

/// A settled position and a sequence of moves to try on it (some legal, some refused). Bytes:
/// those of [`ArbPosition`], then two bytes a move (little-endian `v`: `v % (n + 1)`, where
/// `n` = points, `n` itself is a pass).
#[derive(Clone, Debug)]
pub struct ArbGame {
    pub start: Position,
    pub moves: Vec<MoveChoice>,
}

fn decode_moves(u: &mut Unstructured<'_>, size: usize) -> Vec<MoveChoice> {
    let n = size * size;
    let mut moves = Vec::new();
    while !u.is_empty() && moves.len() < MAX_GAME_MOVES {
        let v = u16::from_le_bytes([byte(u), byte(u)]) as usize % (n + 1);
        moves.push(if v == n {
            MoveChoice::Pass
        } else {
            MoveChoice::Point(v)
        });
    }
    moves
}

impl<'a> Arbitrary<'a> for ArbGame {
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Self> {
        let start = decode_position(u, &ODD_SIZES);
        let moves = decode_moves(u, start.board().size());
        Ok(ArbGame { start, moves })
    }
}

/// The bytes [`ArbGame`] decodes to `pos` followed by `moves`.
pub fn encode_game(pos: &Position, moves: &[MoveChoice]) -> Vec<u8> {
    let mut out = encode_position(pos);
    let n = pos.board().len();
    for m in moves {
        let v = match m {
            MoveChoice::Pass => n,
            MoveChoice::Point(i) => *i,
        } as u16;
        out.extend(v.to_le_bytes());
    }
    out
}

/// A dense direct board for the eye simulation (sizes 3–9; a quarter of the points empty on
/// average, so that many closed regions are small enough for the literal oracle), and the
/// closed-region reading to judge it under. Bytes: size index (of 3, 5, 7, 9), reading (even:
/// single-string, odd: same-colour), then one cell code per point. The board is not settled:
/// private eyes are judged in the lower layer of any board.
#[derive(Clone, Debug)]
pub struct ArbEyeCase {
    pub board: Board,
    pub closed_region: ClosedRegion,
}

impl<'a> Arbitrary<'a> for ArbEyeCase {
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Self> {
        let size = [3, 5, 7, 9][byte(u) as usize % 4];
        let closed_region = if byte(u) % 2 == 0 {
            ClosedRegion::SingleString
        } else {
            ClosedRegion::SameColour
        };
        let mut codes = vec![0u8; size * size];
        for c in codes.iter_mut() {
            *c = byte(u);
        }
        Ok(ArbEyeCase {
            board: board_from_codes(size, &codes),
            closed_region,
        })
    }
}

/// A direct board of any odd size 3–19 for the engine-only private-eye check (large regions):
/// size index, then one cell code per point (missing codes are empty). Not settled.
#[derive(Clone, Debug)]
pub struct ArbLargeEyeCase {
    pub board: Board,
}

impl<'a> Arbitrary<'a> for ArbLargeEyeCase {
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Self> {
        let size = ODD_SIZES[byte(u) as usize % ODD_SIZES.len()];
        let codes: Vec<u8> = (0..size * size).map(|_| byte(u)).collect();
        Ok(ArbLargeEyeCase {
            board: board_from_codes(size, &codes),
        })
    }
}

/// The bytes [`ArbEyeCase`] decodes to `board` (sizes above 9 are not representable: `None`).
pub fn encode_eye_case(board: &Board, rule: ClosedRegion) -> Option<Vec<u8>> {
    let size_index = [3, 5, 7, 9].iter().position(|&s| s == board.size())? as u8;
    let mut out = vec![
        size_index,
        match rule {
            ClosedRegion::SingleString => 0,
            ClosedRegion::SameColour => 1,
        },
    ];
    out.extend(codes_of_board(board));
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rules;

    #[test]
    fn encoders_invert_the_generators() {
        let b = board_from_codes(5, &[1, 2, 3, 0, 1, 0, 0, 2, 3, 3, 1]);
        let pos = position(settle(b, &Rules::m3go_2020()), Rules::m3go_2020(), 7);
        let bytes = encode_game(&pos, &[MoveChoice::Point(3), MoveChoice::Pass]);
        let g = ArbGame::arbitrary(&mut Unstructured::new(&bytes)).unwrap();
        assert_eq!(g.start, pos);
        assert_eq!(g.moves, vec![MoveChoice::Point(3), MoveChoice::Pass]);
        let e = encode_eye_case(pos.board(), ClosedRegion::SameColour).unwrap();
        let c = ArbEyeCase::arbitrary(&mut Unstructured::new(&e)).unwrap();
        assert_eq!(c.board, *pos.board());
        assert_eq!(c.closed_region, ClosedRegion::SameColour);
    }
}
