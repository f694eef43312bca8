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

/// The words of a bit set with one bit per part of the largest board.
const PART_WORDS: usize =
    (crate::board::coord::MAX_SIZE * crate::board::coord::MAX_SIZE).div_ceil(64);

/// The direct board as the literal reading sees it, read once per board so that the reading of
/// each closed region costs only the region: the neighbours of every point (from coordinates,
/// [`nbrs`]), and the black and white strings and the empty strings as labelled 4-connected
/// components ("parts", each with its points ascending) with the parts next to each. The
/// definitions are the literal ones; only the bookkeeping is shared between regions. Every
/// per-part list is one flat vector with the start of each part (no vector per part).
struct LiteralBoard<'a> {
    b: &'a Board,
    /// The on-board neighbours of every point, in [`nbrs`] order ([`Table::around`]).
    table: Table,
    /// `part_of[i]`: the part through `i` (NONE on a flower). Parts are numbered in the order
    /// of their first point.
    part_of: Vec<usize>,
    /// The points of part `u`: `points[start[u]..start[u + 1]]` (ascending).
    points: Vec<usize>,
    start: Vec<usize>,
    /// The distinct parts next to part `u`: `next[next_start[u]..next_start[u + 1]]`. Next to
    /// an empty string lie only black and white strings (an empty neighbour is in the same
    /// empty string, a flower is no part): its strings.
    next: Vec<usize>,
    next_start: Vec<usize>,
    /// The black and white strings (their parts, ascending).
    strings: Vec<usize>,
}

