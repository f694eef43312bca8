//! Move notation and coordinates: parse_move, Point::parse and Target::parse never panic on any
//! text; what they accept lies on the board and is written back to the same move or point.
//! Input: one byte for the board size (index into 3, 5, … 19), then the text.
#![no_main]

use libfuzzer_sys::fuzz_target;
use m3go_engine::testing::ODD_SIZES;
use m3go_engine::{Action, Labels, Move, Notation, Point, Target};

fuzz_target!(|data: &[u8]| {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let size = ODD_SIZES[first as usize % ODD_SIZES.len()];
    let text = String::from_utf8_lossy(rest);
    if let Ok(m) = Move::parse(&text, size) {
        if let Action::Place(p) = m.action {
            assert!(
                p.on_board(size),
                "{text:?} gives {p:?}, off the {size} board"
            );
        }
        if let (Some(turn), Some(n)) = (m.turn, m.number) {
            let written = Notation::format_move(turn, n, m.action);
            let back = Move::parse(&written, size)
                .unwrap_or_else(|e| panic!("{text:?} -> {written:?} does not read back: {e}"));
            assert_eq!(back, m, "{text:?} -> {written:?}");
        }
    }
    for t in [text.as_ref(), text.trim_end_matches('*')] {
        if let Ok(p) = Point::parse(t, size) {
            assert!(p.on_board(size));
            for labels in [Labels::Chinese, Labels::Latin] {
                let w = p.format(labels);
                assert_eq!(Point::parse(&w, size).ok(), Some(p), "{t:?} -> {w:?}");
            }
        }
    }
    if let Ok(t) = Target::parse(&text, size) {
        assert!(t.point.on_board(size));
    }
});
