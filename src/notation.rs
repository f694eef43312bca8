//! Move notation (D3-NOTATION, 004 手数坐标记谱法): `黑1.B二`, `白2.A二`, `华19.一B`, `花20.二B`;
//! 黑 / 白 a black / white stone, 华 black's flower, 花 white's flower, then the move number, a
//! dot and the point. `黑291.pass` is a pass. A bare point (`七A`) or `pass` takes the turn from
//! the schedule.

use crate::board::Colour;
use crate::coord::Point;
use crate::order::{Kind, Turn};
use crate::play::{Action, Move};
use std::fmt;

/// Why a move could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotationError(pub String);

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// The turn named by a notation symbol.
pub fn turn_of_symbol(c: char) -> Option<Turn> {
    let (player, kind) = match c {
        '黑' => (Colour::Black, Kind::Own),
        '白' => (Colour::White, Kind::Own),
        '华' => (Colour::Black, Kind::Flower),
        '花' => (Colour::White, Kind::Flower),
        _ => return None,
    };
    Some(Turn { player, kind })
}

fn parse_action(text: &str, size: usize) -> Result<Action, NotationError> {
    let t = text.trim();
    if t.eq_ignore_ascii_case("pass") || t == "虚着" {
        return Ok(Action::Pass);
    }
    Point::parse(t, size)
        .map(Action::Place)
        .map_err(|e| NotationError(e.0))
}

/// D3-NOTATION — "手数坐标记谱法，如上图：黑1.B二，白2.A二；……华19.一B，花20.二B" (004). Reads a move on a
/// board of `size`.
pub fn parse_move(text: &str, size: usize) -> Result<Move, NotationError> {
    let t = text.trim();
    let mut chars = t.chars();
    let Some(first) = chars.next() else {
        return Err(NotationError(
            "empty move: expected e.g. `黑291.七A`, `七A` or `pass`".into(),
        ));
    };
    let Some(turn) = turn_of_symbol(first) else {
        return parse_action(t, size)
            .map(|action| Move {
                action,
                number: None,
                turn: None,
            })
            .map_err(|e| NotationError(format!("move `{t}`: {e}")));
    };
    let rest = chars.as_str();
    let Some((num, point)) = rest.split_once('.') else {
        return Err(NotationError(format!(
            "move `{t}`: expected a move number and a dot after `{first}`, as in `{first}291.七A`"
        )));
    };
    let number: u32 = num
        .trim()
        .parse()
        .map_err(|_| NotationError(format!("move `{t}`: `{num}` is not a move number")))?;
    if number == 0 {
        return Err(NotationError(format!(
            "move `{t}`: move numbers start at 1"
        )));
    }
    let action =
        parse_action(point, size).map_err(|e| NotationError(format!("move `{t}`: {e}")))?;
    Ok(Move {
        action,
        number: Some(number),
        turn: Some(turn),
    })
}

/// Writes a move in the documents' notation.
pub fn format_move(turn: Turn, number: u32, action: Action) -> String {
    match action {
        Action::Pass => format!("{}{}.pass", turn.symbol(), number),
        Action::Place(p) => format!("{}{}.{}", turn.symbol(), number, p),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn d3_notation_examples_of_004() {
        let m = parse_move("黑1.B二", 9).unwrap();
        assert_eq!(m.action, Action::Place(Point::new(-2, 2)));
        assert_eq!(m.number, Some(1));
        assert_eq!(m.turn.unwrap().symbol(), '黑');
        let m = parse_move("花20.二B", 9).unwrap();
        assert_eq!(m.action, Action::Place(Point::new(2, -2)));
        assert_eq!(m.turn.unwrap().kind, Kind::Flower);
        assert_eq!(format_move(m.turn.unwrap(), 20, m.action), "花20.二B");
        assert_eq!(parse_move("黑291.pass", 19).unwrap().action, Action::Pass);
        assert!(parse_move("黑1.Z九", 19).is_err());
        assert!(parse_move("黑.七A", 19).is_err());
        assert!(parse_move("黑七A", 19).is_err());
    }
}
