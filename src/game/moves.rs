//! A move as written and as played: what it does (a point or a pass) and the number and turn
//! its writer claimed. Below the notation and the position, which both use it.

use crate::board::coord::Point;
use crate::game::order::Turn;
use serde::Serialize;

/// What a move does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Action {
    Place(Point),
    Pass,
}

/// A move as written: the action, and optionally the number and turn the writer claimed
/// (`黑291.七A` claims move 291, a black stone).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Move {
    pub action: Action,
    pub number: Option<u32>,
    pub turn: Option<Turn>,
}

impl Move {
    pub fn place(p: Point) -> Move {
        Move {
            action: Action::Place(p),
            number: None,
            turn: None,
        }
    }
    pub fn pass() -> Move {
        Move {
            action: Action::Pass,
            number: None,
            turn: None,
        }
    }
}
