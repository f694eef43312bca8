//! The private eye (私眼) and common eye (公眼) of the 2016 text (000, definition 九), for the
//! presets m3go-2016 and m3go-2013 (M16-REGION, M16-EYE, M16-EYE-A, M16-EYE-B, M16-EYE-CAPTURE,
//! M16-EYE-C, M16-EYE-D, M16-COMMON-EYE, M16-COMMON-EYE-GREY, M16-COMMON-EYE-MIXED,
//! M16-TRUE-EYE, M16-FALSE-EYE; register D17).
//!
//! What differs from 2020 (`eyes.rs`): a 2016 private eye is enclosed by the string alone (and
//! the edge) — "一个棋串围住的 … 封闭区域、或者一个棋串和一片边界外区域围住的" — so grey strings are
//! not walls: they lie inside the region ("提吃除灰色棋串以外的异色棋串"), and a region that a string
//! closes only with the help of grey strings is a common eye (公眼), not a private eye. Eyes are
//! judged on the direct board with every grey string at its basic (neutral) attribute, before
//! any conversion (the lower layer: grey stones are its `OffBoard` cells).

use crate::board::grid::{neighbours, Colour};
use crate::board::layers::{Cell, Layer};
use crate::board::strings::{flood_marking, Strings};
use crate::judge::eyes::{
    outer_part, Lower, LowerView, Region, RegionVerdict, VerdictCode, VIEW_POINTS,
};
use crate::judge::longlife::long_living;
use crate::rules::{ClosedRegion2016, FalseEye2016};

/// Why a 2016 closed region is or is not a private eye.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict2016 {
    PrivateEye,
    /// a: no empty point of the region is adjacent to the string ("至少1口内气").
    NoInnerLiberty,
    /// b: another string of the string's colour lies inside ("私眼内不能具有其它同色棋串").
    SameColourInside,
    /// The opponent string through the point cannot be captured by filling liberties inside
    /// the region (it keeps two eyes, at the given empty point among others).
    Uncapturable(usize),
    /// c: an opponent string inside has its own private eye (its empty point given).
    NestedPrivateEye(usize),
    /// c: an opponent string inside claims a region around this string as this string claims
    /// one around it, and neither is settled (an empty point of the opponent's region).
    MutualPrivateEye(usize),
    /// d: an opponent string inside (through the point) is long-living.
    LongLiving(usize),
}

impl Verdict2016 {
    /// Verdict code in reports.
    pub fn code(&self) -> VerdictCode {
        match self {
            Verdict2016::PrivateEye => VerdictCode::PrivateEye,
            Verdict2016::NoInnerLiberty => VerdictCode::NoInnerLiberty,
            Verdict2016::SameColourInside => VerdictCode::SameColourInside,
            Verdict2016::Uncapturable(_) => VerdictCode::OpponentUncapturable,
            Verdict2016::NestedPrivateEye(_) => VerdictCode::NestedPrivateEye,
            Verdict2016::MutualPrivateEye(_) => VerdictCode::MutualPrivateEye,
            Verdict2016::LongLiving(_) => VerdictCode::OpponentLongLiving,
        }
    }

    /// The clause that decided.
    pub fn clause(&self) -> &'static str {
        match self {
            Verdict2016::PrivateEye => "M16-EYE",
            Verdict2016::NoInnerLiberty => "M16-EYE-A",
            Verdict2016::SameColourInside => "M16-EYE-B",
            Verdict2016::Uncapturable(_) => "M16-EYE-CAPTURE",
            Verdict2016::NestedPrivateEye(_) | Verdict2016::MutualPrivateEye(_) => "M16-EYE-C",
            Verdict2016::LongLiving(_) => "M16-EYE-D",
        }
    }

    /// The verdict in the engine's common vocabulary (`Analysis::regions`): a private eye, or
    /// [`RegionVerdict::Rule2016`] carrying the 2016 code, clause and point.
    pub fn to_region_verdict(&self) -> RegionVerdict {
        let at = match self {
            Verdict2016::Uncapturable(p)
            | Verdict2016::NestedPrivateEye(p)
            | Verdict2016::MutualPrivateEye(p)
            | Verdict2016::LongLiving(p) => Some(*p),
            _ => None,
        };
        match self {
            Verdict2016::PrivateEye => RegionVerdict::PrivateEye,
            v => RegionVerdict::Rule2016 {
                code: v.code(),
                clause: v.clause(),
                at,
            },
        }
    }
}

/// M16-REGION — "由颜色相同或不同的棋子、或者由颜色相同或不同的棋子和一片边界外区域形成一个环状带，此环状带可以将棋盘
/// 分成内部区域和外部区域 … 则此内部区域即为封闭区域" (000 九.1), for a private eye "一个棋串围住的 … 或者一个
/// 棋串和一片边界外区域围住的": string `a` (with the edge) is the ring band. Its parts are the
/// 4-connected components of the board without `a`'s stones; only `a` and the edge are walls:
/// empty points, other black and white stones and grey stones (the layer's `OffBoard` cells) lie
/// inside. Under `closed-region-2016: inside` (register D26) the closed regions are the parts
/// other than the outer one, the rest of the board ([`outer_part`], D27's terms); under
/// `whole-board` every part, the outer one included.
pub(crate) fn closed_regions_2016(
    layer: &Layer,
    strings: &Strings,
    a: usize,
    reading: ClosedRegion2016,
) -> Vec<Region> {
    // Inside: every point of the board (off-board grey stones too) but `a`'s stones.
    let bits = crate::judge::eyes::LayerBits::new(layer);
    let walls = &strings.groups[a].points;
    let own = bits.points_of(walls);
    let mut within = bits.all;
    for (w, o) in within.iter_mut().zip(&own) {
        *w &= !o;
    }
    let mut parts = crate::judge::eyes::regions_around(&bits, walls, &within);
    if reading == ClosedRegion2016::Inside {
        let size = layer.size;
        let on_edge = |j: usize| {
            let (x, y) = (j % size, j / size);
            x == 0 || y == 0 || x + 1 == size || y + 1 == size
        };
        let sides: Vec<(usize, bool)> = parts
            .iter()
            .map(|r| (r.points.len(), r.points.iter().any(|&j| on_edge(j))))
            .collect();
        if let Some(k) = outer_part(&sides) {
            parts.remove(k);
        }
    }
    parts
}

