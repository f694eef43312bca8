//! A move as written and as played: what it does (a point or a pass) and the number and turn
//! its writer claimed. Below the notation and the position, which both use it.

use crate::board::coord::Point;
use crate::game::order::Turn;

/// What a move does. Written as its point's label (`七A`) or `pass`, like every point of m3go's
/// JSON.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    Place(Point),
    Pass,
}

impl serde::Serialize for Action {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Action::Place(p) => p.serialize(s),
            Action::Pass => s.serialize_str("pass"),
        }
    }
}

impl schemars::JsonSchema for Action {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Action".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "description": "A point's label in either label system (七A, 7a) or `pass`.",
            "type": "string",
            "minLength": 1
        })
    }
}

/// A move as written: the action, and optionally the number and turn the writer claimed
/// (`黑291.七A` claims move 291, a black stone).
///
/// ```
/// use m3go_engine::{Move, Point, Rules};
///
/// // a point on a 5×5 board, with no claim
/// let mv = Move::parse_in("二二", &Rules::m3go_2020(), 5)?;
/// assert_eq!(mv, Move::stone(Point::parse("二二", 5)?));
/// assert_ne!(mv, Move::pass());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Move {
    pub action: Action,
    pub number: Option<u32>,
    pub turn: Option<Turn>,
}

impl Move {
    /// A stone on `p`, claiming no number and no turn: the stone of whoever is to move.
    ///
    /// ```
    /// use m3go_engine::{Action, Move, Point};
    ///
    /// let m = Move::stone(Point::new(7, -1));
    /// assert_eq!(m.action, Action::Place(Point::new(7, -1)));
    /// assert_eq!((m.number, m.turn), (None, None));
    /// assert_eq!(m, "七A".parse().unwrap());
    /// ```
    pub fn stone(p: Point) -> Move {
        Move {
            action: Action::Place(p),
            number: None,
            turn: None,
        }
    }

    /// A pass, claiming no number and no turn.
    ///
    /// ```
    /// use m3go_engine::Move;
    ///
    /// assert_eq!(Move::pass(), "pass".parse().unwrap());
    /// ```
    pub fn pass() -> Move {
        Move {
            action: Action::Pass,
            number: None,
            turn: None,
        }
    }
}

impl From<Action> for Move {
    /// The action as a move claiming no number and no turn ([`Move::stone`], [`Move::pass`]).
    fn from(action: Action) -> Move {
        Move {
            action,
            number: None,
            turn: None,
        }
    }
}
