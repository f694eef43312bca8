//! The closed regions of the 2016 text (000 九.1) on the upper layer, each with the ring band
//! that closes it, for the common eye (公眼, 九.3) and for the eyes of a string a converted grey
//! joined (十二.1). Register D31 item 1.
//!
//! For a colour, the walls are its stones and the neutral grey stones (the layer's `OffBoard`
//! cells); the parts are the 4-connected components of the other points (empty points and the
//! other colour's stones). A part that needs a stone of the other colour to be closed runs into
//! the rest of the board: 「特别地，由黑棋串和白棋串共同参与围住的…不是公眼」. The outer part (the rest of
//! the board, [`outer_part`] in D26's and D27's terms) is no closed region. Of the wall strings
//! next to a part, those that lie *inside* it are left out of its ring (「当上述封闭区域内另有棋子
//! （如白子，或灰子，或黑子），不影响此公眼的定性」): a wall string is in the ring when it can be reached
//! from the outer part without crossing the part, and it parts the part from another one (taking
//! it away would join them); the others, and whatever can be reached from them only through the
//! part, are inside and belong to the region.

use crate::board::grid::{neighbours, Colour};
use crate::board::layers::{Cell, Layer};
use crate::board::strings::{components, Strings};
use crate::judge::eyes::outer_part;

/// One 2016 closed region of the upper layer for one colour, with the strings of its ring band.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Ring2016 {
    pub colour: Colour,
    /// The strings of the colour in the ring band (indices into the upper strings), ascending.
    pub owners: Vec<usize>,
    /// Whether a neutral grey string is in the ring band.
    pub grey: bool,
    /// The region: the part and everything inside it (stones too), ascending.
    pub points: Vec<usize>,
    /// Its empty points, ascending.
    pub empty: Vec<usize>,
    /// Whether a string of the ring has a liberty inside (九.2's a, 「至少1口内气」, carried over).
    pub inner_liberty: bool,
}

/// A node of the graph the rings are read from: a part, or a wall string (of the colour, or
/// neutral grey).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Wall {
    Own(usize),
    Grey,
}

/// M16-REGION (九.1) on the upper layer: every closed region of each colour with its ring band,
/// by colour (black first), then by the region's first point. Regions without an empty point
/// are left out (a common eye 「含有至少1个空点」).
pub(crate) fn rings_2016(upper: &Layer, strings: &Strings) -> Vec<Ring2016> {
    let mut out = Vec::new();
    for colour in [Colour::Black, Colour::White] {
        out.extend(rings_of(upper, strings, colour));
    }
    out
}