/// M16-REGION under `closed-region-2016: inside` on any [`LowerView`] (the fast engine's):
/// whether `region`, one part of the board without string `a`'s stones (all its points), is the
/// outer part of `a`'s ring band ([`outer_part`]) and so no closed region. The other parts are
/// flooded from `a`'s stones; a point is on the edge when it has fewer than four neighbours.
pub(crate) fn is_outer_part_2016(
    v: &impl LowerView,
    a: usize,
    region: impl Iterator<Item = usize> + Clone,
) -> bool {
    let mut seen = [0u64; VIEW_POINTS / 64];
    let mark = |seen: &mut [u64; VIEW_POINTS / 64], p: usize| -> bool {
        let (w, b) = (p / 64 % (VIEW_POINTS / 64), 1u64 << (p % 64));
        let new = seen[w] & b == 0;
        seen[w] |= b;
        new
    };
    let on_edge = |p: usize| v.neighbours(p).count() < 4;
    let mut sides = vec![(0usize, false)];
    let mut start = None;
    for p in region {
        mark(&mut seen, p);
        sides[0].0 += 1;
        sides[0].1 |= on_edge(p);
        if start.is_none() {
            start = v.neighbours(p).find(|&q| v.string_of(q) == Some(a));
        }
    }
    let Some(start) = start else {
        return false;
    };
    // `a`'s stones, then each other part from the points next to them
    let mut own = [0u64; VIEW_POINTS / 64];
    mark(&mut own, start);
    let mut stones = vec![start];
    let mut k = 0;
    while k < stones.len() {
        let p = stones[k];
        k += 1;
        for q in v.neighbours(p) {
            if v.string_of(q) == Some(a) && mark(&mut own, q) {
                stones.push(q);
            }
        }
    }
    let mut stack = Vec::new();
    for &s in &stones {
        for q in v.neighbours(s) {
            if v.string_of(q) == Some(a) || !mark(&mut seen, q) {
                continue;
            }
            let mut side = (0usize, false);
            stack.push(q);
            while let Some(p) = stack.pop() {
                side.0 += 1;
                side.1 |= on_edge(p);
                for r in v.neighbours(p) {
                    if v.string_of(r) != Some(a) && mark(&mut seen, r) {
                        stack.push(r);
                    }
                }
            }
            sides.push(side);
        }
    }
    outer_part(&sides) == Some(0)
}

/// M16-EYE-A — "a、围出私眼的棋串必须具有至少1口内气" (000; the definition's "含有至少1个紧邻空点"):
/// some empty point of the region (its points) is adjacent to string `a`.
pub(crate) fn condition_a(
    v: &impl LowerView,
    a: usize,
    mut region: impl Iterator<Item = usize>,
) -> bool {
    region.any(|p| v.cell(p) == Cell::Empty && v.neighbours(p).any(|q| v.string_of(q) == Some(a)))
}

/// M16-EYE-B — "b、私眼内不能具有其它同色棋串" (000): no stone of `a`'s colour (`colour`) inside the
/// region (`a`'s own stones are never inside).
pub(crate) fn condition_b(
    v: &impl LowerView,
    colour: Colour,
    mut region: impl Iterator<Item = usize>,
) -> bool {
    !region.any(|p| v.cell(p) == Cell::Stone(colour))
}

