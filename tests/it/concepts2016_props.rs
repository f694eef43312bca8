//! Property tests of the 2016 report (000 九–十二, register D31) over random settled positions
//! under m3go-2016: every common eye is the inside of a ring band, no string is reported both
//! to be captured and alive, and `explain` says dying for every string its chain splits off.

use m3go_engine::testing::{board_from_codes, position, settle};
use m3go_engine::{Board, Cell, Labels, Position, Rules, Stone};
use proptest::prelude::*;

/// A settled 2016 position on a 5×5 to 9×9 board (a third of the points empty).
fn position_2016() -> impl Strategy<Value = Position> {
    prop::sample::select(vec![5usize, 7, 9]).prop_flat_map(|n| {
        prop::collection::vec(
            prop_oneof![3 => Just(0u8), 3 => Just(1u8), 3 => Just(2u8), 1 => Just(3u8)],
            n * n,
        )
        .prop_map(move |codes| {
            let rules = Rules::preset("m3go-2016").expect("preset");
            let b = settle(board_from_codes(n, &codes), &rules);
            position(b, rules, 61)
        })
    })
}

fn index(b: &Board, p: m3go_engine::Point) -> usize {
    b.index(p)
}

/// `explain` of upper string `name` at one of its black or white stones (a converted grey's
/// point would explain the grey string).
fn explain_string(
    pos: &Position,
    m: &m3go_engine::formats::report::M2016Report,
    name: &m3go_engine::board::StringName,
) -> String {
    let b = pos.board();
    let s = m.strings.iter().find(|s| s.name == *name).expect("string");
    let at = s
        .points
        .iter()
        .find(|&&p| b.get(b.index(p)) != Some(Stone::Flower))
        .expect("a black or white stone");
    m3go_engine::formats::explain::Trace::explain(pos, &at.format(Labels::default()))
        .expect("explain")
        .format(Labels::default())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    #[test]
    fn m16_report_common_eyes_are_insides_and_no_string_is_captured_and_alive(pos in position_2016()) {
        let a = pos.analysis();
        let r = m3go_engine::formats::report::AnalysisReport::of(&pos, &a);
        let m = r.m2016.as_ref().expect("the 2016 report");
        let b = pos.board();
        let n = b.size();
        for e in m.eyes.iter().filter(|e| e.kind == m3go_engine::judge::EyeKind::Common) {
            let colour = m.strings.iter().find(|s| s.name == e.owners[0]).expect("owner").colour;
            let points: Vec<usize> = e.points.iter().map(|&p| index(b, p)).collect();
            // closed: from its empty points, only walls of the colour and neutral grey stop
            let start = index(b, e.empty[0]);
            let mut seen = vec![false; n * n];
            let mut stack = vec![start];
            seen[start] = true;
            while let Some(p) = stack.pop() {
                prop_assert!(points.contains(&p), "eye {:?} runs out at {}", e.empty, p);
                let (x, y) = (p % n, p / n);
                let mut next = Vec::new();
                if x > 0 { next.push(p - 1); }
                if x + 1 < n { next.push(p + 1); }
                if y > 0 { next.push(p - n); }
                if y + 1 < n { next.push(p + n); }
                for q in next {
                    let wall = matches!(a.upper.cells[q], Cell::OffBoard)
                        || a.upper.cells[q] == Cell::Stone(colour);
                    if !wall && !seen[q] {
                        seen[q] = true;
                        stack.push(q);
                    }
                }
            }
            // an inside: it does not reach all four sides of the board
            let sides = [
                points.iter().any(|&p| p % n == 0),
                points.iter().any(|&p| p % n == n - 1),
                points.iter().any(|&p| p / n == 0),
                points.iter().any(|&p| p / n == n - 1),
            ];
            prop_assert!(!sides.iter().all(|&s| s), "eye {:?} touches every side", e.empty);
        }
        for ch in &m.chains {
            for s in &ch.split_off {
                let sr = m.strings.iter().find(|x| x.name == *s).expect("string");
                if sr.long_living {
                    continue;
                }
                // dying by its chain in explain too, and never dying and long-living at once
                let t = explain_string(&pos, m, s);
                prop_assert!(
                    t.contains("dying by its chain (会被提吃, M16-LIFE-4-SPLIT): yes"),
                    "{t}"
                );
            }
        }
        for s in &m.strings {
            prop_assert!(!(s.dead && s.long_living), "{:?} dead and long-living", s.name);
            let t = explain_string(&pos, m, &s.name);
            prop_assert!(
                !(t.contains("dying by its chain (会被提吃, M16-LIFE-4-SPLIT): yes")
                    && t.contains("long-living (长活, M16-LIFE-3): yes")),
                "captured and alive in one answer:\n{t}"
            );
        }
    }
}