fn rings_of(upper: &Layer, strings: &Strings, colour: Colour) -> Vec<Ring2016> {
    let size = upper.size;
    let n = upper.cells.len();
    let is_wall = |p: usize| matches!(upper.cells[p], Cell::OffBoard) || upper.cells[p] == Cell::Stone(colour);
    let on_edge = |p: usize| {
        let (x, y) = (p % size, p / size);
        x == 0 || y == 0 || x + 1 == size || y + 1 == size
    };
    // nodes: the parts, then the wall strings (strings of the colour, grey components)
    let parts: Vec<Vec<usize>> = components(size, |p| (!is_wall(p)).then_some(()))
        .into_iter()
        .map(|(_, v)| v)
        .collect();
    let mut walls: Vec<(Wall, Vec<usize>)> = components(size, |p| match upper.cells[p] {
        Cell::OffBoard => Some(Wall::Grey),
        _ => None,
    });
    walls.extend(
        strings
            .groups
            .iter()
            .enumerate()
            .filter(|(_, g)| g.colour == Some(colour))
            .map(|(k, g)| (Wall::Own(k), g.points.clone())),
    );
    let k = parts.len();
    let mut node = vec![usize::MAX; n];
    for (i, v) in parts.iter().enumerate() {
        v.iter().for_each(|&p| node[p] = i);
    }
    for (j, (_, v)) in walls.iter().enumerate() {
        v.iter().for_each(|&p| node[p] = k + j);
    }
    let total = k + walls.len();
    let mut adj: Vec<Vec<usize>> = vec![Vec::new(); total];
    for p in 0..n {
        for q in neighbours(size, p) {
            let (x, y) = (node[p], node[q]);
            if x != y && !adj[x].contains(&y) {
                adj[x].push(y);
            }
        }
    }
    let sides: Vec<(usize, bool)> = parts
        .iter()
        .map(|v| (v.len(), v.iter().any(|&p| on_edge(p))))
        .collect();
    let outer = outer_part(&sides);
    let mut out = Vec::new();
    for r in 0..k {
        if Some(r) == outer {
            continue;
        }
        // what can be reached from the outside without crossing r
        let seeds: Vec<usize> = match outer {
            Some(o) => vec![o],
            None => (0..k).filter(|&i| i != r && sides[i].1).collect(),
        };
        let reached = reach(&adj, &seeds, |x| x != r);
        let mut inside = vec![false; total];
        inside[r] = true;
        let mut ring = Vec::new();
        for &w in adj[r].iter().filter(|&&w| w >= k) {
            // in the ring: reached from the outside, and parting r from another part
            if reached[w] && adj[w].iter().any(|&x| x < k && x != r) {
                ring.push(w);
            } else {
                inside[w] = true;
            }
        }
        // what hangs on r through the walls inside it (a string inside with its own eye)
        let hanging: Vec<usize> = (0..total).filter(|&x| inside[x] && x != r).collect();
        let below = reach(&adj, &hanging, |x| x != r && !reached[x]);
        let mut points: Vec<usize> = (0..n)
            .filter(|&p| inside[node[p]] || below[node[p]])
            .collect();
        points.sort_unstable();
        let empty: Vec<usize> = points
            .iter()
            .copied()
            .filter(|&p| upper.cells[p] == Cell::Empty)
            .collect();
        if empty.is_empty() {
            continue;
        }
        let mut owners: Vec<usize> = ring
            .iter()
            .filter_map(|&w| match walls[w - k].0 {
                Wall::Own(s) => Some(s),
                Wall::Grey => None,
            })
            .collect();
        owners.sort_unstable();
        let grey = ring.iter().any(|&w| walls[w - k].0 == Wall::Grey);
        let inner_liberty = owners.iter().any(|&o| {
            strings.groups[o]
                .liberties
                .iter()
                .any(|l| empty.binary_search(l).is_ok())
        });
        out.push(Ring2016 {
            colour,
            owners,
            grey,
            points,
            empty,
            inner_liberty,
        });
    }
    out.sort_by_key(|r| r.points[0]);
    out
}

/// The nodes reached from `seeds` through nodes `through` admits (the seeds included).
fn reach(adj: &[Vec<usize>], seeds: &[usize], through: impl Fn(usize) -> bool) -> Vec<bool> {
    let mut seen = vec![false; adj.len()];
    let mut stack: Vec<usize> = seeds.to_vec();
    for &s in seeds {
        seen[s] = true;
    }
    while let Some(x) = stack.pop() {
        for &y in &adj[x] {
            if !seen[y] && through(y) {
                seen[y] = true;
                stack.push(y);
            }
        }
    }
    seen
}