/// The black/white opponent strings of `a` lying in `region`, ascending.
fn opponent_strings(layer: &Layer, strings: &Strings, a: usize, region: &Region) -> Vec<usize> {
    let Some(colour) = strings.groups[a].colour else {
        return Vec::new();
    };
    let mut out: Vec<usize> = region
        .points
        .iter()
        .filter(|&&p| layer.cells[p] == Cell::Stone(colour.opponent()))
        .filter_map(|&p| strings.of[p])
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// M16-EYE-CAPTURE — "当此封闭区域虽然含有其它异色棋串，但假设这个棋串具有1口外气的情况下，可以通过在封闭
/// 区域内紧气，提吃除灰色棋串以外的异色棋串，则此封闭区域也可以称为这个棋串的私眼" (000). Whether `a`'s
/// side, playing only on the region's empty points while the opponent does not answer, with `a`
/// given one liberty outside the region (so a stone joined to `a` is never suicide), can capture
/// every black/white opponent string inside; grey strings stay (they are walls of the fill, like
/// the edge). `Err(p)` names an empty point of an eye of a string that cannot be captured. The
/// region must meet condition b (no other stone of `a`'s colour inside), as it does when
/// [`judge_regions_2016`] asks.
///
/// Computed by Benson's test restricted to the region: the opponent strings inside that keep
/// two eyes however `a`'s side fills are exactly those that an unanswered filler cannot capture.
/// Candidate eyes are the components of the region's empty points; one that touches `a` is no
/// eye (the filler fills it from `a`, each stone joined to `a`); another is an eye of string X
/// when all its points are liberties of X; X survives while it has two eyes whose bordering
/// strings all survive. The tests check this against a literal stone-by-stone fill.
pub(crate) fn capture_condition(
    layer: &Layer,
    strings: &Strings,
    a: usize,
    region: &Region,
) -> Result<(), usize> {
    let size = layer.size;
    let chains = opponent_strings(layer, strings, a, region);
    if chains.is_empty() {
        return Ok(());
    }
    let mut in_region = vec![false; size * size];
    for &p in &region.points {
        in_region[p] = true;
    }
    let mut done = vec![false; size * size];
    // (points, bordering chains, chains it is an eye of)
    let mut comps: Vec<(Vec<usize>, Vec<usize>, Vec<usize>)> = Vec::new();
    for &p in &region.empty {
        if done[p] {
            continue;
        }
        let comp = flood_marking(
            size,
            p,
            |j| in_region[j] && layer.cells[j] == Cell::Empty,
            &mut done,
        );
        let touches_a = comp
            .iter()
            .any(|&q| neighbours(size, q).any(|r| strings.of[r] == Some(a)));
        let mut borders: Vec<usize> = comp
            .iter()
            .flat_map(|&q| neighbours(size, q))
            .filter_map(|r| strings.of[r])
            .filter(|g| chains.binary_search(g).is_ok())
            .collect();
        borders.sort_unstable();
        borders.dedup();
        let vital: Vec<usize> = if touches_a {
            Vec::new()
        } else {
            borders
                .iter()
                .copied()
                .filter(|&g| {
                    comp.iter()
                        .all(|&q| neighbours(size, q).any(|r| strings.of[r] == Some(g)))
                })
                .collect()
        };
        comps.push((comp, borders, vital));
    }
    let mut alive: Vec<bool> = vec![true; chains.len()];
    let mut region_alive: Vec<bool> = vec![true; comps.len()];
    let idx = |g: usize| chains.binary_search(&g).unwrap_or(0);
    loop {
        let mut changed = false;
        for (k, &g) in chains.iter().enumerate() {
            if !alive[k] {
                continue;
            }
            let eyes = comps
                .iter()
                .enumerate()
                .filter(|(c, (_, _, vital))| region_alive[*c] && vital.contains(&g))
                .count();
            if eyes < 2 {
                alive[k] = false;
                changed = true;
            }
        }
        for (c, (_, borders, _)) in comps.iter().enumerate() {
            if region_alive[c] && borders.iter().any(|&g| !alive[idx(g)]) {
                region_alive[c] = false;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    for (k, &g) in chains.iter().enumerate() {
        if alive[k] {
            let eye = comps
                .iter()
                .enumerate()
                .find(|(c, (_, _, vital))| region_alive[*c] && vital.contains(&g))
                .map(|(_, (pts, _, _))| pts[0])
                .unwrap_or(strings.groups[g].points[0]);
            return Err(eye);
        }
    }
    Ok(())
}

/// M16-EYE-D — "d、私眼内不能有异色棋串（非灰棋串）处于长活状态" (000). No black/white opponent
/// string inside is long-living ([`long_living`] on the lower layer with grey off-board: Benson's
/// pass-alive test, M16-LIFE-3/4, or the seki test, M16-LIFE-5; register D14). `alive` is that
/// flag per string of `strings` for the opponent's colour. Stated as a consequence of
/// M16-EYE-CAPTURE ("由上述私眼的定义可知") and checked on its own: a pass-alive string is never
/// capturable, but a string in seki with `a` is (the fill assumes `a` an outside liberty), so d is
/// what keeps a seki region from being `a`'s private eye (case m16-eye-d-seki). A string with two
/// private eyes is long-living too (D14), but condition c, checked first, already refuses a
/// region holding a string with one private eye.
pub(crate) fn condition_d(
    layer: &Layer,
    strings: &Strings,
    a: usize,
    region: &Region,
    alive: &[bool],
) -> Result<(), usize> {
    for g in opponent_strings(layer, strings, a, region) {
        if alive.get(g).copied().unwrap_or(false) {
            return Err(strings.groups[g].points[0]);
        }
    }
    Ok(())
}

/// How condition c refuses a region.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Spoiled {
    /// An opponent string inside has a private eye that stands (an empty point of it).
    Nested(usize),
    /// An opponent string inside claims a region around this string just as this string claims
    /// one around it, and neither claim is settled by an eye that stands (an empty point of
    /// the opponent's region).
    Mutual(usize),
}

/// M16-EYE-C — "c、私眼内的异色棋串（非灰棋串）不能嵌套私眼，也即如果某个棋串的大私眼中另有某一个异色棋串
/// （非灰棋串），一旦这个异色棋串做出了私眼，则此大私眼即刻失去此棋串的私眼属性，或者，如果某个棋串已经具有了一个
/// 私眼，则另一个异色棋串则不可能在其外部围出另一个私眼" (000; register D26). Judged over the whole board at
/// once, because a string's eye can depend on the eye of a string inside it and, under
/// `closed-region-2016: whole-board`, that string's on its own (two lone stones each inside the
/// other's region).
///
/// `claims[s][k]` says whether region `regions[s][k]` of string `s` is judged by c (it meets a,
/// b and the capture condition) and whether it is a claim that can spoil another (it meets d
/// too: it is a private eye of `s` unless c refuses it). A region R of string A is *opposed* by
/// every claim of every black/white opponent string lying inside R (the opponent "made a
/// private eye" while inside A's). The claims that stand are decided as a grounded fixpoint: a
/// region stands when every claim opposing it has fallen, falls when a claim opposing it
/// stands, and what neither settles falls too — no sentence says which of two strings that
/// enclose each other keeps its eye, and both sentences of c take the inner string's eye over
/// the outer one's, so between two strings each inside the other's region neither keeps it
/// (D26). An eye that nothing opposes stands, and then refuses every region around its string:
/// with a black string keeping a small eye of its own, a lone white stone cannot claim the rest
/// of the board around it ("已经具有了一个私眼 … 不可能在其外部围出另一个私眼"), and the black string's
/// region around the white stone stands.
///
/// Returns, per string and region, `Ok(())` or how c refuses it.
pub(crate) fn condition_c(
    layer: &Layer,
    strings: &Strings,
    regions: &[Vec<Region>],
    claims: &[Vec<(bool, bool)>],
) -> Vec<Vec<Result<(), Spoiled>>> {
    #[derive(Clone, Copy, PartialEq)]
    enum Status {
        Open,
        Stands,
        Falls,
    }
    // (string, region) of every region judged by c, and the claims opposing it
    let mut nodes: Vec<(usize, usize)> = Vec::new();
    let mut index: Vec<Vec<Option<usize>>> = Vec::with_capacity(regions.len());
    for (s, rs) in regions.iter().enumerate() {
        let mut row = vec![None; rs.len()];
        for (k, slot) in row.iter_mut().enumerate() {
            if claims[s].get(k).is_some_and(|c| c.0) {
                *slot = Some(nodes.len());
                nodes.push((s, k));
            }
        }
        index.push(row);
    }
    let opposing: Vec<Vec<usize>> = nodes
        .iter()
        .map(|&(s, k)| {
            opponent_strings(layer, strings, s, &regions[s][k])
                .into_iter()
                .flat_map(|w| {
                    (0..regions[w].len())
                        .filter(move |&j| claims[w].get(j).is_some_and(|c| c.0 && c.1))
                        .filter_map(|j| index[w][j])
                        .collect::<Vec<_>>()
                })
                .collect()
        })
        .collect();
    let mut status = vec![Status::Open; nodes.len()];
    loop {
        let mut changed = false;
        for n in 0..nodes.len() {
            if status[n] != Status::Open {
                continue;
            }
            if opposing[n].iter().any(|&m| status[m] == Status::Stands) {
                status[n] = Status::Falls;
                changed = true;
            } else if opposing[n].iter().all(|&m| status[m] == Status::Falls) {
                status[n] = Status::Stands;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    let point_of = |m: usize| {
        let (w, j) = nodes[m];
        let r = &regions[w][j];
        r.empty.first().copied().unwrap_or(r.points[0])
    };
    regions
        .iter()
        .enumerate()
        .map(|(s, rs)| {
            (0..rs.len())
                .map(|k| {
                    let Some(n) = index[s][k] else {
                        return Ok(());
                    };
                    match status[n] {
                        Status::Stands => Ok(()),
                        Status::Falls => {
                            let by = opposing[n]
                                .iter()
                                .copied()
                                .find(|&m| status[m] == Status::Stands);
                            Err(Spoiled::Nested(point_of(by.unwrap_or(n))))
                        }
                        Status::Open => {
                            let by = opposing[n]
                                .iter()
                                .copied()
                                .find(|&m| status[m] == Status::Open);
                            Err(Spoiled::Mutual(point_of(by.unwrap_or(n))))
                        }
                    }
                })
                .collect()
        })
        .collect()
}

/// M16-EYE — "一个棋串围住的含有至少1个紧邻空点、不含有其它同色棋串的封闭区域 … 当此封闭区域内不含有其它
/// 异色棋串，则此封闭区域可称为这个棋串的私眼；当此封闭区域虽然含有其它异色棋串，但 … 可以 … 提吃除灰色棋串以外
/// 的异色棋串，则此封闭区域也可以称为这个棋串的私眼" (000). The verdict on every closed region of every
/// string of the lower layer, indexed by string: a, b and the capture condition on each region,
/// d on each, then c over the whole board ([`condition_c`]); a region refused by several
/// conditions is reported by the first of a, b, capture, c, d. M16-EYE-GREY-LIFE: only black
/// and white strings have eyes.
pub(crate) fn judge_all_regions_2016(
    layer: &Layer,
    strings: &Strings,
    reading: ClosedRegion2016,
) -> Vec<Vec<(Region, Verdict2016)>> {
    let v = Lower { layer, strings };
    let regions: Vec<Vec<Region>> = (0..strings.groups.len())
        .map(|a| match strings.groups[a].colour {
            Some(_) => closed_regions_2016(layer, strings, a, reading),
            // M16-EYE-GREY-LIFE: a grey string has no eyes
            None => Vec::new(),
        })
        .collect();
    // the long-life flags of each colour's strings, computed when first needed
    let mut alive: [Option<Vec<bool>>; 2] = [None, None];
    // per region: the refusal by a, b or the capture condition, and d's
    let mut first: Vec<Vec<(Option<Verdict2016>, Option<usize>)>> = Vec::new();
    for (a, rs) in regions.iter().enumerate() {
        let Some(colour) = strings.groups[a].colour else {
            first.push(Vec::new());
            continue;
        };
        let row = rs
            .iter()
            .map(|r| {
                let points = || r.points.iter().copied();
                if !condition_a(&v, a, points()) {
                    return (Some(Verdict2016::NoInnerLiberty), None);
                }
                if !condition_b(&v, colour, points()) {
                    return (Some(Verdict2016::SameColourInside), None);
                }
                if !points().any(|p| layer.cells[p] == Cell::Stone(colour.opponent())) {
                    return (None, None);
                }
                if let Err(p) = capture_condition(layer, strings, a, r) {
                    return (Some(Verdict2016::Uncapturable(p)), None);
                }
                let k = usize::from(colour.opponent() == Colour::White);
                let flags =
                    alive[k].get_or_insert_with(|| long_living(layer, strings, colour.opponent()));
                (None, condition_d(layer, strings, a, r, flags).err())
            })
            .collect();
        first.push(row);
    }
    let claims: Vec<Vec<(bool, bool)>> = first
        .iter()
        .map(|row| {
            row.iter()
                .map(|(refused, d)| (refused.is_none(), refused.is_none() && d.is_none()))
                .collect()
        })
        .collect();
    let c = condition_c(layer, strings, &regions, &claims);
    regions
        .into_iter()
        .zip(first)
        .zip(c)
        .map(|((rs, row), cs)| {
            rs.into_iter()
                .zip(row)
                .zip(cs)
                .map(|((r, (refused, d)), c)| {
                    let verdict = match (refused, c, d) {
                        (Some(v), _, _) => v,
                        (None, Err(Spoiled::Nested(p)), _) => Verdict2016::NestedPrivateEye(p),
                        (None, Err(Spoiled::Mutual(p)), _) => Verdict2016::MutualPrivateEye(p),
                        (None, Ok(()), Some(p)) => Verdict2016::LongLiving(p),
                        (None, Ok(()), None) => Verdict2016::PrivateEye,
                    };
                    (r, verdict)
                })
                .collect()
        })
        .collect()
}

/// M16-EYE — every 2016 closed region of every lower-layer string with its verdict, in the
/// engine's vocabulary (what `Analysis` stores under `private-eye: m2016`).
pub(crate) fn judge_regions_2016(
    layer: &Layer,
    strings: &Strings,
    reading: ClosedRegion2016,
) -> Vec<Vec<(Region, RegionVerdict)>> {
    judge_all_regions_2016(layer, strings, reading)
        .into_iter()
        .map(|rs| {
            rs.into_iter()
                .map(|(r, v)| (r, v.to_region_verdict()))
                .collect()
        })
        .collect()
}

/// One 2016 common eye (公眼) of the upper layer: the strings whose ring band closes it, its
/// region and empty points, and whether it is a true eye.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CommonEye2016 {
    /// The upper strings of one colour in its ring band, ascending.
    pub owners: Vec<usize>,
    /// The region (stones inside included), ascending.
    pub points: Vec<usize>,
    /// Its empty points, ascending.
    pub empty: Vec<usize>,
    /// True eye (真眼) or false eye (假眼), `true_eye_2016`.
    pub true_eye: bool,
}

/// M16-COMMON-EYE / M16-COMMON-EYE-GREY / M16-COMMON-EYE-MIXED / M16-COMMON-EYE-CONTENT — "两个或
/// 两个以上同色棋串共同围住的含有至少1个空点的封闭区域 … 或者由一个以上黑棋串（或者白棋串）再加上一个以上处于
/// “中性分隔串”状态的灰棋串共同围住 … 当上述封闭区域内另有棋子（如白子，或灰子，或黑子），不影响此公眼的定性 …
/// 特别地，由黑棋串和白棋串共同参与围住的含有至少1个空点的封闭区域不是公眼" (000 九.3). The common eyes of the
/// upper layer (neutral grey off-board, converted grey joined to its colour): the 2016 closed
/// regions (九.1, the inside of a ring band, `judge::rings2016`) whose ring band holds
/// two strings of one colour, or one and a neutral grey string; the stones inside are left out
/// of the ring. A region the other colour must help close runs into the rest of the board
/// (M16-COMMON-EYE-MIXED); one closed by a single string (and the edge) is no common eye.
/// Each eye's truth is read under `reading` (`false-eye-2016`, register D32).
pub fn common_eyes_2016(
    upper: &Layer,
    strings: &Strings,
    reading: FalseEye2016,
) -> Vec<CommonEye2016> {
    crate::judge::rings2016::rings_2016(upper, strings)
        .into_iter()
        .filter(crate::judge::rings2016::is_common_eye)
        .map(|r| CommonEye2016 {
            true_eye: true_eye_2016(upper, strings, &r.owners, &r.empty, reading),
            owners: r.owners,
            points: r.points,
            empty: r.empty,
        })
        .collect()
}

/// M16-TRUE-EYE / M16-FALSE-EYE — "私眼皆是真眼；不能在黑棋串（或白棋串）共享的公眼中下白子（或黑子）来提吃
/// 此黑棋串（或白棋串），则此公眼也是真眼 … 能 … 提吃此黑棋串（或白棋串），则此公眼是假眼" (000). A common
/// eye (its empty points `empty`, ascending, on the upper layer) is true when the opponent,
/// playing inside it, cannot capture a string sharing it (`owners`): no owner has all its
/// liberties inside the eye (the opponent can fill those, the last fill capturing). Under
/// `false-eye-2016: two-colour-go` (the default, register D32: 「真眼是两色围棋中的概念，也适用于萌式三色
/// 围棋」) a one-point eye is also false when the opponent's stones hold two of its diagonal
/// points, or one when the eye is on the edge (Go's diagonal false eye: the opponent can then
/// put a string sharing it in atari from outside, and the eye must be filled to save it).
pub(crate) fn true_eye_2016(
    upper: &Layer,
    strings: &Strings,
    owners: &[usize],
    empty: &[usize],
    reading: FalseEye2016,
) -> bool {
    // M16-FALSE-EYE: a stone played inside captures a string sharing the eye
    if owners.iter().any(|&g| {
        strings.groups[g]
            .liberties
            .iter()
            .all(|l| empty.binary_search(l).is_ok())
    }) {
        return false;
    }
    let (Some(&g), [p]) = (owners.first(), empty) else {
        return true;
    };
    let Some(colour) = strings.groups[g].colour else {
        return true;
    };
    match reading {
        FalseEye2016::InsideCapture => true,
        // M16-FALSE-EYE under two-colour-go: the diagonal false eye
        FalseEye2016::TwoColourGo => {
            let size = upper.size;
            let (x, y) = ((p % size) as isize, (p / size) as isize);
            let n = size as isize;
            let inside = |a: isize, b: isize| a >= 0 && b >= 0 && a < n && b < n;
            let on_edge = x == 0 || y == 0 || x == n - 1 || y == n - 1;
            let held = [(-1, -1), (1, -1), (-1, 1), (1, 1)]
                .iter()
                .filter(|(dx, dy)| inside(x + dx, y + dy))
                .filter(|(dx, dy)| {
                    let q = ((y + dy) * n + (x + dx)) as usize;
                    upper.cells[q] == Cell::Stone(colour.opponent())
                })
                .count();
            held < if on_edge { 1 } else { 2 }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::coord::Point;
    use crate::board::grid::Board;
    use crate::board::layers::{lower_layer, Attribute};
    use crate::board::strings::flood;
    use crate::board::strings::strings_of;
    use crate::judge::analysis::Analysis;
    use crate::rules::Rules;

    /// Every 2016 closed region of string `a` with the detailed verdict on it (judged
    /// with every other string's, [`judge_all_regions_2016`]).
    fn judge_regions_2016_detailed(
        layer: &Layer,
        strings: &Strings,
        a: usize,
        reading: ClosedRegion2016,
    ) -> Vec<(Region, Verdict2016)> {
        // only black and white strings have eyes
        if strings.groups[a].colour.is_none() {
            return Vec::new();
        }
        judge_all_regions_2016(layer, strings, reading)
            .into_iter()
            .nth(a)
            .unwrap_or_default()
    }

    /// The 2016 private eyes of string `a` (the regions [`judge_all_regions_2016`] calls private eyes).
    fn private_eyes_2016(
        layer: &Layer,
        strings: &Strings,
        a: usize,
        reading: ClosedRegion2016,
    ) -> Vec<Region> {
        judge_regions_2016_detailed(layer, strings, a, reading)
            .into_iter()
            .filter(|(_, v)| *v == Verdict2016::PrivateEye)
            .map(|(r, _)| r)
            .collect()
    }

    /// The upper corners of 000's worked examples (shared with spec/cases/m16-*.yaml).
    const EXAMPLE: &str = "
. # # O . . . . . . . . . . O O . X .
X # O . . O . . . . . . . . O . O X .
X X O O . O . . . . . . . . O O O X X
. # O O O O . . . . . . . . . . # # .
# # # . . . . . . . . . . . . . # # .
X # . . . . . . . . . . . . . O O X .
. . O . . . . . . . . . . . . O . . .
O O O . . . . . . . . . . . . O O O .
. . . . . . . . . . . . . . . . . . .
. . . . . . . . . . . . . . . . . . .
. . . . . . . . . . . . . . . . . . .
. . . . . . . . . . . . . . . . . . .
. . . . . . . . . . . . . . . . . . .
. . . . . . . . . . . . . . . . . . .
. . . . . . . . . . . . . . . . . . .
. . . . . . . . . . . . . . . . . . .
. . . . . . . . . . . . . . . . . . .
. . . . . . . . . . . . . . . . . . .
. . . . . . . . . . . . . . . . . . .
";

    fn board(d: &str) -> Board {
        let rows = d.lines().filter(|l| !l.trim().is_empty()).count();
        Board::from_diagram(d, rows).unwrap()
    }

    fn at(b: &Board, s: &str) -> usize {
        b.index(Point::parse(s, b.size()).unwrap())
    }

    /// The common eyes upper string `g` shares.
    fn common_of(a: &Analysis, g: usize) -> Vec<CommonEye2016> {
        common_eyes_2016(&a.upper, &a.upper_strings, FalseEye2016::TwoColourGo)
            .into_iter()
            .filter(|e| e.owners.contains(&g))
            .collect()
    }

    fn eyes_of(b: &Board, s: &str) -> Vec<Vec<usize>> {
        let layer = lower_layer(b);
        let strings = strings_of(&layer);
        let g = strings.of[at(b, s)].unwrap();
        private_eyes_2016(&layer, &strings, g, ClosedRegion2016::Inside)
            .into_iter()
            .map(|r| r.empty)
            .collect()
    }

    #[test]
    fn m16_ex_ul_i8_has_no_private_eye_only_common_eyes() {
        let b = board(EXAMPLE);
        assert!(eyes_of(&b, "I八").is_empty());
        let a = Analysis::new(&b, &Rules::preset("m3go-2016").unwrap());
        let g = a.upper_strings.of[at(&b, "I八")].unwrap();
        let common = common_of(&a, g);
        let mut empty: Vec<Vec<usize>> = common.iter().map(|e| e.empty.clone()).collect();
        empty.sort();
        let mut want = vec![vec![at(&b, "I九")], vec![at(&b, "I六")]];
        want.sort();
        assert_eq!(empty, want);
        assert!(common.iter().all(|e| e.true_eye && e.owners == vec![g]));
        for p in ["H八", "G五"] {
            let f = a.flower_of[at(&b, p)].unwrap();
            assert_eq!(a.flowers[f].attribute, Attribute::Neutral, "{p}");
        }
    }

    #[test]
    fn m16_false_eye_when_an_enclosing_string_has_no_other_liberty() {
        // OO is closed by four black stones; AO's only liberty is OO, so a white stone there
        // captures it: a common eye, but a false one.
        let b = board(
            "
. . . . .
. O X . .
O X . X .
. O X . .
. . . . .
",
        );
        let a = Analysis::new(&b, &Rules::preset("m3go-2016").unwrap());
        let g = a.upper_strings.of[at(&b, "AO")].unwrap();
        let common = common_of(&a, g);
        assert_eq!(common.len(), 1);
        assert_eq!(common[0].empty, vec![at(&b, "OO")]);
        assert!(!common[0].true_eye);
        // The other colour's stone beside an empty point makes it no common eye (mixed).
        let w = a.upper_strings.of[at(&b, "A一")].unwrap();
        assert!(common_of(&a, w).is_empty());
    }

    #[test]
    fn m16_ex_ul_2020_differs_i9_is_a_private_eye_there() {
        let b = board(EXAMPLE);
        let a = Analysis::new(&b, &Rules::preset("m3go-2020").unwrap());
        let g = a.lower_strings.of[at(&b, "I八")].unwrap();
        assert_eq!(a.private_eyes(g).count(), 2);
    }

    #[test]
    fn m16_ex_ur_private_eyes_closed_by_one_string() {
        let b = board(EXAMPLE);
        assert_eq!(eyes_of(&b, "七八"), vec![vec![at(&b, "六八")]]);
        let mut e = eyes_of(&b, "八九");
        e.iter_mut().for_each(|v| v.sort());
        let mut want = vec![at(&b, "九九"), at(&b, "九八")];
        want.sort();
        assert_eq!(e, vec![want]);
        assert!(eyes_of(&b, "七四").is_empty());
        assert!(eyes_of(&b, "八四").is_empty());
    }

    fn verdicts(b: &Board, s: &str) -> Vec<Verdict2016> {
        let layer = lower_layer(b);
        let strings = strings_of(&layer);
        let g = strings.of[at(b, s)].unwrap();
        judge_regions_2016_detailed(&layer, &strings, g, ClosedRegion2016::Inside)
            .into_iter()
            .map(|(_, v)| v)
            .collect()
    }

    #[test]
    fn m16_region_grey_lies_inside_not_a_wall() {
        // Black closes B二-BO with the edge only with the help of grey BO: a 2020 private eye,
        // not a 2016 one (the grey is inside the region, which runs on to the rest of the board
        // and the second black string 二B).
        let b = board(
            "
. X # . .
. X # . .
# # . . .
. . . O .
. . . . X
",
        );
        assert!(eyes_of(&b, "A二").is_empty());
        let layer = lower_layer(&b);
        let strings = strings_of(&layer);
        let g = strings.of[at(&b, "A二")].unwrap();
        // Under `inside` black cuts nothing off (one part: no closed region at all); under
        // `whole-board` that one part, grey BO inside, is its region.
        assert!(closed_regions_2016(&layer, &strings, g, ClosedRegion2016::Inside).is_empty());
        let regions = closed_regions_2016(&layer, &strings, g, ClosedRegion2016::WholeBoard);
        assert!(regions
            .iter()
            .any(|r| r.points.contains(&at(&b, "B二")) && r.points.contains(&at(&b, "BO"))));
        let a = Analysis::new(&b, &Rules::preset("m3go-2020").unwrap());
        let g = a.lower_strings.of[at(&b, "A二")].unwrap();
        assert_eq!(a.private_eyes(g).count(), 1, "2020: grey is off-board");
    }

    #[test]
    fn m16_eye_a_no_inner_liberty() {
        // The empty point inside the black ring touches only white stones.
        let b = board(
            "
X X X X X . .
X O O O X . .
X O . O X . .
X O O O X . .
X X X X X . .
. . . . . . .
X . . . . . O
",
        );
        assert!(verdicts(&b, "C三").contains(&Verdict2016::NoInnerLiberty));
        assert!(eyes_of(&b, "C三").is_empty());
    }

    #[test]
    fn m16_eye_b_same_colour_inside() {
        let b = board(
            "
X X X X X . .
X . . . X . .
X . X . X . .
X . . . X . .
X X X X X . .
. . . . . . .
. . . . . . O
",
        );
        assert!(verdicts(&b, "C三").contains(&Verdict2016::SameColourInside));
    }

    #[test]
    fn m16_eye_capture_dead_white_stone_inside() {
        // One white stone inside a black ring: capturable by filling, so a private eye (the
        // black stone CC spoils the outer region by M16-EYE-B).
        let b = board(
            "
X X X X X . .
X . O . X . .
X . . . X . .
X X X X X . .
. . . . . . .
. . . . . . .
X . . . . . O
",
        );
        assert_eq!(eyes_of(&b, "C三").len(), 1);
        // A white string with two eyes inside is uncapturable.
        let b = board(
            "
X X X X X X X
X O O O O O X
X O . O . O X
X O O O O O X
X . . . . . X
X X X X X X X
X . . . . . O
",
        );
        assert!(verdicts(&b, "C三")
            .iter()
            .any(|v| matches!(v, Verdict2016::Uncapturable(_))));
    }

    #[test]
    fn m16_eye_c_nested_private_eye_spoils_the_big_eye() {
        // A white ring with its own private eye inside the black ring: one-eyed, so an
        // unanswered filler captures it, but c still spoils the black eye.
        let b = board(
            "
X X X X X X X
X . O O O . X
X . O . O . X
X . O O O . X
X . . . . . X
X X X X X X X
. . . . . . O
",
        );
        assert!(verdicts(&b, "C三")
            .iter()
            .any(|v| matches!(v, Verdict2016::NestedPrivateEye(_))));
    }

    #[test]
    fn m16_eye_d_long_living_implies_uncapturable() {
        // A pass-alive opponent string inside is never capturable (a string in seki is: see
        // m16_eye_d_seki_is_capturable_but_long_living).
        let b = board(
            "
X X X X X X X
X O O O O O X
X O . O . O X
X O O O O O X
X . . . . . X
X X X X X X X
X . . . . . O
",
        );
        let layer = lower_layer(&b);
        let strings = strings_of(&layer);
        let g = strings.of[at(&b, "C三")].unwrap();
        let alive = long_living(&layer, &strings, Colour::White);
        for r in closed_regions_2016(&layer, &strings, g, ClosedRegion2016::Inside) {
            if condition_d(&layer, &strings, g, &r, &alive).is_err() {
                assert!(capture_condition(&layer, &strings, g, &r).is_err());
            }
        }
    }

    #[test]
    fn m16_eye_d_seki_is_capturable_but_long_living() {
        // White A四* and black 一四* share their only liberties O四, O三: seki. The fill captures
        // 一四* (condition "capture" holds), but 一四* is long-living, so d refuses the region.
        let b = board(
            "
. . X O . X O X .
. . X O . X O X .
. . X O O O O X .
. . X X X X X X .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
",
        );
        let layer = lower_layer(&b);
        let strings = strings_of(&layer);
        let w = strings.of[at(&b, "A四")].unwrap();
        let inner = strings.of[at(&b, "一四")].unwrap();
        let alive = long_living(&layer, &strings, Colour::Black);
        assert!(alive[inner], "一四* is in seki");
        let r = closed_regions_2016(&layer, &strings, w, ClosedRegion2016::Inside)
            .into_iter()
            .find(|r| r.points.contains(&at(&b, "一四")))
            .unwrap();
        assert!(capture_condition(&layer, &strings, w, &r).is_ok());
        assert!(condition_d(&layer, &strings, w, &r, &alive).is_err());
        assert!(private_eyes_2016(&layer, &strings, w, ClosedRegion2016::Inside).is_empty());
    }

    fn verdicts_under(b: &Board, s: &str, reading: ClosedRegion2016) -> Vec<Verdict2016> {
        let layer = lower_layer(b);
        let strings = strings_of(&layer);
        let g = strings.of[at(b, s)].unwrap();
        judge_regions_2016_detailed(&layer, &strings, g, reading)
            .into_iter()
            .map(|(_, v)| v)
            .collect()
    }

    /// Two lone stones on an empty 9×9 (black B二, white 二B), and the same board turned a
    /// quarter clockwise (二二, BB) with the colours swapped.
    const LONE_STONES: [(&str, [&str; 2]); 2] = [
        (
            "
. . . . . . . . .
. . . . . . . . .
. . X . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . O . .
. . . . . . . . .
. . . . . . . . .
",
            ["B二", "二B"],
        ),
        (
            "
. . . . . . . . .
. . . . . . . . .
. . . . . . X . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . O . . . . . .
. . . . . . . . .
. . . . . . . . .
",
            ["二二", "BB"],
        ),
    ];

    #[test]
    fn m16_eye_c_mutual_lone_stones_neither_keeps_the_rest_of_the_board() {
        for (d, stones) in LONE_STONES {
            let b = board(d);
            for s in stones {
                // inside: a lone stone cuts nothing off, so it has no closed region at all
                assert!(
                    verdicts_under(&b, s, ClosedRegion2016::Inside).is_empty(),
                    "{s}"
                );
                // whole-board: each stone's one region holds the other, which claims one around
                // it: c refuses both (before issue 37 both were 80-point private eyes)
                let v = verdicts_under(&b, s, ClosedRegion2016::WholeBoard);
                assert_eq!(v.len(), 1, "{s}");
                assert!(
                    matches!(v[0], Verdict2016::MutualPrivateEye(_)),
                    "{s}: {v:?}"
                );
            }
        }
    }

    #[test]
    fn m16_eye_c_an_eye_that_stands_keeps_the_enclosing_region() {
        // Black D三* has the corner eye D四 of its own. Under `whole-board` white 二B's region
        // (all but 二B) holds black, whose eye stands: "如果某个棋串已经具有了一个私眼，则另一个异色棋串
        // 则不可能在其外部围出另一个私眼" refuses it, and black's rest of the board around 二B stands.
        let b = board(
            "
. X . . . . . . .
X X . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . O . .
. . . . . . . . .
. . . . . . . . .
",
        );
        let whole = verdicts_under(&b, "D三", ClosedRegion2016::WholeBoard);
        assert_eq!(
            whole,
            vec![Verdict2016::PrivateEye, Verdict2016::PrivateEye],
            "{whole:?}"
        );
        let w = verdicts_under(&b, "二B", ClosedRegion2016::WholeBoard);
        assert!(matches!(w[..], [Verdict2016::NestedPrivateEye(_)]), "{w:?}");
        // inside: the corner only; white has no region
        assert_eq!(eyes_of(&b, "D三"), vec![vec![at(&b, "D四")]]);
        assert!(verdicts_under(&b, "二B", ClosedRegion2016::Inside).is_empty());
    }

    #[test]
    fn m16_region_inside_ring_corner_wall_and_halving_wall() {
        let parts = |d: &str, s: &str, reading| {
            let b = board(d);
            let layer = lower_layer(&b);
            let strings = strings_of(&layer);
            let g = strings.of[at(&b, s)].unwrap();
            let mut sizes: Vec<usize> = closed_regions_2016(&layer, &strings, g, reading)
                .iter()
                .map(|r| r.points.len())
                .collect();
            sizes.sort_unstable();
            sizes
        };
        // a ring in the middle: its inside (one point) is the closed region, not the outside
        let ring = "
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . X . . . .
. . . X . X . . .
. . . . X . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
";
        // four stones, four strings: a lone stone's ring cuts nothing off
        assert_eq!(
            parts(ring, "OA", ClosedRegion2016::Inside),
            Vec::<usize>::new()
        );
        let ring = "
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . X X X . . .
. . . X . X . . .
. . . X X X . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
";
        assert_eq!(parts(ring, "OA", ClosedRegion2016::Inside), vec![1]);
        assert_eq!(parts(ring, "OA", ClosedRegion2016::WholeBoard), vec![1, 72]);
        // a wall from edge to edge: the smaller side (two columns) is inside
        let wall = "
. . X . . . . . .
. . X . . . . . .
. . X . . . . . .
. . X . . . . . .
. . X . . . . . .
. . X . . . . . .
. . X . . . . . .
. . X . . . . . .
. . X . . . . . .
";
        assert_eq!(parts(wall, "BO", ClosedRegion2016::Inside), vec![18]);
        assert_eq!(
            parts(wall, "BO", ClosedRegion2016::WholeBoard),
            vec![18, 54]
        );
        // a wall halving the board: no side is the rest of the board, both are inside
        let halves = "
. . . . X . . . .
. . . . X . . . .
. . . . X . . . .
. . . . X . . . .
. . . . X . . . .
. . . . X . . . .
. . . . X . . . .
. . . . X . . . .
. . . . X . . . .
";
        assert_eq!(parts(halves, "OO", ClosedRegion2016::Inside), vec![36, 36]);
    }

    #[test]
    fn m16_region_inside_fast_view_agrees_with_the_reference_regions() {
        // is_outer_part_2016 (the fast engine's test on a LowerView) says "outer" exactly for the
        // whole-board part that `inside` drops, on deterministic pseudo-random boards
        let mut state = 11u64;
        let mut compared = 0;
        for round in 0..3000 {
            let size = [3, 5, 7, 9][round % 4];
            let mut d = String::new();
            for _ in 0..size {
                for _ in 0..size {
                    let v = crate::game::order::splitmix64(&mut state) % 12;
                    d.push(match v {
                        0..=2 => 'X',
                        3..=4 => 'O',
                        5 => '#',
                        _ => '.',
                    });
                }
                d.push('\n');
            }
            let b = Board::from_diagram(&d, size).unwrap();
            let layer = lower_layer(&b);
            let strings = strings_of(&layer);
            let v = Lower {
                layer: &layer,
                strings: &strings,
            };
            for g in 0..strings.groups.len() {
                let inside = closed_regions_2016(&layer, &strings, g, ClosedRegion2016::Inside);
                for r in closed_regions_2016(&layer, &strings, g, ClosedRegion2016::WholeBoard) {
                    let outer = is_outer_part_2016(&v, g, r.points.iter().copied());
                    assert_eq!(outer, !inside.contains(&r), "string {g}, board\n{d}");
                    compared += 1;
                }
            }
        }
        assert!(compared > 1000, "only {compared} parts compared");
    }

    /// Literal fill, searched exhaustively: `a`'s side plays legal stones on the region's empty
    /// points in every possible order (the opponent never answers; `a` has one liberty outside,
    /// so a stone joined to `a` is never suicide), removing opponent strings left without
    /// liberty; true if some order leaves no black/white opponent stone inside.
    fn literal_capture(layer: &Layer, strings: &Strings, a: usize, region: &Region) -> bool {
        let size = layer.size;
        let colour = strings.groups[a].colour.unwrap();
        let inr: Vec<bool> = (0..size * size)
            .map(|i| region.points.contains(&i))
            .collect();
        let a_pts = strings.groups[a].points.clone();
        let mut seen = std::collections::HashSet::new();
        let mut stack = vec![layer.cells.clone()];
        while let Some(cells) = stack.pop() {
            if !(0..size * size).any(|p| inr[p] && cells[p] == Cell::Stone(colour.opponent())) {
                return true;
            }
            if !seen.insert(cells.clone()) {
                continue;
            }
            for p in 0..size * size {
                if !inr[p] || cells[p] != Cell::Empty {
                    continue;
                }
                let mut c = cells.clone();
                c[p] = Cell::Stone(colour);
                let mut removed = false;
                for q in neighbours(size, p) {
                    if c[q] != Cell::Stone(colour.opponent()) {
                        continue;
                    }
                    let s = flood(size, q, |j| c[j] == Cell::Stone(colour.opponent()));
                    let libs = s
                        .iter()
                        .any(|&x| neighbours(size, x).any(|y| c[y] == Cell::Empty));
                    if !libs {
                        for x in s {
                            c[x] = Cell::Empty;
                        }
                        removed = true;
                    }
                }
                let own = flood(size, p, |j| c[j] == Cell::Stone(colour));
                let joined_a = own.iter().any(|x| a_pts.contains(x));
                let libs = own
                    .iter()
                    .any(|&x| neighbours(size, x).any(|y| c[y] == Cell::Empty));
                if removed || joined_a || libs {
                    stack.push(c);
                }
            }
        }
        false
    }

    #[test]
    fn m16_eye_capture_agrees_with_literal_fill_on_small_boards() {
        // Deterministic pseudo-random 5x5 boards (splitmix64), every region with opponent
        // strings: the Benson computation and the literal fill agree.
        let mut state = 7u64;
        let mut compared = 0;
        for _ in 0..8000 {
            let mut d = String::new();
            for _ in 0..5 {
                for _ in 0..5 {
                    let v = crate::game::order::splitmix64(&mut state) % 10;
                    d.push(match v {
                        0..=2 => 'X',
                        3..=5 => 'O',
                        6 => '#',
                        _ => '.',
                    });
                }
                d.push('\n');
            }
            let b = Board::from_diagram(&d, 5).unwrap();
            let layer = lower_layer(&b);
            let strings = strings_of(&layer);
            // only settled boards: every black/white string has a liberty
            if strings.groups.iter().any(|s| s.liberties.is_empty()) {
                continue;
            }
            for g in 0..strings.groups.len() {
                for r in closed_regions_2016(&layer, &strings, g, ClosedRegion2016::WholeBoard) {
                    let v = Lower {
                        layer: &layer,
                        strings: &strings,
                    };
                    if opponent_strings(&layer, &strings, g, &r).is_empty()
                        || !condition_b(
                            &v,
                            strings.groups[g].colour.unwrap(),
                            r.points.iter().copied(),
                        )
                        || r.empty.len() > 10
                    {
                        continue;
                    }
                    let engine = capture_condition(&layer, &strings, g, &r).is_ok();
                    let literal = literal_capture(&layer, &strings, g, &r);
                    assert_eq!(
                        engine, literal,
                        "string {g} region {:?} board\n{d}",
                        r.points
                    );
                    compared += 1;
                }
            }
        }
        assert!(compared > 100, "only {compared} regions compared");
    }
}