impl<'a> LiteralBoard<'a> {
    fn new(b: &'a Board) -> LiteralBoard<'a> {
        let n = b.len();
        let table = Table::new(b);
        // Components of equal cells: black with black, white with white, empty with empty.
        let mut label = vec![NONE; n];
        let mut count = 0;
        let mut queue = Vec::with_capacity(n);
        let mut sizes = Vec::new();
        let mut strings = Vec::new();
        for start in 0..n {
            if label[start] != NONE || b.get(start) == Some(Stone::Flower) {
                continue;
            }
            let cell = b.get(start);
            if cell.is_some() {
                strings.push(count);
            }
            label[start] = count;
            queue.clear();
            queue.push(start);
            let mut size = 0;
            while let Some(i) = queue.pop() {
                size += 1;
                for &j in table.around(i) {
                    if label[j] == NONE && b.get(j) == cell {
                        label[j] = count;
                        queue.push(j);
                    }
                }
            }
            sizes.push(size);
            count += 1;
        }
        // Each part's points, ascending: a counting sort of the points by part.
        let mut start = Vec::with_capacity(count + 1);
        start.push(0);
        for &size in &sizes {
            start.push(start[start.len() - 1] + size);
        }
        let mut fill = start.clone();
        let mut points = vec![0; start[count]];
        for (i, &l) in label.iter().enumerate() {
            if l != NONE {
                points[fill[l]] = i;
                fill[l] += 1;
            }
        }
        // The distinct parts next to each part, marked per part so each is written once.
        let mut next = Vec::with_capacity(4 * points.len());
        let mut next_start = Vec::with_capacity(count + 1);
        let mut seen = vec![NONE; count];
        for u in 0..count {
            next_start.push(next.len());
            for &q in &points[start[u]..start[u + 1]] {
                for &j in table.around(q) {
                    let l = label[j];
                    if l != NONE && l != u && seen[l] != u {
                        seen[l] = u;
                        next.push(l);
                    }
                }
            }
        }
        next_start.push(next.len());
        LiteralBoard {
            b,
            table,
            part_of: label,
            points,
            start,
            next,
            next_start,
            strings,
        }
    }

    /// The points of part `u` (ascending).
    fn points_of(&self, u: usize) -> &[usize] {
        &self.points[self.start[u]..self.start[u + 1]]
    }

    /// The parts next to part `u`.
    fn next_to(&self, u: usize) -> &[usize] {
        &self.next[self.next_start[u]..self.next_start[u + 1]]
    }

    /// The cell of part `u`: a colour for a string, `None` for an empty string.
    fn colour(&self, u: usize) -> Option<Stone> {
        self.b.get(self.points[self.start[u]])
    }

    /// Calls `f` on each distinct empty string that meets `empty` (points of one region), in
    /// first-met order, until it returns true; whether it did.
    fn any_empty_string_in(&self, empty: &[usize], mut f: impl FnMut(usize) -> bool) -> bool {
        let mut met = [0u64; PART_WORDS];
        for &p in empty {
            let e = self.part_of[p];
            if met[e / 64] & 1 << (e % 64) == 0 {
                met[e / 64] |= 1 << (e % 64);
                if f(e) {
                    return true;
                }
            }
        }
        false
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
    let existing_eye = lb.any_empty_string_in(empty, |e| {
        let es = lb.points_of(e);
        let closed = es.iter().all(|&q| {
            lb.table
                .around(q)
                .iter()
                .all(|&n| b.get(n).is_none() || b.get(n) == Some(opp) || off_board(b, n))
        });
        let inside = es.iter().all(|&q| in_region[q]);
        closed && inside
    });
    if existing_eye {
        return Some(false);
    }
    if empty.len() > max_empty.min(63) {
        return None;
    }
    // A filling is a bit mask over `empty` (bit k: an opponent stone on `empty[k]`), the rest of
    // the board as it stands. Under a filling, `empty[k]` is a one-liberty eye of `opp` ("眼含真眼
    // 和假眼": true or false eye alike) when it is still empty and every on-board neighbour holds
    // an `opp` stone or a flower: a neighbour among `empty` must be filled (`need[k]`, its bits),
    // any other must be an `opp` stone or a flower as it stands (else `need[k]` is `None`: never).
    let mut need = [None::<u64>; 63];
    for (k, &p) in empty.iter().enumerate() {
        need[k] = lb.table.around(p).iter().try_fold(0u64, |bits, &n| {
            match empty.iter().position(|&q| q == n) {
                Some(j) => Some(bits | 1 << j),
                None => (b.get(n) == Some(opp) || off_board(b, n)).then_some(bits),
            }
        });
    }
    let need = &need[..empty.len()];
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
    let mut taken = vec![0usize; lb.start.len() - 1];
    let mut in_region = vec![false; n];
    let mut queue = Vec::new();
    let mut region = [0u64; PART_WORDS];
    for &home in &lb.strings {
        let own = lb.colour(home).unwrap_or(Stone::Flower);
        let string = lb.points_of(home);
        // Not the string, not a flower (no part), and (same-colour reading) not a stone of its
        // colour.
        let inside = |u: usize| {
            let wall = rule == ClosedRegion::SameColour && lb.colour(u) == Some(own);
            u != home && !wall
        };
        for &j in lb.next_to(home) {
            if taken[j] == home + 1 || !inside(j) {
                continue;
            }
            // The region: the component of part `j` among the inside parts.
            taken[j] = home + 1;
            queue.clear();
            queue.push(j);
            let mut k = 0;
            while k < queue.len() {
                for &q in lb.next_to(queue[k]) {
                    if taken[q] != home + 1 && inside(q) {
                        taken[q] = home + 1;
                        queue.push(q);
                    }
                }
                k += 1;
            }
            // Its points, ascending: marked as bits (one a point), then read in order.
            region.fill(0);
            let mut count = 0;
            for &u in &queue {
                for &p in lb.points_of(u) {
                    region[p / 64] |= 1 << (p % 64);
                    in_region[p] = true;
                }
                count += lb.points_of(u).len();
            }
            let mut points = Vec::with_capacity(count);
            for (w, &word) in region.iter().enumerate() {
                let mut rest = word;
                while rest != 0 {
                    points.push(w * 64 + rest.trailing_zeros() as usize);
                    rest &= rest - 1;
                }
            }
            let empty: Vec<usize> = points
                .iter()
                .copied()
                .filter(|&p| b.get(p).is_none())
                .collect();
            let verdict = literal_verdict(&lb, home, &points, &empty, max_empty, &in_region);
            for &p in &points {
                in_region[p] = false;
            }
            out.push(LiteralRegion {
                string: string.to_vec(),
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
    let good_empty_string = lb.any_empty_string_in(empty, |e| {
        let mut own_strings = lb.next_to(e).iter().filter(|&&t| lb.colour(t) == Some(own));
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
