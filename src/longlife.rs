//! Long life (长活, 000 十二.3–4: two true eyes; chains through common eyes), approximated by
//! Benson's pass-alive algorithm on the upper layer (register D14), neutral flowers counting as
//! the edge.

use crate::board::{neighbours, Colour};
use crate::layers::{Cell, Layer};
use crate::strings::{flood, Strings};

/// M16-LIFE-3 — "一个黑棋串或白棋串具有至少2个真眼，则此棋串处于长活状态" (000). The upper strings
/// of `colour` that are unconditionally alive (Benson): each has two regions, enclosed by the
/// surviving strings, all of whose empty points are its liberties. Returns a flag per string of
/// `strings`. M16-CHAIN, M16-SUBCHAIN: strings sharing a region are judged together, so a chain
/// is handled without being built. M16-LIFE-4: a chain lives when each string keeps two vital
/// regions; M16-LIFE-4-SPLIT: the loop below drops the strings that do not, and the regions they
/// border, until the surviving (largest long-living) sub-chain is left.
pub fn long_living(layer: &Layer, strings: &Strings, colour: Colour) -> Vec<bool> {
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
