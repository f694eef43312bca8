//! The direct board (直弈棋局): stones of three colours on an odd square board (M16-BOARD).

use crate::board::coord::{Point, StringName, MAX_SIZE, MIN_SIZE};
use std::fmt;

/// A stone of the direct board. Three colours; the *players* are only two ([`Colour`]).
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    Hash,
    serde::Serialize,
    serde::Deserialize,
    schemars::JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum Stone {
    Black,
    White,
    /// The flower (grey) stone, 花子 / 灰子.
    Flower,
}

/// A player, or the colour a flower string takes in the upper layer.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    serde::Serialize,
    serde::Deserialize,
    schemars::JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum Colour {
    Black,
    White,
}

impl Colour {
    /// The other player.
    pub fn opponent(self) -> Colour {
        match self {
            Colour::Black => Colour::White,
            Colour::White => Colour::Black,
        }
    }
    /// The player's own stone (black or white, not a flower).
    pub fn stone(self) -> Stone {
        match self {
            Colour::Black => Stone::Black,
            Colour::White => Stone::White,
        }
    }
    /// The name the outputs write (`black`, `white`, …).
    pub fn name(self) -> &'static str {
        match self {
            Colour::Black => "black",
            Colour::White => "white",
        }
    }
}

impl Stone {
    /// The player colour of a black or white stone.
    pub fn colour(self) -> Option<Colour> {
        match self {
            Stone::Black => Some(Colour::Black),
            Stone::White => Some(Colour::White),
            Stone::Flower => None,
        }
    }
    /// The name the outputs write (`black`, `white`, …).
    pub fn name(self) -> &'static str {
        match self {
            Stone::Black => "black",
            Stone::White => "white",
            Stone::Flower => "flower",
        }
    }
    /// Diagram character of the direct board.
    pub fn diagram_char(self) -> char {
        match self {
            Stone::Black => 'X',
            Stone::White => 'O',
            Stone::Flower => '#',
        }
    }
}

/// The direct board: what stands on each point.
///
/// ```
/// use m3go_engine::{Board, Point};
///
/// let board = Board::empty(9)?;
/// assert_eq!(board.size(), 9);
/// assert_eq!(board.at(Point::new(0, 0)), None); // nothing stands on tengen
/// assert!(board.to_diagram().starts_with('.'));
/// assert!(Board::empty(4).is_err()); // sizes are odd, from 5
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    size: usize,
    cells: Vec<Option<Stone>>,
}

/// One problem of a board size or a diagram, with its place (row and column count from 1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BoardProblem {
    /// The size is not odd from 3 to 19.
    Size { size: usize },
    /// The diagram has `rows` rows where `size` were expected.
    RowCount { rows: usize, size: usize },
    /// Row `row` has `points` points where `size` were expected.
    RowWidth {
        row: usize,
        points: usize,
        size: usize,
    },
    /// An unknown character at row `row`, column `column`.
    UnknownCharacter { row: usize, column: usize, ch: char },
}

impl fmt::Display for BoardProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            BoardProblem::Size { size } => write!(
                f,
                "board size {size} is not allowed: expected an odd size from {MIN_SIZE} to {MAX_SIZE}"
            ),
            BoardProblem::RowCount { rows, size } => write!(
                f,
                "diagram has {rows} rows: expected {size} rows for a {size}x{size} board"
            ),
            BoardProblem::RowWidth { row, points, size } => {
                write!(f, "diagram row {row} has {points} points: expected {size}")
            }
            BoardProblem::UnknownCharacter { row, column, ch } => write!(
                f,
                "diagram row {row} column {column}: unknown character `{ch}` (expected . X O #)"
            ),
        }
    }
}

/// Why a diagram or a size was refused: every problem found, in reading order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardError {
    pub problems: Vec<BoardProblem>,
}

impl fmt::Display for BoardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        crate::error::write_joined(f, &self.problems)
    }
}

impl std::error::Error for BoardError {}

/// As a bad input, with this error's message.
impl From<BoardError> for crate::error::InputError {
    fn from(e: BoardError) -> Self {
        crate::error::InputError::new(e.to_string())
    }
}

impl Board {
    /// M16-BOARD — board sizes: odd, 3 to 19 (000 describes 19×19; 004 uses 9, 11, 13).
    /// S3-BOARD: Flystone's usual 9, 11 and 13 are among them.
    pub fn check_size(size: usize) -> Result<(), BoardError> {
        if !(MIN_SIZE..=MAX_SIZE).contains(&size) || size % 2 == 0 {
            return Err(BoardError {
                problems: vec![BoardProblem::Size { size }],
            });
        }
        Ok(())
    }

