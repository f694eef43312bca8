//! The literal fill-simulation oracle of 003's private eye (选摘二): closed regions, condition
//! 1 and condition 2 read word by word on the direct board, every filling tried.

use crate::board::coord::Point;
use crate::board::grid::{Board, Colour, Stone};
use crate::rules::ClosedRegion;

/// Regions with more empty points than this are not enumerated by the literal oracle
/// (2^12 = 4096 fillings each).
pub const LITERAL_MAX_EMPTY: usize = 12;

/// The literal oracle's bound in the eye-simulation fuzz target: regions up to 2^6 = 64
/// fillings, so that one execution stays cheap; larger regions are the engine-only target's
/// (`eye_engine`, [`compare_eyes_with_fast`]).
pub const FUZZ_LITERAL_MAX_EMPTY: usize = 6;

/// What the literal reading says about one closed region.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LiteralVerdict {
    /// Conditions 1 and 2 hold.
    PrivateEye,
    /// Condition 1 fails.
    Condition1Fails,
    /// Condition 2 fails: the opponent has, or can fill into, a one-liberty eye.
    Condition2Fails,
    /// Condition 1 holds, the region holds opponent stones, and it has too many empty points to
    /// try every filling.
    TooLarge,
}

/// A closed region as the literal reading finds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LiteralRegion {
    /// The string's points (indices, ascending).
    pub string: Vec<usize>,
    /// The region's points (ascending).
    pub points: Vec<usize>,
    /// The region's empty points (ascending).
    pub empty: Vec<usize>,
    pub verdict: LiteralVerdict,
}

/// On-board neighbours of index `i`, computed from coordinates (not with the engine's tables).
pub(super) fn nbrs(b: &Board, i: usize) -> impl Iterator<Item = usize> + '_ {
    let p = b.point(i);
    let size = b.size();
    [(1, 0), (-1, 0), (0, 1), (0, -1)]
        .map(|(dx, dy)| Point::new(p.x + dx, p.y + dy))
        .into_iter()
        .filter(move |q| q.on_board(size))
        .map(move |q| b.index(q))
}

/// "中性花棋串视同边界外区域": in the lower layer a flower is like the outside of the board.
fn off_board(b: &Board, i: usize) -> bool {
    b.get(i) == Some(Stone::Flower)
}

/// The on-board neighbours of every point of a board, from coordinates ([`nbrs`]), in one
/// vector.
struct Table {
    flat: Vec<usize>,
    /// The neighbours of `i` are `flat[start[i]..start[i + 1]]`.
    start: Vec<usize>,
}

impl Table {
    fn new(b: &Board) -> Table {
        let mut flat = Vec::with_capacity(4 * b.len());
        let mut start = Vec::with_capacity(b.len() + 1);
        for i in 0..b.len() {
            start.push(flat.len());
            flat.extend(nbrs(b, i));
        }
        start.push(flat.len());
        Table { flat, start }
    }

    fn around(&self, i: usize) -> &[usize] {
        &self.flat[self.start[i]..self.start[i + 1]]
    }
}

/// No string or empty string here (a label of [`LiteralBoard`]).
const NONE: usize = usize::MAX;

/// The direct board as the literal reading sees it, read once per board so that the reading of
/// each closed region costs only the region: the neighbours of every point (from coordinates,
/// [`nbrs`]), the black and white strings and the empty strings as labelled 4-connected
/// components (each with its points ascending), and what touches each empty string. The
/// definitions are the literal ones; only the bookkeeping is shared between regions.
struct LiteralBoard<'a> {
    b: &'a Board,
    /// The on-board neighbours of every point, in [`nbrs`] order ([`Table::around`]).
    table: Table,
    strings: Vec<Vec<usize>>,
    /// `empty_of[i]`: the empty string through `i`, or NONE.
    empty_of: Vec<usize>,
    /// Per empty string: the distinct black and white strings next to it.
    empty_touches: Vec<Vec<usize>>,
    /// Per empty string: its points (ascending).
    empty_strings: Vec<Vec<usize>>,
    /// The same components, strings and empty strings together ("parts"): `part_of[i]` the part
    /// through `i` (NONE on a flower), each part's points (ascending), the distinct parts next
    /// to it, and its string (NONE for an empty string).
    part_of: Vec<usize>,
    parts: Vec<Vec<usize>>,
    part_next: Vec<Vec<usize>>,
    part_string: Vec<usize>,
}

