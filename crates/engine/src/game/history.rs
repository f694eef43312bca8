//! The earlier boards of a game ([`History`]): a persistent list that a position shares with
//! the positions its moves lead to, so that a move appends one board without copying the
//! others — a replay's cost per move does not grow with the game (issue 38; the fast engine's
//! own earlier boards are shared alike, `game::fast`).

use crate::board::grid::Board;
use std::sync::Arc;

/// Earlier direct boards, oldest first as a game adds them; the last is the board before the
/// previous move. Cloning it, and appending a board ([`History::pushed`]), cost the same at move
/// 300 as at move 3.
#[derive(Clone, Default)]
pub struct History {
    newest: Option<Arc<Node>>,
    len: usize,
}

struct Node {
    board: Board,
    earlier: Option<Arc<Node>>,
}

impl Drop for Node {
    /// Drops a long chain one node at a time (a chain dropped by recursion would take a stack
    /// frame per board).
    fn drop(&mut self) {
        let mut next = self.earlier.take();
        while let Some(node) = next {
            match Arc::try_unwrap(node) {
                Ok(mut n) => next = n.earlier.take(),
                Err(_) => break,
            }
        }
    }
}

impl History {
    /// The boards of `boards`, oldest first.
    pub fn from_boards(boards: Vec<Board>) -> History {
        let mut h = History::default();
        for b in boards {
            h = h.pushed(b);
        }
        h
    }

    /// This history with `board` appended (the newest).
    pub fn pushed(&self, board: Board) -> History {
        History {
            newest: Some(Arc::new(Node {
                board,
                earlier: self.newest.clone(),
            })),
            len: self.len + 1,
        }
    }

    /// The number of boards.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there is no earlier board.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The newest board: the board before the previous move.
    pub fn last(&self) -> Option<&Board> {
        self.newest.as_deref().map(|n| &n.board)
    }

    /// The boards, newest first.
    pub fn newest_first(&self) -> impl Iterator<Item = &Board> {
        std::iter::successors(self.newest.as_deref(), |n| n.earlier.as_deref()).map(|n| &n.board)
    }

    /// The boards, oldest first ([`History::newest_first`] reversed, copied).
    pub fn to_vec(&self) -> Vec<Board> {
        let mut v: Vec<Board> = self.newest_first().cloned().collect();
        v.reverse();
        v
    }
}

impl PartialEq for History {
    fn eq(&self, other: &History) -> bool {
        if self.len != other.len {
            return false;
        }
        let mut a = self.newest.as_ref();
        let mut b = other.newest.as_ref();
        loop {
            match (a, b) {
                (None, None) => return true,
                (Some(x), Some(y)) => {
                    // a shared tail is equal without being read
                    if Arc::ptr_eq(x, y) {
                        return true;
                    }
                    if x.board != y.board {
                        return false;
                    }
                    a = x.earlier.as_ref();
                    b = y.earlier.as_ref();
                }
                _ => return false,
            }
        }
    }
}

impl Eq for History {}

impl std::hash::Hash for History {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.len.hash(state);
        for b in self.newest_first() {
            b.hash(state);
        }
    }
}

impl std::fmt::Debug for History {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.to_vec()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(k: usize) -> Board {
        let mut rows = vec![". . .".to_string(); 3];
        if k > 0 {
            rows[(k - 1) % 3] = "X . .".into();
        }
        Board::from_diagram(&rows.join("\n"), 3).expect("a 3x3 board")
    }

    #[test]
    fn a_history_is_its_boards_in_order_and_shares_its_tail() {
        let boards: Vec<Board> = (0..4).map(board).collect();
        let h = History::from_boards(boards.clone());
        assert_eq!(h.len(), 4);
        assert_eq!(h.to_vec(), boards);
        assert_eq!(h.last(), Some(&boards[3]));
        assert_eq!(h.newest_first().count(), 4);
        let longer = h.pushed(board(2));
        assert_eq!(longer.len(), 5);
        assert_eq!(h.len(), 4, "the shorter history is unchanged");
        assert_ne!(longer, h);
        assert_eq!(
            longer,
            History::from_boards([boards, vec![board(2)]].concat())
        );
        assert!(History::default().is_empty());
        assert_eq!(History::default().last(), None);
    }

    #[test]
    fn a_long_history_drops_without_deep_recursion() {
        let mut h = History::default();
        for k in 0..200_000 {
            h = h.pushed(board(k % 4));
        }
        assert_eq!(h.len(), 200_000);
        drop(h);
    }
}
