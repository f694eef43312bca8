//! Boards and positions for tests: the cell codes of the generators (0 empty, 1 black, 2
//! white, 3 flower), settling a board, and a fresh validated position.

use crate::board::grid::{Board, Stone};
use crate::game::play::{Position, PositionParts};
use crate::judge::analysis::Analysis;
use crate::rules::{Rules, Schedule};

/// The board sizes: odd, 3 to 19.
pub const ODD_SIZES: [usize; 9] = [3, 5, 7, 9, 11, 13, 15, 17, 19];

/// The stone of a cell code: 0 empty, 1 black, 2 white, 3 flower (codes taken modulo 4).
pub fn stone_of_code(code: u8) -> Option<Stone> {
    match code % 4 {
        1 => Some(Stone::Black),
        2 => Some(Stone::White),
        3 => Some(Stone::Flower),
        _ => None,
    }
}

/// The code of a stone (inverse of [`stone_of_code`]).
pub fn code_of_stone(s: Option<Stone>) -> u8 {
    match s {
        None => 0,
        Some(Stone::Black) => 1,
        Some(Stone::White) => 2,
        Some(Stone::Flower) => 3,
    }
}

/// A direct board of `size` from cell codes, top row first (missing codes are empty).
pub fn board_from_codes(size: usize, codes: &[u8]) -> Board {
    // an invalid size gives the 3x3 board (3 is always a valid size)
    let mut b = Board::empty(size)
        .or_else(|_| Board::empty(3))
        .unwrap_or_else(|e| panic!("the 3x3 board: {e}"));
    for (i, &c) in codes.iter().enumerate().take(size * size) {
        b.set(i, stone_of_code(c));
    }
    b
}

/// The board's cell codes, top row first.
pub fn codes_of_board(b: &Board) -> Vec<u8> {
    b.cells().iter().map(|&c| code_of_stone(c)).collect()
}

/// Makes a board settled: removes every black or white upper string without a liberty (stones
/// and attributed flowers alike), recomputing the analysis, until none is left.
pub fn settle(mut board: Board, rules: &Rules) -> Board {
    loop {
        let a = Analysis::new(&board, rules);
        let dead: Vec<usize> = a
            .upper_strings
            .groups
            .iter()
            .filter(|s| s.colour.is_some() && s.liberties.is_empty())
            .flat_map(|s| s.points.iter().copied())
            .collect();
        if dead.is_empty() {
            return board;
        }
        for i in dead {
            board.set(i, None);
        }
    }
}

/// Whether no black or white upper string is without a liberty.
pub fn is_settled(board: &Board, rules: &Rules) -> bool {
    Analysis::new(board, rules)
        .upper_strings
        .groups
        .iter()
        .all(|s| s.colour.is_none() || !s.liberties.is_empty())
}

/// A fresh position (no history, no passes, no dead stones), validated as a position file is.
/// Under the Flystone schedule the move number is 1: a later one would need the record of the
/// flystones thrown before it.
///
/// # Panics
/// When the board is not settled under `rules` (see [`settle`]); the message lists every
/// problem.
pub fn position(board: Board, rules: Rules, move_number: u32) -> Position {
    let move_number = if rules.schedule == Schedule::Flystone {
        1
    } else {
        move_number.max(1)
    };
    PositionParts {
        rules,
        board,
        move_number,
        history: Vec::new(),
        trailing_passes: 0,
        dead: Vec::new(),
        flystone: None,
    }
    .validate("testing::position")
    .unwrap_or_else(|e| panic!("{e}"))
}