impl<'a> LiteralBoard<'a> {
    fn new(b: &'a Board) -> LiteralBoard<'a> {
        let n = b.len();
        let table = Table::new(b);
        // Components of equal cells: black with black, white with white, empty with empty.
        let mut label = vec![NONE; n];
        let mut count = 0;
        let mut queue = Vec::new();
        for start in 0..n {
            if label[start] != NONE || b.get(start) == Some(Stone::Flower) {
                continue;
            }
            let cell = b.get(start);
            label[start] = count;
            queue.clear();
            queue.push(start);
            while let Some(i) = queue.pop() {
                for &j in table.around(i) {
                    if label[j] == NONE && b.get(j) == cell {
                        label[j] = count;
                        queue.push(j);
                    }
                }
            }
            count += 1;
        }
        let mut members: Vec<Vec<usize>> = vec![Vec::new(); count];
        for (i, &l) in label.iter().enumerate() {
            if l != NONE {
                members[l].push(i);
            }
        }
        let part_next = members
            .iter()
            .map(|points| {
                let mut t: Vec<usize> = points
                    .iter()
                    .flat_map(|&q| table.around(q).iter().map(|&j| label[j]))
                    .filter(|&l| l != NONE && l != label[points[0]])
                    .collect();
                t.sort_unstable();
                t.dedup();
                t
            })
            .collect();
        let parts = members.clone();
        let (mut strings, mut empty_strings) = (Vec::new(), Vec::new());
        let mut renumber = vec![NONE; count];
        for (l, points) in members.into_iter().enumerate() {
            if b.get(points[0]).is_none() {
                renumber[l] = empty_strings.len();
                empty_strings.push(points);
            } else {
                renumber[l] = strings.len();
                strings.push(points);
            }
        }
        let mut string_of = vec![NONE; n];
        let mut empty_of = vec![NONE; n];
        for i in 0..n {
            if label[i] == NONE {
                continue;
            }
            if b.get(i).is_none() {
                empty_of[i] = renumber[label[i]];
            } else {
                string_of[i] = renumber[label[i]];
            }
        }
        let empty_touches = empty_strings
            .iter()
            .map(|es| {
                let mut t: Vec<usize> = es
                    .iter()
                    .flat_map(|&q| table.around(q).iter().map(|&j| string_of[j]))
                    .filter(|&s| s != NONE)
                    .collect();
                t.sort_unstable();
                t.dedup();
                t
            })
            .collect();
        let part_string = (0..count)
            .map(|l| {
                if b.get(parts[l][0]).is_none() {
                    NONE
                } else {
                    renumber[l]
                }
            })
            .collect();
        LiteralBoard {
            b,
            table,
            strings,
            empty_of,
            empty_touches,
            empty_strings,
            part_of: label,
            parts,
            part_next,
            part_string,
        }
    }

    /// The colour of string `s`.
    fn colour(&self, s: usize) -> Option<Stone> {
        self.b.get(self.strings[s][0])
    }

    /// The distinct empty strings that meet `empty` (points of one region), in first-met order.
    fn empty_strings_in(&self, empty: &[usize]) -> Vec<usize> {
        let mut out: Vec<usize> = Vec::new();
        for &p in empty {
            let e = self.empty_of[p];
            if !out.contains(&e) {
                out.push(e);
            }
        }
        out
    }
}

/// 003 condition 2, literally: "这些白色棋串不能具有1气及1气以上的眼，或者模拟推演：在此封闭区域内连续补充
/// 白色棋子（补充白色棋子的过程中不能提子）也无法做出一个1气眼". First the opponent's existing eyes
/// (an empty string of the region all of whose neighbours are opponent stones or flowers); then
/// every filling: for every subset of the region's empty points, opponent stones are placed on
/// it (nothing is captured) and every remaining empty point of the region is looked at. `None`
/// when the region has more than `max_empty` empty points (at most 63: a filling is a bit mask).
pub fn literal_condition_2(
    b: &Board,
    colour: Colour,
    region: &[usize],
    empty: &[usize],
    max_empty: usize,
) -> Option<bool> {
    let lb = LiteralBoard::new(b);
    let mut in_region = vec![false; b.len()];
    for &p in region {
        in_region[p] = true;
    }
    condition_2_on(&lb, colour, &in_region, empty, max_empty)
}

/// [`literal_condition_2`] on a board read once: `in_region` marks the region's points.
fn condition_2_on(
    lb: &LiteralBoard<'_>,
    colour: Colour,
    in_region: &[bool],
    empty: &[usize],
    max_empty: usize,
) -> Option<bool> {
    let b = lb.b;
    let opp = colour.opponent().stone();
    // The opponent's existing eyes of one or more liberties: an empty string of the region whose
    // every neighbour is empty (its own points), an opponent stone or a flower.
    for e in lb.empty_strings_in(empty) {
        let es = &lb.empty_strings[e];
        let closed = es.iter().all(|&q| {
            lb.table
                .around(q)
                .iter()
                .all(|&n| b.get(n).is_none() || b.get(n) == Some(opp) || off_board(b, n))
        });
        let inside = es.iter().all(|&q| in_region[q]);
        if closed && inside {
            return Some(false);
        }
    }
    if empty.len() > max_empty.min(63) {
        return None;
    }
    // A filling is a bit mask over `empty` (bit k: an opponent stone on `empty[k]`), the rest of
    // the board as it stands. Under a filling, `empty[k]` is a one-liberty eye of `opp` ("眼含真眼
    // 和假眼": true or false eye alike) when it is still empty and every on-board neighbour holds
    // an `opp` stone or a flower: a neighbour among `empty` must be filled (`need[k]`, its bits),
    // any other must be an `opp` stone or a flower as it stands (else `need[k]` is `None`: never).
    let need: Vec<Option<u64>> = empty
        .iter()
        .map(|&p| {
            lb.table.around(p).iter().try_fold(0u64, |bits, &n| {
                match empty.iter().position(|&q| q == n) {
                    Some(j) => Some(bits | 1 << j),
                    None => (b.get(n) == Some(opp) || off_board(b, n)).then_some(bits),
                }
            })
        })
        .collect();
    let eye = (0u64..(1u64 << empty.len())).any(|mask| {
        need.iter()
            .enumerate()
            .any(|(k, need)| mask >> k & 1 == 0 && need.is_some_and(|bits| bits & !mask == 0))
    });
    Some(!eye)
}

/// 003's private-eye rule read literally on the direct board, for every black and white string:
/// the closed regions (the string's stones and every flower removed — and, in the same-colour
/// reading, every stone of its colour — the components touching the string), condition 1
/// ("黑棋串私眼内至少有一个空点串与这个黑棋串紧邻，而且此空点串不与其它黑棋串紧邻，黑棋串私眼内也不能具有
/// 其它黑棋串") and condition 2 ([`literal_condition_2`], only when the region holds opponent
/// stones: "可以具有其它白色棋串 … 但是这些白色棋串不能 …").
pub fn literal_private_eyes(b: &Board, rule: ClosedRegion, max_empty: usize) -> Vec<LiteralRegion> {
    let n = b.len();
    let lb = LiteralBoard::new(b);
    let mut out = Vec::new();
    // `taken[u] == s + 1`: part `u` lies in a region of string `s` found already. A region is
    // a union of whole parts (a string or an empty string is connected, and wholly inside or
    // wholly outside), so the components are found on the parts and their adjacency.
    let mut taken = vec![0usize; lb.parts.len()];
    let mut in_region = vec![false; n];
    let mut queue = Vec::new();
    for (s, string) in lb.strings.iter().enumerate() {
        let own = lb.colour(s).unwrap_or(Stone::Flower);
        let home = lb.part_of[string[0]];
        // Not the string, not a flower (no part), and (same-colour reading) not a stone of its
        // colour.
        let inside = |u: usize| {
            let t = lb.part_string[u];
            let wall = rule == ClosedRegion::SameColour && t != NONE && lb.colour(t) == Some(own);
            u != home && !wall
        };
        for &j in &lb.part_next[home] {
            if taken[j] == s + 1 || !inside(j) {
                continue;
            }
            // The region: the component of part `j` among the inside parts.
            taken[j] = s + 1;
            queue.clear();
            queue.push(j);
            let mut k = 0;
            while k < queue.len() {
                for &q in &lb.part_next[queue[k]] {
                    if taken[q] != s + 1 && inside(q) {
                        taken[q] = s + 1;
                        queue.push(q);
                    }
                }
                k += 1;
            }
            let mut points: Vec<usize> = queue
                .iter()
                .flat_map(|&u| lb.parts[u].iter().copied())
                .collect();
            points.sort_unstable();
            for &p in &points {
                in_region[p] = true;
            }
            let empty: Vec<usize> = points
                .iter()
                .copied()
                .filter(|&p| b.get(p).is_none())
                .collect();
            let verdict = literal_verdict(&lb, s, &points, &empty, max_empty, &in_region);
            for &p in &points {
                in_region[p] = false;
            }
            out.push(LiteralRegion {
                string: string.clone(),
                points,
                empty,
                verdict,
            });
        }
    }
    out
}

fn literal_verdict(
    lb: &LiteralBoard<'_>,
    s: usize,
    points: &[usize],
    empty: &[usize],
    max_empty: usize,
    in_region: &[bool],
) -> LiteralVerdict {
    let b = lb.b;
    let Some(colour) = lb.colour(s).and_then(Stone::colour) else {
        return LiteralVerdict::Condition1Fails;
    };
    let own = colour.stone();
    // Condition 1: no other string of the colour inside ...
    if points.iter().any(|&p| b.get(p) == Some(own)) {
        return LiteralVerdict::Condition1Fails;
    }
    // ... and an empty string touching the string and no other string of its colour.
    let good_empty_string = lb.empty_strings_in(empty).into_iter().any(|e| {
        let mut own_strings = lb.empty_touches[e]
            .iter()
            .filter(|&&t| lb.colour(t) == Some(own));
        own_strings.clone().any(|&t| t == s) && own_strings.all(|&t| t == s)
    });
    if !good_empty_string {
        return LiteralVerdict::Condition1Fails;
    }
    let opp = colour.opponent().stone();
    if !points.iter().any(|&p| b.get(p) == Some(opp)) {
        return LiteralVerdict::PrivateEye;
    }
    match condition_2_on(lb, colour, in_region, empty, max_empty) {
        Some(true) => LiteralVerdict::PrivateEye,
        Some(false) => LiteralVerdict::Condition2Fails,
        None => LiteralVerdict::TooLarge,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::compare_eyes_with_oracle;

    #[test]
    fn literal_oracle_figure_7_corner_is_no_private_eye() {
        // 003 figures 7/8 on a 5x5 corner: white 九八 inside black's corner region, 九九 not
        // touching black: filling 八九 makes 九九 a one-liberty eye of white.
        let b = Board::from_diagram(". X . . .\n. X . . O\n. X . . .\n. X X X X\n. . . . .\n", 5)
            .unwrap();
        let regions = literal_private_eyes(&b, ClosedRegion::SingleString, LITERAL_MAX_EMPTY);
        let corner = regions
            .iter()
            .find(|r| r.points.contains(&b.index(Point::new(2, 2))))
            .unwrap();
        assert_eq!(corner.verdict, LiteralVerdict::Condition2Fails);
        assert!(compare_eyes_with_oracle(&b, ClosedRegion::SingleString, 12).is_ok());
    }
}