    /// The name of the string of `points` (indices, in order): its first point (top row first),
    /// written with `*`.
    pub fn string_name(&self, points: &[usize]) -> StringName {
        StringName(self.point(points[0]))
    }

    /// An empty board; the size must be odd, 3..=19.
    pub fn empty(size: usize) -> Result<Board, BoardError> {
        Board::check_size(size)?;
        Ok(Board {
            size,
            cells: vec![None; size * size],
        })
    }

    /// The board's side: the number of rows (and columns).
    pub fn size(&self) -> usize {
        self.size
    }

    /// Number of points (361 on 19×19).
    pub fn len(&self) -> usize {
        self.cells.len()
    }

    /// Whether no stone stands on the board.
    pub fn is_empty(&self) -> bool {
        self.cells.iter().all(|c| c.is_none())
    }

    /// Index of a point (top row first). The point must be on the board.
    /// M16-POINT: one cell per point (intersection); stones are placed on points.
    pub fn index(&self, p: Point) -> usize {
        crate::board::coord::index_of(self.size, p)
    }

    /// Point of an index.
    pub fn point(&self, i: usize) -> Point {
        crate::board::coord::point_of(self.size, i)
    }

    /// The stone on point number `i` (row by row, [`Board::index`]), `None` on an empty point.
    pub fn get(&self, i: usize) -> Option<Stone> {
        self.cells[i]
    }

    /// The stone on `p`, `None` on an empty point.
    pub fn at(&self, p: Point) -> Option<Stone> {
        self.cells[self.index(p)]
    }

    /// Puts `s` on point number `i` (`None` empties it).
    pub fn set(&mut self, i: usize, s: Option<Stone>) {
        self.cells[i] = s;
    }

    /// Every point's stone, in point-number order ([`Board::index`]).
    pub fn cells(&self) -> &[Option<Stone>] {
        &self.cells
    }

    /// Indices of the neighbours of index `i` (M16-ADJ, see `neighbours`).
    pub fn neighbours(&self, i: usize) -> Neighbours {
        neighbours(self.size, i)
    }

    /// M16-STAR — "在棋盘上标有9个较大的圆点 ， 称作 “ 星 ” ，正中的星又叫 “ 天元 ”" (000): the star
    /// points, tengen first. On 19×19 the nine points (0,0), (±6,0), (0,±6), (±6,±6); on other
    /// sizes the usual ones (4th line from 13×13 up, 3rd line on 7–11, only the tengen below 7;
    /// side stars from 13×13 up). Display only: no rule depends on them.
    pub fn star_points(&self) -> Vec<Point> {
        let h = Point::half(self.size);
        let mut out = vec![Point::new(0, 0)];
        if self.size < 7 {
            return out;
        }
        let d = if self.size >= 13 { h - 3 } else { h - 2 };
        for (x, y) in [(-d, d), (d, d), (-d, -d), (d, -d)] {
            out.push(Point::new(x, y));
        }
        if self.size >= 13 {
            for (x, y) in [(0, d), (0, -d), (-d, 0), (d, 0)] {
                out.push(Point::new(x, y));
            }
        }
        out
    }

    /// Reads a direct-board diagram: `size` rows, top row first, of `.`, `X`, `O`, `#`; spaces
    /// inside a row are ignored. Every problem is reported with its row and column.
    /// D3-STONES: the three kinds of stone, black `X`, white `O`, flower (grey) `#`.
    pub fn from_diagram(text: &str, size: usize) -> Result<Board, BoardError> {
        Board::check_size(size)?;
        let rows: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
        let mut problems = Vec::new();
        if rows.len() != size {
            problems.push(BoardProblem::RowCount {
                rows: rows.len(),
                size,
            });
        }
        let mut board = Board::empty(size)?;
        for (r, row) in rows.iter().enumerate().take(size) {
            let chars: Vec<char> = row.chars().filter(|c| !c.is_whitespace()).collect();
            if chars.len() != size {
                problems.push(BoardProblem::RowWidth {
                    row: r + 1,
                    points: chars.len(),
                    size,
                });
                continue;
            }
            for (c, ch) in chars.iter().enumerate() {
                let cell = match ch {
                    '.' | '+' => None,
                    'X' => Some(Stone::Black),
                    'O' => Some(Stone::White),
                    '#' => Some(Stone::Flower),
                    other => {
                        problems.push(BoardProblem::UnknownCharacter {
                            row: r + 1,
                            column: c + 1,
                            ch: *other,
                        });
                        continue;
                    }
                };
                board.cells[r * size + c] = cell;
            }
        }
        if problems.is_empty() {
            Ok(board)
        } else {
            Err(BoardError { problems })
        }
    }

