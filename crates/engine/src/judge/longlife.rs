//! Long life (长活, 000 十二.3–5: two true eyes; chains through common eyes; seki), decided on
//! one layer (the upper layer for scoring, the lower layer for the 2016 private eye) with neutral
//! flowers counting as the edge: Benson's pass-alive test (M16-LIFE-3, M16-LIFE-4) together with a
//! bounded seki test (M16-LIFE-5). Register D14 states the limits.

use crate::board::grid::{neighbours, Colour};
use crate::board::layers::{Cell, Layer};
use crate::board::strings::{flood, Strings};

/// M16-LIFE-3 / M16-LIFE-5 — "一个黑棋串或白棋串具有至少2个真眼，则此棋串处于长活状态" and
/// "这两个棋群中的棋串处于长活状态，此种活棋方式又称为双活" (000). The strings of `colour` that are
/// long-living on `layer`: pass-alive ([`pass_alive`]) or in seki ([`seki`]). Returns a flag per
/// string of `strings`.
pub(crate) fn long_living(layer: &Layer, strings: &Strings, colour: Colour) -> Vec<bool> {
    let both = long_living_strings(layer, strings);
    (0..strings.groups.len())
        .map(|g| strings.groups[g].colour == Some(colour) && both[g])
        .collect()
}

/// [`long_living`] for both colours at once: a flag per string of `strings`, true for the black
/// and white strings that are pass-alive or in seki (each test run once).
pub(crate) fn long_living_strings(layer: &Layer, strings: &Strings) -> Vec<bool> {
    let (alive, in_seki) = pass_alive_and_seki(layer, strings);
    alive.iter().zip(&in_seki).map(|(a, s)| *a || *s).collect()
}

/// The two parts of [`long_living_strings`], a flag per string of `strings` each: pass-alive
/// (either colour), and in seki ([`seki`]; the score trace tells seki points from dame by it).
pub(crate) fn pass_alive_and_seki(layer: &Layer, strings: &Strings) -> (Vec<bool>, Vec<bool>) {
    let black = pass_alive(layer, strings, Colour::Black);
    let white = pass_alive(layer, strings, Colour::White);
    let alive: Vec<bool> = black.iter().zip(&white).map(|(b, w)| *b || *w).collect();
    let in_seki = seki(layer, strings, &alive);
    (alive, in_seki)
}

/// M16-LIFE-5 — "处于对杀前线的黑棋串和白棋串皆不具有2个真眼，但参与对杀的黑棋串和白棋串有共享的气，终局时每方都
/// 不肯再着子紧此共享之气（如果某方紧此共享之气则己方棋串将会被提吃，对方棋串将会长活）… 此种活棋方式又称为双活"
/// (000). A bounded seki test (register D14): the largest set of black and white strings, none of
/// them pass-alive (`alive`), such that every string of the set
/// 1. has every liberty either a one-point eye of its own (an empty point all of whose neighbours
///    on the board are its own stones or neutral flowers) or shared with a string of the other
///    colour in the set, at least one of them shared; and
/// 2. on each shared liberty, a stone of either colour would capture nothing and leave the string
///    it joins with at most one liberty: whoever fills it is taken.
///
/// Found by removing failing strings until none fails. Returns a flag per string of `strings`.
pub(crate) fn seki(layer: &Layer, strings: &Strings, alive: &[bool]) -> Vec<bool> {
    let size = layer.size;
    let n = strings.groups.len();
    let mut cand: Vec<bool> = (0..n)
        .map(|g| strings.groups[g].colour.is_some() && !alive.get(g).copied().unwrap_or(false))
        .collect();
    let own_eye = |p: usize, g: usize| {
        neighbours(size, p).all(|q| layer.cells[q] == Cell::OffBoard || strings.of[q] == Some(g))
    };
    loop {
        let mut changed = false;
        for g in 0..n {
            let Some(colour) = strings.groups[g].colour.filter(|_| cand[g]) else {
                continue;
            };
            let mut shared = false;
            let mut ok = true;
            for &p in &strings.groups[g].liberties {
                if own_eye(p, g) {
                    continue;
                }
                let partner = neighbours(size, p).any(|q| {
                    strings.of[q].is_some_and(|h| {
                        cand[h] && strings.groups[h].colour == Some(colour.opponent())
                    })
                });
                if !partner
                    || !fill_is_taken(layer, strings, p, Colour::Black)
                    || !fill_is_taken(layer, strings, p, Colour::White)
                {
                    ok = false;
                    break;
                }
                shared = true;
            }
            if !ok || !shared {
                cand[g] = false;
                changed = true;
            }
        }
        if !changed {
            return cand;
        }
    }
}

