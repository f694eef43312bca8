//! The eight symmetries of the square board and the colour swap, and the facts of an analysis
//! point by point that they must map onto each other.

use crate::board::coord::Point;
use crate::board::grid::{Board, Colour, Stone};
use crate::board::layers::{Attribute, Cell};
use crate::game::order::Turn;
use crate::game::play::Action;
use crate::judge::analysis::Analysis;
use crate::judge::forbidden::flower_forbidden_reason;
use crate::rules::Rules;
use std::collections::BTreeSet;

/// One of the eight symmetries of the square board: `k % 4` quarter turns, then a mirror
/// (x → −x) when `k >= 4`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Symmetry(pub u8);

impl Symmetry {
    pub const ALL: [Symmetry; 8] = [
        Symmetry(0),
        Symmetry(1),
        Symmetry(2),
        Symmetry(3),
        Symmetry(4),
        Symmetry(5),
        Symmetry(6),
        Symmetry(7),
    ];

    /// The image of a point (tengen-origin coordinates).
    pub fn point(self, p: Point) -> Point {
        let (mut x, mut y) = (p.x, p.y);
        for _ in 0..self.0 % 4 {
            (x, y) = (-y, x);
        }
        if self.0 % 8 >= 4 {
            x = -x;
        }
        Point::new(x, y)
    }

    /// The image of an index on a board of `size`.
    pub fn index(self, b: &Board, i: usize) -> usize {
        b.index(self.point(b.point(i)))
    }

    /// The image of a board.
    pub fn board(self, b: &Board) -> Board {
        let mut out = b.clone();
        for i in 0..b.len() {
            out.set(self.index(b, i), b.get(i));
        }
        out
    }

    /// The image of a move.
    pub fn action(self, a: Action) -> Action {
        match a {
            Action::Place(p) => Action::Place(self.point(p)),
            Action::Pass => Action::Pass,
        }
    }
}

/// The board with black and white stones exchanged (flowers stay).
pub fn swap_colours(b: &Board) -> Board {
    let mut out = b.clone();
    for i in 0..b.len() {
        out.set(
            i,
            match b.get(i) {
                Some(Stone::Black) => Some(Stone::White),
                Some(Stone::White) => Some(Stone::Black),
                other => other,
            },
        );
    }
    out
}

/// A move number near `n` whose turn is the same kind of stone for the other player (the
/// schedules are colour-asymmetric: black's stone on move 1 corresponds to white's on move 2).
pub fn swapped_move_number(rules: &Rules, n: u32) -> Option<u32> {
    let t = Turn::of_move(rules, n);
    (1..=20u32)
        .flat_map(|d| [n.checked_add(d), n.checked_sub(d)])
        .flatten()
        .filter(|&m| m >= 1)
        .find(|&m| {
            let u = Turn::of_move(rules, m);
            u.player == t.player.opponent() && u.kind == t.kind
        })
}

fn swap_cell(c: Cell) -> Cell {
    match c {
        Cell::Stone(k) => Cell::Stone(k.opponent()),
        other => other,
    }
}

fn swap_attribute(a: Attribute) -> Attribute {
    match a {
        Attribute::Black => Attribute::White,
        Attribute::White => Attribute::Black,
        Attribute::Neutral => Attribute::Neutral,
    }
}

/// What the analysis says about one point.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PointFacts {
    pub upper: Cell,
    pub attribute: Option<Attribute>,
    /// (hs, hw, bs, bw) of the flower string here.
    pub counts: Option<(u32, u32, u32, u32)>,
    /// Whether the lower string here has a private eye.
    pub eyed: Option<bool>,
    /// Number of upper liberties of the upper string here.
    pub upper_liberties: Option<usize>,
    /// Forbidden reason code (and owner) for black's and white's flower.
    pub forbidden: [Option<(&'static str, Option<Colour>)>; 2],
}

/// The closed regions of the analysis: (string's points, region's points, verdict code), with
/// the points mapped through `map`, each list sorted.
pub fn region_facts(
    a: &Analysis,
    map: impl Fn(usize) -> usize,
) -> BTreeSet<(Vec<usize>, Vec<usize>, crate::judge::eyes::VerdictCode)> {
    let sorted = |v: &[usize]| {
        let mut w: Vec<usize> = v.iter().map(|&i| map(i)).collect();
        w.sort_unstable();
        w
    };
    let mut out = BTreeSet::new();
    for (g, rs) in a.regions.iter().enumerate() {
        for (r, v) in rs {
            out.insert((
                sorted(&a.lower_strings.groups[g].points),
                sorted(&r.points),
                v.code(),
            ));
        }
    }
    out
}

/// The facts of every point.
pub fn point_facts(a: &Analysis, rules: &Rules) -> Vec<PointFacts> {
    (0..a.board.len())
        .map(|i| {
            let counts = a.flower_of[i].map(|f| {
                let c = a.flowers[f].counts;
                (c.hs, c.hw, c.bs, c.bw)
            });
            let forbidden = [Colour::Black, Colour::White].map(|c| {
                if a.board.get(i).is_some() {
                    None
                } else {
                    flower_forbidden_reason(a, rules, i, c).map(|f| (f.code(), f.owner()))
                }
            });
            PointFacts {
                upper: a.upper.cells[i],
                attribute: a.attribute_at[i],
                counts,
                eyed: a.lower_strings.of[i].map(|g| a.has_private_eye(g)),
                upper_liberties: a.upper_strings.at(i).map(|s| s.liberties.len()),
                forbidden,
            }
        })
        .collect()
}

/// The facts with black and white exchanged (what the colour-swapped board must give).
pub fn swap_facts(f: &PointFacts) -> PointFacts {
    let sw =
        |x: Option<(&'static str, Option<Colour>)>| x.map(|(c, o)| (c, o.map(Colour::opponent)));
    PointFacts {
        upper: swap_cell(f.upper),
        attribute: f.attribute.map(swap_attribute),
        counts: f.counts.map(|(hs, hw, bs, bw)| (bs, bw, hs, hw)),
        eyed: f.eyed,
        upper_liberties: f.upper_liberties,
        forbidden: [sw(f.forbidden[1]), sw(f.forbidden[0])],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::board_from_codes;

    #[test]
    fn symmetries_are_the_eight_distinct_maps_of_the_square() {
        let p = Point::new(2, 1);
        let images: BTreeSet<Point> = Symmetry::ALL.iter().map(|s| s.point(p)).collect();
        assert_eq!(images.len(), 8);
        let b = board_from_codes(5, &[1, 2, 3, 0, 1, 0, 0, 2]);
        for s in Symmetry::ALL {
            assert_eq!(s.board(&b).cells().iter().flatten().count(), 5);
        }
    }
}
