//! Round trips of the coordinates (M16-COORD) and the move-number notation (D3-NOTATION) with
//! quickcheck: its shrinking reduces a failing point or move to the smallest counterexample
//! (the lowest size, the smallest coordinate, the lowest move number), which is what one wants
//! to read when a label table or a number format breaks. The board properties use proptest
//! (tests/it/properties.rs), whose strategies build the structured positions.

use m3go_engine::board::coord::{MAX_SIZE, MIN_SIZE};
use m3go_engine::{Action, Labels, Move, Notation, Point, Rules, Turn};
use quickcheck::{quickcheck, TestResult};

/// An odd board size from 3 to 19 and a point on it, from three arbitrary numbers.
fn board_point(size: u8, x: i8, y: i8) -> (usize, Point) {
    let sizes = (MAX_SIZE - MIN_SIZE) / 2 + 1;
    let size = MIN_SIZE + 2 * (usize::from(size) % sizes);
    let half = (size / 2) as i32;
    let wrap = |v: i8| i32::from(v).rem_euclid(2 * half + 1) - half;
    (
        size,
        Point {
            x: wrap(x),
            y: wrap(y),
        },
    )
}

quickcheck! {
    /// A point written in either label system reads back as the same point.
    fn m16_coord_point_round_trips_in_both_label_systems(size: u8, x: i8, y: i8) -> bool {
        let (size, p) = board_point(size, x, y);
        [Labels::Chinese, Labels::Latin]
            .into_iter()
            .all(|l| Point::parse(&p.format(l), size).ok() == Some(p))
    }

    /// A point beyond the board's half-width is refused, whatever it is written as.
    fn m16_coord_off_board_points_are_refused(size: u8, x: i8, y: i8) -> TestResult {
        let (size, p) = board_point(size, x, y);
        if size == MAX_SIZE {
            return TestResult::discard();
        }
        let outside = Point { x: (size / 2) as i32 + 1, y: p.y };
        TestResult::from_bool(Point::parse(&outside.format(Labels::Chinese), size).is_err())
    }

    /// A move written in 004's move-number notation (`黑1.B二`, `华19.一B`) reads back as the
    /// same number, turn and point, under every preset's schedule.
    fn d3_notation_moves_round_trip(preset: u8, number: u16, size: u8, x: i8, y: i8, pass: bool) -> bool {
        let names = m3go_engine::Rules::PRESETS;
        let rules = Rules::preset(names[usize::from(preset) % names.len()]).expect("preset");
        let (size, p) = board_point(size, x, y);
        let n = u32::from(number) + 1;
        let turn = Turn::of_move(&rules, n);
        let action = if pass { Action::Pass } else { Action::Place(p) };
        let text = Notation::format_numbered(&rules, n, turn, action);
        match Move::parse_in(&text, &rules, size) {
            Ok(m) => m.action == action && m.number.is_none_or(|k| k == n) && m.turn.is_none_or(|t| t == turn),
            Err(_) => false,
        }
    }
}