/// Whether a `c` stone on the empty point `p` would capture no string of the other colour and
/// leave the string it joins with at most one liberty.
fn fill_is_taken(layer: &Layer, strings: &Strings, p: usize, c: Colour) -> bool {
    let size = layer.size;
    let mut libs: Vec<usize> = Vec::new();
    for q in neighbours(size, p) {
        match layer.cells[q] {
            Cell::Empty => libs.push(q),
            Cell::Stone(d) => {
                let Some(h) = strings.of[q] else { continue };
                let group = &strings.groups[h];
                if d == c {
                    libs.extend(group.liberties.iter().copied().filter(|&l| l != p));
                } else if group.liberties.iter().all(|&l| l == p) {
                    return false; // the fill captures
                }
            }
            Cell::OffBoard => {}
        }
    }
    libs.sort_unstable();
    libs.dedup();
    libs.len() <= 1
}

/// M16-LIFE-3 / M16-LIFE-4 — "一个黑棋串或白棋串具有至少2个真眼，则此棋串处于长活状态" and "其中的每个棋串
/// 皆具有至少2个真眼，则此棋链处于长活状态" (000). The strings of `colour` that are unconditionally
/// alive (Benson): each has two regions, enclosed by the surviving strings, all of whose empty
/// points are its liberties. Returns a flag per string of `strings`. M16-CHAIN, M16-SUBCHAIN:
/// strings sharing a region are judged together, so a chain is handled without being built.
/// M16-LIFE-4-SPLIT: the loop below drops the strings that keep fewer than two vital regions, and
/// the regions they border, until the surviving (largest long-living) sub-chain is left.
pub(crate) fn pass_alive(layer: &Layer, strings: &Strings, colour: Colour) -> Vec<bool> {
    let size = layer.size;
    let n = size * size;
    // Regions: components of points that are not `colour` stones and not off-board.
    let member = |j: usize| match layer.cells[j] {
        Cell::OffBoard => false,
        Cell::Stone(c) => c != colour,
        Cell::Empty => true,
    };
    let mut region_of = vec![usize::MAX; n];
    let mut regions: Vec<Vec<usize>> = Vec::new();
    for i in 0..n {
        if region_of[i] == usize::MAX && member(i) {
            let r = flood(size, i, member);
            for &j in &r {
                region_of[j] = regions.len();
            }
            regions.push(r);
        }
    }
    let chains: Vec<usize> = (0..strings.groups.len())
        .filter(|&g| strings.groups[g].colour == Some(colour))
        .collect();
    // Chains bordering each region.
    let borders: Vec<Vec<usize>> = regions
        .iter()
        .map(|r| {
            let mut b: Vec<usize> = r
                .iter()
                .flat_map(|&i| neighbours(size, i))
                .filter_map(|j| strings.of[j])
                .filter(|&g| strings.groups[g].colour == Some(colour))
                .collect();
            b.sort_unstable();
            b.dedup();
            b
        })
        .collect();
    // vital[r] = chains for which every empty point of region r is a liberty.
    let vital: Vec<Vec<usize>> = regions
        .iter()
        .zip(&borders)
        .map(|(r, b)| {
            b.iter()
                .copied()
                .filter(|&g| {
                    r.iter()
                        .filter(|&&i| layer.cells[i] == Cell::Empty)
                        .all(|&i| neighbours(size, i).any(|j| strings.of[j] == Some(g)))
                })
                .collect()
        })
        .collect();
    let mut alive_chain = vec![false; strings.groups.len()];
    for &g in &chains {
        alive_chain[g] = true;
    }
    let mut alive_region = vec![true; regions.len()];
    loop {
        let mut changed = false;
        for &g in &chains {
            if !alive_chain[g] {
                continue;
            }
            let count = (0..regions.len())
                .filter(|&r| alive_region[r] && vital[r].contains(&g))
                .count();
            if count < 2 {
                alive_chain[g] = false;
                changed = true;
            }
        }
        for r in 0..regions.len() {
            if alive_region[r] && borders[r].iter().any(|&g| !alive_chain[g]) {
                alive_region[r] = false;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    alive_chain
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::coord::Point;
    use crate::board::grid::Board;
    use crate::board::layers::lower_layer;
    use crate::board::strings::strings_of;

    fn setup(d: &str) -> (Board, Layer, Strings) {
        let size = d.lines().filter(|l| !l.trim().is_empty()).count();
        let b = Board::from_diagram(d, size).unwrap();
        let layer = lower_layer(&b);
        let strings = strings_of(&layer);
        (b, layer, strings)
    }

    fn string_at(b: &Board, s: &Strings, p: &str) -> usize {
        s.of[b.index(Point::parse(p, b.size()).unwrap())].unwrap()
    }

    #[test]
    fn m16_life_5_one_eye_each_sharing_one_liberty_is_seki() {
        // m20-score-seki: black eye B二, white eye 二二, shared liberty O一.
        let (b, layer, s) = setup(
            "
. X X O .
X X . O O
X X X O O
X X X O O
X X X O O
",
        );
        let black = string_at(&b, &s, "A二");
        let white = string_at(&b, &s, "一二");
        assert!(!pass_alive(&layer, &s, Colour::Black)[black]);
        assert!(!pass_alive(&layer, &s, Colour::White)[white]);
        assert!(long_living(&layer, &s, Colour::Black)[black]);
        assert!(long_living(&layer, &s, Colour::White)[white]);
    }

    #[test]
    fn m16_life_5_semeai_with_an_eye_against_none_is_no_seki() {
        // Black has the eye B二 and shares O二, O一 with white, which has no eye: black fills a
        // shared liberty safely (two liberties left) and wins. Black is pass-alive (the white
        // stones lie in its second region), white is not in seki.
        let (b, layer, s) = setup(
            "
. X . O O
X X . O O
X X X O O
X X X O O
X X X O O
",
        );
        let black = string_at(&b, &s, "A二");
        let white = string_at(&b, &s, "一二");
        assert!(pass_alive(&layer, &s, Colour::Black)[black]);
        let alive: Vec<bool> = (0..s.groups.len()).map(|g| g == black).collect();
        assert!(!seki(&layer, &s, &alive)[white]);
        // Even with black's life ignored, black's safe fill breaks the seki condition.
        assert!(!seki(&layer, &s, &vec![false; s.groups.len()])[white]);
        assert!(!long_living(&layer, &s, Colour::White)[white]);
    }

    #[test]
    fn m16_life_5_string_with_an_outside_liberty_is_no_seki() {
        // The m20-score-seki shape with empty points around it: each string has liberties the
        // other does not share, so neither is in seki.
        let (_, layer, s) = setup(
            "
. X X O . . .
X X . O O . .
X X X O O . .
X X X O O . .
X X X O O . .
. . . . . . .
. . . . . . .
",
        );
        let flags_b = long_living(&layer, &s, Colour::Black);
        let flags_w = long_living(&layer, &s, Colour::White);
        assert!(flags_b.iter().chain(&flags_w).all(|f| !f));
    }

    #[test]
    fn m16_life_3_pass_alive_is_long_living() {
        let (b, layer, s) = setup(
            "
. X . . .
X X . . .
. X . . .
X X . . .
. . . . .
",
        );
        let black = string_at(&b, &s, "A二");
        assert!(pass_alive(&layer, &s, Colour::Black)[black]);
        assert!(long_living(&layer, &s, Colour::Black)[black]);
        assert!(!long_living(&layer, &s, Colour::White)[black]);
    }
}