    /// Writes the direct-board diagram, one row a line, points separated by spaces.
    pub fn to_diagram(&self) -> String {
        render_rows(self.size, |i| match self.cells[i] {
            None => '.',
            Some(s) => s.diagram_char(),
        })
    }
}

/// Writes `size` rows of characters, separated by spaces, top row first.
pub(crate) fn render_rows(size: usize, ch: impl Fn(usize) -> char) -> String {
    let mut out = String::with_capacity(size * size * 4);
    for r in 0..size {
        for c in 0..size {
            if c > 0 {
                out.push(' ');
            }
            out.push(ch(r * size + c));
        }
        out.push('\n');
    }
    out
}

/// Up to four neighbour indices.
#[derive(Clone, Copy)]
pub struct Neighbours {
    items: [usize; 4],
    len: u8,
    pos: u8,
}

impl Iterator for Neighbours {
    type Item = usize;
    fn next(&mut self) -> Option<usize> {
        if self.pos < self.len {
            self.pos += 1;
            Some(self.items[self.pos as usize - 1])
        } else {
            None
        }
    }
}

/// Neighbour indices of index `i` on a board of `size` (top row first).
/// M16-ADJ, M16-ADJ-STONES: points (and the stones on them) are adjacent iff they differ by one
/// in exactly one coordinate. M16-UNIT-SEGMENT: each pair returned is one unit segment.
pub(crate) fn neighbours(size: usize, i: usize) -> Neighbours {
    let (r, c) = (i / size, i % size);
    let mut n = Neighbours {
        items: [0; 4],
        len: 0,
        pos: 0,
    };
    let mut push = |j: usize| {
        n.items[n.len as usize] = j;
        n.len += 1;
    };
    if c + 1 < size {
        push(i + 1);
    }
    if c > 0 {
        push(i - 1);
    }
    if r > 0 {
        push(i - size);
    }
    if r + 1 < size {
        push(i + size);
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn m16_board_index_round_trip_and_orientation() {
        let b = Board::empty(19).unwrap();
        let top_left = Point::new(-9, 9);
        assert_eq!(b.index(top_left), 0);
        assert_eq!(b.index(Point::new(0, 0)), 180);
        for i in 0..b.len() {
            assert_eq!(b.index(b.point(i)), i);
        }
        assert_eq!(b.neighbours(0).count(), 2);
        assert_eq!(b.neighbours(180).count(), 4);
    }

    #[test]
    fn m16_star_nine_star_points_on_19x19_with_the_tengen() {
        let b = Board::empty(19).unwrap();
        let stars = b.star_points();
        assert_eq!(stars.len(), 9);
        assert_eq!(stars[0], Point::new(0, 0));
        assert!(stars.contains(&Point::new(6, -6)) && stars.contains(&Point::new(-6, 0)));
        assert_eq!(Board::empty(9).unwrap().star_points().len(), 5);
        assert_eq!(
            Board::empty(5).unwrap().star_points(),
            vec![Point::new(0, 0)]
        );
    }

    #[test]
    fn m16_board_rejects_even_and_oversized() {
        assert!(Board::empty(8).is_err());
        assert!(Board::empty(21).is_err());
        assert!(Board::empty(1).is_err());
        assert!(Board::empty(3).is_ok());
    }

    #[test]
    fn diagram_round_trip_and_errors() {
        let d = "X . #\n. O .\n# . X\n";
        let b = Board::from_diagram(d, 3).unwrap();
        assert_eq!(b.at(Point::new(-1, 1)), Some(Stone::Black));
        assert_eq!(b.at(Point::new(1, 1)), Some(Stone::Flower));
        assert_eq!(b.to_diagram(), d);
        let e = Board::from_diagram("X . #\n. Q .\n# .\n", 3).unwrap_err();
        let text = e.to_string();
        assert!(text.contains("row 2 column 2"), "{text}");
        assert!(text.contains("row 3 has 2 points"), "{text}");
        assert!(e.problems.contains(&BoardProblem::UnknownCharacter {
            row: 2,
            column: 2,
            ch: 'Q'
        }));
    }
}
