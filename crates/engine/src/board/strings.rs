//! Strings (棋串), empty-point strings (空点串), liberties and adjacency (M20-STRING,
//! M20-STRING-ADJ, M20-EMPTY-STRING; 000 definitions 六 to 八).

use crate::board::grid::{neighbours, Board, Colour, Stone};
use crate::board::layers::{Cell, Layer};

/// A string of one layer: a maximal 4-connected set of stones of one colour, or of empty points.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Group {
    /// `Some(colour)` for a black or white string, `None` for an empty-point string.
    pub colour: Option<Colour>,
    /// Indices, ascending.
    pub points: Vec<usize>,
    /// Empty neighbour indices, ascending, each once (for an empty-point string: none).
    pub liberties: Vec<usize>,
}

/// The strings of a layer, with a map from each point to its string.
#[derive(Clone, Debug, Default)]
pub struct Strings {
    pub groups: Vec<Group>,
    /// `of[i]` = index into `groups` of the string through point `i`, if any.
    pub of: Vec<Option<usize>>,
}

impl Strings {
    /// The string point number `i` belongs to, `None` for an empty point.
    pub fn at(&self, i: usize) -> Option<&Group> {
        self.of[i].map(|g| &self.groups[g])
    }
}

/// The 4-connected component containing `start` of the points satisfying `member`.
/// M16-SEQ, M16-NET: points joined by a path (次第紧邻) or a net of paths of adjacent points.
pub fn flood(size: usize, start: usize, member: impl Fn(usize) -> bool) -> Vec<usize> {
    flood_marking(size, start, member, &mut vec![false; size * size])
}

/// [`flood`] with the caller's visited map: every point of the component is marked in `seen`,
/// and points already marked are not entered. Callers that flood many disjoint components (the
/// strings of a layer, the regions around a string) pass one map for all of them instead of
/// clearing a board-sized map per component.
#[cfg_attr(feature = "testing", visibility::make(pub))]
pub(crate) fn flood_marking(
    size: usize,
    start: usize,
    member: impl Fn(usize) -> bool,
    seen: &mut [bool],
) -> Vec<usize> {
    let mut out = vec![start];
    seen[start] = true;
    let mut k = 0;
    while k < out.len() {
        let i = out[k];
        k += 1;
        for j in neighbours(size, i) {
            if !seen[j] && member(j) {
                seen[j] = true;
                out.push(j);
            }
        }
    }
    out.sort_unstable();
    out
}

/// All components of the points for which `key` gives `Some(k)`, joining neighbours of equal key.
pub(crate) fn components<K: PartialEq + Copy>(
    size: usize,
    key: impl Fn(usize) -> Option<K>,
) -> Vec<(K, Vec<usize>)> {
    let mut done = vec![false; size * size];
    let mut out = Vec::new();
    for i in 0..size * size {
        if done[i] {
            continue;
        }
        let Some(k) = key(i) else { continue };
        let comp = flood_marking(size, i, |j| key(j) == Some(k), &mut done);
        out.push((k, comp));
    }
    out
}

/// M16-LIBERTY-STONE: a stone's liberties are its adjacent empty points. M16-LIBERTY,
/// M20-LIBERTY: a string's liberties are those of its stones, each point counted once.
fn liberties_of(layer: &Layer, points: &[usize]) -> Vec<usize> {
    let mut libs: Vec<usize> = points
        .iter()
        .flat_map(|&i| neighbours(layer.size, i))
        .filter(|&j| layer.cells[j] == Cell::Empty)
        .collect();
    libs.sort_unstable();
    libs.dedup();
    libs
}

fn index(size: usize, list: Vec<(Option<Colour>, Vec<usize>)>, layer: &Layer) -> Strings {
    let mut of = vec![None; size * size];
    let mut groups = Vec::with_capacity(list.len());
    for (g, (colour, points)) in list.into_iter().enumerate() {
        for &i in &points {
            of[i] = Some(g);
        }
        let liberties = if colour.is_some() {
            liberties_of(layer, &points)
        } else {
            Vec::new()
        };
        groups.push(Group {
            colour,
            points,
            liberties,
        });
    }
    Strings { groups, of }
}

/// M20-STRING — "一个棋子直线紧邻的点上或连续紧邻的点上，如果都有同色棋子存在，那么这些棋子就相互连接成
/// 一个不可分割的整体 … 棋串的气是棋串中所有棋子的气的总和" (003). The black and white strings of a
/// layer with their liberties (a liberty shared by two stones counts once).
/// M16-STRING: a maximal 4-connected set of stones of one colour; a lone stone is a string.
/// D3-STRING: Dullstone strings are the same. M20-STRING-KINDS: black and white strings here,
/// flower strings in [`flower_strings`].
#[cfg_attr(feature = "testing", visibility::make(pub))]
pub(crate) fn strings_of(layer: &Layer) -> Strings {
    let list = components(layer.size, |i| match layer.cells[i] {
        Cell::Stone(c) => Some(c),
        _ => None,
    })
    .into_iter()
    .map(|(c, p)| (Some(c), p))
    .collect();
    index(layer.size, list, layer)
}

/// M20-EMPTY-STRING — "一个空点直线紧邻的点上或连续紧邻的点上，如果都没有棋子存在，那么这些空点就相互连接
/// 成一个整体，这样的整体称为空点串" (003). D3-EMPTY-STRING: the same in Dullstone.
pub(crate) fn empty_strings(layer: &Layer) -> Strings {
    let list = components(layer.size, |i| {
        (layer.cells[i] == Cell::Empty).then_some(())
    })
    .into_iter()
    .map(|(_, p)| (None, p))
    .collect();
    index(layer.size, list, layer)
}

/// M20-STRING (flower strings), M20-STRING-KINDS — "棋串根据不同颜色又具体分为黑棋串、白棋串和花（灰）棋串" (003). The
/// flower strings of the direct board, each a sorted list of indices.
pub(crate) fn flower_strings(board: &Board) -> Vec<Vec<usize>> {
    components(board.size(), |i| {
        (board.get(i) == Some(Stone::Flower)).then_some(())
    })
    .into_iter()
    .map(|(_, p)| p)
    .collect()
}

/// M20-STRING-ADJ — "两个棋串要紧邻，则这两个棋串必需是异色棋串，而且此两个棋串必需至少有 1 对棋子 … 处于
/// 两子紧邻状态" (003). The distinct strings of `strings` that touch `points`, excluding any string
/// that shares a point with `points` (a string is not adjacent to itself).
/// M16-STRING-ADJ: 000's definition is the same (different colours, two stones adjacent).
pub(crate) fn adjacent_strings(size: usize, points: &[usize], strings: &Strings) -> Vec<usize> {
    let mut out: Vec<usize> = points
        .iter()
        .flat_map(|&i| neighbours(size, i))
        .filter_map(|j| strings.of[j])
        .collect();
    out.sort_unstable();
    out.dedup();
    let own: Vec<usize> = points.iter().filter_map(|&i| strings.of[i]).collect();
    out.retain(|g| !own.contains(g));
    out
}