/// M16-COMMON-EYE / M16-COMMON-EYE-GREY / M16-COMMON-EYE-CONTENT — "两个或两个以上同色棋串共同围住的
/// 含有至少1个空点的封闭区域 … 或者由一个以上黑棋串（或者白棋串）再加上一个以上处于“中性分隔串”状态的灰棋串共同
/// 围住 … 当上述封闭区域内另有棋子（如白子，或灰子，或黑子），不影响此公眼的定性" (000 九.3). Whether a ring
/// band makes its region a common eye: two or more strings of the colour in it, or one with a
/// neutral grey string; the stones inside do not count (they are not in the ring). As for the
/// private eye (九.2's a, 「围出私眼的棋串必须具有至少1口内气」), a string of the ring must have a liberty
/// inside: a string of the other colour walled in with all its empty points is no eye of the
/// strings walling it (000's white G八* around black I八*, register D31).
pub(crate) fn is_common_eye(r: &Ring2016) -> bool {
    r.inner_liberty && (r.owners.len() >= 2 || (r.owners.len() == 1 && r.grey))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::coord::Point;
    use crate::board::grid::Board;
    use crate::judge::analysis::Analysis;
    use crate::judge::eyes2016::common_eyes_2016;
    use crate::rules::Rules;

    fn analysis(d: &str) -> (Board, Analysis) {
        let rows = d.lines().filter(|l| !l.trim().is_empty()).count();
        let b = Board::from_diagram(d, rows).expect("diagram");
        let a = Analysis::new(&b, &Rules::preset("m3go-2016").expect("preset"));
        (b, a)
    }

    fn at(b: &Board, s: &str) -> usize {
        b.index(Point::parse(s, b.size()).expect("point"))
    }

    #[test]
    fn m16_common_eye_two_lone_stones_share_none() {
        // 九.1: the board without the two stones is one part, the outer one: no closed region.
        let (_, a) = analysis(
            "
. . . . . . . . .
. . . . . . . . .
. . X . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . X . .
. . . . . . . . .
. . . . . . . . .
",
        );
        assert!(rings_2016(&a.upper, &a.upper_strings).is_empty());
        assert!(common_eyes_2016(&a.upper, &a.upper_strings, crate::rules::FalseEye2016::TwoColourGo).is_empty());
    }

    #[test]
    fn m16_common_eye_is_the_inside_of_the_ring_not_the_outside() {
        // Three black strings (the top and left arms, the right arm, the bottom arm, touching
        // only diagonally) ring the centre: the inside is their common eye, the rest of the
        // board is not. A lone black stone OO and a white stone 一O inside change nothing (九.3).
        let (b, a) = analysis(
            "
. . . . . . .
. X X X X . .
. X . . . X .
. X . X O X .
. X . . . X .
. . X X X . .
. . . . . . .
",
        );
        let common = common_eyes_2016(&a.upper, &a.upper_strings, crate::rules::FalseEye2016::TwoColourGo);
        assert_eq!(common.len(), 1, "{common:?}");
        let e = &common[0];
        let ring: Vec<usize> = ["B二", "二一", "AB"]
            .iter()
            .map(|s| a.upper_strings.of[at(&b, s)].expect("string"))
            .collect();
        let mut want = ring.clone();
        want.sort_unstable();
        assert_eq!(e.owners, want, "the stone inside is not in the ring");
        assert_eq!(e.empty.len(), 7);
        assert!(e.points.contains(&at(&b, "OO")) && e.points.contains(&at(&b, "一O")));
        assert!(e.true_eye);
    }

    #[test]
    fn m16_common_eye_grey_inside_is_no_wall_and_grey_in_the_ring_is() {
        // A corner closed by black B* and grey: a common eye of B* with grey (M16-COMMON-EYE-GREY);
        // a grey stone inside a ring of one black string leaves it one string's region.
        let (b, a) = analysis(
            "
. . X . . . .
. . X . . . .
# # X . . . .
. . . . . . .
. . . . X X X
. . . . X . .
. . . . X . #
",
        );
        let rings = rings_2016(&a.upper, &a.upper_strings);
        let top = rings
            .iter()
            .find(|r| r.empty.contains(&at(&b, "C三")))
            .expect("corner");
        assert!(top.grey && top.owners.len() == 1 && is_common_eye(top));
        let bottom = rings
            .iter()
            .find(|r| r.empty.contains(&at(&b, "二B")))
            .expect("corner");
        assert!(!bottom.grey && bottom.owners.len() == 1 && !is_common_eye(bottom));
        assert!(bottom.points.contains(&at(&b, "三C")));
    }
}
